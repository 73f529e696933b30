"""The renderer: a table view + a look -> a BGR photograph of an Azul table, with the regions hands cover.

Per game (the camera is fixed) it draws once: the table top, placemats and clutter, the player boards and the
factory displays, warped into the camera; the light and lens maps. Per change of the pieces it draws the tiles
as bevelled boxes (side faces, top face with its motif, a soft shadow), painter's order far to near. Per frame it
adds hands, then light, lens, sensor noise, shake and JPEG. All drawing is OpenCV and numpy on small regions:
a 720p frame of a busy table costs tens of milliseconds.

Render space is an ideal pinhole image; the lens distortion is applied last (see camera.py).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.profile import BoardCalibration, CalibrationProfile, FactoryCalibration
from vision.synthetic import textures
from vision.synthetic.camera import Camera, posed_camera
from vision.synthetic.hands import Hand, draw_hand
from vision.synthetic.layout import (
    BOARD_MM,
    BOARD_THICKNESS_MM,
    DISC_RADIUS_MM,
    BoardPlace,
    Piece,
    PiecePlacer,
    TableLayout,
    table_layout,
)
from vision.synthetic.look import Look, colour_gains
from vision.synthetic.styles import COLOURS, art_style, lab_to_bgr

SHIFT = 4
ONE = 1 << SHIFT
OCCLUSION_THRESHOLD = 0.02  # a region counts as occluded when this share of it is hidden


@dataclass
class RenderedFrame:
    image: np.ndarray  # BGR uint8, the output size
    occluded: dict  # {"boards": [bool], "factories": [bool], "center": bool}
    occluded_fraction: dict  # the same shape, the hidden share of each region


@dataclass
class _Scene:
    key: tuple
    image: np.ndarray


def _pts(points) -> np.ndarray:
    return np.round(np.asarray(points, np.float64) * ONE).astype(np.int32)


def _affine_to_world(origin, ex, ey, scale) -> np.ndarray:
    """Texture pixels -> world mm: origin + px·scale·ex + py·scale·ey."""
    return np.array([
        [ex[0] * scale, ey[0] * scale, origin[0]],
        [ex[1] * scale, ey[1] * scale, origin[1]],
        [0, 0, 1],
    ])


@dataclass
class _Layers:
    table: np.ndarray  # the table top in render space, float32
    boards: list[np.ndarray]  # each board's printed face
    discs: list[tuple[np.ndarray, np.ndarray]]  # each factory display's texture and texture -> world map


@dataclass
class _Clutter:
    kind: str  # "cup", "box"
    x: float
    y: float
    size: tuple[float, float, float]  # cup: radius, height, unused; box: length, width, height
    angle: float
    colour: tuple[int, int, int]


class Renderer:
    """Renders one game's table: fixed set, table, camera and light; any table view on it."""

    def __init__(self, players: int, variant: str, look: Look, seed: int) -> None:
        if variant not in ("colored", "gray"):
            raise ValueError(f"variant must be 'colored' or 'gray', not {variant!r}")
        self.players = players
        self.variant = variant
        self.look = look
        self.seed = seed
        rng = np.random.default_rng([seed, 1])
        self.style = art_style(look.tile_style, look.board_style, look.table_style)
        self.table: TableLayout = table_layout(players, look.arrangement, rng)
        aim = np.array([*look.aim_offset_mm, 0.0])
        self.camera: Camera = posed_camera(
            look.size, aim, self.table.extent(), look.distance_mm, look.tilt_deg, look.yaw_deg, look.roll_deg,
            look.fill, look.distortion_k1,
        )
        self.placer = PiecePlacer(self.table, seed)
        az, el = math.radians(look.light_azimuth_deg), math.radians(look.light_elevation_deg)
        self.light_dir = np.array([math.cos(az), math.sin(az)])  # towards the key light, seen from above
        self.light_elevation = el
        # A point h mm up casts its shadow h·offset away from the light.
        self.light_offset = -self.light_dir / math.tan(el)
        self._sprites: dict[tuple[str, int], np.ndarray] = {}
        self._clutter = self._place_clutter(rng)
        self.home: TableLayout = self.table  # as set up (and calibrated); `table` is where the boards lie now
        self._layers = self._draw_layers(rng)
        self._base = self._draw_base()
        self._gain, self._glare = self._light_maps(rng)
        self._maps = self.camera.distortion_maps()
        self._regions = self._region_masks()
        self._clutter_mask = self._draw_clutter_mask()
        self._scene: _Scene | None = None
        self._noise_rng = np.random.default_rng([seed, 2])
        # Sensor noise: one seeded field per game, read at a fresh offset each frame (deterministic, and far
        # cheaper than drawing 3 normal variates per pixel per frame).
        self._noise = (np.random.default_rng([seed, 3]).standard_normal(
            (look.height + 32, look.width + 32, 3), dtype=np.float32) * look.noise_sigma).round().astype(np.int16)
        self._sprite_size = self._choose_sprite_size()

    # ---- the static table -------------------------------------------------------------------------------
    def _px_per_mm(self, x: float, y: float) -> float:
        pts = self.camera.project_render(np.array([[x, y, 0], [x + 10, y, 0], [x, y + 10, 0]]))
        return float(max(np.linalg.norm(pts[1] - pts[0]), np.linalg.norm(pts[2] - pts[0])) / 10)

    def _choose_sprite_size(self) -> int:
        px = max(self._px_per_mm(*b.centre) for b in self.table.boards) * BOARD_MM * 0.072
        return int(np.clip(2 ** math.ceil(math.log2(max(px * 1.5, 1))), 16, 128))

    def _warp_in(self, img: np.ndarray, texture: np.ndarray, tex_to_render: np.ndarray, alpha: np.ndarray | None) -> None:
        """Composite a texture (BGR or BGRA) into the render image through a homography, inside its bbox only."""
        th, tw = texture.shape[:2]
        corners = cv2.perspectiveTransform(
            np.array([[[0, 0], [tw, 0], [tw, th], [0, th]]], np.float64), tex_to_render
        )[0]
        h, w = img.shape[:2]
        x0, y0 = np.maximum(np.floor(corners.min(0)).astype(int) - 1, 0)
        x1, y1 = np.minimum(np.ceil(corners.max(0)).astype(int) + 2, (w, h))
        if x1 <= x0 or y1 <= y0:
            return
        m = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ tex_to_render
        size = (int(x1 - x0), int(y1 - y0))
        warped = cv2.warpPerspective(texture, m, size, flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        if texture.shape[2] == 4:
            a = warped[..., 3:4].astype(np.float32) / 255.0
            rgb = warped[..., :3].astype(np.float32)
        else:
            mask = alpha if alpha is not None else np.full((th, tw), 255, np.uint8)
            a = cv2.warpPerspective(mask, m, size, flags=cv2.INTER_LINEAR)[..., None].astype(np.float32) / 255.0
            rgb = warped.astype(np.float32)
        roi = img[y0:y1, x0:x1]
        roi *= 1 - a
        roi += rgb * a

    def _texture_size(self, world_width: float, centre) -> int:
        px = self._px_per_mm(*centre) * world_width
        return int(np.clip(math.ceil(px * 1.4 / 64) * 64, 128, 2048))

    def _place_clutter(self, rng: np.random.Generator) -> list[_Clutter]:
        """Cups, phones and dice in the free corners between the boards, never on a game part."""
        items: list[_Clutter] = []
        reach = max(max(abs(c) for b in self.table.boards for c in b.centre) + BOARD_MM * 0.5, 300)
        spots = [(sx * reach * 0.95, sy * reach * 0.95) for sx in (-1, 1) for sy in (-1, 1)]
        spots += [(sx * reach * 1.2, sy * reach * 0.45) for sx in (-1, 1) for sy in (-1, 1)]
        rng.shuffle(spots)
        for x, y in spots[: self.look.clutter]:
            kind = str(rng.choice(["cup", "cup", "box", "dice"]))
            x, y = x + rng.uniform(-30, 30), y + rng.uniform(-30, 30)
            if kind == "cup":
                colour = tuple(int(v) for v in rng.choice([(235, 235, 235), (60, 60, 170), (150, 100, 40), (40, 40, 40),
                                                           (90, 160, 200)]))
                item = _Clutter("cup", x, y, (float(rng.uniform(35, 45)), float(rng.uniform(70, 100)), 0), 0.0, colour)
            elif kind == "box":  # a phone or a small game box
                colour = tuple(int(v) for v in rng.choice([(25, 25, 25), (40, 40, 60), (30, 80, 160)]))
                item = _Clutter("box", x, y, (150.0, 72.0, 9.0), float(rng.uniform(0, math.pi)), colour)
            else:
                colour = tuple(int(v) for v in rng.choice([(240, 240, 240), (40, 40, 200), (40, 160, 40)]))
                item = _Clutter("box", x, y, (16.0, 16.0, 16.0), float(rng.uniform(0, math.pi)), colour)
            if self._clear_of_game(item):
                items.append(item)
        return items

    def _clear_of_game(self, item: _Clutter) -> bool:
        r = max(item.size[0], item.size[1]) * (1.0 if item.kind == "cup" else 0.75) + 15
        for b in self.table.boards:
            # Distance from the board's square: in its own frame.
            dx, dy = item.x - b.centre[0], item.y - b.centre[1]
            u = dx * b.right[0] + dy * b.right[1]
            v = dx * b.down[0] + dy * b.down[1]
            ou, ov = max(abs(u) - BOARD_MM / 2, 0), max(abs(v) - BOARD_MM * 0.62, 0)
            if math.hypot(ou, ov) < r:
                return False
        return all(math.hypot(item.x - fx, item.y - fy) > DISC_RADIUS_MM + r for fx, fy in self.table.factories)

    def _draw_layers(self, rng: np.random.Generator) -> _Layers:
        """What does not move when a board is nudged: the table top (with the flat clutter printed into it) in
        the camera, and the board and disc textures (drawn in this order, so a seed gives the same table)."""
        w, h = self.look.size
        h0 = self.camera.table_homography(0.0)
        # The table top: a canvas covering what the camera sees of the table plane.
        inv = np.linalg.inv(h0)
        corners = cv2.perspectiveTransform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), inv)[0]
        lo = np.clip(corners.min(0), -2500, 2500)
        hi = np.clip(corners.max(0), -2500, 2500)
        ppm = float(np.clip(self._px_per_mm(0, 0) * 1.2, 0.25, 3.0))
        cw, ch = (hi - lo) * ppm
        scale = min(1.0, 4000 / max(cw, ch))
        ppm *= scale
        cw, ch = int((hi[0] - lo[0]) * ppm) + 1, int((hi[1] - lo[1]) * ppm) + 1
        canvas = textures.table_texture(self.style.table, (ch, cw), ppm, rng)
        self._draw_flat_clutter(canvas, lo, ppm, rng)
        table = cv2.warpPerspective(canvas, h0 @ _affine_to_world(lo, (1, 0), (0, 1), 1 / ppm), (w, h),
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        boards = [textures.board_texture(self.style.board, self.style.tiles, self.variant,
                                         self._texture_size(BOARD_MM, b.centre), self.placer.layout, rng)
                  for b in self.table.boards]
        discs = []
        for fx, fy in self.table.factories:
            size = self._texture_size(2 * DISC_RADIUS_MM, (fx, fy))
            disc = textures.factory_disc(size, rng)
            turn = rng.uniform(0, 2 * math.pi)
            ex, ey = (math.cos(turn), math.sin(turn)), (-math.sin(turn), math.cos(turn))
            ox = fx - DISC_RADIUS_MM * (ex[0] + ey[0])
            oy = fy - DISC_RADIUS_MM * (ex[1] + ey[1])
            discs.append((disc, _affine_to_world((ox, oy), ex, ey, 2 * DISC_RADIUS_MM / size)))
        return _Layers(table, boards, discs)

    def _draw_base(self) -> np.ndarray:
        """The static table with the boards where they lie now: composed from the cached layers (tens of ms at
        720p, so a nudged board costs one recomposition, not a new table)."""
        w, h = self.look.size
        cam = self.camera
        img = self._layers.table.copy()

        # Soft contact shadows under the boards and discs.
        shadow = np.zeros((h, w), np.uint8)
        for b in self.table.boards:
            pts = cam.project_render(np.array([(*b.at(u, v), 0) for u, v in ((0, 0), (1, 0), (1, 1), (0, 1))])
                                     + np.array([*(self.light_offset * 6), 0]))
            cv2.fillConvexPoly(shadow, _pts(pts), 255, cv2.LINE_AA, SHIFT)
        for fx, fy in self.table.factories:
            ring = [(fx + DISC_RADIUS_MM * math.cos(t), fy + DISC_RADIUS_MM * math.sin(t), 0)
                    for t in np.linspace(0, 2 * math.pi, 24, endpoint=False)]
            cv2.fillConvexPoly(shadow, _pts(cam.project_render(np.array(ring) + np.array([*(self.light_offset * 4), 0]))),
                               255, cv2.LINE_AA, SHIFT)
        blur = max(1.5, self._px_per_mm(0, 0) * 3)
        shadow = cv2.GaussianBlur(shadow, (0, 0), blur)
        img *= (1 - 0.45 * shadow.astype(np.float32) / 255.0)[..., None]

        # Player boards: the cardboard edge, then the printed face.
        edge = np.array(lab_to_bgr((30, 4, 8)), np.float32)
        for b, tex in zip(self.table.boards, self._layers.boards):
            bottom = cam.project_render(np.array([(*p, 0) for p in b.corners()]))
            top = cam.project_render(np.array([(*p, -BOARD_THICKNESS_MM) for p in b.corners()]))
            for i in range(4):
                j = (i + 1) % 4
                quad = np.array([bottom[i], bottom[j], top[j], top[i]])
                cv2.fillConvexPoly(img, _pts(quad), tuple(float(v) for v in edge), cv2.LINE_AA, SHIFT)
            tex_to_world = _affine_to_world(b.at(0, 0), b.right, b.down, BOARD_MM / tex.shape[0])
            self._warp_in(img, tex, cam.table_homography(BOARD_THICKNESS_MM) @ tex_to_world, None)

        # Factory displays.
        for disc, tex_to_world in self._layers.discs:
            self._warp_in(img, disc, cam.table_homography(1.5) @ tex_to_world, None)

        for item in self._clutter:
            self._draw_clutter(img, item)
        return img

    def move_boards(self, boards: tuple[BoardPlace, ...]) -> None:
        """Put the boards where they lie now (a player nudged one): the base, the regions and the pieces on
        them follow. The calibration keeps the poses the table was set up with."""
        if tuple(boards) == self.table.boards:
            return
        self.table = dataclasses.replace(self.table, boards=tuple(boards))
        self.placer.table = self.table
        self._base = self._draw_base()
        self._regions = self._region_masks()
        self._scene = None

    def _draw_flat_clutter(self, canvas: np.ndarray, lo: np.ndarray, ppm: float, rng: np.random.Generator) -> None:
        """Placemats under the boards (sometimes) and a score pad: flat things printed into the table top."""
        def to_px(x, y):
            return ((x - lo[0]) * ppm, (y - lo[1]) * ppm)

        if rng.random() < 0.5:
            colour = np.array(lab_to_bgr(tuple(rng.choice([(45, 20, 20), (70, -5, -20), (80, 2, 15), (35, -10, 5)]))),
                              np.float32)
            for b in self.table.boards:
                m = rng.uniform(10, 25)
                turn = math.radians(rng.uniform(-5, 5))
                pts = []
                for u, v in ((-m, -m), (BOARD_MM + m, -m), (BOARD_MM + m, BOARD_MM + m * 2), (-m, BOARD_MM + m * 2)):
                    x, y = b.at(u / BOARD_MM, v / BOARD_MM)
                    dx, dy = x - b.centre[0], y - b.centre[1]
                    pts.append(to_px(b.centre[0] + dx * math.cos(turn) - dy * math.sin(turn),
                                     b.centre[1] + dx * math.sin(turn) + dy * math.cos(turn)))
                cv2.fillConvexPoly(canvas, _pts(pts), tuple(float(v) for v in colour), cv2.LINE_AA, SHIFT)
        if rng.random() < 0.6:
            # A score pad with ruled lines, off to one side.
            side = rng.choice([-1, 1])
            reach = max(abs(c) for b in self.table.boards for c in b.centre) + BOARD_MM * 0.5
            cx, cy = side * reach * 1.25, rng.uniform(-150, 150)
            turn = rng.uniform(-0.4, 0.4)
            c, s = math.cos(turn), math.sin(turn)
            corners = [(cx + c * u - s * v, cy + s * u + c * v) for u, v in ((-52, -74), (52, -74), (52, 74), (-52, 74))]
            cv2.fillConvexPoly(canvas, _pts([to_px(*p) for p in corners]), (235.0, 240.0, 242.0), cv2.LINE_AA, SHIFT)
            for k in range(1, 14):
                v = -74 + k * 10.5
                a = (cx + c * -48 - s * v, cy + s * -48 + c * v)
                b2 = (cx + c * 48 - s * v, cy + s * 48 + c * v)
                cv2.line(canvas, _pts(to_px(*a)), _pts(to_px(*b2)), (200.0, 170.0, 150.0), 1, cv2.LINE_AA, SHIFT)

    def _draw_clutter(self, img: np.ndarray, item: _Clutter) -> None:
        cam = self.camera
        colour = np.array(item.colour, np.float32)
        if item.kind == "cup":
            r, height = item.size[0], item.size[1]
            t = np.linspace(0, 2 * math.pi, 36, endpoint=False)
            ring = np.column_stack([item.x + r * np.cos(t), item.y + r * np.sin(t), np.zeros_like(t)])
            top = ring.copy()
            top[:, 2] = -height
            shadow = ring.copy()
            shadow[:, :2] += self.light_offset * height
            shadow_pts = np.vstack([cam.project_render(ring), cam.project_render(shadow)])
            mask = np.zeros(img.shape[:2], np.uint8)
            cv2.fillConvexPoly(mask, _pts(cv2.convexHull(shadow_pts.astype(np.float32))[:, 0]), 255, cv2.LINE_AA, SHIFT)
            mask = cv2.GaussianBlur(mask, (0, 0), max(2.0, self._px_per_mm(item.x, item.y) * 6))
            img *= (1 - self.look.shadow_strength * mask.astype(np.float32) / 255)[..., None]
            body = np.vstack([cam.project_render(ring), cam.project_render(top)])
            hull = cv2.convexHull(body.astype(np.float32))[:, 0]
            cv2.fillConvexPoly(img, _pts(hull), tuple(float(v) for v in colour * 0.85), cv2.LINE_AA, SHIFT)
            rim = cam.project_render(top)
            cv2.fillConvexPoly(img, _pts(rim), tuple(float(v) for v in np.minimum(colour * 1.1 + 15, 255)), cv2.LINE_AA, SHIFT)
            inner = top.copy()
            inner[:, :2] = (inner[:, :2] - [item.x, item.y]) * 0.88 + [item.x, item.y]
            inner[:, 2] = -height * 0.85
            cv2.fillConvexPoly(img, _pts(cam.project_render(inner)), (25.0, 45.0, 70.0), cv2.LINE_AA, SHIFT)
        else:
            length, width, height = item.size
            piece = Piece(f"solid:{item.colour[0]},{item.colour[1]},{item.colour[2]}", item.x, item.y, item.angle,
                          size=width, height=height, base=0.0)
            self._draw_pieces(img, [piece], stretch=length / width)

    def _draw_clutter_mask(self) -> np.ndarray:
        """Where the clutter hides the table (for the occlusion ground truth), at region-mask scale."""
        probe = np.zeros_like(self._base)
        for item in self._clutter:
            self._draw_clutter(probe, item)
        mask = np.zeros(self._base.shape[:2], np.uint8)
        empty = np.zeros_like(self._base)
        diff = np.abs(probe - empty).max(axis=2) > 8
        mask[diff] = 255
        return self._downscale(mask > 0)

    # ---- lighting ---------------------------------------------------------------------------------------
    def _light_maps(self, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        look = self.look
        w, h = look.size
        sw, sh = max(16, w // 8), max(12, h // 8)
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
        xx = xx / (sw - 1) - 0.5
        yy = yy / (sh - 1) - 0.5
        a = math.radians(look.light_angle_deg)
        gradient = 1 - look.light_gradient * (0.5 + (xx * math.cos(a) + yy * math.sin(a)))
        vignette = 1 - look.vignette * ((xx ** 2 + yy ** 2) / 0.5) ** 1.2
        # A lamp's pool of light somewhere on the table.
        px, py = rng.uniform(-0.3, 0.3, 2)
        pool = 1 + 0.15 * np.exp(-((xx - px) ** 2 + (yy - py) ** 2) / 0.08)
        gain = (gradient * vignette * pool * look.brightness).astype(np.float32)
        gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
        gains = colour_gains(look.colour_temp_k)
        gain3 = gain[..., None] * gains[None, None, :]
        # Glare: the lamp mirrored in the glossy table top and board print, elongated.
        gx, gy = rng.uniform(-0.35, 0.35, 2)
        ang = rng.uniform(0, math.pi)
        u = (xx - gx) * math.cos(ang) + (yy - gy) * math.sin(ang)
        v = -(xx - gx) * math.sin(ang) + (yy - gy) * math.cos(ang)
        spot = np.exp(-(u ** 2 / 0.02 + v ** 2 / 0.006)).astype(np.float32)
        glare = cv2.resize(spot * look.glare * 110, (w, h), interpolation=cv2.INTER_LINEAR)
        self._glare_small = spot * look.glare
        return gain3.astype(np.float32), np.repeat(glare[..., None], 3, axis=2).astype(np.float32)

    def _glare_at(self, x: float, y: float) -> float:
        sh, sw = self._glare_small.shape
        w, h = self.look.size
        i = int(np.clip(y / h * sh, 0, sh - 1))
        j = int(np.clip(x / w * sw, 0, sw - 1))
        return float(self._glare_small[i, j])

    # ---- regions (for occlusion truth and calibration) -------------------------------------------------------
    def _downscale(self, mask: np.ndarray) -> np.ndarray:
        h, w = mask.shape
        return cv2.resize(mask.astype(np.uint8), (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_NEAREST) > 0

    def _region_masks(self) -> dict:
        w, h = self.look.size
        cam = self.camera

        def poly_mask(world):
            m = np.zeros((h, w), np.uint8)
            cv2.fillPoly(m, [_pts(cam.project_render(np.asarray(world)))], 1, cv2.LINE_8, SHIFT)
            return self._downscale(m)

        boards = [poly_mask([(*p, 0) for p in b.corners()]) for b in self.table.boards]
        factories = []
        for fx, fy in self.table.factories:
            t = np.linspace(0, 2 * math.pi, 24, endpoint=False)
            factories.append(poly_mask(np.column_stack([fx + DISC_RADIUS_MM * np.cos(t), fy + DISC_RADIUS_MM * np.sin(t),
                                                        np.zeros_like(t)])))
        centre = poly_mask([(*p, 0) for p in self.table.centre_polygon()])
        return {"boards": boards, "factories": factories, "center": centre}

    def occlusion(self, hidden: np.ndarray) -> tuple[dict, dict]:
        """Which regions a hidden-pixels mask (render space, quarter scale) covers."""
        def frac(region):
            area = region.sum()
            return float((region & hidden).sum() / area) if area else 0.0

        fractions = {
            "boards": [frac(m) for m in self._regions["boards"]],
            "factories": [frac(m) for m in self._regions["factories"]],
            "center": frac(self._regions["center"]),
        }
        flags = {
            "boards": [f > OCCLUSION_THRESHOLD for f in fractions["boards"]],
            "factories": [f > OCCLUSION_THRESHOLD for f in fractions["factories"]],
            "center": fractions["center"] > OCCLUSION_THRESHOLD,
        }
        return flags, fractions

    # ---- pieces -----------------------------------------------------------------------------------------
    def _sprite(self, kind: str, size: int) -> np.ndarray:
        key = (kind, size)
        if key not in self._sprites:
            if kind in COLOURS:
                self._sprites[key] = textures.tile_top(self.style.tiles, kind, size)
            elif kind == "first_player":
                self._sprites[key] = textures.marker_top(size)
            elif kind == "cube":
                self._sprites[key] = textures.cube_top(size)
            else:
                raise ValueError(f"no sprite for {kind!r}")
        return self._sprites[key]

    def _base_colour(self, kind: str) -> np.ndarray:
        if kind in COLOURS:
            return np.array(lab_to_bgr(self.style.tiles.tile[kind]), np.float32) * self.style.tiles.side_darkening
        if kind == "first_player":
            return np.array(lab_to_bgr((80, 2, 10)), np.float32)
        if kind == "cube":
            return np.array((30, 28, 28), np.float32)
        return np.array([float(v) for v in kind.split(":")[1].split(",")], np.float32)

    def _corners(self, pieces: list[Piece], stretch: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """World corners (N,4,3) of the bottoms and tops of the pieces, in local order TL, TR, BR, BL."""
        n = len(pieces)
        local = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], np.float64)
        local[:, 0] *= stretch
        half = np.array([p.size / 2 for p in pieces])
        ang = np.array([p.angle for p in pieces])
        c, s = np.cos(ang)[:, None], np.sin(ang)[:, None]
        lx, ly = local[None, :, 0] * half[:, None], local[None, :, 1] * half[:, None]
        xs = np.array([p.x for p in pieces])[:, None] + c * lx - s * ly
        ys = np.array([p.y for p in pieces])[:, None] + s * lx + c * ly
        zb = -np.array([p.base for p in pieces])[:, None] * np.ones((1, 4))
        zt = zb - np.array([p.height for p in pieces])[:, None]
        bottom = np.stack([xs, ys, zb], -1).reshape(n, 4, 3)
        top = np.stack([xs, ys, zt], -1).reshape(n, 4, 3)
        return bottom, top

    def _draw_pieces(self, img: np.ndarray, pieces: list[Piece], stretch: float = 1.0,
                     shadows: bool = True) -> None:
        if not pieces:
            return
        cam = self.camera
        h, w = img.shape[:2]
        bottom, top = self._corners(pieces, stretch)
        n = len(pieces)
        pb = cam.project_render(bottom.reshape(-1, 3)).reshape(n, 4, 2)
        pt = cam.project_render(top.reshape(-1, 3)).reshape(n, 4, 2)

        if shadows:
            mask = np.zeros((h, w), np.uint8)
            for i, p in enumerate(pieces):
                cast = top[i].copy()
                cast[:, :2] += self.light_offset * p.height
                cast[:, 2] = -p.base
                pts = np.vstack([pb[i], cam.project_render(cast)]).astype(np.float32)
                cv2.fillConvexPoly(mask, _pts(cv2.convexHull(pts)[:, 0]), 255, cv2.LINE_AA, SHIFT)
            tile_px = max(1.0, float(np.median(np.linalg.norm(pt[:, 1] - pt[:, 0], axis=1))))
            mask = cv2.GaussianBlur(mask, (0, 0), max(0.8, tile_px * 0.12))
            img *= (1 - self.look.shadow_strength * mask.astype(np.float32) / 255.0)[..., None]

        # Far to near, so nearer pieces hide farther ones.
        centres = np.array([(p.x, p.y, -p.base) for p in pieces])
        depth = np.linalg.norm(centres - cam.position, axis=1)
        normals = np.array([(0, -1), (1, 0), (0, 1), (-1, 0)], np.float64)
        cos_el = math.cos(self.light_elevation)
        for i in np.argsort(-depth):
            p = pieces[i]
            c, s = math.cos(p.angle), math.sin(p.angle)
            base = self._base_colour(p.kind)
            for f in range(4):
                nx, ny = c * normals[f, 0] - s * normals[f, 1], s * normals[f, 0] + c * normals[f, 1]
                g = (f + 1) % 4
                mid = (bottom[i, f] + bottom[i, g]) / 2
                to_cam = cam.position - mid
                if nx * to_cam[0] + ny * to_cam[1] <= 0:
                    continue
                lambert = max(0.0, nx * self.light_dir[0] + ny * self.light_dir[1]) * cos_el
                shade = 0.5 + 0.6 * lambert
                quad = np.array([pb[i, f], pb[i, g], pt[i, g], pt[i, f]])
                cv2.fillConvexPoly(img, _pts(quad), tuple(float(v) for v in base * shade), cv2.LINE_AA, SHIFT)
            if p.kind.startswith("solid:"):
                shade = 0.85 + 0.3 * math.sin(self.light_elevation)
                cv2.fillConvexPoly(img, _pts(pt[i]), tuple(float(v) for v in np.minimum(base * shade + 10, 255)),
                                   cv2.LINE_AA, SHIFT)
                continue
            self._draw_top(img, p, pt[i])

    def _draw_top(self, img: np.ndarray, piece: Piece, quad: np.ndarray) -> None:
        h, w = img.shape[:2]
        x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 1, (w, h))
        if x1 - x0 < 1 or y1 - y0 < 1:
            return
        size = self._sprite_size if piece.kind != "cube" else max(8, self._sprite_size // 2)
        sprite = self._sprite(piece.kind, size)
        # Turn the sprite so that its lit (top-left) corner faces the key light.
        c, s = math.cos(piece.angle), math.sin(piece.angle)
        dirs = [(c * lx - s * ly, s * lx + c * ly) for lx, ly in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        k = int(np.argmax([dx * self.light_dir[0] + dy * self.light_dir[1] for dx, dy in dirs]))
        dst = np.array([quad[(k + j) % 4] for j in range(4)], np.float32) - np.array([x0, y0], np.float32)
        src = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(sprite, m, (int(x1 - x0), int(y1 - y0)), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        a = warped[..., 3:4].astype(np.float32) / 255.0
        rgb = warped[..., :3].astype(np.float32)
        if piece.kind in COLOURS:
            # Glossy resin mirrors the lamp: tiles inside the glare gleam.
            gleam = self._glare_at((x0 + x1) / 2, (y0 + y1) / 2) * self.style.tiles.gloss
            if gleam > 0.02:
                rgb += 120 * gleam
        roi = img[y0:y1, x0:x1]
        roi *= 1 - a
        roi += rgb * a

    # ---- frames -----------------------------------------------------------------------------------------
    def pieces(self, view: dict, marker_holder: int | None = None, salt: int = 0) -> list[Piece]:
        return self.placer.pieces(view, marker_holder, salt)

    def scene(self, pieces: list[Piece]) -> np.ndarray:
        """The table with its pieces, render space, float32 (cached: frames often repeat a scene)."""
        key = tuple(pieces)
        if self._scene is None or self._scene.key != key:
            img = self._base.copy()
            self._draw_pieces(img, list(pieces))
            self._scene = _Scene(key, img)
        return self._scene.image

    def render(self, pieces: list[Piece], hands: tuple[Hand, ...] = (), shake: bool | None = None) -> RenderedFrame:
        """One photograph: the scene, hands over it, then light, lens, sensor and compression."""
        look = self.look
        img = np.clip(self.scene(pieces), 0, 255).astype(np.uint8)
        hidden = np.zeros(img.shape[:2], bool)
        for hand in hands:
            hidden |= draw_hand(img, self.camera, hand, self.light_offset, look.shadow_strength * 0.8, self._noise_rng)
        flags, fractions = self.occlusion(self._downscale(hidden) | self._clutter_mask)
        out = self._photograph(img, shake)
        return RenderedFrame(out, flags, fractions)

    def _photograph(self, img: np.ndarray, shake: bool | None) -> np.ndarray:
        look = self.look
        lit = img.astype(np.float32)
        lit *= self._gain
        lit += self._glare
        out = cv2.convertScaleAbs(lit)
        if self._maps is not None:
            out = cv2.remap(out, self._maps[0], self._maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        scale = look.height / 720
        if look.defocus_px > 0:
            out = cv2.GaussianBlur(out, (0, 0), look.defocus_px * scale)
        if shake is None:
            shake = self._noise_rng.random() < look.shake_probability
        if shake:
            length = int(self._noise_rng.uniform(3, 9) * scale) | 1
            kernel = np.zeros((length, length), np.float32)
            angle = self._noise_rng.uniform(0, math.pi)
            c = length // 2
            cv2.line(kernel, (int(c - math.cos(angle) * c), int(c - math.sin(angle) * c)),
                     (int(c + math.cos(angle) * c), int(c + math.sin(angle) * c)), 1.0, 1)
            out = cv2.filter2D(out, -1, kernel / kernel.sum())
        if look.noise_sigma > 0:
            dy, dx = self._noise_rng.integers(0, 33, 2)
            h, w = out.shape[:2]
            out = cv2.add(out, self._noise[dy : dy + h, dx : dx + w], dtype=cv2.CV_8U)
        if look.jpeg_quality is not None:
            ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(look.jpeg_quality)])
            out = cv2.imdecode(data, cv2.IMREAD_COLOR)
        return out

    # ---- what a person would measure -------------------------------------------------------------------
    def calibration(self) -> CalibrationProfile:
        """The calibration a person would write from a photograph of this table as it was set up: board corners
        (as each board is read), factory circles, the centre polygon, in output pixels. Nothing the person could
        not see; boards nudged since keep their set-up corners here."""
        cam = self.camera
        boards = [BoardCalibration(tuple(map(tuple, corners))) for corners in self.board_corners(self.home)]
        factories = []
        for fx, fy in self.table.factories:
            t = np.linspace(0, 2 * math.pi, 32, endpoint=False)
            rim = cam.project(np.column_stack([fx + DISC_RADIUS_MM * np.cos(t), fy + DISC_RADIUS_MM * np.sin(t),
                                               np.full_like(t, -1.5)]))
            centre = cam.project(np.array([[fx, fy, -1.5]]))[0]
            # A person would draw the circle that best covers the (elliptical) disc they see.
            radius = float(np.mean(np.linalg.norm(rim - centre, axis=1)))
            factories.append(FactoryCalibration((float(centre[0]), float(centre[1])), radius))
        centre_poly = [tuple(map(float, p)) for p in cam.project(np.array([(*p, 0) for p in self.table.centre_polygon(8)]))]
        return CalibrationProfile(boards, factories, centre_poly, image_size=self.look.size, variant=self.variant)

    def board_corners(self, table: TableLayout | None = None) -> list[np.ndarray]:
        """Each board's top corners (TL, TR, BR, BL as read) in output pixels, where the boards lie now (or in
        `table`)."""
        return [self.camera.project(np.array([(*p, -BOARD_THICKNESS_MM) for p in b.corners()]))
                for b in (table or self.table).boards]

    def project_board_point(self, player: int, u: float, v: float, height_mm: float = BOARD_THICKNESS_MM) -> np.ndarray:
        """Output-image pixel of a point on a board given in board fractions (for tests and truth checks)."""
        x, y = self.table.boards[player].at(u, v)
        return self.camera.project(np.array([[x, y, -height_mm]]))[0]

    def project_world(self, points: np.ndarray) -> np.ndarray:
        return self.camera.project(points)

