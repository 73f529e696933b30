"""Handing frames out at a steady rate, as a camera does: for recorded media and simulated tables."""

from __future__ import annotations

import time


class FramePacer:
    """Waits until the next frame is due. A late reader is never made to catch up: no backlog builds."""

    def __init__(self, fps: float) -> None:
        if fps <= 0:
            raise ValueError("fps must be positive")
        self.interval = 1.0 / fps
        self._next = time.monotonic()

    def restart(self) -> None:
        self._next = time.monotonic()

    def wait(self) -> None:
        delay = self._next - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        self._next = max(self._next + self.interval, time.monotonic())
