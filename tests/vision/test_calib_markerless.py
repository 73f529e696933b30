"""Boards found again from their own print after a nudge (rendered: boards slid and turned on the table), kept
where they were under a hand, never moved when nothing moved, never taken for a neighbour."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.geometry import Lens
from calibration.markerless import (
    SEGMENTS,
    BoardAppearance,
    BoardTracker,
    _looks_moved,
    appearance_of,
    learn_appearance,
)
from vision.localise import BoardLocaliser
from vision.synthetic.hands import Hand
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer
from web_dashboard.vision_bench import random_view

TOLERANCE_PX = 1.5  # corner error allowed at 720p
LOOKS = {  # an oblique barrel-lens camera with noise, and a steep one over boards in two rows
    "oblique barrel": (1, Look.random(1, 1280, 720)),
    "steep, rows": (8, Look.random(8, 1280, 720, arrangement="rows")),
}


def empty(players: int) -> dict:
    board = {"pattern_lines": [[], [], [], [], []], "wall": [[None] * 5 for _ in range(5)], "floor": [],
             "score_marker": 0}
    return {"boards": [dict(board) for _ in range(players)], "factories": [{} for _ in range(2 * players + 1)],
            "center": {}, "first_player": False}


def nudged(renderer: Renderer, seed: int):
    """Every board slid 5-15 mm and turned up to 4 degrees."""
    rng = np.random.default_rng(seed)
    boards = []
    for b in renderer.home.boards:
        direction, distance = rng.uniform(0, 2 * math.pi), rng.uniform(5, 15)
        boards.append(b.moved(distance * math.cos(direction), distance * math.sin(direction),
                              math.radians(rng.uniform(-4, 4))))
    return tuple(boards)


def frame(renderer: Renderer, view: dict, hands=()) -> np.ndarray:
    return renderer.render(renderer.pieces(view), hands, shake=False).image


def corner_error(found, truth) -> float:
    return float(np.linalg.norm(np.asarray(found) - np.asarray(truth), axis=1).max())


@pytest.fixture(scope="module", params=list(LOOKS))
def table(request):
    seed, look = LOOKS[request.param]
    renderer = Renderer(4, "colored", look, seed)
    setup = frame(renderer, empty(4))
    return renderer, setup


def test_nudged_boards_are_found_again_within_a_pixel_and_a_half(table):
    renderer, setup = table
    localiser = BoardLocaliser(renderer.calibration(), setup)
    view = random_view(4, np.random.default_rng(5))  # play has gone on: tiles on every board
    assert localiser.update(frame(renderer, view)) == []
    renderer.move_boards(nudged(renderer, 3))
    truth = renderer.board_corners()
    reported = {}
    for _ in range(4):  # the scene must be still a couple of frames before a board is searched for
        reported.update(localiser.update(frame(renderer, view)))
    assert sorted(reported) == [0, 1, 2, 3]
    for i, corners in reported.items():
        assert corner_error(corners, truth[i]) <= TOLERANCE_PX
    assert localiser.update(frame(renderer, view)) == []  # found once, then steady
    renderer.move_boards(renderer.home.boards)


def test_nothing_moved_nothing_reported_while_tiles_come_and_hands_pass(table):
    renderer, setup = table
    localiser = BoardLocaliser(renderer.calibration(), setup)
    rng = np.random.default_rng(9)
    for k in range(12):
        view = random_view(4, rng)
        hands = (Hand(renderer.table.boards[k % 4].at(0.5, 0.5), renderer.table.seats[k % 4]),) if k % 3 else ()
        assert localiser.update(frame(renderer, view, hands)) == []
    assert sum(t.searches for t in localiser.trackers) <= 2


def test_a_hand_resting_on_a_board_keeps_its_last_pose(table):
    renderer, setup = table
    localiser = BoardLocaliser(renderer.calibration(), setup)
    before = localiser.corners
    board = renderer.table.boards[0]
    hand = Hand(board.at(0.45, 0.55), renderer.table.seats[0], lift_mm=20.0, spread=0.5)
    for _ in range(5):  # still for half a second
        assert localiser.update(frame(renderer, empty(4), (hand,))) == []
    np.testing.assert_allclose(localiser.corners[0], before[0])
    # Nudged under the hand: the last good pose stays until the board shows, then the new one.
    renderer.move_boards((board.moved(10.0, 4.0, math.radians(2.5)), *renderer.home.boards[1:]))
    for _ in range(3):
        localiser.update(frame(renderer, empty(4), (hand,)))
        found = localiser.corners[0]
        assert corner_error(found, before[0]) < 1e-6 or corner_error(found, renderer.board_corners()[0]) <= TOLERANCE_PX
    for _ in range(3):
        localiser.update(frame(renderer, empty(4)))
    assert corner_error(localiser.corners[0], renderer.board_corners()[0]) <= TOLERANCE_PX
    renderer.move_boards(renderer.home.boards)


def test_a_hidden_board_is_never_taken_for_its_neighbours_identical_print(table):
    renderer, setup = table
    localiser = BoardLocaliser(renderer.calibration(), setup)
    before = localiser.corners
    image = frame(renderer, empty(4))
    quad = np.round(before[0]).astype(int)
    x0, y0 = quad.min(axis=0) - 15
    x1, y1 = quad.max(axis=0) + 15
    image[max(0, y0):y1, max(0, x0):x1] = image[max(0, y0), max(0, x0)]  # a cloth over board 0
    for _ in range(4):
        assert all(i != 0 for i, _ in localiser.update(image))
    np.testing.assert_allclose(localiser.corners[0], before[0])


def test_the_learned_appearance_is_json_and_tracks_as_well_after_a_round_trip(table):
    renderer, setup = table
    profile = renderer.calibration()
    corners = profile.boards[1].corners
    saved = json.loads(json.dumps(learn_appearance(setup, corners).to_json()))
    tracker = BoardTracker(BoardAppearance.from_json(saved), corners)
    renderer.move_boards(nudged(renderer, 4))
    image = frame(renderer, empty(4))
    fit = tracker.relocalise(image)
    assert fit is not None
    tracker.pose = fit.pose
    assert corner_error(tracker.corners, renderer.board_corners()[1]) <= TOLERANCE_PX
    renderer.move_boards(renderer.home.boards)
    profile.learned["board_appearance"] = BoardLocaliser(profile, setup).learned_appearances()
    assert len(BoardLocaliser(profile).trackers) == 4  # no setup frame needed once saved


def test_with_a_calibrated_lens_the_pose_follows_the_bowed_image(table):
    renderer, setup = table
    camera = renderer.camera
    lens = Lens(camera.matrix, camera.distortion)
    corners = renderer.calibration().boards[2].corners
    tracker = BoardTracker(learn_appearance(setup, corners, lens=lens), corners, lens)
    renderer.move_boards(nudged(renderer, 6))
    fit = tracker.relocalise(frame(renderer, empty(4)))
    assert fit is not None
    tracker.pose = fit.pose
    assert corner_error(tracker.corners, renderer.board_corners()[2]) <= TOLERANCE_PX
    renderer.move_boards(renderer.home.boards)


def test_a_small_nudge_is_aligned_to_the_board_not_to_a_pose_beside_it():
    # Recorded tuning game 700 (2 players, colored), board 0 slid 8 mm and turned 1 degree under a hand, 0.4 s
    # after the hand left: its appearance learned at setup, its pose before the nudge, and the frame cropped round
    # it. Its sample points agree 0.85 there: a small move, so only a refinement is searched for. Aligned from that
    # pose alone it settled 10 px off at 0.95 agreement, and the board was read covered for the rest of the game.
    data = Path(__file__).parent / "data"
    state = json.loads((data / "nudged_board_700.json").read_text())
    image = cv2.imread(str(data / "nudged_board_700_frame.jpg"))
    template = cv2.imread(str(data / "nudged_board_700_template.png"), cv2.IMREAD_GRAYSCALE)
    offset = np.array(state["offset"], float)
    tracker = BoardTracker(appearance_of(template), np.array(state["calibrated"]) - offset)
    tracker.pose = np.array(state["pose"])
    truth = np.array(state["truth"]) - offset
    assert corner_error(tracker.corners, truth) > 10  # the nudge
    fit = tracker.refine(image, 0.85)
    assert fit is not None
    tracker.pose = fit.pose
    assert corner_error(tracker.corners, truth) <= TOLERANCE_PX


def test_a_side_without_sample_points_neither_shows_a_slide_nor_hides_one():
    # Four stretches a side, 10 points each; the bottom side (2) has none.
    stretches = np.concatenate([np.repeat(np.arange(side * SEGMENTS, (side + 1) * SEGMENTS), 10) for side in (0, 1, 3)])
    top = stretches // SEGMENTS == 0
    slid = top & (stretches % SEGMENTS > 0)  # the top side disagrees along 3 of its 4 stretches
    assert _looks_moved(slid, stretches)
    arm = top & (stretches % SEGMENTS == 1)  # an arm across one stretch of it
    assert not _looks_moved(arm, stretches)
