"""A piece on the floor line stands by the board's edge: the first-player marker on the floor's first space casts its
side face and shadow over the margin ring recorded at setup without it (recorded tuning game 800: board 3 read
covered with no hand for 10.5 s). Ring points beside floor spaces read occupied that alone changed, alike two frames
running, are recorded as a second look (FLOOR_SHADOW); a hand passing over them is no record, one over them after is
still seen, and points beside an empty floor or away from the floor stay watched as before."""

from dataclasses import replace

import numpy as np

from tests.vision.test_occlusion_cube_corner import _hand_over, passing_hand_is_no_record
from vision.recognizer import FLOOR_SHADOW, _record_floor_side
from web_dashboard.vision_bench import bench_frames


def _first_clean_frame():
    # Tuning seed 0 (720p, colored), first clean frame: the marker first on board 0's floor, board 3's floor empty.
    rec, view, frame = next(bench_frames(0, 1))
    assert view["boards"][0]["floor"][0] == "first_player" and view["boards"][3]["floor"] == []
    return rec, frame.image


def _beside_floor_space(board, space: int) -> np.ndarray:
    """The margin ring's points (as laid) within FLOOR_SHADOW of that floor space's square, on either axis."""
    floor = [s for s in board.spaces.main if s.kind == "floor"][space]
    uv = board.geometry.to_board(board.ring.points)
    return np.all(np.abs(uv - (floor.u, floor.v)) < floor.side / 2 + FLOOR_SHADOW, axis=1)


def _shaded_since_setup(rec, image, board: int, points: np.ndarray) -> None:
    """Board `board`'s ring recorded as if those points were 40 delta E lighter at setup (game 800: 18-33 delta E)."""
    ring = rec.boards[board].ring
    ring.reference_lab = np.where(points[:, None], ring.look(image, None) + [40.0, 0.0, 0.0], ring.reference_lab)


def test_the_floor_side_lies_along_the_floor_edge_and_the_board_side_beside_it():
    rec, _ = _first_clean_frame()
    board = rec.boards[0]
    assert board.floor_side.shape == (7, len(board.ring.points))
    side = _beside_floor_space(board, 0)
    assert np.array_equal(board.floor_side[0], side)
    assert 6 <= np.count_nonzero(side) <= 14  # the bottom-left corner: the left edge and the bottom edge by it
    uv = board.geometry.to_board(board.ring.points[side])
    assert (uv[:, 1] > 0.8).all() and (uv[:, 0] < 0.17).all()


def test_the_markers_shade_beside_the_floor_no_longer_covers_the_board_once_alike_twice():
    rec, image = _first_clean_frame()
    side = _beside_floor_space(rec.boards[0], 0)
    _shaded_since_setup(rec, image, 0, side)
    first = rec.recognize(image)["boards"][0]
    assert first["occluded"]  # the ring beside the marker differs from setup, once
    second = rec.recognize(image)["boards"][0]
    assert not second["occluded"] and second["confidence"] > 0.9 and second["floor"][0] == "first_player"
    # Still watched: a hand over those points differs from both looks.
    assert rec.recognize(_hand_over(image, rec.boards[0].ring.points[side]))["boards"][0]["occluded"]


def test_a_hand_passing_over_the_floor_side_is_no_record():
    rec, image = _first_clean_frame()
    side = _beside_floor_space(rec.boards[0], 0)
    _shaded_since_setup(rec, image, 0, side)
    passing_hand_is_no_record(rec, image, _hand_over(image, rec.boards[0].ring.points[side]))


def test_the_side_of_an_empty_floor_stays_watched():
    rec, image = _first_clean_frame()
    _shaded_since_setup(rec, image, 3, _beside_floor_space(rec.boards[3], 0))
    assert all(rec.recognize(image)["boards"][3]["occluded"] for _ in range(3))
    assert rec.boards[3].ring.alternate_lab is None


def test_a_change_away_from_the_floor_stays_watched():
    # Board 0's top edge, far from its floor: the same change there is read as something over the board each time.
    rec, image = _first_clean_frame()
    board = rec.boards[0]
    uv = board.geometry.to_board(board.ring.points)
    top = (uv[:, 1] < 0.05) & (uv[:, 0] > 0.4) & (uv[:, 0] < 0.7)
    assert np.count_nonzero(top) >= 6 and not (top & board.floor_side.any(axis=0)).any()
    _shaded_since_setup(rec, image, 0, top)
    assert all(rec.recognize(image)["boards"][0]["occluded"] for _ in range(3))


def test_beside_a_floor_space_read_unsure_the_ring_stays_watched():
    # A hand over the floor reads as no piece surely: beside it nothing is recorded, however still.
    rec, image = _first_clean_frame()
    board = rec.boards[0]
    side = _beside_floor_space(board, 0)
    _shaded_since_setup(rec, image, 0, side)
    reading = rec.read(image).boards[0]
    unsure = replace(reading, floor=[{"first_player": 0.6, "white": 0.3, "empty": 0.1}] + reading.floor[1:])
    for _ in range(3):
        assert _record_floor_side(board, image, unsure, board.ring.check(image, unsure.gain)).occluded
    assert _record_floor_side(board, image, reading, board.ring.check(image, reading.gain)).occluded
    assert not _record_floor_side(board, image, reading, board.ring.check(image, reading.gain)).occluded
