"""Azul Duel's scoring rules that are not the shared adjacency rule: broken tiles, the start-player piece,
and the end-game scoring tiles. Pure functions over a dome grid (6x6 of colour, SPECIAL_TILE or EMPTY) and its
face grid (what each space shows: colour, JOKER, SPECIAL_SPACE, or EMPTY where no dome tile lies yet).
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.duel.components import DOME_SIZE, JOKER, SPECIAL_SPACE
from tracker.tiles import EMPTY

BROKEN_SPACES = 4  # "Se o teu espaço para azulejos partidos já tiver 4 azulejos, descarta ... para a torre"
START_PIECE_PENALTY = 2  # "quem tiver a peça de jogador inicial perde 2 pontos"

# Points per scoring tile, as the rulebook's last page states them.
ROW_POINTS = 3
COLUMN_POINTS = 7
DIAGONAL_POINTS = 10
JOKER_POINTS = 2
FIVE_COLOUR_ROW_POINTS = 4
OUTER_RING_POINTS = 1
EMPTY_SPECIAL_POINTS = -3

CORNER_DOME_SPACES = (0, 2, 6, 8)  # top-left, top-right, bottom-left, bottom-right dome-tile spaces

Grid = Sequence[Sequence[int]]


def broken_penalty(broken_tiles: int) -> int:
    """The n-th broken tile costs n points (2 tiles: 3; 3 tiles: 6); only 4 spaces exist."""
    n = min(broken_tiles, BROKEN_SPACES)
    return n * (n + 1) // 2


def complete_rows(dome: Grid) -> int:
    return sum(1 for row in dome if EMPTY not in row)


def complete_columns(dome: Grid) -> int:
    return sum(1 for c in range(DOME_SIZE) if all(dome[r][c] != EMPTY for r in range(DOME_SIZE)))


def complete_diagonals(dome: Grid) -> int:
    down = all(dome[i][i] != EMPTY for i in range(DOME_SIZE))
    up = all(dome[i][DOME_SIZE - 1 - i] != EMPTY for i in range(DOME_SIZE))
    return down + up


def joker_points(dome: Grid, face: Grid) -> int:
    """+2 per joker space, but only when every joker space on the dome is filled."""
    jokers = [(r, c) for r in range(DOME_SIZE) for c in range(DOME_SIZE) if face[r][c] == JOKER]
    if any(dome[r][c] == EMPTY for r, c in jokers):
        return 0
    return JOKER_POINTS * len(jokers)


def five_colour_rows(dome: Grid) -> int:
    """Rows holding at least 5 tiles of different colours; a special tile may be one of the 5."""
    return sum(1 for row in dome if len({cell for cell in row if cell != EMPTY}) >= 5)


def outer_ring_tiles(dome: Grid) -> int:
    last = DOME_SIZE - 1
    return sum(
        1
        for r in range(DOME_SIZE)
        for c in range(DOME_SIZE)
        if (r in (0, last) or c in (0, last)) and dome[r][c] != EMPTY
    )


def complete_dome_tile(dome: Grid, face: Grid, space: int) -> bool:
    """A dome-tile space is complete when a dome tile lies there and all 4 of its spaces are filled."""
    r0, c0 = 2 * (space // 3), 2 * (space % 3)
    return all(face[r][c] != EMPTY and dome[r][c] != EMPTY for r in (r0, r0 + 1) for c in (c0, c0 + 1))


def corner_points(dome: Grid, face: Grid, points: Sequence[int]) -> int:
    return sum(p for space, p in zip(CORNER_DOME_SPACES, points) if complete_dome_tile(dome, face, space))


def empty_special_spaces(dome: Grid, face: Grid) -> int:
    return sum(
        1
        for r in range(DOME_SIZE)
        for c in range(DOME_SIZE)
        if face[r][c] == SPECIAL_SPACE and dome[r][c] == EMPTY
    )


def scoring_tile_points(name: str, dome: Grid, face: Grid, corners: Sequence[int] | None) -> int:
    """The points one end-game scoring tile gives (or takes) for this dome."""
    if name == "rows":
        return ROW_POINTS * complete_rows(dome)
    if name == "columns":
        return COLUMN_POINTS * complete_columns(dome)
    if name == "diagonals":
        return DIAGONAL_POINTS * complete_diagonals(dome)
    if name == "jokers":
        return joker_points(dome, face)
    if name == "five_colour_rows":
        return FIVE_COLOUR_ROW_POINTS * five_colour_rows(dome)
    if name == "outer_ring":
        return OUTER_RING_POINTS * outer_ring_tiles(dome)
    if name == "corners":
        if corners is None:
            raise ValueError("the 'corners' scoring tile needs the printed corner points")
        return corner_points(dome, face, corners)
    if name == "empty_specials":
        return EMPTY_SPECIAL_POINTS * empty_special_spaces(dome, face)
    raise ValueError(f"unknown scoring tile {name!r}")
