"""The game log on disk: append-only JSON Lines, one event per line, flushed and fsynced per event.

Reading never throws away good events: a torn last line (the process died mid-write) or a corrupt line is
reported by its line number, and everything before it is kept. Opening a log for appending moves any bad tail
aside to a `.corrupt` file first, so new events never land after a torn line and nothing is lost.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path


class LogError(Exception):
    """The log cannot be used (unreadable file, not a game log)."""


@dataclass(frozen=True, slots=True)
class LogProblem:
    line: int  # 1-based line number of the first bad line
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


@dataclass(frozen=True, slots=True)
class LoadedLog:
    events: list[dict]  # every good event before the first problem
    problem: LogProblem | None
    good_bytes: int  # length of the file's good prefix


def parse_log(data: bytes) -> LoadedLog:
    events: list[dict] = []
    offset = 0
    line_no = 0
    while offset < len(data):
        line_no += 1
        end = data.find(b"\n", offset)
        if end < 0:
            return LoadedLog(events, LogProblem(line_no, "the last line is cut short (no end of line)"), offset)
        raw = data[offset:end]
        if raw.strip():
            try:
                event = json.loads(raw)
            except (UnicodeDecodeError, json.JSONDecodeError) as err:
                return LoadedLog(events, LogProblem(line_no, f"not valid JSON ({err})"), offset)
            if not isinstance(event, dict) or not isinstance(event.get("type"), str):
                return LoadedLog(events, LogProblem(line_no, "not an event (a JSON object with a 'type')"), offset)
            events.append(event)
        offset = end + 1
    return LoadedLog(events, None, offset)


def read_log(path: str | os.PathLike) -> LoadedLog:
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise LogError(f"cannot read the game log {path}: {err.strerror or err}") from None
    return parse_log(data)


class GameLog:
    """An open game log. `append` returns only once the event is on disk."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        existing = read_log(self.path) if self.path.exists() else LoadedLog([], None, 0)
        self.recovered_problem = existing.problem
        if existing.problem is not None:
            self._set_aside_bad_tail(existing.good_bytes)
        self.events: list[dict] = list(existing.events)
        try:
            self._file = open(self.path, "ab")
        except OSError as err:
            raise LogError(f"cannot open the game log {self.path} for writing: {err.strerror or err}") from None
        if not existing.events:
            _fsync_directory(self.path.parent)

    def _set_aside_bad_tail(self, good_bytes: int) -> None:
        data = self.path.read_bytes()
        n = 1
        while (aside := self.path.with_name(f"{self.path.name}.corrupt-{n}")).exists():
            n += 1
        with open(aside, "wb") as f:
            f.write(data[good_bytes:])
            f.flush()
            os.fsync(f.fileno())
        with open(self.path, "r+b") as f:
            f.truncate(good_bytes)
            f.flush()
            os.fsync(f.fileno())
        self.set_aside = aside

    def append(self, event: dict) -> None:
        line = json.dumps(event, separators=(",", ":"), sort_keys=False).encode() + b"\n"
        self._file.write(line)
        self._file.flush()
        os.fsync(self._file.fileno())
        self.events.append(event)

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _fsync_directory(folder: Path) -> None:
    # A new file's directory entry must reach the disk too, or a crash can lose the whole log.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
