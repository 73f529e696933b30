"""The vision demo: a rendered game read through the real pipeline (camera loop -> recogniser -> move tracker).

Recognition accuracy is vision's business and is measured by `bench pipeline`; these tests check the wiring:
frames from the animated table reach the recogniser, the setup is learned from frames the loop itself handled,
what the recogniser says reaches the move tracker, and the dashboard reports the mode and the tracker's state.
"""

from __future__ import annotations

import copy
import json
import random
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from firmware_bridge.fake_server import FakeDeviceServer
from web_dashboard import capture
from web_dashboard.runtime import VISION_DEMO_DRIVER, players_demo_runtime, vision_demo_runtime
from web_dashboard.simplayers import SimulationSettings

sys.path.insert(0, str(Path(__file__).parent))
from browser import served  # noqa: E402


def wait_until(predicate, timeout: float, step: float = 0.1) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def perfect_observation(truth: dict) -> dict:
    """What a recogniser that never errs would say about a rendered frame: its true table, hands flagged."""
    obs = copy.deepcopy(truth["table"])
    hidden = truth["occluded"]
    for i, board in enumerate(obs["boards"]):
        board["occluded"] = bool(hidden["boards"][i])
    obs["factories"] = [{"counts": f, "occluded": bool(hidden["factories"][j])}
                        for j, f in enumerate(obs["factories"])]
    obs["center"] = {"counts": obs["center"], "first_player": obs["first_player"], "occluded": bool(hidden["center"])}
    return obs


class TruthReader:
    """A stand-in for vision's TableRecognizer that reads each frame perfectly (from the animation's truth, which
    the test looks up by the frame it is handed), and records every frame and observation passing through."""

    def __init__(self, truths: dict) -> None:
        self.truths = truths
        self.frames = 0
        self.observations: list[dict] = []

    def __call__(self, profile, size):  # the TableRecognizer(profile, size) constructor
        self.size = size
        return self

    def recognize(self, frame: np.ndarray, timestamp: float) -> dict:
        self.frames += 1
        observation = perfect_observation(self.truths[id(frame)])
        self.observations.append(observation)
        return observation


def test_the_demo_game_is_what_the_recogniser_reads(tmp_path, monkeypatch):
    learned_from = {}

    def fake_learn(profile, setup_frames, empty_frames):
        learned_from.update(setup=setup_frames, empty=len(empty_frames))
        return profile

    truths: dict[int, dict] = {}
    reader = TruthReader(truths)
    monkeypatch.setattr(capture, "learn", fake_learn)
    monkeypatch.setattr("vision.recognizer.TableRecognizer", reader)
    runtime = vision_demo_runtime(2, simulation=SimulationSettings(move_seconds=0.5, illegal_chance=0, seed=4),
                                  log_dir=tmp_path)
    table = runtime.camera.source
    host_sees = table.on_frame

    def see(animation, frame) -> None:
        truths[id(frame.image)] = frame.truth
        if len(truths) > 200:  # the loop is done with old frames; keep the lookup small
            truths.pop(next(iter(truths)))
        host_sees(animation, frame)
        see.animation = animation

    table.on_frame = see
    observed = []
    real_track = runtime.camera._track
    monkeypatch.setattr(runtime.camera, "_track", lambda obs, t: (observed.append(obs), real_track(obs, t)))
    runtime.start()
    try:
        moves = lambda: [e for e in runtime.session.events() if e["type"] == "move"]  # noqa: E731
        assert wait_until(lambda: len(moves()) >= 3, timeout=40), runtime.camera.status
        # The setup was learned from frames the loop handled: the empty table, then the first deal.
        assert learned_from["empty"] > 0 and len(learned_from["setup"]) == capture.SETUP_FRAMES
        assert all(f.shape == (720, 1280, 3) for f in learned_from["setup"])
        # Every observation the tracker got is one the recogniser made, in order.
        assert observed and observed == reader.observations[:len(observed)]
        # The committed moves are the ones played at the table, in its order, by its start player.
        true_moves = [e for e in see.animation.log if e["type"] == "move"]
        assert [{k: m[k] for k in ("player", "source", "color", "line")} for m in moves()] == \
            [{k: m[k] for k in ("player", "source", "color", "line")} for m in true_moves[:len(moves())]]
        status = runtime.camera.status
        assert status.recognition.startswith("on (vision.recognizer")
        assert runtime.session.snapshot()["driver"] == VISION_DEMO_DRIVER
    finally:
        runtime.stop()


def test_the_real_pipeline_reads_rendered_frames_and_reports_its_mode(tmp_path):
    runtime = vision_demo_runtime(4, simulation=SimulationSettings(seed=1), log_dir=tmp_path)
    with served(runtime) as url:
        def camera() -> dict:
            with urllib.request.urlopen(url + "/api/state", timeout=3) as response:
                state = json.load(response)
            assert state["driver"] == VISION_DEMO_DRIVER
            return state["camera"]

        first = camera()
        assert first["recognition"].startswith("setting up")
        # The empty table and the first deal (about 3.5 s in) are captured; then vision reads every frame.
        assert wait_until(lambda: camera()["recognition"].startswith("on (vision.recognizer"), timeout=25), camera()
        frames = camera()["frames"]
        assert wait_until(lambda: camera()["frames"] >= frames + 10, timeout=10)
        status = camera()
        assert status["state"] == "live" and status["source"] == "simulated table (rendered game)"
        # The tracker is being fed: it has committed something or says what it waits for.
        assert wait_until(lambda: camera()["waiting"] or camera()["committed"], timeout=10), camera()
        assert not status["message"], status["message"]


def test_a_failed_setup_says_so_and_waits(tmp_path, monkeypatch):
    def refuse(profile, setup_frame, empty_frames):
        raise ValueError("the boards are not empty")

    monkeypatch.setattr(capture, "learn", refuse)
    labels = []
    grab = capture.SetupCapture(profile=None, on_ready=lambda *a: pytest.fail("nothing was learned"),
                                on_progress=labels.append)
    frame = np.zeros((72, 128, 3), np.uint8)
    assert grab(frame, 0.0) is None  # nothing pressed: nothing captured, nothing to track
    grab.press(capture.EMPTY)
    assert grab(frame, 0.1) is None and labels == ["setting up: empty table captured, waiting for the first deal"]
    grab.press(capture.SETUP)
    for k in range(capture.SETUP_FRAMES):
        assert grab(frame, 0.2 + 0.1 * k) is None
    assert "the boards are not empty" in labels[-1]


def test_the_setup_is_learned_from_the_frames_since_the_press(monkeypatch):
    # One frame alone may be one a bumped camera blurred (recorded tuning game 750): learn_setup leaves those out.
    learned = []
    monkeypatch.setattr(capture, "learn", lambda profile, setup, empty: learned.append(setup) or profile)

    class Recognizer:
        def __init__(self, profile, size) -> None:
            pass

        def recognize(self, frame, timestamp):
            return {"time": timestamp}

    monkeypatch.setattr("vision.recognizer.TableRecognizer", Recognizer)
    ready = []
    grab = capture.SetupCapture(profile="profile", on_ready=lambda *a: ready.append(a))
    frames = [np.full((4, 4, 3), k, np.uint8) for k in range(capture.SETUP_FRAMES + 1)]
    assert grab(frames[0], 0.0) is None  # before the press: not taken
    grab.press(capture.SETUP)
    for k, frame in enumerate(frames[1:-1], 1):
        assert grab(frame, 0.1 * k) is None and not ready
    assert grab(frames[-1], 1.0) == {"time": 1.0} and len(ready) == 1  # the last frame is the first tracked
    assert len(learned) == 1 and [int(f[0, 0, 0]) for f in learned[0]] == list(range(1, capture.SETUP_FRAMES + 1))


def test_learn_passes_the_empty_table_when_it_was_captured(monkeypatch):
    calls = []

    def learn_setup(profile, frame, empty=None):
        calls.append(empty)
        return profile

    monkeypatch.setattr("vision.setup.learn_setup", learn_setup)
    frame = np.zeros((4, 4, 3), np.uint8)
    capture.learn("profile", [frame], [frame])
    capture.learn("profile", [frame], [])
    assert calls == [[frame], None]


def test_the_led_display_follows_the_game_and_its_undo_button_works(tmp_path):
    server = FakeDeviceServer(seed=3).start()
    runtime = players_demo_runtime(2, simulation=SimulationSettings(seed=1), log_dir=tmp_path, camera="schematic")
    runtime.players = None  # the test plays
    runtime.drive_display(server.url)
    runtime.start()
    try:
        session = runtime.session
        session.deal_random(random.Random(1))
        state = session.game.state
        assert wait_until(lambda: server.shown_state() is not None
                          and server.shown_state().current_player == state.current_player, timeout=5)
        session.report_illegal(0, "line_other_colour", "red on line 3, which holds blue")
        assert wait_until(lambda: server.shown_state().alert, timeout=5)
        session.play(state.legal_moves()[0])  # a legal move clears the alert
        assert wait_until(lambda: not server.shown_state().alert, timeout=5)
        server.press(1)  # UNDO
        assert wait_until(lambda: any(e["type"] == "undo" for e in session.events()), timeout=5)
    finally:
        runtime.stop()
        server.stop()


def test_a_render_failure_is_shown_as_a_lost_camera_with_its_reason(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise MemoryError("no room for the table")

    monkeypatch.setattr("vision.synthetic.animate.GameAnimation", broken)
    runtime = vision_demo_runtime(2, simulation=SimulationSettings(seed=1), log_dir=tmp_path)
    runtime.start()
    try:
        status = runtime.camera.status
        assert wait_until(lambda: status.state == "lost" and "no room for the table" in status.message, timeout=10), \
            status
        assert "rendering failed: MemoryError" in status.message
    finally:
        runtime.stop()
