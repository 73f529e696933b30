"""The host side of the display protocol as a pure state machine (no I/O, no threads, no clock of its own).

The bridge feeds it received bytes and the time, and writes whatever it returns. Keeping the protocol free of
I/O makes every timing rule (ack timeout, back-off, heartbeat, refresh, link loss) testable step by step.

Design: stop-and-wait with one outstanding host→device message. That is enough because the only message that
matters, STATE, is a full idempotent snapshot: a newer state simply supersedes an unacknowledged older one, and
a lost frame is healed by the retransmission or, at worst, by the periodic refresh.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_bridge.framing import Frame, FrameDecoder, encode_frame
from firmware_bridge.messages import (
    ERROR_TEXT,
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    ButtonEvent,
    DevFlag,
    DeviceError,
    DeviceInfo,
    DeviceMsg,
    DisplayState,
    HostMsg,
    StateReport,
    button_name,
    decode_hello_reply,
    decode_state_report,
    encode_state,
)


@dataclass(frozen=True)
class LinkTiming:
    ack_timeout_s: float = 0.08  # first retransmission; a 20-byte frame round trip at 57600 Bd takes ~8 ms
    backoff_cap_s: float = 0.4  # the cap keeps recovery after a fault well inside 2 s
    heartbeat_s: float = 0.5  # PING when idle, so a dead device is noticed quickly
    refresh_s: float = 2.0  # resend the full state even when acknowledged, in case the device lost it
    link_lost_s: float = 1.2  # no valid frame for this long: device unresponsive, handshake again


@dataclass
class _Pending:
    seq: int
    type: HostMsg
    payload: bytes
    state: DisplayState | None
    sent_at: float
    attempts: int
    deadline: float


@dataclass
class LinkCounters:
    frames_sent: int = 0
    retransmissions: int = 0
    frames_received: int = 0
    device_errors: int = 0
    events: int = 0
    duplicate_events: int = 0
    handshakes: int = 0
    device_reboots: int = 0
    echoed_frames: int = 0


@dataclass
class LinkOutput:
    data: bytes = b""
    events: list[ButtonEvent] = field(default_factory=list)


@dataclass
class Link:
    timing: LinkTiming = field(default_factory=LinkTiming)
    desired: DisplayState = field(default_factory=DisplayState)
    counters: LinkCounters = field(default_factory=LinkCounters)
    decoder: FrameDecoder = field(default_factory=FrameDecoder)
    device: DeviceInfo | None = None
    incompatible: str = ""
    last_error: str = ""
    last_report: StateReport | None = None
    acked: DisplayState | None = None  # the state the device has confirmed it shows
    _handshaken: bool = False
    _seq: int = 0
    _pending: _Pending | None = None
    _last_rx: float | None = None
    _last_tx: float = float("-inf")
    _last_state_tx: float = float("-inf")
    _last_event_seq: int | None = None
    _last_uptime: int = -1
    _readback_wanted: bool = False
    _connected_at: float = 0.0

    # ----------------------------------------------------------------- inputs
    def connected(self, now: float) -> None:
        """A (new) port is open: nothing is known about the device behind it."""
        self.decoder.reset()
        self._handshaken = False
        self._pending = None
        self.acked = None
        self._last_rx = None
        self._connected_at = now
        self._last_tx = float("-inf")

    def set_state(self, state: DisplayState) -> None:
        self.desired = state

    def request_readback(self) -> None:
        self._readback_wanted = True

    def receive(self, data: bytes, now: float) -> LinkOutput:
        out = LinkOutput()
        for frame in self.decoder.feed(data, now):
            self._on_frame(frame, now, out)
        return out

    def tick(self, now: float) -> bytes:
        """Whatever must be sent now: a retransmission, the next message, or nothing."""
        if self.incompatible:
            return b""
        since_rx = now - (self._last_rx if self._last_rx is not None else self._connected_at)
        if self._handshaken and since_rx > self.timing.link_lost_s:
            # The device went quiet: it may have been reset or re-flashed, so start again with HELLO.
            self._handshaken = False
            self._pending = None
            self.acked = None
        pending = self._pending
        if pending is not None:
            superseded = (pending.type == HostMsg.STATE and pending.state is not None
                          and pending.state.wire() != self.desired.wire())
            if superseded:
                # A newer full state makes the outstanding one worthless; send the newer one at once.
                return self._send(HostMsg.STATE, encode_state(self.desired), now, self.desired)
            if now < pending.deadline:
                return b""
            return self._retransmit(pending, now)
        if not self._handshaken:
            return self._send(HostMsg.HELLO, bytes((PROTOCOL_MAJOR, PROTOCOL_MINOR)), now)
        if self.acked is None or self.acked.wire() != self.desired.wire() or \
                now - self._last_state_tx >= self.timing.refresh_s:
            return self._send(HostMsg.STATE, encode_state(self.desired), now, self.desired)
        if self._readback_wanted:
            self._readback_wanted = False
            return self._send(HostMsg.READ_STATE, b"", now)
        if now - self._last_tx >= self.timing.heartbeat_s:
            return self._send(HostMsg.PING, b"", now)
        return b""

    # ---------------------------------------------------------------- queries
    @property
    def handshaken(self) -> bool:
        return self._handshaken

    @property
    def in_sync(self) -> bool:
        return self._handshaken and self.acked is not None and self.acked.wire() == self.desired.wire()

    def seconds_since_rx(self, now: float) -> float | None:
        return None if self._last_rx is None else now - self._last_rx

    def is_responsive(self, now: float) -> bool:
        return self._last_rx is not None and now - self._last_rx <= self.timing.link_lost_s

    # -------------------------------------------------------------- internals
    def _next_seq(self) -> int:
        self._seq = self._seq % 255 + 1  # 1..255: 0 means "not an answer" in device payloads
        return self._seq

    def _send(self, msg: HostMsg, payload: bytes, now: float, state: DisplayState | None = None) -> bytes:
        seq = self._next_seq()
        self._pending = _Pending(seq, msg, payload, state, now, 1, now + self.timing.ack_timeout_s)
        self._last_tx = now
        if msg == HostMsg.STATE:
            self._last_state_tx = now
        if msg == HostMsg.HELLO:
            self.counters.handshakes += 1
        self.counters.frames_sent += 1
        return encode_frame(seq, msg, payload)

    def _retransmit(self, pending: _Pending, now: float) -> bytes:
        pending.attempts += 1
        backoff = min(self.timing.ack_timeout_s * (2 ** (pending.attempts - 1)), self.timing.backoff_cap_s)
        pending.deadline = now + backoff
        pending.sent_at = now
        self._last_tx = now
        self.counters.retransmissions += 1
        self.counters.frames_sent += 1
        # Same sequence number: the device treats it as the same request (every request is idempotent).
        return encode_frame(pending.seq, pending.type, pending.payload)

    def _on_frame(self, frame: Frame, now: float, out: LinkOutput) -> None:
        if not frame.type & 0x80:
            # A host message came back: the port echoes (loop://, a shorted or looped-back line). It proves
            # nothing about a display, so it must not count as a sign of life.
            self.counters.echoed_frames += 1
            self.last_error = "the port echoes the host's own messages back; no display is answering"
            return
        self.counters.frames_received += 1
        self._last_rx = now
        payload = frame.payload
        if not payload:
            return
        ack = payload[0]
        try:
            if frame.type == DeviceMsg.EVENT:
                self._on_event(payload, now, out)
            elif frame.type == DeviceMsg.BOOT:
                self._on_device_reset()
            elif frame.type == DeviceMsg.ERROR:
                self._on_error(payload)
            if ack and self._pending is not None and ack == self._pending.seq:
                self._on_answer(frame, now)
            if frame.type == DeviceMsg.ACK and len(payload) >= 2 and not payload[1] & DevFlag.HAVE_STATE:
                # The device says it shows no state (it restarted without us noticing): resend it.
                self.acked = None
        except ValueError as err:
            self.last_error = f"malformed {frame.type:#04x} message from device: {err}"

    def _on_answer(self, frame: Frame, now: float) -> None:
        pending = self._pending
        assert pending is not None
        payload = frame.payload
        if pending.type == HostMsg.HELLO:
            if frame.type != DeviceMsg.HELLO_REPLY:
                return
            info = decode_hello_reply(payload)
            if info.uptime_ms < self._last_uptime:
                self._on_device_reset()
            self._last_uptime = info.uptime_ms
            self.device = info
            self._pending = None
            if info.protocol[0] != PROTOCOL_MAJOR:
                self.incompatible = (f"display firmware speaks protocol {info.protocol[0]}.{info.protocol[1]},"
                                     f" this host speaks {PROTOCOL_MAJOR}.{PROTOCOL_MINOR}: flash the firmware"
                                     " shipped with this version")
                return
            self._handshaken = True
            self.acked = None
            return
        if frame.type == DeviceMsg.ERROR:
            return  # the request was rejected; the retransmission timer stays armed
        self._pending = None
        if pending.type == HostMsg.STATE and frame.type == DeviceMsg.ACK:
            self.acked = pending.state
        elif pending.type == HostMsg.READ_STATE and frame.type == DeviceMsg.STATE_REPORT:
            report = decode_state_report(payload)
            if report.uptime_ms < self._last_uptime:
                self._on_device_reset()
            self._last_uptime = report.uptime_ms
            self.last_report = report

    def _on_event(self, payload: bytes, now: float, out: LinkOutput) -> None:
        if len(payload) < 4:
            raise ValueError("EVENT is too short")
        event_seq, button = payload[1], payload[2]
        # Always acknowledge, even a duplicate: the device resends until it hears this.
        out.data += encode_frame(self._next_seq(), HostMsg.EVENT_ACK, bytes((event_seq,)))
        if event_seq == self._last_event_seq:
            self.counters.duplicate_events += 1
            return
        self._last_event_seq = event_seq
        self.counters.events += 1
        out.events.append(ButtonEvent(button_name(button), event_seq, now))

    def _on_error(self, payload: bytes) -> None:
        if len(payload) < 2:
            raise ValueError("ERROR is too short")
        self.counters.device_errors += 1
        try:
            self.last_error = ERROR_TEXT[DeviceError(payload[1])]
        except ValueError:
            self.last_error = f"device reported error code {payload[1]}"

    def _on_device_reset(self) -> None:
        # The device restarted: it shows nothing and its event numbering starts again. Its power-up BOOT,
        # heard before it ever answered us, is no restart.
        if self.device is not None:
            self.counters.device_reboots += 1
        self._handshaken = False
        self._pending = None
        self.acked = None
        self._last_event_seq = None
        self._last_uptime = -1
