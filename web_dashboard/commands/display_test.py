"""`azul-companion display-test [--port PORT]`: cycle the LED score display so a person can check the wiring.

Steps: every segment lit, then each player's digits and turn light in turn, then the alert flash; presses of
the confirm / undo buttons are printed as they arrive. Each step waits for the display's acknowledgement, so
a wiring fault shows as "digits wrong" (the user sees it) while a link fault shows as a failed step here.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from web_dashboard.errors import UserError


@dataclass(frozen=True)
class Step:
    what: str  # what the person should see
    scores: tuple[int, ...]
    current: int | None = None
    alert: bool = False


STEPS = (
    Step("all digits show 8888 (every segment lit)", (8888, 8888, 8888, 8888)),
    Step("player 1 digits show 1111, player 1 light green", (1111, 0, 0, 0), current=0),
    Step("player 2 digits show 2222, player 2 light green", (0, 2222, 0, 0), current=1),
    Step("player 3 digits show 3333, player 3 light green", (0, 0, 3333, 0), current=2),
    Step("player 4 digits show 4444, player 4 light green", (0, 0, 0, 4444), current=3),
    Step("status light flashes red (alert)", (0, 0, 0, 0), alert=True),
    Step("all players show 0, no turn light, status light dim blue", (0, 0, 0, 0)),
)


def register(subparsers) -> None:
    parser = subparsers.add_parser("display-test", help="cycle the serial LED display to check its wiring")
    parser.add_argument("--port", default=None,
                        help="serial device or pyserial URL (loop://, socket://HOST:PORT, rfc2217://HOST:PORT);"
                             " default: auto-detect the board by its USB ids")
    parser.add_argument("--step", type=float, default=1.5, help="seconds per test step (default 1.5)")
    parser.add_argument("--wait", type=float, default=5.0,
                        help="seconds to wait for the display to answer (default 5; an Uno resets on connect)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from firmware_bridge import BridgeConfig, DisplayBridge, LinkState

    if args.step <= 0 or args.wait <= 0:
        raise UserError("--step and --wait must be positive")
    printed = 0

    def show_buttons(bridge: DisplayBridge) -> None:
        nonlocal printed
        while not bridge.events.empty():
            print(f"  button pressed: {bridge.events.get_nowait().button}", flush=True)
            printed += 1

    with DisplayBridge(BridgeConfig(port=args.port)) as bridge:
        answered = bridge.wait_for(
            lambda s: s.state in (LinkState.SYNCED, LinkState.UPDATING, LinkState.INCOMPATIBLE), args.wait)
        status = bridge.status()
        if not answered or status.state is LinkState.INCOMPATIBLE:
            # The bridge would keep retrying; this command gives up, so drop its "retrying" tail.
            raise UserError(status.message.removesuffix("; retrying").removesuffix("; reconnecting"))
        print(f"display on {status.port}, firmware {status.firmware_version}")
        print("press CONFIRM and UNDO during the test to check the buttons", flush=True)
        failed = []
        for number, step in enumerate(STEPS, 1):
            bridge.update(list(step.scores), step.current, step.alert)
            acked = bridge.wait_shown(2.0)
            mark = "ok" if acked else f"NOT ACKNOWLEDGED ({bridge.status().message})"
            print(f"[{number}/{len(STEPS)}] {step.what}: {mark}", flush=True)
            if not acked:
                failed.append(number)
            end = time.monotonic() + args.step
            while time.monotonic() < end:
                show_buttons(bridge)
                time.sleep(0.02)
        show_buttons(bridge)
    if printed == 0:
        print("no button presses seen (press them during the test to check them)")
    if failed:
        print(f"display-test: {len(failed)} step(s) not acknowledged by the display: {failed}")
        return 1
    print("display-test: every step acknowledged; check that what you saw matches each line")
    return 0
