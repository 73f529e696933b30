"""Players nudge their boards: the board slides and turns a little, its pieces move with it, the truth records
where every board lies now, and the calibration stays the one of the table as it was set up."""

from __future__ import annotations

import dataclasses
import itertools
import math

import cv2
import numpy as np

from vision.synthetic.animate import GameAnimation, Pace
from vision.synthetic.layout import BOARD_MM
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer

NUDGY = Pace(nudge_probability=1.0)  # every move bumps the board
CLEAN = Look(width=960, height=540, noise_sigma=0.0, jpeg_quality=None, glare=0.0, shake_probability=0.0,
             vignette=0.0, light_gradient=0.0, brightness=1.0, clutter=0, defocus_px=0.0)


def table(players: int = 2) -> dict:
    board = {"pattern_lines": [[], [], [], [], []], "wall": [[None] * 5 for _ in range(5)], "floor": [],
             "score_marker": 0}
    return {"boards": [dict(board) for _ in range(players)], "factories": [{} for _ in range(2 * players + 1)],
            "center": {}, "first_player": False}


def redness(image: np.ndarray, point, radius: int = 3) -> float:
    """a* (red-green) of the median round a point."""
    x, y = int(round(point[0])), int(round(point[1]))
    patch = image[y - radius : y + radius + 1, x - radius : x + radius + 1].reshape(-1, 3)
    lab = cv2.cvtColor(np.median(patch, axis=0).astype(np.uint8)[None, None], cv2.COLOR_BGR2Lab)[0, 0]
    return float(lab[1]) - 128


def small_look(seed: int) -> Look:
    return Look.random(seed, 400, 300, clutter=0)


def _script(seed: int, pace: Pace, shots: int) -> list:
    animation = GameAnimation(3, seed, look=small_look(seed), pace=pace)
    return list(itertools.islice(animation.shots(), shots)), animation


def test_nudges_stay_within_the_limits_and_never_change_the_game():
    (plain, a0), (nudged, a1) = _script(4, Pace(), 120), _script(4, NUDGY, 120)
    assert [s.event for s in plain] == [{k: v for k, v in s.event.items() if k != "nudge"} for s in nudged]
    assert a0.log == a1.log
    home = a1.renderer.home.boards
    assert sum(s.event.get("stage") == "done" and "nudge" in s.event for s in nudged) >= 5
    for shot in nudged:
        for place, start in zip(shot.boards, home):
            assert math.dist(place.centre, start.centre) <= 15.0 + 1e-9
            turn = math.degrees(abs(place.angle - start.angle))
            assert min(turn, 360 - turn) <= 4.0 + 1e-9
    # A board only moves while its player's hand is over it laying tiles.
    for before, after in zip(nudged, nudged[1:]):
        for p, (x, y) in enumerate(zip(before.boards, after.boards)):
            if x != y:
                assert after.event.get("stage") in ("place", "misplaced") and after.event["player"] == p
                assert after.hands


def test_the_truth_has_each_boards_corners_and_the_calibration_keeps_the_set_up_pose():
    pace = dataclasses.replace(NUDGY, reach=1, carry=1, place=1, still=1)
    animation = GameAnimation(2, 8, look=small_look(8), pace=pace)
    calibrated = np.array([b.corners for b in animation.renderer.calibration().boards])
    moved = False
    for frame in itertools.islice(animation.frames(), 40):
        corners = np.array(frame.truth["board_corners"])
        assert corners.shape == (2, 4, 2)
        moved |= bool(np.abs(corners - calibrated).max() > 2)
    assert moved
    np.testing.assert_allclose([b.corners for b in animation.renderer.calibration().boards], calibrated)


def test_the_same_seed_nudges_the_same_way():
    def run():
        animation = GameAnimation(2, 8, look=small_look(8), pace=NUDGY)
        return [(f.truth, f.image) for f in itertools.islice(animation.frames(), 30)]

    first, second = run(), run()
    assert [t for t, _ in first] == [t for t, _ in second]
    assert all(np.array_equal(a, b) for (_, a), (_, b) in zip(first, second))


def test_pieces_and_print_move_with_the_nudged_board():
    renderer = Renderer(2, "gray", CLEAN, seed=5)  # gray wall: a red tile stands out from its space
    view = table()
    view["boards"][0]["wall"] = [["red"] + [None] * 4] + [[None] * 5 for _ in range(4)]
    place = renderer.table.boards[0]
    shift = BOARD_MM * 0.05  # 13 mm: the tile's old place is now print, its new place shows the tile
    renderer.move_boards((place.moved(shift, 0.0, math.radians(3)), renderer.table.boards[1]))
    image = renderer.render(renderer.pieces(view)).image
    wall_u, wall_v = renderer.placer.layout.wall(0, 0)
    assert redness(image, renderer.project_board_point(0, wall_u, wall_v, 7.5)) > 25
    assert redness(image, renderer.camera.project(np.array([[*place.at(wall_u, wall_v), -2.0]]))[0]) < 10


def test_moving_the_boards_back_restores_the_set_up_frame():
    renderer = Renderer(2, "colored", CLEAN, seed=6)
    pieces = renderer.pieces(table())
    before = renderer.render(pieces, shake=False).image
    home = renderer.table.boards
    renderer.move_boards((home[0].moved(8.0, -5.0, 0.04), home[1]))
    assert not np.array_equal(renderer.render(renderer.pieces(table()), shake=False).image, before)
    renderer.move_boards(home)
    assert np.array_equal(renderer.render(renderer.pieces(table()), shake=False).image, before)
