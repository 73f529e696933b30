"""A player board: pattern lines, wall, floor line and score."""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.scoring import FLOOR_SPACES
from tracker.tiles import EMPTY, FIRST_PLAYER, WALL_SIZE


def _empty_wall() -> list[list[int]]:
    return [[EMPTY] * WALL_SIZE for _ in range(WALL_SIZE)]


@dataclass(slots=True, eq=False)
class PlayerBoard:
    # Pattern line r holds pattern_count[r] tiles (0..r+1) of pattern_colour[r] (EMPTY when it holds none).
    pattern_colour: list[int] = field(default_factory=lambda: [EMPTY] * WALL_SIZE)
    pattern_count: list[int] = field(default_factory=lambda: [0] * WALL_SIZE)
    wall: list[list[int]] = field(default_factory=_empty_wall)
    # Bit c of row_colours[r] / column_colours[k]: colour c is on that wall row / column.
    row_colours: list[int] = field(default_factory=lambda: [0] * WALL_SIZE)
    column_colours: list[int] = field(default_factory=lambda: [0] * WALL_SIZE)
    # The floor line, left to right: colours and FIRST_PLAYER; never longer than its 7 spaces.
    floor: list[int] = field(default_factory=list)
    holds_first_player: bool = False
    score: int = 0
    # Per colour, a 5-bit mask of the pattern lines that may receive it; None when stale.
    _allowed: list[int] | None = None

    def copy(self) -> PlayerBoard:
        return PlayerBoard(
            self.pattern_colour[:],
            self.pattern_count[:],
            [line[:] for line in self.wall],
            self.row_colours[:],
            self.column_colours[:],
            self.floor[:],
            self.holds_first_player,
            self.score,
            self._allowed,  # shared read-only: it is replaced, never mutated
        )

    def allowed_lines(self) -> list[int]:
        """Per colour, the mask of pattern lines it may go to: empty or same colour, not full, not on the wall row."""
        allowed = self._allowed
        if allowed is None:
            allowed = [0, 0, 0, 0, 0]
            for r in range(WALL_SIZE):
                colour = self.pattern_colour[r]
                if colour == EMPTY:
                    on_wall = self.row_colours[r]
                    for c in range(5):
                        if not on_wall >> c & 1:
                            allowed[c] |= 1 << r
                elif self.pattern_count[r] <= r:
                    allowed[colour] |= 1 << r
            self._allowed = allowed
        return allowed

    def put_on_floor(self, colour: int, count: int, lid: list[int]) -> None:
        """Fill the floor line left to right; what does not fit goes to the lid."""
        room = FLOOR_SPACES - len(self.floor)
        placed = count if count < room else room
        if placed > 0:
            self.floor.extend([colour] * placed)
        if count > placed:
            lid[colour] += count - placed

    def take_first_player_marker(self) -> None:
        """The marker goes to the leftmost free floor space; on a full floor it is held but not penalised."""
        self.holds_first_player = True
        if len(self.floor) < FLOOR_SPACES:
            self.floor.append(FIRST_PLAYER)

    def place_on_pattern_line(self, line: int, colour: int, count: int, lid: list[int]) -> None:
        have = self.pattern_count[line]
        fit = min(count, line + 1 - have)
        self.pattern_colour[line] = colour
        self.pattern_count[line] = have + fit
        self._allowed = None
        if count > fit:
            self.put_on_floor(colour, count - fit, lid)

    def place_on_wall(self, row: int, column: int, colour: int) -> None:
        self.wall[row][column] = colour
        self.row_colours[row] |= 1 << colour
        self.column_colours[column] |= 1 << colour
        self._allowed = None

    def clear_pattern_line(self, line: int) -> None:
        self.pattern_colour[line] = EMPTY
        self.pattern_count[line] = 0
        self._allowed = None

    def floor_tiles(self) -> list[int]:
        return [item for item in self.floor if item != FIRST_PLAYER]
