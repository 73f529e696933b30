import subprocess
import sys

import cv2
import numpy as np

from calibration.markers import (
    DICTIONARY,
    MARKER_SIDE,
    MarkerLocaliser,
    marker_id,
    marker_position,
    sheet_image,
)

CORNERS = np.array([[300, 150], [700, 170], [690, 560], [280, 540]], np.float32)


def _table_with_markers(corners, hide=()):
    img = np.full((720, 1000, 3), 170, np.uint8)
    h = cv2.getPerspectiveTransform(np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32), corners)
    cv2.fillConvexPoly(img, corners.astype(np.int32), (120, 160, 200))
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    for k in range(4):
        if k in hide:
            continue
        u, v = marker_position(k)
        s = MARKER_SIDE / 2
        # A white quiet zone round the marker, as printed.
        pad = s * 1.5
        quad = np.array([[u - pad, v - pad], [u + pad, v - pad], [u + pad, v + pad], [u - pad, v + pad]], np.float32)
        cv2.fillConvexPoly(img, cv2.perspectiveTransform(quad[None], h)[0].astype(np.int32), (255, 255, 255))
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id(0, k), 120)
        src = np.array([[0, 0], [120, 0], [120, 120], [0, 120]], np.float32)
        dst = np.array([[u - s, v - s], [u + s, v - s], [u + s, v + s], [u - s, v + s]], np.float32)
        m = cv2.getPerspectiveTransform(src, cv2.perspectiveTransform(dst[None], h)[0])
        warped = cv2.warpPerspective(cv2.cvtColor(marker, cv2.COLOR_GRAY2BGR), m, (1000, 720), borderValue=(0, 0, 0))
        mask = cv2.warpPerspective(np.full((120, 120), 255, np.uint8), m, (1000, 720))
        img[mask > 0] = warped[mask > 0]
    return img


def test_board_corners_are_found_from_its_markers():
    loc = MarkerLocaliser(1)
    corners, seen = loc.locate(_table_with_markers(CORNERS))
    assert seen == [True]
    assert np.abs(corners[0] - CORNERS).max() < 1.5


def test_a_covered_marker_still_locates_and_two_covered_keep_the_last_pose():
    loc = MarkerLocaliser(1)
    loc.locate(_table_with_markers(CORNERS))
    moved = CORNERS + np.float32([12, -6])
    corners, seen = loc.locate(_table_with_markers(moved, hide=(2,)))
    assert seen == [True] and np.abs(corners[0] - moved).max() < 6  # 3 markers: an affine pose
    corners, seen = loc.locate(_table_with_markers(moved + 30, hide=(0, 1)))
    assert seen == [False] and np.abs(corners[0] - moved).max() < 6  # the last good pose


def test_the_sheet_holds_every_marker_and_the_cli_writes_pdf_and_png(tmp_path):
    sheet = sheet_image(4, dpi=150)
    found = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY)).detectMarkers(sheet)[1]
    assert sorted(found.ravel().tolist()) == list(range(16))
    for name in ("m.pdf", "m.png"):
        out = tmp_path / name
        run = subprocess.run([sys.executable, "-m", "web_dashboard.cli", "markers", "--players", "3", "--out", str(out)],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert "bottom-left #11" in run.stdout
        assert out.stat().st_size > 1000
    assert (tmp_path / "m.pdf").read_bytes().startswith(b"%PDF-1.4")
    bad = subprocess.run([sys.executable, "-m", "web_dashboard.cli", "markers", "--out", str(tmp_path / "m.gif")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and ".pdf or .png" in bad.stderr and "Traceback" not in bad.stderr
