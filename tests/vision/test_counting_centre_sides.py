"""In the centre a faint black core beside a clearer tile is that tile's side face or shadow, not a black tile."""

import cv2
import numpy as np

from calibration.colour_model import COLOURS
from vision.counting import RegionCounter, circle_grid

SIDE = 11.0
BLUE, BLACK = COLOURS.index("blue"), COLOURS.index("black")


def _centre() -> RegionCounter:
    grid, inside = circle_grid((300.0, 300.0), 300.0, 100)
    return RegionCounter(grid, inside, (600, 600), SIDE, allow_marker=True, capacity=100)


def _label(black_x: int) -> np.ndarray:
    label = np.full((100, 100), -1, np.int8)
    cv2.fillConvexPoly(label, np.round(cv2.boxPoints(((30, 50), (SIDE, SIDE), 0.0))).astype(np.int32), BLUE)
    # A black core round a hole: full where a core looks, but under half of a tile's disc.
    cv2.circle(label, (black_x, 50), round(0.38 * SIDE), BLACK, -1)
    cv2.circle(label, (black_x, 50), round(0.2 * SIDE), -1, -1)
    return label


def test_a_faint_black_core_beside_a_tile_is_its_side():
    (count,) = _centre().count_labels(_label(37)[None], np.zeros(1))
    assert count.counts == {"blue": 1}
    assert count.count_confidence["black"] <= 0.5


def test_a_faint_black_core_alone_is_still_a_tile():
    (count,) = _centre().count_labels(_label(70)[None], np.zeros(1))
    assert count.counts == {"blue": 1, "black": 1}
