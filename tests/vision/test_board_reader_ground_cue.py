"""The ground cue (never-covered ground patches that changed: something is over the board) does not count the
arrow column's patches beside a tile: seen obliquely, a tile's side face and shadow lean over them."""

import numpy as np

from calibration.geometry import PATTERN, WALL
from calibration.profile import BoardLayout
from calibration.reference import BoardSpaces
from vision.board_reader import GROUND_OCCLUDED_DELTA_E, BoardReader, _ground_covered


def _arrow_column() -> tuple[BoardReader, list[int]]:
    reader = BoardReader(BoardSpaces.of(BoardLayout()).main, None, None, 16)
    beside = [sorted((reader.spaces[j].kind, reader.spaces[j].index) for j in row if j >= 0)
              for row in reader.ground_beside]
    arrows = [g for g, near in enumerate(beside) if near]
    assert [beside[g] for g in arrows] == [[(PATTERN, (r, 0)), (WALL, (r, 0))] for r in range(5)]
    return reader, arrows


def test_arrow_patches_beside_tiles_are_no_witness_of_a_hand():
    reader, arrows = _arrow_column()
    change = np.full(len(reader.ground), 2.0, np.float32)
    change[arrows[1:3]] = GROUND_OCCLUDED_DELTA_E + 4.0  # rows 1 and 2: tiles' side faces (recorded gray game 33)
    tiles = np.zeros(len(reader.ground), bool)
    tiles[arrows[1:3]] = True
    assert _ground_covered(change, np.zeros_like(tiles))  # as before: two patches changed
    assert not _ground_covered(change, tiles)
    hand = np.full(len(reader.ground), GROUND_OCCLUDED_DELTA_E + 4.0, np.float32)
    assert _ground_covered(hand, tiles)  # a hand over the board changes the other patches too
