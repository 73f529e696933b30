"""Simulated players: the demo's stand-in for people at the table.

They act only through the TableSession, the same interface the camera pipeline's move tracker uses: deal,
play, tile the walls, and now and then *attempt* an illegal placement — reported with the tracker's own rule
and sentence (`GameState.explain_illegal`), left on screen for a moment, then taken back (`clear_alert`), as a
player would after the companion complains. The UI labels the game "simulated players" so nobody mistakes it
for a game the camera is reading.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field

from tracker.moves import CENTRE, FLOOR, Move
from tracker.moves import move as make_move
from tracker.state import DEAL, GRAY, OFFER, OVER, WALL_TILING, GameState
from web_dashboard.session import SessionAlert, SessionError, TableSession


@dataclass
class SimulationSettings:
    move_seconds: float = 1.0  # between moves
    illegal_chance: float = 0.12  # per turn, an attempt that breaks a rule
    alert_seconds: float = 2.5  # how long the illegal attempt stays on the table before it is taken back
    cube_slip_chance: float = 0.3  # per wall tiling, a player moves their score cube to the wrong space
    restart_seconds: float = 15.0  # after a game ends, a new one starts
    seed: int | None = None


def illegal_attempt(state: GameState, rng: random.Random) -> tuple[Move, str, str] | None:
    """A placement the current player might try that the rules forbid: (move, rule, reason), or None."""
    tries = []
    sources = [(i, c) for i, f in enumerate(state.factories) for c in f]
    sources += [(CENTRE, c) for c in range(5) if state.centre[c]]
    for source, colour in sources:
        for line in range(FLOOR):
            candidate = make_move(source, colour, line)
            problem = state.explain_illegal(candidate)
            if problem is not None and problem.rule in ("line_other_colour", "wall_has_colour"):
                tries.append((candidate, problem.rule, problem.reason))
    return rng.choice(tries) if tries else None


@dataclass
class SimulatedPlayers:
    session: TableSession
    settings: SimulationSettings = field(default_factory=SimulationSettings)
    _stop: threading.Event = field(default_factory=threading.Event)
    _running: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._running.set()
        self._thread = threading.Thread(target=self._run, name="simulated-players", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._running.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    def _wait(self, seconds: float) -> bool:
        """Sleep, holding still while paused; False once stopped."""
        if self._stop.wait(seconds):
            return False
        while not self._running.is_set():
            self._running.wait(0.2)
            if self._stop.is_set():
                return False
        return True

    def _run(self) -> None:
        seed = self.settings.seed
        rng = random.Random(seed)
        while self._wait(0.0):
            try:
                if not self.step(rng):
                    return
            except SessionError:
                # A person changed the game between our look and our move (undo, correction): look again.
                continue

    def step(self, rng: random.Random) -> bool:
        session = self.session
        with session.transaction() as game:
            state = game.state.copy()
        if state.phase == DEAL:
            session.deal_random(rng)
            return self._wait(self.settings.move_seconds)
        if state.phase == OFFER:
            if rng.random() < self.settings.illegal_chance:
                attempt = illegal_attempt(state, rng)
                if attempt is not None:
                    candidate, rule, reason = attempt
                    session.report_illegal(state.current_player, rule, f"tried {candidate}: {reason}")
                    if not self._wait(self.settings.alert_seconds):
                        return False
                    session.clear_alert()
            legal = state.legal_moves()
            # A little sense: prefer moves that do not send everything to the floor.
            placed = [m for m in legal if m.line != FLOOR] or legal
            session.play(rng.choice(placed), player=state.current_player)
            return self._wait(self.settings.move_seconds)
        if state.phase == WALL_TILING:
            if state.variant == GRAY:
                reports = session.tile_walls(_gray_choices(state, rng))
            else:
                reports = session.tile_walls()
            if rng.random() < self.settings.cube_slip_chance:
                # Someone miscounts and sets their score cube wrong; the camera's cube check would flag it.
                report = rng.choice(reports)
                shown = max(0, report.score_after + rng.choice((-2, -1, 1, 2)))
                if shown != report.score_after:
                    name = state.names[report.player]
                    session.report_score_alerts([SessionAlert(
                        report.player, "score_cube",
                        f"{name}'s score cube shows {shown}, but the score is {report.score_after}", time.time())])
                    if not self._wait(self.settings.alert_seconds):
                        return False
                    session.report_score_alerts([])
            return self._wait(self.settings.move_seconds)
        if state.phase == OVER:
            if not self._wait(self.settings.restart_seconds):
                return False
            with session.transaction() as game:
                still_over = game.state.phase == OVER
            if still_over:
                session.new_game(session.settings)
            return True
        return self._wait(self.settings.move_seconds)


def _gray_choices(state: GameState, rng: random.Random) -> dict[tuple[int, int], int]:
    trial = state.copy()
    chosen: dict[tuple[int, int], int] = {}

    def chooser(player: int, row: int, colour: int, legal: list[int]) -> int:
        column = rng.choice(legal)
        chosen[(player, row)] = column
        return column

    trial.tile_walls(chooser)
    return chosen
