"""Counting tiles by colour inside a factory display or the centre of the table.

Each region is resampled once per frame onto a small canonical grid (one remap, maps built per calibration),
every pixel is labelled with the nearest colour class (the 5 tile colours, the first-player marker, and what lies
under the tiles: the disc's cream, rosette and rim, and the table as seen at setup), and each colour's tiles are
counted from the area of its connected components against the area one tile covers there (learned at setup,
when every display holds exactly 4 tiles). Area, not blob count: touching and slightly overlapping tiles of one
colour merge into one blob, and the area still says how many they are.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.colour_model import COLOURS, TILE_CLASSES, ColourModel
from calibration.sampling import PatchSampler
from vision.light import to_lab
from vision.occlusion import GLARE_LEVEL

FACTORY_GRID = 40  # canonical pixels across a factory display's diameter
BACKGROUND_SIGMA = 9.0  # spread of the non-tile colours, L*a*b* units
MIN_COMPONENT = 0.3  # blobs smaller than this share of a tile are noise (a glint, a motif fragment)
SIDE_SHADE = np.array([0.55, 0.6, 0.6], np.float32)  # a side face against the top, per L*a*b* channel
OPEN_SHARE = 0.45  # opening width, as a share of a tile's side
MARKER_INDEX = TILE_CLASSES.index("first_player")


def circle_grid(center, radius: float, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(1, size, size, 2) image coordinates over a circle's bounding square, and the inside mask."""
    steps = ((np.arange(size) + 0.5) / size) * 2 - 1
    gx, gy = np.meshgrid(steps, steps)
    grid = np.stack([center[0] + gx * radius, center[1] + gy * radius], -1)
    inside = (gx ** 2 + gy ** 2) <= 0.84 ** 2  # keep off the orange rim (yellow-like) and the table beyond
    return grid[None], inside


def polygon_grid(polygon, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """(1, S, S, 2) image coordinates over a polygon's bounding square at `scale` canonical px per image px."""
    pts = np.asarray(polygon, np.float64)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    side = float(max(hi - lo))
    size = int(np.clip(round(side * scale), 8, 256))
    steps = (np.arange(size) + 0.5) / size * side
    gx, gy = np.meshgrid(lo[0] + steps, lo[1] + steps)
    grid = np.stack([gx, gy], -1)
    canon = ((pts - lo) / side * size).astype(np.float32)
    mask = np.zeros((size, size), np.uint8)
    cv2.fillPoly(mask, [np.round(canon * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    return grid[None], mask.astype(bool)


@dataclass
class RegionCount:
    counts: dict[str, int]
    confidence: float  # probability that every count is exactly right
    count_confidence: dict[str, float]  # per colour
    first_player: bool
    first_player_p: float
    glare: float  # share of the region's pixels clipped by a reflection: what lies under them is unknown
    tile_pixels: float  # total tile-class area in canonical pixels (for learning the tile area)
    samples: np.ndarray  # (K, 3) Lab of confidently labelled tile pixels' blobs (for adapting the model)


class RegionCounter:
    """Counts N same-sized regions at once (all factory displays: one remap, one colour conversion, one
    connected-components pass per colour over the stacked grids). `tile_area` is one tile's area in canonical
    pixels (learned at setup), per region or shared."""

    def __init__(self, grid: np.ndarray, inside: np.ndarray, frame_size, tile_area,
                 table_lab: np.ndarray | None = None, allow_marker: bool = False) -> None:
        self.sampler = PatchSampler(grid, frame_size)
        self.regions, self.size = grid.shape[0], grid.shape[1]
        self.inside = np.broadcast_to(inside, grid.shape[:3]).copy()
        self.tile_area = np.broadcast_to(np.asarray(tile_area, np.float64), (self.regions,)).copy()
        self.table_lab = table_lab if table_lab is not None else np.zeros((0, 3), np.float32)
        self.allow_marker = allow_marker
        self._lut: np.ndarray | None = None
        self._lut_key: tuple | None = None

    def sample(self, frame: np.ndarray) -> np.ndarray:
        """(N, G, G, 3) BGR, median-filtered: the motifs' thin strokes and the sensor noise off the colours."""
        patches = self.sampler.sample(frame)
        strip = cv2.medianBlur(patches.reshape(self.regions * self.size, self.size, 3), 3)
        return strip.reshape(patches.shape)

    def classify(self, frame: np.ndarray, model: ColourModel, gain: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Per canonical pixel: class index (TILE_CLASSES; background = -1), (N, G, G), and its Lab."""
        patches = self.sample(frame)
        lab = to_lab(patches, gain)
        label = _classify_lab(lab.reshape(-1, 3), model, self._background(model), self._classes())
        label = label.reshape(self.inside.shape)
        label[~self.inside] = -1
        return label, lab

    def classify_fast(self, frame: np.ndarray, model: ColourModel,
                      gain: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """As classify, through a colour lookup table (32 levels per BGR channel) rebuilt only when the model
        or the light changes: the per-pixel Gaussian scores cost more than the whole rest of a frame. Also
        each region's share of clipped pixels (glare)."""
        # The light's gain wobbles a little frame to frame; steps of 4 % keep the table from being rebuilt each
        # frame (a rebuild costs about two frames) while staying well inside the colour classes' spread.
        step = None if gain is None else np.round(np.asarray(gain) * 25) / 25
        key = (id(model), model.means.tobytes(), None if step is None else tuple(step))
        if self._lut_key != key:
            self._lut = _lut(model, self._background(model), self._classes(), step)
            self._lut_key = key
        patches = self.sample(frame)
        q = patches >> 3
        index = (q[..., 0].astype(np.int32) << 10) | (q[..., 1].astype(np.int32) << 5) | q[..., 2]
        label = self._lut[index]
        label[~self.inside] = -1
        clipped = (patches.min(axis=-1) >= GLARE_LEVEL) & self.inside
        return label, clipped.sum(axis=(1, 2)) / self.inside.sum(axis=(1, 2))

    def _classes(self) -> int:
        return len(TILE_CLASSES) if self.allow_marker else len(COLOURS)

    def _background(self, model: ColourModel) -> np.ndarray:
        # A tile's side faces and its shadow are its colour darkened: without them as "not a tile" they read
        # as black tiles round every tile. Black's own are left out (its shadow is black enough already).
        shades = model.means[: len(COLOURS)].copy()
        shades = shades[[i for i, c in enumerate(COLOURS) if c != "black"]]
        shades *= SIDE_SHADE
        return np.concatenate([model.background, self.table_lab.astype(np.float32), shades], axis=0)

    @property
    def expected_tile_area(self) -> float:
        """One tile's area on a display's canonical grid from the set's proportions: a tile is 0.554 of a
        display's radius wide (0.072 vs 0.13 board widths, BOARD-GEOMETRY.md)."""
        return (0.554 * self.size / 2) ** 2

    def tile_mask(self, label: np.ndarray, colour: int) -> np.ndarray:
        """(N, G, G) pixels of one colour that belong to tile-sized shapes: an opening about half a tile wide
        removes thin things of that colour (the disc's rosette petals, a motif, an edge), not tiles. Regions
        are stacked into one strip; an opening never grows a mask, so blobs cannot cross between regions."""
        width = max(3, int(round(np.sqrt(float(np.median(self.tile_area))) * OPEN_SHARE)) | 1)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
        strip = (label == colour).astype(np.uint8).reshape(-1, self.size)
        return cv2.morphologyEx(strip, cv2.MORPH_OPEN, kernel).reshape(label.shape)

    def count(self, frame: np.ndarray, model: ColourModel, gain: np.ndarray | None) -> list[RegionCount]:
        label, glare = self.classify_fast(frame, model, gain)
        n_reg = self.regions
        counts = [dict() for _ in range(n_reg)]
        conf = [dict() for _ in range(n_reg)]
        total_tile = np.zeros(n_reg)
        for c, name in enumerate(COLOURS):
            mask = self.tile_mask(label, c).reshape(-1, self.size)
            n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
            tiles = np.zeros(n_reg, int)
            worst = np.zeros(n_reg)
            for k in range(1, n):
                region = int(stats[k, cv2.CC_STAT_TOP]) // self.size
                blob = stats[k, cv2.CC_STAT_AREA] / self.tile_area[region]
                if blob < MIN_COMPONENT:
                    continue
                k_tiles = max(1, int(round(blob)))
                tiles[region] += k_tiles
                # How far the blob's area sits from a whole number of tiles, relative to half a tile.
                worst[region] = max(worst[region], abs(blob - k_tiles) / (0.5 * max(1.0, np.sqrt(k_tiles))))
                total_tile[region] += stats[k, cv2.CC_STAT_AREA]
            for r in range(n_reg):
                if tiles[r]:
                    counts[r][name] = int(tiles[r])
                conf[r][name] = float(np.clip(1.0 - worst[r] ** 2, 0.05, 0.999))
        out = []
        for r in range(n_reg):
            marker_p = 0.0
            if self.allow_marker:
                marker_area = float(np.sum(label[r] == MARKER_INDEX)) / self.tile_area[r]
                marker_p = float(np.clip((marker_area - 0.35) / 0.4, 0.0, 1.0))
            confidence = float(np.prod(list(conf[r].values())))
            out.append(RegionCount(counts[r], confidence, conf[r], marker_p >= 0.5, marker_p, float(glare[r]),
                                   float(total_tile[r]), np.zeros((0, 3), np.float32)))
        return out


def _classify_lab(flat: np.ndarray, model: ColourModel, background: np.ndarray, classes: int) -> np.ndarray:
    tile_ll = model.log_likelihood(flat, classes)
    d = np.sum((flat[:, None] - background[None]) ** 2, axis=2) / BACKGROUND_SIGMA ** 2
    bg_ll = -0.5 * d.min(axis=1) - 3 * np.log(BACKGROUND_SIGMA)
    best = tile_ll.argmax(axis=1)
    return np.where(tile_ll.max(axis=1) > bg_ll, best, -1)


def _lut(model: ColourModel, background: np.ndarray, classes: int, gain: np.ndarray | None) -> np.ndarray:
    """(32768,) int8 class of every BGR colour quantised to 32 levels per channel (index b<<10 | g<<5 | r)."""
    levels = (np.arange(32, dtype=np.float32) * 8 + 4)
    b, g, r = np.meshgrid(levels, levels, levels, indexing="ij")
    bgr = np.stack([b, g, r], -1).reshape(-1, 1, 3)
    lab = to_lab(bgr.astype(np.float32), gain).reshape(-1, 3)
    return _classify_lab(lab, model, background, classes).astype(np.int8)
