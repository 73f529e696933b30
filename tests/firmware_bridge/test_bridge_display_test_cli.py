"""`azul-companion display-test` against the in-process fake display, and its error paths."""

from __future__ import annotations

import threading
import time

import pytest

from firmware_bridge import DisplayBridge, DisplayState
from firmware_bridge.fake_server import FakeDeviceServer
from web_dashboard.cli import build_parser, main
from web_dashboard.commands.display_test import STEPS

# A crashed bridge thread must fail the test, not just print a warning.
pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")

@pytest.fixture
def server():
    srv = FakeDeviceServer(seed=3).start()
    yield srv
    srv.stop()


def test_display_test_cycles_every_step_and_prints_buttons(server, capsys):
    seen_states = []

    def watch():  # record every distinct state the device showed during the run
        end = time.monotonic() + 10
        while time.monotonic() < end:
            shown = server.shown_state()
            if shown is not None and (not seen_states or seen_states[-1] != shown.wire()):
                seen_states.append(shown.wire())
            time.sleep(0.005)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    threading.Timer(0.4, server.press, args=(1,)).start()
    code = main(["display-test", "--port", server.url, "--step", "0.15"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count(": ok") == len(STEPS)
    assert "button pressed: undo" in out and "firmware 1.0" in out
    for step in STEPS:  # each step really reached the device, in order
        want = DisplayState.make(list(step.scores), step.current, step.alert).wire()
        assert want in seen_states
    assert server.shown_state().wire() == DisplayState.make(list(STEPS[-1].scores)).wire()


def test_display_test_with_a_missing_port_is_one_clear_line(tmp_path, capsys):
    port = str(tmp_path / "ttyNOPE")
    started = time.monotonic()
    code = main(["display-test", "--port", port, "--wait", "0.5"])
    err = capsys.readouterr().err
    assert code == 2 and time.monotonic() - started < 3
    assert err.startswith("azul-companion display-test: error: cannot open") and port in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_display_test_with_a_silent_port(capsys):
    code = main(["display-test", "--port", "loop://", "--wait", "1.5"])
    err = capsys.readouterr().err
    assert code == 2 and "not answering" in err


def test_display_test_rejects_bad_arguments(capsys):
    assert main(["display-test", "--port", "loop://", "--step", "0"]) == 2
    assert "must be positive" in capsys.readouterr().err


def test_display_test_is_registered():
    args = build_parser().parse_args(["display-test"])
    assert args.port is None and args.func.__module__ == "web_dashboard.commands.display_test"


def test_wait_shown_is_not_fooled_by_an_earlier_acknowledgement(server):
    from firmware_bridge import BridgeConfig

    with DisplayBridge(BridgeConfig(port=server.url)) as bridge:
        bridge.update([1, 1])
        assert bridge.wait_shown(2.0)
        server.set_faults(mute=True)
        bridge.update([2, 2])
        # The status still says "synced" for [1, 1] for a moment; the new state was never acknowledged.
        assert not bridge.wait_shown(0.5)
        server.set_faults()
        assert bridge.wait_shown(2.0)
        assert bridge.status().shown.scores == (2, 2)
