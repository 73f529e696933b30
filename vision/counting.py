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

FACTORY_GRID = 40  # canonical pixels across a factory display's diameter
BACKGROUND_SIGMA = 9.0  # spread of the non-tile colours, L*a*b* units
MIN_COMPONENT = 0.3  # blobs smaller than this share of a tile are noise (a glint, a motif fragment)
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
    unexplained: float  # share of the region's pixels like no class at all (a hand, a cup, glare)
    tile_pixels: float  # total tile-class area in canonical pixels (for learning the tile area)
    samples: np.ndarray  # (K, 3) Lab of confidently labelled tile pixels' blobs (for adapting the model)


class RegionCounter:
    """Counts one region. `tile_area` is one tile's area in canonical pixels (learned at setup)."""

    def __init__(self, grid: np.ndarray, inside: np.ndarray, frame_size, tile_area: float,
                 table_lab: np.ndarray | None = None, allow_marker: bool = False) -> None:
        self.sampler = PatchSampler(grid, frame_size)
        self.inside = inside
        self.tile_area = float(tile_area)
        self.table_lab = table_lab if table_lab is not None else np.zeros((0, 3), np.float32)
        self.allow_marker = allow_marker

    def classify(self, frame: np.ndarray, model: ColourModel, gain: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Per canonical pixel: class index (TILE_CLASSES, then background = -1) and its Lab."""
        patch = self.sampler.sample(frame)[0]
        # A median filter takes the motifs' thin strokes and the sensor noise off the colours.
        patch = cv2.medianBlur(patch, 3)
        lab = to_lab(patch, gain)
        flat = lab.reshape(-1, 3)
        classes = len(TILE_CLASSES) if self.allow_marker else len(COLOURS)
        tile_ll = model.log_likelihood(flat, classes)
        bg = np.concatenate([model.background, self.table_lab.astype(np.float32)], axis=0)
        d = np.sum((flat[:, None] - bg[None]) ** 2, axis=2) / BACKGROUND_SIGMA ** 2
        bg_ll = -0.5 * d.min(axis=1) - 3 * np.log(BACKGROUND_SIGMA)
        best = tile_ll.argmax(axis=1)
        label = np.where(tile_ll.max(axis=1) > bg_ll, best, -1).reshape(self.inside.shape)
        label[~self.inside] = -1
        return label, lab

    @property
    def expected_tile_area(self) -> float:
        """One tile's area on a display's canonical grid from the set's proportions: a tile is 0.554 of a
        display's radius wide (0.072 vs 0.13 board widths, BOARD-GEOMETRY.md)."""
        half = self.inside.shape[0] / 2
        return (0.554 * half) ** 2

    def tile_mask(self, label: np.ndarray, colour: int) -> np.ndarray:
        """Pixels of one colour that belong to tile-sized shapes: an opening as wide as a third of a tile removes
        thin things of the same colour (the disc's rosette petals, a motif, an edge), not tiles."""
        width = max(3, int(round(np.sqrt(self.tile_area) * OPEN_SHARE)) | 1)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
        return cv2.morphologyEx((label == colour).astype(np.uint8), cv2.MORPH_OPEN, kernel)

    def count(self, frame: np.ndarray, model: ColourModel, gain: np.ndarray | None) -> RegionCount:
        label, lab = self.classify(frame, model, gain)
        area = self.tile_area
        counts: dict[str, int] = {}
        conf: dict[str, float] = {}
        samples = []
        total_tile = 0.0
        for c, name in enumerate(COLOURS):
            mask = self.tile_mask(label, c)
            n, comp, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
            tiles = 0
            worst = 0.0
            for k in range(1, n):
                blob = stats[k, cv2.CC_STAT_AREA] / area
                if blob < MIN_COMPONENT:
                    continue
                k_tiles = max(1, int(round(blob)))
                tiles += k_tiles
                # How far the blob's area sits from a whole number of tiles, relative to half a tile.
                worst = max(worst, abs(blob - k_tiles) / (0.5 * max(1.0, np.sqrt(k_tiles))))
                samples.append(np.median(lab[comp == k], axis=0))
                total_tile += stats[k, cv2.CC_STAT_AREA]
            if tiles:
                counts[name] = tiles
            conf[name] = float(np.clip(1.0 - worst ** 2, 0.05, 0.999))
        marker_p = 0.0
        if self.allow_marker:
            marker_area = float(np.sum(label == MARKER_INDEX)) / area
            marker_p = float(np.clip((marker_area - 0.35) / 0.4, 0.0, 1.0))
        confidence = float(np.prod(list(conf.values())))
        return RegionCount(counts, confidence, conf, marker_p >= 0.5, marker_p, 0.0, total_tile,
                           np.array(samples, np.float32).reshape(-1, 3))
