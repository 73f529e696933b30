"""Rings round regions: arms the colour of the table flag a display, other displays' tiles and single changed points
do not; single changed points on a board's margin do not flag it (tuning seeds < 10000; the bench's held-out views
are seeds from 10000)."""

import numpy as np

from vision.occlusion import _arc, _in_runs, _window_sum, _wrapped_sums, check_rings
from vision.recognizer import board_ring_order
from web_dashboard.vision_bench import bench_frame


def test_an_arc_across_both_circles_flags_and_scattered_points_do_not():
    quiet = np.full((2, 96), 2.0)
    arm = quiet.copy()
    arm[0, 10:22] = 10.0  # the arm crosses the inner circle a little off the outer one
    arm[1, 13:25] = 10.0
    assert _arc(arm.ravel(), 2) > 0
    speckled = quiet.copy()
    speckled[:, ::7] = 40.0  # noise and JPEG: single points far off, everywhere
    assert _arc(speckled.ravel(), 2) == 0
    inner_only = quiet.copy()
    inner_only[0, 30:50] = 20.0  # a tile's shadow on the inner circle only
    assert _arc(inner_only.ravel(), 2) == 0


def test_single_points_changed_round_a_display_do_not_flag_it():
    # Seed 20 (1280x720, walnut, no hand): 10 % of display 8's ring points changed past 16 delta E, one or two at
    # a time (JPEG blocks by the rim's edge); no arc.
    rec, _, frame = bench_frame(20, 2)
    assert not frame.occluded["factories"][8]
    check = rec.read(frame.image).factory_checks[8]
    assert not check.occluded


def test_an_arm_the_colour_of_the_table_by_a_display_flags_it():
    # Seed 23 (1920x1080, oak table, pale skin): an arm passes along display 0's bottom edge and covers 2 % of it;
    # its ring changed by 7-14 delta E over a fifth of both circles, no point past 16 but a JPEG speck or two.
    # The display read confidence 0.98.
    rec, _, frame = bench_frame(23, 1, hands=True)
    assert frame.occluded["factories"][0]
    display = rec.recognize(frame.image)["factories"][0]
    assert display["occluded"]
    assert display["confidence"] <= 0.2


def test_tiles_on_a_neighbouring_display_do_not_flag_a_display():
    # Seed 38 (1280x720, no hand): display 3's ring passes by a neighbouring display's edge, where red tiles' side faces and
    # shadows changed 13 of its 192 points.
    rec, _, frame = bench_frame(38, 3)
    assert not frame.occluded["factories"][3]
    assert not rec.recognize(frame.image)["factories"][3]["occluded"]


def test_board_ring_order_goes_round_the_board():
    order = board_ring_order(4)
    assert sorted(order) == list(range(16))
    # top left to right, right top to bottom, bottom right to left, left bottom to top (board_ring_grid's edges)
    assert list(order) == [0, 1, 2, 3, 4, 5, 6, 7, 11, 10, 9, 8, 15, 14, 13, 12]


def test_single_points_changed_on_a_boards_margin_do_not_flag_it():
    # Seed 2 (1280x720, no hand): 6 of board 3's 128 margin points changed past 16 delta E, no two side by side.
    rec, _, frame = bench_frame(2, 2)
    assert not frame.occluded["boards"][3]
    assert not rec.recognize(frame.image)["boards"][3]["occluded"]


def test_wrapped_sums_runs_and_windows_go_round_the_circle():
    rng = np.random.default_rng(0)
    hit = rng.random((2, 24)) < 0.4
    hit[0, [22, 23, 0]] = True  # a run of 3 across the seam
    hit[0, [21, 1]] = False
    n = hit.shape[1]
    for before, after in ((0, 2), (2, 0), (3, 3), (1, 4)):
        brute = [[sum(row[(i + o) % n] for o in range(-before, after + 1)) for i in range(n)] for row in hit]
        assert np.array_equal(_wrapped_sums(hit, before, after), brute)
    assert np.array_equal(_window_sum(hit, 2), _wrapped_sums(hit, 2, 2))
    for k in (2, 3, 4):
        brute = [[any(all(row[(s + o) % n] for o in range(k)) for s in range(i - k + 1, i + 1)) for i in range(n)]
                 for row in hit]
        assert np.array_equal(_in_runs(hit, k), brute)
    assert _in_runs(hit, 3)[0, [22, 23, 0]].all()


def test_boards_rings_checked_together_each_in_its_light_read_as_checked_alone():
    # The boards' margin rings go through check_rings together, each with its board's gain: each ring's check is
    # the one it makes alone (RingWatcher.check) in that light, whichever ring comes where.
    rec, _, frame = bench_frame(2, 2)
    rings = [b.ring for b in rec.boards]
    gains = [np.array([1.0, 1.0, 1.0], np.float32), None, np.array([1.4, 0.7, 1.1], np.float32),
             np.array([0.6, 1.3, 0.8], np.float32)]
    alone = [vars(ring.check(frame.image, gain)) for ring, gain in zip(rings, gains)]
    assert len({a["changed"] for a in alone}) > 1  # the gains make a difference: a ring checked in another's light would show
    for order in ([0, 1, 2, 3], [3, 2, 1, 0]):
        samples = np.stack([rings[k].sample(frame.image) for k in order])
        together = check_rings([rings[k] for k in order], samples, [gains[k] for k in order])
        assert [vars(c) for c in together] == [alone[k] for k in order]
