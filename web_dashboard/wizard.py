"""The calibration wizard's server side: snapshot, the person's clicks, empty-board capture, overlay check, save.

The browser collects clicks (board corners, factory centres and radii, the centre-of-table polygon) into a
draft that has exactly the calibration file's shape; the server validates it with `calibration.profile`, draws
the layout it implies over the snapshot (so the person can see every space land on the board) and saves it.
The setup capture (boards empty, every factory display dealt, the marker in the centre) teaches the profile its
empty-board references and colour model through `vision.setup.learn_setup`; the frame itself is saved as a
PNG beside the profile and named in the profile's `learned` field.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


class WizardError(Exception):
    """A wizard step that cannot be done now (no snapshot, bad draft): the message says what to do."""


@dataclass
class CalibrationWizard:
    profile_path: Path
    snapshot: np.ndarray | None = None
    empty_capture: np.ndarray | None = None
    overlay: np.ndarray | None = None
    saved_at: float | None = None
    # Called with the saved profile, so the running camera loop starts using it without a restart.
    on_saved: Callable[[object], None] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def set_snapshot(self, frame: np.ndarray) -> dict:
        with self._lock:
            self.snapshot = frame.copy()
            self.overlay = None
            h, w = frame.shape[:2]
            return {"width": w, "height": h, "taken_at": time.time()}

    def set_uploaded(self, data: bytes) -> dict:
        import cv2

        frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if frame is None:
            raise WizardError("the uploaded file is not an image OpenCV can read (use PNG or JPEG)")
        return self.set_snapshot(frame)

    def capture_empty(self, frame: np.ndarray) -> dict:
        with self._lock:
            self.empty_capture = frame.copy()
            return {"captured_at": time.time()}

    def check(self, draft: dict) -> dict:
        """Validate the draft and draw its layout over the snapshot; returns what the page shows."""
        profile = self._profile(draft)
        with self._lock:
            if self.snapshot is None:
                raise WizardError("take a snapshot first")
            self.overlay = draw_profile(self.snapshot, profile)
        return {"ok": True, "boards": profile.players, "factories": len(profile.factories)}

    def save(self, draft: dict) -> dict:
        from calibration import profile as profiles

        profile = self._profile(draft)
        self.profile_path.parent.mkdir(parents=True, exist_ok=True)
        warning = None
        with self._lock:
            if self.empty_capture is not None:
                import cv2

                profile, warning = _learn(profile, self.empty_capture)
                setup_path = self.profile_path.with_name(self.profile_path.stem + "-setup.png")
                cv2.imwrite(str(setup_path), self.empty_capture)
                profile.learned = {**profile.learned, "setup_image": setup_path.name}
            try:
                profiles.save(profile, self.profile_path)
            except OSError as err:
                raise WizardError(f"cannot write {self.profile_path}: {err}") from None
            self.saved_at = time.time()
        if self.on_saved is not None:
            self.on_saved(profile)
        return {"ok": True, "path": str(self.profile_path), "learned": warning is None and
                self.empty_capture is not None, "warning": warning}

    def _profile(self, draft: dict):
        from calibration.profile import CalibrationError, from_json

        if self.snapshot is not None and "image_size" not in draft:
            h, w = self.snapshot.shape[:2]
            draft = {**draft, "image_size": [w, h]}
        try:
            return from_json(draft)
        except CalibrationError as err:
            raise WizardError(str(err)) from None


def _learn(profile, frame: np.ndarray):
    """(profile with what the setup frame teaches, None) or (profile unchanged, why nothing was learned).

    The corners and circles the person clicked are worth saving even when the setup frame is unusable (boards
    not empty, a factory short), so a failed learning step is a warning, not a refusal."""
    size = (frame.shape[1], frame.shape[0])
    if profile.image_size is not None and tuple(profile.image_size) != size:
        return profile, (f"the setup was not learned: the setup frame is {size[0]}x{size[1]} but the calibration "
                         f"is for {profile.image_size[0]}x{profile.image_size[1]} frames; capture the table at "
                         "setup again")
    try:
        from vision.setup import SetupError, learn_setup
    except ImportError as err:
        return profile, f"the setup was not learned: {err}"
    try:
        return learn_setup(profile, frame), None
    except (SetupError, ValueError) as err:
        return profile, (f"the setup was not learned ({err}); capture the table at setup again: boards empty, "
                         "4 tiles on every factory display, the marker in the centre")


def draw_profile(frame: np.ndarray, profile) -> np.ndarray:
    """The calibration drawn on a copy of the frame: board outlines, every space, factories and the centre."""
    import cv2

    from calibration.geometry import BoardGeometry, board_spaces

    out = frame.copy()
    for i, board in enumerate(profile.boards):
        geometry = BoardGeometry(board.corners)
        corners = np.int32(np.round(board.corners))
        cv2.polylines(out, [corners], True, (0, 255, 255), 2)
        for space in board_spaces(board.effective_layout):
            if space.kind in ("score", "ground"):
                continue
            half = space.side / 2
            quad = np.array([(space.u - half, space.v - half), (space.u + half, space.v - half),
                             (space.u + half, space.v + half), (space.u - half, space.v + half)])
            cv2.polylines(out, [np.int32(np.round(geometry.to_image(quad)))], True, (0, 255, 0), 1)
        cv2.putText(out, f"board {i + 1}", tuple(int(v) for v in corners[0]), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                    (0, 255, 255), 2)
    for j, factory in enumerate(profile.factories):
        centre = (int(round(factory.center[0])), int(round(factory.center[1])))
        cv2.circle(out, centre, int(round(factory.radius)), (255, 160, 0), 2)
        cv2.putText(out, str(j + 1), centre, cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 160, 0), 2)
    if profile.center:
        cv2.polylines(out, [np.int32(np.round(profile.center))], True, (255, 0, 255), 2)
    return out


def overlay_painter(profile):
    """An OverlayPainter for the camera loop: the calibrated regions plus per-region confidence if known."""
    import cv2

    def paint(frame: np.ndarray, observation: dict | None) -> None:
        for i, board in enumerate(profile.boards):
            corners = np.int32(np.round(board.corners))
            occluded = bool(observation and i < len(observation.get("boards", []))
                            and observation["boards"][i].get("occluded"))
            colour = (0, 0, 255) if occluded else (0, 255, 255)
            cv2.polylines(frame, [corners], True, colour, 2)
            label = f"board {i + 1}"
            confidence = _confidence(observation, "boards", i)
            if confidence is not None:
                label += f" {confidence:.0%}"
            cv2.putText(frame, label, tuple(int(v) for v in corners[0]), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2)
        for j, factory in enumerate(profile.factories):
            centre = (int(round(factory.center[0])), int(round(factory.center[1])))
            cv2.circle(frame, centre, int(round(factory.radius)), (255, 160, 0), 2)
            confidence = _confidence(observation, "factories", j)
            if confidence is not None:
                cv2.putText(frame, f"{confidence:.0%}", centre, cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 160, 0), 2)

    return paint


def _confidence(observation: dict | None, kind: str, index: int) -> float | None:
    """The mean of whatever per-element confidence values the recogniser reported for one region."""
    if not observation:
        return None
    items = observation.get(kind) or []
    if index >= len(items) or not isinstance(items[index], dict):
        return None
    value = items[index].get("confidence")
    if isinstance(value, (int, float)):
        return float(value)
    numbers: list[float] = []

    def collect(v) -> None:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            numbers.append(float(v))
        elif isinstance(v, dict):
            for x in v.values():
                collect(x)
        elif isinstance(v, list):
            for x in v:
                collect(x)

    collect(value)
    return sum(numbers) / len(numbers) if numbers else None
