"""Finding and opening the display's serial port.

Auto-detection matches USB vendor/product ids of the boards and USB-serial chips the firmware is made for; an
explicit port always wins and may be anything pyserial opens: a device path or a URL such as ``loop://``,
``socket://host:port`` or ``rfc2217://host:port``.
"""

from __future__ import annotations

from dataclasses import dataclass

import serial
from serial.tools import list_ports

BAUD_RATE = 57600  # must match F_CPU/UBRR in the firmware (config.h)


@dataclass(frozen=True)
class UsbId:
    vid: int
    pid: int
    name: str


# Boards an ATmega328P display is usually built on, and the USB-serial chips of their clones.
KNOWN_USB_IDS: tuple[UsbId, ...] = (
    UsbId(0x2341, 0x0043, "Arduino Uno R3"),
    UsbId(0x2341, 0x0001, "Arduino Uno"),
    UsbId(0x2A03, 0x0043, "Arduino Uno (arduino.org)"),
    UsbId(0x1A86, 0x7523, "CH340 (Nano/Uno clone)"),
    UsbId(0x0403, 0x6001, "FTDI FT232R (Nano)"),
    UsbId(0x10C4, 0xEA60, "CP210x (Nano clone)"),
)


@dataclass(frozen=True)
class Candidate:
    device: str
    description: str


def detect_ports(usb_ids: tuple[UsbId, ...] = KNOWN_USB_IDS) -> list[Candidate]:
    """Serial ports whose USB ids match a known board, best match (genuine Arduino first) first."""
    found: list[tuple[int, Candidate]] = []
    try:
        ports = list_ports.comports()
    except OSError:  # sysfs unreadable (containers): no auto-detection, the user can still pass --port
        return []
    for port in ports:
        for rank, usb in enumerate(usb_ids):
            if port.vid == usb.vid and port.pid == usb.pid:
                found.append((rank, Candidate(port.device, f"{usb.name} at {port.device}")))
                break
    return [cand for _rank, cand in sorted(found, key=lambda item: (item[0], item[1].device))]


def open_port(url: str, read_timeout_s: float, write_timeout_s: float) -> serial.SerialBase:
    """Open a device path or any pyserial URL, raising serial.SerialException (or ValueError) on failure."""
    # Opening a port resets an Arduino through DTR; that is harmless (the host re-sends the state) and leaving
    # DTR alone is not portable across USB-serial chips.
    port = serial.serial_for_url(url, baudrate=BAUD_RATE, timeout=read_timeout_s, do_not_open=True)
    if not url.lower().startswith("rfc2217://"):
        # pyserial's rfc2217 client refuses to open with a write timeout; its writes go to a socket anyway.
        port.write_timeout = write_timeout_s
    port.open()
    return port
