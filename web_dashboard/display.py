"""The LED score display on the table (firmware_bridge), fed from the session like any dashboard client.

It follows the published game snapshots: every player's score, whose turn it is, and the alert (an illegal
placement or a score cube that disagrees). Its two buttons act on the game through the session's checked
actions: UNDO takes back the last action, CONFIRM dismisses the alert once the person has seen it.
The bridge owns the serial port in its own thread, so an absent or broken display never slows the game.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from web_dashboard.bus import EventBus
from web_dashboard.session import SessionError, TableSession

AUTO = "auto"  # --display auto: find the board by its USB ids


def add_display_argument(parser) -> None:
    parser.add_argument("--display", default=None, metavar="PORT",
                        help="drive the LED score display on this serial port or pyserial URL "
                             f"(socket://HOST:PORT, ...); '{AUTO}': find it by its USB ids")


def display_state(snapshot: dict) -> tuple[list[int], int | None, bool | str]:
    """(scores, current player, alert) from a session snapshot; the turn light only while tiles are taken."""
    scores = [board["score"] for board in snapshot["boards"]]
    current = snapshot["current_player"] if snapshot["phase"] == "offer" else None
    alert: bool | str = False
    if snapshot.get("alert"):
        alert = snapshot["alert"]["reason"]
    elif snapshot.get("score_alerts"):
        alert = snapshot["score_alerts"][0]["reason"]
    return scores, current, alert


@dataclass
class DisplayFeed:
    session: TableSession
    bus: EventBus
    port: str  # a device path, a pyserial URL, or AUTO
    bridge: object = field(default=None, init=False)  # firmware_bridge.DisplayBridge once started
    _stop: threading.Event = field(default_factory=threading.Event, init=False)
    _thread: threading.Thread | None = field(default=None, init=False)

    def start(self) -> None:
        from firmware_bridge import BridgeConfig, DisplayBridge

        port = None if self.port == AUTO else self.port
        self.bridge = DisplayBridge(BridgeConfig(port=port), on_button=self._pressed).start()
        self._thread = threading.Thread(target=self._run, name="display-feed", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self.bridge is not None:
            self.bridge.close()

    def _run(self) -> None:
        with self.bus.subscribe(replay=True) as subscription:
            while not self._stop.is_set():
                message = subscription.get(timeout=0.5)
                if message is not None and message.kind == "state":
                    self.bridge.update(*display_state(message.data))

    def _pressed(self, event) -> None:
        try:
            if event.button == "undo":
                self.session.undo(1)
            elif event.button == "confirm":
                self.session.clear_alert()
        except SessionError:
            pass  # nothing to undo: the button does nothing, as on the dashboard
