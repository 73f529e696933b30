"""Rendered tables for the vision tests: seeds below 1000 only (the bench uses 10000 and up)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.setup import learn_setup
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer
from web_dashboard.vision_bench import empty_view, random_view, setup_view, still_frames


class Table:
    def __init__(self, seed: int, players: int = 4, look: Look | None = None) -> None:
        self.rng = np.random.default_rng([seed, 5])
        self.renderer = Renderer(players, "colored", look or Look(noise_sigma=2.0, jpeg_quality=90), seed)
        self.players = players
        self.calibration = self.renderer.calibration()
        self.empty_frames = still_frames(self.renderer, empty_view(players))
        self.setup_frames = still_frames(self.renderer, setup_view(players, self.rng))
        self.profile = learn_setup(self.calibration, self.setup_frames, empty=self.empty_frames)

    def frame(self, view: dict | None = None, hands=(), salt: int = 0):
        view = view or random_view(self.players, self.rng)
        return view, self.renderer.render(self.renderer.pieces(view, salt=salt), hands=hands, shake=False)


@pytest.fixture(scope="session")
def plain_table() -> Table:
    """A 4-player table from above in good light: the easy case, which must be read exactly."""
    return Table(11)


@pytest.fixture(scope="session")
def varied_table() -> Table:
    """A table with a randomly drawn look (pose, lens, light, style, noise, JPEG) at 720p."""
    return Table(23, look=Look.random(23, 1280, 720))
