"""Camera geometry of the table: board homographies, lens distortion, and where each board space lies in the image.

A board is flat, so its four outer corners fix a homography from board fractions (u right, v down, as the board is
read) to image pixels. With a calibrated lens, the homography lives in *undistorted* pixels and points are pushed
back through the distortion, so the straight board lines that bow in the photograph are still sampled correctly.
Everything here is computed once per calibration (or per new pose), never per frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.profile import BoardLayout, CameraModel

UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)

# Kinds of board element, each a list of square spaces (centre u, v and side, as board fractions).
PATTERN, WALL, FLOOR, SCORE, GROUND = "pattern", "wall", "floor", "score", "ground"


@dataclass(frozen=True)
class Lens:
    """Intrinsics and distortion; `None` coefficients mean an ideal pinhole (pixels are used as they are)."""

    matrix: np.ndarray
    distortion: np.ndarray

    @staticmethod
    def from_model(model: CameraModel | None) -> Lens | None:
        if model is None or not any(abs(v) > 1e-12 for v in model.distortion):
            return None
        return Lens(np.array(model.matrix, np.float64), np.array(model.distortion, np.float64))

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Image pixels -> ideal pinhole pixels (same intrinsics)."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.undistortPoints(pts, self.matrix, self.distortion, P=self.matrix).reshape(-1, 2)

    def distort(self, points: np.ndarray) -> np.ndarray:
        """Ideal pinhole pixels -> image pixels: project the rays through the lens model."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        k = self.matrix
        norm = (pts - k[:2, 2]) / np.diag(k)[:2]
        rays = np.column_stack([norm, np.ones(len(norm))]).reshape(-1, 1, 3)
        out, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), k, self.distortion)
        return out.reshape(-1, 2)


class BoardGeometry:
    """Board fractions <-> image pixels for one board pose."""

    def __init__(self, corners, lens: Lens | None = None) -> None:
        self.corners = np.asarray(corners, np.float64).reshape(4, 2)
        self.lens = lens
        ideal = lens.undistort(self.corners) if lens is not None else self.corners
        self.homography = cv2.getPerspectiveTransform(UNIT_SQUARE.astype(np.float32), ideal.astype(np.float32))
        self.inverse = np.linalg.inv(self.homography)

    def to_image(self, uv: np.ndarray) -> np.ndarray:
        """(..., 2) board fractions -> (..., 2) image pixels."""
        uv = np.asarray(uv, np.float64)
        flat = uv.reshape(-1, 2)
        h = self.homography
        w = flat @ h[2, :2] + h[2, 2]
        x = (flat @ h[0, :2] + h[0, 2]) / w
        y = (flat @ h[1, :2] + h[1, 2]) / w
        out = np.column_stack([x, y])
        if self.lens is not None:
            out = self.lens.distort(out)
        return out.reshape(uv.shape)

    def to_board(self, xy: np.ndarray) -> np.ndarray:
        """(..., 2) image pixels -> (..., 2) board fractions."""
        xy = np.asarray(xy, np.float64)
        flat = xy.reshape(-1, 2)
        if self.lens is not None:
            flat = self.lens.undistort(flat)
        h = self.inverse
        w = flat @ h[2, :2] + h[2, 2]
        u = (flat @ h[0, :2] + h[0, 2]) / w
        v = (flat @ h[1, :2] + h[1, 2]) / w
        return np.column_stack([u, v]).reshape(xy.shape)

    def pixels_per_unit(self) -> float:
        """The board's side in image pixels (geometric mean of the two diagonals / sqrt 2)."""
        c = self.corners
        d1 = np.linalg.norm(c[2] - c[0])
        d2 = np.linalg.norm(c[3] - c[1])
        return float(np.sqrt(d1 * d2) / np.sqrt(2))


@dataclass(frozen=True)
class Space:
    kind: str
    index: tuple[int, ...]  # (row, slot) / (row, column) / (i,) / (score,) / (k,)
    u: float
    v: float
    side: float


def board_spaces(layout: BoardLayout) -> list[Space]:
    """Every space the recogniser samples on a board, in a fixed order (pattern, wall, floor, score, ground).

    "Ground" spaces are the printed board where the staircase of pattern lines leaves room (left of the short
    lines): no piece is ever put there, so they show the light on the board and whether something covers it.
    """
    spaces: list[Space] = []
    for r in range(5):
        for j in range(r + 1):
            u, v = layout.pattern_line(r, j)
            spaces.append(Space(PATTERN, (r, j), u, v, layout.space))
    for r in range(5):
        for c in range(5):
            u, v = layout.wall(r, c)
            spaces.append(Space(WALL, (r, c), u, v, layout.space))
    for i in range(7):
        u, v = layout.floor(i)
        spaces.append(Space(FLOOR, (i,), u, v, layout.floor_space))
    for s in range(101):
        u, v = layout.score(s)
        side = layout.score_zero_space if s == 0 else layout.score_space
        spaces.append(Space(SCORE, (s,), u, v, side))
    for k, (u, v, side) in enumerate(ground_points(layout)):
        spaces.append(Space(GROUND, (k,), u, v, side))
    return spaces


def ground_points(layout: BoardLayout) -> list[tuple[float, float, float]]:
    """Places on the board print where no piece ever goes, spread over the board (u, v, side).

    Left of the short pattern lines (the staircase), the arrow column between pattern lines and wall, the band
    between the wall and the floor line, and the bonus legend right of the floor: a hand or a cup over any part
    of the board changes some of them, while tiles placed by the rules never do.
    """
    points = []
    for r in range(4):
        for j in range(r + 2, 5):
            u, v = layout.pattern_line(r, j)
            # A little smaller than a space: the printed frame of the neighbouring slot stays out.
            points.append((u, v, layout.space * 0.7))
    arrow_u = (layout.pattern_x0 + layout.wall_x0) / 2
    gap = layout.wall_x0 - layout.pattern_x0 - layout.space
    for r in range(5):
        points.append((arrow_u, layout.wall_y0 + layout.step_y * r, max(0.01, gap * 0.5)))
    band_v = (layout.wall_y0 + layout.step_y * 4 + layout.space / 2 + layout.floor_y - layout.floor_space / 2) / 2
    band = max(0.01, (layout.floor_y - layout.floor_space / 2 - layout.wall_y0 - layout.step_y * 4
                      - layout.space / 2) * 0.45)
    for u in np.linspace(0.12, 0.9, 7):
        points.append((float(u), band_v, band))
    right = layout.floor_x0 + layout.floor_step * 6 + layout.floor_space / 2
    for u in np.linspace(right + 0.06, 0.93, 2):
        points.append((float(u), layout.floor_y, 0.04))
    return points


def space_quads(geometry: BoardGeometry, spaces: list[Space], scale: float = 1.0) -> np.ndarray:
    """(N, 4, 2) image corners (TL, TR, BR, BL) of each space, its side multiplied by `scale`."""
    offs = (UNIT_SQUARE - 0.5)[None]  # (1, 4, 2)
    centres = np.array([(s.u, s.v) for s in spaces], np.float64)[:, None]
    sides = np.array([s.side for s in spaces], np.float64)[:, None, None] * scale
    return geometry.to_image(centres + offs * sides)
