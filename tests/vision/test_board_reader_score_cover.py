"""The score track's cue (spaces changed away from the cube: something is over the board's far edge) counts spaces
changed near one another, as a hand or sleeve changes them, not single ones noise changes here and there."""

import numpy as np

from vision.board_reader import SCORE_COVER_SPACES, _track_covered

SPACES = 101  # 0, then scores 1-100, 20 to a row


def _away(*boards: list[int]) -> np.ndarray:
    away = np.zeros((len(boards), SPACES), bool)
    for k, spaces in enumerate(boards):
        away[k, spaces] = True
    return away


def test_single_changed_spaces_are_no_hand():
    # Recorded tuning game 702, board 2, nothing over it: spaces 20, 95 and 100 changed by 12-14 delta E.
    scattered = [20, 95, 100]
    assert len(scattered) >= SCORE_COVER_SPACES  # as many as flagged the board before
    assert not _track_covered(_away(scattered, [1, 40, 100], [37, 40, 41, 44])).any()  # 40 ends a row, 41 starts one


def test_spaces_changed_near_one_another_are_a_hand():
    # A hand over the track: along a row, across rows, and every other space under its shadow (tuning seed 37).
    covered = _track_covered(_away([45, 46, 47], [74, 94, 95], [11, 13, 15, 17, 35], [12, 32, 33, 88]))
    assert covered.tolist() == [True, True, True, True]
    assert not _track_covered(_away([45, 46])).any()  # two spaces are not enough, as before
