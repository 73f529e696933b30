"""The synthetic table as a camera source, with the interface every source has: `open()`,
`read() -> (ok, frame_bgr, timestamp)`, `close()`.

- `SyntheticTable` films a whole seeded bot game (see animate.py) and then ends, like a video file.
- `RenderedTable` photographs whatever table view a callable returns (a game someone else is driving, such as
  the dashboard's demo), with the same renderer.

Frames come paced at `fps` in real time, or as fast as they render with `realtime=False`. Timestamps are in
seconds since the epoch; in a game the n-th frame is stamped start + n / fps either way, so the pipeline sees
the game's own clock even when frames come faster than real time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from vision.pacing import FramePacer
from vision.synthetic.animate import GameAnimation, Pace, SimFrame
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer


@dataclass
class SyntheticTable:
    players: int = 4
    seed: int = 0
    variant: str = "colored"
    fps: float = 10.0
    realtime: bool = True
    look: Look | None = None
    pace: Pace = field(default_factory=Pace)
    name: str = ""
    finite: bool = True  # the game ends; a source that ends is not reopened
    last_truth: dict | None = None  # the ground truth of the last frame read (for tests and benches only)
    _frames: Iterator[SimFrame] | None = None
    _animation: GameAnimation | None = None
    _start: float = 0.0
    _pacer: FramePacer | None = None

    def __post_init__(self) -> None:
        if self.fps <= 0:
            raise ValueError("fps must be positive")
        self.name = self.name or f"synthetic table ({self.players} players, seed {self.seed})"

    def open(self) -> bool:
        self._animation = GameAnimation(self.players, self.seed, self.variant, self.look, self.fps, self.pace)
        self._frames = self._animation.frames()
        self._start = time.time()
        self._pacer = FramePacer(self.fps)
        return True

    @property
    def animation(self) -> GameAnimation | None:
        return self._animation

    def read(self) -> tuple[bool, np.ndarray | None, float]:
        if self._frames is None and not self.open():
            return False, None, time.time()
        if self.realtime:
            self._pacer.wait()
        frame = next(self._frames, None)
        if frame is None:
            return False, None, time.time()
        self.last_truth = frame.truth
        return True, frame.image, self._start + frame.time

    def close(self) -> None:
        self._frames = None


@dataclass
class RenderedTable:
    """Photographs `table()` (a table view dict, e.g. GameState.to_table()) at `fps`. The table is set up on the
    first frame, and again when the view has another number of players or the other wall side (a new game)."""

    table: Callable[[], dict]
    players: int = 4
    variant: str = "colored"
    seed: int = 0
    fps: float = 10.0
    look: Look | None = None
    name: str = "synthetic table"
    _renderer: Renderer | None = None
    _pacer: FramePacer | None = None

    def open(self) -> bool:
        self._pacer = FramePacer(self.fps)
        return True

    @property
    def renderer(self) -> Renderer | None:
        return self._renderer

    def read(self) -> tuple[bool, np.ndarray | None, float]:
        if self._pacer is None:
            self.open()
        self._pacer.wait()
        view = self.table()
        players, variant = len(view["boards"]), view.get("variant", self.variant)
        if self._renderer is None or (self._renderer.players, self._renderer.variant) != (players, variant):
            # Set up here, in the reading thread: a caller serving meanwhile is not held up by it.
            look = self.look or Look.random(self.seed, 1280, 720)
            self._renderer = Renderer(players, variant, look, self.seed)
        frame = self._renderer.render(self._renderer.pieces(view))
        return True, frame.image, time.time()

    def close(self) -> None:
        pass  # the table stays set up: reopening (a camera that came back) photographs it again at once
