"""Serves a FakeDisplay on a loopback TCP port (open it as ``socket://127.0.0.1:PORT``), with fault injection.

The faults model what a bumped USB cable or a noisy line does: garbage bytes, dropped and corrupted bytes in
either direction, a device that stops answering, and a port that disappears and comes back.
"""

from __future__ import annotations

import random
import select
import socket
import threading
import time
from dataclasses import dataclass, field

from firmware_bridge.fake_device import FakeDisplay


@dataclass
class Faults:
    drop: float = 0.0  # probability that a byte is lost
    corrupt: float = 0.0  # probability that a byte gets a random bit flipped
    mute: bool = False  # the device neither hears nor answers (hung firmware)

    def apply(self, data: bytes, rng: random.Random) -> bytes:
        if self.mute:
            return b""
        if not self.drop and not self.corrupt:
            return data
        out = bytearray()
        for byte in data:
            if rng.random() < self.drop:
                continue
            if rng.random() < self.corrupt:
                byte ^= 1 << rng.randrange(8)
            out.append(byte)
        return bytes(out)


@dataclass
class FakeDeviceServer:
    device: FakeDisplay = field(default_factory=FakeDisplay)
    faults: Faults = field(default_factory=Faults)
    seed: int = 1
    port: int = 0
    _rng: random.Random = field(init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _listener: socket.socket | None = None
    _client: socket.socket | None = None
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _pending_to_host: bytearray = field(default_factory=bytearray)
    _pending_to_device: bytearray = field(default_factory=bytearray)
    _presses: list[int] = field(default_factory=list)
    _reboot: bool = False

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self.port}"

    def start(self) -> FakeDeviceServer:
        self._listen()
        with self._lock:
            self.device.boot(time.monotonic())  # nobody hears the boot announcement before a host connects
        self._thread = threading.Thread(target=self._run, name="fake-display", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
        self.unplug()

    # ------------------------------------------------------------------ fault and input controls
    def set_faults(self, drop: float = 0.0, corrupt: float = 0.0, mute: bool = False) -> None:
        with self._lock:
            self.faults = Faults(drop, corrupt, mute)

    def inject_garbage(self, count: int, to_host: bool = True, to_device: bool = True) -> None:
        with self._lock:
            if to_host:
                self._pending_to_host += self._rng.randbytes(count)
            if to_device:
                self._pending_to_device += self._rng.randbytes(count)

    def press(self, button: int) -> None:
        with self._lock:
            self._presses.append(button)

    def reboot(self) -> None:
        """Reset the device (power glitch): it forgets the state and announces itself again."""
        with self._lock:
            self._reboot = True
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:  # return once the server thread has carried it out
            with self._lock:
                if not self._reboot:
                    return
            time.sleep(0.002)

    def unplug(self) -> None:
        """The port disappears: the connection drops and nothing listens until ``replug()``."""
        with self._lock:
            for sock in (self._client, self._listener):
                if sock is not None:
                    try:
                        sock.close()
                    except OSError:
                        pass
            self._client = None
            self._listener = None

    def replug(self) -> None:
        with self._lock:
            self._listen_locked()

    def shown_state(self):
        with self._lock:
            return self.device.state

    # ------------------------------------------------------------------------------ internals
    def _listen(self) -> None:
        with self._lock:
            self._listen_locked()

    def _listen_locked(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        sock.listen(1)
        sock.setblocking(False)
        self.port = sock.getsockname()[1]  # reuse the same port number after a replug
        self._listener = sock

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                listener, client = self._listener, self._client
            readable = [s for s in (listener, client) if s is not None]
            if not readable:
                time.sleep(0.01)
                continue
            try:
                ready, _, _ = select.select(readable, [], [], 0.01)
            except (OSError, ValueError):  # a socket closed by unplug() while we waited
                continue
            now = time.monotonic()
            with self._lock:
                self._step(ready, now)

    def _step(self, ready: list[socket.socket], now: float) -> None:
        if self._listener is not None and self._listener in ready:
            try:
                conn, _addr = self._listener.accept()
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                conn.setblocking(False)
                if self._client is not None:
                    self._client.close()
                self._client = conn
            except OSError:
                pass
        incoming = b""
        if self._client is not None and self._client in ready:
            try:
                incoming = self._client.recv(4096)
                if not incoming:  # host closed the port
                    self._client.close()
                    self._client = None
            except OSError:
                incoming = b""
        out = bytearray()
        if self._reboot:
            self._reboot = False
            out += self.device.boot(now)
        for button in self._presses:
            self.device.press(button, now)
        self._presses.clear()
        to_device = bytes(self._pending_to_device) + self.faults.apply(incoming, self._rng)
        self._pending_to_device.clear()
        if not self.faults.mute:
            out += self.device.receive(to_device, now)
            out += self.device.poll(now)
        wire = bytes(self._pending_to_host) + self.faults.apply(bytes(out), self._rng)
        self._pending_to_host.clear()
        if wire and self._client is not None:
            try:
                self._client.sendall(wire)
            except OSError:
                self._client.close()
                self._client = None
