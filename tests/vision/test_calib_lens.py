import cv2
import numpy as np
import pytest

from calibration.lens import CHARUCO_SQUARE_MM, LensError, calibrate_lens, charuco_sheet

K = np.array([[700.0, 0, 320], [0, 700.0, 240], [0, 0, 1]])
DIST = np.array([-0.2, 0.05, 0, 0, 0])
POSES = [((0.2, -0.1, 0.05), (-4.5, -3.0, 14)), ((-0.25, 0.2, -0.1), (-5, -3.5, 15)),
         ((0.1, 0.3, 0.2), (-4, -4, 13)), ((-0.3, -0.25, 0.0), (-5.5, -2.5, 16)),
         ((0.35, 0.1, -0.2), (-4.0, -3.0, 15))]


def _photo(rvec, tvec):
    """A printed 10x7-square chessboard photographed through a barrel lens (drawn square by square)."""
    img = np.full((480, 640), 255, np.uint8)
    for i in range(10):
        for j in range(7):
            if (i + j) % 2:
                continue
            sq = np.array([[i, j, 0], [i + 1, j, 0], [i + 1, j + 1, 0], [i, j + 1, 0]], np.float64)
            # Subdivide the edges so the lens bends them.
            t = np.linspace(0, 1, 6)[:, None]
            edge = np.concatenate([sq[k] + (sq[(k + 1) % 4] - sq[k]) * t for k in range(4)])
            pts, _ = cv2.projectPoints(edge, rvec, tvec, K, DIST)
            cv2.fillPoly(img, [np.round(pts.reshape(-1, 2) * 16).astype(np.int32)], 0, cv2.LINE_AA, 4)
    return cv2.GaussianBlur(img, (3, 3), 0)


def _sheet_photo(sheet, dpi, rvec, tvec, size=(640, 480)):
    """The printed ChArUco page photographed through the barrel lens: every output pixel's ray is undistorted and
    met with the page's plane (units: the sheet's squares), then the page is sampled there."""
    w, h = size
    pixels = np.stack(np.meshgrid(np.arange(w), np.arange(h)), -1).reshape(-1, 1, 2).astype(np.float64)
    rays = cv2.undistortPoints(pixels, K, DIST, criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-9))
    rays = rays.reshape(-1, 2)
    r, _ = cv2.Rodrigues(np.asarray(rvec, float))
    plane = np.linalg.inv(np.column_stack([r[:, 0], r[:, 1], np.asarray(tvec, float)]))
    xyw = np.column_stack([rays, np.ones(len(rays))]) @ plane.T
    units = xyw[:, :2] / xyw[:, 2:3]  # page position in squares, from the page's top-left corner
    px_per_square = CHARUCO_SQUARE_MM * dpi / 25.4
    page = (units * px_per_square).reshape(h, w, 2).astype(np.float32)
    photo = cv2.remap(sheet, page[..., 0], page[..., 1], cv2.INTER_AREA, borderValue=180)
    return cv2.GaussianBlur(photo, (3, 3), 0)


def _corners_in_view(sheet, dpi, rvec, tvec) -> int:
    """How many of the pattern's 8x5 inner corners the camera sees."""
    px_per_square = CHARUCO_SQUARE_MM * dpi / 25.4
    left = (sheet.shape[1] - 9 * px_per_square) / 2 / px_per_square  # the pattern is centred across the page
    top = 12 * dpi / 25.4 / px_per_square  # and 12 mm down
    grid = np.array([[left + i, top + j, 0] for j in range(1, 6) for i in range(1, 9)], float)
    pts, _ = cv2.projectPoints(grid, np.asarray(rvec, float), np.asarray(tvec, float), K, DIST)
    pts = pts.reshape(-1, 2)
    return int(((pts[:, 0] >= 0) & (pts[:, 0] < 640) & (pts[:, 1] >= 0) & (pts[:, 1] < 480)).sum())


def test_the_lens_is_recovered_from_chessboard_photos():
    photos = [_photo(np.array(r, float), np.array(t, float)) for r, t in POSES]
    result = calibrate_lens(photos, "chessboard", (9, 6))
    assert result.used >= 4 and result.rms_px < 0.5
    assert result.image_size == (640, 480)
    assert result.camera.matrix[0][0] == pytest.approx(700, rel=0.03)
    assert result.camera.distortion[0] == pytest.approx(-0.2, abs=0.05)


def test_the_lens_is_recovered_from_charuco_photos_even_with_the_sheet_cut_off():
    dpi = 100
    sheet = charuco_sheet(dpi)
    # The page's top-left corner is the origin; put the pattern (12 mm down, centred) in front of the camera, and
    # the last two poses so close that part of the sheet falls outside the frame (a chessboard would be lost).
    poses = [((0.2, -0.1, 0.05), (-5.5, -4.0, 16)), ((-0.25, 0.2, -0.1), (-6, -4.5, 17)),
             ((0.1, 0.3, 0.2), (-5, -5, 15)), ((-0.3, -0.25, 0.0), (-6.5, -3.5, 18)),
             ((0.35, 0.1, -0.2), (-4.0, -3.0, 11)), ((-0.2, 0.25, 0.1), (-7.0, -4.0, 11))]
    photos = [_sheet_photo(sheet, dpi, r, t) for r, t in poses]
    assert all(_corners_in_view(sheet, dpi, r, t) < 40 for r, t in poses[4:])  # the pattern is cut off there
    result = calibrate_lens(photos)
    assert result.used == len(poses)
    assert result.rms_px < 0.5
    assert result.camera.matrix[0][0] == pytest.approx(700, rel=0.03)
    assert result.camera.matrix[0][2] == pytest.approx(320, abs=10)
    assert result.camera.distortion[0] == pytest.approx(-0.2, abs=0.05)


def test_too_few_patterns_is_a_clear_error():
    blank = [np.full((480, 640), 255, np.uint8)] * 3
    with pytest.raises(LensError, match="at least 3"):
        calibrate_lens(blank, "chessboard")
    with pytest.raises(LensError, match="ChArUco sheet .* found in 0 of 3"):
        calibrate_lens(blank)


def test_photos_of_two_sizes_or_an_unknown_pattern_are_refused():
    with pytest.raises(LensError, match="differ in size"):
        calibrate_lens([np.zeros((480, 640), np.uint8), np.zeros((720, 1280), np.uint8)])
    with pytest.raises(LensError, match="unknown pattern"):
        calibrate_lens([np.zeros((480, 640), np.uint8)], "dots")
