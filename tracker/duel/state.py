"""The state of an Azul Duel game and the rules that change it.

A DuelState moves through: DEAL (the factories, bonus tiles and face-up dome tiles are refilled), OPENING (round 1
only: each player places one face-up dome tile, the non-start player first), ACQUISITION (turns of actions A-D),
DOME_TILING (both players move tiles to their domes and score), and OVER after round 5.
Every action is checked first and raises IllegalMove naming the rule it breaks, leaving the state untouched.

Hidden things (the order of the bag, the dome-tile stack, the face-down bonus tiles) are kept as what they could
be; what the table shows when they come to light (a deal, a drawn dome tile, a refill) arrives with the event and
is checked against it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tracker.bag import draw_tiles, take_counts
from tracker.duel.actions import (
    BROKEN,
    DRAW,
    LARGE,
    PATTERN_LINES,
    ROTATIONS,
    SMALL_FACTORIES,
    DrawDomeTile,
    DuelAction,
    KeepDomeTile,
    TakeBonus,
    TakeDomeTile,
    TakeMoons,
    TakeSun,
    factory_name,
    line_name,
)
from tracker.duel.board import PLAYER_PIECES, DuelBoard, space_of, space_origin
from tracker.duel.components import (
    DOME_SIZE,
    DOME_SPACES,
    DUEL_COLOUR_NAMES,
    SPECIAL_SPACE,
    SPECIAL_TILE,
    SPECIAL_TILES,
    TILES_PER_COLOUR,
    DuelComponents,
    parse_duel_colour,
)
from tracker.duel.scoring import START_PIECE_PENALTY, broken_penalty, scoring_tile_points
from tracker.explain import IllegalMove, InvalidDeal
from tracker.scoring import apply_round_score, placement_points
from tracker.tiles import EMPTY

DEAL, OPENING, ACQUISITION, DOME_TILING, OVER = "deal", "opening", "acquisition", "dome_tiling", "over"
ROUNDS = 5
LARGE_SUN_TILES = 5
SMALL_SUN_TILES = 4
FACE_UP_DOME_TILES = 3
BONUS_PER_ROUND = 2  # "Vais retirar exatamente 2 peças de bónus em cada ronda"
DEFAULT_START_SCORE = 5  # the two score markers start on "0 e 5" (see docs/duel-components.md)
# A face-down bonus tile on a small moon whose face nobody has seen yet (a camera cannot read it until it is
# revealed); its face is named when a player takes it.
UNSEEN = -1

_C = DUEL_COLOUR_NAMES


@dataclass(frozen=True, slots=True)
class DuelDeal:
    """A round's refill as the table shows it: the large sun's 5 tiles, each small sun's 4, the bonus tile put
    face down on each small moon (None: not seen; named when taken), and the dome tiles that refill the
    face-up display (in the order revealed)."""

    large: tuple[int, ...]
    small: tuple[tuple[int, ...], ...]
    bonus: tuple[int | None, ...]
    dome_display: tuple[int, ...]

    def to_json(self) -> dict:
        return {
            "type": "deal",
            "large": [_C[c] for c in self.large],
            "small": [[_C[c] for c in f] for f in self.small],
            "bonus": list(self.bonus),
            "dome_display": list(self.dome_display),
        }

    @staticmethod
    def from_json(event: dict) -> DuelDeal:
        large = event.get("large")
        small = event.get("small")
        if not isinstance(large, list):
            raise ValueError("a deal needs 'large': the colours on the large factory's sun")
        if not isinstance(small, list) or not all(isinstance(f, list) for f in small):
            raise ValueError("a deal needs 'small': one list of colours per small factory's sun")
        bonus = event.get("bonus", [])
        display = event.get("dome_display", [])
        for name, ids in (("bonus", bonus), ("dome_display", display)):
            if not isinstance(ids, list) or not all(
                (isinstance(i, int) and not isinstance(i, bool)) or (name == "bonus" and i is None)
                for i in ids
            ):
                raise ValueError(
                    f"a deal's '{name}' must be a list of tile numbers (bonus: null when not seen)"
                )
        return DuelDeal(
            tuple(parse_duel_colour(c) for c in large),
            tuple(tuple(parse_duel_colour(c) for c in f) for f in small),
            tuple(bonus),
            tuple(display),
        )


@dataclass(frozen=True, slots=True)
class BonusUse:
    """Bonus tiles standing in for one missing tile of a pattern line: 2 showing its colour, or any 3."""

    line: int
    tiles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DomeChoices:
    """One player's choices in dome tiling: bonus tiles to use, and per dome row the column for the moved tile
    (None: the leftmost legal one; needed only when a row offers several spaces)."""

    bonus: tuple[BonusUse, ...] = ()
    columns: tuple[int | None, ...] = (None,) * PATTERN_LINES

    def to_json(self) -> dict:
        return {
            "bonus": [{"line": u.line, "tiles": list(u.tiles)} for u in self.bonus],
            "columns": list(self.columns),
        }

    @staticmethod
    def from_json(data: object) -> DomeChoices:
        if not isinstance(data, dict):
            raise ValueError("each player's dome tiling choices must be an object with 'bonus' and 'columns'")
        uses = []
        for u in data.get("bonus", []):
            if not isinstance(u, dict) or not isinstance(u.get("tiles"), list):
                raise ValueError("a bonus use is {'line': 0..5, 'tiles': [bonus tile numbers]}")
            line = u.get("line")
            if not isinstance(line, int) or isinstance(line, bool) or not 0 <= line < PATTERN_LINES:
                raise ValueError(f"a bonus use's 'line' must be 0..5, not {line!r}")
            uses.append(BonusUse(line, tuple(u["tiles"])))
        columns = data.get("columns", [None] * PATTERN_LINES)
        if not isinstance(columns, list) or len(columns) != PATTERN_LINES:
            raise ValueError("'columns' must have 6 entries, one per dome row (null: leftmost legal or none)")
        for c in columns:
            if c is not None and (not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < DOME_SIZE):
                raise ValueError(f"a dome column must be 0..5 or null, not {c!r}")
        return DomeChoices(tuple(uses), tuple(columns))


@dataclass(frozen=True, slots=True)
class DomePlacement:
    row: int
    column: int
    colour: int
    points: int
    special_row: int | None = None  # a special tile completed the dome tile, on this row
    special_points: int = 0


@dataclass(frozen=True, slots=True)
class DomeReport:
    """What one player's dome tiling did."""

    player: int
    placements: tuple[DomePlacement, ...]
    illegal_lines: tuple[int, ...]  # lines whose tiles had to go to the broken tiles
    bonus_used: tuple[BonusUse, ...]
    dome_points: int
    broken_tiles: int
    broken_penalty: int
    start_piece_penalty: int
    score_before: int
    score_after: int


@dataclass(frozen=True, slots=True)
class DuelFinalScore:
    player: int
    score_before: int
    scoring_tiles: tuple[tuple[str, int], ...]
    score: int


@dataclass(slots=True, eq=False)
class DuelState:
    components: DuelComponents
    boards: list[DuelBoard]
    suns: list[list[int]]  # per factory (small 0..3, then LARGE): count per colour
    moons: list[list[int]]  # per small factory: its stack, bottom to top
    large_moon: list[int]  # count per colour; tiles lie separately, so each is a top tile
    bonus_on: list[int | None]  # per small factory: its bonus tile (an id, or UNSEEN), or None once taken
    bonus_revealed: list[bool]
    start_piece_on_factory: bool
    bag: list[int]
    tower: list[int]
    special_reserve: int
    dome_display: list[int]  # the face-up dome tiles (ids)
    dome_stack: list[int]  # dome tiles of the stack whose order nobody knows (kept sorted)
    dome_stack_bottom: list[int]  # dome tiles returned under the stack, top to bottom
    bonus_pool: list[int]  # bonus tiles not yet seen: the face-down reserve and UNSEEN ones on moons
    drawn: list[int]  # dome tiles the player to move has drawn from the stack and not yet kept
    scoring_tiles: tuple[str, ...]
    phase: str = DEAL
    round: int = 0
    start_player: int = 0
    current_player: int = 0
    opening_picks: int = 0
    final_scores: tuple[DuelFinalScore, ...] | None = None
    names: tuple[str, ...] = field(default=())

    # ---- setup -------------------------------------------------------------------------------------
    @staticmethod
    def new(
        components: DuelComponents,
        names: Sequence[str] = (),
        start_player: int = 0,
        start_score: int = DEFAULT_START_SCORE,
        scoring_tiles: Sequence[str] | None = None,
    ) -> DuelState:
        if start_player not in (0, 1):
            raise ValueError(f"the start player must be 0 or 1, not {start_player!r}")
        if not isinstance(start_score, int) or isinstance(start_score, bool) or start_score < 0:
            raise ValueError(f"the start score must be a whole number of 0 or more, not {start_score!r}")
        names = tuple(names) or ("Player 1", "Player 2")
        if len(names) != 2:
            raise ValueError(f"Azul Duel is for 2 players; {len(names)} names given")
        tiles = tuple(scoring_tiles) if scoring_tiles is not None else components.scoring_tiles
        if "corners" in tiles and components.corner_points is None:
            raise ValueError("the 'corners' scoring tile needs 'corner_points' in the component data")
        return DuelState(
            components=components,
            boards=[DuelBoard(score=start_score) for _ in range(2)],
            suns=[[0] * 5 for _ in range(SMALL_FACTORIES + 1)],
            moons=[[] for _ in range(SMALL_FACTORIES)],
            large_moon=[0] * 5,
            bonus_on=[None] * SMALL_FACTORIES,
            bonus_revealed=[False] * SMALL_FACTORIES,
            start_piece_on_factory=True,
            bag=[TILES_PER_COLOUR] * 5,
            tower=[0] * 5,
            special_reserve=SPECIAL_TILES,
            dome_display=[],
            dome_stack=list(range(len(components.dome_tiles))),
            dome_stack_bottom=[],
            bonus_pool=list(range(len(components.bonus_tiles))),
            drawn=[],
            scoring_tiles=tiles,
            start_player=start_player,
            current_player=start_player,
            names=names,
        )

    def copy(self) -> DuelState:
        return DuelState(
            self.components,
            [b.copy() for b in self.boards],
            [s[:] for s in self.suns],
            [m[:] for m in self.moons],
            self.large_moon[:],
            self.bonus_on[:],
            self.bonus_revealed[:],
            self.start_piece_on_factory,
            self.bag[:],
            self.tower[:],
            self.special_reserve,
            self.dome_display[:],
            self.dome_stack[:],
            self.dome_stack_bottom[:],
            self.bonus_pool[:],
            self.drawn[:],
            self.scoring_tiles,
            self.phase,
            self.round,
            self.start_player,
            self.current_player,
            self.opening_picks,
            self.final_scores,
            self.names,
        )

    # ---- the deal (setup and phase 3) --------------------------------------------------------------
    def draw_deal(self, rng: random.Random) -> DuelDeal:
        """A random refill as the physical game would make it; the state is not changed (see `deal`)."""
        self._require(DEAL, "refill the factories")
        bag, tower = self.bag[:], self.tower[:]
        # "No caso raro das 5 peças ... serem da mesma cor, devolve-as ao saco e retira de novo": redraw while
        # the pool drawn from still holds another colour (otherwise no redraw could ever differ).
        while True:
            pool = _large_pool(bag, tower)
            large = draw_tiles(bag, tower, LARGE_SUN_TILES, rng)
            if len(large) < LARGE_SUN_TILES or len(set(large)) > 1 or not _other_colour(pool, large[0]):
                break
            for c in large:
                bag[c] += 1
        small = tuple(tuple(draw_tiles(bag, tower, SMALL_SUN_TILES, rng)) for _ in range(SMALL_FACTORIES))
        bonus = tuple(rng.sample(self.bonus_pool, min(SMALL_FACTORIES, len(self.bonus_pool))))
        display = tuple(self._random_stack_draws(FACE_UP_DOME_TILES - len(self.dome_display), rng))
        return DuelDeal(tuple(large), small, bonus, display)

    def deal(self, deal: DuelDeal) -> None:
        """Start a round with the refill the table shows, checked against the bag, tower and reserves."""
        self._require(DEAL, "refill the factories")
        if self.round >= ROUNDS:
            raise InvalidDeal("the game has only 5 rounds")
        if len(deal.small) != SMALL_FACTORIES:
            raise InvalidDeal(
                f"the deal lists {len(deal.small)} small factories; the game has {SMALL_FACTORIES}"
            )
        bag, tower = self.bag[:], self.tower[:]
        _take_seen_tiles(bag, tower, deal)
        pool = _large_pool(self.bag, self.tower)
        if (
            len(deal.large) == LARGE_SUN_TILES
            and len(set(deal.large)) == 1
            and _other_colour(pool, deal.large[0])
        ):
            raise InvalidDeal(
                f"the large factory shows 5 {_C[deal.large[0]]} tiles: they go back to the bag and are drawn "
                f"again until at least one differs"
            )
        pool_ids = self.bonus_pool[:]
        want = min(SMALL_FACTORIES, len(pool_ids))
        if len(deal.bonus) != want:
            raise InvalidDeal(
                f"the deal must put {want} face-down bonus tiles on the small moons, not {len(deal.bonus)}"
            )
        for b in deal.bonus:
            if b is None:
                continue  # stays among the unseen until a player takes it
            if b not in pool_ids:
                raise InvalidDeal(f"bonus tile #{b} is not in the face-down bonus reserve")
            pool_ids.remove(b)
        stack, bottom = self.dome_stack[:], self.dome_stack_bottom[:]
        want = min(FACE_UP_DOME_TILES - len(self.dome_display), len(stack) + len(bottom))
        if len(deal.dome_display) != want:
            raise InvalidDeal(
                f"the face-up dome tiles are refilled to 3: {want} come from the stack, "
                f"not {len(deal.dome_display)}"
            )
        for tile in deal.dome_display:
            problem = _take_from_stack(stack, bottom, tile)
            if problem:
                raise InvalidDeal(problem)
        # Everything checked: now the round begins.
        self.bag, self.tower, self.bonus_pool = bag, tower, pool_ids
        self.dome_stack, self.dome_stack_bottom = stack, bottom
        self.dome_display.extend(deal.dome_display)
        self.suns[LARGE] = _counts(deal.large)
        for f in range(SMALL_FACTORIES):
            self.suns[f] = _counts(deal.small[f])
            self.moons[f] = []
            if f < len(deal.bonus):
                self.bonus_on[f] = UNSEEN if deal.bonus[f] is None else deal.bonus[f]
            else:
                self.bonus_on[f] = None
            # "a peça de bónus dessa fábrica pequena vazia é imediatamente revelada"
            self.bonus_revealed[f] = not deal.small[f]
        self.large_moon = [0] * 5
        self.start_piece_on_factory = True
        for board in self.boards:
            board.pieces = PLAYER_PIECES
            board.bonus_taken = 0
            board.holds_start_piece = False
        self.round += 1
        if self.round == 1 and self.opening_picks < 2:
            # "O outro jogador pega numa das 3 peças de cúpula visíveis ... Depois, o jogador inicial faz o mesmo"
            self.phase = OPENING
            self.current_player = 1 - self.start_player if self.opening_picks == 0 else self.start_player
        else:
            self.phase = ACQUISITION
            self.current_player = self.start_player
            self._settle_turn(first=True)

    # ---- acquisition: what may be done -------------------------------------------------------------
    def legal_actions(self) -> list[DuelAction]:
        """Every legal action of the player to move (none outside the opening and acquisition)."""
        if self.phase == OPENING:
            board = self.boards[self.current_player]
            return self._dome_tile_actions(TakeDomeTile, sorted(set(self.dome_display)), board.empty_spaces())
        if self.phase != ACQUISITION:
            return []
        board = self.boards[self.current_player]
        if self.drawn:
            actions: list[DuelAction] = [DRAW] if self._stack_size() else []
            return actions + self._dome_tile_actions(
                KeepDomeTile, sorted(set(self.drawn)), board.empty_spaces()
            )
        actions = []
        if board.pieces:
            spaces = board.empty_spaces()
            if spaces:
                actions += self._dome_tile_actions(TakeDomeTile, sorted(set(self.dome_display)), spaces)
                if self._stack_size():
                    actions.append(DRAW)
        for f in range(SMALL_FACTORIES):
            sun = self.suns[f]
            for colour in range(5):
                if sun[colour]:
                    lines = board.destinations(colour)
                    for order in _stack_orders(sun, colour):
                        actions += [TakeSun(f, colour, line, order) for line in lines]
        sun = self.suns[LARGE]
        for colour in range(5):
            if sun[colour]:
                actions += [TakeSun(LARGE, colour, line) for line in board.destinations(colour)]
        for colour in self._moon_colours():
            actions += [TakeMoons(colour, line) for line in board.destinations(colour)]
        if board.bonus_taken < BONUS_PER_ROUND:
            for f in range(SMALL_FACTORIES):
                if self.bonus_on[f] is not None and self.bonus_revealed[f]:
                    actions.append(TakeBonus(f))
        return actions

    @staticmethod
    def _dome_tile_actions(kind, tiles: list[int], spaces: list[int]) -> list:
        return [kind(t, s, r) for t in tiles for s in spaces for r in range(ROTATIONS)]

    def _moon_colours(self) -> list[int]:
        colours = {c for c in range(5) if self.large_moon[c]}
        colours.update(stack[-1] for stack in self.moons if stack)
        return sorted(colours)

    def _stack_size(self) -> int:
        return len(self.dome_stack) + len(self.dome_stack_bottom)

    def stack_candidates(self) -> list[int]:
        """The dome tiles that a draw from the stack could turn up now: any of the unknown part, else the first
        tile returned under it."""
        if self.dome_stack:
            return sorted(set(self.dome_stack))
        return self.dome_stack_bottom[:1]

    def needs_reveal(self, action: DuelAction) -> bool:
        """Whether playing this action shows a face the state does not know yet (passed as `revealed`): a dome
        tile drawn from the stack, the dome tile refilling the display in the opening, or an unseen bonus tile
        being taken."""
        if isinstance(action, DrawDomeTile):
            return True
        if isinstance(action, TakeBonus):
            return 0 <= action.factory < SMALL_FACTORIES and self.bonus_on[action.factory] == UNSEEN
        return self.phase == OPENING and isinstance(action, TakeDomeTile) and self._stack_size() > 0

    def reveal_candidates(self, action: DuelAction) -> list[int]:
        """What `revealed` may be for this action (empty if it reveals nothing)."""
        if not self.needs_reveal(action):
            return []
        if isinstance(action, TakeBonus):
            return sorted(set(self.bonus_pool))
        return self.stack_candidates()

    def random_reveal(self, action: DuelAction, rng: random.Random) -> int | None:
        """A face this action could show, uniformly among the unseen ones (None if it shows none)."""
        if not self.needs_reveal(action):
            return None
        if isinstance(action, TakeBonus):
            return self.bonus_pool[rng.randrange(len(self.bonus_pool))]
        return self.random_stack_tile(rng)

    def normalise(self, action: DuelAction) -> DuelAction:
        """Tiles sent to a pattern line already full of their colour all break: the same as sending them to the
        broken tiles, so the rules treat both as one action."""
        if (
            isinstance(action, TakeSun | TakeMoons)
            and action.line != BROKEN
            and 0 <= action.line < PATTERN_LINES
        ):
            board = self.boards[self.current_player]
            if board.pattern_colour[action.line] == action.colour and board.is_complete(action.line):
                if isinstance(action, TakeSun):
                    return TakeSun(action.factory, action.colour, BROKEN, action.stack)
                return TakeMoons(action.colour, BROKEN)
        return action

    def explain_illegal(self, action: DuelAction, player: int | None = None) -> IllegalMove | None:
        """None if the action is legal now; otherwise the IllegalMove naming the rule it breaks."""
        if self.phase not in (OPENING, ACQUISITION):
            return IllegalMove(
                "phase",
                f"no action can be taken now: the game is in its {self.phase.replace('_', ' ')} phase",
            )
        if player is not None and player != self.current_player:
            return IllegalMove(
                "turn", f"it is {self.names[self.current_player]}'s turn, not {self.names[player]}'s"
            )
        board = self.boards[self.current_player]
        if self.phase == OPENING:
            if not isinstance(action, TakeDomeTile):
                return IllegalMove(
                    "opening", "before the first turn each player only places one of the 3 face-up dome tiles"
                )
            return self._explain_dome_tile(board, action.tile, self.dome_display, "face_up", action)
        if self.drawn and not isinstance(action, DrawDomeTile | KeepDomeTile):
            return IllegalMove(
                "keep_drawn_tile",
                f"{self.names[self.current_player]} has drawn dome tiles from the stack and must keep one of them first",
            )
        if isinstance(action, TakeDomeTile):
            return self._explain_piece(board) or self._explain_dome_tile(
                board, action.tile, self.dome_display, "face_up", action
            )
        if isinstance(action, DrawDomeTile):
            if not self.drawn:
                problem = self._explain_piece(board)
                if problem:
                    return problem
            if not self._stack_size():
                return IllegalMove("stack_empty", "the dome-tile stack is empty")
            return None
        if isinstance(action, KeepDomeTile):
            if not self.drawn:
                return IllegalMove("nothing_drawn", "no dome tile has been drawn from the stack to keep")
            return self._explain_dome_tile(board, action.tile, self.drawn, "not_drawn", action)
        if isinstance(action, TakeSun):
            return self._explain_sun(board, action)
        if isinstance(action, TakeMoons):
            if action.colour not in self._moon_colours():
                return IllegalMove("moon_colour_absent", f"no moon has a {_C[action.colour]} tile on top")
            return _explain_line(board, action.colour, action.line)
        if isinstance(action, TakeBonus):
            f = action.factory
            if not 0 <= f < SMALL_FACTORIES:
                return IllegalMove("no_such_factory", f"bonus tiles lie on small factories 1..4, not {f + 1}")
            if self.bonus_on[f] is None:
                return IllegalMove("no_bonus_tile", f"{factory_name(f)} has no bonus tile left")
            if not self.bonus_revealed[f]:
                return IllegalMove(
                    "bonus_face_down",
                    f"the bonus tile of {factory_name(f)} is still face down: it is revealed only once every tile "
                    f"has left that factory's sun and moon",
                )
            if board.bonus_taken >= BONUS_PER_ROUND:
                return IllegalMove(
                    "bonus_limit",
                    f"{self.names[self.current_player]} has already taken 2 bonus tiles this round",
                )
            return None
        return IllegalMove("unknown_action", f"{action!r} is not an Azul Duel action")

    def _explain_piece(self, board: DuelBoard) -> IllegalMove | None:
        if board.pieces == 0:
            return IllegalMove(
                "no_player_piece",
                f"{self.names[self.current_player]} has placed both player pieces this round",
            )
        if not board.empty_spaces():
            return IllegalMove(
                "dome_full", f"{self.names[self.current_player]}'s dome has no empty dome-tile space"
            )
        return None

    def _explain_dome_tile(
        self, board: DuelBoard, tile: int, offered: list[int], rule: str, action
    ) -> IllegalMove | None:
        if tile not in offered:
            where = "face up" if rule == "face_up" else "among the dome tiles just drawn"
            return IllegalMove(rule, f"dome tile #{tile} is not {where}")
        if not 0 <= action.space < DOME_SPACES:
            return IllegalMove("no_such_space", f"the dome has dome-tile spaces 1..9, not {action.space + 1}")
        if board.dome_tiles[action.space] is not None:
            return IllegalMove(
                "space_taken",
                f"dome-tile space {action.space + 1} already holds a dome tile; placed tiles never move",
            )
        if not 0 <= action.rotation < ROTATIONS:
            return IllegalMove("bad_rotation", f"a dome tile turns 0..3 quarter-turns, not {action.rotation}")
        return None

    def _explain_sun(self, board: DuelBoard, action: TakeSun) -> IllegalMove | None:
        f = action.factory
        if not 0 <= f <= LARGE:
            return IllegalMove("no_such_factory", "there are 4 small factories (1..4) and the large one")
        sun = self.suns[f]
        if not any(sun):
            return IllegalMove("sun_empty", f"the sun of {factory_name(f)} is empty")
        if not sun[action.colour]:
            return IllegalMove(
                "colour_absent", f"the sun of {factory_name(f)} holds no {_C[action.colour]} tiles"
            )
        leftovers = sun[:]
        leftovers[action.colour] = 0
        if f == LARGE:
            if action.stack:
                return IllegalMove(
                    "large_moon_separate",
                    "the large factory's leftovers lie separately on its moon, not in a stack",
                )
        elif _counts(action.stack) != leftovers:
            return IllegalMove(
                "bad_stack",
                f"the stack on the moon of {factory_name(f)} must be exactly the sun's other tiles "
                f"({', '.join(_C[c] for c in range(5) for _ in range(leftovers[c])) or 'none'})",
            )
        return _explain_line(board, action.colour, action.line)

    def play(self, action: DuelAction, player: int | None = None, revealed: int | None = None) -> None:
        """Play an action for the player to move (or check it is `player`'s turn). `revealed`: the dome tile a
        draw from the stack turned up, or the one refilling the face-up display in the opening."""
        action = self.normalise(action)
        problem = self.explain_illegal(action, player)
        if problem is not None:
            raise problem
        if self.needs_reveal(action):
            if revealed is None:
                raise ValueError("this action shows a tile not seen before: say which ('revealed')")
            if isinstance(action, TakeBonus):
                if revealed not in self.bonus_pool:
                    raise IllegalMove(
                        "bonus_already_seen",
                        f"bonus tile #{revealed} is elsewhere: it cannot be face down here",
                    )
                self._apply(action, revealed)
                return
            stack, bottom = self.dome_stack[:], self.dome_stack_bottom[:]
            problem_text = _take_from_stack(stack, bottom, revealed)
            if problem_text:
                raise IllegalMove("not_in_stack", problem_text)
            self.dome_stack, self.dome_stack_bottom = stack, bottom
        elif revealed is not None:
            raise ValueError("this action shows no tile that was not seen before: no 'revealed'")
        self._apply(action, revealed)

    def _apply(self, action: DuelAction, revealed: int | None) -> None:
        player = self.current_player
        board = self.boards[player]
        if isinstance(action, TakeDomeTile):
            self.dome_display.remove(action.tile)
            self._place_dome_tile(board, action)
            if self.phase == OPENING:
                if revealed is not None:
                    self.dome_display.append(revealed)
                self.opening_picks += 1
                if self.opening_picks < 2:
                    self.current_player = 1 - player
                else:
                    self.phase = ACQUISITION
                    self.current_player = self.start_player
                    self._settle_turn(first=True)
                return
            board.pieces -= 1
        elif isinstance(action, DrawDomeTile):
            if not self.drawn:
                board.pieces -= 1
            # "Ele paga 1 ponto" per draw; a score never goes below 0.
            board.score = max(0, board.score - 1)
            self.drawn.append(revealed)
            return  # the turn goes on until a drawn tile is kept
        elif isinstance(action, KeepDomeTile):
            self.drawn.remove(action.tile)
            self._place_dome_tile(board, action)
            # "devolve a outra peça ao fundo da pilha"
            self.dome_stack_bottom.extend(self.drawn)
            self.drawn = []
        elif isinstance(action, TakeSun):
            f = action.factory
            sun = self.suns[f]
            count = sun[action.colour]
            sun[action.colour] = 0
            if f == LARGE:
                for c in range(5):
                    self.large_moon[c] += sun[c]
            else:
                # A sun is taken once a round, so its moon is empty here; extend keeps every tile regardless.
                self.moons[f].extend(action.stack)
            self.suns[f] = [0] * 5
            board.place_taken(action.line, action.colour, count, self.tower)
        elif isinstance(action, TakeMoons):
            colour = action.colour
            count = self.large_moon[colour]
            if count:
                self.large_moon[colour] = 0
                if self.start_piece_on_factory:
                    # "Quem retirar primeiro azulejos da lua da fábrica grande tem de retirar também a peça de
                    # jogador inicial"
                    self.start_piece_on_factory = False
                    board.holds_start_piece = True
            for stack in self.moons:
                if stack and stack[-1] == colour:
                    stack.pop()
                    count += 1
            board.place_taken(action.line, colour, count, self.tower)
        else:
            f = action.factory
            tile = self.bonus_on[f]
            if tile == UNSEEN:
                tile = revealed
                self.bonus_pool.remove(tile)
            board.bonus_reserve.append(tile)
            self.bonus_on[f] = None
            board.bonus_taken += 1
        self._reveal_bonus_tiles()
        self._settle_turn(first=False)

    def _place_dome_tile(self, board: DuelBoard, action: TakeDomeTile | KeepDomeTile) -> None:
        board.place_dome_tile(
            action.space, action.tile, self.components.dome_tiles[action.tile], action.rotation
        )

    def _reveal_bonus_tiles(self) -> None:
        # "uma peça de bónus fica acessível assim que todos os azulejos tiverem sido retirados de uma fábrica
        # pequena ... tanto do sol como da lua"
        for f in range(SMALL_FACTORIES):
            if not self.bonus_revealed[f] and not self.moons[f] and not any(self.suns[f]):
                self.bonus_revealed[f] = True

    def can_act(self, player: int) -> bool:
        """Whether `player` has any of the four actions; a player who has none passes the rest of the phase."""
        board = self.boards[player]
        if self._owes_piece(board):
            return True
        if any(any(sun) for sun in self.suns) or any(self.large_moon) or any(self.moons):
            return True
        return board.bonus_taken < BONUS_PER_ROUND and any(
            self.bonus_on[f] is not None and self.bonus_revealed[f] for f in range(SMALL_FACTORIES)
        )

    def _owes_piece(self, board: DuelBoard) -> bool:
        return (
            board.pieces > 0 and bool(board.empty_spaces()) and bool(self.dome_display or self._stack_size())
        )

    def factories_empty(self) -> bool:
        return (
            not any(any(sun) for sun in self.suns)
            and not any(self.large_moon)
            and not any(self.moons)
            and all(b is None for b in self.bonus_on)
        )

    def _settle_turn(self, first: bool) -> None:
        """End the phase, or hand the turn over. "A fase 1 termina quando todas as fábricas estiverem
        completamente vazias e ambos os jogadores tiverem usado as suas 2 peças de jogador (exceto na quinta
        ronda)"; a player with no possible action passes, and the other plays on alone."""
        pieces_done = self.round == ROUNDS or not any(self._owes_piece(b) for b in self.boards)
        if self.factories_empty() and pieces_done:
            self.phase = DOME_TILING
            return
        mover = self.current_player
        order = (mover, 1 - mover) if first else (1 - mover, mover)
        for p in order:
            if self.can_act(p):
                self.current_player = p
                return
        raise RuntimeError(
            "acquisition cannot end yet no player can act: the component data cannot support a game"
        )

    # ---- dome tiling and scoring -------------------------------------------------------------------
    def legal_dome_columns(self, player: int, row: int) -> list[int]:
        """Where the tile of pattern line `row` may go on the dome row of the same number (may be empty)."""
        board = self.boards[player]
        colour = board.pattern_colour[row]
        return board.dome_columns(row, colour) if colour != EMPTY else []

    def tile_domes(self, choices: Sequence[DomeChoices | None] | None = None) -> list[DomeReport]:
        """Phase 2 for both players; then the next round's preparation, or the end of the game after round 5."""
        self._require(DOME_TILING, "tile the domes")
        choices = list(choices) if choices is not None else [None, None]
        if len(choices) != 2:
            raise ValueError("dome tiling needs one set of choices per player")
        trial = self.copy()
        reports = [trial._tile_dome(p, choices[p] or DomeChoices()) for p in range(2)]
        if trial.round >= ROUNDS:
            trial._end_game()
        else:
            # Phase 3: "Quem tiver a peça de jogador inicial devolve-a ... e começa a nova ronda". Nobody took it
            # (possible only after a short deal): the same player starts again.
            holder = next((p for p in range(2) if trial.boards[p].holds_start_piece), None)
            if holder is not None:
                trial.start_player = holder
                trial.boards[holder].holds_start_piece = False
            trial.current_player = trial.start_player
            trial.phase = DEAL
        self._become(trial)
        return reports

    def _tile_dome(self, player: int, choices: DomeChoices) -> DomeReport:
        board = self.boards[player]
        name = self.names[player]
        uses_by_line: dict[int, list[BonusUse]] = {}
        seen: set[int] = set()
        for use in choices.bonus:
            if not 0 <= use.line < PATTERN_LINES:
                raise IllegalMove("no_such_line", f"there are 6 pattern lines (0..5), not line {use.line}")
            for t in use.tiles:
                if t in seen or t not in board.bonus_reserve:
                    raise IllegalMove(
                        "bonus_not_available", f"bonus tile #{t} is not face up in {name}'s bonus reserve"
                    )
                seen.add(t)
            uses_by_line.setdefault(use.line, []).append(use)
        placements = []
        illegal = []
        gained = 0
        for row in range(PATTERN_LINES):
            colour = board.pattern_colour[row]
            chosen = choices.columns[row]
            for use in uses_by_line.get(row, ()):
                self._use_bonus(board, row, use, name)
            if colour == EMPTY:
                if chosen is not None:
                    raise IllegalMove(
                        "line_empty", f"{name}'s {line_name(row)} is empty: no tile moves to the dome"
                    )
                continue
            legal = board.dome_columns(row, colour)
            if not legal:
                if chosen is not None:
                    raise IllegalMove(
                        "no_dome_space",
                        f"row {row + 1} of {name}'s dome has no empty {_C[colour]} or joker space",
                    )
                if board.dome_tiles_in_row(row) == 3:
                    # "tens obrigatoriamente de mover estas peças 'ilegais' para o teu espaço para azulejos
                    # partidos": the row's 3 dome tiles are down and none can take this colour.
                    board.break_tiles(colour, board.pattern_count[row], self.tower)
                    board.clear_line(row)
                    illegal.append(row)
                continue  # otherwise the line waits for a suitable dome tile
            if not board.is_complete(row):
                if chosen is not None:
                    raise IllegalMove(
                        "line_incomplete",
                        f"{name}'s {line_name(row)} is not complete: its tiles stay for now",
                    )
                continue
            column = legal[0] if chosen is None else chosen
            if column not in legal:
                raise IllegalMove(
                    "dome_space",
                    f"{_C[colour]} cannot go in column {column + 1} of {name}'s dome row {row + 1}: "
                    + (
                        "that space is already filled"
                        if board.dome[row][column] != EMPTY
                        else "that space is neither " + _C[colour] + " nor a joker space"
                    ),
                )
            # The rightmost tile moves to the dome; the rest of the line goes to the tower.
            board.dome[row][column] = colour
            points = placement_points(board.dome, row, column)
            self.tower[colour] += board.pattern_count[row] - 1
            board.clear_line(row)
            special_row, special_points = self._complete_special(board, row, column)
            gained += points + special_points
            placements.append(DomePlacement(row, column, colour, points, special_row, special_points))
        broken = len(board.broken)
        penalty = broken_penalty(broken)
        start_penalty = START_PIECE_PENALTY if board.holds_start_piece else 0
        for colour in board.broken:
            self.tower[colour] += 1
        board.broken = []
        before = board.score
        board.score = apply_round_score(before, gained, penalty + start_penalty)
        return DomeReport(
            player,
            tuple(placements),
            tuple(illegal),
            choices.bonus,
            gained,
            broken,
            penalty,
            start_penalty,
            before,
            board.score,
        )

    def _use_bonus(self, board: DuelBoard, row: int, use: BonusUse, name: str) -> None:
        colour = board.pattern_colour[row]
        if colour == EMPTY or board.pattern_count[row] == 0:
            raise IllegalMove(
                "bonus_empty_line",
                f"bonus tiles complete only a line holding at least 1 tile; {line_name(row)} is empty",
            )
        if board.filled(row) >= row + 1:
            raise IllegalMove("bonus_line_full", f"{name}'s {line_name(row)} is already complete")
        faces = self.components.bonus_tiles
        if len(use.tiles) == 2:
            if not all(faces[t].shows(colour) for t in use.tiles):
                raise IllegalMove(
                    "bonus_colour",
                    f"a pair of bonus tiles replaces a tile only if both show {_C[colour]}, the colour of "
                    f"{line_name(row)}; otherwise it takes any 3",
                )
        elif len(use.tiles) != 3:
            raise IllegalMove(
                "bonus_count",
                f"bonus tiles replace a tile 2 of the line's colour or any 3 at a time, not {len(use.tiles)}",
            )
        for t in use.tiles:
            board.bonus_reserve.remove(t)
            board.bonus_spent.append(t)
        board.pattern_bonus[row] += 1

    def _complete_special(self, board: DuelBoard, row: int, column: int) -> tuple[int | None, int]:
        """A special dome tile whose 3 coloured spaces are now filled takes a special tile at once, scoring the
        points printed at the right of the special space's row (no adjacency points for it)."""
        space = space_of(row, column)
        r0, c0 = space_origin(space)
        cells = [(r, c) for r in (r0, r0 + 1) for c in (c0, c0 + 1)]
        special = next(((r, c) for r, c in cells if board.face[r][c] == SPECIAL_SPACE), None)
        if special is None or board.dome[special[0]][special[1]] != EMPTY:
            return None, 0
        if any(board.dome[r][c] == EMPTY for r, c in cells if (r, c) != special):
            return None, 0
        if self.special_reserve == 0:
            return None, 0  # all 9 special tiles are out: the space stays empty
        self.special_reserve -= 1
        board.dome[special[0]][special[1]] = SPECIAL_TILE
        return special[0], self.components.special_row_points[special[0]]

    def _end_game(self) -> None:
        finals = []
        corners = self.components.corner_points
        for p, board in enumerate(self.boards):
            parts = tuple(
                (name, scoring_tile_points(name, board.dome, board.face, corners))
                for name in self.scoring_tiles
            )
            before = board.score
            board.score = max(0, before + sum(points for _, points in parts))
            finals.append(DuelFinalScore(p, before, parts, board.score))
        self.final_scores = tuple(finals)
        self.phase = OVER

    def winners(self) -> list[int]:
        """Most points wins; "Em caso de empate, vence quem tiver a peça de jogador inicial". A tie with the piece
        still on the large factory (nobody took it in round 5) is shared."""
        if self.phase != OVER:
            return []
        best = max(b.score for b in self.boards)
        tied = [p for p in range(2) if self.boards[p].score == best]
        holder = [p for p in tied if self.boards[p].holds_start_piece]
        return holder or tied

    # ---- helpers -----------------------------------------------------------------------------------
    def _random_stack_draws(self, count: int, rng: random.Random) -> list[int]:
        stack, bottom = self.dome_stack[:], self.dome_stack_bottom[:]
        out = []
        for _ in range(count):
            if stack:
                tile = stack[rng.randrange(len(stack))]
            elif bottom:
                tile = bottom[0]
            else:
                break
            _take_from_stack(stack, bottom, tile)
            out.append(tile)
        return out

    def random_stack_tile(self, rng: random.Random) -> int | None:
        """A dome tile a draw from the stack could turn up, uniformly among the unknown ones."""
        drawn = self._random_stack_draws(1, rng)
        return drawn[0] if drawn else None

    def _require(self, phase: str, action: str) -> None:
        if self.phase != phase:
            raise IllegalMove(
                "phase", f"cannot {action} now: the game is in its {self.phase.replace('_', ' ')} phase"
            )

    def _become(self, other: DuelState) -> None:
        for name in DuelState.__slots__:
            setattr(self, name, getattr(other, name))

    def tile_count(self) -> list[int]:
        """Coloured tiles of each colour anywhere in the game; always 13 each."""
        counts = [self.bag[c] + self.tower[c] + self.large_moon[c] for c in range(5)]
        for sun in self.suns:
            for c in range(5):
                counts[c] += sun[c]
        for stack in self.moons:
            for c in stack:
                counts[c] += 1
        for board in self.boards:
            for r in range(PATTERN_LINES):
                if board.pattern_colour[r] != EMPTY:
                    counts[board.pattern_colour[r]] += board.pattern_count[r]
            for line in board.dome:
                for cell in line:
                    if 0 <= cell < 5:
                        counts[cell] += 1
            for c in board.broken:
                counts[c] += 1
        return counts

    def piece_counts(self) -> dict[str, int]:
        """Special, bonus and dome tiles anywhere in the game (constant through a game)."""
        specials = self.special_reserve + sum(
            1 for b in self.boards for line in b.dome for cell in line if cell == SPECIAL_TILE
        )
        bonus = (
            len(self.bonus_pool)
            + sum(1 for b in self.bonus_on if b is not None and b != UNSEEN)
            + sum(len(b.bonus_reserve) + len(b.bonus_spent) for b in self.boards)
        )
        dome = (
            len(self.dome_display)
            + self._stack_size()
            + len(self.drawn)
            + sum(1 for b in self.boards for t in b.dome_tiles if t is not None)
        )
        return {"special": specials, "bonus": bonus, "dome": dome}

    def to_dict(self) -> dict:
        """Everything that defines the state, for comparisons, debugging and the dashboard."""
        names = DUEL_COLOUR_NAMES
        return {
            "phase": self.phase,
            "round": self.round,
            "start_player": self.start_player,
            "current_player": self.current_player,
            "opening_picks": self.opening_picks,
            "bag": list(self.bag),
            "tower": list(self.tower),
            "suns": [{names[c]: n for c, n in enumerate(s) if n} for s in self.suns],
            "moons": [[names[c] for c in m] for m in self.moons],
            "large_moon": {names[c]: n for c, n in enumerate(self.large_moon) if n},
            "bonus_on": list(self.bonus_on),
            "bonus_revealed": list(self.bonus_revealed),
            "start_piece_on_factory": self.start_piece_on_factory,
            "special_reserve": self.special_reserve,
            "dome_display": list(self.dome_display),
            "dome_stack": sorted(self.dome_stack),
            "dome_stack_bottom": list(self.dome_stack_bottom),
            "bonus_pool": sorted(self.bonus_pool),
            "drawn": list(self.drawn),
            "scoring_tiles": list(self.scoring_tiles),
            "final_scores": None if self.final_scores is None else [f.score for f in self.final_scores],
            "boards": [
                {
                    "pattern_lines": [
                        [names[b.pattern_colour[r]]] * b.pattern_count[r] + ["bonus"] * b.pattern_bonus[r]
                        for r in range(PATTERN_LINES)
                    ],
                    "dome": [list(line) for line in b.dome],
                    "face": [list(line) for line in b.face],
                    "dome_tiles": [list(t) if t else None for t in b.dome_tiles],
                    "broken": [names[c] for c in b.broken],
                    "score": b.score,
                    "pieces": b.pieces,
                    "bonus_taken": b.bonus_taken,
                    "bonus_reserve": list(b.bonus_reserve),
                    "bonus_spent": list(b.bonus_spent),
                    "holds_start_piece": b.holds_start_piece,
                }
                for b in self.boards
            ],
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DuelState) and self.to_dict() == other.to_dict()

    __hash__ = None  # mutable


def _explain_line(board: DuelBoard, colour: int, line: int) -> IllegalMove | None:
    if line == BROKEN:
        return None
    if not 0 <= line < PATTERN_LINES:
        return IllegalMove(
            "no_such_line", f"there are 6 pattern lines (1..6) and the broken tiles, not line {line + 1}"
        )
    held = board.pattern_colour[line]
    if held != EMPTY and held != colour:
        return IllegalMove(
            "line_other_colour",
            f"{line_name(line)} already holds {_C[held]}; {_C[colour]} cannot go there until it is emptied",
        )
    return None


def _counts(tiles: Sequence[int]) -> list[int]:
    counts = [0] * 5
    for c in tiles:
        counts[c] += 1
    return counts


def _stack_orders(sun: list[int], taken: int) -> list[tuple[int, ...]]:
    """Every distinct order (bottom to top) the leftovers of a small sun can be stacked in."""
    rest = [c for c in range(5) if c != taken for _ in range(sun[c])]
    if len(rest) <= 1:
        return [tuple(rest)]
    return sorted(set(itertools.permutations(rest)))


def _other_colour(pool: Sequence[int], colour: int) -> bool:
    return any(n for c, n in enumerate(pool) if c != colour)


def _large_pool(bag: list[int], tower: list[int]) -> list[int]:
    """What the large factory's 5 tiles come from: the bag, plus the tower when the bag holds fewer than 5."""
    if sum(bag) >= LARGE_SUN_TILES:
        return bag[:]
    return [bag[c] + tower[c] for c in range(5)]


def _take_seen_tiles(bag: list[int], tower: list[int], deal: DuelDeal) -> None:
    """Remove a refill seen on the table from bag and tower (mutated), or raise InvalidDeal saying why.

    The large factory fills first, then small factories 1..4; only when bag and tower together run short do
    the last ones stay short. Tiles beyond what the bag holds come from the tower, poured in only once the bag
    is empty, so such a refill holds every tile the bag held."""
    available = sum(bag) + sum(tower)
    remaining = available
    sizes = [(LARGE, LARGE_SUN_TILES, deal.large)] + [
        (f, SMALL_SUN_TILES, deal.small[f]) for f in range(SMALL_FACTORIES)
    ]
    for f, size, tiles in sizes:
        want = min(size, remaining)
        if len(tiles) != want:
            if want < size:
                raise InvalidDeal(
                    f"{factory_name(f)} shows {len(tiles)} tiles, but with {available} tiles left in bag and tower "
                    f"the factories fill in order (large first) and it gets {want}"
                )
            raise InvalidDeal(f"the sun of {factory_name(f)} holds {size} tiles, not {len(tiles)}")
        remaining -= want
    counts = _counts(list(deal.large) + [c for f in deal.small for c in f])
    take_counts(bag, tower, counts, what="refill", lid_name="tower", names=_C)


def _take_from_stack(stack: list[int], bottom: list[int], tile: int) -> str | None:
    """Take `tile` off the top of the dome-tile stack (lists mutated); the reason it cannot be, otherwise.
    The unknown part is on top; tiles returned under it come up only after, in the order they went down."""
    if stack:
        if tile in stack:
            stack.remove(tile)
            return None
        return f"dome tile #{tile} cannot come off the stack now (it is not among its unseen tiles)"
    if bottom and bottom[0] == tile:
        bottom.pop(0)
        return None
    if bottom:
        return f"the next dome tile of the stack is #{bottom[0]} (returned there earlier), not #{tile}"
    return "the dome-tile stack is empty"


Chooser = Callable[["DuelState", int], DomeChoices]


def random_dome_choices(state: DuelState, rng: random.Random) -> list[DomeChoices]:
    """Random but legal dome-tiling choices for both players: sometimes complete lines with bonus tiles, and a
    random legal space wherever a row offers several."""
    out = []
    faces = state.components.bonus_tiles
    for p in range(2):
        board = state.boards[p]
        reserve = list(board.bonus_reserve)
        uses: list[BonusUse] = []
        columns: list[int | None] = [None] * PATTERN_LINES
        for row in range(PATTERN_LINES):
            colour = board.pattern_colour[row]
            if colour == EMPTY:
                continue
            filled = board.filled(row)
            if filled <= row and reserve and rng.random() < 0.5:
                while filled <= row:
                    pair = [t for t in reserve if faces[t].shows(colour)][:2]
                    if len(pair) == 2:
                        group = pair
                    elif len(reserve) >= 3:
                        group = rng.sample(reserve, 3)
                    else:
                        break
                    for t in group:
                        reserve.remove(t)
                    uses.append(BonusUse(row, tuple(group)))
                    filled += 1
            legal = board.dome_columns(row, colour)
            if legal and filled == row + 1:
                columns[row] = legal[rng.randrange(len(legal))]
        out.append(DomeChoices(tuple(uses), tuple(columns)))
    return out
