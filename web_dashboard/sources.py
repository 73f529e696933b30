"""Frame sources: real cameras, phone streams, video files and image folders, behind one small interface.

A source has `open()`, `read() -> (ok, frame, timestamp)` and `close()`. A failed read means the camera is
gone (unplugged, stream dropped); the pipeline closes it, shows the camera as lost, and reopens it until
frames come back, so a source never has to reconnect by itself.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from vision.pacing import FramePacer

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


class FrameSource(Protocol):
    name: str

    def open(self) -> bool: ...

    def read(self) -> tuple[bool, np.ndarray | None, float]: ...

    def close(self) -> None: ...


@dataclass
class OpenCVSource:
    """A device index ("0"), a video file, or an http/rtsp URL (phone camera apps), read with OpenCV.

    A video file is played at its own frame rate and ends (`finite`): reopening it would replay moves the game
    already holds. Devices and streams that stop are reopened by the camera loop.
    """

    spec: str
    name: str = ""
    _capture: object = None
    _pacer: FramePacer | None = None  # a video file plays at its own rate; live sources are not paced

    def __post_init__(self) -> None:
        self.name = self.name or self.spec

    @property
    def finite(self) -> bool:
        return Path(self.spec).is_file()

    def open(self) -> bool:
        import cv2

        target: int | str = int(self.spec) if self.spec.isdigit() else self.spec
        capture = cv2.VideoCapture(target)
        if not capture.isOpened():
            capture.release()
            return False
        # A live camera's internal queue adds latency; one buffered frame keeps the view current.
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        fps = capture.get(cv2.CAP_PROP_FPS) if self.finite else 0.0
        self._pacer = FramePacer(fps) if fps and 0 < fps <= 240 else None
        self._capture = capture
        return True

    def read(self) -> tuple[bool, np.ndarray | None, float]:
        if self._capture is None:
            return False, None, time.time()
        if self._pacer is not None:
            self._pacer.wait()
        ok, frame = self._capture.read()
        return bool(ok), frame if ok else None, time.time()

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


@dataclass
class ImageFolderSource:
    """The images of a folder, in name order, played at `fps` and looped (a recorded still sequence)."""

    folder: Path
    fps: float = 5.0
    name: str = ""
    _files: list[Path] = field(default_factory=list)
    _index: int = 0
    _pacer: FramePacer | None = None

    def __post_init__(self) -> None:
        self.name = self.name or str(self.folder)

    def open(self) -> bool:
        self._files = sorted(p for p in Path(self.folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        self._index, self._pacer = 0, FramePacer(self.fps)
        return bool(self._files)

    def read(self) -> tuple[bool, np.ndarray | None, float]:
        import cv2

        if not self._files:
            return False, None, time.time()
        self._pacer.wait()
        frame = cv2.imread(str(self._files[self._index % len(self._files)]))
        self._index += 1
        return frame is not None, frame, time.time()

    def close(self) -> None:
        self._files = []


def source_from_spec(spec: str, fps: float = 5.0) -> FrameSource:
    """What `--camera SRC` names: an image folder, or anything OpenCV opens (device index, file, URL)."""
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path, fps)
    return OpenCVSource(spec)
