"""Art styles of the synthetic table: tile printings, board printings, table tops.

Colours are given in CIE L*a*b* (L 0-100), starting from BOARD-GEOMETRY.md's measurements of a real set, so that
the renderer reproduces the hard case of a real colored wall: printed spaces nearly as vivid as the tiles.
Several printings per kind exist because a recogniser tuned to one set collapses on another.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import cv2
import numpy as np

COLOURS = ("blue", "yellow", "red", "black", "white")
Lab = tuple[float, float, float]


def lab_to_bgr(lab: Lab) -> tuple[int, int, int]:
    """One L*a*b* colour as 8-bit BGR (OpenCV's float Lab takes L in 0..100)."""
    pixel = np.array([[lab]], dtype=np.float32)
    bgr = cv2.cvtColor(pixel, cv2.COLOR_Lab2BGR)[0, 0]
    return tuple(int(round(v)) for v in np.clip(bgr * 255, 0, 255))


@dataclass(frozen=True)
class TileStyle:
    name: str
    tile: dict[str, Lab]  # the resin's colour, per tile colour
    motif: dict[str, Lab]  # the motif printed on it
    motif_strength: dict[str, float]  # 0: plain, 1: fully opaque motif
    printed: dict[str, Lab]  # the colored wall's printed space of that colour
    bevel: float  # strength of the bevel's light and dark edges
    gloss: float  # strength of the glossy sheen and specular glints
    side_darkening: float  # the side faces against the top (resin is darker seen edge-on)
    motif_variant: int  # which drawing of the motifs (printings differ)


_CLASSIC_TILE = {
    "blue": (48, 3, -46), "yellow": (68, 26, 45), "red": (51, 48, 27), "black": (22, -1, -8), "white": (66, -11, -17),
}
_CLASSIC_MOTIF = {
    "blue": (58, -2, -38), "yellow": (48, 52, 34), "red": (44, 44, 24), "black": (52, -26, -10),
    "white": (30, 6, -30),
}
_CLASSIC_STRENGTH = {"blue": 0.25, "yellow": 0.7, "red": 0.2, "black": 0.85, "white": 0.85}
_CLASSIC_PRINT = {
    "blue": (51, 4, -30), "yellow": (68, 23, 37), "red": (58, 40, 22), "black": (23, 2, -4), "white": (70, -5, -9),
}


def _shift(palette: dict[str, Lab], dl: float, chroma: float) -> dict[str, Lab]:
    return {k: (min(95.0, lum + dl), a * chroma, b * chroma) for k, (lum, a, b) in palette.items()}


TILE_STYLES: Mapping[str, TileStyle] = MappingProxyType({
    style.name: style
    for style in (
        TileStyle("classic", _CLASSIC_TILE, _CLASSIC_MOTIF, _CLASSIC_STRENGTH, _CLASSIC_PRINT, 1.0, 1.0, 0.55, 0),
        TileStyle(
            "bright", _shift(_CLASSIC_TILE, 6, 1.15), _shift(_CLASSIC_MOTIF, 4, 1.1), _CLASSIC_STRENGTH,
            _shift(_CLASSIC_PRINT, 5, 1.1), 1.2, 1.3, 0.5, 1,
        ),
        TileStyle(
            "matte", _shift(_CLASSIC_TILE, -2, 0.85), _shift(_CLASSIC_MOTIF, 0, 0.85),
            {k: v * 0.8 for k, v in _CLASSIC_STRENGTH.items()}, _shift(_CLASSIC_PRINT, 0, 0.95), 0.7, 0.45, 0.62, 2,
        ),
    )
})


@dataclass(frozen=True)
class BoardStyle:
    name: str
    background: Lab  # the board's printed ground
    accent: Lab  # borders, arrows, frames
    cream: Lab  # pattern-line and score-track spaces
    floor: Lab  # floor-line spaces
    ink: Lab  # numbers and labels
    gray_space: Lab  # the gray wall side's spaces
    marble: float  # strength of the marble veining
    print_vividness: float  # 1: printed wall spaces as measured; less: a paler printing


BOARD_STYLES: Mapping[str, BoardStyle] = MappingProxyType({
    style.name: style
    for style in (
        BoardStyle("classic", (72, 2, 14), (42, -8, -26), (84, 4, 7), (87, 1, 2), (28, 2, 4), (62, 0, 2), 1.0, 1.0),
        BoardStyle("cool", (66, -3, -6), (36, 4, -34), (85, 1, 3), (88, 0, 0), (22, 0, -4), (58, -1, -3), 0.8, 0.92),
        BoardStyle("warm", (70, 9, 24), (45, 30, 36), (83, 6, 11), (86, 3, 5), (30, 8, 10), (64, 2, 5), 1.2, 1.05),
    )
})


@dataclass(frozen=True)
class TableStyle:
    name: str
    kind: str  # "wood", "laminate", "felt", "linen"
    base: Lab
    grain: Lab  # the second colour of its texture


TABLE_STYLES: Mapping[str, TableStyle] = MappingProxyType({
    style.name: style
    for style in (
        TableStyle("oak", "wood", (62, 10, 30), (50, 12, 30)),
        TableStyle("walnut", "wood", (36, 12, 20), (26, 10, 16)),
        TableStyle("white", "laminate", (86, 0, 3), (80, 0, 4)),
        TableStyle("green_felt", "felt", (40, -28, 10), (34, -24, 8)),
        TableStyle("grey_linen", "linen", (60, 0, -2), (52, 0, -2)),
    )
})


@dataclass(frozen=True)
class ArtStyle:
    """One physical set on one table: what the camera is looking at, before light and lens."""

    tiles: TileStyle
    board: BoardStyle
    table: TableStyle

    @property
    def key(self) -> str:
        return f"{self.tiles.name}/{self.board.name}/{self.table.name}"


def art_style(tiles: str = "classic", board: str = "classic", table: str = "oak") -> ArtStyle:
    for kind, name, known in (("tile", tiles, TILE_STYLES), ("board", board, BOARD_STYLES), ("table", table, TABLE_STYLES)):
        if name not in known:
            raise ValueError(f"unknown {kind} style {name!r}; known: {', '.join(known)}")
    return ArtStyle(TILE_STYLES[tiles], BOARD_STYLES[board], TABLE_STYLES[table])


def random_art_style(rng: np.random.Generator) -> ArtStyle:
    return art_style(
        str(rng.choice(list(TILE_STYLES))), str(rng.choice(list(BOARD_STYLES))), str(rng.choice(list(TABLE_STYLES)))
    )
