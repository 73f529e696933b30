"""A floor holds the first-player marker once at most: under a lamp's glare pale tiles can each look like it, and
the floor's spaces are read together so that only the most marker-like keeps it."""

import numpy as np
import pytest

from calibration.colour_model import TILE_CLASSES
from calibration.geometry import PATTERN
from calibration.profile import BoardLayout
from calibration.reference import BoardSpaces
from vision.board_reader import BoardReader, _no_marker_in_lines, _one_marker

MARKER = TILE_CLASSES.index("first_player")
YELLOW = TILE_CLASSES.index("yellow")


def _floor(marker_chances: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """A board's class probabilities with its floor spaces' chances of the marker, the rest yellow."""
    reader = BoardReader(BoardSpaces.of(BoardLayout()).main, None, None, 16)
    probs = np.full((len(reader.spaces), len(TILE_CLASSES)), 1.0 / len(TILE_CLASSES), np.float32)
    floor = np.array(reader.floor_index)
    probs[floor] = 0.0
    probs[floor[:len(marker_chances)], MARKER] = marker_chances
    probs[floor[:len(marker_chances)], YELLOW] = 1.0 - np.array(marker_chances)
    probs[floor[len(marker_chances):], YELLOW] = 1.0
    return probs, floor


def test_only_the_most_marker_like_floor_space_reads_the_marker():
    probs, floor = _floor([0.95, 0.7, 0.7, 0.8])
    occupancy = np.ones(len(probs), np.float32)
    read = _one_marker(probs, occupancy, floor[None]).argmax(axis=1)[floor[:4]]
    assert list(read) == [MARKER, YELLOW, YELLOW, YELLOW]  # read one by one: the marker four times
    out = _one_marker(probs, occupancy, floor[None])
    assert np.allclose(out.sum(axis=1), 1.0)
    assert np.array_equal(out[np.setdiff1d(np.arange(len(probs)), floor)],
                          probs[np.setdiff1d(np.arange(len(probs)), floor)])  # only the floor is read again


def test_a_marker_alone_on_its_floor_stays_the_marker():
    probs, floor = _floor([0.8, 0.1, 0.05])
    out = _one_marker(probs, np.ones(len(probs), np.float32), floor[None])
    assert out[floor[0]].argmax() == MARKER and out[floor[0], MARKER] > 0.75


def test_an_empty_space_does_not_take_the_marker_from_a_tile():
    probs, floor = _floor([0.7, 0.9])
    occupancy = np.ones(len(probs), np.float32)
    occupancy[floor[1]] = 0.02  # its colour is read, but nothing lies there
    out = _one_marker(probs, occupancy, floor[None])
    assert out[floor[0]].argmax() == MARKER


def test_a_pattern_line_space_that_reads_as_the_marker_reads_as_its_empty_print():
    # The marker never lies in a pattern line and its class is the print's cream: a line's space read as occupied
    # with the marker's colour is its empty print (recorded tuning game 718: read yellow at 0.99 by the line's
    # vote over the tiles' colours). A tile's colour is no evidence of a tile: occupancy is never raised.
    reader = BoardReader(BoardSpaces.of(BoardLayout()).main, None, None, 16)
    probs = np.zeros((len(reader.spaces), len(TILE_CLASSES)), np.float32)
    probs[:, YELLOW] = 1.0
    line, tile, floor = reader.pattern_index[(3, 0)], reader.pattern_index[(3, 1)], reader.floor_index[0]
    probs[[line, floor], YELLOW], probs[[line, floor], MARKER] = 1e-4, 1.0 - 1e-4
    occupancy = np.full(len(probs), 0.99, np.float32)
    occupancy[reader.pattern_index[(4, 0)]] = 0.01
    out = _no_marker_in_lines(occupancy, probs, reader.kind == PATTERN)
    assert out[line] < 0.05  # the marker's colour in a line: empty
    assert out[tile] == pytest.approx(0.99) and out[floor] == pytest.approx(0.99)  # a tile's colour; the floor
    assert out[reader.pattern_index[(4, 0)]] == pytest.approx(0.01)  # a tile's colour does not make a tile
