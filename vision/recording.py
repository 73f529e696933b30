"""Recorded media, frame by frame: a video file or a folder of images, each frame with its media timestamp.

Live cameras hand over the newest frame and drop the rest; a recording is read completely and in order, with
timestamps from the recording itself (frame index over the video's frame rate, or over `fps` for images), so a
replay gives the same result however fast the machine is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class RecordingError(ValueError):
    """The recording cannot be read; the message says which file and why."""


def frames(path: str | Path, fps: float | None = None) -> Iterator[tuple[float, np.ndarray]]:
    """(timestamp in seconds, BGR frame) for every frame of a video file or an image folder."""
    path = Path(path)
    if path.is_dir():
        yield from _image_folder(path, fps or 10.0)
    elif path.is_file():
        yield from _video(path, fps)
    else:
        raise RecordingError(f"{path}: no such video file or image folder")


def _image_folder(folder: Path, fps: float) -> Iterator[tuple[float, np.ndarray]]:
    import cv2

    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise RecordingError(f"{folder}: no images ({', '.join(IMAGE_SUFFIXES)}) in this folder")
    for index, file in enumerate(files):
        frame = cv2.imread(str(file), cv2.IMREAD_COLOR)
        if frame is None:
            raise RecordingError(f"{file}: not an image OpenCV can read")
        yield index / fps, frame


def _video(file: Path, fps: float | None) -> Iterator[tuple[float, np.ndarray]]:
    import cv2

    capture = cv2.VideoCapture(str(file))
    if not capture.isOpened():
        capture.release()
        raise RecordingError(f"{file}: not a video OpenCV can read")
    rate = fps or capture.get(cv2.CAP_PROP_FPS) or 10.0
    index = 0
    try:
        while True:
            ok, frame = capture.read()
            if not ok:
                if index == 0:
                    raise RecordingError(f"{file}: the video has no readable frame")
                return
            yield index / rate, frame
            index += 1
    finally:
        capture.release()
