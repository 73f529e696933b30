"""A white tile's side face, its white darkened, reads black: beside a white tile it is no black tile."""

import cv2
import numpy as np

from calibration.colour_model import COLOURS
from vision.counting import RegionCounter, circle_grid

SIDE = 11.0
WHITE, BLACK = COLOURS.index("white"), COLOURS.index("black")


def _counts(label: np.ndarray) -> dict:
    grid, inside = circle_grid((100.0, 100.0), 50.0, 40)
    return RegionCounter(grid, inside, (200, 200), SIDE).count_labels(label[None], np.zeros(1))[0].counts


def _tile(label: np.ndarray, colour: int, cx: float, cy: float) -> None:
    box = np.round(cv2.boxPoints(((cx, cy), (SIDE, SIDE), 0.0))).astype(np.int32)
    cv2.fillConvexPoly(label, box, colour)


def test_a_black_tile_beside_a_white_one_is_a_tile():
    label = np.full((40, 40), -1, np.int8)
    _tile(label, WHITE, 14, 20)
    _tile(label, BLACK, 26, 20)
    assert _counts(label) == {"white": 1, "black": 1}


def test_rendered_oblique_white_tiles_side_face_is_no_black_tile():
    # Tuning seed 8 (tilted 42 degrees), frame 1, display 2: two blue tiles and a white one, whose tall side face
    # read as a black tile (black 1).
    from web_dashboard.vision_bench import bench_frames

    view, seen = [(v, rec.recognize(f.image)["factories"][2]) for rec, v, f in bench_frames(8, 2)][-1]
    assert {c: seen.get(c, 0) for c in COLOURS} == {c: view["factories"][2].get(c, 0) for c in COLOURS} == {
        **dict.fromkeys(COLOURS, 0), "blue": 2, "white": 1}
