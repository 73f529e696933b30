"""Scoring as the rulebook states it: pure functions over a wall grid.

A wall is a square grid (list of rows) whose cells hold a colour int or EMPTY. The same adjacency rule
serves classic Azul's 5x5 wall and Azul Duel's 6x6 dome.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tracker.tiles import EMPTY

FLOOR_PENALTIES = (1, 1, 2, 2, 2, 3, 3)
FLOOR_SPACES = len(FLOOR_PENALTIES)

ROW_BONUS = 2
COLUMN_BONUS = 7
COLOUR_BONUS = 10


def placement_points(wall: Sequence[Sequence[int]], row: int, column: int) -> int:
    """Points for the tile just placed at (row, column), counted against the wall as it stands now.

    No neighbour: 1 point. Otherwise the length of the horizontal run through the tile (if at least 2)
    plus the length of the vertical run (if at least 2): a tile with both counts twice.
    """
    size_r = len(wall)
    size_c = len(wall[row])
    line = wall[row]
    left = column
    while left > 0 and line[left - 1] != EMPTY:
        left -= 1
    right = column
    while right < size_c - 1 and line[right + 1] != EMPTY:
        right += 1
    top = row
    while top > 0 and wall[top - 1][column] != EMPTY:
        top -= 1
    bottom = row
    while bottom < size_r - 1 and wall[bottom + 1][column] != EMPTY:
        bottom += 1
    horizontal = right - left + 1
    vertical = bottom - top + 1
    if horizontal == 1 and vertical == 1:
        return 1
    return (horizontal if horizontal > 1 else 0) + (vertical if vertical > 1 else 0)


def floor_penalty(items_on_floor: int) -> int:
    """Points lost for a floor line holding this many items (tiles and the first-player marker).

    Only the 7 printed spaces are ever penalised.
    """
    return sum(FLOOR_PENALTIES[:items_on_floor])


def apply_round_score(score: int, wall_points: int, penalty: int) -> int:
    """The score after a round's wall tiling: gains first, then the floor, never below 0."""
    return max(0, score + wall_points - penalty)


@dataclass(frozen=True, slots=True)
class EndBonus:
    complete_rows: int
    complete_columns: int
    complete_colours: int

    @property
    def points(self) -> int:
        return (
            ROW_BONUS * self.complete_rows
            + COLUMN_BONUS * self.complete_columns
            + COLOUR_BONUS * self.complete_colours
        )


def end_bonus(wall: Sequence[Sequence[int]]) -> EndBonus:
    """+2 per complete horizontal row, +7 per complete vertical column, +10 per colour with all 5 tiles."""
    size = len(wall)
    rows = sum(1 for line in wall if EMPTY not in line)
    columns = sum(1 for c in range(size) if all(wall[r][c] != EMPTY for r in range(size)))
    per_colour = [0] * size
    for line in wall:
        for cell in line:
            if cell != EMPTY:
                per_colour[cell] += 1
    colours = sum(1 for n in per_colour if n == size)
    return EndBonus(rows, columns, colours)


def complete_rows(wall: Sequence[Sequence[int]]) -> int:
    return sum(1 for line in wall if EMPTY not in line)
