"""Wire framing for the LED display link: CRC-16 and a resynchronising stream decoder.

A frame is ``SYNC LEN SEQ TYPE PAYLOAD... CRC_HI CRC_LO SYNC`` (see docs/firmware/PROTOCOL.md); the leading SYNC
is filler that receivers skip, LEN counts from LEN to the trailing SYNC. LEN counts every
byte of the frame including itself and the trailing SYNC, so a receiver knows where a frame must end without
escaping; the CRC and the SYNC byte at that position together reject garbage and misaligned starts.
The firmware (firmware/azul_display/src/frame.c) implements the same rules in C.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SYNC = 0x7E
HEADER_LEN = 3  # LEN, SEQ, TYPE
TRAILER_LEN = 3  # CRC_HI, CRC_LO, SYNC
MIN_FRAME = HEADER_LEN + TRAILER_LEN
# Small on purpose: the ATmega328P has 2 KiB of RAM and the largest message is the state report.
MAX_FRAME = 48
MAX_PAYLOAD = MAX_FRAME - MIN_FRAME
# A frame's bytes arrive back to back; a partial frame older than this is a leftover of a glitch.
INTER_BYTE_TIMEOUT_S = 0.05


def crc16_ccitt(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): the same as avr-libc's ``_crc_xmodem_update`` chain."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


@dataclass(frozen=True)
class Frame:
    seq: int
    type: int
    payload: bytes = b""


def encode_frame(seq: int, msg_type: int, payload: bytes = b"") -> bytes:
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = bytes((len(payload) + MIN_FRAME, seq & 0xFF, msg_type & 0xFF)) + bytes(payload)
    crc = crc16_ccitt(body)
    # The leading SYNC ends a receiver's hunt for a boundary, so a frame right after garbage still gets through.
    return bytes((SYNC,)) + body + bytes((crc >> 8, crc & 0xFF, SYNC))


@dataclass
class DecoderStats:
    frames: int = 0
    bad_frames: int = 0  # wrong length byte, CRC mismatch or missing SYNC
    stale_partials: int = 0  # partial frames abandoned after the inter-byte timeout


@dataclass
class FrameDecoder:
    """Turns an arbitrary byte stream into frames; never raises on bad input.

    On any error the decoder discards bytes up to and including the next SYNC, then expects a frame start:
    that is how it finds frame boundaries again after garbage or a dropped byte.
    """

    stats: DecoderStats = field(default_factory=DecoderStats)
    _buf: bytearray = field(default_factory=bytearray)
    _hunting: bool = False
    _last_byte_at: float = 0.0

    def reset(self) -> None:
        self._buf.clear()
        self._hunting = False

    def feed(self, data: bytes, now: float = 0.0) -> list[Frame]:
        frames: list[Frame] = []
        if data and now - self._last_byte_at > INTER_BYTE_TIMEOUT_S:
            # Senders emit a frame's bytes back to back, so a pause on the line is a frame boundary: whatever
            # half-frame or hunt was in progress belonged to a glitch.
            if self._buf:
                self.stats.stale_partials += 1
            self._buf.clear()
            self._hunting = False
        if data:
            self._last_byte_at = now
        for byte in data:
            if self._hunting:
                if byte == SYNC:
                    self._hunting = False
                continue
            if not self._buf and byte == SYNC:
                continue  # filler between frames: every sender puts one SYNC before each frame
            self._buf.append(byte)
            length = self._buf[0]
            if length < MIN_FRAME or length > MAX_FRAME:
                self._error(byte)
                continue
            if len(self._buf) < length:
                continue
            frame = self._check()
            self._buf.clear()
            if frame is None:
                self.stats.bad_frames += 1
                # The frame's own last byte was not SYNC (or the CRC failed): hunt for the next SYNC,
                # unless this very byte was one, in which case the next byte starts a frame.
                self._hunting = byte != SYNC
            else:
                self.stats.frames += 1
                frames.append(frame)
        return frames

    def _error(self, byte: int) -> None:
        self.stats.bad_frames += 1
        self._buf.clear()
        self._hunting = byte != SYNC

    def _check(self) -> Frame | None:
        buf = self._buf
        if buf[-1] != SYNC:
            return None
        body = bytes(buf[:-3])
        if crc16_ccitt(body) != (buf[-3] << 8 | buf[-2]):
            return None
        return Frame(seq=buf[1], type=buf[2], payload=bytes(buf[3:-3]))
