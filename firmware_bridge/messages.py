"""Message types and payload layouts of the display protocol (version 1), shared by host and fake device.

Every device→host payload starts with the sequence number of the host frame it answers (0 when the device
speaks unprompted), so any reply doubles as the acknowledgement. Multi-byte integers are big-endian.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from enum import IntEnum
from types import MappingProxyType

PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 0
MAX_PLAYERS = 4
MAX_SCORE = 9999  # four digits per player on the display
NO_PLAYER = 0xFF


class HostMsg(IntEnum):
    HELLO = 0x01  # [proto_major, proto_minor]
    STATE = 0x02  # full display state, see encode_state
    PING = 0x03  # heartbeat, answered by ACK
    READ_STATE = 0x04  # answered by STATE_REPORT (what the device is showing)
    EVENT_ACK = 0x05  # [event_seq]; not itself acknowledged (a lost one just makes the device resend)


class DeviceMsg(IntEnum):
    ACK = 0x81  # [ack, dev_flags]
    HELLO_REPLY = 0x82  # [ack, proto_major, proto_minor, fw_major, fw_minor, max_players, buttons, uptime u32]
    STATE_REPORT = 0x83  # [ack, state(12 bytes), dev_flags, rx_frames u16, rx_errors u16, uptime u32]
    EVENT = 0x84  # [0, event_seq, button, kind]
    ERROR = 0x85  # [ack, code, count]
    BOOT = 0x86  # [0, proto_major, proto_minor, fw_major, fw_minor]: sent once at power-up


class DevFlag(IntEnum):
    HAVE_STATE = 0x01  # a STATE arrived since boot (else the display shows dashes)
    LINK_LOST = 0x02  # no valid host frame for 3 s
    EVENTS_PENDING = 0x04


class DeviceError(IntEnum):
    BAD_FRAME = 1
    UNKNOWN_TYPE = 2
    BAD_LENGTH = 3
    VERSION = 4
    RX_OVERFLOW = 5


ERROR_TEXT = MappingProxyType({
    DeviceError.BAD_FRAME: "device received corrupted frames (check the USB cable)",
    DeviceError.UNKNOWN_TYPE: "device does not know a message the host sent",
    DeviceError.BAD_LENGTH: "device rejected a message of the wrong length",
    DeviceError.VERSION: "device firmware speaks another protocol version",
    DeviceError.RX_OVERFLOW: "device receive buffer overflowed",
})

BUTTON_NAMES = ("confirm", "undo")
STATE_LEN = 12


@dataclass(frozen=True)
class DisplayState:
    """What the display should show. Plain data: the tracker's scores, whose turn it is, and any alert."""

    scores: tuple[int, ...] = ()
    current_player: int | None = None
    alert: bool = False
    alert_text: str = ""  # host-side only (status/dashboard); the device shows a flashing light
    brightness: int = 8  # MAX7219 intensity 0..15

    @classmethod
    def make(
        cls,
        scores: list[int] | tuple[int, ...],
        current_player: int | None = None,
        alert: bool | str = False,
        brightness: int = 8,
    ) -> DisplayState:
        """Validate and normalise: scores clamp to what four digits can show; a wrong player count is a bug."""
        if len(scores) > MAX_PLAYERS:
            raise ValueError(f"the display shows at most {MAX_PLAYERS} players, got {len(scores)}")
        if current_player is not None and not 0 <= current_player < max(len(scores), 1):
            raise ValueError(f"current player {current_player} is not one of {len(scores)} players")
        clamped = tuple(min(max(int(s), 0), MAX_SCORE) for s in scores)
        text = alert if isinstance(alert, str) else ""
        return cls(clamped, current_player, bool(alert), text, min(max(int(brightness), 0), 15))

    def wire(self) -> tuple:
        """The part of the state the device sees (alert text stays on the host)."""
        return (self.scores, self.current_player, self.alert, self.brightness)


def encode_state(state: DisplayState) -> bytes:
    scores = list(state.scores) + [0] * (MAX_PLAYERS - len(state.scores))
    current = NO_PLAYER if state.current_player is None else state.current_player
    flags = 0x01 if state.alert else 0x00
    return struct.pack(">BBB4HB", flags, len(state.scores), current, *scores, state.brightness)


def decode_state(payload: bytes) -> DisplayState:
    if len(payload) != STATE_LEN:
        raise ValueError(f"state payload has {len(payload)} bytes, expected {STATE_LEN}")
    flags, count, current, *rest = struct.unpack(">BBB4HB", payload)
    scores, brightness = rest[:4], rest[4]
    count = min(count, MAX_PLAYERS)
    return DisplayState(
        scores=tuple(scores[:count]),
        current_player=None if current == NO_PLAYER or current >= count else current,
        alert=bool(flags & 0x01),
        brightness=brightness & 0x0F,
    )


@dataclass(frozen=True)
class DeviceInfo:
    protocol: tuple[int, int]
    firmware: tuple[int, int]
    max_players: int
    buttons: int
    uptime_ms: int

    @property
    def firmware_version(self) -> str:
        return f"{self.firmware[0]}.{self.firmware[1]}"


def decode_hello_reply(payload: bytes) -> DeviceInfo:
    if len(payload) != 11:
        raise ValueError("HELLO_REPLY must be 11 bytes")
    _ack, pmaj, pmin, fmaj, fmin, players, buttons, uptime = struct.unpack(">7BI", payload)
    return DeviceInfo((pmaj, pmin), (fmaj, fmin), players, buttons, uptime)


def encode_hello_reply(ack: int, info: DeviceInfo) -> bytes:
    return struct.pack(">7BI", ack, *info.protocol, *info.firmware, info.max_players, info.buttons,
                       info.uptime_ms & 0xFFFFFFFF)


@dataclass(frozen=True)
class StateReport:
    """The device's answer to READ_STATE: what it is showing right now, plus its link counters."""

    state: DisplayState
    flags: int
    rx_frames: int
    rx_errors: int
    uptime_ms: int

    @property
    def have_state(self) -> bool:
        return bool(self.flags & DevFlag.HAVE_STATE)


def encode_state_report(ack: int, report: StateReport) -> bytes:
    return (bytes((ack,)) + encode_state(report.state)
            + struct.pack(">BHHI", report.flags, report.rx_frames & 0xFFFF, report.rx_errors & 0xFFFF,
                          report.uptime_ms & 0xFFFFFFFF))


def decode_state_report(payload: bytes) -> StateReport:
    if len(payload) != 1 + STATE_LEN + 9:
        raise ValueError("STATE_REPORT has the wrong length")
    state = decode_state(payload[1:1 + STATE_LEN])
    flags, rx_frames, rx_errors, uptime = struct.unpack(">BHHI", payload[1 + STATE_LEN:])
    return StateReport(state, flags, rx_frames, rx_errors, uptime)


@dataclass(frozen=True)
class ButtonEvent:
    button: str  # "confirm" or "undo"
    seq: int  # the device's event number (1..255), used to drop retransmitted duplicates
    received_at: float = field(default=0.0, compare=False)


def button_name(index: int) -> str:
    return BUTTON_NAMES[index] if 0 <= index < len(BUTTON_NAMES) else f"button{index}"
