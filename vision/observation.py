"""A table reading -> the observation JSON (DESIGN.md; exact shape in docs/observation-format.md).

Decisions are the most probable reading; probabilities ride along for the move tracker. A region that is covered,
out of view or moving is flagged occluded and its confidence capped low, so it is never mistaken for evidence.
"""

from __future__ import annotations

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
    return {
        "pattern_lines": lines,
        "wall": wall,
        "floor": floor,
        "score_marker": reading.score_marker,
        "occluded": bool(occluded),
        "confidence": _r(confidence),
        "probabilities": {
            "pattern_lines": [[{k: _r(v) for k, v in slot.items()} for slot in slots] for slots in reading.pattern],
            "wall": [[_r(p) for p in row] for row in reading.wall],
            "floor": [{k: _r(v) for k, v in slot.items()} for slot in reading.floor],
            "score_marker": _r(reading.score_confidence),
        },
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
        },
    }
    if timestamp is not None:
        obs["timestamp"] = float(timestamp)
    return obs
