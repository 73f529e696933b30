"""The centre's tiles are read under as much of the lamp's glare as a display round it showed: on a dark table half
its darkest channel bounds the glare too low."""

import cv2
import numpy as np
import pytest

from calibration.colour_model import ColourModel
from vision.counting import RegionCounter, circle_grid
from vision.light import from_lab

SIZE = 220
DARK_FELT = (30, -25, 8)  # L*a*b*: its red channel is dark, half of it short of a strong lamp's glare


def _centre_under_the_lamp(top, glare: float) -> tuple[np.ndarray, np.ndarray]:
    """The bare centre and the centre with four tiles of the colour `top` (L*a*b*), under a lamp's reflection of
    `glare` (an additive grey, 8-bit) that glossy tiles mirror half as much again as the table."""
    table = np.empty((SIZE, SIZE, 3), np.float32)
    table[:] = from_lab(np.array(DARK_FELT, np.float32))
    dealt = table.copy()
    for x, y in ((75, 80), (145, 80), (75, 140), (145, 140)):
        tile = np.zeros((SIZE, SIZE), np.uint8)
        cv2.fillConvexPoly(tile, np.round(cv2.boxPoints(((x, y), (28, 28), 15.0))).astype(np.int32), 1)
        dealt[tile.astype(bool)] = from_lab(np.array(top, np.float32)) + 0.5 * glare
    return tuple(np.clip(img + glare, 0, 255).astype(np.uint8) for img in (table, dealt))


def _centre_counts(bare, dealt, displays_glare: float) -> dict:
    grid, inside = circle_grid((110.0, 110.0), 90.0, 72)
    centre = RegionCounter(grid, inside, (SIZE, SIZE), 11.0, allow_marker=True)
    centre.set_empty(centre.sampler.sample(bare), np.ones(3, np.float32), displays_glare=displays_glare)
    return centre.count(dealt, ColourModel.default(), None)[0].counts


@pytest.mark.parametrize(("top", "glare"), [((25, 0, -5), 60.0), ((25, 0, -5), 80.0), ((50, 60, 40), 80.0)])
def test_tiles_on_a_dark_table_under_the_lamp_read_with_the_displays_glare(top, glare):
    # Bounded by half the dark felt's red channel (41-51), the glare fitted fell short: the black tiles read grey
    # (nothing), the red ones washed pink (nothing). A display round the centre showed 100.
    bare, dealt = _centre_under_the_lamp(top, glare)
    colour = "black" if top[0] < 30 else "red"
    assert _centre_counts(bare, dealt, 100.0) == {colour: 4}


def test_without_glare_on_the_displays_the_dark_tables_own_bound_stands():
    # The same black tiles under 40 of glare read right with the table's own bound alone.
    bare, dealt = _centre_under_the_lamp((25, 0, -5), 40.0)
    assert _centre_counts(bare, dealt, 0.0) == {"black": 4}
