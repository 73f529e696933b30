"""What the dashboard shows about the LED display: one immutable snapshot, safe to hand to another thread."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum

from firmware_bridge.messages import DisplayState


class LinkState(StrEnum):
    STOPPED = "stopped"  # bridge not running
    SEARCHING = "searching"  # auto-detect found no display
    DISCONNECTED = "disconnected"  # the port could not be opened or went away; retrying
    HANDSHAKING = "handshaking"  # port open, waiting for the firmware to answer HELLO
    UPDATING = "updating"  # talking to the device, latest state not yet acknowledged
    SYNCED = "synced"  # the device confirmed it shows the latest state
    UNRESPONSIVE = "unresponsive"  # port open but the device has stopped answering
    INCOMPATIBLE = "incompatible"  # firmware speaks another protocol version


@dataclass(frozen=True)
class BridgeStatus:
    state: LinkState
    message: str  # one line a person can act on
    port: str | None = None
    firmware_version: str | None = None
    seconds_since_reply: float | None = None
    frames_sent: int = 0
    retransmissions: int = 0
    frames_received: int = 0
    bad_frames: int = 0
    device_errors: int = 0
    last_device_error: str = ""
    reconnects: int = 0
    device_resets: int = 0  # the firmware restarted (power dip, reset by a cable bump)
    button_events: int = 0
    alert_text: str = ""
    shown: DisplayState | None = None  # the last state the display acknowledged


    @property
    def ok(self) -> bool:
        return self.state is LinkState.SYNCED

    def to_dict(self) -> dict:
        data = asdict(self)
        data["state"] = self.state.value
        data["ok"] = self.ok
        if self.shown is not None:
            data["shown"] = {"scores": list(self.shown.scores), "current_player": self.shown.current_player,
                             "alert": self.shown.alert}
        return data
