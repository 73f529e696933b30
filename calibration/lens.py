"""Optional lens calibration from photographs of a printed ChArUco sheet or chessboard.

Phone and webcam lenses bow straight lines (barrel distortion); the board homographies then miss the spaces
near a board's edges. A few photos of a printed pattern, tilted differently, give the intrinsics and distortion
(OpenCV's calibrateCamera); they are saved in the profile's `camera` field and used by calibration.geometry for
every sample point, at no per-frame cost.

The ChArUco sheet (`charuco_sheet`) is the default: each of its corners is identified by the ArUco markers
around it, so a photo counts even when a hand or the frame's edge cuts part of the sheet off. A plain chessboard
is only found when every corner is in view.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.profile import CameraModel

PATTERNS = ("charuco", "chessboard")
CHARUCO_SQUARES = (9, 6)  # squares across and down the sheet (A4 landscape)
CHARUCO_SQUARE_MM = 28.0
CHARUCO_MARKER_MM = 21.0
# Not the board markers' 4x4 dictionary (calibration.markers), so the sheet is never taken for a board's markers.
CHARUCO_DICTIONARY = cv2.aruco.DICT_5X5_100
MIN_CHARUCO_CORNERS = 8  # fewer corners per photo constrain the lens too little to be worth the noise
MIN_PHOTOS = 3


class LensError(ValueError):
    """Not enough usable photographs of the pattern."""


@dataclass
class LensResult:
    camera: CameraModel
    rms_px: float  # reprojection error of the pattern's corners
    used: int  # photographs in which the pattern was found
    image_size: tuple[int, int]  # (width, height) of the photographs: the intrinsics belong to this resolution


def charuco_board() -> cv2.aruco.CharucoBoard:
    """The printed sheet's layout, lengths in millimetres (so the sheet prints at true size)."""
    dictionary = cv2.aruco.getPredefinedDictionary(CHARUCO_DICTIONARY)
    return cv2.aruco.CharucoBoard(CHARUCO_SQUARES, CHARUCO_SQUARE_MM, CHARUCO_MARKER_MM, dictionary)


def charuco_sheet(dpi: int = 200) -> np.ndarray:
    """An A4 landscape page with the ChArUco pattern at true size and a line saying how to use it."""
    mm = dpi / 25.4
    page = np.full((int(210 * mm), int(297 * mm)), 255, np.uint8)
    cols, rows = CHARUCO_SQUARES
    width, height = int(round(cols * CHARUCO_SQUARE_MM * mm)), int(round(rows * CHARUCO_SQUARE_MM * mm))
    pattern = charuco_board().generateImage((width, height), marginSize=0, borderBits=1)
    x, y = (page.shape[1] - width) // 2, int(12 * mm)
    page[y : y + height, x : x + width] = pattern
    cv2.putText(page, f"Azul companion lens sheet: print at 100 %, squares {CHARUCO_SQUARE_MM:.0f} mm. Lay it flat; "
                "photograph it 6-10 times, tilted differently, from the camera's place at the table.",
                (x, y + height + int(10 * mm)), cv2.FONT_HERSHEY_SIMPLEX, 0.07 * mm, 0, max(1, int(0.2 * mm)),
                cv2.LINE_AA)
    return page


def _gray(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def _chessboard_points(gray: np.ndarray, inner_corners: tuple[int, int], square: float):
    cols, rows = inner_corners
    found, corners = cv2.findChessboardCorners(gray, (cols, rows))
    if not found:
        return None
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    corners = cv2.cornerSubPix(gray, corners, (5, 5), (-1, -1), criteria)
    grid = np.zeros((rows * cols, 3), np.float32)
    grid[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2) * square
    return grid, corners


def _charuco_points(gray: np.ndarray, detector: cv2.aruco.CharucoDetector):
    corners, ids, _, _ = detector.detectBoard(gray)
    if ids is None or len(ids) < MIN_CHARUCO_CORNERS:
        return None
    board = detector.getBoard()
    if board.checkCharucoCornersCollinear(ids):  # a single row of corners says nothing about the lens
        return None
    object_points, image_points = board.matchImagePoints(corners, ids)
    return object_points.astype(np.float32), image_points.astype(np.float32)


def calibrate_lens(images: list[np.ndarray], pattern: str = "charuco", inner_corners: tuple[int, int] = (9, 6),
                   square: float = 1.0) -> LensResult:
    """Intrinsics and distortion from photographs of the printed `pattern` ("charuco", or "chessboard" with
    `inner_corners` corners per row and per column)."""
    if pattern not in PATTERNS:
        raise LensError(f"unknown pattern {pattern!r}: use one of {', '.join(PATTERNS)}")
    detector = cv2.aruco.CharucoDetector(charuco_board()) if pattern == "charuco" else None
    object_points, image_points, size = [], [], None
    for image in images:
        gray = _gray(image)
        if size is not None and gray.shape[::-1] != size:
            raise LensError("the photographs differ in size: take them all with one camera at one resolution")
        size = gray.shape[::-1]
        found = _charuco_points(gray, detector) if detector else _chessboard_points(gray, inner_corners, square)
        if found is not None:
            object_points.append(found[0])
            image_points.append(found[1])
    if len(object_points) < MIN_PHOTOS:
        what = (f"the ChArUco sheet (at least {MIN_CHARUCO_CORNERS} corners)" if detector
                else f"the chessboard ({inner_corners[0]}x{inner_corners[1]} inner corners)")
        raise LensError(f"{what} was found in {len(object_points)} of {len(images)} photographs; take at least "
                        f"{MIN_PHOTOS}, tilted differently, the sheet sharp and well lit")
    try:
        rms, matrix, dist, _, _ = cv2.calibrateCamera(object_points, image_points, size, None, None)
    except cv2.error as err:  # degenerate views (e.g. all photos from one angle)
        raise LensError(f"the photographs do not determine the lens ({err.err}); tilt the sheet differently "
                        "in each photo") from None
    camera = CameraModel(tuple(tuple(float(v) for v in row) for row in matrix),
                         tuple(float(v) for v in np.ravel(dist)[:5]))
    return LensResult(camera, float(rms), len(object_points), (int(size[0]), int(size[1])))
