"""The real firmware (built here with Debian's avr-gcc) running in simavr, its UART on a pty, driven by the real
DisplayBridge through pyserial. What the display shows is read back from the simulated pins: the MAX7219 digit
registers latched from the SPI lines, and the WS2812 colours decoded from the data pin's pulse widths.
Also read back through the protocol (READ_STATE). Button presses are injected on the button pins, with bounce.
"""

from __future__ import annotations

import time

import pytest

from firmware_bridge import BridgeConfig, DisplayBridge, DisplayState, LinkState
from firmware_bridge.simulator import SimBuild, SimulatedDisplay, build_firmware_and_harness

# A crashed bridge thread must fail the test, not just print a warning.
pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")

CONVERGE_LIMIT_S = 2.0
NON_BLOCKING_LIMIT_S = 0.1
GREEN, RED, OFF = [0, 48, 0], [64, 0, 0], [0, 0, 0]


@pytest.fixture(scope="session")
def sim_build(tmp_path_factory) -> SimBuild:
    # Built from source for every test session: nothing built is committed.
    return build_firmware_and_harness(tmp_path_factory.mktemp("azul-firmware"))


@pytest.fixture
def sim(sim_build, tmp_path):
    with SimulatedDisplay(sim_build, tmp_path / "ttyAZUL", seed=4) as display:
        yield display


@pytest.fixture
def bridge(sim):
    b = DisplayBridge(BridgeConfig(port=str(sim.link_path))).start()
    yield b
    started = time.monotonic()
    b.close()
    assert time.monotonic() - started < 1.0


def expected_digits(state: DisplayState) -> list[str]:
    """What a person reads on the four 4-digit groups (see display.c): right-aligned, '.' marks the turn."""
    shown = []
    for p in range(4):
        if p >= len(state.scores):
            shown.append("    ")
            continue
        text = f"{state.scores[p]:>4}"
        shown.append(text + "." if p == state.current_player else text)
    return shown


def wait_shown(sim: SimulatedDisplay, bridge: DisplayBridge, state: DisplayState, label: str,
               limit_s: float = 5.0, since: float | None = None) -> float:
    """Seconds from ``since`` (default: now, i.e. the end of the fault) until the pins show ``state``."""
    want = expected_digits(state)
    started = time.monotonic() if since is None else since
    last = None
    while time.monotonic() - started < limit_s:
        last = sim.state()
        if last["players"] == want and bridge.status().ok:
            took = time.monotonic() - started
            print(f"[simavr] {label}: display correct {took:.3f} s after the fault ended")
            return took
        time.sleep(0.02)
    raise AssertionError(f"{label}: display shows {last and last['players']}, want {want}; {bridge.status()}")


def led_samples(sim: SimulatedDisplay, seconds: float) -> list[list[list[int]]]:
    samples = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        samples.append(sim.state()["leds"])
        time.sleep(0.03)
    return samples


def hammer(bridge: DisplayBridge, seconds: float, base: int, during=None) -> tuple[DisplayState, float]:
    """Update the state every 30 ms like the pipeline; ``during`` runs each round (to keep a fault going)."""
    slowest, state, i = 0.0, DisplayState(), 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        state = DisplayState.make([base + i, 20, 3 * i % 50], current_player=i % 3, alert=i % 5 == 0)
        started = time.monotonic()
        bridge.update(state)
        bridge.status()
        slowest = max(slowest, time.monotonic() - started)
        if during is not None:
            during()
        i += 1
        time.sleep(0.03)
    return state, slowest


def test_firmware_fits_the_atmega328p_with_room_to_spare(sim_build):
    size = sim_build.size
    print(f"[avr-size] flash {size.flash_bytes} B ({size.flash_percent}%), RAM {size.ram_bytes} B "
          f"({size.ram_percent}%)")
    assert size.flash_bytes <= 32768 - 512  # the Uno/Nano bootloader keeps 512 bytes
    assert size.flash_percent < 50 and size.ram_percent < 50
    assert "atmega328p" in size.report


def test_display_shows_dashes_until_the_host_speaks(sim):
    time.sleep(0.3)
    state = sim.state()
    assert state["players"] == ["----"] * 4
    chip_config = {"decode": 0, "intensity": 8, "scan_limit": 7, "shutdown": 1, "test": 0}
    assert state["max7219"] == [chip_config, chip_config]


def test_scores_turn_and_alert_reach_the_pins(sim, bridge):
    state = DisplayState.make([12, 34, 156, 7], current_player=2, alert="black on line 2, which holds red")
    bridge.update(state)
    wait_shown(sim, bridge, state, "first update")
    samples = led_samples(sim, 0.8)
    assert all(s[2] == GREEN for s in samples)  # whose turn
    assert all(s[p] == OFF for s in samples for p in (0, 1, 3))
    status_led = [s[4] for s in samples]
    assert RED in status_led and OFF in status_led  # the alert flashes (4 Hz)
    # The same, read back through the protocol.
    bridge.request_readback()
    assert bridge.wait_for(lambda _s: bridge.last_report() is not None, 2.0)
    report = bridge.last_report()
    assert report.have_state and report.state.wire() == state.wire()


def test_alert_clears_and_turn_moves(sim, bridge):
    bridge.update(DisplayState.make([1, 2, 3], current_player=0, alert=True))
    state = DisplayState.make([5, 0, 9999], current_player=1, alert=False, brightness=3)
    bridge.update(state)
    wait_shown(sim, bridge, state, "turn change")
    samples = led_samples(sim, 0.6)
    assert all(s[1] == GREEN and s[0] == OFF and s[4] != RED for s in samples)
    assert all(chip["intensity"] == 3 for chip in sim.state()["max7219"])


def test_button_presses_with_bounce_reach_the_host_once_each(sim, bridge):
    bridge.update([1, 2])
    wait_shown(sim, bridge, DisplayState.make([1, 2]), "warm-up")
    sim.press(0)
    first = bridge.events.get(timeout=3)
    sim.press(1)
    second = bridge.events.get(timeout=3)
    assert (first.button, second.button) == ("confirm", "undo")
    assert second.seq == first.seq + 1
    time.sleep(0.5)
    assert bridge.events.empty()  # 4 ms of contact bounce and the release gave no extra presses


def test_random_garbage_both_ways(sim, bridge):
    bridge.update([1])
    wait_shown(sim, bridge, DisplayState.make([1]), "warm-up")
    # 100 random bytes every ~30 ms into the firmware's UART and 50 to the host while the state keeps
    # changing: more than simavr's UART takes in (about 2.5 kB/s), so the link really breaks down.
    def spray():
        sim.inject_garbage(100)
        sim.inject_garbage(50, to_host=True)

    state, slowest = hammer(bridge, 1.5, 100, during=spray)
    assert bridge.status().bad_frames > 0
    # The fault ends when the last garbage byte has gone down the line (the harness buffers the excess).
    deadline = time.monotonic() + 5
    while sim.state()["rx_backlog"] and time.monotonic() < deadline:
        time.sleep(0.005)
    took = wait_shown(sim, bridge, state, "random garbage both ways")
    assert took < CONVERGE_LIMIT_S and slowest < NON_BLOCKING_LIMIT_S
    assert bridge.wait_for(lambda s: "corrupted frames" in s.last_device_error, 2.0)


@pytest.mark.parametrize("drop,corrupt", [(0.15, 0.0), (0.0, 0.05)])
def test_dropped_and_corrupted_bytes(sim, bridge, drop, corrupt):
    sim.set_faults(drop=drop, corrupt=corrupt)
    state, slowest = hammer(bridge, 1.5, 200)
    sim.set_faults()
    took = wait_shown(sim, bridge, state, f"drop {drop} corrupt {corrupt}")
    assert took < CONVERGE_LIMIT_S and slowest < NON_BLOCKING_LIMIT_S
    status = bridge.status()
    assert status.retransmissions + status.bad_frames + status.device_errors > 0


def test_device_stops_answering_and_comes_back(sim, bridge):
    bridge.update([3])
    wait_shown(sim, bridge, DisplayState.make([3]), "warm-up")
    resets = bridge.status().device_resets
    sim.set_faults(mute=True)
    state, slowest = hammer(bridge, 2.0, 300)
    assert bridge.status().state is LinkState.UNRESPONSIVE
    sim.set_faults()
    took = wait_shown(sim, bridge, state, "device silent 2 s")
    assert took < CONVERGE_LIMIT_S and slowest < NON_BLOCKING_LIMIT_S
    assert bridge.status().device_resets == resets  # 2.5 s of running: the watchdog never fired by mistake


def test_port_disappears_and_comes_back(sim, bridge):
    bridge.update([4, 4])
    wait_shown(sim, bridge, DisplayState.make([4, 4]), "warm-up")
    ptys = sim.pty_count
    sim.unplug(1500)
    time.sleep(0.5)
    status = bridge.status()
    assert status.state is LinkState.DISCONNECTED and str(sim.link_path) in status.message
    state, slowest = hammer(bridge, 0.9, 400)
    sim.wait_ptys(ptys + 1)  # the port is back: the fault has ended
    took = wait_shown(sim, bridge, state, "port gone 1.5 s")
    assert took < CONVERGE_LIMIT_S and slowest < NON_BLOCKING_LIMIT_S
    assert bridge.status().reconnects >= 1


def test_device_reset_is_healed(sim, bridge):
    state = DisplayState.make([60, 61, 62, 63], current_player=3)
    bridge.update(state)
    wait_shown(sim, bridge, state, "warm-up")
    resets = bridge.status().device_resets
    reset_at = time.monotonic()
    sim.reset()
    # The host must notice the restart (the firmware announces it) and send the state again.
    assert bridge.wait_for(lambda s: s.device_resets == resets + 1, 2.0)
    took = wait_shown(sim, bridge, state, "device reset (timed from the reset)", since=reset_at)
    assert took < CONVERGE_LIMIT_S


def test_display_test_command_against_the_firmware(sim, capsys):
    from web_dashboard.cli import main

    code = main(["display-test", "--port", str(sim.link_path), "--step", "0.1"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "firmware 1.0" in out and "NOT ACKNOWLEDGED" not in out
    time.sleep(0.1)
    assert sim.state()["players"] == ["   0"] * 4  # the last step, on the pins


def test_hung_firmware_is_restarted_by_the_watchdog(sim, bridge):
    state = DisplayState.make([70, 71], current_player=0, alert=True)
    bridge.update(state)
    wait_shown(sim, bridge, state, "warm-up")
    resets = bridge.status().device_resets
    hung_at = time.monotonic()
    sim.hang()  # cli; rjmp . -- nothing but the 1 s watchdog gets it out
    assert bridge.wait_for(lambda s: s.device_resets == resets + 1, 3.0)
    restarted_after = time.monotonic() - hung_at
    print(f"[simavr] watchdog restarted the hung firmware after {restarted_after:.3f} s")
    assert 0.9 < restarted_after < 2.0
    took = wait_shown(sim, bridge, state, "watchdog restart")
    assert took < CONVERGE_LIMIT_S
