"""The virtual camera: a pinhole with radial lens distortion, posed above the table.

World coordinates are millimetres on the table: x to the right and y towards the bottom edge as seen from above
(so an overhead camera with no roll sees the table like the top-down layout), z *into* the table, so a point
h mm above the table has z = -h. The camera frame is OpenCV's (x right, y down, z forward).

The renderer draws an ideal pinhole image ("render space") with a slightly shorter focal length than the real
one, then remaps it through the lens distortion into the output image, so straight edges bow like a real lens
and nothing at the corners is missing. `project` gives output-image pixels (distortion included): what the
ground truth and the calibration file use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np


def _rotation(tilt_deg: float, yaw_deg: float, roll_deg: float) -> np.ndarray:
    """World-to-camera rotation for a camera looking at the table, tilted towards its bottom side (yaw 0)."""
    tilt, yaw, roll = map(math.radians, (tilt_deg, yaw_deg, roll_deg))
    toward = np.array([math.sin(yaw), math.cos(yaw), 0.0])  # from the aim point towards the camera, flat
    forward = np.array([-math.sin(tilt) * toward[0], -math.sin(tilt) * toward[1], math.cos(tilt)])
    # Image "down" is the table direction towards the camera, made orthogonal to the view direction.
    down = toward - forward * float(toward @ forward)
    if np.linalg.norm(down) < 1e-9:
        down = np.array([0.0, 1.0, 0.0])
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    c, s = math.cos(roll), math.sin(roll)
    right, down = c * right + s * down, -s * right + c * down
    return np.stack([right, down, forward])


@dataclass
class Camera:
    size: tuple[int, int]  # output (width, height)
    matrix: np.ndarray  # 3x3 intrinsics of the output image
    distortion: np.ndarray  # OpenCV (k1, k2, p1, p2, k3)
    rotation: np.ndarray  # 3x3 world -> camera
    position: np.ndarray  # camera centre in world mm
    render_matrix: np.ndarray = field(init=False)  # intrinsics of the ideal render (same size, wider view)

    def __post_init__(self) -> None:
        self.render_matrix = self.matrix.copy()
        if self.has_distortion:
            # Widen the ideal view until it covers every output pixel's undistorted ray.
            w, h = self.size
            border = np.array(
                [(x, y) for x in np.linspace(0, w - 1, 9) for y in (0, h - 1)]
                + [(x, y) for y in np.linspace(0, h - 1, 9) for x in (0, w - 1)],
                np.float64,
            )
            ideal = cv2.undistortPoints(border.reshape(-1, 1, 2), self.matrix, self.distortion).reshape(-1, 2)
            distorted = (border - self.matrix[:2, 2]) / np.diag(self.matrix)[:2]
            ratio = np.abs(ideal) / np.maximum(np.abs(distorted), 1e-9)
            scale = float(max(1.0, np.max(ratio[np.abs(distorted) > 0.05]) * 1.01))
            self.render_matrix[0, 0] /= scale
            self.render_matrix[1, 1] /= scale

    @property
    def has_distortion(self) -> bool:
        return bool(np.any(np.abs(self.distortion) > 1e-9))

    @property
    def translation(self) -> np.ndarray:
        return -self.rotation @ self.position

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        return (np.asarray(points, np.float64).reshape(-1, 3) - self.position) @ self.rotation.T

    def project_render(self, points: np.ndarray) -> np.ndarray:
        """World points (N,3) -> ideal render-space pixels (N,2)."""
        cam = self.to_camera(points)
        z = np.maximum(cam[:, 2:3], 1e-6)
        k = self.render_matrix
        return cam[:, :2] / z * np.diag(k)[:2] + k[:2, 2]

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N,3) -> output-image pixels (N,2), lens distortion included."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 3)
        rvec, _ = cv2.Rodrigues(self.rotation)
        out, _ = cv2.projectPoints(pts, rvec, self.translation, self.matrix, self.distortion)
        return out.reshape(-1, 2)

    def table_homography(self, height_mm: float = 0.0) -> np.ndarray:
        """Render-space homography of the plane `height_mm` above the table: (x, y, 1) mm -> pixels."""
        r, t = self.rotation, self.translation
        plane = np.column_stack([r[:, 0], r[:, 1], r[:, 2] * -height_mm + t])
        return self.render_matrix @ plane

    def distortion_maps(self) -> tuple[np.ndarray, np.ndarray] | None:
        """cv2.remap maps taking each output pixel to its place in the ideal render (None: no distortion)."""
        if not self.has_distortion:
            return None
        w, h = self.size
        step = 8  # the mapping is smooth: solve it on a coarse grid, interpolate the rest
        xs = np.arange(0, w + step, step, dtype=np.float64)
        ys = np.arange(0, h + step, step, dtype=np.float64)
        grid = np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 1, 2)
        ideal = cv2.undistortPoints(grid, self.matrix, self.distortion, P=self.render_matrix).reshape(len(ys), len(xs), 2)
        map_x, map_y = _interpolate_grid(ideal, xs, ys, w, h)
        return cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)


def _interpolate_grid(ideal: np.ndarray, xs: np.ndarray, ys: np.ndarray, w: int, h: int):
    """Bilinear interpolation of a coarse (ys, xs, 2) grid at every integer pixel (separable, vectorised)."""
    step = xs[1] - xs[0]
    fx = np.arange(w) / step
    fy = np.arange(h) / step
    x0 = np.floor(fx).astype(int)
    y0 = np.floor(fy).astype(int)
    ax = (fx - x0)[None, :, None]
    ay = (fy - y0)[:, None, None]
    rows0 = ideal[y0]
    rows1 = ideal[np.minimum(y0 + 1, len(ys) - 1)]
    top = rows0[:, x0] * (1 - ax) + rows0[:, np.minimum(x0 + 1, len(xs) - 1)] * ax
    bottom = rows1[:, x0] * (1 - ax) + rows1[:, np.minimum(x0 + 1, len(xs) - 1)] * ax
    full = (top * (1 - ay) + bottom * ay).astype(np.float32)
    return full[..., 0], full[..., 1]


def posed_camera(
    size: tuple[int, int],
    aim: np.ndarray,
    extent: np.ndarray,
    distance_mm: float,
    tilt_deg: float,
    yaw_deg: float,
    roll_deg: float,
    fill: float,
    distortion_k1: float,
) -> Camera:
    """A camera `distance_mm` from the aim point, with the focal length that makes the table's extent (world
    points that must be in view) fill `fill` of the frame."""
    rotation = _rotation(tilt_deg, yaw_deg, roll_deg)
    position = np.asarray(aim, np.float64) - rotation[2] * distance_mm
    cam = (np.asarray(extent, np.float64).reshape(-1, 3) - position) @ rotation.T
    norm = cam[:, :2] / cam[:, 2:3]
    w, h = size
    focal = min(w / 2 * fill / np.max(np.abs(norm[:, 0])), h / 2 * fill / np.max(np.abs(norm[:, 1])))
    matrix = np.array([[focal, 0, (w - 1) / 2], [0, focal, (h - 1) / 2], [0, 0, 1]], np.float64)
    distortion = np.array([distortion_k1, distortion_k1 * -0.2, 0, 0, 0], np.float64)
    return Camera(size, matrix, distortion, rotation, position)
