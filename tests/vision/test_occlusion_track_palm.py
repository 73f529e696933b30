"""A palm over a board's score track changes many of its spaces near one another by a little less than flags the
board: that many spaces are a hand whatever the margin ring shows (tuning seed 413: board 3 read confident 1.0)."""

import numpy as np

from vision.board_reader import SCORE_DOUBT_COVER_SPACES, _palm_over_track, _track_doubts
from web_dashboard.vision_bench import bench_frames


def test_a_wide_doubt_is_a_palm_a_narrow_one_is_not():
    away = np.zeros((2, 101), bool)
    away[0, [57, 58, 72, 73, 74, 76, 77, 91, 93, 94, 96, 97]] = True  # tuning seed 413's fingers
    away[1, [20, 21, 22, 40, 41, 42, 60]] = True  # seven: the widest with no hand over it (games 702, 711, 718)
    wide, narrow = _track_doubts(away)
    assert len(wide) == 12 >= SCORE_DOUBT_COVER_SPACES > len(narrow) == 7
    assert _palm_over_track(wide) and not _palm_over_track(narrow) and not _palm_over_track(())


def test_fingers_over_the_score_track_cover_the_board_whatever_its_ring_shows():
    # Tuning seed 413 (640x480, gray walls), the fifth hands frame: fingers over board 3's score track, twelve
    # spaces near one another changed by 10-12 delta E, the margin ring unchanged where the arm came in.
    *_, (rec, view, frame) = bench_frames(413, 5, 4, None, True, "gray")
    assert frame.occluded["boards"][3]
    board = rec.recognize(frame.image)["boards"][3]
    assert board["occluded"] and board["confidence"] <= 0.5
