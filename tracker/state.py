"""The state of a classic Azul game and the rules that change it.

A GameState moves through the phases of a round: DEAL (the start player refills the factory displays),
OFFER (turns taking tiles), WALL_TILING (every player tiles their wall and scores), and OVER.
Every action checks the rules first and raises IllegalMove (or InvalidDeal) with the rule it breaks,
leaving the state untouched.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations

from tracker import bag as bag_rules
from tracker.board import PlayerBoard
from tracker.explain import IllegalMove, InvalidDeal, line_name, source_name
from tracker.moves import BY_MASK, CENTRE, FLOOR, MAX_FACTORIES, Move
from tracker.moves import move as make_move
from tracker.scoring import apply_round_score, complete_rows, end_bonus, floor_penalty, placement_points
from tracker.tiles import (
    COLOUR_NAMES,
    EMPTY,
    FIRST_PLAYER,
    FIRST_PLAYER_NAME,
    TILES_PER_COLOUR,
    WALL_SIZE,
    colored_wall_column,
    parse_colour,
)

DEAL, OFFER, WALL_TILING, OVER = "deal", "offer", "wall_tiling", "over"
COLORED, GRAY = "colored", "gray"
VARIANTS = (COLORED, GRAY)
FACTORIES_FOR_PLAYERS = {2: 5, 3: 7, 4: 9}

# A column chooser for the gray wall: (player, row, colour, legal columns) -> column.
ColumnChooser = Callable[[int, int, int, list[int]], int]


@dataclass(frozen=True, slots=True)
class WallPlacement:
    player: int
    row: int
    colour: int
    column: int | None  # None: no legal space on the gray wall, the whole line went to the floor line
    points: int


@dataclass(frozen=True, slots=True)
class RoundScore:
    """What one player's wall tiling did: the placements, the points, the floor, the new score."""

    player: int
    placements: tuple[WallPlacement, ...]
    wall_points: int
    floor_items: int
    floor_penalty: int
    score_before: int
    score_after: int


@dataclass(frozen=True, slots=True)
class FinalScore:
    player: int
    score_before_bonus: int
    complete_rows: int
    complete_columns: int
    complete_colours: int
    bonus: int
    score: int


@dataclass(slots=True, eq=False)
class GameState:
    variant: str
    boards: list[PlayerBoard]
    factories: list[dict[int, int]]  # per display: colour -> count, colours in rulebook order
    centre: list[int]  # count per colour
    centre_has_marker: bool
    bag: list[int]
    lid: list[int]
    phase: str = DEAL
    round: int = 0
    start_player: int = 0
    current_player: int = 0
    # Who took the first-player marker this round (None: nobody yet).
    marker_taker: int | None = None
    final_scores: tuple[FinalScore, ...] | None = None
    # Sources not yet empty during the offer: a round ends when both reach zero.
    _factories_left: int = 0
    _centre_tiles: int = 0
    names: tuple[str, ...] = field(default=())

    # ---- setup -------------------------------------------------------------------------------------
    @staticmethod
    def new(players: int, variant: str = COLORED, start_player: int = 0, names: Sequence[str] = ()) -> GameState:
        if players not in FACTORIES_FOR_PLAYERS:
            raise ValueError(f"classic Azul is for 2, 3 or 4 players, not {players}")
        if variant not in VARIANTS:
            raise ValueError(f"the wall side must be 'colored' or 'gray', not {variant!r}")
        if not 0 <= start_player < players:
            raise ValueError(f"the start player must be 0..{players - 1}, not {start_player}")
        names = tuple(names) or tuple(f"Player {i + 1}" for i in range(players))
        if len(names) != players:
            raise ValueError(f"{len(names)} names given for {players} players")
        return GameState(
            variant=variant,
            boards=[PlayerBoard() for _ in range(players)],
            factories=[{} for _ in range(FACTORIES_FOR_PLAYERS[players])],
            centre=[0] * 5,
            centre_has_marker=False,
            bag=[TILES_PER_COLOUR] * 5,
            lid=[0] * 5,
            start_player=start_player,
            current_player=start_player,
            names=names,
        )

    @property
    def players(self) -> int:
        return len(self.boards)

    def copy(self) -> GameState:
        return GameState(
            self.variant,
            [b.copy() for b in self.boards],
            [dict(f) for f in self.factories],
            self.centre[:],
            self.centre_has_marker,
            self.bag[:],
            self.lid[:],
            self.phase,
            self.round,
            self.start_player,
            self.current_player,
            self.marker_taker,
            self.final_scores,
            self._factories_left,
            self._centre_tiles,
            self.names,
        )

    # ---- the deal ----------------------------------------------------------------------------------
    def deal_random(self, rng: random.Random) -> list[list[int]]:
        """Refill the factory displays from the bag (pouring in the lid when it runs out); returns the deal."""
        self._require(DEAL, "refill the factory displays")
        deal = bag_rules.draw_deal(self.bag, self.lid, len(self.factories), rng)
        self._start_round(deal)
        return deal

    def deal(self, deal: Sequence[Sequence[int | str]]) -> None:
        """Refill the factory displays with a deal seen on the table, checked against the bag and lid."""
        self._require(DEAL, "refill the factory displays")
        try:
            tiles = [[c if isinstance(c, int) else parse_colour(c) for c in f] for f in deal]
        except ValueError as err:
            raise InvalidDeal(str(err)) from None
        if any(not 0 <= c < 5 for f in tiles for c in f):
            raise InvalidDeal("a tile colour must be 0..4")
        bag, lid = self.bag[:], self.lid[:]
        bag_rules.take_seen_deal(bag, lid, tiles, len(self.factories))
        self.bag, self.lid = bag, lid
        self._start_round(tiles)

    def _start_round(self, deal: list[list[int]]) -> None:
        left = 0
        for display, tiles in zip(self.factories, deal):
            display.clear()
            for c in range(5):
                n = tiles.count(c)
                if n:
                    display[c] = n
            left += bool(display)
        self._factories_left = left
        self.centre_has_marker = True
        self.marker_taker = None
        self.round += 1
        self.current_player = self.start_player
        self.phase = OFFER
        if left == 0:
            # Nothing could be dealt; only reachable through an empty deal the caller insisted on.
            self.phase = WALL_TILING

    # ---- the factory offer -------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move: sources in order (displays, then the centre), colours in
        rulebook order, destinations pattern line 1..5 then the floor line."""
        if self.phase != OFFER:
            return []
        allowed = self.boards[self.current_player].allowed_lines()
        moves: list[Move] = []
        for slot, display in enumerate(self.factories):
            if display:
                by_colour = BY_MASK[slot]
                for colour in display:
                    moves += by_colour[colour][allowed[colour]]
        by_colour = BY_MASK[MAX_FACTORIES]
        centre = self.centre
        for colour in range(5):
            if centre[colour]:
                moves += by_colour[colour][allowed[colour]]
        return moves

    def normalise(self, move: Move) -> Move:
        """A move onto a pattern line already full of the same colour changes the table exactly as a floor
        move does: the rules treat them as one move."""
        if move.line != FLOOR:
            board = self.boards[self.current_player]
            if board.pattern_colour[move.line] == move.colour and board.pattern_count[move.line] == move.line + 1:
                return make_move(move.source, move.colour, FLOOR)
        return move

    def explain_illegal(self, move: Move, player: int | None = None) -> IllegalMove | None:
        """None if the move is legal now; otherwise the IllegalMove naming the rule it breaks."""
        if self.phase != OFFER:
            return IllegalMove("phase", f"no tiles can be taken now: the game is in its {self.phase.replace('_', ' ')} phase")
        if player is not None and player != self.current_player:
            return IllegalMove(
                "turn", f"it is {self.names[self.current_player]}'s turn, not {self.names[player]}'s"
            )
        colour = move.colour
        if move.source == CENTRE:
            if not self.centre[colour]:
                return IllegalMove("colour_absent", f"the centre holds no {COLOUR_NAMES[colour]} tiles")
        elif move.source >= len(self.factories):
            return IllegalMove(
                "no_such_source",
                f"there is no factory display {move.source + 1}: this game has {len(self.factories)}",
            )
        elif not self.factories[move.source]:
            return IllegalMove("source_empty", f"{source_name(move.source)} is empty")
        elif colour not in self.factories[move.source]:
            return IllegalMove(
                "colour_absent", f"{source_name(move.source)} holds no {COLOUR_NAMES[colour]} tiles"
            )
        line = move.line
        if line == FLOOR:
            return None
        board = self.boards[self.current_player]
        held = board.pattern_colour[line]
        if held != EMPTY and held != colour:
            return IllegalMove(
                "line_other_colour",
                f"{line_name(line)} already holds {COLOUR_NAMES[held]}; "
                f"{COLOUR_NAMES[colour]} cannot go there until it is emptied",
            )
        if board.row_colours[line] >> colour & 1:
            return IllegalMove(
                "wall_has_colour",
                f"row {line + 1} of the wall already has a {COLOUR_NAMES[colour]} tile, so "
                f"{COLOUR_NAMES[colour]} cannot go on {line_name(line)}",
            )
        return None

    def play(self, move: Move, player: int | None = None) -> None:
        """Play a move of the factory offer for the player to move (or check it is `player`'s turn)."""
        move = self.normalise(move) if self.phase == OFFER else move
        problem = self.explain_illegal(move, player)
        if problem is not None:
            raise problem
        self._apply(move)

    def _apply(self, move: Move) -> None:
        player = self.current_player
        board = self.boards[player]
        colour = move.colour
        if move.source == CENTRE:
            count = self.centre[colour]
            self.centre[colour] = 0
            self._centre_tiles -= count
            if self.centre_has_marker:
                self.centre_has_marker = False
                self.marker_taker = player
                board.take_first_player_marker()
        else:
            display = self.factories[move.source]
            count = display.pop(colour)
            centre = self.centre
            for other, n in display.items():
                centre[other] += n
                self._centre_tiles += n
            display.clear()
            self._factories_left -= 1
        if move.line == FLOOR:
            board.put_on_floor(colour, count, self.lid)
        else:
            board.place_on_pattern_line(move.line, colour, count, self.lid)
        if self._factories_left == 0 and self._centre_tiles == 0:
            self.phase = WALL_TILING
        else:
            self.current_player = (player + 1) % len(self.boards)

    # ---- wall tiling -------------------------------------------------------------------------------
    def legal_wall_columns(self, player: int, row: int, colour: int) -> list[int]:
        """Where a tile of `colour` may go in `row`: the printed space on the colored wall; on the gray wall
        any empty space whose column does not yet hold that colour."""
        board = self.boards[player]
        if board.row_colours[row] >> colour & 1:
            return []
        if self.variant == COLORED:
            return [colored_wall_column(row, colour)]
        return [
            k for k in range(WALL_SIZE)
            if board.wall[row][k] == EMPTY and not board.column_colours[k] >> colour & 1
        ]

    def tile_walls(
        self, columns: Mapping[tuple[int, int], int] | ColumnChooser | None = None
    ) -> list[RoundScore]:
        """Wall tiling for every player, each pattern line top to bottom, then the floor line.

        On the gray wall the column is the player's choice: `columns` maps (player, row) to a column, or is a
        function choosing one; by default the leftmost legal column. A full line whose tile has no legal space
        goes to the floor line whole. Ends the game after a round in which a wall row was completed (or when
        nothing is left to deal)."""
        self._require(WALL_TILING, "tile the walls")
        trial = self.copy()
        reports = [trial._tile_wall(p, columns) for p in range(trial.players)]
        trial._finish_round()
        self._become(trial)
        return reports

    def _tile_wall(self, player: int, columns) -> RoundScore:
        board = self.boards[player]
        placements = []
        gained = 0
        for row in range(WALL_SIZE):
            if board.pattern_count[row] != row + 1:
                continue
            colour = board.pattern_colour[row]
            legal = self.legal_wall_columns(player, row, colour)
            column = self._choose_column(player, row, colour, legal, columns)
            board.clear_pattern_line(row)
            if column is None:
                board.put_on_floor(colour, row + 1, self.lid)
                placements.append(WallPlacement(player, row, colour, None, 0))
                continue
            board.place_on_wall(row, column, colour)
            points = placement_points(board.wall, row, column)
            gained += points
            self.lid[colour] += row
            placements.append(WallPlacement(player, row, colour, column, points))
        items = len(board.floor)
        penalty = floor_penalty(items)
        for item in board.floor:
            if item != FIRST_PLAYER:
                self.lid[item] += 1
        board.floor.clear()
        board.holds_first_player = False
        before = board.score
        board.score = apply_round_score(before, gained, penalty)
        return RoundScore(player, tuple(placements), gained, items, penalty, before, board.score)

    def _choose_column(self, player: int, row: int, colour: int, legal: list[int], columns) -> int | None:
        """The column the tile goes to; None when it has none (the whole line then goes to the floor line)."""
        default = legal[0] if legal else None
        if isinstance(columns, Mapping):
            chosen = columns.get((player, row), default)
        elif columns is not None and legal and self.variant == GRAY:
            chosen = columns(player, row, colour, legal)
        else:
            chosen = default
        if chosen in legal or (chosen is None and not legal):
            return chosen
        raise self._wall_space_error(player, row, colour, legal, chosen)

    def _wall_space_error(self, player: int, row: int, colour: int, legal: list[int], chosen) -> IllegalMove:
        name = COLOUR_NAMES[colour]
        if not legal:
            return IllegalMove(
                "no_wall_space",
                f"{name} has no legal space in row {row + 1}: the whole of {line_name(row)} goes to the floor line",
            )
        if not isinstance(chosen, int) or isinstance(chosen, bool) or not 0 <= chosen < WALL_SIZE:
            return IllegalMove("wall_column", f"there is no column {chosen!r} on the wall")
        if self.variant == COLORED:
            return IllegalMove(
                "wrong_wall_space",
                f"on the colored wall {name} belongs in column {legal[0] + 1} of row {row + 1}, not column {chosen + 1}",
            )
        if self.boards[player].wall[row][chosen] != EMPTY:
            why = "that space is already tiled"
        else:
            why = f"column {chosen + 1} already has a {name} tile"
        return IllegalMove("wall_column", f"{name} cannot go in column {chosen + 1} of row {row + 1}: {why}")

    def _finish_round(self) -> None:
        if self.marker_taker is not None:
            self.start_player = self.marker_taker
        self.current_player = self.start_player
        self.centre_has_marker = False
        if (
            any(complete_rows(b.wall) for b in self.boards)
            or sum(self.bag) + sum(self.lid) == 0
            or not any(self.row_can_still_complete(p, r) for p in range(self.players) for r in range(WALL_SIZE))
        ):
            self._end_game()
        else:
            self.phase = DEAL

    def row_can_still_complete(self, player: int, row: int) -> bool:
        """False when wall row `row` can provably never be completed (checked between rounds, when every tile off
        the walls and pattern lines is in the bag or the lid).

        A missing colour with no tile left in the bag or lid can never reach a wall again: its other tiles sit
        on pattern lines that cannot fill without it. On the gray wall the missing colours must also fit the
        empty spaces without repeating a colour in a column; columns only ever gain colours, so once a row is
        dead it stays dead."""
        board = self.boards[player]
        line = board.wall[row]
        empty = [c for c in range(WALL_SIZE) if line[c] == EMPTY]
        if not empty:
            return True
        missing = [k for k in range(5) if not board.row_colours[row] >> k & 1]
        if any(self.bag[k] + self.lid[k] == 0 for k in missing):
            return False
        if self.variant == COLORED:
            return True
        return any(
            all(not board.column_colours[c] >> k & 1 for k, c in zip(missing, order))
            for order in permutations(empty)
        )

    def _end_game(self) -> None:
        finals = []
        for i, board in enumerate(self.boards):
            bonus = end_bonus(board.wall)
            before = board.score
            board.score = before + bonus.points
            finals.append(
                FinalScore(
                    i, before, bonus.complete_rows, bonus.complete_columns, bonus.complete_colours,
                    bonus.points, board.score,
                )
            )
        self.final_scores = tuple(finals)
        self.phase = OVER

    def winners(self) -> list[int]:
        """The winner(s) of a finished game: highest score, then most complete rows; still tied, all share it."""
        if self.phase != OVER:
            return []
        best = max((b.score, complete_rows(b.wall)) for b in self.boards)
        return [i for i, b in enumerate(self.boards) if (b.score, complete_rows(b.wall)) == best]

    # ---- helpers -----------------------------------------------------------------------------------
    def _require(self, phase: str, action: str) -> None:
        if self.phase != phase:
            raise IllegalMove("phase", f"cannot {action} now: the game is in its {self.phase.replace('_', ' ')} phase")

    def _become(self, other: GameState) -> None:
        for name in GameState.__slots__:
            setattr(self, name, getattr(other, name))

    def tile_count(self) -> list[int]:
        """Tiles of each colour anywhere in the game; always 20 each."""
        counts = [self.bag[c] + self.lid[c] + self.centre[c] for c in range(5)]
        for display in self.factories:
            for c, n in display.items():
                counts[c] += n
        for board in self.boards:
            for r in range(WALL_SIZE):
                if board.pattern_colour[r] != EMPTY:
                    counts[board.pattern_colour[r]] += board.pattern_count[r]
                for cell in board.wall[r]:
                    if cell != EMPTY:
                        counts[cell] += 1
            for item in board.floor:
                if item != FIRST_PLAYER:
                    counts[item] += 1
        return counts

    # ---- views -------------------------------------------------------------------------------------
    def to_table(self) -> dict:
        """The table as a camera would describe it (DESIGN.md's observation shape), from the true state."""
        names = COLOUR_NAMES
        return {
            "variant": self.variant,
            "boards": [
                {
                    "pattern_lines": [
                        [names[b.pattern_colour[r]]] * b.pattern_count[r] if b.pattern_count[r] else []
                        for r in range(WALL_SIZE)
                    ],
                    "wall": [[names[c] if c != EMPTY else None for c in line] for line in b.wall],
                    "floor": [FIRST_PLAYER_NAME if item == FIRST_PLAYER else names[item] for item in b.floor],
                    "score_marker": b.score,
                }
                for b in self.boards
            ],
            "factories": [{names[c]: n for c, n in display.items()} for display in self.factories],
            "center": {names[c]: n for c, n in enumerate(self.centre) if n},
            "first_player": self.centre_has_marker,
        }

    def to_dict(self) -> dict:
        """Everything that defines the state, for comparisons and debugging."""
        return {
            "variant": self.variant,
            "phase": self.phase,
            "round": self.round,
            "start_player": self.start_player,
            "current_player": self.current_player,
            "marker_taker": self.marker_taker,
            "bag": list(self.bag),
            "lid": list(self.lid),
            "holds_first_player": [b.holds_first_player for b in self.boards],
            "table": self.to_table(),
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_dict() == other.to_dict()

    __hash__ = None  # mutable
