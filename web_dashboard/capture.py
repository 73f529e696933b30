"""The setup capture: "capture" pressed over the empty table, then again once the first deal is at rest.

The frames the camera loop handles while capture is pressed are what vision learns the table from
(`vision.setup.learn_setup`): the empty table (boards, displays and centre bare) and the table at setup (boards
empty, every display dealt, the marker in the centre). Once the setup frame is in, vision's recogniser is built
from the calibration plus what it learned and handed to the camera loop, which then feeds the move tracker.
Until then this object *is* the loop's recognizer and returns None: there is nothing to track yet.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

EMPTY, SETUP = "empty", "setup"
MAX_EMPTY_FRAMES = 20  # averaged by learn_setup; two seconds of a still table is plenty
# Frames of the dealt table captured from the press on, averaged by learn_setup, which leaves out any a bumped
# camera blurred: one frame alone may be that one (recorded tuning game 750: its far boards' empty walls read full).
SETUP_FRAMES = 4

# frame, timestamp -> observation dict
Recognize = Callable[[np.ndarray, float], dict]


@dataclass
class SetupCapture:
    profile: object  # calibration.profile.CalibrationProfile: what the person wrote (corners, circles, centre)
    on_ready: Callable[[object, Recognize], None]  # (learned profile, recogniser): hand it to the camera loop
    on_progress: Callable[[str], None] = lambda label: None  # what the dashboard shows while setting up
    _pressed: str | None = field(default=None, init=False)
    _empty: collections.deque = field(default_factory=lambda: collections.deque(maxlen=MAX_EMPTY_FRAMES),
                                      init=False)
    _setup: list = field(default_factory=list, init=False)  # the dealt table's frames since SETUP was pressed
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def press(self, what: str) -> None:
        """Capture the next frame the camera loop handles as `what` (EMPTY or SETUP)."""
        if what not in (EMPTY, SETUP):
            raise ValueError(f"capture what? {what!r}")
        with self._lock:
            self._pressed = what

    def __call__(self, frame: np.ndarray, timestamp: float) -> dict | None:
        with self._lock:
            pressed, self._pressed = self._pressed, None
        if pressed == EMPTY:
            self._empty.append(frame.copy())
            if len(self._empty) == 1:
                self.on_progress("setting up: empty table captured, waiting for the first deal")
            return None
        if pressed != SETUP and not self._setup:
            return None
        self._setup.append(frame.copy())
        if len(self._setup) < SETUP_FRAMES:
            return None
        from vision.recognizer import TableRecognizer

        setup, self._setup = self._setup, []
        try:
            learned = learn(self.profile, setup, list(self._empty))
            recognizer = TableRecognizer(learned, (frame.shape[1], frame.shape[0]))
        except ValueError as err:  # SetupError and FrameError are ValueErrors: this table, this frame
            self.on_progress(f"setting up: the setup was not learned ({err}); waiting for the next game")
            return None
        self.on_ready(learned, recognizer.recognize)
        # The last setup frame is also the first deal on the table: the tracker reads it from this very frame.
        return recognizer.recognize(frame, timestamp)


def learn(profile, setup_frames: list[np.ndarray], empty_frames: list[np.ndarray]):
    """What vision learns at setup, with the empty table when it was captured."""
    from vision.setup import learn_setup

    return learn_setup(profile, setup_frames, empty=empty_frames or None)


def simulated_press(animation, frame) -> str | None:
    """When the simulated person at a rendered table presses capture: over the still empty table, and once every
    display is dealt, each time with no hand over the table. The truth says only *when*, never what is there."""
    covered = frame.truth["occluded"]
    if any(covered["boards"]) or any(covered["factories"]) or covered["center"]:
        return None
    event = frame.truth["event"]
    if event["type"] == "setup":
        return EMPTY
    if event["type"] == "deal" and event.get("factories_dealt") == len(animation.renderer.table.factories):
        return SETUP
    return None
