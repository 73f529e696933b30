"""An in-process model of the display firmware's protocol side (mirrors firmware/azul_display/src/app.c).

Used to test the host bridge without hardware or a simulator, and to run the dashboard without a display.
It is sans-IO: ``receive(bytes, now)`` and ``poll(now)`` return the bytes the device would send.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from firmware_bridge.framing import FrameDecoder, encode_frame
from firmware_bridge.messages import (
    MAX_PLAYERS,
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    STATE_LEN,
    DevFlag,
    DeviceError,
    DeviceInfo,
    DeviceMsg,
    DisplayState,
    HostMsg,
    StateReport,
    decode_state,
    encode_hello_reply,
    encode_state_report,
)

LINK_LOST_S = 3.0
ERROR_REPORT_INTERVAL_S = 0.2
EVENT_RETRY_S = 0.1
EVENT_RETRY_CAP_S = 0.4
EVENT_QUEUE = 8


@dataclass
class FakeDisplay:
    protocol: tuple[int, int] = (PROTOCOL_MAJOR, PROTOCOL_MINOR)
    firmware: tuple[int, int] = (1, 0)
    state: DisplayState | None = None  # None: nothing received since boot (the real display shows dashes)
    rx_frames: int = 0
    decoder: FrameDecoder = field(default_factory=FrameDecoder)
    _boot_at: float = 0.0
    _seq: int = 0
    _last_rx: float = float("-inf")
    _events: deque[tuple[int, int]] = field(default_factory=deque)
    _event_seq: int = 0
    _event_next_tx: float = 0.0
    _event_tries: int = 0
    _errors_reported: int = 0
    _last_error_tx: float = float("-inf")
    _booted: bool = False

    def boot(self, now: float) -> bytes:
        """Power-up (or reset): state and event numbering are lost; announce ourselves."""
        self.state = None
        self.decoder = FrameDecoder()
        self.rx_frames = 0
        self._boot_at = now
        self._last_rx = float("-inf")
        self._events.clear()
        self._event_seq = 0
        self._booted = True
        return self._frame(DeviceMsg.BOOT, bytes((0, *self.protocol, *self.firmware)))

    def press(self, button: int, now: float) -> None:
        if len(self._events) >= EVENT_QUEUE:
            return  # the firmware drops presses when its queue is full
        self._event_seq = self._event_seq % 255 + 1
        self._events.append((self._event_seq, button))
        if len(self._events) == 1:
            self._event_next_tx = now
            self._event_tries = 0

    def flags(self, now: float) -> int:
        flags = DevFlag.HAVE_STATE if self.state is not None else 0
        if now - self._last_rx > LINK_LOST_S:
            flags |= DevFlag.LINK_LOST
        if self._events:
            flags |= DevFlag.EVENTS_PENDING
        return int(flags)

    def receive(self, data: bytes, now: float) -> bytes:
        if not self._booted:
            self.boot(now)
        out = bytearray()
        for frame in self.decoder.feed(data, now):
            self._last_rx = now
            self.rx_frames += 1
            out += self._handle(frame.seq, frame.type, frame.payload, now)
        out += self._maybe_report_errors(now)
        return bytes(out)

    def poll(self, now: float) -> bytes:
        if not self._events or now < self._event_next_tx:
            return b""
        seq, button = self._events[0]
        self._event_tries += 1
        self._event_next_tx = now + min(EVENT_RETRY_S * 2 ** (self._event_tries - 1), EVENT_RETRY_CAP_S)
        return self._frame(DeviceMsg.EVENT, bytes((0, seq, button, 1)))

    # -------------------------------------------------------------- internals
    def _frame(self, msg: DeviceMsg, payload: bytes) -> bytes:
        self._seq = (self._seq + 1) & 0xFF
        return encode_frame(self._seq, msg, payload)

    def _uptime_ms(self, now: float) -> int:
        return int((now - self._boot_at) * 1000)

    def _handle(self, seq: int, msg: int, payload: bytes, now: float) -> bytes:
        expected = {HostMsg.HELLO: 2, HostMsg.STATE: STATE_LEN, HostMsg.PING: 0, HostMsg.READ_STATE: 0,
                    HostMsg.EVENT_ACK: 1}
        if msg not in expected:
            return self._frame(DeviceMsg.ERROR, bytes((seq, DeviceError.UNKNOWN_TYPE, 1)))
        if len(payload) != expected[msg]:
            return self._frame(DeviceMsg.ERROR, bytes((seq, DeviceError.BAD_LENGTH, 1)))
        if msg == HostMsg.HELLO:
            info = DeviceInfo(self.protocol, self.firmware, MAX_PLAYERS, 2, self._uptime_ms(now))
            reply = self._frame(DeviceMsg.HELLO_REPLY, encode_hello_reply(seq, info))
            if payload[0] != self.protocol[0]:
                reply += self._frame(DeviceMsg.ERROR, bytes((seq, DeviceError.VERSION, 1)))
            return reply
        if msg == HostMsg.STATE:
            self.state = decode_state(payload)
            return self._frame(DeviceMsg.ACK, bytes((seq, self.flags(now))))
        if msg == HostMsg.PING:
            return self._frame(DeviceMsg.ACK, bytes((seq, self.flags(now))))
        if msg == HostMsg.READ_STATE:
            report = StateReport(self.state or DisplayState(), self.flags(now), self.rx_frames,
                                 self.decoder.stats.bad_frames, self._uptime_ms(now))
            return self._frame(DeviceMsg.STATE_REPORT, encode_state_report(seq, report))
        if self._events and self._events[0][0] == payload[0]:  # EVENT_ACK for the head of the queue
            self._events.popleft()
            self._event_next_tx = now
            self._event_tries = 0
        return b""

    def _maybe_report_errors(self, now: float) -> bytes:
        bad = self.decoder.stats.bad_frames
        if bad == self._errors_reported or now - self._last_error_tx < ERROR_REPORT_INTERVAL_S:
            return b""
        count = min(bad - self._errors_reported, 255)
        self._errors_reported = bad
        self._last_error_tx = now
        return self._frame(DeviceMsg.ERROR, bytes((0, DeviceError.BAD_FRAME, count)))
