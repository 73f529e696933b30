"""Markerless board tracking: learn each board's look at calibration, find it again when it is nudged.

At calibration the board is rectified once (a 256-pixel square) and its ORB keypoints are kept in board
coordinates. Per frame, only a window round the last pose is searched (cheap, and other boards' identical
print cannot be mistaken for this one); matches against the learned keypoints give a RANSAC homography, accepted
only with enough inliers and a shape close to a board; otherwise the last good pose is kept (hands, glare).
A board only moves when nudged, so a caller can run this every few frames or when the board's occlusion ring
reports a change.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import BoardGeometry

RECTIFIED = 256
MIN_INLIERS = 25
SEARCH_MARGIN = 0.25  # how far past the last pose to look, in board widths


@dataclass
class BoardAppearance:
    points: np.ndarray  # (K, 2) keypoint positions in board fractions
    descriptors: np.ndarray  # (K, 32) ORB descriptors


def learn_appearance(frame: np.ndarray, corners) -> BoardAppearance:
    """The board's ORB features, from a rectified view of it at its calibrated pose."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32) * RECTIFIED
    h = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), unit)
    flat = cv2.warpPerspective(_gray(frame), h, (RECTIFIED, RECTIFIED))
    orb = cv2.ORB_create(nfeatures=600, fastThreshold=10)
    keypoints, descriptors = orb.detectAndCompute(flat, None)
    if descriptors is None or len(keypoints) < MIN_INLIERS:
        raise ValueError("the board shows too little texture to be tracked without markers")
    pts = np.array([k.pt for k in keypoints], np.float32) / RECTIFIED
    return BoardAppearance(pts, descriptors)


class MarkerlessTracker:
    def __init__(self, appearance: BoardAppearance, corners) -> None:
        self.appearance = appearance
        self.corners = np.asarray(corners, np.float32)
        self._orb = cv2.ORB_create(nfeatures=1500, fastThreshold=10)
        self._matcher = cv2.BFMatcher(cv2.NORM_HAMMING, crossCheck=True)

    def update(self, frame: np.ndarray) -> tuple[np.ndarray, bool]:
        """(corners, found this frame); the last good corners when the board cannot be found."""
        gray = _gray(frame)
        h_img, w_img = gray.shape
        geometry = BoardGeometry(self.corners)
        window = geometry.to_image(np.array([[-SEARCH_MARGIN, -SEARCH_MARGIN], [1 + SEARCH_MARGIN, -SEARCH_MARGIN],
                                             [1 + SEARCH_MARGIN, 1 + SEARCH_MARGIN], [-SEARCH_MARGIN, 1 + SEARCH_MARGIN]]))
        x0, y0 = np.clip(np.floor(window.min(axis=0)).astype(int), 0, [w_img - 1, h_img - 1])
        x1, y1 = np.clip(np.ceil(window.max(axis=0)).astype(int), 1, [w_img, h_img])
        keypoints, descriptors = self._orb.detectAndCompute(gray[y0:y1, x0:x1], None)
        if descriptors is None or len(keypoints) < MIN_INLIERS:
            return self.corners, False
        matches = self._matcher.match(self.appearance.descriptors, descriptors)
        if len(matches) < MIN_INLIERS:
            return self.corners, False
        src = np.array([self.appearance.points[m.queryIdx] for m in matches], np.float32)
        dst = np.array([keypoints[m.trainIdx].pt for m in matches], np.float32) + np.float32([x0, y0])
        h, mask = cv2.findHomography(src, dst, cv2.RANSAC, 3.0)
        if h is None or int(mask.sum()) < MIN_INLIERS:
            return self.corners, False
        unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32).reshape(-1, 1, 2)
        corners = cv2.perspectiveTransform(unit, h).reshape(4, 2)
        if not _plausible(corners, self.corners):
            return self.corners, False
        self.corners = corners
        return corners, True


def _plausible(new: np.ndarray, old: np.ndarray) -> bool:
    """A nudged board keeps its size and shape: reject poses that shrink, grow or fold."""
    def area(c):
        x, y = c[:, 0], c[:, 1]
        return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))

    a_new, a_old = area(new), area(old)
    return a_old > 0 and 0.8 < a_new / a_old < 1.25 and cv2.isContourConvex(new.astype(np.float32).reshape(-1, 1, 2))


def _gray(frame: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
