"""The table session: the one owner of the game, and the only way anything changes it.

Camera pipeline, simulated players and the web app all act through a TableSession. Every change happens under
its lock and ends with a fresh snapshot published on the event bus, so browsers see exactly what the tracker
holds. The move tracker reports alerts through `report_illegal` / `clear_alert` / `report_score_alerts`.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tracker.game import Game
from tracker.gamelog import LogError
from tracker.moves import Move
from tracker.record import RecordError
from tracker.state import RoundScore
from web_dashboard.bus import EventBus
from web_dashboard.view import game_view


class SessionError(Exception):
    """An action the rules or the game log refused; the message is for the person who asked."""


@dataclass(frozen=True, slots=True)
class SessionAlert:
    player: int | None
    rule: str
    reason: str
    since: float

    def to_json(self, names: Sequence[str]) -> dict:
        who = names[self.player] if self.player is not None and 0 <= self.player < len(names) else None
        return {"player": self.player, "name": who, "rule": self.rule, "reason": self.reason, "since": self.since}


@dataclass(frozen=True, slots=True)
class GameSettings:
    players: int = 4
    variant: str = "colored"
    names: tuple[str, ...] = ()
    log_dir: Path | None = None  # each new game gets its own log file here; None: no log file
    start_player: int = 0  # who takes the first turn (the camera cannot see who was chosen to start)


@dataclass
class TableSession:
    bus: EventBus
    settings: GameSettings
    # Who is making the moves, shown in the UI so a simulated game is never mistaken for a watched one.
    driver: str = "manual"
    game: Game = field(init=False)
    game_id: int = field(init=False, default=0)
    alert: SessionAlert | None = field(init=False, default=None)
    score_alerts: tuple[SessionAlert, ...] = field(init=False, default=())
    log_path: Path | None = field(init=False, default=None)
    _lock: threading.RLock = field(init=False, default_factory=threading.RLock)
    _version: int = field(init=False, default=0)
    _snapshot: dict | None = field(init=False, default=None)
    _ids: Iterator[int] = field(init=False, default_factory=lambda: itertools.count(1))

    def __post_init__(self) -> None:
        self.game = self._start_game(self.settings)
        self.publish()

    # ---- the game ----------------------------------------------------------------------------------
    def _start_game(self, settings: GameSettings) -> Game:
        log_path = None
        if settings.log_dir is not None:
            settings.log_dir.mkdir(parents=True, exist_ok=True)
            log_path = settings.log_dir / f"game-{time.strftime('%Y%m%d-%H%M%S')}-{next(self._ids)}.jsonl"
        try:
            game = Game.new(settings.players, settings.variant, names=settings.names, log_path=log_path,
                            start_player=settings.start_player)
        except (RecordError, LogError, ValueError) as err:
            raise SessionError(str(err)) from None
        self.game_id += 1
        self.log_path = log_path
        return game

    def new_game(self, settings: GameSettings) -> None:
        with self._lock:
            game = self._start_game(settings)
            old, self.game, self.settings = self.game, game, settings
            old.close()
            self.alert, self.score_alerts = None, ()
            self._changed()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Game]:
        """Hold the game for a batch of actions (the move tracker's observe); publish once afterwards if the
        game log grew or an alert changed."""
        with self._lock:
            before = (len(self.game.record.events), self.alert, self.score_alerts, self.game_id)
            try:
                yield self.game
            finally:
                after = (len(self.game.record.events), self.alert, self.score_alerts, self.game_id)
                if after != before:
                    self._changed()

    def _act(self, action) -> object:
        with self._lock:
            try:
                result = action()
            except RecordError as err:
                raise SessionError(str(err)) from None
            self._changed()
            return result

    def play(self, move: Move, player: int | None = None) -> None:
        def action():
            self.game.play(move, player)
            self.alert = None  # a legal move resolves whatever was wrong on the table
        self._act(action)

    def deal_random(self, rng: random.Random) -> list[list[int]]:
        return self._act(lambda: self.game.deal_random(rng))

    def deal(self, factories: Sequence[Sequence[int | str]]) -> None:
        self._act(lambda: self.game.deal(factories))

    def tile_walls(self, columns: Mapping | None = None) -> list[RoundScore]:
        return self._act(lambda: self.game.tile_walls(columns))

    def undo(self, count: int = 1) -> None:
        def action():
            self.game.undo(count)
            self.alert = None
        self._act(action)

    def correct(self, replace: int, events: list[dict], reason: str = "") -> None:
        def action():
            self.game.correct(replace, events, reason)
            self.alert = None
        self._act(action)

    def replace_last_move(self, move: Move, reason: str) -> None:
        """A person's correction of the last move in force (the camera misread it): same player, other move."""
        from web_dashboard.view import effective_events

        with self._lock:
            in_force = effective_events(self.game.record.events)
            if not in_force or in_force[-1].get("type") != "move":
                raise SessionError("the last action in force is not a move (a deal or wall tiling came after it): "
                                   "undo back to the move instead")
            player = in_force[-1]["player"]
            self.correct(1, [{"type": "move", "player": player, **move.to_json()}], reason or "corrected by hand")

    # ---- alerts (the move tracker's seam) ------------------------------------------------------------
    def report_illegal(self, player: int | None, rule_code: str, reason: str) -> None:
        with self._lock:
            if self.alert is not None and (self.alert.player, self.alert.rule, self.alert.reason) == (
                    player, rule_code, reason):
                return
            self.alert = SessionAlert(player, rule_code, reason, time.time())
            self._changed()

    def clear_alert(self) -> None:
        with self._lock:
            if self.alert is not None:
                self.alert = None
                self._changed()

    def report_score_alerts(self, alerts: Sequence[SessionAlert]) -> None:
        with self._lock:
            alerts = tuple(alerts)
            if [(a.player, a.reason) for a in alerts] != [(a.player, a.reason) for a in self.score_alerts]:
                self.score_alerts = alerts
                self._changed()

    # ---- views -------------------------------------------------------------------------------------
    def _changed(self) -> None:
        self._version += 1
        self._snapshot = None
        self.publish()

    def snapshot(self) -> dict:
        with self._lock:
            if self._snapshot is None:
                names = self.game.state.names
                view = game_view(self.game)
                view.update({
                    "version": self._version,
                    "game_id": self.game_id,
                    "driver": self.driver,
                    "alert": self.alert.to_json(names) if self.alert else None,
                    "score_alerts": [a.to_json(names) for a in self.score_alerts],
                })
                self._snapshot = view
            return self._snapshot

    def publish_now(self) -> None:
        """Publish a fresh snapshot after a change outside the game (the driver label)."""
        with self._lock:
            self._changed()

    def publish(self) -> None:
        self.bus.publish("state", self.snapshot())

    def events(self) -> list[dict]:
        with self._lock:
            return list(self.game.record.events)

    @property
    def version(self) -> int:
        return self._version

    def close(self) -> None:
        with self._lock:
            self.game.close()
