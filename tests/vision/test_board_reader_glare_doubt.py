"""A tile's colour is in doubt where a glare that explains its board's tiles almost as well as the best reads it as
another colour; it is then not reported sure."""

import numpy as np

from vision.board_reader import GLARE_RIVAL_MARGIN, GLARE_RIVAL_PER_TILE, GLARE_STEPS, _rival_glare

WHITE, BLUE = 4, 0  # TILE_CLASSES indices


def _fits(rival_at: float, behind: float) -> np.ndarray:
    """A fit over GLARE_STEPS best at no glare, with a second peak `behind` it at `rival_at`."""
    fit = -20.0 - 0.5 * GLARE_STEPS
    fit[0] = 0.0
    fit[int(np.flatnonzero(GLARE_STEPS == rival_at)[0])] = -behind
    return fit


def _classes(change_at: float, whites: int = 2) -> np.ndarray:
    """`whites` white tiles read white up to `change_at` glare and blue from there on, and a blue one blue at every
    glare (steps, tiles)."""
    white = np.where(GLARE_STEPS[:, None] < change_at, WHITE, BLUE).repeat(whites, axis=1)
    return np.column_stack([white, np.full(len(GLARE_STEPS), BLUE)])


def _margin(tiles: int) -> float:
    """How far behind the best a rival that reads `tiles` tiles otherwise may fit and still raise a doubt."""
    return GLARE_RIVAL_MARGIN + GLARE_RIVAL_PER_TILE * tiles


def test_the_tiles_a_rival_glare_reads_as_another_colour_almost_as_well_are_in_doubt():
    assert _rival_glare(_fits(40.0, 3.0), _classes(30.0), 0).tolist() == [True, True, False]
    assert _rival_glare(_fits(40.0, _margin(2) - 0.5), _classes(30.0), 0).tolist() == [True, True, False]
    assert _rival_glare(_fits(20.0, 1.0), _classes(20.0), 0).tolist() == [True, True, False]  # a near one too


def test_no_doubt_where_the_rival_is_clearly_worse_or_reads_the_same_colours():
    assert not _rival_glare(_fits(40.0, _margin(2) + 0.5), _classes(30.0), 0).any()  # clearly worse
    assert not _rival_glare(_fits(40.0, 1.0), _classes(200.0), 0).any()  # every glare reads the same colours


def test_a_rival_that_reads_more_tiles_otherwise_may_fit_further_behind():
    # Recorded tuning game 749: five black tiles gleaming under the lamp read white with no glare, 12.7 ahead of
    # the glare that reads them black; each fitted white a few units better than black, the same error five times.
    behind = GLARE_RIVAL_MARGIN + 2.7
    assert _rival_glare(_fits(30.0, behind), _classes(30.0, whites=5), 0).tolist() == [True] * 5 + [False]
    assert not _rival_glare(_fits(30.0, behind), _classes(30.0, whites=1), 0).any()  # one tile: clearly worse
