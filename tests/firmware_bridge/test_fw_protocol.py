"""The wire protocol without I/O: framing, CRC, and the host link state machine against the Python device model,
in simulated time (deterministic, so every timing rule is checked exactly)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.fake_device import FakeDisplay
from firmware_bridge.fake_server import Faults
from firmware_bridge.framing import MAX_PAYLOAD, SYNC, FrameDecoder, crc16_ccitt, encode_frame
from firmware_bridge.link import Link, LinkTiming
from firmware_bridge.messages import (
    DeviceMsg,
    DisplayState,
    HostMsg,
    decode_state,
    encode_state,
)


def test_crc_is_ccitt_false_check_value():
    # The catalogue check value of CRC-16/CCITT-FALSE; the firmware uses avr-libc's _crc_xmodem_update chain.
    assert crc16_ccitt(b"123456789") == 0x29B1


def test_frame_layout_and_round_trip():
    frame = encode_frame(7, HostMsg.PING)
    assert frame[0] == SYNC and frame[1] == len(frame) - 1 == 6 and frame[2] == 7 and frame[3] == HostMsg.PING
    assert frame[-1] == SYNC
    decoded = FrameDecoder().feed(encode_frame(200, HostMsg.STATE, b"\x01\x02\x7e\x7e"))
    assert [(f.seq, f.type, f.payload) for f in decoded] == [(200, HostMsg.STATE, b"\x01\x02\x7e\x7e")]


def test_oversized_payload_is_refused():
    with pytest.raises(ValueError):
        encode_frame(1, HostMsg.STATE, bytes(MAX_PAYLOAD + 1))


def test_decoder_rejects_corruption_and_resynchronises():
    dec = FrameDecoder()
    good = encode_frame(1, HostMsg.PING)
    bad = bytearray(encode_frame(2, HostMsg.PING))
    bad[2] ^= 0x10  # CRC no longer matches
    assert [f.seq for f in dec.feed(b"\x01\xff" + bytes(bad) + good)] == [1]
    assert dec.stats.bad_frames >= 1


def test_decoder_drops_a_stale_partial_frame():
    dec = FrameDecoder()
    frame = encode_frame(3, HostMsg.PING)
    assert dec.feed(frame[:3], now=0.0) == []
    # The rest never came; a new frame 1 s later must not be glued onto the leftover.
    assert len(dec.feed(frame[1:], now=1.0)) == 1
    assert dec.stats.stale_partials == 1


def test_a_pause_ends_a_hunt_for_sync():
    dec = FrameDecoder()
    dec.feed(b"\x05\x01\x02\x03\x04", now=0.0)  # a 5-byte "frame" without SYNC: now hunting
    frame = encode_frame(4, HostMsg.PING)[1:]  # even without its leading SYNC
    assert dec.feed(frame, now=0.01) == []  # swallowed by the hunt: no pause in between
    assert len(dec.feed(frame, now=0.5)) == 1


@settings(max_examples=200, deadline=None)
@given(garbage=st.binary(max_size=200), seq=st.integers(1, 255))
def test_decoder_recovers_after_any_garbage(garbage: bytes, seq: int):
    # A PING frame with this seq contains no SYNC before its end unless the CRC bytes do; pick such frames.
    frame = encode_frame(seq, HostMsg.PING)
    if SYNC in frame[1:-1]:
        return
    dec = FrameDecoder()
    # A frame length is at most 48 bytes, so garbage can swallow at most a few following frames.
    frames = dec.feed(garbage + frame * 10)
    assert frames and all(f.seq == seq and f.type == HostMsg.PING for f in frames[-3:])


def test_state_payload_round_trip_and_validation():
    state = DisplayState.make([0, 150, 10000, -3], current_player=3, alert="broken rule", brightness=20)
    assert state.scores == (0, 150, 9999, 0) and state.brightness == 15 and state.alert_text == "broken rule"
    assert decode_state(encode_state(state)).wire() == state.wire()
    with pytest.raises(ValueError):
        DisplayState.make([1, 2, 3, 4, 5])
    with pytest.raises(ValueError):
        DisplayState.make([1, 2], current_player=2)


class VirtualWire:
    """Host Link and device model joined by a lossy wire, in simulated time (10 ms steps)."""

    def __init__(self, faults: Faults | None = None, seed: int = 3, timing: LinkTiming | None = None):
        self.link = Link(timing=timing or LinkTiming())
        self.dev = FakeDisplay()
        self.faults = faults or Faults()
        self.rng = random.Random(seed)
        self.now = 0.0
        self.sent: list[bytes] = []
        self.events = []
        self.dev.boot(self.now)
        self.link.connected(self.now)

    def step(self, dt: float = 0.01) -> None:
        self.now += dt
        host_out = self.link.tick(self.now)
        self.sent.append(host_out)
        dev_out = self.dev.receive(self.faults.apply(host_out, self.rng), self.now) + self.dev.poll(self.now)
        result = self.link.receive(self.faults.apply(dev_out, self.rng), self.now)
        self.events += result.events
        if result.data:
            self.dev.receive(self.faults.apply(result.data, self.rng), self.now)

    def run_until(self, cond, limit_s: float) -> float:
        start = self.now
        while self.now - start < limit_s:
            if cond():
                return self.now - start
            self.step()
        raise AssertionError(f"condition not met within {limit_s} s of simulated time")

    def converged(self) -> bool:
        return self.link.in_sync and self.dev.state is not None and \
            self.dev.state.wire() == self.link.desired.wire()


def test_handshake_then_state_is_acknowledged():
    wire = VirtualWire()
    wire.link.set_state(DisplayState.make([3, 4], 1))
    took = wire.run_until(wire.converged, 1.0)
    assert took < 0.1
    assert wire.link.device is not None and wire.link.device.firmware_version == "1.0"


def test_retransmission_backs_off_and_is_capped():
    timing = LinkTiming()
    wire = VirtualWire(faults=Faults(mute=True), timing=timing)
    sends = []
    for _ in range(300):  # 3 s with a silent device
        wire.step()
        if wire.sent[-1]:
            sends.append(round(wire.now, 2))
    gaps = [round(b - a, 2) for a, b in zip(sends, sends[1:])]
    # 80 ms, then doubling, never above the 400 ms cap (10 ms steps round each gap up by at most 10 ms).
    assert gaps[0] == pytest.approx(0.08, abs=0.011) and gaps[1] == pytest.approx(0.16, abs=0.011)
    assert max(gaps) <= timing.backoff_cap_s + 0.011 and gaps[-1] >= timing.backoff_cap_s - 0.011


def test_newer_state_supersedes_an_unacknowledged_one():
    wire = VirtualWire()
    wire.run_until(lambda: wire.link.handshaken, 0.5)
    wire.faults.mute = True
    wire.link.set_state(DisplayState.make([1]))
    wire.step()
    wire.link.set_state(DisplayState.make([2]))
    wire.step()
    wire.faults.mute = False
    wire.run_until(wire.converged, 1.0)
    assert wire.dev.state.scores == (2,)


def test_heartbeat_and_refresh_when_idle():
    wire = VirtualWire()
    wire.link.set_state(DisplayState.make([9]))
    wire.run_until(wire.converged, 0.5)
    types = []
    for _ in range(250):  # 2.5 s idle
        wire.step()
        types += [f.type for f in FrameDecoder().feed(wire.sent[-1])]
    assert types.count(HostMsg.PING) >= 3  # heartbeat every 0.5 s while nothing else is sent
    assert HostMsg.STATE in types  # the full state is refreshed every 2 s even though it was acknowledged


def test_device_that_lost_its_state_silently_gets_it_back():
    wire = VirtualWire()
    wire.link.set_state(DisplayState.make([5, 6], 0))
    wire.run_until(wire.converged, 0.5)
    wire.dev.boot(wire.now)  # reset whose BOOT announcement never reached the host
    assert wire.dev.state is None
    took = wire.run_until(lambda: wire.dev.state is not None and wire.converged(), 2.0)
    assert took <= 0.7  # noticed at the next heartbeat (0.5 s), not only at the 2 s refresh


def test_events_are_acknowledged_and_duplicates_dropped():
    # 5 % of bytes lost both ways (~40 % of frames): EVENT and EVENT_ACK frames get lost, the device resends, the host dedups.
    wire = VirtualWire(faults=Faults(drop=0.05), seed=11)
    for button in (0, 1, 0):
        wire.dev.press(button, wire.now)
    wire.run_until(lambda: not wire.dev._events, 20.0)
    assert [e.button for e in wire.events] == ["confirm", "undo", "confirm"]
    assert [e.seq for e in wire.events] == [1, 2, 3]


def test_reboot_announcement_resets_event_numbering():
    wire = VirtualWire()
    wire.dev.press(0, wire.now)
    wire.run_until(lambda: len(wire.events) == 1, 1.0)
    wire.link.receive(wire.dev.boot(wire.now), wire.now)
    wire.dev.press(1, wire.now)  # seq 1 again after the reboot: must not be taken for a duplicate
    wire.run_until(lambda: len(wire.events) == 2, 1.0)
    assert [e.seq for e in wire.events] == [1, 1] and wire.link.counters.device_reboots == 1


def test_power_up_announcement_heard_after_connecting_is_no_restart():
    # An Arduino restarts when its port is opened; that BOOT is its power-up, not a restart to report.
    wire = VirtualWire()
    wire.link.receive(wire.dev.boot(wire.now), wire.now)
    wire.run_until(lambda: wire.converged(), 1.0)
    assert wire.link.counters.device_reboots == 0
    wire.link.receive(wire.dev.boot(wire.now), wire.now)  # now it had answered: this one is a restart
    assert wire.link.counters.device_reboots == 1


def test_incompatible_firmware_is_reported_and_not_driven():
    wire = VirtualWire()
    wire.dev.protocol = (2, 0)
    wire.run_until(lambda: bool(wire.link.incompatible), 1.0)
    assert "protocol 2.0" in wire.link.incompatible and "flash" in wire.link.incompatible
    sent_before = len([s for s in wire.sent if s])
    for _ in range(100):
        wire.step()
    assert len([s for s in wire.sent if s]) == sent_before


@pytest.mark.parametrize("drop,corrupt", [(0.2, 0.0), (0.0, 0.05), (0.1, 0.05)])
def test_state_converges_after_lossy_period(drop: float, corrupt: float):
    wire = VirtualWire(faults=Faults(drop=drop, corrupt=corrupt), seed=5)
    for i in range(30):  # 3 s of changing scores over a bad line
        wire.link.set_state(DisplayState.make([i, 2 * i], i % 2, alert=i % 3 == 0))
        for _ in range(10):
            wire.step()
    wire.faults = Faults()
    assert wire.run_until(wire.converged, 2.0) < 2.0
    assert wire.link.counters.retransmissions > 0


def test_unexpected_device_messages_do_not_break_the_link():
    wire = VirtualWire()
    wire.link.set_state(DisplayState.make([1, 2]))
    wire.run_until(wire.converged, 0.5)
    # Truncated payloads of every device message type: recorded as an error, never raised.
    for msg in DeviceMsg:
        wire.link.receive(encode_frame(1, msg, b"\x00"), wire.now)
    wire.link.receive(encode_frame(1, DeviceMsg.EVENT, b""), wire.now)
    assert "malformed" in wire.link.last_error
    wire.link.set_state(DisplayState.make([3, 4]))
    wire.run_until(wire.converged, 1.0)
