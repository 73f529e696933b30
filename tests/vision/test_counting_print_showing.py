"""A faint white tile on a display where the print under it still shows is the pale print, not a tile."""

import cv2
import numpy as np

from calibration.colour_model import COLOURS
from vision.counting import RegionCounter, circle_grid

SIDE = 11.0
G = 40
WHITE = COLOURS.index("white")


def _display() -> RegionCounter:
    grid, inside = circle_grid((100.0, 100.0), 50.0, G)
    counter = RegionCounter(grid, inside, (200, 200), SIDE)
    # The empty display's print: pale stripes, so its lightness varies across a tile's place.
    stripes = (170 + 60 * np.sin(np.arange(G) / 1.5)).astype(np.uint8)
    counter.set_empty(np.repeat(np.broadcast_to(stripes, (G, G))[None, ..., None], 3, axis=3).copy())
    return counter


def _faint_white() -> np.ndarray:
    # A white core round a hole (the motif): the core is full, but under half the tile's disc reads white.
    label = np.full((1, G, G), -1, np.int8)
    cv2.circle(label[0], (20, 20), round(0.38 * SIDE), WHITE, -1)
    cv2.circle(label[0], (20, 20), round(0.2 * SIDE), -1, -1)
    return label


def test_a_faint_white_tile_over_print_that_still_shows_is_a_doubt():
    counter = _display()
    print_shows = counter.empty.lightness + 3.0  # the print, a little lighter: noise moved it past the unchanged test
    label = _faint_white()
    (count,) = counter.count_labels(label, np.zeros(1), label == WHITE, print_shows)
    assert count.counts == {}
    assert count.count_confidence["white"] <= 0.5


def test_a_faint_white_tile_whose_top_hides_the_print_is_a_tile():
    counter = _display()
    top = np.full((1, G, G), 75.0, np.float32) + np.random.default_rng(0).normal(0, 1, (1, G, G)).astype(np.float32)
    label = _faint_white()
    (count,) = counter.count_labels(label, np.zeros(1), label == WHITE, top)
    assert count.counts == {"white": 1}


def test_rendered_pale_print_is_no_white_tile():
    # Tuning seed 3 (640x480, gray walls), frame 0, display 6: an empty display whose pale print read as a white
    # tile (white 1).
    from web_dashboard.vision_bench import bench_frames

    ((rec, view, frame),) = bench_frames(3, 1, variant="gray")
    seen = rec.recognize(frame.image)["factories"][6]
    assert {c: seen.get(c, 0) for c in COLOURS} == {c: view["factories"][6].get(c, 0) for c in COLOURS}


def test_rendered_white_tile_between_others_at_a_rounds_start_is_a_tile():
    # Tuning seed 12 (colored walls), a round's first deal: display 7 holds a black, a red and two white tiles; one
    # white tile, faint between the others, was taken for the print showing (white 1).
    from vision.synthetic.look import Look
    from vision.synthetic.render import Renderer
    from web_dashboard.vision_bench import calibrated_recognizer, setup_view

    rng = np.random.default_rng([12, 78])
    renderer = Renderer(4, "colored", Look.random(12), 12)
    rec = calibrated_recognizer(renderer, 4, rng)
    view = setup_view(4, rng)
    seen = rec.recognize(renderer.render(renderer.pieces(view)).image)["factories"][7]
    assert {c: seen.get(c, 0) for c in COLOURS} == {c: view["factories"][7].get(c, 0) for c in COLOURS}


def _faint(colour: int) -> tuple[np.ndarray, np.ndarray]:
    """A faint tile of `colour` (as _faint_white) and what changed: its core's disc, most of the square round it."""
    label = _faint_white()
    label[label == WHITE] = colour
    yy, xx = np.mgrid[:G, :G]
    return label, ((yy - 20) ** 2 + (xx - 20) ** 2 <= 4.4 ** 2)[None]


def test_a_faint_blue_tile_over_print_that_still_shows_is_a_doubt():
    counter = _display()
    label, changed = _faint(COLOURS.index("blue"))
    (count,) = counter.count_labels(label, np.zeros(1), changed, counter.empty.lightness + 3.0)
    assert count.counts == {}


def test_a_faint_black_tile_over_print_that_still_shows_stays_a_tile():
    # A black tile's top over the pale print reads as that print in shadow in part: it follows the print.
    counter = _display()
    label, changed = _faint(COLOURS.index("black"))
    (count,) = counter.count_labels(label, np.zeros(1), changed, counter.empty.lightness + 3.0)
    assert count.counts == {"black": 1}
