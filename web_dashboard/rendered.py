"""The demo's cameras: photographs of a simulated table from vision's synthetic renderer, as FrameSources.

`AnimatedTable` is the vision demo's camera: a whole game rendered frame by frame as people play it (hands,
misplacements, wall tiling), handed out in real time; the dashboard's game comes from recognising these
frames. `DemoHost` is the person at that table: it does only what the companion asks of a person.

`RenderedTable` is the camera of the simulated-players demo (`demo --no-vision`): it photographs the session's
own game for the camera view, and nothing that recognises anything reads from it. Rendering is cached by the
renderer while the pieces do not move, so a still table costs little more than the lens, light and sensor steps.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

import numpy as np

from vision.pacing import FramePacer
from vision.synthetic import source
from web_dashboard.capture import SetupCapture, simulated_press
from web_dashboard.pipeline import CameraLoop
from web_dashboard.session import TableSession
from web_dashboard.wizard import overlay_painter

DEMO_SIZE = (1280, 720)
DEMO_SEED = 3  # the --no-vision demo's table arrangement
DEMO_FPS = 10.0  # the renderer's frame rate: its animation paces are counted in frames of 0.1 s
AHEAD_SECONDS = 2.0  # frames rendered ahead of the camera loop, to ride out slow frames (hands, new game)
FIRST_FRAME_SECONDS = 20.0  # the first frame waits for vision's imports and the table's set-up
DEAL_SECONDS = 1.5  # the new deal looked at before the first player reaches
SETUP_SECONDS = 3.0  # the empty table before the first deal (the dashboard says "setting up" meanwhile)
STILL_SECONDS = 1.0  # the table at rest after a move: the tracker needs 0.3 s of rest after the hand's last frame


def demo_look():
    """A tidy, well-lit table seen from slightly off overhead: the demo should look like a good set-up."""
    from vision.synthetic.look import Look

    return Look(width=DEMO_SIZE[0], height=DEMO_SIZE[1], tilt_deg=15, clutter=2, shake_probability=0.0,
                noise_sigma=1.5)


def demo_pace(move_seconds: float, misplace_probability: float, alert_seconds: float, restart_seconds: float,
              fps: float = DEMO_FPS):
    """The animation's pace from the demo's options: a move takes `move_seconds` (hand to the source, across,
    onto the board, then the table at rest), a misplacement stays `alert_seconds`, a finished game
    `restart_seconds` before the next is set up."""
    from vision.synthetic.animate import Pace

    step = max(1, round(move_seconds * fps / 5))
    return Pace(reach=step, carry=step, place=step, still=max(round(STILL_SECONDS * fps), 2 * step),
                misplaced_still=max(1, round(alert_seconds * fps)), setup_frames=round(SETUP_SECONDS * fps),
                deal_still=max(1, round(DEAL_SECONDS * fps)),
                end_frames=max(1, round(restart_seconds * fps)), misplace_probability=misplace_probability)


@dataclass
class AnimatedTable:
    """Rendered games one after another (seed, seed + 1, ...), handed out at the renderer's frame rate.

    A background thread renders ahead into a short queue, so a slow frame does not stall the camera, and the
    renderer is built there, so the dashboard serves while the first table is set up. `on_frame` sees each
    frame as it is handed out, with its animation (the person at the table watches the same moment).
    A closed camera (unplugged) stops rendering: the simulated game waits for it, and goes on where it was.
    """

    players: int
    variant: str
    seed: int  # of the game being rendered; the next game is seed + 1
    pace: object  # vision.synthetic.animate.Pace
    fps: float = DEMO_FPS
    on_frame: Callable[[object, object], None] = lambda animation, frame: None
    fail: Callable[[], bool] = lambda: False  # tests unplug the "camera" with this
    name: str = "simulated table (rendered game)"
    _queue: queue.Queue = field(init=False)
    _halt: threading.Event = field(default_factory=threading.Event, init=False)
    _thread: threading.Thread | None = field(default=None, init=False)
    _games: Iterator | None = field(default=None, init=False)
    _pacer: FramePacer | None = field(default=None, init=False)
    problem: str = field(default="", init=False)  # why rendering stopped, if it failed

    def __post_init__(self) -> None:
        self._queue = queue.Queue(maxsize=max(1, round(AHEAD_SECONDS * self.fps)))

    def open(self) -> bool:
        if self.fail():
            return False
        self._halt.clear()
        self._thread = threading.Thread(target=self._render, name="demo-renderer", daemon=True)
        self._thread.start()
        self._pacer = FramePacer(self.fps)
        return True

    def close(self) -> None:
        self._halt.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def read(self) -> tuple[bool, np.ndarray | None, float]:
        self._pacer.wait()
        if self.fail():
            return False, None, time.time()
        item = self._next()
        if item is None:
            return False, None, time.time()
        animation, frame = item
        self.on_frame(animation, frame)
        return True, frame.image, time.time()

    def _next(self):
        deadline = time.monotonic() + FIRST_FRAME_SECONDS
        while time.monotonic() < deadline and not self._halt.is_set():
            if self.problem:
                raise RuntimeError(self.problem)  # the camera loop shows it and reopens: a new game
            try:
                return self._queue.get(timeout=0.1)
            except queue.Empty:
                continue
        return None

    def _render(self) -> None:
        self.problem = ""
        if self._games is None:
            self._games = self._play()
        try:
            while not self._halt.is_set():
                item = next(self._games)
                while not self._halt.is_set():
                    try:
                        self._queue.put(item, timeout=0.1)
                        break
                    except queue.Full:
                        continue
        except Exception as err:  # noqa: BLE001 - a render failure is a lost camera; reopening starts a new game
            self.problem = f"rendering failed: {type(err).__name__}: {err}"
            self._games = None
            self.seed += 1

    def _play(self) -> Iterator[tuple[object, object]]:
        from vision.synthetic.animate import GameAnimation

        while True:
            animation = GameAnimation(self.players, self.seed, self.variant, look=demo_look(), fps=self.fps,
                                      pace=self.pace)
            for frame in animation.frames():
                yield animation, frame
            self.seed += 1


@dataclass
class DemoHost:
    """The person at the rendered table, doing what the companion asks of a person and nothing more: before
    each game they say who starts and write the calibration (the renderer's: board corners, display circles,
    the centre polygon, as `simulate` saves it); they press "capture" over the empty table and again once the
    first deal is at rest. The animation's truth tells them only *when* (no hand over the table, every display
    dealt), never what lies on it: the setup is learned from the frames the camera loop itself handles."""

    session: TableSession
    loop: CameraLoop
    names: tuple[str, ...]
    capture: SetupCapture | None = None

    def see(self, animation, frame) -> None:
        if frame.index == 0:
            self._new_game(animation)
        press = simulated_press(animation, frame) if self.capture is not None else None
        if press is not None:
            self.capture.press(press)

    def _new_game(self, animation) -> None:
        start = animation.log[0]["start_player"]
        settings = replace(self.session.settings, players=animation.players, variant=animation.variant,
                           names=self.names[:animation.players], start_player=start)
        with self.session.transaction() as game:
            fresh = len(game.record.events) == 1 and game.state.start_player == start
        if not fresh or settings != self.session.settings:
            self.session.new_game(settings)
        profile = animation.renderer.calibration()
        self.capture = SetupCapture(profile, self._ready, self.loop.set_recognition_label)
        self.loop.use_calibration(overlay_painter(profile), self.capture, "setting up: waiting for the empty table")

    def _ready(self, profile, recognize) -> None:
        self.capture = None
        self.loop.use_calibration(overlay_painter(profile), recognize,
                                  "on (vision.recognizer.TableRecognizer; setup learned from these frames)")


@dataclass
class RenderedTable(source.RenderedTable):
    """The --no-vision demo's camera: vision's rendered table in the demo's look, which tests can unplug."""

    seed: int = DEMO_SEED
    fps: float = 12.0
    look: object = field(default_factory=demo_look)
    name: str = "simulated table (rendered)"
    fail: Callable[[], bool] = lambda: False  # tests unplug the "camera" with this

    def open(self) -> bool:
        return super().open() and not self.fail()

    def read(self) -> tuple[bool, np.ndarray | None, float]:
        if self.fail():
            return False, None, time.time()
        return super().read()
