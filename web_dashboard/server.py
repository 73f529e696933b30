"""Serving the dashboard with waitress (a production WSGI server), in the foreground or a background thread.

Every open live stream (events, camera) holds one server thread, so the pool is sized for a room full of
screens plus ordinary requests.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from flask import Flask

from web_dashboard.app import MAX_UPLOAD_BYTES

THREADS = 160  # live streams each hold a thread: a room of screens, camera views, and ordinary requests
CONNECTION_LIMIT = 400


@dataclass
class DashboardServer:
    app: Flask
    host: str = "127.0.0.1"
    port: int = 8000
    threads: int = THREADS
    _server: object = field(default=None, init=False)
    _thread: threading.Thread | None = field(default=None, init=False)

    def bind(self) -> int:
        """Open the listening socket (port 0: any free port); returns the port."""
        from waitress.server import create_server

        self._server = create_server(
            self.app, host=self.host, port=self.port, threads=self.threads,
            connection_limit=CONNECTION_LIMIT, max_request_body_size=MAX_UPLOAD_BYTES + 65536,
            asyncore_use_poll=True, ident="azul-companion", channel_timeout=60,
        )
        self.port = self._server.effective_port
        return self.port

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def serve_forever(self) -> None:
        if self._server is None:
            self.bind()
        self._server.run()

    def start_background(self) -> int:
        port = self.bind()
        self._thread = threading.Thread(target=self._server.run, name="waitress", daemon=True)
        self._thread.start()
        return port

    def close(self) -> None:
        server = self._server
        if server is None:
            return
        server.close()
        # Close every open connection so the server's loop (which runs while any channel is open) ends.
        for channel in list(server._map.values()):
            try:
                channel.close()
            except OSError:
                pass
        server.task_dispatcher.shutdown(timeout=3)
        if self._thread is not None:
            self._thread.join(timeout=5)
