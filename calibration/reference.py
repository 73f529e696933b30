"""What each empty board looks like under this camera and light: the reference occupancy is measured against.

At setup every board is empty (the rules say so), so one frame then gives, per space, a small rectified patch of the
bare print. Patches are kept in board coordinates, so a board nudged later still compares space by space once its
new pose is known. Saved in the calibration profile under learned["boards"][i] as PNG strips (base64), small
enough to keep the file readable around them.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import GROUND, SCORE, BoardGeometry, Space, board_spaces
from calibration.profile import BoardLayout
from calibration.sampling import PatchSampler, space_grid

MAIN_PATCH = 16  # pixels per side of a pattern/wall/floor/ground patch
MAIN_SCALE = 1.25  # patches reach a little past the printed space: a tile's side faces and shadow fall there
SCORE_PATCH = 6
SCORE_SCALE = 1.0


@dataclass(frozen=True)
class BoardSpaces:
    """The sampled spaces of a board split into the main patches and the score track."""

    main: list[Space]  # pattern (15), wall (25), floor (7), ground (10)
    score: list[Space]  # 101

    @staticmethod
    def of(layout: BoardLayout) -> BoardSpaces:
        spaces = board_spaces(layout)
        return BoardSpaces([s for s in spaces if s.kind != SCORE], [s for s in spaces if s.kind == SCORE])

    def ground_slice(self) -> slice:
        first = next(i for i, s in enumerate(self.main) if s.kind == GROUND)
        return slice(first, len(self.main))


def board_samplers(geometry: BoardGeometry, spaces: BoardSpaces, frame_size) -> tuple[PatchSampler, PatchSampler]:
    main = PatchSampler(space_grid(geometry, spaces.main, MAIN_PATCH, MAIN_SCALE), frame_size)
    score = PatchSampler(space_grid(geometry, spaces.score, SCORE_PATCH, SCORE_SCALE), frame_size)
    return main, score


@dataclass
class BoardReference:
    main: np.ndarray  # (57, P, P, 3) uint8 BGR of the empty board's spaces
    score: np.ndarray  # (101, S, S, 3) uint8 BGR of the score track, marker at 0 or absent

    def to_json(self) -> dict:
        return {"main": _encode(self.main), "score": _encode(self.score), "patch": MAIN_PATCH,
                "score_patch": SCORE_PATCH}

    @staticmethod
    def from_json(data: dict) -> BoardReference:
        if data.get("patch") != MAIN_PATCH or data.get("score_patch") != SCORE_PATCH:
            raise ValueError("learned board reference was captured with other patch sizes; capture it again")
        return BoardReference(_decode(data["main"], MAIN_PATCH), _decode(data["score"], SCORE_PATCH))


def capture_reference(frame: np.ndarray, geometry: BoardGeometry, layout: BoardLayout) -> BoardReference:
    spaces = BoardSpaces.of(layout)
    size = (frame.shape[1], frame.shape[0])
    main, score = board_samplers(geometry, spaces, size)
    return BoardReference(main.sample(frame).copy(), score.sample(frame).copy())


def _encode(patches: np.ndarray) -> str:
    n, p = patches.shape[:2]
    ok, png = cv2.imencode(".png", patches.reshape(n * p, p, 3))
    if not ok:
        raise ValueError("could not encode the reference patches")
    return base64.b64encode(png.tobytes()).decode("ascii")


def _decode(text: str, p: int) -> np.ndarray:
    raw = np.frombuffer(base64.b64decode(text), np.uint8)
    img = cv2.imdecode(raw, cv2.IMREAD_COLOR)
    if img is None or img.shape[1] != p or img.shape[0] % p:
        raise ValueError("learned board reference is not a valid patch strip")
    return img.reshape(-1, p, p, 3)


def encode_image(img: np.ndarray) -> str:
    """A small uint8 BGR image as base64 PNG (rings, strips), for the profile's learned fields."""
    ok, png = cv2.imencode(".png", img)
    if not ok:
        raise ValueError("could not encode the image")
    return base64.b64encode(png.tobytes()).decode("ascii")


def decode_image(text: str) -> np.ndarray:
    raw = np.frombuffer(base64.b64decode(text), np.uint8)
    img = cv2.imdecode(raw, cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError("not a valid base64 PNG")
    return img
