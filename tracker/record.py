"""The game record: a sequence of events that replays to the game's state, with undo and corrections.

Which events a game has and what they do belongs to its rules (classic Azul, Azul Duel); this module only
knows the shared machinery:
- `setup` comes first and builds the initial state;
- game events (the rules' own) change the state; each may later be undone;
- `undo` {"count": k} takes back the last k game events still in force;
- `correction` {"replace": k, "events": [...], "reason": "..."} takes back k game events and applies others
  (a person fixing what the camera got wrong);
- `end` is a record of the final result, checked against the state on replay.
An event is committed (appended to the log, fsynced) only after it has been applied to a copy of the state
without error, so the log holds nothing that does not replay.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from tracker.explain import IllegalMove, InvalidDeal
from tracker.gamelog import GameLog, LogProblem, read_log


class RecordError(Exception):
    """An event that cannot be applied: malformed, or against the rules. The message says which and why."""


class Rules(Protocol):
    game_events: frozenset[str]

    def setup(self, event: dict) -> Any: ...

    def apply(self, state: Any, event: dict) -> None: ...

    def check_end(self, state: Any, event: dict) -> None: ...


@dataclass
class GameRecord:
    rules: Rules
    state: Any
    events: list[dict]
    # The state before each game event still in force, so undo is exact and cheap.
    _before: list[Any]
    log: GameLog | None = None
    # The game events still in force (after undos and corrections), parallel to _before.
    _in_force: list[dict] = field(default_factory=list)

    @classmethod
    def start(cls, rules: Rules, setup: dict, log: GameLog | None = None) -> GameRecord:
        if setup.get("type") != "setup":
            raise RecordError("a game record starts with a setup event")
        state = _guarded(lambda: rules.setup(setup))
        record = cls(rules, state, [setup], [], log)
        if log is not None:
            log.append(setup)
        return record

    @classmethod
    def replay(cls, rules: Rules, events: Iterable[dict]) -> tuple[GameRecord, LogProblem | None]:
        """Rebuild a game from its events. Stops at the first event that fails, reporting its line (1-based)
        and keeping everything before it."""
        events = list(events)
        if not events:
            raise RecordError("the game log is empty: it has no setup event")
        try:
            record = cls.start(rules, events[0])
        except RecordError as err:
            raise RecordError(f"line 1: {err}") from None
        for line, event in enumerate(events[1:], start=2):
            try:
                record._apply_atomic(event)
            except RecordError as err:
                return record, LogProblem(line, str(err))
            record.events.append(event)
        return record, None

    @classmethod
    def resume(cls, rules: Rules, path) -> tuple[GameRecord, LogProblem | None]:
        """Reopen a game from its log file and keep appending to it. A bad tail is reported and set aside."""
        loaded = read_log(path)
        record, problem = cls.replay(rules, loaded.events)
        problem = loaded.problem or problem
        if problem is not None and loaded.problem is None:
            # The file is well-formed but an event does not replay: keep the file as it is, set nothing aside,
            # and refuse to append after an event the rules reject.
            raise RecordError(f"the game log {path} does not replay at {problem}")
        record.log = GameLog(path)
        return record, problem

    def submit(self, event: dict) -> None:
        """Apply an event and, once it is known to be good, append it to the log."""
        saved = (self.state, list(self._before), list(self._in_force))
        self._apply_atomic(event)
        if self.log is not None:
            try:
                self.log.append(event)
            except OSError as err:
                self.state, self._before, self._in_force = saved
                raise RecordError(f"the event was not saved, so it was not played: {err}") from None
        self.events.append(event)

    def undo(self, count: int = 1) -> None:
        self.submit({"type": "undo", "count": count})

    def correct(self, replace: int, events: list[dict], reason: str = "") -> None:
        self.submit({"type": "correction", "replace": replace, "events": events, "reason": reason})

    @property
    def undoable(self) -> int:
        return len(self._before)

    def events_in_force(self) -> list[dict]:
        """The game events that make the current state, undone and replaced ones left out."""
        return list(self._in_force)

    def state_before(self, count: int):
        """The state before the last `count` game events still in force (read-only: never mutate it)."""
        if not 1 <= count <= len(self._before):
            raise RecordError(f"only {len(self._before)} events can be looked back on")
        return self._before[-count]

    def _apply_atomic(self, event: dict) -> None:
        """Apply an event entirely or not at all."""
        saved = (self.state, list(self._before), list(self._in_force))
        try:
            self._apply(event)
        except RecordError:
            self.state, self._before, self._in_force = saved
            raise

    def _apply(self, event: dict) -> None:
        if not isinstance(event, dict):
            raise RecordError("an event must be a JSON object")
        kind = event.get("type")
        if kind in self.rules.game_events:
            # States are replaced, never mutated in place, so a snapshot is just a reference.
            after = self.state.copy()
            _guarded(lambda: self.rules.apply(after, event))
            self._before.append(self.state)
            self._in_force.append(event)
            self.state = after
        elif kind == "undo":
            self._undo(event.get("count", 1))
        elif kind == "correction":
            replace = event.get("replace", 0)
            replacement = event.get("events")
            if not isinstance(replacement, list):
                raise RecordError("a correction needs 'events', a list of the events that replace the undone ones")
            if any(not isinstance(e, dict) or e.get("type") not in self.rules.game_events for e in replacement):
                raise RecordError("a correction may only contain game events")
            if replace:
                self._undo(replace)
            for inner in replacement:
                self._apply(inner)
        elif kind == "end":
            _guarded(lambda: self.rules.check_end(self.state, event))
        elif kind == "setup":
            raise RecordError("a game has only one setup event, at the start")
        else:
            raise RecordError(f"unknown event type {kind!r}")

    def _undo(self, count: object) -> None:
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise RecordError(f"undo needs a count of 1 or more, not {count!r}")
        if count > len(self._before):
            raise RecordError(f"cannot undo {count} events: only {len(self._before)} can be taken back")
        self.state = self._before[-count]
        del self._before[-count:]
        del self._in_force[-count:]


@dataclass
class RecordedGame:
    """A game whose every action is an event of its record, on disk when there is a log. Subclasses name their
    rules (`rules`) and turn players' actions into events."""

    record: GameRecord
    rules: ClassVar[type]

    @classmethod
    def _start(cls, setup: dict, log_path=None):
        log = GameLog(log_path) if log_path is not None else None
        if log is not None and log.events:
            log.close()
            raise RecordError(f"{log_path} already holds a game: resume it, or choose a new file")
        return cls(GameRecord.start(cls.rules(), setup, log))

    @classmethod
    def resume(cls, log_path):
        """Reopen a game from its log (returns the game and any problem found at the log's end)."""
        record, problem = GameRecord.resume(cls.rules(), log_path)
        return cls(record), problem

    @classmethod
    def from_events(cls, events):
        record, problem = GameRecord.replay(cls.rules(), events)
        return cls(record), problem

    @property
    def state(self):
        return self.record.state

    def undo(self, count: int = 1) -> None:
        self.record.undo(count)

    def correct(self, replace: int, events: list[dict], reason: str = "") -> None:
        self.record.correct(replace, events, reason)

    def close(self) -> None:
        if self.record.log is not None:
            self.record.log.close()


def _guarded(action):
    """Run a rules action, turning the rules' own errors into RecordError with the player-facing reason."""
    try:
        return action()
    except (IllegalMove, InvalidDeal) as err:
        raise RecordError(str(err)) from None
    except (ValueError, KeyError, TypeError, IndexError) as err:
        raise RecordError(f"malformed event: {err}") from None
