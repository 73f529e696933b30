"""The camera loop: frame source -> recognizer -> move tracker -> session, in one background thread.

It never blocks HTTP: browsers only ever read the latest encoded JPEG and the published status. When the
source fails (a camera unplugged, a phone stream dropped) the loop shows the camera as lost, closes the source
and reopens it with a growing pause until frames come back; the game lives in the session and is untouched.

Recognition is optional: without a recognizer (vision not installed, or no calibration) the loop still shows
the camera and its status, and moves are entered on the dashboard by hand. A recognizer may also return None
for a frame it does not read (the setup capture, before it has learned the table): the tracker is not fed.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import numpy as np

from web_dashboard.bus import EventBus
from web_dashboard.session import SessionAlert, TableSession
from web_dashboard.sources import FrameSource

# frame, timestamp -> observation dict (DESIGN.md's observation JSON), or None: nothing to track in this frame
Recognizer = Callable[[np.ndarray, float], dict | None]
# frame (drawn on in place), observation or None
OverlayPainter = Callable[[np.ndarray, dict | None], None]


@dataclass
class CameraStatus:
    state: str  # "connecting", "live", "lost", "ended" (a video file), "stopped"
    source: str
    fps: float = 0.0
    frames: int = 0
    losses: int = 0  # how many times the camera was lost
    since: float = field(default_factory=time.time)  # when `state` began
    message: str = ""
    recognition: str = "off"  # "off", or what is reading the frames
    process_ms: float = 0.0  # mean time to handle one frame (recognise, track, overlay, encode)
    waiting: str = ""  # why the move tracker commits nothing now ("waiting for ..."), if it says
    committed: str = ""  # what the move tracker committed last, in words
    lamp: str = ""  # what a lamp's reflection hides from the camera, and what to do (vision.lamp), if anything


@dataclass
class CameraLoop:
    source: FrameSource
    session: TableSession
    bus: EventBus
    recognizer: Recognizer | None = None
    recognition_label: str = "off"
    overlay: OverlayPainter | None = None
    jpeg_quality: int = 70
    retry_seconds: tuple[float, float] = (0.25, 2.0)  # first and longest pause between reconnection attempts
    status: CameraStatus = field(init=False)
    _stop: threading.Event = field(default_factory=threading.Event, init=False)
    _frame_ready: threading.Condition = field(default_factory=threading.Condition, init=False)
    _jpeg: bytes | None = field(default=None, init=False)
    _frame: np.ndarray | None = field(default=None, init=False)
    _frame_seq: int = field(default=0, init=False)
    _times: collections.deque = field(default_factory=lambda: collections.deque(maxlen=120), init=False)
    _thread: threading.Thread | None = field(default=None, init=False)
    _tracker: object = field(default=None, init=False)
    _tracker_game: int = field(default=-1, init=False)
    _lamp: object = field(default=None, init=False)
    _last_status_publish: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        self.status = CameraStatus("connecting", self.source.name, recognition=self.recognition_label)

    # ---- lifecycle -------------------------------------------------------------------------------------
    def start(self) -> None:
        self._publish_status(force=True)
        self._thread = threading.Thread(target=self._run, name="camera-loop", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self._frame_ready:
            self._frame_ready.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.source.close()
        self._set_state("stopped", "")

    def _run(self) -> None:
        pause = self.retry_seconds[0]
        while not self._stop.is_set():
            if not self.source.open():
                self._set_state("lost" if self.status.frames else "connecting",
                                f"cannot open {self.source.name}; retrying")
                self._stop.wait(pause)
                pause = min(pause * 2, self.retry_seconds[1])
                continue
            pause = self.retry_seconds[0]
            failure = ""
            while not self._stop.is_set():
                try:
                    ok, frame, timestamp = self.source.read()
                except Exception as err:  # noqa: BLE001 - a driver error is a lost camera, not a dead loop
                    failure = f"{self.source.name} failed: {type(err).__name__}: {err}"
                    break
                if not ok or frame is None:
                    break
                if self.status.state != "live":
                    self._set_state("live", "")
                self._handle(frame, timestamp)
            self.source.close()
            if getattr(self.source, "finite", False) and self.status.frames:
                self._set_state("ended", f"{self.source.name} has ended")
                return
            if not self._stop.is_set():
                self.status.losses += 1
                # Say why, when the source said: "driver failed: ..." is something a person can act on.
                self._set_state("lost", f"{failure or 'no frames from ' + self.source.name}; reconnecting")
                self._stop.wait(pause)

    # ---- one frame ---------------------------------------------------------------------------------------
    def _handle(self, frame: np.ndarray, timestamp: float) -> None:
        import cv2

        started = time.perf_counter()
        observation = None
        recognizer = self.recognizer
        if recognizer is not None:
            try:
                observation = recognizer(frame, timestamp)
                if observation is not None:
                    self._watch_lamp(observation, timestamp)
                    self._track(observation, timestamp)
                self.status.message = ""
            except Exception as err:  # noqa: BLE001 - one bad frame must never stop the camera loop
                # The game is only ever changed through the session's checked actions, so nothing is half
                # applied; the error is shown on the dashboard and the next frame is tried.
                self.status.message = f"recognition failed on a frame: {type(err).__name__}: {err}"
                observation = None
        shown = frame.copy() if self.overlay is not None else frame
        if self.overlay is not None:
            self.overlay(shown, observation)
        ok, encoded = cv2.imencode(".jpg", shown, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
        with self._frame_ready:
            self._frame = frame
            if ok:
                self._jpeg = encoded.tobytes()
                self._frame_seq += 1
            self._frame_ready.notify_all()
        now = time.monotonic()
        self._times.append(now)
        spent = (time.perf_counter() - started) * 1000
        self.status.frames += 1
        self.status.process_ms = spent if self.status.frames == 1 else 0.9 * self.status.process_ms + 0.1 * spent
        self.status.fps = self.fps()
        self._publish_status()

    def _track(self, observation: dict, timestamp: float) -> None:
        """Feed the move tracker under the session's lock; mirror its alerts onto the session."""
        from tracker.inference import MoveTracker

        with self.session.transaction() as game:
            if self._tracker is None or self._tracker_game != self.session.game_id:
                self._tracker, self._tracker_game = MoveTracker(game), self.session.game_id
            status = self._tracker.observe(observation, timestamp)
            if status.alert is not None:
                self.session.report_illegal(status.alert.player, status.alert.rule, status.alert.reason)
            else:
                self.session.clear_alert()
            self.session.report_score_alerts(
                [SessionAlert(a.player, a.rule, a.reason, a.since) for a in status.score_alerts])
        # The dashboard shows why the game is not moving on (a stalled read is then visible, not silent).
        self.status.waiting = status.waiting or ""
        if status.committed:
            self.status.committed = "; ".join(status.committed)

    def _watch_lamp(self, observation: dict, timestamp: float) -> None:
        from vision.lamp import LampWatch  # only with a recognizer: vision is installed

        if self._lamp is None:
            self._lamp = LampWatch()
        self.status.lamp = self._lamp.observe(observation, timestamp)

    def use_calibration(self, overlay: OverlayPainter | None, recognizer: Recognizer | None = None,
                        label: str | None = None) -> None:
        """Switch to a new calibration while running (the wizard just saved one). The loop reads these
        attributes once per frame, so the switch lands between two frames."""
        self.overlay = overlay
        if label is not None:
            self.recognizer = recognizer
            self._tracker, self._lamp = None, None
            self.status.recognition, self.status.waiting, self.status.committed = label, "", ""
            self.status.lamp = ""
        self._publish_status(force=True)

    def set_recognition_label(self, label: str) -> None:
        """Say what recognition is doing now (a setup capture's progress), without switching recognizer."""
        self.status.recognition = label
        self._publish_status(force=True)

    # ---- what the web app reads --------------------------------------------------------------------------
    def fps(self) -> float:
        """Frames handled per second over the last two seconds."""
        now = time.monotonic()
        recent = [t for t in self._times if now - t <= 2.0]
        if len(recent) < 2:
            return 0.0
        return (len(recent) - 1) / max(recent[-1] - recent[0], 1e-6)

    def latest_jpeg(self) -> tuple[int, bytes | None]:
        with self._frame_ready:
            return self._frame_seq, self._jpeg

    def wait_jpeg(self, after: int, timeout: float) -> tuple[int, bytes | None]:
        """The next encoded frame after sequence number `after` (or the current one on timeout)."""
        with self._frame_ready:
            self._frame_ready.wait_for(lambda: self._frame_seq != after or self._stop.is_set(), timeout)
            return self._frame_seq, self._jpeg

    def snapshot(self) -> np.ndarray | None:
        """The latest raw frame (no overlay), for the calibration wizard."""
        with self._frame_ready:
            return None if self._frame is None else self._frame.copy()

    def _set_state(self, state: str, message: str) -> None:
        if self.status.state != state:
            self.status.since = time.time()
        self.status.state, self.status.message = state, message
        if state != "live":
            self.status.fps = 0.0
        self._publish_status(force=True)

    def _publish_status(self, force: bool = False) -> None:
        # Status rides on the bus twice a second at most: enough for a live fps figure.
        now = time.monotonic()
        if force or now - self._last_status_publish >= 0.5:
            self._last_status_publish = now
            self.bus.publish("camera", asdict(self.status))
