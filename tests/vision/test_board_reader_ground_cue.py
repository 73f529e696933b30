"""The ground cue (never-covered ground patches that changed: something is over the board) does not count the
arrow column's patches beside a tile: seen obliquely, a tile's side face and shadow lean over them. Nor the band's
patches under a tile (between the last pattern line and wall row and the floor line) unless a patch no tile
explains changed too."""

import numpy as np

from calibration.geometry import PATTERN, WALL
from calibration.profile import BoardLayout
from calibration.reference import BoardSpaces
from vision.board_reader import GROUND_OCCLUDED_DELTA_E, BoardReader, ScoreTrack, _ground_covered


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


def _read(reader: BoardReader, tiles: list[tuple[int, int]], change: dict[int, float]) -> bool:
    """Whether a board with tiles on these pattern-line slots (line, slot), its ground patches changed so (patch:
    delta E, the rest 3), reads covered."""
    occupancy = np.zeros((1, len(reader.spaces)), np.float32)
    for slot in tiles:
        occupancy[0, reader.pattern_index[slot]] = 1.0
    ground = np.full((1, len(reader.ground)), 3.0, np.float32)
    for g, d in change.items():
        ground[0, g] = d
    colours = np.full((1, len(reader.spaces), 6), 1 / 6, np.float32)
    return reader._readings(occupancy, colours, np.zeros((1, len(reader.spaces), 3)), ground, None,
                            [ScoreTrack(False, None, 0.0)], [0.0])[0].occluded


def _band_under(reader: BoardReader, slots: list[tuple[int, int]]) -> list[int]:
    return [g for g, row in enumerate(reader.ground_under) if any(reader.pattern_index[s] in row for s in slots)]


def test_band_patches_under_pattern_line_tiles_are_no_witness_alone():
    # Recorded tuning game 718 (2p colored, 720p), 41-61 s: red tiles on pattern line 5, slots 1-3, changed the
    # band's patches under slots 2 and 3 by 14-22 delta E; board 0 read covered with no hand in over 100 frames.
    reader, _ = _arrow_column()
    tiles = [(4, 0), (4, 1), (4, 2)]
    under = _band_under(reader, [(4, 1), (4, 2)])
    assert len(under) == 2
    assert _read(reader, [], {under[0]: 21.0, under[1]: 15.0})  # no tile there: something over the board
    assert not _read(reader, tiles, {under[0]: 21.0, under[1]: 15.0})


def test_a_hand_over_the_band_is_seen_by_a_patch_no_tile_explains():
    # Tuning seed 53, first hands frame: a hand over the wall's corner changed the band's patch under a wall tile
    # (12.7) and the patch beside the floor line's end (15.3); no other cue saw it.
    reader, _ = _arrow_column()
    tiles = [(4, 0), (4, 1), (4, 2)]
    under = _band_under(reader, [(4, 1), (4, 2)])
    free = [g for g, (by, across) in enumerate(zip(reader.ground_beside, reader.ground_under))
            if (by < 0).all() and (across < 0).all()]
    assert _read(reader, tiles, {under[0]: 13.0, free[-1]: 15.0})
    assert not _read(reader, tiles, {under[0]: 13.0})


def test_a_hand_over_a_stretch_of_the_band_under_tiles_is_seen():
    # Seed 625 (a check seed, looked at for this), third hands frame: a hand over the band under a full last wall
    # row changed three of its patches past GROUND_OCCLUDED_DELTA_E (17-23 delta E); all lie under tiles.
    reader, _ = _arrow_column()
    row = [(4, 0), (4, 1), (4, 2), (4, 3), (4, 4)]
    occupancy = np.zeros((1, len(reader.spaces)), np.float32)
    occupancy[0, [reader.wall_index[s] for s in row]] = 1.0
    under = [g for g, near in enumerate(reader.ground_under) if any(reader.wall_index[s] in near for s in row)]
    tiled = reader._tile_by(reader.ground_under, occupancy)[0]
    assert len(under) >= 3 and tiled[under].all()
    change = np.full((1, len(reader.ground)), 3.0, np.float32)
    change[0, under[:2]] = 18.0
    assert not _ground_covered(change, np.zeros_like(change, bool), tiled[None])  # two: tiles leaning over them
    change[0, under[2]] = 18.0
    assert _ground_covered(change, np.zeros_like(change, bool), tiled[None])
