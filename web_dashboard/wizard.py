"""The calibration wizard's server side: snapshot, the person's clicks, empty-board capture, overlay check, save.

The browser collects clicks (board corners, factory centres and radii, the centre-of-table polygon) into a
draft that has exactly the calibration file's shape; the server validates it with `calibration.profile`, draws
the layout it implies over the snapshot (so the person can see every space land on the board) and saves it.
Two captures teach the profile through `vision.setup.learn_setup(profile, setup, empty=bare)`: the bare table
(boards, factory displays and centre empty, before the first deal; optional, but without it counting tiles on the
displays is less reliable) and the setup (boards empty, every factory display dealt, the marker in the centre),
which gives the empty-board references and the colour model. Each frame is saved as a PNG beside the profile and
named in the profile's `learned` field ("empty_image", "setup_image").
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
    bare_capture: np.ndarray | None = None  # the table before the first deal: boards, displays and centre empty
    setup_capture: np.ndarray | None = None  # boards empty, every display dealt, the marker in the centre
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
            return {"width": w, "height": h, "taken_at": time.time(), "captures": self._captures()}

    def set_uploaded(self, data: bytes) -> dict:
        import cv2

        frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if frame is None:
            raise WizardError("the uploaded file is not an image OpenCV can read (use PNG or JPEG)")
        return self.set_snapshot(frame)

    def capture_bare(self, frame: np.ndarray) -> dict:
        with self._lock:
            # Learning compares the two captures pixel by pixel, so a frame of another camera mode is useless.
            for other, name in ((self.snapshot, "snapshot"), (self.setup_capture, "setup capture")):
                if other is not None and other.shape[:2] != frame.shape[:2]:
                    raise WizardError(f"the bare-table frame is {_size(frame)} but the {name} is {_size(other)}: "
                                      "capture the bare table with the same camera at the same resolution")
            self.bare_capture = frame.copy()
            return {"captured_at": time.time(), "captures": self._captures()}

    def capture_setup(self, frame: np.ndarray) -> dict:
        with self._lock:
            self.setup_capture = frame.copy()
            return {"captured_at": time.time(), "captures": self._captures()}

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
        with self._lock:
            setup, bare = self.setup_capture, self.bare_capture
            learning = _learn(profile, setup, bare) if setup is not None else Learning(profile, note=_no_setup(bare))
            profile = learning.profile
            images = {"setup_image": (setup, "setup"), "empty_image": (bare, "empty")}
            for key, (frame, suffix) in images.items():
                if frame is not None:
                    profile.learned = {**profile.learned, key: self._write_png(frame, suffix)}
            try:
                profiles.save(profile, self.profile_path)
            except OSError as err:
                raise WizardError(f"cannot write {self.profile_path}: {err}") from None
            self.saved_at = time.time()
        if self.on_saved is not None:
            self.on_saved(profile)
        return {"ok": True, "path": str(self.profile_path), "learned": learning.learned,
                "bare_table": learning.bare_used, "warning": learning.warning, "note": learning.note}

    def captures(self) -> dict:
        with self._lock:
            return self._captures()

    def _captures(self) -> dict:
        return {"bare": self.bare_capture is not None, "setup": self.setup_capture is not None}

    def _write_png(self, frame: np.ndarray, suffix: str) -> str:
        """The frame saved beside the profile (so the setup can be learned again later); returns its file name."""
        import cv2

        path = self.profile_path.with_name(f"{self.profile_path.stem}-{suffix}.png")
        if not cv2.imwrite(str(path), frame):
            raise WizardError(f"cannot write {path}")
        return path.name

    def _profile(self, draft: dict):
        from calibration.profile import CalibrationError, from_json

        if self.snapshot is not None and "image_size" not in draft:
            h, w = self.snapshot.shape[:2]
            draft = {**draft, "image_size": [w, h]}
        try:
            return from_json(draft)
        except CalibrationError as err:
            raise WizardError(str(err)) from None


@dataclass
class Learning:
    """What saving learned: the profile to save, and what the page should tell the person."""

    profile: object
    learned: bool = False  # the setup capture taught the profile
    bare_used: bool = False  # ... in the light of the bare table
    warning: str | None = None  # why nothing was learned
    note: str | None = None  # learned, but less well than it could be


LESS_RELIABLE = "counting tiles on the factory displays will be less reliable"


def _size(frame: np.ndarray) -> str:
    return f"{frame.shape[1]}x{frame.shape[0]}"


def _no_setup(bare: np.ndarray | None) -> str | None:
    return "the bare table alone teaches nothing: capture the setup too" if bare is not None else None


def _learn(profile, setup: np.ndarray, bare: np.ndarray | None) -> Learning:
    """The profile with what the captures teach, or unchanged with a warning saying why nothing was learned.

    The corners and circles the person clicked are worth saving even when the setup frame is unusable (boards
    not empty, a factory short), so a failed learning step is a warning, not a refusal."""
    size = (setup.shape[1], setup.shape[0])
    if profile.image_size is not None and tuple(profile.image_size) != size:
        return Learning(profile, warning=(
            f"the setup was not learned: the setup frame is {size[0]}x{size[1]} but the calibration is for "
            f"{profile.image_size[0]}x{profile.image_size[1]} frames; capture the table at setup again"))
    note = None
    if bare is None:
        note = f"without a bare-table capture, {LESS_RELIABLE}"
    elif bare.shape != setup.shape:  # the bare table captured before a snapshot and setup of another size
        note = (f"the bare-table frame ({_size(bare)}) is not the setup frame's size ({_size(setup)}), so it was not "
                f"used and {LESS_RELIABLE}")
        bare = None
    try:
        from vision.lamp import at_setup
        from vision.setup import SetupError, learn_setup
    except ImportError as err:
        return Learning(profile, warning=f"the setup was not learned: {err}")
    try:
        learned = learn_setup(profile, setup, empty=bare)
    except (SetupError, ValueError) as err:
        return Learning(profile, warning=(
            f"the setup was not learned ({err}); capture the table at setup again: boards empty, 4 tiles on "
            "every factory display, the marker in the centre"))
    notes = [n for n in (note, at_setup(learned.learned)) if n]
    return Learning(learned, True, bare is not None, note="; ".join(notes) or None)


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
