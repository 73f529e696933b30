"""Optional lens calibration from photographs of a printed chessboard.

Phone and webcam lenses bow straight lines (barrel distortion); the board homographies then miss the spaces
near a board's edges. A few photos of a printed chessboard, tilted differently, give the intrinsics and
distortion (OpenCV's calibrateCamera); they are saved in the profile's `camera` field and used by
calibration.geometry for every sample point, at no per-frame cost.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.profile import CameraModel


class LensError(ValueError):
    """Not enough usable chessboard photographs."""


@dataclass
class LensResult:
    camera: CameraModel
    rms_px: float  # reprojection error of the chessboard corners
    used: int  # photographs in which the chessboard was found


def calibrate_lens(images: list[np.ndarray], inner_corners: tuple[int, int] = (9, 6),
                   square: float = 1.0) -> LensResult:
    """Intrinsics and distortion from chessboard photographs (`inner_corners`: corners per row, per column)."""
    cols, rows = inner_corners
    grid = np.zeros((rows * cols, 3), np.float32)
    grid[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2) * square
    object_points, image_points, size = [], [], None
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    for image in images:
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        if size is not None and gray.shape[::-1] != size:
            raise LensError("the chessboard photographs differ in size")
        size = gray.shape[::-1]
        found, corners = cv2.findChessboardCorners(gray, (cols, rows))
        if not found:
            continue
        corners = cv2.cornerSubPix(gray, corners, (5, 5), (-1, -1), criteria)
        object_points.append(grid)
        image_points.append(corners)
    if len(object_points) < 3:
        raise LensError(f"the chessboard ({cols}x{rows} inner corners) was found in {len(object_points)} "
                        "photographs; take at least 3, tilted differently, the whole sheet in view")
    rms, matrix, dist, _, _ = cv2.calibrateCamera(object_points, image_points, size, None, None)
    camera = CameraModel(tuple(tuple(float(v) for v in row) for row in matrix),
                         tuple(float(v) for v in np.ravel(dist)[:5]))
    return LensResult(camera, float(rms), len(object_points))
