"""Long-lived responses: the live event stream (server-sent events) and the camera view (MJPEG).

Each stream holds one server thread while it is open, so both end promptly when the runtime stops, and both
write something at least every few seconds: a write to a browser that has gone away is what tells the server
to free the thread.
"""

from __future__ import annotations

import time

from flask import Blueprint, Response, current_app, stream_with_context

from web_dashboard.runtime import Runtime

bp = Blueprint("streams", __name__)

PING_SECONDS = 5.0
MJPEG_MAX_FPS = 10.0


def runtime() -> Runtime:
    return current_app.extensions["azul_runtime"]


@bp.get("/api/events")
def events():
    rt = runtime()

    def stream():
        with rt.bus.subscribe() as sub:
            # Browsers reconnect by themselves after this many milliseconds if the stream breaks.
            yield b"retry: 2000\n\n"
            last_write = time.monotonic()
            while not rt.stopping.is_set():
                message = sub.get(timeout=1.0)
                if message is not None:
                    yield message.sse()
                    last_write = time.monotonic()
                elif time.monotonic() - last_write >= PING_SECONDS:
                    yield b": ping\n\n"
                    last_write = time.monotonic()

    return Response(stream_with_context(stream()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/camera.mjpg")
def mjpeg():
    rt = runtime()
    camera = rt.camera
    if camera is None:
        return Response("no camera in this session", status=404, mimetype="text/plain")

    def stream():
        seq = -1
        while not rt.stopping.is_set():
            started = time.monotonic()
            seq, jpeg = camera.wait_jpeg(seq, timeout=PING_SECONDS)
            if jpeg is None:
                continue
            yield (b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + str(len(jpeg)).encode()
                   + b"\r\n\r\n" + jpeg + b"\r\n")
            # A browser needs no more than this; the camera loop may run faster.
            rest = 1.0 / MJPEG_MAX_FPS - (time.monotonic() - started)
            if rest > 0:
                time.sleep(rest)

    return Response(stream_with_context(stream()), mimetype="multipart/x-mixed-replace; boundary=frame",
                    headers={"Cache-Control": "no-cache"})


@bp.get("/camera.jpg")
def still():
    camera = runtime().camera
    _, jpeg = camera.latest_jpeg() if camera is not None else (0, None)
    if jpeg is None:
        return Response("no camera frame yet", status=404, mimetype="text/plain")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-cache"})
