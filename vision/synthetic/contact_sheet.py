"""Contact sheets of synthetic frames across the variation range (for docs/ and for eyeballing a change).

    python -m vision.synthetic.contact_sheet --out docs/synthetic-contact-sheet.jpg --seeds 1-12
    python -m vision.synthetic.contact_sheet --closeups docs/synthetic-closeups.jpg

Each cell is a mid-game position from a bot game, rendered with `Look.random(seed)` (any resolution from 640x480
to 4K, overhead to 45 degrees, every light and art style), shrunk to the cell, with its dials written under it.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import cv2
import numpy as np

from vision.synthetic.bots import play_to
from vision.synthetic.hands import SKIN_TONES, SLEEVES, Hand
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer


def sample_frame(seed: int, look: Look | None = None) -> tuple[np.ndarray, Look, str]:
    rng = random.Random(seed)
    players = rng.choice([2, 3, 4, 4])
    variant = rng.choice(["colored", "colored", "gray"])
    look = look or Look.random(seed)
    state = play_to(players, variant, seed, moves=rng.randrange(4, 60))
    renderer = Renderer(players, variant, look, seed)
    hands = ()
    if rng.random() < 0.5:
        p = rng.randrange(players)
        target = rng.choice(list(renderer.table.factories))
        hands = (Hand(target, renderer.table.seats[p], rng.choice(SKIN_TONES), rng.choice(SLEEVES),
                      spread=rng.random()),)
    frame = renderer.render(renderer.pieces(state.to_table()), hands)
    caption = (f"seed {seed}  {look.width}x{look.height}  {players}p {variant}  tilt {look.tilt_deg:.0f}  "
               f"roll {look.roll_deg:.0f}  {look.tile_style}/{look.board_style}/{look.table_style}")
    return frame.image, look, caption


def _cell(image: np.ndarray, caption: str, width: int, height: int) -> np.ndarray:
    h, w = image.shape[:2]
    scale = min(width / w, (height - 22) / h)
    small = cv2.resize(image, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
    cell = np.full((height, width, 3), 24, np.uint8)
    y0 = (height - 22 - small.shape[0]) // 2
    x0 = (width - small.shape[1]) // 2
    cell[y0 : y0 + small.shape[0], x0 : x0 + small.shape[1]] = small
    cv2.putText(cell, caption, (6, height - 7), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (225, 225, 225), 1, cv2.LINE_AA)
    return cell


def contact_sheet(seeds: list[int], columns: int = 3, cell: tuple[int, int] = (560, 340)) -> np.ndarray:
    cells = [_cell(*(lambda f: (f[0], f[2]))(sample_frame(s)), *cell) for s in seeds]
    rows = math.ceil(len(cells) / columns)
    while len(cells) < rows * columns:
        cells.append(np.full((cell[1], cell[0], 3), 24, np.uint8))
    return np.vstack([np.hstack(cells[r * columns : (r + 1) * columns]) for r in range(rows)])


def closeups(seed: int = 7) -> np.ndarray:
    """Crops at full resolution: how a 4K overhead and a 720p oblique frame show the tiles and the wall."""
    sheets = []
    for look in (
        Look.random(seed, 3840, 2160, tilt_deg=5.0, roll_deg=3.0, distortion_k1=-0.05, glare=0.6, defocus_px=0.0,
                    jpeg_quality=92, noise_sigma=2.0),
        Look.random(seed + 1, 1280, 720, tilt_deg=38.0, glare=0.4, jpeg_quality=80, noise_sigma=3.0),
    ):
        image, _, caption = sample_frame(seed, look)
        h, w = image.shape[:2]
        crop = image[h // 4 : h // 4 + h // 2, w // 4 : w // 4 + w // 2]
        sheets.append(_cell(crop, caption + "  (centre crop, 1:1 for 720p)", 1100, 640))
    return np.vstack(sheets)


def _seeds(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(s) for s in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="contact sheet image to write")
    parser.add_argument("--seeds", default="1-12")
    parser.add_argument("--closeups", help="close-up sheet image to write")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.out:
        cv2.imwrite(args.out, contact_sheet(_seeds(args.seeds)), [cv2.IMWRITE_JPEG_QUALITY, 88])
    if args.closeups:
        cv2.imwrite(args.closeups, closeups(), [cv2.IMWRITE_JPEG_QUALITY, 88])
    print(f"done in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
