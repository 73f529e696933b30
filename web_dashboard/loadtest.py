"""The dashboard load test: many live screens plus steady read traffic, against a real demo server on loopback.

The server runs as its own process (`azul-companion demo`), exactly as users run it, so the load generator's
threads do not share its interpreter. Measured:
- `sse_clients` live event streams held open for the whole run (any stream that ends or fails is an error);
- read requests at a fixed rate over keep-alive connections to the read endpoints, with their latency;
- the camera pipeline's frame rate (from /api/camera) before the load and during it.
Only loopback addresses are ever used.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, field

READ_PATHS = ("/api/state", "/api/camera", "/api/log", "/", "/camera.jpg")
HOST = "127.0.0.1"


@dataclass
class LoadFigures:
    startup_s: float  # from launching `azul-companion demo` to its dashboard's first answer
    seconds: float
    sse_clients: int
    sse_clients_alive_at_end: int
    sse_events_min_per_client: int
    sse_errors: int
    requests: int
    request_rate: float
    request_errors: int
    latency_p50_ms: float
    latency_p95_ms: float
    latency_p99_ms: float
    latency_max_ms: float
    fps_before: float
    fps_during: float
    fps_degradation_percent: float
    frame_ms_before: float
    frame_ms_during: float
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _get_json(port: int, path: str) -> dict:
    conn = http.client.HTTPConnection(HOST, port, timeout=5)
    try:
        conn.request("GET", path)
        return json.loads(conn.getresponse().read())
    finally:
        conn.close()


def _wait_up(port: int, timeout: float, launched: float) -> float:
    """Waits for the demo's camera to be live; returns the seconds from `launched` (monotonic) until the
    dashboard first answered."""
    deadline = launched + timeout
    answered = None
    while time.monotonic() < deadline:
        try:
            state = _get_json(port, "/api/camera").get("state")
            answered = answered or time.monotonic() - launched
            if state == "live":
                return answered
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError("the demo server did not come up")


def _sample_fps(port: int, seconds: float, stop: threading.Event | None = None) -> tuple[float, float]:
    """Mean camera-loop fps and per-frame time over `seconds`, from the server's own counters."""
    start = _get_json(port, "/api/camera")
    t0 = time.monotonic()
    if stop is None:
        time.sleep(seconds)
    else:
        stop.wait(seconds)
    end = _get_json(port, "/api/camera")
    elapsed = time.monotonic() - t0
    return (end["frames"] - start["frames"]) / elapsed, end["process_ms"]


class _SSEClient(threading.Thread):
    def __init__(self, port: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.stop, self.events, self.error, self.alive = port, stop, 0, None, False

    def run(self) -> None:
        try:
            sock = socket.create_connection((HOST, self.port), timeout=15)
            sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: {HOST}:{self.port}\r\nAccept: text/event-stream\r\n\r\n"
                         .encode())
            buffer = b""
            header_checked = False
            self.alive = True
            while not self.stop.is_set():
                chunk = sock.recv(65536)
                if not chunk:
                    self.error = "the event stream ended"
                    break
                buffer += chunk
                if not header_checked:
                    if b"\r\n\r\n" not in buffer:
                        continue
                    if not buffer.startswith(b"HTTP/1.1 200"):
                        self.error = f"bad status: {buffer[:40]!r}"
                        break
                    header_checked = True
                # Count across chunk boundaries: keep a short tail of the previous data.
                self.events += buffer.count(b"\nevent: ")
                buffer = buffer[-7:]
            sock.close()
        except OSError as err:
            self.error = f"{type(err).__name__}: {err}"
        finally:
            if self.error:
                self.alive = False


class _Reader(threading.Thread):
    """Issues GETs at a fixed rate (its share of the total) over one keep-alive connection."""

    def __init__(self, port: int, rate: float, offset: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.interval, self.offset, self.stop = port, 1.0 / rate, offset, stop
        self.latencies: list[float] = []
        self.errors: list[str] = []

    def run(self) -> None:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=10)
        next_at = time.monotonic() + self.interval * (self.offset % 10) / 10
        i = self.offset
        while not self.stop.is_set():
            delay = next_at - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            next_at += self.interval
            path = READ_PATHS[i % len(READ_PATHS)]
            i += 1
            started = time.perf_counter()
            try:
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    self.errors.append(f"{path}: HTTP {response.status}")
            except (OSError, http.client.HTTPException) as err:
                self.errors.append(f"{path}: {type(err).__name__}: {err}")
                conn.close()
                conn = http.client.HTTPConnection(HOST, self.port, timeout=10)
                continue
            self.latencies.append((time.perf_counter() - started) * 1000)
        conn.close()


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def run_load_test(seconds: float = 60.0, sse_clients: int = 50, rate: float = 100.0, readers: int = 10,
                  camera_fps: float = 12.0, baseline_seconds: float = 10.0) -> LoadFigures:
    port = _free_port()
    command = [sys.executable, "-m", "web_dashboard.cli", "demo", "--port", str(port), "--host", HOST,
               "--move-seconds", "0.5", "--camera-fps", str(camera_fps), "--seed", "5",
               "--max-seconds", str(seconds + baseline_seconds + 60)]
    launched = time.monotonic()
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        startup = _wait_up(port, 20, launched)
        time.sleep(1.0)  # let the loop reach its pace
        fps_before, ms_before = _sample_fps(port, baseline_seconds)
        stop = threading.Event()
        streams = [_SSEClient(port, stop) for _ in range(sse_clients)]
        for s in streams:
            s.start()
        time.sleep(1.0)  # every screen connected before the clock starts
        workers = [_Reader(port, rate / readers, k, stop) for k in range(readers)]
        started = time.monotonic()
        for w in workers:
            w.start()
        fps_during, ms_during = _sample_fps(port, seconds)
        alive = sum(1 for s in streams if s.alive and s.error is None)
        stop.set()
        elapsed = time.monotonic() - started
        for w in workers:
            w.join(timeout=15)
        for s in streams:
            s.join(timeout=2)  # blocked in recv until the next message or ping: at most a few seconds
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    latencies = [x for w in workers for x in w.latencies]
    request_errors = [e for w in workers for e in w.errors]
    sse_errors = [s.error for s in streams if s.error]
    errors = request_errors + sse_errors
    return LoadFigures(
        startup_s=round(startup, 2),
        seconds=round(elapsed, 1),
        sse_clients=sse_clients,
        sse_clients_alive_at_end=alive,
        sse_events_min_per_client=min((s.events for s in streams), default=0),
        sse_errors=len(sse_errors),
        requests=len(latencies) + len(request_errors),
        request_rate=round((len(latencies) + len(request_errors)) / elapsed, 1),
        request_errors=len(request_errors),
        latency_p50_ms=round(statistics.median(latencies), 2) if latencies else float("nan"),
        latency_p95_ms=round(_percentile(latencies, 0.95), 2),
        latency_p99_ms=round(_percentile(latencies, 0.99), 2),
        latency_max_ms=round(max(latencies, default=float("nan")), 2),
        fps_before=round(fps_before, 2),
        fps_during=round(fps_during, 2),
        fps_degradation_percent=round(100 * (fps_before - fps_during) / fps_before, 2) if fps_before else float("nan"),
        frame_ms_before=round(ms_before, 2),
        frame_ms_during=round(ms_during, 2),
        errors=len(errors),
        error_samples=errors[:5],
    )


def bench_dashboard(args) -> dict:
    # `bench` pins itself to one core for the single-core targets; this test is about the whole machine.
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, range(os.cpu_count() or 1))
    return asdict(run_load_test(seconds=args.seconds))
