"""An Azul Duel player board: 6 pattern lines, the 6x6 dome of 9 dome-tile spaces, broken tiles, bonus reserve."""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.duel.actions import BROKEN, PATTERN_LINES
from tracker.duel.components import DOME_SIZE, DOME_SPACES, JOKER, DomeTileFace
from tracker.duel.scoring import BROKEN_SPACES
from tracker.tiles import EMPTY

PLAYER_PIECES = 2


def _grid() -> list[list[int]]:
    return [[EMPTY] * DOME_SIZE for _ in range(DOME_SIZE)]


def space_origin(space: int) -> tuple[int, int]:
    """The dome row and column of a dome-tile space's top-left corner (spaces 0..8 in reading order)."""
    return 2 * (space // 3), 2 * (space % 3)


def space_of(row: int, column: int) -> int:
    return (row // 2) * 3 + column // 2


@dataclass(slots=True, eq=False)
class DuelBoard:
    # Pattern line r (1..6 spaces) holds pattern_count[r] tiles of pattern_colour[r] (EMPTY when none) and
    # pattern_bonus[r] spaces made up with bonus tiles (only while a completed line waits for a dome space).
    pattern_colour: list[int] = field(default_factory=lambda: [EMPTY] * PATTERN_LINES)
    pattern_count: list[int] = field(default_factory=lambda: [0] * PATTERN_LINES)
    pattern_bonus: list[int] = field(default_factory=lambda: [0] * PATTERN_LINES)
    # What each dome space holds (colour, SPECIAL_TILE or EMPTY) and what it shows (colour, JOKER,
    # SPECIAL_SPACE, or EMPTY where no dome tile lies yet).
    dome: list[list[int]] = field(default_factory=_grid)
    face: list[list[int]] = field(default_factory=_grid)
    # Per dome-tile space: (dome tile id, rotation) or None.
    dome_tiles: list[tuple[int, int] | None] = field(default_factory=lambda: [None] * DOME_SPACES)
    broken: list[int] = field(default_factory=list)
    score: int = 0
    pieces: int = PLAYER_PIECES  # player pieces not yet placed this round
    bonus_taken: int = 0  # bonus tiles taken this round (exactly 2 per round)
    bonus_reserve: list[int] = field(default_factory=list)  # face up, usable
    bonus_spent: list[int] = field(default_factory=list)  # turned face down after use
    holds_start_piece: bool = False

    def copy(self) -> DuelBoard:
        return DuelBoard(
            self.pattern_colour[:],
            self.pattern_count[:],
            self.pattern_bonus[:],
            [r[:] for r in self.dome],
            [r[:] for r in self.face],
            self.dome_tiles[:],
            self.broken[:],
            self.score,
            self.pieces,
            self.bonus_taken,
            self.bonus_reserve[:],
            self.bonus_spent[:],
            self.holds_start_piece,
        )

    # ---- pattern lines -----------------------------------------------------------------------------
    def filled(self, line: int) -> int:
        return self.pattern_count[line] + self.pattern_bonus[line]

    def is_complete(self, line: int) -> bool:
        return self.pattern_colour[line] != EMPTY and self.filled(line) == line + 1

    def destinations(self, colour: int) -> list[int]:
        """Where taken tiles of `colour` may go: an empty line or one of that colour with room, or the broken
        tiles. Unlike classic Azul, nothing on the dome forbids a line ("Podes adicionar azulejos a uma
        linha, mesmo que não seja possível pontuá-los")."""
        out = []
        for r in range(PATTERN_LINES):
            held = self.pattern_colour[r]
            if held == EMPTY or (held == colour and self.filled(r) <= r):
                out.append(r)
        out.append(BROKEN)
        return out

    def place_taken(self, line: int, colour: int, count: int, tower: list[int]) -> None:
        """Tiles go on the line right to left; what does not fit, or everything if `line` is BROKEN, breaks."""
        if line == BROKEN:
            self.break_tiles(colour, count, tower)
            return
        fit = min(count, line + 1 - self.filled(line))
        self.pattern_colour[line] = colour
        self.pattern_count[line] += fit
        if count > fit:
            self.break_tiles(colour, count - fit, tower)

    def break_tiles(self, colour: int, count: int, tower: list[int]) -> None:
        """Stack tiles on the broken-tiles space; beyond its 4 spaces they go to the tower."""
        room = BROKEN_SPACES - len(self.broken)
        kept = min(room, count)
        if kept > 0:
            self.broken.extend([colour] * kept)
        if count > kept:
            tower[colour] += count - kept

    def clear_line(self, line: int) -> None:
        self.pattern_colour[line] = EMPTY
        self.pattern_count[line] = 0
        self.pattern_bonus[line] = 0

    # ---- the dome ----------------------------------------------------------------------------------
    def empty_spaces(self) -> list[int]:
        return [s for s in range(DOME_SPACES) if self.dome_tiles[s] is None]

    def place_dome_tile(self, space: int, tile: int, face: DomeTileFace, rotation: int) -> None:
        self.dome_tiles[space] = (tile, rotation)
        r0, c0 = space_origin(space)
        cells = face.rotations[rotation]
        self.face[r0][c0], self.face[r0][c0 + 1] = cells[0], cells[1]
        self.face[r0 + 1][c0], self.face[r0 + 1][c0 + 1] = cells[2], cells[3]

    def dome_tiles_in_row(self, row: int) -> int:
        """How many dome tiles lie in the band of the dome that holds dome row `row` (3 when it is full)."""
        band = row // 2
        return sum(1 for s in range(3 * band, 3 * band + 3) if self.dome_tiles[s] is not None)

    def dome_columns(self, row: int, colour: int) -> list[int]:
        """The empty spaces of dome row `row` that may take a tile of `colour`: its colour, or a joker space."""
        face = self.face[row]
        dome = self.dome[row]
        return [c for c in range(DOME_SIZE) if dome[c] == EMPTY and (face[c] == colour or face[c] == JOKER)]
