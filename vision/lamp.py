"""What a lamp's reflection hides from the camera, told to the players in words they can act on.

A region vision flags for glare (clipped highlights over its tiles) is no evidence: a hand passing by clears in a
moment, but a lamp mirrored in a display or a board stays, and the companion then cannot follow the moves there
(recorded tuning game 877: factory display 2 flagged for its glare in every frame, 15-24 % of its pixels clipped,
and no move of the game was committed). Only the players can fix that, by tilting the lamp or moving the piece:
this watch says which regions, once their flag has stood over most of LAMP_ADVICE_SECONDS. A weaker reflection
over a display pales its tiles instead (PALE_LAMP): they are read, but a black one may be read as white. Over a
board it can wash spaces out: their print clipped white at setup, a pale tile (or a gleaming one) there clips as the
print did and looks like the empty space (`details.boards[i].washed`).
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
# A board with any of its spaces washed out at setup is named. Of 132 recorded tuning tables (49 whole games on
# 1eba46b, the first 30 s of 83 more on e3281d0), 6 had one, and 5 of those were lost: 313 (board 2: 15 pattern-line
# and 5 floor-line spaces; none of its first 17 moves committed), 728 (board 3: 15 and 3), 788 (board 2: 3 floor-line
# spaces; the first-player marker taken onto them was never seen, and the game stalled at its 6th move), 849 (board
# 1: 12 pattern-line spaces) and 381 (1 floor-line space, and a display paled 60). 323 (board 1: 2 floor-line
# spaces) was followed to the end, 1 of its 2 misplacements flagged.
WASHED_PART_SPACES = {"pattern_lines": ("pattern-line", 15), "wall": ("wall", 25), "floor": ("floor-line", 7)}


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


def washed_boards(observation: dict, hidden: list[Region]) -> list[tuple[Region, str]]:
    """The boards with spaces the lamp's reflection washed out at setup (`details.boards[i].washed`), each with how
    many of which ("15 of 15 pattern-line spaces and 3 of 7 floor-line spaces"), but for those `hidden` (the
    observation's glared_regions, which says those)."""
    out = []
    for i, board in enumerate(_list(_details(observation), "boards")):
        parts = _washed_parts(board)
        if parts and ("board", i) not in hidden:
            out.append((("board", i), parts))
    return out


def _washed_parts(board) -> str:
    """"15 of 15 pattern-line spaces and 3 of 7 floor-line spaces" for a board's `washed` counts (in the
    observation's details or the learned setup; "" for none, or garbage)."""
    washed = board.get("washed") if isinstance(board, dict) else None
    parts = []
    for key, (name, total) in WASHED_PART_SPACES.items():
        n = _number(washed, key)
        if n >= 1:
            parts.append(f"{min(int(n), total)} of {total} {name} spaces")
    return " and ".join(parts)


def at_setup(learned: dict) -> str | None:
    """What the calibration page says of a setup capture under a lamp whose reflection pales displays (the glare
    `learn_setup` read over each, PALE_LAMP or more) or washes out boards' spaces (`washed` of each board), or None:
    the moment to move the lamp is before play."""
    setup = learned.get("setup") if isinstance(learned, dict) else None
    paled = [(j, _number(f, "glare")) for j, f in enumerate(_list(setup, "factories"))
             if _number(f, "glare") >= PALE_LAMP]
    washed = [(("board", i), parts) for i, b in enumerate(_list(setup, "boards")) if (parts := _washed_parts(b))]
    said = []
    if paled:
        read = ", ".join(f"{g:.0f}" for _, g in paled)
        said.append(f"pales the tiles on {_listed([('factory', j) for j, _ in paled])} (read {read}; from "
                    f"{PALE_LAMP:.0f} a black tile there may be read as white)")
    if washed:
        said.append(f"washes out {_washed_listed(washed)} (a tile there may look like an empty space)")
    if not said:
        return None
    moved = " or ".join(p for p, there in (("display", paled), ("board", washed)) if there)
    return (f"the lamp's reflection {' and '.join(said)}: tilt or move the lamp, or move the {moved}, and capture the "
            "setup again")


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


def _washed_listed(washed: list[tuple[Region, str]]) -> str:
    return "; ".join(f"{parts} on {region_name(region)}" for region, parts in washed)


def advice(hidden: list[Region], paled: list[Region] = (), washed: list[tuple[Region, str]] = ()) -> str:
    """The players' advice for regions the lamp hides, displays it pales and boards whose spaces it washes out
    (each with washed_boards' parts) ("" for none)."""
    said = []
    if hidden:
        said.append(f"The lamp's reflection hides {_listed(hidden)}: tiles there cannot be read, so moves there are "
                    "not followed.")
    if paled:
        lead = "It" if said else "The lamp's reflection"
        said.append(f"{lead} pales the tiles on {_listed(paled)}: a black tile there may be read as white.")
    if washed:
        lead = "It" if said else "The lamp's reflection"
        said.append(f"{lead} washes out {_washed_listed(washed)}: a tile there may look like an empty space, and a "
                    "move there may not be followed.")
    if not said:
        return ""
    said.append("Tilt or move the lamp, or move the piece out of the reflection" +
                (", then capture the setup again on the calibration page (the reflection is read there)."
                 if paled or washed else "."))
    return " ".join(said)


@dataclass
class LampWatch:
    """The regions flagged for glare, the displays paled and the boards washed out, over the last `seconds` of
    observations (`observe`, one per frame)."""

    seconds: float = LAMP_ADVICE_SECONDS
    share: float = LAMP_SHARE
    _frames: deque = field(default_factory=deque)  # (timestamp, hidden, paled, washed), the last `seconds`
    _since: float | None = None  # the first observation's timestamp

    def observe(self, observation: dict, timestamp: float) -> str:
        """The advice after this observation at `timestamp` (seconds): the regions flagged for glare, the displays
        paled and the boards washed out, in `share` or more of the observations of the last `seconds`, in table
        order (boards, displays, centre), once the watch has seen that long; "" when there are none."""
        if self._frames and timestamp < self._frames[-1][0]:
            self._frames.clear()  # time ran back (a video played again): a new watch
        if not self._frames:
            self._since = timestamp
        hidden = glared_regions(observation)
        self._frames.append((timestamp, hidden, paled_displays(observation), washed_boards(observation, hidden)))
        while timestamp - self._frames[0][0] > self.seconds + 1e-9:
            self._frames.popleft()
        if timestamp - self._since < self.seconds - 1e-9:
            return ""
        return advice(*(self._standing(Counter(r for frame in self._frames for r in frame[k])) for k in (1, 2, 3)))

    def _standing(self, flagged: Counter) -> list:
        """The regions (or washed_boards' (region, parts)) in `share` or more of the frames, in table order."""
        need = self.share * len(self._frames)
        return sorted((r for r, n in flagged.items() if n >= need), key=_table_order)


def _table_order(item) -> tuple[int, int]:
    region = item if isinstance(item[0], str) else item[0]
    return ("board", "factory", "centre").index(region[0]), region[1]
