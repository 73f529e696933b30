"""Tile colours and the printed colored wall.

Inside the tracker a colour is a small int (fast to index and compare); names appear only at the edges
(the game log, the table view, messages). The order blue, yellow, red, black, white is the order of the
colored wall's top row, and the order used whenever colours are listed.
"""

from __future__ import annotations

BLUE, YELLOW, RED, BLACK, WHITE = range(5)
COLOURS = (BLUE, YELLOW, RED, BLACK, WHITE)
COLOUR_NAMES = ("blue", "yellow", "red", "black", "white")
TILES_PER_COLOUR = 20

# The first-player marker as it lies on a floor line; never in the bag or the lid.
FIRST_PLAYER = 5
FIRST_PLAYER_NAME = "first_player"

# An empty wall space or pattern line.
EMPTY = -1

WALL_SIZE = 5


def colour_name(colour: int) -> str:
    return COLOUR_NAMES[colour]


def parse_colour(name: object) -> int:
    """The colour for a name ("red"), raising ValueError with the valid names for anything else."""
    if isinstance(name, str):
        try:
            return COLOUR_NAMES.index(name.strip().lower())
        except ValueError:
            pass
    raise ValueError(f"unknown tile colour {name!r}: expected one of {', '.join(COLOUR_NAMES)}")


def colored_wall_colour(row: int, column: int) -> int:
    """The colour printed at (row, column) of the colored wall: each row is the one above shifted right."""
    return (column - row) % WALL_SIZE


def colored_wall_column(row: int, colour: int) -> int:
    """The column of the colored wall where `colour` goes in `row`."""
    return (row + colour) % WALL_SIZE
