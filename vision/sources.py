"""The newest frame, always: a threaded reader over any frame source, reconnecting when it drops.

Recognition is slower than some cameras and much slower than a video file read flat out; a plain read loop
would then work through a growing backlog of stale frames. The reader's thread keeps only the latest frame,
and the consumer takes it (or waits for a newer one): at most one frame old, never a queue.

Sources (device index, video file, image folder, http/rtsp URL) live in web_dashboard/sources.py, which owns the
user-facing spec strings; anything with `open() -> bool`, `read() -> (ok, frame, timestamp)` and `close()`
works here. A source that fails is closed and reopened after `retry_seconds`, until `stop()`.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Protocol

import numpy as np


class FrameSource(Protocol):
    def open(self) -> bool: ...

    def read(self) -> tuple[bool, np.ndarray | None, float]: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    timestamp: float
    index: int  # counts every frame the source delivered, so a consumer sees how many it skipped


class LatestFrameReader:
    def __init__(self, source: FrameSource, retry_seconds: float = 1.0) -> None:
        self.source = source
        self.retry_seconds = retry_seconds
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._count = 0
        self._stopping = False
        self.connected = False
        self.reconnects = 0
        self._thread = threading.Thread(target=self._run, name="latest-frame-reader", daemon=True)

    def start(self) -> LatestFrameReader:
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._thread.join(timeout)

    def __enter__(self) -> LatestFrameReader:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def latest(self, newer_than: int = -1, timeout: float | None = None) -> Frame | None:
        """The newest frame whose index is above `newer_than`, waiting up to `timeout` for one (None: no wait)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._latest is None or self._latest.index <= newer_than:
                if timeout is None or self._stopping:
                    return None
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return self._latest

    def _run(self) -> None:
        while not self._stopping:
            try:
                opened = self.source.open()
            except Exception:  # a driver error is a failed open: retry, never kill the thread
                opened = False
            self.connected = bool(opened)
            while opened and not self._stopping:
                try:
                    ok, image, stamp = self.source.read()
                except Exception:
                    ok, image, stamp = False, None, 0.0
                if not ok or image is None:
                    break
                with self._cond:
                    self._latest = Frame(image, stamp, self._count)
                    self._count += 1
                    self._cond.notify_all()
            self.connected = False
            try:
                self.source.close()
            except Exception:
                pass
            if self._stopping:
                break
            self.reconnects += 1
            with self._cond:
                self._cond.wait(self.retry_seconds)
