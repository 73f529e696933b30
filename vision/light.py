"""Light normalisation: bring a frame's colours to the light of the setup photograph, using the board's own print.

The printed board around the pattern-line staircase is never covered by a piece, so its colour now against its
colour at setup measures how the lamp changed (colour, brightness, a cloud outside); dividing it out per BGR
channel is enough for the slow, smooth changes of a room's light. Without a setup reference there is nothing to
compare with, and frames are used as they are.
"""

from __future__ import annotations

import cv2
import numpy as np


def to_lab(bgr: np.ndarray, gain: np.ndarray | None = None) -> np.ndarray:
    """BGR (..., 3) -> float32 L*a*b* (L 0..100), optionally scaling BGR by per-channel gains first.

    8-bit input goes through OpenCV's 8-bit conversion (table-driven, several times faster than the float one;
    its quantisation, under half a unit of L*, is far below sensor noise); float input (0..255) through the
    float conversion."""
    shape = bgr.shape
    if bgr.dtype == np.uint8:
        img = bgr.reshape(-1, 1, 3)
        if gain is not None:
            img = cv2.transform(img, np.diag(gain.astype(np.float32)))  # saturates at 255 like the sensor
        lab = cv2.cvtColor(img, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
        lab *= _LAB8_SCALE
        lab += _LAB8_OFFSET
        return lab.reshape(shape)
    img = bgr.reshape(-1, 1, 3).astype(np.float32) * (1.0 / 255.0)
    if gain is not None:
        img *= gain.astype(np.float32)
        np.clip(img, 0.0, 1.0, out=img)
    return cv2.cvtColor(img, cv2.COLOR_BGR2Lab).reshape(shape)


# OpenCV's 8-bit Lab: L scaled to 0..255, a and b offset by 128.
_LAB8_SCALE = np.array([100.0 / 255.0, 1.0, 1.0], np.float32)
_LAB8_OFFSET = np.array([0.0, -128.0, -128.0], np.float32)


def ground_colour(patches: np.ndarray) -> np.ndarray:
    """Median BGR (3,) over a stack of ground patches (N, P, P, 3)."""
    return np.median(patches.reshape(-1, 3).astype(np.float32), axis=0)


def light_gain(current: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Per-channel BGR gains mapping the current ground colour to its reference; limited to sane values."""
    gain = (np.asarray(reference, np.float32) + 1.0) / (np.asarray(current, np.float32) + 1.0)
    return np.clip(gain, 0.25, 4.0)
