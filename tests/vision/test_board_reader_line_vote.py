"""A pattern line holds one colour, so its slots vote on it; but tiles of another colour laid on a line are an
illegal placement, and a line read as two colours far likelier than as any one must be reported as read."""

import numpy as np

from calibration.colour_model import TILE_CLASSES
from calibration.profile import BoardLayout
from calibration.reference import BoardSpaces
from vision.board_reader import BoardReader

LAST_LINE = 4


def _last_line_read(slots: list[dict[str, float]]) -> list[str]:
    """The last pattern line's reading, slot by slot (rightmost first), from each slot's colour chances."""
    reader = BoardReader(BoardSpaces.of(BoardLayout()).main, None, None, 16)
    n = len(reader.spaces)
    probs = np.full((1, n, len(TILE_CLASSES)), 1.0 / len(TILE_CLASSES), np.float32)
    occupancy = np.zeros((1, n), np.float32)
    for s, chances in enumerate(slots):
        k = reader.pattern_index[(LAST_LINE, s)]
        occupancy[0, k] = 1.0
        probs[0, k] = 0.0
        for name, p in chances.items():
            probs[0, k, TILE_CLASSES.index(name)] = p
    read = reader._pattern(occupancy, probs, occupancy, np.zeros((1, n), bool))[0][LAST_LINE]
    return [max(colours, key=colours.get) for colours in read]


def test_red_tiles_laid_on_black_ones_read_as_two_colours():
    # Recorded tuning game 895: the black slots read black at 0.96-0.97 only (blue the rival, red 0.001-0.002),
    # the red ones red at 1.0; voted, the line read 5 red and the misplacement was never flagged.
    black = {"black": 0.966, "blue": 0.031, "red": 0.0015, "white": 0.0015}
    red = {"red": 1.0}
    assert _last_line_read([black, black, black, red, red]) == ["black"] * 3 + ["red"] * 2


def test_a_line_with_a_few_doubted_slots_still_reads_one_colour():
    # Slots that lean to another colour, but not surely, are noise the vote reads away.
    red = {"red": 0.99, "yellow": 0.01}
    doubted = {"yellow": 0.9, "red": 0.1}
    assert _last_line_read([red, red, red, doubted, doubted]) == ["red"] * 5
    assert _last_line_read([red, doubted, {"yellow": 0.6, "red": 0.4}]) == ["red"] * 3 + ["empty"] * 2
