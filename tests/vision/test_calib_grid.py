"""Setup snaps hand-written board corners onto the printed grid of the empty board."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from calibration.grid import printed_squares, snap_corners
from calibration.profile import DEFAULT_LAYOUT
from vision.setup import average_frames, learn_setup

# A person's corners: each off by 3-5 pixels on a board about 150 pixels wide (a careless click, a rounded corner).
CLICK_ERRORS = np.array([[4.0, -3.0], [-3.5, -4.0], [3.0, 4.5], [-4.5, 3.0]])


def _square_error(corners, true_corners, layout) -> np.ndarray:
    """How far each printed square's centre is from where `corners` put it, image pixels."""
    centres = np.array([(u, v) for u, v, _ in printed_squares(layout)])
    return np.linalg.norm(BoardGeometry(corners).to_image(centres) - BoardGeometry(true_corners).to_image(centres),
                          axis=1)


@pytest.mark.parametrize("board", [0, 1, 2, 3])
def test_corners_written_a_few_pixels_off_are_snapped_onto_the_print(varied_table, board):
    frame = average_frames(varied_table.setup_frames, "setup")
    given = varied_table.calibration.boards[board]
    true = np.array(given.corners)
    fit = snap_corners(frame, true + CLICK_ERRORS, given.effective_layout)
    assert fit is not None
    before = _square_error(true + CLICK_ERRORS, true, given.effective_layout)
    after = _square_error(fit.corners, true, given.effective_layout)
    assert before.mean() > 2.5
    assert after.mean() < 1.0 and after.max() < 2.0, (before.mean(), after.mean(), after.max())
    assert fit.squares >= 20


def test_true_corners_stay_and_a_board_without_print_is_left_alone(varied_table):
    frame = average_frames(varied_table.setup_frames, "setup")
    board = varied_table.calibration.boards[0]
    fit = snap_corners(frame, board.corners, board.effective_layout)
    # Already on the print: nothing to move (or at most the board's own print's sub-pixel quirks).
    assert fit is None or _square_error(fit.corners, np.array(board.corners), board.effective_layout).max() < 1.0
    blank = np.full_like(frame, 128)
    assert snap_corners(blank, np.array(board.corners) + CLICK_ERRORS, board.effective_layout) is None


def test_setup_learns_at_the_snapped_corners(varied_table):
    boards = [dataclasses.replace(b, corners=tuple(map(tuple, np.array(b.corners) + CLICK_ERRORS)))
              for b in varied_table.calibration.boards]
    rough = dataclasses.replace(varied_table.calibration, boards=boards)
    learned = learn_setup(rough, varied_table.setup_frames, empty=varied_table.empty_frames)
    for mine, truth in zip(learned.boards, varied_table.calibration.boards):
        assert _square_error(mine.corners, np.array(truth.corners), truth.effective_layout).mean() < 1.0


def test_a_far_board_whose_blurred_print_misleads_the_fit_keeps_its_true_corners():
    # Recorded tuning game 738 (4 players, colored, 1280x720): board 3, far, turned a quarter and foreshortened,
    # in the averaged setup frames (cropped round it). At its true corners a third of its squares are found on a
    # neighbouring motif (the wall's prints) and the rest a pixel or two off; a homography through half of them
    # took in a few strays, and the snap put a corner 4.7 px off, where the squares are found further off than
    # at the true corners. Clicks 3-5 px off are still brought within about 2 px.
    crop = cv2.imread(str(Path(__file__).parent / "data" / "setup_738_board3.png"))
    true = np.array([[37.57, 156.01], [38.7, 34.69], [200.05, 31.77], [238.81, 162.55]])
    fit = snap_corners(crop, true, DEFAULT_LAYOUT)
    assert fit is None or np.linalg.norm(fit.corners - true, axis=1).max() < 1.0
    fit = snap_corners(crop, true + CLICK_ERRORS, DEFAULT_LAYOUT)
    assert fit is not None and np.linalg.norm(fit.corners - true, axis=1).max() < 2.5
