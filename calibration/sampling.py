"""Sampling small rectified patches from a frame with one precomputed cv2.remap.

Rectifying whole boards or frames costs far more than the recogniser can spend (10 ms for a 720p table). Instead,
every space we look at gets a small square grid of sample points, mapped through its board's homography (and the
lens) once per pose; per frame a single cv2.remap over the stacked grids pulls all patches at once.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.geometry import BoardGeometry, Space


def space_grid(geometry: BoardGeometry, spaces: list[Space], size: int, scale: float = 1.0) -> np.ndarray:
    """(N, size, size, 2) image coordinates of a size x size grid over each space (side multiplied by scale)."""
    steps = (np.arange(size) + 0.5) / size - 0.5  # cell centres across a unit square
    gu, gv = np.meshgrid(steps, steps)  # (size, size)
    centres = np.array([(s.u, s.v) for s in spaces], np.float64)
    sides = np.array([s.side for s in spaces], np.float64) * scale
    u = centres[:, 0, None, None] + gu[None] * sides[:, None, None]
    v = centres[:, 1, None, None] + gv[None] * sides[:, None, None]
    return geometry.to_image(np.stack([u, v], -1))


ROW = 8192  # sample points per remap row: OpenCV remaps row by row (a map of narrow patch rows costs it twice as
# much) and takes rows shorter than 32767 points


class PatchSampler:
    """Pulls a stack of same-sized patches out of a frame in one remap.

    `grid` is (N, P, Q, 2) image coordinates; points outside the frame read as black and are reported by
    `outside` (fraction per patch), so the caller can treat a board out of view as unseen, not as empty.
    """

    def __init__(self, grid: np.ndarray, frame_size: tuple[int, int]) -> None:
        n, p, q, _ = grid.shape
        self.count, self.shape = n, (p, q)
        flat = grid.reshape(-1, 2).astype(np.float32)
        w, h = frame_size
        inside = (flat[:, 0] >= 0) & (flat[:, 0] <= w - 1) & (flat[:, 1] >= 0) & (flat[:, 1] <= h - 1)
        self.outside = 1.0 - inside.reshape(n, p * q).mean(axis=1)
        # The points in rows of at most ROW, as even as can be (the last row padded with points off the frame,
        # dropped after the remap): OpenCV remaps a padded point as it does any other.
        self._points = len(flat)
        rows = -(-len(flat) // ROW)
        width = -(-len(flat) // rows)
        laid = np.full((rows * width, 2), -2.0, np.float32)
        laid[: len(flat)] = flat
        laid = laid.reshape(rows, width, 2)
        # Fixed-point maps make cv2.remap about twice as fast as float maps.
        self._map1, self._map2 = cv2.convertMaps(laid[..., 0], laid[..., 1], cv2.CV_16SC2)

    def sample(self, frame: np.ndarray) -> np.ndarray:
        """(N, P, P, C) patches."""
        out = cv2.remap(frame, self._map1, self._map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        channels = out.shape[2:]
        return out.reshape(-1, *channels)[: self._points].reshape(self.count, *self.shape, *channels)
