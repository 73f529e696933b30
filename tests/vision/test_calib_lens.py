import cv2
import numpy as np
import pytest

from calibration.lens import LensError, calibrate_lens

K = np.array([[700.0, 0, 320], [0, 700.0, 240], [0, 0, 1]])
DIST = np.array([-0.2, 0.05, 0, 0, 0])


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


def test_the_lens_is_recovered_from_chessboard_photos():
    poses = [((0.2, -0.1, 0.05), (-4.5, -3.0, 14)), ((-0.25, 0.2, -0.1), (-5, -3.5, 15)),
             ((0.1, 0.3, 0.2), (-4, -4, 13)), ((-0.3, -0.25, 0.0), (-5.5, -2.5, 16)),
             ((0.35, 0.1, -0.2), (-4.0, -3.0, 15))]
    photos = [_photo(np.array(r, float), np.array(t, float)) for r, t in poses]
    result = calibrate_lens(photos, (9, 6))
    assert result.used >= 4 and result.rms_px < 0.5
    assert result.camera.matrix[0][0] == pytest.approx(700, rel=0.03)
    assert result.camera.distortion[0] == pytest.approx(-0.2, abs=0.05)


def test_too_few_chessboards_is_a_clear_error():
    with pytest.raises(LensError, match="at least 3"):
        calibrate_lens([np.full((480, 640), 255, np.uint8)] * 3)
