import numpy as np
import pytest

from calibration.geometry import FLOOR, GROUND, PATTERN, SCORE, WALL, BoardGeometry, Lens, board_spaces
from calibration.profile import DEFAULT_LAYOUT

CORNERS = [(100.0, 50.0), (400.0, 70.0), (380.0, 360.0), (90.0, 330.0)]


def test_board_corners_map_to_the_unit_square_and_back():
    g = BoardGeometry(CORNERS)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    assert np.allclose(g.to_image(unit), CORNERS, atol=1e-6)
    pts = np.random.default_rng(0).uniform(0, 1, (50, 2))
    assert np.allclose(g.to_board(g.to_image(pts)), pts, atol=1e-9)


def test_lens_distortion_round_trips_and_bends_the_board_lines():
    k = np.array([[800.0, 0, 640], [0, 800.0, 360], [0, 0, 1]])
    lens = Lens(k, np.array([-0.2, 0.05, 0, 0, 0]))
    pts = np.array([[100.0, 80.0], [640.0, 360.0], [1200.0, 700.0]])
    assert np.allclose(lens.distort(lens.undistort(pts)), pts, atol=0.05)
    straight = BoardGeometry(CORNERS)
    bent = BoardGeometry(CORNERS, lens)
    assert np.allclose(bent.to_image(np.array([[0.0, 0.0]])), [CORNERS[0]], atol=0.05)
    # The middle of an edge moves: straight board edges bow through a barrel lens.
    mid = np.array([[0.5, 0.0]])
    assert np.linalg.norm(bent.to_image(mid) - straight.to_image(mid)) > 0.5


def test_board_spaces_cover_every_element_once():
    spaces = board_spaces(DEFAULT_LAYOUT)
    kinds = [s.kind for s in spaces]
    assert kinds.count(PATTERN) == 15 and kinds.count(WALL) == 25 and kinds.count(FLOOR) == 7
    assert kinds.count(SCORE) == 101 and kinds.count(GROUND) >= 10
    # Ground patches never overlap a space a piece can take.
    pieces = [s for s in spaces if s.kind in (PATTERN, WALL, FLOOR)]
    for g in (s for s in spaces if s.kind == GROUND):
        for p in pieces:
            gap = max(abs(g.u - p.u), abs(g.v - p.v)) - (g.side + p.side) / 2
            assert gap > -1e-9, (g, p)


@pytest.mark.parametrize("row,slot", [(0, 0), (4, 4), (2, 1)])
def test_pattern_slot_positions_follow_the_measured_layout(row, slot):
    s = next(s for s in board_spaces(DEFAULT_LAYOUT) if s.kind == PATTERN and s.index == (row, slot))
    assert s.u == pytest.approx(0.431 - 0.0885 * slot)
    assert s.v == pytest.approx(0.386 + 0.0905 * row)
