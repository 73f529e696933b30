"""Hands and arms reaching over the table: skin-coloured, rounded, with a sleeve, casting a soft shadow.

A hand is modelled as a few flat shapes in the air (palm, fingers, thumb, forearm, sleeve) that are projected
through the camera, so under an oblique view a hand hovering over a factory display also hides what lies behind
it, as a real one does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synthetic.camera import Camera

SKIN_TONES = ((160, 190, 235), (120, 160, 215), (95, 135, 190), (70, 105, 160), (50, 75, 120), (40, 55, 85))
SLEEVES = ((60, 40, 30), (140, 140, 140), (40, 40, 150), (120, 70, 40), (200, 200, 205), (30, 90, 60), (25, 25, 25))
NEAR_MM = 10.0  # an arm's parts nearer the lens than this are cut off, as the camera cannot see behind itself


@dataclass(frozen=True)
class Hand:
    target: tuple[float, float]  # world mm under the palm
    seat: tuple[float, float]  # unit direction from the table's middle to the player whose hand it is
    skin: tuple[int, int, int] = SKIN_TONES[1]
    sleeve: tuple[int, int, int] = SLEEVES[0]
    lift_mm: float = 55.0  # palm height above the table
    spread: float = 0.0  # 0 flat fingers together, 1 splayed
    motion_px: tuple[float, float] = (0.0, 0.0)  # movement during the exposure, for motion blur
    holding: bool = False  # a closed hand carrying tiles


def _ellipse(cx, cy, ax, ay, angle, z, n=20):
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    c, s = math.cos(angle), math.sin(angle)
    x, y = ax * np.cos(t), ay * np.sin(t)
    return np.column_stack([cx + c * x - s * y, cy + s * x + c * y, np.full(n, z)])


def _capsule(p0, p1, w0, w1, z0, z1):
    """A tapered band from p0 to p1 (world xy), as a quadrilateral with heights z0..z1."""
    d = np.subtract(p1, p0)
    d = d / (np.linalg.norm(d) + 1e-9)
    n = np.array([-d[1], d[0]])
    a, b = np.asarray(p0), np.asarray(p1)
    return np.array([
        (*(a + n * w0 / 2), z0), (*(b + n * w1 / 2), z1), (*(b - n * w1 / 2), z1), (*(a - n * w0 / 2), z0),
    ])


def hand_shapes(hand: Hand) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """World polygons (x, y, z) of the skin and of the sleeve."""
    tx, ty = hand.target
    sx, sy = hand.seat
    ax, ay = -sx, -sy  # the hand points away from its player
    angle = math.atan2(ay, ax)
    z = -hand.lift_mm
    skin = [_ellipse(tx, ty, 50, 42, angle, z)]  # palm: 100 mm long, 84 mm wide
    side = np.array([-ay, ax])
    fingers = 4
    for k in range(fingers):
        off = (k - 1.5) * 19
        fan = (k - 1.5) * (0.08 + 0.22 * hand.spread)
        length = (55 if hand.holding else 80) - abs(k - 1.3) * 8
        base = np.array([tx, ty]) + np.array([ax, ay]) * 35 + side * off
        d = np.array([math.cos(angle + fan), math.sin(angle + fan)])
        skin.append(_capsule(base, base + d * length, 18, 15, z, z + (8 if hand.holding else 0)))
        skin.append(_ellipse(*(base + d * length), 7.5, 7.5, 0, z, 10))
    thumb_base = np.array([tx, ty]) + side * 38
    thumb_dir = np.array([math.cos(angle + 0.9), math.sin(angle + 0.9)])
    skin.append(_capsule(thumb_base, thumb_base + thumb_dir * 60, 24, 17, z, z))
    wrist = np.array([tx, ty]) - np.array([ax, ay]) * 45
    elbow = np.array([tx, ty]) - np.array([ax, ay]) * 330
    skin.append(_capsule(np.array([tx, ty]), wrist, 80, 64, z, z - 10))
    skin.append(_capsule(wrist, wrist - np.array([ax, ay]) * 90, 64, 74, z - 10, z - 40))
    shoulder = np.array([tx, ty]) - np.array([ax, ay]) * 800
    sleeve = [
        _capsule(wrist - np.array([ax, ay]) * 80, elbow, 86, 100, z - 35, z - 170),
        _capsule(elbow, shoulder, 100, 130, z - 170, z - 420),
    ]
    return skin, sleeve


def _in_front(camera: Camera, shape: np.ndarray) -> np.ndarray | None:
    """The part of a convex shape in front of the lens (None if none is). A low camera at a player's side can
    have the player's shoulder behind it; projected as it is, such a point lands on the wrong side of the image."""
    depth = camera.to_camera(shape)[:, 2] - NEAR_MM
    front = depth >= 0
    if front.all():
        return shape
    if not front.any():
        return None
    # The convex hull of what is left: the points in front, and where each edge to a point behind crosses the plane.
    a, b = np.flatnonzero(front), np.flatnonzero(~front)
    t = (depth[a][:, None] / (depth[a][:, None] - depth[b][None, :]))[..., None]
    crossings = shape[a][:, None] + t * (shape[b][None, :] - shape[a][:, None])
    return np.vstack([shape[front], crossings.reshape(-1, 3)])


def draw_hand(img: np.ndarray, camera: Camera, hand: Hand, light_offset: np.ndarray, shadow: float,
              rng: np.random.Generator) -> np.ndarray:
    """Draw a hand (and its shadow) into a render-space BGR uint8 image in place; returns its boolean mask."""
    h, w = img.shape[:2]
    skin, sleeve = hand_shapes(hand)
    polys = [(camera.project_render(seen), part) for shapes, part in ((skin, 0), (sleeve, 1))
             for seen in (_in_front(camera, p) for p in shapes) if seen is not None]
    # Shadows: the same shapes dropped onto the table along the light.
    shadow_polys = []
    for p in skin + sleeve:
        flat = p.copy()
        flat[:, :2] += light_offset[None, :] * (-p[:, 2:3])
        flat[:, 2] = 0
        seen = _in_front(camera, flat)
        if seen is not None:
            shadow_polys.append(camera.project_render(seen))

    everything = np.vstack([p for p, _ in polys] + shadow_polys)
    x0, y0 = np.maximum(np.floor(everything.min(0)).astype(int) - 4, 0)
    x1, y1 = np.minimum(np.ceil(everything.max(0)).astype(int) + 4, (w, h))
    mask = np.zeros((h, w), bool)
    if x1 <= x0 or y1 <= y0:
        return mask
    rw, rh = x1 - x0, y1 - y0
    offset = np.array([x0, y0])
    shift = 4

    def fill(target, poly, value):
        pts = np.round((poly - offset) * (1 << shift)).astype(np.int32)
        cv2.fillPoly(target, [cv2.convexHull(pts)], value, cv2.LINE_AA, shift)

    shadow_mask = np.zeros((rh, rw), np.uint8)
    for p in shadow_polys:
        fill(shadow_mask, p, 255)
    blur = max(3.0, 0.012 * max(rw, rh))
    shadow_mask = cv2.GaussianBlur(shadow_mask, (0, 0), blur)
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi.astype(np.float32) * (1 - shadow * shadow_mask[..., None] / 255.0)).astype(np.uint8)

    skin_mask = np.zeros((rh, rw), np.uint8)
    sleeve_mask = np.zeros((rh, rw), np.uint8)
    for p, part in polys:
        fill(skin_mask if part == 0 else sleeve_mask, p, 255)
    skin_mask[sleeve_mask > 127] = 0
    union = np.maximum(skin_mask, sleeve_mask)
    # Roundness: darker towards the silhouette, as a cylinder lit from above.
    dist = cv2.distanceTransform((union > 127).astype(np.uint8), cv2.DIST_L2, 3)
    scale = max(2.0, float(dist.max()) * 0.6)
    shade = 0.55 + 0.5 * np.clip(dist / scale, 0, 1) ** 0.6
    colour = np.where((sleeve_mask > 127)[..., None], np.array(hand.sleeve, np.float32),
                      np.array(hand.skin, np.float32))
    colour = colour * shade[..., None]
    colour += rng.normal(0, 3, (rh, rw, 1)).astype(np.float32)  # skin and cloth are not flat colour
    alpha = union.astype(np.float32) / 255.0
    mx, my = hand.motion_px
    length = math.hypot(mx, my)
    if length >= 1.5:
        k = int(min(length, 60)) | 1
        kernel = np.zeros((k, k), np.float32)
        c = k // 2
        cv2.line(kernel, (int(c - mx / length * c), int(c - my / length * c)),
                 (int(c + mx / length * c), int(c + my / length * c)), 1.0, 1)
        kernel /= kernel.sum()
        colour = cv2.filter2D(colour * alpha[..., None], -1, kernel)
        alpha = cv2.filter2D(alpha, -1, kernel)
        colour = colour / np.maximum(alpha[..., None], 1e-3)
    a = alpha[..., None]
    roi[:] = np.clip(roi.astype(np.float32) * (1 - a) + colour * a, 0, 255).astype(np.uint8)
    mask[y0:y1, x0:x1] = alpha > 0.5
    return mask
