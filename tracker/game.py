"""A classic Azul game as players and the camera drive it: every action becomes a logged event.

`Game` wraps a GameState in a GameRecord: each action is checked by the rules, appended to the log (when there
is one), and only then becomes the game's state. Undo and corrections go through the log too, so a game
reopened from its log is exactly the game that was played.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from tracker.moves import Move
from tracker.record import RecordedGame
from tracker.state import COLORED, OVER, ColumnChooser, GameState, RoundScore
from tracker.tiles import COLOUR_NAMES, WALL_SIZE


class ClassicRules:
    """How classic Azul's events change a GameState (the GameRecord's rules)."""

    game_events = frozenset({"deal", "move", "wall_tiling"})

    def setup(self, event: dict) -> GameState:
        names = event.get("names") or ()
        if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
            raise ValueError("setup 'names' must be a list of player names")
        players = event.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError(f"setup 'players' must be 2, 3 or 4, not {players!r}")
        return GameState.new(players, event.get("variant", COLORED), event.get("start_player", 0), names)

    def apply(self, state: GameState, event: dict) -> None:
        kind = event["type"]
        if kind == "deal":
            factories = event.get("factories")
            if not isinstance(factories, list) or not all(isinstance(f, list) for f in factories):
                raise ValueError("a deal needs 'factories': one list of tile colours per factory display")
            state.deal(factories)
        elif kind == "move":
            player = event.get("player")
            if player is not None and (not isinstance(player, int) or not 0 <= player < state.players):
                raise ValueError(f"move 'player' must be 0..{state.players - 1}, not {player!r}")
            state.play(Move.from_json(event), player=player)
        else:
            state.tile_walls(_columns_from_event(event, state.players))
            expected = event.get("scores_after")
            if expected is not None and expected != [b.score for b in state.boards]:
                raise ValueError(
                    f"the recorded scores {expected} differ from the rules' {[b.score for b in state.boards]}"
                )

    def check_end(self, state: GameState, event: dict) -> None:
        if state.phase != OVER:
            raise ValueError("an end event before the game is over")
        expected = event.get("final_scores")
        if expected is not None and expected != [b.score for b in state.boards]:
            raise ValueError(f"the recorded final scores {expected} differ from {[b.score for b in state.boards]}")


def _columns_from_event(event: dict, players: int) -> dict[tuple[int, int], int | None]:
    columns = event.get("columns")
    if columns is None:
        return {}
    if not isinstance(columns, list) or len(columns) != players:
        raise ValueError("wall tiling 'columns' must list, per player, the column chosen for each row")
    chosen: dict[tuple[int, int], int | None] = {}
    for p, rows in enumerate(columns):
        if not isinstance(rows, list) or len(rows) != WALL_SIZE:
            raise ValueError(f"wall tiling 'columns' for player {p + 1} must have 5 entries (null: no tile)")
        for r, column in enumerate(rows):
            if column is not None:
                if not isinstance(column, int) or isinstance(column, bool) or not 0 <= column < WALL_SIZE:
                    raise ValueError(f"wall tiling column {column!r} is not 0..4")
                chosen[(p, r)] = column
    return chosen


class Game(RecordedGame):
    rules = ClassicRules

    @classmethod
    def new(
        cls,
        players: int,
        variant: str = COLORED,
        names: Sequence[str] = (),
        start_player: int = 0,
        log_path=None,
    ) -> Game:
        setup = {"type": "setup", "game": "azul", "version": 1, "players": players, "variant": variant,
                 "names": list(names), "start_player": start_player}
        return cls._start(setup, log_path)

    @property
    def state(self) -> GameState:
        return self.record.state

    def deal(self, factories: Sequence[Sequence[int | str]], unseen: dict | list[dict] | None = None) -> None:
        """`unseen`: {"factory": j, "colors": [...]} when one tile of display j was never seen and the deal guesses
        it as the first of those colours (it may be any of them), or {"factory": j, "tiles": 4} when all were; a
        list of such when two displays were guessed."""
        names = [[c if isinstance(c, str) else COLOUR_NAMES[c] for c in f] for f in factories]
        self.record.submit({"type": "deal", "factories": names, **({"unseen": unseen} if unseen else {})})

    def deal_random(self, rng: random.Random) -> list[list[int]]:
        trial = self.state.copy()
        deal = trial.deal_random(rng)
        self.deal(deal)
        return deal

    def play(self, move: Move, player: int | None = None) -> None:
        who = self.state.current_player if player is None else player
        self.record.submit({"type": "move", "player": who, **move.to_json()})

    def tile_walls(self, columns: Mapping[tuple[int, int], int] | ColumnChooser | None = None) -> list[RoundScore]:
        trial = self.state.copy()
        reports = trial.tile_walls(columns)
        chosen = [[None] * WALL_SIZE for _ in range(trial.players)]
        for report in reports:
            for placement in report.placements:
                chosen[report.player][placement.row] = placement.column
        self.record.submit(
            {"type": "wall_tiling", "columns": chosen, "scores_after": [b.score for b in trial.boards]}
        )
        if self.state.phase == OVER:
            self.record.submit({"type": "end", "final_scores": [b.score for b in self.state.boards],
                                "winners": self.state.winners()})
        return reports
