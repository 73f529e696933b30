"""The dials of a synthetic photograph: camera pose and lens, light, sensor, compression and art style.

A `Look` is fixed for a whole game (a camera on a stand does not move), except what varies frame to frame by
nature: sensor noise and the odd shaken, blurred frame. `Look.random(seed)` spreads every dial widely, because
what passes only on one look will not pass on a real table.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from vision.synthetic.styles import BOARD_STYLES, TABLE_STYLES, TILE_STYLES

RESOLUTIONS = ((640, 480), (1280, 720), (1920, 1080), (3840, 2160))


@dataclass(frozen=True)
class Look:
    width: int = 1280
    height: int = 720
    # Camera: distance from the aim point, tilt from straight down (0 = overhead, 45 = oblique), turn round the
    # table (0 = from the first player's side), roll about the view axis, and how much of the frame the table
    # fills (sets the focal length). k1 is the lens's radial distortion (negative: barrel).
    distance_mm: float = 1100.0
    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    roll_deg: float = 0.0
    fill: float = 0.92
    distortion_k1: float = 0.0
    aim_offset_mm: tuple[float, float] = (0.0, 0.0)
    # Table arrangement of the boards: "around" or "rows".
    arrangement: str = "around"
    # Light.
    colour_temp_k: float = 5000.0
    brightness: float = 1.0
    light_gradient: float = 0.15  # how much darker the far side of the table is
    light_angle_deg: float = 30.0  # direction of that gradient, image degrees
    vignette: float = 0.2
    glare: float = 0.3  # strength of the lamp's reflection (board print whitens, tiles gleam)
    light_azimuth_deg: float = 225.0  # where the key light comes from, seen from above (for shadows, bevels)
    light_elevation_deg: float = 55.0
    shadow_strength: float = 0.4
    # Sensor and compression.
    noise_sigma: float = 2.0
    defocus_px: float = 0.0  # at 720p; scaled with the resolution
    shake_probability: float = 0.05  # chance a frame is blurred by a bumped camera
    jpeg_quality: int | None = 90
    # The set and the table.
    tile_style: str = "classic"
    board_style: str = "classic"
    table_style: str = "oak"
    clutter: int = 3

    def __post_init__(self) -> None:
        if not (160 <= self.width <= 7680 and 120 <= self.height <= 4320):
            raise ValueError(f"resolution {self.width}x{self.height} is out of range")
        if not 0 <= self.tilt_deg <= 60:
            raise ValueError("tilt must be 0..60 degrees")
        for name, known in (("tile_style", TILE_STYLES), ("board_style", BOARD_STYLES), ("table_style", TABLE_STYLES)):
            if getattr(self, name) not in known:
                raise ValueError(f"unknown {name.replace('_', ' ')} {getattr(self, name)!r}; known: {', '.join(known)}")
        if self.arrangement not in ("around", "rows"):
            raise ValueError("arrangement must be 'around' or 'rows'")

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def with_size(self, width: int, height: int) -> Look:
        return replace(self, width=width, height=height)

    @staticmethod
    def random(seed: int, width: int | None = None, height: int | None = None, **fixed) -> Look:
        """A look with every dial drawn from its realistic range; `fixed` pins dials (e.g. tile_style)."""
        rng = np.random.default_rng(seed)
        if width is None or height is None:
            width, height = RESOLUTIONS[int(rng.choice(4, p=[0.25, 0.4, 0.25, 0.1]))]
        tilt = float(rng.choice([rng.uniform(0, 8), rng.uniform(8, 30), rng.uniform(30, 45)], p=[0.35, 0.35, 0.3]))
        values = dict(
            width=width,
            height=height,
            distance_mm=float(rng.uniform(800, 1600)),
            tilt_deg=tilt,
            yaw_deg=float(rng.choice([0.0, 90.0, 180.0, 270.0]) + rng.uniform(-25, 25)),
            roll_deg=float(rng.uniform(-12, 12)),
            fill=float(rng.uniform(0.8, 0.98)),
            distortion_k1=float(rng.choice([0.0, rng.uniform(-0.25, 0.08)], p=[0.3, 0.7])),
            aim_offset_mm=(float(rng.uniform(-30, 30)), float(rng.uniform(-30, 30))),
            arrangement=str(rng.choice(["around", "rows"], p=[0.7, 0.3])),
            colour_temp_k=float(rng.uniform(2700, 6500)),
            brightness=float(rng.uniform(0.7, 1.15)),
            light_gradient=float(rng.uniform(0, 0.45)),
            light_angle_deg=float(rng.uniform(0, 360)),
            vignette=float(rng.uniform(0, 0.5)),
            glare=float(rng.choice([rng.uniform(0, 0.2), rng.uniform(0.2, 1.0)], p=[0.5, 0.5])),
            light_azimuth_deg=float(rng.uniform(0, 360)),
            light_elevation_deg=float(rng.uniform(35, 80)),
            shadow_strength=float(rng.uniform(0.2, 0.6)),
            noise_sigma=float(rng.uniform(0.5, 7)),
            defocus_px=float(rng.choice([0.0, rng.uniform(0.3, 1.3)], p=[0.5, 0.5])),
            shake_probability=float(rng.uniform(0, 0.12)),
            jpeg_quality=int(rng.integers(55, 96)) if rng.random() < 0.85 else None,
            tile_style=str(rng.choice(list(TILE_STYLES))),
            board_style=str(rng.choice(list(BOARD_STYLES))),
            table_style=str(rng.choice(list(TABLE_STYLES))),
            clutter=int(rng.integers(0, 6)),
        )
        values.update(fixed)
        return Look(**values)


def colour_gains(temp_k: float) -> np.ndarray:
    """BGR gains of a light of this colour temperature after a camera's imperfect auto white balance."""
    t = (temp_k - 5000.0) / 2500.0  # -0.9 (warm lamp) .. +0.6 (daylight)
    residual = 0.55  # auto white balance removes about half the cast
    return np.array([1 + 0.28 * t * residual, 1 + 0.03 * t * residual, 1 - 0.25 * t * residual], np.float32)

