"""Pattern lines and the floor fill in one order without gaps: a space read empty between tiles is covered
(seeds < 1000; the bench measures on others)."""

import numpy as np
import pytest

from vision.board_reader import _in_fill_order
from web_dashboard.vision_bench import run_game


def test_a_gap_between_sure_tiles_is_filled_and_sure_rows_stand():
    order = np.array([[0, 1, 2, 3], [4, 5, -1, -1]])  # a row of four spaces and one of two
    occupancy = np.array([[0.3, 0.95, 0.97, 0.02, 0.1, 0.9, 0.5],  # a missed first space; a gap in a short row
                          [0.99, 0.98, 0.01, 0.02, 0.99, 0.02, 0.5],  # clean fills
                          [0.01, 0.02, 0.01, 0.03, 0.01, 0.01, 0.5]])  # empty
    out = _in_fill_order(occupancy, order)
    assert out[0, 0] > 0.9 and out[0, 3] < 0.1
    assert (out[1:, :6] > 0.5).tolist() == [[True, True, False, False, True, False], [False] * 6]
    assert (out[:, 6] == 0.5).all()  # not in any row: as read
    # a row's chances never rise along its fill order
    assert (np.diff(out[:, :4], axis=1) <= 1e-9).all() and (out[:, 5] <= out[:, 4] + 1e-9).all()


@pytest.mark.parametrize("seed", [426, 580])
def test_a_first_player_marker_missed_on_the_floor_no_longer_shifts_the_floor(seed):
    # Tuning seeds 426 (1280x720) and 580 (640x480, tilted 41 degrees): the marker, cream on the cream floor, was
    # read as an empty space in one frame, so every floor tile after it was reported one space to the left
    # (6 and 3 floor spaces wrong); none after.
    score, _ = run_game(seed, 4, 4, size=None)
    assert [e for e in score.errors if e[0] == "board" and e[2] == "floor"] == []
