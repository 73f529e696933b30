"""Light normalisation: bring a frame's colours to the light of the setup photograph, using the board's own print.

The printed board around the pattern-line staircase is never covered by a piece, so its colour now against its
colour at setup measures how the lamp changed (colour, brightness, a cloud outside); dividing it out per BGR
channel is enough for the slow, smooth changes of a room's light. Without a setup reference there is nothing to
compare with, and frames are used as they are.

Tile colours go one step further (print_gains): each cream space of a board is brought to the light its print
was measured under, so the tiles on it are seen as under that one light wherever they lie.
"""

from __future__ import annotations

import cv2
import numpy as np


def to_lab(bgr: np.ndarray, gain: np.ndarray | None = None) -> np.ndarray:
    """BGR (..., 3) -> float32 L*a*b* (L 0..100), optionally scaling BGR by per-channel gains first.

    8-bit input goes through OpenCV's 8-bit conversion (table-driven, several times faster than the float one;
    its quantisation, under half a unit of L*, is far below sensor noise) and a table to float L*a*b*; float
    input (0..255) through the float conversion. Pixels go to OpenCV as one row: it works row by row, and a
    column of single pixels costs it several times more."""
    shape = bgr.shape
    if bgr.dtype == np.uint8:
        img = bgr.reshape(1, -1, 3)
        if gain is not None:
            img = cv2.transform(img, np.diag(gain.astype(np.float32)))  # saturates at 255 like the sensor
        return cv2.LUT(cv2.cvtColor(img, cv2.COLOR_BGR2Lab), _LAB8_TO_FLOAT).reshape(shape)
    img = bgr.reshape(1, -1, 3).astype(np.float32) * (1.0 / 255.0)
    if gain is not None:
        img *= gain.astype(np.float32)
        np.clip(img, 0.0, 1.0, out=img)
    return cv2.cvtColor(img, cv2.COLOR_BGR2Lab).reshape(shape)


def to_lab_planes(bgr: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """8-bit BGR images (B, ..., 3), each scaled by its own gains (B, 3) -> float32 L*a*b* planes (3, B, ...): the
    values of to_lab(bgr[k], gains[k]), channel first. The 8-bit Lab is taken apart plane by plane: to_lab's
    (..., 3) floats moved channel first cost several times the conversion itself."""
    lit = np.empty((len(bgr), 1, bgr[0].size // 3, 3), np.uint8)
    for image, gain, out in zip(bgr, gains, lit):
        cv2.transform(image.reshape(1, -1, 3), np.diag(gain.astype(np.float32)), dst=out)
    planes = np.empty((3, *bgr.shape[:-1]), np.float32)
    lum, a, b = cv2.split(cv2.cvtColor(lit.reshape(1, -1, 3), cv2.COLOR_BGR2Lab))
    # the same float32 values as _LAB8_TO_FLOAT's entries (L* has no offset, a* and b* no scale), one pass a plane
    np.multiply(lum[0], _LAB8_SCALE[0], out=planes[0].reshape(-1), dtype=np.float32)
    np.add(a[0], _LAB8_OFFSET[1], out=planes[1].reshape(-1), dtype=np.float32)
    np.add(b[0], _LAB8_OFFSET[2], out=planes[2].reshape(-1), dtype=np.float32)
    return planes


# OpenCV's 8-bit Lab has L scaled to 0..255, a and b offset by 128: one float32 entry per 8-bit value and channel.
_LAB8_SCALE = np.array([100.0 / 255.0, 1.0, 1.0], np.float32)
_LAB8_OFFSET = np.array([0.0, -128.0, -128.0], np.float32)
_LAB8_TO_FLOAT = (np.arange(256, dtype=np.float32)[:, None] * _LAB8_SCALE + _LAB8_OFFSET).reshape(256, 1, 3)


def from_lab(lab) -> np.ndarray:
    """L*a*b* (..., 3) -> float32 BGR in 0..255 (unclipped where the colour is outside sRGB)."""
    lab = np.asarray(lab, np.float32)
    return cv2.cvtColor(lab.reshape(-1, 1, 3), cv2.COLOR_Lab2BGR).reshape(lab.shape) * 255.0


def light_gain(current: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Per-channel BGR gains mapping the current ground colour to its reference; limited to sane values."""
    gain = (np.asarray(reference, np.float32) + 1.0) / (np.asarray(current, np.float32) + 1.0)
    return np.clip(gain, 0.25, 4.0)


def print_gains(reference_bgr: np.ndarray, target_bgr: np.ndarray, cream: np.ndarray, uv: np.ndarray) -> np.ndarray:
    """(N, 3) per-space BGR gains that bring each space of a board to the light its print was measured under.

    `reference_bgr` is each space's median colour on the empty board at setup; on the `cream` spaces (pattern
    lines, floor) the print is a known cream (`target_bgr`), so their own ratio is the light right there: it
    follows the lamp's colour, the fall-off across the table and the vignette. Other spaces (wall, ground) are
    printed in colours of their own; they get the plane fitted to the log gains of the cream spaces at (u, v).
    """
    ref = np.asarray(reference_bgr, np.float64)
    gains = np.asarray(target_bgr, np.float64) / (ref + 1.0)
    design = np.column_stack([np.ones(len(uv)), uv])
    coef, *_ = np.linalg.lstsq(design[cream], np.log(gains[cream]), rcond=None)
    out = np.exp(design @ coef)
    out[cream] = gains[cream]
    return out.astype(np.float32)
