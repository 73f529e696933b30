"""A tile lying a little past its display's circle is no hand: the rim cells beside a tile the display's counter
reads there count as unchanged (recorded tuning games 702 and 711: displays flagged covered all the while a tile
lay over their rim, with nothing over them)."""

import numpy as np
import pytest

from vision.counting import FACTORY_GRID, circle_grid
from vision.occlusion import RIM_FRACTION, OcclusionCheck, RimWatcher
from vision.synthetic.hands import SKIN_TONES, SLEEVES, Hand
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer
from web_dashboard.vision_bench import calibrated_recognizer, random_view

CENTRE, RADIUS = (100.0, 100.0), 20.0  # one display, 1 grid pixel an image pixel
TABLE, TILE = (200, 200, 200), (40, 40, 200)  # BGR: a grey table (and rim), a red tile


def _display():
    grid, inside = circle_grid(CENTRE, RADIUS, FACTORY_GRID)
    bare = np.full((FACTORY_GRID, FACTORY_GRID, 3), TABLE[0], np.uint8)
    rims = RimWatcher(grid, bare[None], (200, 200), [(CENTRE, RADIUS)], [None], inside)
    return rims, inside


def _frame(*boxes) -> np.ndarray:
    frame = np.full((200, 200, 3), TABLE, np.uint8)
    for (x0, x1, y0, y1), colour in boxes:
        frame[y0:y1, x0:x1] = colour
    return frame


def _label(inside: np.ndarray, x0: int, x1: int, y0: int, y1: int) -> np.ndarray:
    """The counter's classes on the display's grid (its pixel (i, j) lies at (80 + j, 80 + i) in the image):
    red (2) inside the box, -1 elsewhere and beyond `inside`."""
    label = np.full((1, FACTORY_GRID, FACTORY_GRID), -1)
    box = np.zeros_like(inside)
    box[y0 - 80:y1 - 80, x0 - 80:x1 - 80] = True
    label[0][box & inside] = 2
    return label


def test_a_tile_over_the_rim_is_no_hand():
    rims, inside = _display()
    tile = (106, 119, 94, 107)  # a tile from 0.3 to past 0.95 radii, on the right
    frame = _frame((tile, TILE))
    bare = rims.check(frame, None, [_unflagged()])[0]
    assert bare.occluded and bare.rim > RIM_FRACTION  # as before: its rim cells changed
    seen = rims.check(frame, None, [_unflagged()], _label(inside, *tile))[0]
    assert not seen.occluded and seen.rim == 0


def test_a_hand_over_the_rim_beside_a_tile_is_still_flagged():
    rims, inside = _display()
    tile = (106, 119, 94, 107)
    arm = (60, 95, 90, 110)  # crossing the rim on the left, off the tile's reach
    frame = _frame((tile, TILE), (arm, (90, 140, 190)))
    check = rims.check(frame, None, [_unflagged()], _label(inside, *tile))[0]
    assert check.occluded and check.rim > RIM_FRACTION


def _unflagged() -> OcclusionCheck:
    return OcclusionCheck(0.0, 0.0, False)


@pytest.fixture(scope="module")
def tuning_30():
    """Tuning seed 30's bench table (4 players) and its first view: display 1's tiles lie over its rim."""
    rng = np.random.default_rng([30, 77])
    renderer = Renderer(4, "colored", Look.random(30), 30)
    rec = calibrated_recognizer(renderer, 4, rng)
    return renderer, rec, renderer.pieces(random_view(4, rng), salt=0)


def test_a_display_whose_tiles_lie_over_its_rim_is_read(tuning_30):
    # Its rim read 7.5 % of its cells changed, all beside its tiles: covered before, with nothing over it.
    renderer, rec, pieces = tuning_30
    frame = renderer.render(pieces)
    assert not frame.occluded["factories"][1]
    obs = rec.recognize(frame.image)
    assert not obs["factories"][1]["occluded"]


def test_a_hand_over_a_display_beside_its_tiles_is_still_flagged(tuning_30):
    renderer, rec, pieces = tuning_30
    x, y = renderer.table.factories[1]
    flagged = []
    for k, seat in enumerate(renderer.table.seats):
        for dx, dy in ((5.0, -5.0), (-10.0, 10.0)):
            hand = Hand((x + dx, y + dy), seat, SKIN_TONES[k % len(SKIN_TONES)], SLEEVES[k % len(SLEEVES)], 60.0)
            frame = renderer.render(pieces, hands=(hand,), shake=False)
            assert frame.occluded["factories"][1]
            rec._previous = None
            region = rec.recognize(frame.image)["factories"][1]
            flagged.append(region["occluded"] and region["confidence"] <= 0.2)
    assert all(flagged)
