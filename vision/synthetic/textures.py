"""Flat artwork of the set, drawn once per style and size: board printings, tile faces, factory discs, table tops.

Everything here is a rectified image (as if scanned); the renderer warps it into the camera. Drawing is done
with OpenCV primitives and numpy noise, never per pixel in Python, so a whole set is ready in well under a
second. Each function takes the random generator it needs, so a seed fixes the artwork.
"""

from __future__ import annotations

import math
import zlib

import cv2
import numpy as np

from calibration.profile import BoardLayout
from vision.synthetic.styles import COLOURS, BoardStyle, Lab, TableStyle, TileStyle, lab_to_bgr

AA = cv2.LINE_AA
SHIFT = 4  # sub-pixel bits for OpenCV drawing
ONE = 1 << SHIFT


def smooth_noise(shape: tuple[int, int], scale: float, rng: np.random.Generator, octaves: int = 3) -> np.ndarray:
    """Low-frequency noise in about [-1, 1]: a few octaves of upsampled random grids."""
    h, w = shape
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        cell = max(2.0, scale / (2 ** o))
        gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
        grid = rng.standard_normal((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= 0.5
    return out / total


def _pts(points) -> np.ndarray:
    return np.round(np.asarray(points, np.float64) * ONE).astype(np.int32)


def _blend(img: np.ndarray, mask: np.ndarray, colour: tuple[int, int, int], strength: float = 1.0) -> None:
    """img <- img·(1−m) + colour·m, with m = mask/255·strength (in place, float32 image)."""
    m = (mask.astype(np.float32) * (strength / 255.0))[..., None]
    img *= 1.0 - m
    img += m * np.array(colour, np.float32)


# ---- motifs -------------------------------------------------------------------------------------------------
def motif_mask(colour: str, size: int, variant: int) -> np.ndarray:
    """The motif of a tile colour as an anti-aliased mask of a size x size square."""
    mask = np.zeros((size, size), np.uint8)
    c = size / 2
    s = size / 100.0  # motifs are designed on a 100-unit square
    lw = max(1, int(round(3 * s)))

    def circle(x, y, r, thick):
        cv2.circle(mask, _pts((x, y)), int(r * ONE), 255, thick, AA, SHIFT)

    def ellipse(x, y, ax, ay, angle, thick, start=0, end=360):
        cv2.ellipse(mask, _pts((x, y)), (int(ax * ONE), int(ay * ONE)), angle, start, end, 255, thick, AA, SHIFT)

    def line(x0, y0, x1, y1, thick):
        cv2.line(mask, _pts((x0, y0)), _pts((x1, y1)), 255, thick, AA, SHIFT)

    if colour == "blue":
        # Nearly plain: a faint quatrefoil of four arcs.
        for k in range(4):
            a = math.pi / 2 * k + variant * 0.3
            circle(c + 17 * s * math.cos(a), c + 17 * s * math.sin(a), 15 * s, lw)
    elif colour == "red":
        # Nearly plain: a faint lozenge lattice.
        d = 26 * s
        for sign in (-1, 1):
            line(c - d, c, c, c + sign * d, lw)
            line(c + d, c, c, c + sign * d, lw)
        circle(c, c, 6 * s, -1)
    elif colour == "yellow":
        # Red arabesque: interlaced S-curves round a small flower.
        for k in range(4):
            ang = 90 * k + 45 * (variant % 2)
            r = math.radians(ang)
            x, y = c + 22 * s * math.cos(r), c + 22 * s * math.sin(r)
            ellipse(x, y, 20 * s, 10 * s, ang + 90, lw, 0, 200)
            circle(c + 38 * s * math.cos(r), c + 38 * s * math.sin(r), 4 * s, -1)
        circle(c, c, 6 * s, -1)
    elif colour == "black":
        # Teal rosette: petals round a ring.
        petals = 8 + 2 * (variant % 2)
        for k in range(petals):
            ang = 360 * k / petals
            r = math.radians(ang)
            ellipse(c + 24 * s * math.cos(r), c + 24 * s * math.sin(r), 13 * s, 6 * s, ang, -1)
        circle(c, c, 11 * s, lw)
        circle(c, c, 4 * s, -1)
    elif colour == "white":
        # Dark snowflake: arms with side branches.
        arms = 6 + 2 * (variant % 2)
        for k in range(arms):
            r = 2 * math.pi * k / arms
            dx, dy = math.cos(r), math.sin(r)
            line(c, c, c + 40 * s * dx, c + 40 * s * dy, lw + 1)
            for t, b in ((20, 11), (31, 7)):
                bx, by = c + t * s * dx, c + t * s * dy
                for side in (-1, 1):
                    rr = r + side * math.pi / 4
                    line(bx, by, bx + b * s * math.cos(rr), by + b * s * math.sin(rr), lw)
        circle(c, c, 6 * s, -1)
    return mask


# ---- tiles --------------------------------------------------------------------------------------------------
def tile_top(style: TileStyle, colour: str, size: int) -> np.ndarray:
    """The top face of a tile as BGRA, `size` pixels square (drawn large, then averaged down, so that a motif
    seen from far blends into the resin as a camera's pixels blend it)."""
    big = max(size, 96)
    sprite = _tile_top(style, colour, big)
    if big == size:
        return sprite
    return cv2.resize(sprite, (size, size), interpolation=cv2.INTER_AREA)


def _tile_top(style: TileStyle, colour: str, size: int) -> np.ndarray:
    """The top face of a tile as BGRA: resin colour, motif, bevelled edges lit from the top-left, gloss.

    The bevel is lit from the sprite's top-left; the renderer maps every sprite so that its top-left faces the
    scene's key light, so the shading is consistent across the table whatever way a tile lies.
    """
    base = np.array(lab_to_bgr(style.tile[colour]), np.float32)
    img = np.empty((size, size, 3), np.float32)
    img[:] = base
    inner = int(size * 0.8)
    motif = motif_mask(colour, inner, style.motif_variant)
    pad = (size - inner) // 2
    full = np.zeros((size, size), np.uint8)
    full[pad : pad + inner, pad : pad + inner] = motif
    _blend(img, full, lab_to_bgr(style.motif[colour]), style.motif_strength[colour])

    # Resin isn't perfectly uniform: a little low-frequency mottling.
    rng = np.random.default_rng(zlib.crc32(f"{style.name}/{colour}/{size}".encode()))  # stable across runs
    img *= (1.0 + 0.04 * smooth_noise((size, size), size / 3, rng))[..., None]

    # Bevel: a band along the edges, lighter where it faces the light (top, left), darker away from it.
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / (size - 1)
    band = 0.11
    left, top, right, bottom = xx, yy, 1 - xx, 1 - yy
    lit = np.clip(1 - np.minimum(left, top) / band, 0, 1)
    dark = np.clip(1 - np.minimum(right, bottom) / band, 0, 1)
    shade = 1.0 + style.bevel * (0.45 * lit**1.5 - 0.45 * dark**1.5)
    img *= shade[..., None]
    img += (style.bevel * 40 * lit**3)[..., None]  # the bevel's highlight is whiter, not just brighter

    # Gloss: a soft diagonal sheen across the face and a small glint near the lit corner.
    diag = (xx + yy) / 2
    sheen = np.exp(-(((diag - 0.33) / 0.09) ** 2)) * 0.5 + np.exp(-(((xx - 0.22) ** 2 + (yy - 0.2) ** 2) / 0.004))
    img += (style.gloss * 38 * sheen)[..., None]

    # Rounded corners.
    alpha = np.zeros((size, size), np.uint8)
    r = size * 0.08
    cv2.rectangle(alpha, _pts((r, 0)), _pts((size - 1 - r, size - 1)), 255, -1, AA, SHIFT)
    cv2.rectangle(alpha, _pts((0, r)), _pts((size - 1, size - 1 - r)), 255, -1, AA, SHIFT)
    for x, y in ((r, r), (size - 1 - r, r), (r, size - 1 - r), (size - 1 - r, size - 1 - r)):
        cv2.circle(alpha, _pts((x, y)), int(r * ONE), 255, -1, AA, SHIFT)
    return np.dstack([np.clip(img, 0, 255).astype(np.uint8), alpha])


def marker_top(size: int) -> np.ndarray:
    """The first-player marker: a cream tile with a large dark "1"."""
    img = np.empty((size, size, 3), np.float32)
    img[:] = lab_to_bgr((88, 2, 10))
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / (size - 1)
    band = 0.1
    lit = np.clip(1 - np.minimum(xx, yy) / band, 0, 1)
    dark = np.clip(1 - np.minimum(1 - xx, 1 - yy) / band, 0, 1)
    img *= (1 + 0.25 * lit - 0.35 * dark)[..., None]
    mask = np.zeros((size, size), np.uint8)
    scale = size / 42
    (tw, th), _ = cv2.getTextSize("1", cv2.FONT_HERSHEY_DUPLEX, scale, max(1, int(size / 14)))
    cv2.putText(mask, "1", (int((size - tw) / 2), int((size + th) / 2)), cv2.FONT_HERSHEY_DUPLEX, scale, 255,
                max(1, int(size / 14)), AA)
    _blend(img, mask, lab_to_bgr((25, 10, -20)))
    alpha = np.full((size, size), 255, np.uint8)
    return np.dstack([np.clip(img, 0, 255).astype(np.uint8), alpha])


def cube_top(size: int) -> np.ndarray:
    """The top of a black score-marker cube: dark plastic with a faint sheen."""
    img = np.empty((size, size, 3), np.float32)
    img[:] = (34, 32, 32)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / (size - 1)
    img += (30 * np.exp(-(((xx - 0.3) ** 2 + (yy - 0.3) ** 2) / 0.05)))[..., None]
    alpha = np.full((size, size), 255, np.uint8)
    return np.dstack([np.clip(img, 0, 255).astype(np.uint8), alpha])


# ---- player boards ------------------------------------------------------------------------------------------
def _marble(shape, colour: Lab, strength: float, rng) -> np.ndarray:
    h, w = shape
    img = np.empty((h, w, 3), np.float32)
    img[:] = lab_to_bgr(colour)
    veins = smooth_noise((h, w), max(w, h) / 4, rng, 4)
    veins = np.abs(np.sin(veins * 9.0))  # thin bright/dark veins where the noise crosses its levels
    img *= (1.0 - strength * 0.08 * (1 - veins))[..., None]
    return img


def board_texture(style: BoardStyle, tiles: TileStyle, variant: str, size: int, layout: BoardLayout,
                  rng: np.random.Generator) -> np.ndarray:
    """A player board, rectified, size x size BGR: score track, pattern lines, wall (colored or gray side),
    floor line with its penalties, bonus legend."""
    s = size
    img = _marble((s, s), style.background, style.marble, rng)
    accent = lab_to_bgr(style.accent)
    ink = lab_to_bgr(style.ink)

    def rect(x0, y0, x1, y1, colour, thick=-1):
        cv2.rectangle(img, _pts((x0 * s, y0 * s)), _pts((x1 * s, y1 * s)), colour, thick, AA, SHIFT)

    # OpenCV writes text on 8-bit images only: labels go on one mask per ink colour, blended at the end.
    text_masks: dict[tuple[int, int, int], np.ndarray] = {}

    def text(label, x, y, height, colour, thick=1, font=cv2.FONT_HERSHEY_SIMPLEX):
        scale = height * s / 22.0
        th = max(1, int(round(thick * s / 700)))
        (tw, tht), _ = cv2.getTextSize(label, font, scale, th)
        mask = text_masks.setdefault(colour, np.zeros((s, s), np.uint8))
        cv2.putText(mask, label, (int(x * s - tw / 2), int(y * s + tht / 2)), font, scale, 255, th, AA)

    # Border frame.
    frame = max(2, int(0.012 * s))
    cv2.rectangle(img, (0, 0), (s - 1, s - 1), accent, frame * 2)
    rect(0.012, 0.012, 0.988, 0.988, lab_to_bgr((min(95, style.cream[0] - 10), *style.cream[1:])), max(1, s // 400))

    # Score track: the "0" space, then 5 rows of 20.
    # The printed track is soft: cells a little lighter than the ground, thin borders and grey numbers,
    # not the black-on-white grid of a diagram.
    bl, ba, bb = style.background
    cl, ca, cb = style.cream
    track_fill = lab_to_bgr(((bl + cl) / 2 + 3, (ba + ca) / 2, (bb + cb) / 2))
    track_line = lab_to_bgr((bl - 14, ba, bb))
    track_ink = lab_to_bgr((bl - 30, ba, bb))
    band = (layout.score_x0 - layout.score_space * 0.75, layout.score_y0 - layout.score_space * 0.75,
            layout.score_x0 + layout.score_step_x * 19 + layout.score_space * 0.75,
            layout.score_y0 + layout.score_step_y * 4 + layout.score_space * 0.75)
    rect(*band, lab_to_bgr((bl - 5, ba, bb)))

    def cell(cx, cy, side, fill, label, strong):
        h = side / 2
        rect(cx - h, cy - h, cx + h, cy + h, fill)
        rect(cx - h, cy - h, cx + h, cy + h, accent if strong else track_line, max(1, s // 700))
        text(label, cx, cy, side * 0.45, track_ink if not strong else ink, 2 if strong else 1)

    cell(layout.score_zero_x, layout.score_zero_y, layout.score_zero_space, track_fill, "0", True)
    for score in range(1, 101):
        cx, cy = layout.score(score)
        cell(cx, cy, layout.score_space, track_fill, str(score), score % 5 == 0)

    # Pattern lines: right-aligned cream spaces, an arrow to the wall row.
    spc = layout.space
    rows_top = layout.wall_y0 - layout.step_y / 2 - 0.01
    rows_bottom = layout.wall_y0 + layout.step_y * 4.5 + 0.01
    rect(0.03, rows_top, layout.pattern_x0 + spc / 2 + 0.012, rows_bottom,
         lab_to_bgr((style.background[0] - 8, *style.background[1:])))
    marble_rng = np.random.default_rng(int(rng.integers(1 << 31)))
    for r in range(5):
        for j in range(r + 1):
            cx, cy = layout.pattern_line(r, j)
            x0, y0 = int((cx - spc / 2) * s), int((cy - spc / 2) * s)
            side = int(spc * s)
            img[y0 : y0 + side, x0 : x0 + side] = _marble((side, side), style.cream, 1.5, marble_rng)
            rect(cx - spc / 2, cy - spc / 2, cx + spc / 2, cy + spc / 2, ink, max(1, s // 600))
        ax = layout.pattern_x0 + spc / 2 + 0.012
        ay = layout.wall_y0 + layout.step_y * r
        tri = np.array([(ax, ay - 0.018), (ax + 0.022, ay), (ax, ay + 0.018)]) * s
        cv2.fillConvexPoly(img, _pts(tri), accent, AA, SHIFT)

    # Wall: a frame, then 25 printed spaces.
    wx0 = layout.wall_x0 - layout.step_x / 2 - 0.006
    wx1 = layout.wall_x0 + layout.step_x * 4.5 + 0.006
    rect(wx0, rows_top, wx1, rows_bottom, accent)
    vivid = style.print_vividness
    for r in range(5):
        for c in range(5):
            colour = COLOURS[(c - r) % 5]
            cx, cy = layout.wall(r, c)
            side = int(round(spc * s))
            x0, y0 = int(round((cx - spc / 2) * s)), int(round((cy - spc / 2) * s))
            space = np.empty((side, side, 3), np.float32)
            if variant == "gray":
                space[:] = lab_to_bgr(style.gray_space)
                motif_colour = lab_to_bgr((style.gray_space[0] - 14, 0, 0))
                strength = 0.35
            else:
                lum, a, b = tiles.printed[colour]
                space[:] = lab_to_bgr((lum, a * vivid, b * vivid))
                ml, ma, mb = tiles.motif[colour]
                motif_colour = lab_to_bgr((ml + 6, ma * 0.8, mb * 0.8))
                strength = tiles.motif_strength[colour] * 0.85
            inner = int(side * 0.8)
            m = np.zeros((side, side), np.uint8)
            p = (side - inner) // 2
            m[p : p + inner, p : p + inner] = motif_mask(colour, inner, tiles.motif_variant)
            _blend(space, m, motif_colour, strength)
            # Printing on card: a faint paper grain.
            space *= (1 + 0.03 * smooth_noise((side, side), side / 4, marble_rng))[..., None]
            img[y0 : y0 + side, x0 : x0 + side] = space

    # Floor line: 7 spaces under arches labelled with their penalties, then the bonus legend.
    fs = layout.floor_space
    floor_cream = lab_to_bgr(style.floor)
    for i, penalty in enumerate((-1, -1, -2, -2, -2, -3, -3)):
        cx, cy = layout.floor(i)
        cv2.ellipse(img, _pts((cx * s, (cy - fs / 2) * s)), (int(fs / 2 * s * ONE), int(fs * 0.55 * s * ONE)),
                    0, 180, 360, accent, -1, AA, SHIFT)
        x0, y0 = int((cx - fs / 2) * s), int((cy - fs / 2) * s)
        side = int(fs * s)
        img[y0 : y0 + side, x0 : x0 + side] = _marble((side, side), style.floor, 1.0, marble_rng)
        rect(cx - fs / 2, cy - fs / 2, cx + fs / 2, cy + fs / 2, ink, max(1, s // 600))
        text(str(penalty), cx, cy - fs * 0.78, fs * 0.38, floor_cream, 2)
    bx = layout.floor(6)[0] + fs / 2 + 0.035
    for k, label in enumerate(("+2", "+7", "+10")):
        x = bx + 0.07 * k + 0.03
        y = layout.floor_y - 0.01
        rect(x - 0.025, y - 0.03, x + 0.025, y + 0.03, accent, max(1, s // 400))
        text(label, x, y, 0.022, ink, 2)
    for colour, mask in text_masks.items():
        _blend(img, mask, colour)
    return np.clip(img, 0, 255).astype(np.uint8)


# ---- factory displays ---------------------------------------------------------------------------------------
def factory_disc(size: int, rng: np.random.Generator) -> np.ndarray:
    """A factory display seen from above, BGRA: cream card, blue rosette, orange rim."""
    img = _marble((size, size), (84, 3, 10), 1.0, rng)
    c = size / 2
    rosette = np.zeros((size, size), np.uint8)
    for k in range(12):
        a = 2 * math.pi * k / 12
        cv2.ellipse(rosette, _pts((c + 0.22 * size * math.cos(a), c + 0.22 * size * math.sin(a))),
                    (int(0.16 * size * ONE), int(0.06 * size * ONE)), math.degrees(a), 0, 360, 255, -1, AA, SHIFT)
    cv2.circle(rosette, _pts((c, c)), int(0.09 * size * ONE), 255, -1, AA, SHIFT)
    _blend(img, rosette, lab_to_bgr((45, 0, -35)), 0.8)
    cv2.circle(img, _pts((c, c)), int(0.465 * size * ONE), lab_to_bgr((62, 32, 58)), max(2, int(size * 0.05)),
               AA, SHIFT)
    alpha = np.zeros((size, size), np.uint8)
    cv2.circle(alpha, _pts((c, c)), int(0.495 * size * ONE), 255, -1, AA, SHIFT)
    return np.dstack([np.clip(img, 0, 255).astype(np.uint8), alpha])


# ---- the table ----------------------------------------------------------------------------------------------
def table_texture(style: TableStyle, shape: tuple[int, int], px_per_mm: float, rng: np.random.Generator) -> np.ndarray:
    """The table top, top-down, BGR float32."""
    h, w = shape
    base = np.array(lab_to_bgr(style.base), np.float32)
    second = np.array(lab_to_bgr(style.grain), np.float32)
    if style.kind == "wood":
        # Grain: noise stretched along x, banded into rings; planks every ~120 mm.
        n = smooth_noise((max(2, h // 4), max(2, w // 48)), 2, rng, 3)
        n = cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC)
        fine = smooth_noise((h, w), 4 * px_per_mm, rng, 2)
        t = (0.5 + 0.5 * np.sin(n * 9 + fine * 0.8)) ** 2 * 0.6
        img = base[None, None] * (1 - t[..., None]) + second[None, None] * t[..., None]
        img *= (1 + 0.06 * smooth_noise((h, w), 200 * px_per_mm, rng))[..., None]
        plank = max(4, int(120 * px_per_mm))
        for y in range(int(rng.integers(plank)), h, plank):
            img[y : y + max(1, int(px_per_mm)), :] *= 0.7
    elif style.kind == "felt":
        n = smooth_noise((h, w), 30 * px_per_mm, rng, 3)
        img = base[None, None] * (1 + 0.06 * n[..., None])
        img += rng.normal(0, 5, (h, w, 1)).astype(np.float32)
    elif style.kind == "linen":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        weave = 0.5 + 0.25 * np.sin(xx * 2.2 / max(px_per_mm, 0.3)) + 0.25 * np.sin(yy * 2.2 / max(px_per_mm, 0.3))
        img = base[None, None] * (1 - 0.1 * weave[..., None]) + second[None, None] * 0.1 * weave[..., None]
        img *= (1 + 0.05 * smooth_noise((h, w), 80 * px_per_mm, rng))[..., None]
    else:  # laminate: almost flat, a faint speckle
        img = base[None, None] * (1 + 0.03 * smooth_noise((h, w), 50 * px_per_mm, rng))[..., None]
        img = np.broadcast_to(img, (h, w, 3)).copy()
    return np.clip(img, 0, 255).astype(np.float32)
