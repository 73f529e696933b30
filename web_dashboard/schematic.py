"""The demo's stand-in camera until the synthetic table renderer lands: a schematic top-down drawing of the
table, one frame per tick, as a FrameSource.

It draws the *true* table (the simulated game) because it plays the part of a camera looking at it; nothing
that recognises anything ever reads from here. Frames are labelled "simulated" in the picture itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from vision.pacing import FramePacer

BGR = {
    "blue": (200, 110, 30), "yellow": (40, 190, 240), "red": (50, 50, 210), "black": (40, 40, 40),
    "white": (225, 225, 170), "first_player": (240, 240, 240),
}
WALL_PRINT = [["blue", "yellow", "red", "black", "white"][(c - r) % 5] for r in range(5) for c in range(5)]


@dataclass
class SchematicTable:
    """`table()` returns the table view dict (GameState.to_table()) to draw."""

    table: Callable[[], dict]
    fps: float = 12.0
    size: tuple[int, int] = (960, 600)
    name: str = "simulated table (schematic)"
    fail: Callable[[], bool] = lambda: False  # tests unplug the "camera" with this
    _pacer: FramePacer | None = None

    def open(self) -> bool:
        self._pacer = FramePacer(self.fps)
        return not self.fail()

    def close(self) -> None:
        pass

    def read(self) -> tuple[bool, np.ndarray | None, float]:
        self._pacer.wait()
        if self.fail():
            return False, None, time.time()
        return True, draw_table(self.table(), self.size), time.time()


def draw_table(table: dict, size: tuple[int, int]) -> np.ndarray:
    import cv2

    w, h = size
    img = np.full((h, w, 3), (70, 100, 140), np.uint8)  # wooden table
    boards = table["boards"]
    bw, bh = 300, 230
    spots = [(20, 20), (w - bw - 20, 20), (w - bw - 20, h - bh - 20), (20, h - bh - 20)]
    for board, (x, y) in zip(boards, spots):
        cv2.rectangle(img, (x, y), (x + bw, y + bh), (200, 225, 235), -1)
        cell = 26
        for r in range(5):
            for s in range(r + 1):
                cx, cy = x + 130 - s * (cell + 2), y + 30 + r * (cell + 4)
                tiles = board["pattern_lines"][r]
                colour = BGR[tiles[s]] if s < len(tiles) else (170, 200, 215)
                cv2.rectangle(img, (cx, cy), (cx + cell, cy + cell), colour, -1)
            for c in range(5):
                cx, cy = x + 160 + c * (cell + 2), y + 30 + r * (cell + 4)
                tile = board["wall"][r][c]
                printed = tuple(int(v * 0.45 + 120) for v in BGR[WALL_PRINT[r * 5 + c]])
                cv2.rectangle(img, (cx, cy), (cx + cell, cy + cell), BGR[tile] if tile else printed, -1)
        for i in range(7):
            cx, cy = x + 10 + i * 30, y + bh - 40
            item = board["floor"][i] if i < len(board["floor"]) else None
            cv2.rectangle(img, (cx, cy), (cx + 26, cy + 26), BGR[item] if item else (170, 200, 215), -1)
        cv2.putText(img, str(board["score_marker"]), (x + 8, y + 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 2)
    factories = table["factories"]
    cx0, cy0 = w // 2, h // 2
    for i, display in enumerate(factories):
        angle = 2 * np.pi * i / max(1, len(factories)) - np.pi / 2
        fx, fy = int(cx0 + 200 * np.cos(angle) * 0.9), int(cy0 + 170 * np.sin(angle) * 0.75)
        cv2.circle(img, (fx, fy), 34, (190, 215, 230), -1)
        cv2.circle(img, (fx, fy), 34, (40, 120, 230), 2)
        tiles = [c for c, n in display.items() for _ in range(n)]
        for k, colour in enumerate(tiles):
            tx, ty = fx - 24 + (k % 2) * 25, fy - 24 + (k // 2) * 25
            cv2.rectangle(img, (tx, ty), (tx + 22, ty + 22), BGR[colour], -1)
    tiles = [c for c, n in table["center"].items() for _ in range(n)]
    if table.get("first_player"):
        tiles.insert(0, "first_player")
    for k, colour in enumerate(tiles):
        tx, ty = cx0 - 60 + (k % 6) * 21, cy0 - 20 + (k // 6) * 21
        cv2.rectangle(img, (tx, ty), (tx + 19, ty + 19), BGR[colour], -1)
    cv2.putText(img, "SIMULATED TABLE", (w // 2 - 95, h - 12), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 2)
    return img
