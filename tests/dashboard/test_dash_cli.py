"""The `demo` and `run` commands as users start them: fast start-up, clean stop, one-line errors."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request

import cv2
import numpy as np
import pytest

from firmware_bridge.fake_server import FakeDeviceServer


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cli(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "web_dashboard.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def wait_for(url: str, timeout: float) -> float:
    """Seconds until `url` answers 200."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return time.monotonic() - started
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"{url} did not answer within {timeout} s")


@pytest.mark.parametrize("mode, driver", [((), "vision (simulated table)"),
                                          (("--no-vision",), "simulated players")])
def test_demo_serves_the_dashboard_and_stops_cleanly(mode, driver):
    # How fast it comes up is `bench dashboard`'s startup_s; the timeout here only catches a demo that hangs.
    port = free_port()
    process = cli("demo", *mode, "--port", str(port), "--max-seconds", "6", "--move-seconds", "0.2")
    try:
        wait_for(f"http://127.0.0.1:{port}/", timeout=60.0)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as response:
            state = json.load(response)
        assert state["driver"] == driver and state["players"] == 4
        out, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert f"http://127.0.0.1:{port}/" in out and "Stopped." in out
    assert "token" not in out.lower()  # on loopback there is no token to show
    assert "Traceback" not in err


def test_serving_to_the_network_prints_the_token():
    port = free_port()
    process = cli("demo", "--host", "0.0.0.0", "--port", str(port), "--max-seconds", "2")
    out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "Access token: " in out and "?token=" in out


def test_run_serves_an_image_folder_camera(tmp_path):
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((120, 160, 3), 90, np.uint8))
    port = free_port()
    process = cli("run", "--camera", str(tmp_path), "--calibration", str(tmp_path / "none.json"),
                  "--port", str(port), "--max-seconds", "5", "--log-dir", str(tmp_path / "logs"),
                  "--names", "Ana,Ben", "--players", "2")
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", timeout=5.0)
        deadline = time.monotonic() + 5
        camera = {}
        while time.monotonic() < deadline and camera.get("state") != "live":
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/camera", timeout=2) as response:
                camera = json.load(response)
            time.sleep(0.1)
        assert camera["state"] == "live"
        assert camera["recognition"].startswith("off: no calibration")
        out, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "open /calibrate" in out


def test_bad_arguments_are_one_line_errors(tmp_path):
    cases = [
        (["run", "--camera", "0", "--players", "2", "--names", "a,b,c"], "--names lists 3 names"),
        (["run", "--camera", "0", "--calibration", str(tmp_path / "bad.json")], "not valid JSON"),
        (["demo", "--move-seconds", "-1"], "--move-seconds cannot be negative"),
        (["demo", "--port", "70000"], "--port must be"),
        (["demo", "--camera-view", "schematic"], "--camera-view schematic needs --no-vision"),
    ]
    (tmp_path / "bad.json").write_text("{nope")
    for args, words in cases:
        process = cli(*args, "--max-seconds", "1")
        out, err = process.communicate(timeout=30)
        assert process.returncode == 2, (args, out, err)
        assert words in err and "Traceback" not in err, err


def test_demo_drives_the_led_display_given_with_display():
    server = FakeDeviceServer(seed=5).start()
    try:
        process = cli("demo", "--no-vision", "--display", server.url, "--port", str(free_port()),
                      "--max-seconds", "4", "--move-seconds", "0.2")
        deadline = time.monotonic() + 10
        # The display may first show the bare table (no scores yet) while the game is being set up.
        while time.monotonic() < deadline and not (server.shown_state() and server.shown_state().scores):
            time.sleep(0.05)
        shown = server.shown_state()
        out, err = process.communicate(timeout=20)
    finally:
        server.stop()
    assert process.returncode == 0, err
    assert shown is not None and len(shown.scores) == 4
