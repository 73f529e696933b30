"""Tiles never overlap: a tile found on a display that the other tiles of its colour, fitted anew, explain as well
without is a doubt."""

import cv2
import numpy as np

from calibration.colour_model import COLOURS
from vision.counting import RegionCounter, Tile, circle_grid

SIDE = 11.0
G = 40
WHITE, RED, YELLOW, BLACK = (COLOURS.index(c) for c in ("white", "red", "yellow", "black"))


def _display() -> RegionCounter:
    grid, inside = circle_grid((100.0, 100.0), 50.0, G)
    counter = RegionCounter(grid, inside, (200, 200), SIDE)
    counter.set_empty(np.full((1, G, G, 3), (170, 110, 60), np.uint8))  # the blue print
    counter.doubts = np.zeros((1, len(COLOURS) + 1))
    return counter


def _tiles(*boxes: tuple[int, int, int, int], colour: int = WHITE) -> np.ndarray:
    """(1, G, G) labels: tiles of `colour` as (middle y, middle x, height, width) boxes, each motif read as no tile."""
    label = np.full((1, G, G), -1, np.int8)
    for y, x, h, w in boxes:
        label[0, y - h // 2:y + h // 2 + 1, x - w // 2:x + w // 2 + 1] = colour
        cv2.circle(label[0], (x, y), 2, -1, -1)
    return label


def test_a_white_tile_taken_between_two_and_their_crescents_are_two_tiles():
    # Two touching white tiles; one found between them, and one on each crescent its erased disc left.
    label = _tiles((20, 14, 11, 11), (20, 25, 11, 11))
    found = [Tile(0, WHITE, 20, 20, 0.97), Tile(0, WHITE, 20, 11, 0.56), Tile(0, WHITE, 20, 29, 0.53)]
    assert len(_display()._overlapping(found, label)) == 2


def test_a_red_tile_found_on_another_one_and_its_crescent_is_one_tile():
    # A red tile found, and again on the crescent its erased disc left, beside a red tile apart from it.
    label = _tiles((14, 20, 11, 11), (27, 20, 11, 11), colour=RED)
    found = [Tile(0, RED, 14, 20, 1.0), Tile(0, RED, 24, 20, 0.9), Tile(0, RED, 30, 20, 0.55)]
    kept = _display()._overlapping(found, label)
    assert len(kept) == 2 and found[0] in kept


def test_two_white_tiles_seen_foreshortened_close_together_stay_two():
    # Seen obliquely, two touching tiles' middles lie 0.64 sides apart on the display's grid.
    label = _tiles((16, 20, 7, 11), (23, 20, 7, 11))
    found = [Tile(0, WHITE, 16, 20, 0.9), Tile(0, WHITE, 23, 20, 0.9)]
    assert len(_display()._overlapping(found, label)) == 2


def test_rendered_two_touching_red_tiles_are_not_read_as_three():
    # Tuning seed 8 (colored walls, tilted 42 degrees), frame 0, display 8: two red tiles read as three.
    from web_dashboard.vision_bench import bench_frames

    rec, view, frame = next(bench_frames(8, 1))
    seen = rec.recognize(frame.image)["factories"][8]
    assert {c: seen.get(c, 0) for c in COLOURS} == {c: view["factories"][8].get(c, 0) for c in COLOURS}
    assert view["factories"][8].get("red", 0) == 2


def test_rendered_two_touching_white_tiles_are_not_read_as_three():
    # Tuning seed 15 (colored walls), frame 0, display 7: three white tiles, two of them touching, read as four
    # (one taken between the two, and each one's crescent beside it).
    from web_dashboard.vision_bench import bench_frames

    rec, view, frame = next(bench_frames(15, 1))
    seen = rec.recognize(frame.image)["factories"][7]
    assert {c: seen.get(c, 0) for c in COLOURS} == {c: view["factories"][7].get(c, 0) for c in COLOURS}
    assert view["factories"][7].get("white", 0) == 3


def test_a_tile_seen_by_its_shape_a_side_from_one_of_its_colour_that_explains_its_pixels_is_a_doubt():
    # A yellow tile, and beside it a place seen by its shape alone (its halo voted yellow), 1.0 sides away.
    label = _tiles((20, 14, 11, 11), colour=YELLOW)
    label[0, 17:24, 20:22] = YELLOW  # the tile's blurred edge
    found = [Tile(0, YELLOW, 20, 14, 1.0), Tile(0, YELLOW, 20, 25, 0.5)]
    assert _display()._overlapping(found, label) == found[:1]


def test_two_touching_yellow_tiles_a_side_apart_stay_two():
    label = _tiles((20, 14, 11, 11), (20, 25, 11, 11), colour=YELLOW)
    found = [Tile(0, YELLOW, 20, 14, 1.0), Tile(0, YELLOW, 20, 25, 1.0)]
    assert len(_display()._overlapping(found, label)) == 2


def test_rendered_a_yellow_halo_seen_by_its_shape_is_no_third_tile():
    # Tuning seed 30 (colored walls), frame 1, display 5: two yellow tiles 1.1 sides apart read as three, a place
    # between them seen by its shape alone (0.93 and 1.05 sides from them) voted yellow.
    from web_dashboard.vision_bench import bench_frame

    rec, view, frame = bench_frame(30, 1)
    seen = rec.recognize(frame.image)["factories"][5]
    assert {c: seen.get(c, 0) for c in COLOURS} == {c: view["factories"][5].get(c, 0) for c in COLOURS}
    assert view["factories"][5].get("yellow", 0) == 2


def test_two_touching_black_tiles_in_the_centre_are_not_read_as_three():
    # Their motifs read as no tile: a core between them is as full as on either, and each one's crescent is left.
    grid, inside = circle_grid((300.0, 300.0), 300.0, 100)
    counter = RegionCounter(grid, inside, (600, 600), SIDE, allow_marker=True, capacity=100)
    label = np.full((1, 100, 100), -1, np.int8)
    for x in (30, 41):
        label[0, 45:56, x - 5:x + 6] = BLACK
        cv2.circle(label[0], (x, 50), 3, -1, -1)
    assert counter.count_labels(label, np.zeros(1))[0].counts == {"black": 2}
