"""Fixtures for the dashboard tests: a demo runtime (threads not started unless a test starts them) and apps."""

from __future__ import annotations

import random

import pytest

from web_dashboard.app import create_app
from web_dashboard.runtime import players_demo_runtime
from web_dashboard.security import Security
from web_dashboard.simplayers import SimulationSettings

NETWORK_CLIENT = {"REMOTE_ADDR": "192.168.1.20"}


@pytest.fixture
def runtime(tmp_path):
    rt = players_demo_runtime(4, simulation=SimulationSettings(seed=1), log_dir=tmp_path / "logs",
                      calibration_path=tmp_path / "calibration.json", camera="schematic")
    # A dealt round and one move, so undo and corrections have something to act on.
    rt.session.deal_random(random.Random(3))
    rt.session.play(rt.session.game.state.legal_moves()[0])
    yield rt
    rt.stop()


@pytest.fixture
def security():
    return Security(bound_to_loopback=False)


@pytest.fixture
def app(runtime, security):
    flask_app = create_app(runtime, security)
    flask_app.testing = True
    return flask_app
