"""In the centre a tile is a square face: crescents of a colour round other tiles are no tiles."""

import cv2
import numpy as np

from calibration.colour_model import COLOURS
from vision.counting import RegionCounter, circle_grid

SIDE = 11.0
WHITE, BLACK = COLOURS.index("white"), COLOURS.index("black")


def _square(label: np.ndarray, colour: int, cx: float, cy: float, angle: float) -> None:
    box = cv2.boxPoints(((cx, cy), (SIDE, SIDE), angle))
    cv2.fillConvexPoly(label, np.round(box).astype(np.int32), colour)


def test_tiles_whose_motif_reads_as_another_colour_are_still_tiles_in_the_centre():
    grid, inside = circle_grid((300.0, 300.0), 300.0, 100)
    counter = RegionCounter(grid, inside, (600, 600), SIDE, allow_marker=True, capacity=100)
    label = np.full((100, 100), -1, np.int8)
    for k, angle in enumerate((0.0, 20.0, 45.0)):
        _square(label, WHITE, 25 + 20 * k, 50, angle)
        cv2.circle(label, (25 + 20 * k, 50), 2, BLACK, -1)  # the dark snowflake
    assert counter.count_labels(label[None], np.zeros(1))[0].counts == {"white": 3}


def test_rendered_oak_table_round_tiles_is_no_yellow_tile():
    # Tuning seed 8 (oak table, 1280x720, tilted 42 degrees): the table round the centre's tiles, blurred with
    # them, read yellow in crescents that filled a core: frames 0 and 1 read one yellow tile too many.
    from web_dashboard.vision_bench import bench_frames

    for rec, view, frame in bench_frames(8, 2):
        centre = rec.recognize(frame.image)["center"]
        assert {c: centre.get(c, 0) for c in COLOURS} == {c: view["center"].get(c, 0) for c in COLOURS}
