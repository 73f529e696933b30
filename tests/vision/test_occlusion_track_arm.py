"""A palm the colour of a board's print over its score track changes a few spaces near one another by less than
flags the board, and its margin ring, where the arm crosses it, along an arc by less than a point needs: both side
by side, the board is covered (tuning seed 23: board 2 read confident 1.0). Either alone, or apart, is no hand."""

from types import SimpleNamespace

import numpy as np

from vision.board_reader import _track_doubts
from vision.occlusion import OcclusionCheck, RingWatcher, polygon_ring
from vision.recognizer import _arm_over_track
from web_dashboard.vision_bench import bench_frames

PRINT = 160
SPACES = 101  # 0, then scores 1-100, 20 to a row
SQUARE = [(40.0, 40.0), (160.0, 40.0), (160.0, 160.0), (40.0, 160.0)]


def _board(beside: slice = slice(0, 32), spaces: slice = slice(1, 4)) -> SimpleNamespace:
    """A board whose margin ring runs round SQUARE, its top edge first (points 0-31, then the right, bottom and
    left edges), with track `spaces` beside the ring's points `beside`."""
    ring = RingWatcher(polygon_ring(SQUARE, 1.0), (200, 200), np.full((1, 128, 3), PRINT, np.uint8))
    beside_track = np.zeros((SPACES, 128), bool)
    beside_track[spaces, beside] = True
    return SimpleNamespace(ring=ring, beside_track=beside_track)


def _frame(arm: bool) -> np.ndarray:
    frame = np.full((200, 200, 3), PRINT, np.uint8)
    if arm:
        frame[30:50, 60:110] = PRINT - 30  # an arm across the top edge: about 10 delta E over a stretch of the ring
    return frame


def _covered(board: SimpleNamespace, frame: np.ndarray, doubt: tuple[int, ...]) -> bool:
    clear = OcclusionCheck(0.0, 0.0, False)
    return _arm_over_track(board, frame, SimpleNamespace(track_doubt=doubt, gain=None), clear).occluded


def test_an_arm_across_the_margin_beside_the_tracks_doubt_covers_the_board():
    assert not _board().ring.check(_frame(True), None).occluded  # the ring alone sees no hand
    assert _covered(_board(), _frame(True), (1, 2, 3))


def test_either_alone_or_apart_is_no_hand():
    assert not _covered(_board(), _frame(True), ())  # the arc, the track unchanged
    assert not _covered(_board(), _frame(False), (1, 2, 3))  # the track's doubt, the ring unchanged
    assert not _covered(_board(slice(64, 96)), _frame(True), (1, 2, 3))  # the arc far from the doubt
    assert not _covered(_board(spaces=slice(2, 4)), _frame(True), (1, 2, 3))  # two of its spaces beside the arc


def test_the_tracks_doubt_is_spaces_changed_near_one_another():
    away = np.zeros((3, SPACES), bool)
    away[0, [9, 10, 31]] = True  # along a row and across (tuning seed 23's palm)
    away[1, [20, 95, 100]] = True  # scattered (recorded tuning game 702: light over the track's corners)
    away[2, [45, 46]] = True  # too few
    assert _track_doubts(away) == [(9, 10, 31), (), ()]


def test_a_palm_over_the_score_track_covers_the_board():
    # Tuning seed 23 (1920x1080, gray walls), the first hands frame: a palm over board 2's score track, 2.7 % of
    # the board hidden, five spaces changed by 10-14 delta E, its margin ring by 6-16 along the covered edge.
    *_, (rec, view, frame) = bench_frames(23, 1, 4, None, True, "gray")
    assert frame.occluded["boards"][2]
    board = rec.recognize(frame.image)["boards"][2]
    assert board["occluded"] and board["confidence"] <= 0.5
