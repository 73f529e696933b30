"""A tile's motif is inside its top: what changed since the empty table yet reads as no class, enclosed by one
colour, is that colour (a black tile's lit teal motif read as no class, and the fullest cores lay round it, off the
tile's middle: two black tiles found on one)."""

import numpy as np

from calibration.colour_model import COLOURS
from vision.counting import RegionCounter, circle_grid

SIDE = 11.0
G = 40
BLACK, WHITE = COLOURS.index("black"), COLOURS.index("white")


def _display() -> RegionCounter:
    grid, inside = circle_grid((100.0, 100.0), 50.0, G)
    return RegionCounter(grid, inside, (200, 200), SIDE)


def _black_tile_with_its_motif() -> tuple[np.ndarray, np.ndarray]:
    label = np.full((1, G, G), -1, np.int8)
    label[0, 15:26, 15:26] = BLACK
    label[0, 18:23, 17:23] = -1  # the motif: changed, no class
    changed = label >= 0
    changed[0, 18:23, 17:23] = True
    return label, changed


def test_a_motif_enclosed_by_a_tile_reads_as_its_colour():
    label, changed = _black_tile_with_its_motif()
    assert (_display()._motifs(label, changed)[0, 15:26, 15:26] == BLACK).all()


def test_a_patch_beside_an_unchanged_pixel_or_another_colour_stays_no_class():
    label, changed = _black_tile_with_its_motif()
    changed[0, 20, 17] = False  # the print shows at the motif's edge: it is not enclosed by the tile
    assert (_display()._motifs(label, changed)[0, 18:23, 18:23] == -1).all()
    label, changed = _black_tile_with_its_motif()
    label[0, 19, 16] = WHITE
    assert (_display()._motifs(label, changed)[0, 18:23, 17:23] == -1).all()


def test_speckle_in_a_patchy_tile_stays_no_class():
    # Speckle, a few pixels each, between two touching tiles of one colour: filled, the two would read as one solid
    # blob, its middle as full as either tile's.
    label, changed = _black_tile_with_its_motif()
    label[0, 18:23, 17:23] = BLACK
    label[0, 20, 25] = label[0, 21, 25] = -1
    assert (_display()._motifs(label, changed)[0, 20:22, 25] == -1).all()


def test_a_patch_larger_than_a_motif_stays_no_class():
    # A tile no class reads as, between tiles of one colour, is no motif of theirs.
    label = np.full((1, G, G), -1, np.int8)
    label[0, 8:32, 8:32] = BLACK
    label[0, 14:26, 14:26] = -1
    changed = np.zeros((1, G, G), bool)
    changed[0, 8:32, 8:32] = True
    assert (_display()._motifs(label, changed)[0, 14:26, 14:26] == -1).all()


def test_rendered_a_black_tile_and_its_side_faces_are_not_read_as_two():
    # Tuning seed 132 (colored walls, 640x480, tilted 43 degrees, bright tiles), frame 2, displays 5 and 6 and the
    # centre: each black tile's motif read as no class, and two black tiles were found on it, each round an edge of
    # the motif and over the side faces beside (a white tile's, its white darkened, read black).
    from web_dashboard.vision_bench import bench_frame

    rec, view, frame = bench_frame(132, 2)
    seen = rec.recognize(frame.image)
    for j in (5, 6):
        assert view["factories"][j] == {"black": 1, "white": 1}
        assert {c: seen["factories"][j].get(c, 0) for c in COLOURS} == {"black": 1, "white": 1, **{
            c: 0 for c in COLOURS if c not in ("black", "white")}}
    assert seen["center"].get("black", 0) == view["center"].get("black", 0) == 3
