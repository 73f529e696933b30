"""What a lamp's reflection hides from the camera, told to the players in words they can act on.

A region vision flags for glare (clipped highlights over its tiles) is no evidence: a hand passing by clears in a
moment, but a lamp mirrored in a display or a board stays, and the companion then cannot follow the moves there
(recorded tuning game 877: factory display 2 flagged for its glare in every frame, 15-24 % of its pixels clipped,
and no move of the game was committed). Only the players can fix that, by tilting the lamp or moving the piece:
this watch says which regions, once their flag has stood over most of LAMP_ADVICE_SECONDS. A weaker reflection
over a display pales its tiles instead (PALE_LAMP): they are read, but a black one may be read as white.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from dataclasses import dataclass, field

from tracker.explain import Region, region_name
from vision.observation import GLARE_SHARE

# A hand or a passing reflection (a tile lifted through the light) clears within a move; a flag that stands over
# most of this long is the lamp. Most, not all: a display at the edge of the reflection is flagged in one frame and
# not the next as the camera shakes (tuning seed 877's display 2: 4.4-7.5 % of its pixels clipped, GLARE_SHARE 5 %).
LAMP_ADVICE_SECONDS, LAMP_SHARE = 3.0, 0.75
# A display whose tiles the lamp's reflection pales this much (`details.factories[j].lamp`, read at setup) is read,
# but a black tile there may read as white, surely, and the deal and the moves from it with it. Recorded tuning
# games on one commit (1eba46b), by their displays' most at setup: 60 or more, 5 games of 5 not followed to the end
# (60, 90, 90, 110, 120); 40-50, 2 of 5; under 40, 4 of 39.
PALE_LAMP = 60.0

def glared_regions(observation: dict) -> list[Region]:
    """The regions an observation (docs/observation-format.md) flags for glare: a board by its `flags.glare` (not
    while it is flagged covered: what clips then may be the hand), a display or the centre by its clipped share
    (`details.*.glare`) over GLARE_SHARE. Keys an observation lacks, or garbage in them, count as no glare."""
    out: list[Region] = []
    for i, board in enumerate(_list(observation, "boards")):
        flags = board.get("flags") if isinstance(board, dict) else None
        if isinstance(flags, dict) and flags.get("glare") is True and not flags.get("covered"):
            out.append(("board", i))
    details = _details(observation)
    out += [("factory", j) for j, region in enumerate(_list(details, "factories"))
            if _number(region, "glare") > GLARE_SHARE]
    if _number(details.get("center"), "glare") > GLARE_SHARE:
        out.append(("centre", 0))
    return out


def paled_displays(observation: dict) -> list[Region]:
    """The displays the lamp's reflection pales (`details.factories[j].lamp` PALE_LAMP or more), but for those
    flagged for glare (glared_regions says those)."""
    return [("factory", j) for j, region in enumerate(_list(_details(observation), "factories"))
            if _number(region, "lamp") >= PALE_LAMP and _number(region, "glare") <= GLARE_SHARE]


def paled_at_setup(learned: dict) -> str | None:
    """What the calibration page says of a setup capture whose displays the lamp's reflection pales (the glare
    `learn_setup` read over each, PALE_LAMP or more), or None: the moment to move the lamp is before play."""
    setup = learned.get("setup") if isinstance(learned, dict) else None
    paled = [(j, _number(f, "glare")) for j, f in enumerate(_list(setup, "factories"))
             if _number(f, "glare") >= PALE_LAMP]
    if not paled:
        return None
    read = ", ".join(f"{g:.0f}" for _, g in paled)
    return (f"the lamp's reflection pales the tiles on {_listed([('factory', j) for j, _ in paled])} (read {read}; "
            f"from {PALE_LAMP:.0f} a black tile there may be read as white): tilt or move the lamp, or move the "
            "display, and capture the setup again")


def _details(observation) -> dict:
    details = observation.get("details") if isinstance(observation, dict) else None
    return details if isinstance(details, dict) else {}


def _list(parent, key: str) -> list:
    value = parent.get(key) if isinstance(parent, dict) else None
    return value if isinstance(value, list) else []


def _number(region, key: str) -> float:
    """region[key] if it is a finite number, else 0."""
    value = region.get(key) if isinstance(region, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return 0.0
    return float(value)


def _listed(regions: list[Region]) -> str:
    names = [region_name(r) for r in regions]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def advice(hidden: list[Region], paled: list[Region] = ()) -> str:
    """The players' advice for regions the lamp hides and displays it pales ("" for none)."""
    said = []
    if hidden:
        said.append(f"The lamp's reflection hides {_listed(hidden)}: tiles there cannot be read, so moves there are "
                    "not followed.")
    if paled:
        lead = "It" if hidden else "The lamp's reflection"
        said.append(f"{lead} pales the tiles on {_listed(paled)}: a black tile there may be read as white.")
    if not said:
        return ""
    said.append("Tilt or move the lamp, or move the piece out of the reflection" +
                (", then capture the setup again on the calibration page (its glare is read there)." if paled else "."))
    return " ".join(said)


@dataclass
class LampWatch:
    """The regions flagged for glare, and the displays paled, over the last `seconds` of observations (`observe`,
    one per frame)."""

    seconds: float = LAMP_ADVICE_SECONDS
    share: float = LAMP_SHARE
    _frames: deque = field(default_factory=deque)  # (timestamp, regions hidden, displays paled), the last `seconds`
    _since: float | None = None  # the first observation's timestamp

    def observe(self, observation: dict, timestamp: float) -> str:
        """The advice after this observation at `timestamp` (seconds): the regions flagged for glare, and the
        displays paled, in `share` or more of the observations of the last `seconds`, in table order (boards,
        displays, centre), once the watch has seen that long; "" when there are none."""
        if self._frames and timestamp < self._frames[-1][0]:
            self._frames.clear()  # time ran back (a video played again): a new watch
        if not self._frames:
            self._since = timestamp
        self._frames.append((timestamp, glared_regions(observation), paled_displays(observation)))
        while timestamp - self._frames[0][0] > self.seconds + 1e-9:
            self._frames.popleft()
        if timestamp - self._since < self.seconds - 1e-9:
            return ""
        return advice(*(self._standing(Counter(r for frame in self._frames for r in frame[k])) for k in (1, 2)))

    def _standing(self, flagged: Counter) -> list[Region]:
        need = self.share * len(self._frames)
        return sorted((r for r, n in flagged.items() if n >= need), key=_table_order)


def _table_order(region: Region) -> tuple[int, int]:
    return ("board", "factory", "centre").index(region[0]), region[1]
