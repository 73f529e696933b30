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


@pytest.fixture(scope="module")
def game_749():
    """The look of recorded tuning game 749: a far camera, green felt, the lamp's glare 0.87 (the displays' up to
    110, the felt's own bound 33), bright glossy tiles; its renderer and a recogniser set up on it."""
    from vision.synthetic.look import Look
    from vision.synthetic.render import Renderer
    from web_dashboard.vision_bench import calibrated_recognizer

    renderer = Renderer(3, "colored", Look.random(749, 1280, 720), 749)
    return renderer, calibrated_recognizer(renderer, 3, np.random.default_rng([749, 5]))


@pytest.mark.parametrize("tiles", [{"yellow": 2, "red": 2, "black": 1}, {"yellow": 1, "red": 1, "white": 2}])
def test_yellow_tiles_under_the_lamp_in_game_749s_centre_are_read(game_749, tiles):
    # Under more glare than the felt bounds it by, the yellow tiles' clipped red and green lost as much as the rest
    # to the glare and read as no colour: read as bright as the sensor goes, they are yellow (8 placements each:
    # 0 and 1 read right with the displays' glare alone, one without its yellow at 0.91).
    from calibration.colour_model import COLOURS
    from web_dashboard.vision_bench import empty_view

    renderer, recognizer = game_749
    view = empty_view(3)
    view["center"], view["first_player"] = {**tiles, "first_player": True}, True
    for salt in range(8):
        centre = recognizer.recognize(renderer.render(renderer.pieces(view, salt=salt), shake=False).image)["center"]
        assert {c: centre.get(c, 0) for c in COLOURS} == {c: tiles.get(c, 0) for c in COLOURS}, salt
