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
