"""The table as the camera sees it, and the physical actions that change it, legal or not.

The rules state (GameState) only ever holds legal positions. To recognise what a player actually did, the
move tracker also needs to predict tables that no legal move reaches: tiles on a pattern line of another
colour, tiles split across two lines, leftovers left on a display. A TableModel is that camera-level view:
hashable, cheap to derive, and changed by permissive actions that follow the hands, not the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from tracker.moves import CENTRE, FLOOR
from tracker.scoring import FLOOR_SPACES
from tracker.state import GameState
from tracker.tiles import EMPTY, FIRST_PLAYER, WALL_SIZE


@dataclass(frozen=True, slots=True)
class BoardModel:
    lines: tuple[tuple[int, ...], ...]  # per pattern line its slots, rightmost first: colour or EMPTY
    floor: tuple[int, ...]  # floor line items, left to right
    wall: tuple[tuple[int, ...], ...]  # colour or EMPTY


@dataclass(frozen=True, slots=True)
class TableModel:
    boards: tuple[BoardModel, ...]
    factories: tuple[tuple[int, ...], ...]  # counts per colour
    centre: tuple[int, ...]
    centre_marker: bool


def board_model(state: GameState, player: int) -> BoardModel:
    b = state.boards[player]
    lines = tuple(
        (b.pattern_colour[r],) * b.pattern_count[r] + (EMPTY,) * (r + 1 - b.pattern_count[r])
        for r in range(WALL_SIZE)
    )
    return BoardModel(lines, tuple(b.floor), tuple(tuple(row) for row in b.wall))


def table_model(state: GameState) -> TableModel:
    return TableModel(
        tuple(board_model(state, p) for p in range(state.players)),
        tuple(tuple(display.get(c, 0) for c in range(5)) for display in state.factories),
        tuple(state.centre),
        state.centre_has_marker,
    )


def source_counts(table: TableModel, source: int) -> tuple[int, ...]:
    return table.centre if source == CENTRE else table.factories[source]


def take(
    table: TableModel,
    source: int,
    colour: int,
    count: int | None = None,
    leftovers: str = "centre",
    take_marker: bool = True,
) -> tuple[TableModel, int, bool]:
    """Take `count` (default: all) tiles of `colour` from a source. From a display, the rest goes to the centre
    (leftovers="centre"), or stays where it is ("stay"). Returns the new table, tiles taken, marker taken."""
    held = source_counts(table, source)
    count = held[colour] if count is None else count
    marker = False
    if source == CENTRE:
        centre = list(table.centre)
        centre[colour] -= count
        marker = take_marker and table.centre_marker
        return TableModel(table.boards, table.factories, tuple(centre), table.centre_marker and not marker), count, marker
    display = list(held)
    display[colour] -= count
    centre = list(table.centre)
    if leftovers == "centre":
        for c in range(5):
            centre[c] += display[c]
        display = [0] * 5
    factories = list(table.factories)
    factories[source] = tuple(display)
    return TableModel(table.boards, tuple(factories), tuple(centre), table.centre_marker), count, marker


def put(board: BoardModel, destination: int, colour: int, count: int, marker: bool) -> BoardModel:
    """Put tiles as hands do: the marker on the floor first, then the tiles into the line's empty slots from the
    right whatever they hold, the rest on the floor (beyond 7 spaces they leave the board)."""
    floor = list(board.floor)
    if marker and len(floor) < FLOOR_SPACES:
        floor.append(FIRST_PLAYER)
    lines = board.lines
    if destination != FLOOR and count:
        slots = list(lines[destination])
        for j in range(len(slots)):
            if count and slots[j] == EMPTY:
                slots[j] = colour
                count -= 1
        lines = lines[:destination] + (tuple(slots),) + lines[destination + 1:]
    room = FLOOR_SPACES - len(floor)
    floor.extend([colour] * min(room, count))
    return BoardModel(lines, tuple(floor), board.wall)


def with_board(table: TableModel, player: int, board: BoardModel) -> TableModel:
    boards = table.boards[:player] + (board,) + table.boards[player + 1:]
    return TableModel(boards, table.factories, table.centre, table.centre_marker)


def line_room(board: BoardModel, line: int) -> int:
    return board.lines[line].count(EMPTY)
