"""Fingers the colour of the table over the centre's edge change its ring along an arc, under the delta E a point
needs, and leave change inside that no tile explains, under what flags the centre: both at once, the centre's count
is not reported sure (tuning seed 45: 2.8 % of the centre under fingertips, read confident 0.72)."""

import numpy as np

from vision.occlusion import RingWatcher, polygon_ring
from vision.recognizer import ARM_BY_THE_CENTRE_CONFIDENCE
from web_dashboard.vision_bench import bench_frames

TABLE = 160


def test_a_ring_whose_arcs_do_not_flag_it_still_measures_them():
    square = [(40.0, 40.0), (160.0, 40.0), (160.0, 160.0), (40.0, 160.0)]
    ring = RingWatcher(polygon_ring(square, 1.0), (200, 200), np.full((1, 128, 3), TABLE, np.uint8))
    frame = np.full((200, 200, 3), TABLE, np.uint8)
    assert ring.arc(frame, None) == 0
    frame[30:50, 60:110] = TABLE - 30  # a pale arm along the top edge: about 10 delta E over a stretch of the ring
    check = ring.check(frame, None)
    assert check.changed == 0 and not check.occluded
    assert ring.arc(frame, None) > 0


def _centre(index: int) -> tuple[bool, dict]:
    *_, (rec, view, frame) = bench_frames(45, index + 1, 4, None, True, "gray")
    return frame.occluded["center"], rec.recognize(frame.image)["center"]


def test_fingertips_over_the_centres_edge_leave_it_unsure():
    covered, centre = _centre(2)
    assert covered
    assert centre["occluded"] or centre["confidence"] <= ARM_BY_THE_CENTRE_CONFIDENCE


def test_a_hand_beside_the_centre_leaves_it_sure():
    # The frame before, no hand over the centre: its ring changed along an arc too, but little inside goes
    # unexplained (0.017).
    covered, centre = _centre(1)
    assert not covered
    assert not centre["occluded"] and centre["confidence"] > ARM_BY_THE_CENTRE_CONFIDENCE
