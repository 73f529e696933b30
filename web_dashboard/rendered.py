"""The demo's camera: photographs of the simulated table from vision's synthetic renderer, as a FrameSource.

It plays the part of a camera looking at the true (simulated) table, so it draws from the simulated game's
table view; nothing that recognises anything reads from here. Rendering is cached by the renderer while the
pieces do not move, so a still table costs little more than the lens, light and sensor steps.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from vision.pacing import FramePacer

DEMO_SIZE = (1280, 720)


def demo_renderer(players: int, variant: str, seed: int = 3):
    """A tidy, well-lit table seen from slightly off overhead: the demo should look like a good set-up."""
    from vision.synthetic.look import Look
    from vision.synthetic.render import Renderer

    look = Look(width=DEMO_SIZE[0], height=DEMO_SIZE[1], tilt_deg=15, clutter=2, shake_probability=0.0,
                noise_sigma=1.5)
    return Renderer(players, variant, look, seed)


@dataclass
class RenderedTable:
    table: Callable[[], dict]  # the true table view (GameState.to_table())
    players: int
    variant: str
    fps: float = 12.0
    name: str = "simulated table (rendered)"
    fail: Callable[[], bool] = lambda: False  # tests unplug the "camera" with this
    renderer: object = field(default=None, init=False)
    _pacer: FramePacer | None = field(default=None, init=False)

    def open(self) -> bool:
        # Built here, in the camera thread, so the dashboard is serving while the table is being set up.
        if self.renderer is None:
            self.renderer = demo_renderer(self.players, self.variant)
        self._pacer = FramePacer(self.fps)
        return not self.fail()

    def close(self) -> None:
        pass

    def read(self) -> tuple[bool, np.ndarray | None, float]:
        self._pacer.wait()
        if self.fail():
            return False, None, time.time()
        view = self.table()
        if len(view["boards"]) != self.renderer.players or view["variant"] != self.renderer.variant:
            # A new game with other players or the other wall side: set up a table to match.
            self.renderer = demo_renderer(len(view["boards"]), view["variant"])
        frame = self.renderer.render(self.renderer.pieces(view)).image
        return True, frame, time.time()
