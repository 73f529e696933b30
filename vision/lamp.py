"""What a lamp's reflection hides from the camera, told to the players in words they can act on.

A region vision flags for glare (clipped highlights over its tiles) is no evidence: a hand passing by clears in a
moment, but a lamp mirrored in a display or a board stays, and the companion then cannot follow the moves there
(recorded tuning game 877: factory display 2 flagged for its glare in every frame, 15-24 % of its pixels clipped,
and no move of the game was committed). Only the players can fix that, by tilting the lamp or moving the piece:
this watch says which regions, once their flag has stood over most of LAMP_ADVICE_SECONDS.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

from vision.observation import GLARE_SHARE

# A hand or a passing reflection (a tile lifted through the light) clears within a move; a flag that stands over
# most of this long is the lamp. Most, not all: a display at the edge of the reflection is flagged in one frame and
# not the next as the camera shakes (tuning seed 877's display 2: 4.4-7.5 % of its pixels clipped, GLARE_SHARE 5 %).
LAMP_ADVICE_SECONDS, LAMP_SHARE = 3.0, 0.75

Region = tuple[str, int]  # ("board", i), ("factory", j) or ("centre", 0), as the move tracker names them


def glared_regions(observation: dict) -> list[Region]:
    """The regions an observation (docs/observation-format.md) flags for glare: a board by its `flags.glare` (not
    while it is flagged covered: what clips then may be the hand), a display or the centre by its clipped share
    (`details.*.glare`) over GLARE_SHARE. Keys an observation lacks, or garbage in them, count as no glare."""
    out: list[Region] = []
    for i, board in enumerate(_list(observation, "boards")):
        flags = board.get("flags") if isinstance(board, dict) else None
        if isinstance(flags, dict) and flags.get("glare") is True and not flags.get("covered"):
            out.append(("board", i))
    details = observation.get("details") if isinstance(observation, dict) else None
    details = details if isinstance(details, dict) else {}
    out += [("factory", j) for j, region in enumerate(_list(details, "factories")) if _clipped(region)]
    if _clipped(details.get("center")):
        out.append(("centre", 0))
    return out


def _list(parent, key: str) -> list:
    value = parent.get(key) if isinstance(parent, dict) else None
    return value if isinstance(value, list) else []


def _clipped(region) -> bool:
    share = region.get("glare") if isinstance(region, dict) else None
    return isinstance(share, (int, float)) and not isinstance(share, bool) and share > GLARE_SHARE


def region_name(region: Region) -> str:
    kind, index = region
    return {"board": f"board {index + 1}", "factory": f"factory display {index + 1}"}.get(kind, "the centre")


def advice(hidden: list[Region]) -> str:
    """The players' advice for regions the lamp hides ("" for none)."""
    if not hidden:
        return ""
    names = [region_name(r) for r in hidden]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return (f"The lamp's reflection hides {listed}: tiles there cannot be read, so moves there are not followed. "
            "Tilt or move the lamp, or move the piece out of the reflection.")


@dataclass
class LampWatch:
    """The regions flagged for glare over the last `seconds` of observations (`observe`, one per frame)."""

    seconds: float = LAMP_ADVICE_SECONDS
    share: float = LAMP_SHARE
    _frames: deque = field(default_factory=deque)  # (timestamp, regions flagged), the last `seconds` of them
    _since: float | None = None  # the first observation's timestamp

    def observe(self, observation: dict, timestamp: float) -> str:
        """The advice after this observation at `timestamp` (seconds): the regions flagged for glare in `share` or
        more of the observations of the last `seconds`, in table order (boards, displays, centre), once the watch
        has seen that long; "" when there are none."""
        if self._frames and timestamp < self._frames[-1][0]:
            self._frames.clear()  # time ran back (a video played again): a new watch
        if not self._frames:
            self._since = timestamp
        self._frames.append((timestamp, glared_regions(observation)))
        while timestamp - self._frames[0][0] > self.seconds + 1e-9:
            self._frames.popleft()
        if timestamp - self._since < self.seconds - 1e-9:
            return ""
        flagged = Counter(r for _, regions in self._frames for r in regions)
        need = self.share * len(self._frames)
        return advice(sorted((r for r, n in flagged.items() if n >= need), key=_table_order))


def _table_order(region: Region) -> tuple[int, int]:
    return ("board", "factory", "centre").index(region[0]), region[1]
