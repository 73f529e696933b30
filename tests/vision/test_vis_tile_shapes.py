"""Tiles found as shapes on a display's label grid, and the empty-table capture that keeps print from being tiles."""

import cv2
import numpy as np
import pytest

from calibration.colour_model import COLOURS, TILE_CLASSES
from vision.counting import RegionCounter, _core, _core_and_whole, _filter, _refilter, circle_grid
from vision.recognizer import TableRecognizer
from vision.setup import learn_setup

SIDE = 11.0
RED, BLUE = COLOURS.index("red"), COLOURS.index("blue")
WHITE, BLACK = COLOURS.index("white"), COLOURS.index("black")


def _counter() -> RegionCounter:
    grid, inside = circle_grid((100.0, 100.0), 50.0, 40)
    return RegionCounter(grid, inside, (200, 200), SIDE)


def _square(label: np.ndarray, colour: int, cx: float, cy: float, angle: float = 0.0, side: float = SIDE) -> None:
    box = cv2.boxPoints(((cx, cy), (side, side), angle))
    mask = np.zeros(label.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 1)
    label[mask.astype(bool)] = colour


def _centre() -> RegionCounter:
    grid, inside = circle_grid((300.0, 300.0), 300.0, 100)
    return RegionCounter(grid, inside, (600, 600), SIDE, allow_marker=True, capacity=100)


def _count(label: np.ndarray) -> dict:
    counter = _counter()
    found = counter.find_tiles(label[None])
    return {COLOURS[c]: sum(t.colour == c for t in found) for c in {t.colour for t in found}}


@pytest.mark.parametrize("angle", [0.0, 30.0, 45.0])
def test_touching_tiles_of_one_colour_are_counted_one_by_one(angle):
    label = np.full((40, 40), -1, np.int8)
    ux, uy = np.cos(np.radians(angle)) * SIDE, np.sin(np.radians(angle)) * SIDE
    for k in range(3):
        _square(label, RED, 12 + k * ux, 14 + k * uy, angle)
    assert _count(label) == {"red": 3}


@pytest.mark.parametrize("angle, spacing", [(0.0, 1.05), (30.0, 1.0), (45.0, 1.0)])
def test_two_touching_tiles_whose_motifs_read_as_no_tile_are_two(angle, spacing):
    # Each tile's middle, its motif, reads as no tile (a white tile's dark snowflake): the place between the two,
    # all of their colour, filled a whole tile's disc better than either middle and was taken first; its tile's
    # erased disc left two crescents, each counted again (3), or neither (1).
    label = np.full((40, 40), -1, np.int8)
    ux, uy = np.cos(np.radians(angle)) * SIDE * spacing, np.sin(np.radians(angle)) * SIDE * spacing
    for k in range(2):
        _square(label, WHITE, 14 + k * ux, 15 + k * uy, angle)
        cv2.circle(label, (round(14 + k * ux), round(15 + k * uy)), 2, -1, -1)
    assert _count(label) == {"white": 2}


def test_a_block_of_four_and_a_lone_tile():
    label = np.full((40, 40), -1, np.int8)
    for dx in (0, SIDE):
        for dy in (0, SIDE):
            _square(label, BLUE, 12 + dx, 12 + dy)
    assert _count(label) == {"blue": 4}
    label[:] = -1
    _square(label, RED, 20, 20, 20.0)
    assert _count(label) == {"red": 1}


def test_thin_things_of_a_tile_colour_are_no_tiles():
    label = np.full((40, 40), -1, np.int8)
    label[8:32, 18:20] = BLUE  # a petal, a shadow band: long but a fifth of a tile wide
    label[5:7, 5:30] = RED
    assert _count(label) == {}


def test_the_empty_table_capture_is_stored_and_used(plain_table):
    profile = plain_table.profile
    setup = profile.learned["setup"]
    assert all(f.get("empty") for f in setup["factories"]) and setup["center"].get("empty")
    rec = TableRecognizer(profile)
    assert rec.factories.empty is not None and rec.centre.empty is not None
    without = learn_setup(plain_table.calibration, plain_table.setup_frames)
    assert "empty" not in without.learned["setup"]["factories"][0]
    assert TableRecognizer(without).factories.empty is None


def test_the_empty_table_reads_empty_with_the_capture(plain_table):
    rec = TableRecognizer(plain_table.profile)
    obs = rec.recognize(plain_table.empty_frames[0])
    assert all(not {k: v for k, v in f.items() if k not in ("occluded", "confidence")} for f in obs["factories"])
    assert not any(v for k, v in obs["center"].items() if k in COLOURS)


def test_empty_frames_of_another_size_are_refused(plain_table):
    from vision.setup import SetupError

    small = [cv2.resize(f, (320, 240)) for f in plain_table.empty_frames]
    with pytest.raises(SetupError, match="differ in size"):
        learn_setup(plain_table.calibration, plain_table.setup_frames, empty=small)


def test_a_display_never_holds_more_than_four_tiles():
    label = np.full((40, 40), -1, np.int8)
    for k, (cx, cy) in enumerate([(10, 10), (23, 10), (10, 23), (23, 23)]):
        _square(label, COLOURS.index(("red", "blue", "yellow", "white")[k]), cx, cy)
    label[30:36, 30:38] = COLOURS.index("black")  # a stain just big enough to fill a core, less than the tiles
    counter = _counter()
    (count,) = counter.count_labels(label[None], np.zeros(1))
    assert count.counts == {"red": 1, "blue": 1, "yellow": 1, "white": 1}
    assert count.count_confidence["black"] < 0.5


def test_a_still_display_is_averaged_over_frames_and_a_changed_one_starts_again():
    counter = _counter()
    rng = np.random.default_rng(1)
    clean = np.full((200, 200, 3), 120, np.uint8)
    cv2.rectangle(clean, (80, 80), (110, 110), (40, 40, 200), -1)

    def noisy(img):
        return np.clip(img + rng.normal(0, 6, img.shape), 0, 255).astype(np.uint8)

    truth = counter.sample(clean).astype(np.float32)
    first = counter._steady(counter.sample(noisy(clean))).astype(np.float32)
    for _ in range(8):
        steady = counter._steady(counter.sample(noisy(clean))).astype(np.float32)
    assert np.abs(steady - truth).mean() < 0.6 * np.abs(first - truth).mean()
    moved = clean.copy()
    cv2.rectangle(moved, (60, 60), (95, 95), (200, 120, 40), -1)  # a tile put down
    now = counter._steady(counter.sample(moved)).astype(np.float32)
    assert np.abs(now - counter.sample(moved).astype(np.float32)).max() < 1.0


def test_a_motif_is_not_a_tile_of_its_own():
    label = np.full((40, 40), -1, np.int8)
    _square(label, WHITE, 20, 20)
    _square(label, BLACK, 20, 20, side=0.4 * SIDE)  # a white tile's dark snowflake, as the labels see it
    assert "black" not in _count(label)


def test_touching_tiles_of_two_colours_are_two_tiles():
    label = np.full((40, 40), -1, np.int8)
    _square(label, RED, 14, 20)
    _square(label, BLUE, 14 + 0.9 * SIDE, 20)  # a side apart, foreshortened
    assert _count(label) == {"red": 1, "blue": 1}


def test_a_crowded_centre_is_counted_tile_by_tile():
    # A centre-sized region (there tiles are found window by window as the earlier ones are explained away): 20
    # touching tiles in rows, two colours in runs, a little turned.
    label = np.full((100, 100), -1, np.int8)
    for row in range(4):
        for col in range(5):
            colour = (RED, BLUE)[(row * 5 + col) // 3 % 2]
            _square(label, colour, 25 + col * SIDE * 1.02, 30 + row * SIDE * 1.02, angle=4.0)
    (count,) = _centre().count_labels(label[None], np.zeros(1))
    assert count.counts == {"red": 11, "blue": 9}


@pytest.mark.parametrize("kernel", [_core(SIDE), _core_and_whole(SIDE)])
def test_a_window_filtered_again_is_exactly_the_whole_filter(kernel):
    # Tiles are explained away and only the window they reach is filtered again: in whole pixel counts the
    # sums, and so the ties between places, are exactly those of filtering the whole region again.
    rng = np.random.default_rng(3)
    for _ in range(40):
        h, w = rng.integers(12, 90, 2)
        mask = (rng.random((h, w)) < 0.4).astype(np.float32)
        score = _filter(mask, kernel)
        y, x = int(rng.integers(0, h)), int(rng.integers(0, w))
        mask[max(0, y - 7):y + 8, max(0, x - 7):x + 8] = 0.0
        _refilter(score, mask, kernel, y, x, 7 + kernel.shape[0] // 2)
        assert np.array_equal(score, _filter(mask, kernel))


def test_rims_of_marker_colour_round_tiles_are_no_marker_but_its_face_is():
    # On a pale table the lit bevels round tiles, and the table in their shadow, read as the cream marker: thin
    # rims that fill the ring of a core between four tiles, but not a tile's whole face.
    marker = TILE_CLASSES.index("first_player")
    label = np.full((100, 100), -1, np.int8)
    places = [(40 + dx * SIDE, 40 + dy * SIDE) for dx in (0, 1.5) for dy in (0, 1.5)]
    for cx, cy in places:
        _square(label, marker, cx, cy, side=SIDE + 3)
    for (cx, cy), colour in zip(places, (RED, BLUE, WHITE, RED)):
        _square(label, colour, cx, cy)
    (count,) = _centre().count_labels(label[None], np.zeros(1))
    assert count.counts == {"red": 2, "blue": 1, "white": 1} and not count.first_player
    _square(label, marker, 75, 75)
    _square(label, BLACK, 75, 75, side=0.3 * SIDE)  # its printed figure
    (count,) = _centre().count_labels(label[None], np.zeros(1))
    assert count.counts == {"red": 2, "blue": 1, "white": 1} and count.first_player
