"""A white reading on a display that is a tile of another colour blurred over the print beside it is no white tile."""

import cv2
import numpy as np

from calibration.colour_model import COLOURS
from vision.counting import RegionCounter, circle_grid

SIDE = 11.0
G = 40
YELLOW, WHITE = COLOURS.index("yellow"), COLOURS.index("white")
YELLOW_LAB = np.array([80.0, 5.0, 70.0], np.float32)


def _display() -> RegionCounter:
    grid, inside = circle_grid((100.0, 100.0), 50.0, G)
    counter = RegionCounter(grid, inside, (200, 200), SIDE)
    counter.set_empty(np.full((1, G, G, 3), (170, 110, 60), np.uint8))  # the blue print
    return counter


def _square(cx: float, cy: float) -> np.ndarray:
    mask = np.zeros((G, G), np.uint8)
    cv2.fillConvexPoly(mask, np.round(cv2.boxPoints(((cx, cy), (SIDE, SIDE), 0.0))).astype(np.int32), 1)
    return mask.astype(bool)


def _yellow_and_white(white_lab) -> dict:
    """A yellow tile and, a tile's side from it, a square that reads white with colour `white_lab(print)`."""
    counter = _display()
    lab = counter.empty.colour.copy()  # (1, G, G, 3): the print, unchanged but where the squares lie
    label = np.full((1, G, G), -1, np.int8)
    yellow, white = _square(14, 20), _square(25, 20)
    label[0][yellow], label[0][white] = YELLOW, WHITE
    lab[0][yellow] = YELLOW_LAB
    lab[0][white] = white_lab(lab[0][white])
    (count,) = counter.count_labels(label, np.zeros(1), label >= 0, lab[..., 0], lab)
    return count.counts


def test_a_white_reading_that_mixes_the_print_and_a_yellow_tile_beside_it_is_no_tile():
    # Blue print and yellow blurred together read grey, as white does.
    assert _yellow_and_white(lambda under: 0.5 * under + 0.5 * YELLOW_LAB) == {"yellow": 1}


def test_a_white_tile_beside_a_yellow_one_is_a_tile():
    assert _yellow_and_white(lambda under: np.array([92.0, 0.0, 2.0], np.float32)) == {"yellow": 1, "white": 1}


def test_rendered_black_tiles_blur_over_the_print_is_no_white_tile():
    # Tuning seed 8 (colored walls), frame 1, display 1: beside a black tile seen obliquely, the blue print and the
    # tile blurred together read white (white 1 too many).
    from web_dashboard.vision_bench import bench_frames

    *_, (rec, view, frame) = bench_frames(8, 2)
    seen = rec.recognize(frame.image)["factories"][1]
    assert {c: seen.get(c, 0) for c in COLOURS} == {c: view["factories"][1].get(c, 0) for c in COLOURS}


def test_a_neighbour_with_no_pixel_of_its_colour_makes_no_halo(recwarn):
    # A black tile seen by its shape alone reads as the print in shadow: no pixel of its disc is black, so it has no
    # colour to mix with the print, and the white tile beside it stays (without a warning from an empty median).
    from vision.counting import Tile

    counter = _display()
    lab = counter.empty.colour.copy()
    label = np.full((1, G, G), -1, np.int8)
    white = _square(25, 20)
    label[0][white] = WHITE
    lab[0][white] = 0.5 * lab[0][white] + 0.5 * YELLOW_LAB  # would mix the print and a yellow tile
    black = Tile(0, COLOURS.index("black"), 20, 14, 0.5)
    found = [Tile(0, WHITE, 20, 25, 1.0), black]
    assert counter._halos(found, label, lab) == found
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
