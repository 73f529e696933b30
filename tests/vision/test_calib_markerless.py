"""A nudged board is found again from its own print (rendered: a board moved on the table)."""

import numpy as np

from calibration.markerless import MarkerlessTracker, learn_appearance
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer
from web_dashboard.vision_bench import random_view


def _frame(shift_mm: float, seed: int = 31):
    look = Look(tilt_deg=10.0, noise_sigma=2.0, clutter=0)
    r = Renderer(2, "colored", look, seed)
    if shift_mm:
        import dataclasses

        boards = list(r.table.boards)
        b = boards[0]
        boards[0] = dataclasses.replace(b, centre=(b.centre[0] + shift_mm, b.centre[1] + shift_mm * 0.5))
        r.table = dataclasses.replace(r.table, boards=tuple(boards))
        r.placer.table = r.table
        r._base = r._draw_base(np.random.default_rng([seed, 1]))
    view = random_view(2, np.random.default_rng(3))
    return r, r.render(r.pieces(view), shake=False).image


def test_a_nudged_board_is_tracked_and_an_unmoved_one_stays():
    r0, before = _frame(0.0)
    corners = np.array(r0.calibration().boards[0].corners, np.float32)
    tracker = MarkerlessTracker(learn_appearance(before, corners), corners)
    found, ok = tracker.update(before)
    assert ok and np.abs(found - corners).max() < 3
    r1, after = _frame(25.0)
    moved = np.array(r1.calibration().boards[0].corners, np.float32)
    assert np.abs(moved - corners).max() > 15  # it did move
    found, ok = tracker.update(after)
    assert ok and np.abs(found - moved).max() < 4


def test_a_covered_board_keeps_its_last_pose():
    r0, before = _frame(0.0)
    corners = np.array(r0.calibration().boards[0].corners, np.float32)
    tracker = MarkerlessTracker(learn_appearance(before, corners), corners)
    blank = before.copy()
    x0, y0 = corners.min(axis=0).astype(int)
    x1, y1 = corners.max(axis=0).astype(int)
    blank[max(0, y0 - 40):y1 + 40, max(0, x0 - 40):x1 + 40] = (90, 120, 150)
    found, ok = tracker.update(blank)
    assert not ok and np.allclose(found, corners)
