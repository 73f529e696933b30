"""firmware_bridge: the serial LED score display — wire protocol, host bridge, firmware and simulator harness.

Depends on nothing else of the companion: it takes plain data (scores, current player, alert) and hands back
button presses. Typical use::

    bridge = DisplayBridge(BridgeConfig(port=None)).start()   # None: auto-detect by USB ids
    bridge.update([12, 30, 7], current_player=1, alert="red on line 3 holds blue")
    bridge.status().to_dict()                                  # for the dashboard
    event = bridge.events.get_nowait()                         # ButtonEvent("confirm" | "undo", ...)
"""

from firmware_bridge.bridge import BridgeConfig, DisplayBridge
from firmware_bridge.link import LinkTiming
from firmware_bridge.messages import ButtonEvent, DisplayState
from firmware_bridge.status import BridgeStatus, LinkState

__all__ = ["BridgeConfig", "BridgeStatus", "ButtonEvent", "DisplayBridge", "DisplayState", "LinkState",
           "LinkTiming"]
