"""Shared by `demo` and `run`: server options, the start-up banner with the access token, the serve loop."""

from __future__ import annotations

import argparse
import signal
import threading
import time

from web_dashboard.errors import UserError
from web_dashboard.security import Security, is_loopback


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to serve on (default 127.0.0.1: this computer only; 0.0.0.0: the network)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    parser.add_argument("--open-viewing", action="store_true",
                        help="on the network, let anyone watch without the token (changes still need it)")
    parser.add_argument("--max-seconds", type=float, default=None, help="stop after this many seconds")


def serve(runtime, args: argparse.Namespace) -> int:
    from web_dashboard.app import create_app
    from web_dashboard.server import DashboardServer

    if not 0 <= args.port <= 65535:
        raise UserError("--port must be 0..65535")
    try:
        local = is_loopback(args.host) or args.host == "localhost"
    except ValueError:
        local = False
    security = Security(open_viewing=args.open_viewing, bound_to_loopback=local)
    server = DashboardServer(create_app(runtime, security), args.host, args.port)
    try:
        server.bind()
    except OSError as err:
        raise UserError(f"cannot serve on {args.host}:{args.port}: {err.strerror or err}") from None
    runtime.start()
    thread = threading.Thread(target=server.serve_forever, name="waitress", daemon=True)
    thread.start()
    print(f"Dashboard: {server.url}/   (TV view: {server.url}/tv, calibration: {server.url}/calibrate)", flush=True)
    if not local:
        print(f"Served to the network. Access token: {security.token}", flush=True)
        print(f"  Open http://<this computer's address>:{server.port}/?token={security.token} on other devices; "
              "every change from them needs it.", flush=True)
    print("Press Ctrl-C to stop.", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    deadline = None if args.max_seconds is None else time.monotonic() + args.max_seconds
    try:
        while not stop.is_set():
            if deadline is not None and time.monotonic() >= deadline:
                break
            stop.wait(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        runtime.stopping.set()
        server.close()
        runtime.stop()
    print("Stopped.", flush=True)
    return 0
