"""Touching white tiles on a display, whose middles read as no tile over the rosette, are settled as k-means would."""

import numpy as np

from calibration.colour_model import COLOURS


def _bench_frames(seed: int, frames: int):
    """(truth, observation) per frame, as `run_game(seed, 4, frames, size=None)` renders and reads them."""
    from web_dashboard.vision_bench import bench_frames

    for rec, view, frame in bench_frames(seed, frames):
        yield view, rec.recognize(frame.image)


def test_two_touching_white_tiles_taken_between_them_are_two():
    # Tuning seed 12 (oak table, glare 0.96), frame 0, display 4: two white tiles side by side. The first was taken
    # between them; its erased disc left the other a doubt (white 1, and its motif read as a black tile).
    view, obs = next(_bench_frames(12, 1))
    seen = {c: obs["factories"][4].get(c, 0) for c in COLOURS}
    assert seen == {c: view["factories"][4].get(c, 0) for c in COLOURS} == {**dict.fromkeys(COLOURS, 0), "white": 2}


def test_settling_moves_a_tile_taken_between_two_onto_its_own():
    import cv2

    from vision.counting import FULL, _settle

    side = 11.0
    mask = np.zeros((40, 40), np.float32)
    for cx in (14, 25):
        mask[15:26, cx - 5:cx + 6] = 1.0
        cv2.circle(mask, (cx, 20), 2, 0.0, -1)  # the motif reads as no tile
    # One tile taken between the two, the other's doubt at its far edge.
    places, face = _settle(mask, [(20, 18), (20, 28)], side)
    assert [(y, x) for y, x, _ in places] == [(20, 14), (20, 25)]
    assert min(f for _, _, f in places) >= FULL and face > 0.5


def _two_white_tiles(side: float) -> np.ndarray:
    import cv2

    mask = np.zeros((40, 40), np.float32)
    for cx in (14, 25):
        mask[15:26, cx - 5:cx + 6] = 1.0
        cv2.circle(mask, (cx, 20), 2, 0.0, -1)  # the motif reads as no tile
    return mask


def test_a_doubt_a_side_from_a_tile_taken_between_two_is_settled():
    from vision.counting import RegionCounter, circle_grid

    side = 11.0
    grid, inside = circle_grid((100.0, 100.0), 50.0, 40)
    counter = RegionCounter(grid, inside, (200, 200), side)
    # The tile taken between the two lies half a side from each; the doubt on the far edge of one, a side from it.
    tiles, doubts = counter._second_look(_two_white_tiles(side), [(20, 20, 0.9)], [(20, 9, 0.45)])
    assert sorted((y, x) for y, x, _ in tiles) == [(20, 14), (20, 25)] and doubts == []


def test_rendered_doubt_a_side_from_a_white_tile_taken_between_two_is_a_tile_or_a_doubt():
    # Tuning seed 12 (oak table, glare 0.96), frame 3, display 7: two red and two white tiles. The first white
    # tile was taken between the white two; the doubt on the farther lay 0.93 sides from it, beyond APART.
    # Settling read it right (white 2, confidence 0.83) in the light of the one board then read uncovered (no hand
    # is in the frame: tiles' side faces on their ground patches flagged the other three). In the light of two
    # boards the far white stays a doubt (white 1): the display must then say it is unsure.
    view, obs = list(_bench_frames(12, 4))[-1]
    display = obs["factories"][7]
    seen = {c: display.get(c, 0) for c in COLOURS}
    assert {c: view["factories"][7].get(c, 0) for c in COLOURS} == {**dict.fromkeys(COLOURS, 0), "red": 2, "white": 2}
    assert seen == {**dict.fromkeys(COLOURS, 0), "red": 2, "white": 2} or display["confidence"] < 0.5
    assert seen["red"] == 2 and seen["white"] >= 1
