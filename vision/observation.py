"""A table reading -> the observation JSON (DESIGN.md; exact shape in docs/observation-format.md).

Decisions are the most probable reading; probabilities ride along for the move tracker. A region that is covered,
out of view or moving is flagged occluded and its confidence capped low, so it is never mistaken for evidence.
"""

from __future__ import annotations

from itertools import islice

import numpy as np

from calibration.colour_model import COLOURS
from vision.board_reader import BoardReading
from vision.counting import RegionCount
from vision.occlusion import OcclusionCheck

OCCLUDED_CONFIDENCE = 0.2  # the most an occluded region may claim
MOTION_LEVEL = 12.0  # mean absolute change of a board's patches between frames that means "hands moving"
GLARE_SHARE = 0.05


def wall_colour(row: int, column: int) -> str:
    """The colored side's wall pattern: row 0 is blue, yellow, red, black, white; each row shifts right by one."""
    return COLOURS[(column - row) % 5]


def _r(p: float) -> float:
    return round(float(p), 4)


# A value times 10**4 this near a half-way point (or past ROUND_SAFE) may have been rounded across it by the product
# itself (under 2**-22 off for values under ROUND_SAFE): Python's exact rounding decides those.
ROUND_SLACK = 1e-6
ROUND_SAFE = 2.0 ** 31


def _rounded(values: list[float]) -> list[float]:
    """_r of each value, a board's hundreds at once (Python's round(p, 4) costs a decimal conversion each). round
    takes the nearest of the values n / 10**4 to p (ties to even n); a product p * 10**4 rounded to its nearest whole
    n, divided by 10**4 (an exact division, rounded as round's result is), is the same float, but where the
    product's own rounding may have crossed a half-way point."""
    scaled = np.array(values, np.float64) * 1e4
    whole = np.rint(scaled)
    out = (whole / 1e4).tolist()
    with np.errstate(invalid="ignore"):  # infinities and NaN are round's
        near_half = ~(0.5 - np.abs(scaled - whole) > ROUND_SLACK) | ~(np.abs(scaled) < ROUND_SAFE)
    for i in np.flatnonzero(near_half).tolist():
        out[i] = _r(values[i])
    return out


def board_json(reading: BoardReading, check: OcclusionCheck, motion: float, variant: str) -> dict:
    occluded = reading.occluded or check.occluded or motion > MOTION_LEVEL or check.glare > GLARE_SHARE
    lines = []
    for slots in reading.pattern:
        line = []
        for slot in slots:
            if slot["empty"] < 0.5:
                line.append(max(COLOURS, key=lambda c: slot[c]))
        lines.append(line)
    wall = []
    for r, row in enumerate(reading.wall):
        out_row = []
        for c, p in enumerate(row):
            if p < 0.5:
                out_row.append(None)
            elif variant == "gray":
                probs = reading.colour_probs[_wall_index(r, c)]
                out_row.append(COLOURS[int(probs[:5].argmax())])
            else:
                out_row.append(wall_colour(r, c))
        wall.append(out_row)
    floor = []
    for slot in reading.floor:
        if slot["empty"] < 0.5:
            floor.append(max((k for k in slot if k != "empty"), key=slot.__getitem__))
    confidence = min(reading.confidence, OCCLUDED_CONFIDENCE) if occluded else reading.confidence
    # Every probability rounded at once, then laid out again in the same order (zip stops at a slot's last key
    # before it takes a value past it).
    rounded = iter(_rounded([*(v for slots in reading.pattern for slot in slots for v in slot.values()),
                             *(p for row in reading.wall for p in row),
                             *(v for slot in reading.floor for v in slot.values()),
                             confidence, reading.score_confidence]))
    probabilities = {
        "pattern_lines": [[dict(zip(slot, rounded)) for slot in slots] for slots in reading.pattern],
        "wall": [list(islice(rounded, len(row))) for row in reading.wall],
        "floor": [dict(zip(slot, rounded)) for slot in reading.floor],
    }
    confidence = next(rounded)
    probabilities["score_marker"] = next(rounded)
    return {
        "pattern_lines": lines,
        "wall": wall,
        "floor": floor,
        "score_marker": reading.score_marker,
        "occluded": bool(occluded),
        "confidence": confidence,
        "probabilities": probabilities,
        "flags": {
            "covered": bool(reading.occluded and not reading.out_of_view) or check.occluded,
            "out_of_view": bool(reading.out_of_view),
            "motion": bool(motion > MOTION_LEVEL),
            "glare": bool(check.glare > GLARE_SHARE),
        },
    }


def _wall_index(r: int, c: int) -> int:
    return 15 + r * 5 + c  # main spaces: 15 pattern slots, then the wall row by row


def region_json(count: RegionCount, check: OcclusionCheck, is_centre: bool) -> dict:
    # Glare is the region's own clipped pixels: a lamp's reflection clipping the table round it hides no tile, and
    # a hand there still changes the ring (recorded tuning game 711, white table: displays 8 and 9 and the centre
    # flagged all game by their rings' 15-33 % clipped points, with nothing over them).
    occluded = check.occluded or count.glare > GLARE_SHARE
    out: dict = {c: n for c, n in count.counts.items() if n}
    if is_centre:
        out["first_player"] = bool(count.first_player)
    confidence = count.confidence
    if is_centre:
        confidence *= max(count.first_player_p, 1 - count.first_player_p)
    out["occluded"] = bool(occluded)
    out["confidence"] = _r(min(confidence, OCCLUDED_CONFIDENCE) if occluded else confidence)
    return out


def region_details(count: RegionCount, check: OcclusionCheck) -> dict:
    return {
        "count_confidence": {k: _r(v) for k, v in count.count_confidence.items()},
        "first_player_probability": _r(count.first_player_p),
        "ring_changed": _r(check.changed),
        "glare": _r(count.glare),
        "lamp": round(float(count.lamp), 1),
    }


def build_observation(reading, variant: str, timestamp: float | None = None) -> dict:
    motion = reading.motion or [0.0] * len(reading.boards)
    centre = region_json(reading.centre, reading.centre_check, True)
    obs = {
        "boards": [board_json(b, c, m, variant) for b, c, m in zip(reading.boards, reading.board_checks, motion)],
        "factories": [region_json(f, c, False) for f, c in zip(reading.factories, reading.factory_checks)],
        "center": centre,
        "first_player": centre["first_player"],
        "details": {
            "factories": [region_details(f, c) for f, c in zip(reading.factories, reading.factory_checks)],
            "center": region_details(reading.centre, reading.centre_check),
            "boards": [{"washed": dict(w)} for w in reading.washed],
        },
    }
    if timestamp is not None:
        obs["timestamp"] = float(timestamp)
    return obs
