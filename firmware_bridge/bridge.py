"""DisplayBridge: keeps the serial LED display showing the latest state, in a background thread.

The pipeline only ever calls ``update()`` (store the newest state under a lock, never touches the port) and
``status()`` (read the last snapshot), so a slow, absent or misbehaving display cannot slow recognition down.
The thread owns the port: it opens it (auto-detected or explicit), runs the protocol state machine in
firmware_bridge.link, reconnects with a short back-off when the port fails, and publishes a status snapshot.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import serial

from firmware_bridge.link import Link, LinkTiming
from firmware_bridge.messages import ButtonEvent, DisplayState, StateReport
from firmware_bridge.ports import detect_ports, open_port
from firmware_bridge.status import BridgeStatus, LinkState

log = logging.getLogger(__name__)

ButtonCallback = Callable[[ButtonEvent], None]


@dataclass(frozen=True)
class BridgeConfig:
    port: str | None = None  # None: auto-detect by USB ids; else a device path or any pyserial URL
    timing: LinkTiming = field(default_factory=LinkTiming)
    read_timeout_s: float = 0.02  # the protocol's tick: how late a retransmission can be
    write_timeout_s: float = 0.3  # a device that stops draining its input is treated as gone
    reconnect_min_s: float = 0.1
    reconnect_max_s: float = 0.5  # short enough that a re-plugged display is back well inside 2 s
    event_queue_size: int = 256


class DisplayBridge:
    def __init__(self, config: BridgeConfig | None = None, on_button: ButtonCallback | None = None) -> None:
        self.config = config or BridgeConfig()
        self.events: queue.Queue[ButtonEvent] = queue.Queue(maxsize=self.config.event_queue_size)
        self._on_button = on_button
        self._lock = threading.Lock()
        self._desired = DisplayState()
        self._readback = False
        self._report: StateReport | None = None
        self._status = BridgeStatus(LinkState.STOPPED, "display bridge not started", self.config.port)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reconnects = 0

    # ------------------------------------------------------------ public API (any thread, never blocks)
    def start(self) -> DisplayBridge:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="display-bridge", daemon=True)
            self._thread.start()
        return self

    def close(self, timeout_s: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout_s)
            self._thread = None
        self._publish(BridgeStatus(LinkState.STOPPED, "display bridge stopped", self.config.port))

    def __enter__(self) -> DisplayBridge:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(
        self,
        scores: list[int] | tuple[int, ...] | DisplayState,
        current_player: int | None = None,
        alert: bool | str = False,
        brightness: int = 8,
    ) -> None:
        """Set what the display should show. Returns at once; the bridge thread delivers it."""
        if isinstance(scores, DisplayState):
            # Re-validate: a hand-built DisplayState with 5 scores must fail here, in the caller, not later
            # in the bridge thread where it would break the link.
            given = scores
            scores, current_player, brightness = given.scores, given.current_player, given.brightness
            alert = given.alert_text or given.alert
        state = DisplayState.make(scores, current_player, alert, brightness)
        with self._lock:
            self._desired = state

    def status(self) -> BridgeStatus:
        with self._lock:
            return self._status

    def request_readback(self) -> None:
        """Ask the device what it is showing; the answer appears in ``last_report()``."""
        with self._lock:
            self._readback = True
            self._report = None

    def last_report(self) -> StateReport | None:
        with self._lock:
            return self._report

    def wait_shown(self, timeout_s: float) -> bool:
        """Wait until the display has acknowledged the state most recently passed to ``update()``."""
        with self._lock:
            wanted = self._desired.wire()
        return self.wait_for(lambda s: s.ok and s.shown is not None and s.shown.wire() == wanted, timeout_s)

    def wait_for(self, predicate: Callable[[BridgeStatus], bool], timeout_s: float) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if predicate(self.status()):
                return True
            time.sleep(0.01)
        return predicate(self.status())

    # ------------------------------------------------------------------------------ bridge thread
    def _publish(self, status: BridgeStatus) -> None:
        with self._lock:
            self._status = status

    def _run(self) -> None:
        link = Link(timing=self.config.timing)
        delay = self.config.reconnect_min_s
        while not self._stop.is_set():
            port, url = self._open()
            if port is None:
                self._stop.wait(delay)
                delay = min(delay * 2, self.config.reconnect_max_s)
                continue
            delay = self.config.reconnect_min_s
            try:
                self._serve(port, url, link)
            except (serial.SerialException, OSError, ValueError) as err:
                # ValueError: pyserial raises it for some failures on a port closed under it.
                self._reconnects += 1
                self._publish(self._snapshot(link, LinkState.DISCONNECTED,
                                             f"lost the display on {url}: {err}; reconnecting", url))
            except Exception as err:  # noqa: BLE001 - the bridge must never take the pipeline down
                log.exception("display bridge error")
                self._reconnects += 1
                self._publish(self._snapshot(link, LinkState.DISCONNECTED,
                                             f"display bridge error on {url}: {err!r}; reconnecting", url))
                self._stop.wait(self.config.reconnect_max_s)
            finally:
                try:
                    port.close()
                except Exception:  # noqa: BLE001 - closing a vanished port can fail in many ways
                    pass

    def _open(self) -> tuple[serial.SerialBase | None, str]:
        url = self.config.port
        if url is None:
            candidates = detect_ports()
            if not candidates:
                self._publish(BridgeStatus(LinkState.SEARCHING, "no LED display found on USB; plug it in or"
                                           " pass --port (a device path or a pyserial URL)"))
                return None, ""
            url = candidates[0].device
        try:
            return open_port(url, self.config.read_timeout_s, self.config.write_timeout_s), url
        except Exception as err:  # noqa: BLE001 - URL handlers raise all sorts; none may end the thread
            self._publish(BridgeStatus(LinkState.DISCONNECTED, f"cannot open {url}: {err}; retrying", url,
                                       reconnects=self._reconnects))
            return None, url

    def _serve(self, port: serial.SerialBase, url: str, link: Link) -> None:
        link.connected(time.monotonic())
        while not self._stop.is_set():
            with self._lock:
                link.set_state(self._desired)
                if self._readback:
                    self._readback = False
                    link.request_readback()
            out = link.tick(time.monotonic())
            if out:
                port.write(out)
            data = port.read(max(1, port.in_waiting))
            result = link.receive(data, time.monotonic())
            if result.data:
                port.write(result.data)
            for event in result.events:
                self._deliver(event)
            if link.last_report is not None:
                with self._lock:
                    self._report = link.last_report
                link.last_report = None
            self._publish(self._snapshot(link, None, "", url))

    def _deliver(self, event: ButtonEvent) -> None:
        try:
            self.events.put_nowait(event)
        except queue.Full:  # nobody reads the queue: keep the newest presses
            try:
                self.events.get_nowait()
                self.events.put_nowait(event)
            except (queue.Empty, queue.Full):
                pass
        if self._on_button is not None:
            try:
                self._on_button(event)
            except Exception:  # noqa: BLE001 - a faulty consumer must not stop the display
                log.exception("button callback failed")

    def _snapshot(self, link: Link, forced: LinkState | None, message: str, url: str) -> BridgeStatus:
        now = time.monotonic()
        with self._lock:
            alert_text = self._desired.alert_text
        state, text = forced, message
        if state is None:
            state, text = self._classify(link, now, url)
        c = link.counters
        return BridgeStatus(
            state=state,
            message=text,
            port=url or None,
            firmware_version=link.device.firmware_version if link.device else None,
            seconds_since_reply=link.seconds_since_rx(now),
            frames_sent=c.frames_sent,
            retransmissions=c.retransmissions,
            frames_received=c.frames_received,
            bad_frames=link.decoder.stats.bad_frames,
            device_errors=c.device_errors,
            last_device_error=link.last_error,
            reconnects=self._reconnects,
            device_resets=c.device_reboots,
            button_events=c.events,
            alert_text=alert_text,
            shown=link.acked,
        )

    @staticmethod
    def _classify(link: Link, now: float, url: str) -> tuple[LinkState, str]:
        if link.incompatible:
            return LinkState.INCOMPATIBLE, link.incompatible
        if not link.is_responsive(now):
            if link.seconds_since_rx(now) is None and not link.counters.retransmissions:
                return LinkState.HANDSHAKING, f"waiting for the display on {url} to answer"
            hint = f" ({link.last_error})" if link.counters.echoed_frames else ""
            return LinkState.UNRESPONSIVE, (f"the display on {url} is not answering{hint}: check the cable, or"
                                            " flash the azul-companion firmware; retrying")
        if link.in_sync:
            return LinkState.SYNCED, f"display on {url} shows the current state"
        if not link.handshaken:
            return LinkState.HANDSHAKING, f"greeting the display on {url}"
        return LinkState.UPDATING, f"sending the current state to the display on {url}"
