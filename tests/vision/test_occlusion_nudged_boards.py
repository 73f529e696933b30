"""A board nudged towards a factory display moves its edge and shadow over the table ring round the display: once
the board has settled at its new pose the display is evidence again, and a hand over it is still flagged (tuning
seeds < 10000; the bench's held-out views are seeds from 10000)."""

import math

import numpy as np

from vision.synthetic.hands import SKIN_TONES, SLEEVES, Hand
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer
from web_dashboard.vision_bench import calibrated_recognizer, random_view


def _nudged_towards_display(seed: int, board: int, display: int, push_mm: float = 6.0):
    rng = np.random.default_rng([seed, 77])
    renderer = Renderer(4, "colored", Look.random(seed, 1280, 720), seed)
    rec = calibrated_recognizer(renderer, 4, rng)
    view = random_view(4, rng)
    pieces = renderer.pieces(view)
    rec.read(renderer.render(pieces, shake=False).image)
    place = renderer.table.boards[board]
    towards = np.subtract(renderer.table.factories[display], place.centre)
    dx, dy = towards / np.linalg.norm(towards) * push_mm
    boards = list(renderer.table.boards)
    boards[board] = place.moved(float(dx), float(dy), math.radians(1.0))
    renderer.move_boards(tuple(boards))
    return renderer, rec, pieces


def test_a_display_beside_a_nudged_board_is_evidence_once_the_board_settles():
    # Seed 1 (1280x720): board 2 slid 8 mm towards display 5 and turned 1 degree; its edge and contact shadow now
    # lie on the display's table ring, which read covered in every frame after (recorded games: tuning seed 24's
    # display 1 flagged in 716 of 1111 frames once board 2 was nudged beside it).
    renderer, rec, pieces = _nudged_towards_display(1, board=2, display=5)
    flags = [rec.recognize(renderer.render(pieces, shake=False).image)["factories"][5]["occluded"]
             for _ in range(4)]
    assert not flags[-1]
    assert not rec.boards[2].moved  # the board was re-aimed and has settled


def test_a_hand_over_that_display_is_still_flagged():
    # Hands reaching for display 5 from every seat, the nudged board's player's among them (its arm crosses the
    # ring points recorded again).
    renderer, rec, pieces = _nudged_towards_display(1, board=2, display=5)
    for _ in range(4):
        rec.recognize(renderer.render(pieces, shake=False).image)
    x, y = renderer.table.factories[5]
    flagged = []
    for k, seat in enumerate(renderer.table.seats):
        hand = Hand((x + 5.0, y - 5.0), seat, SKIN_TONES[k % len(SKIN_TONES)], SLEEVES[k % len(SLEEVES)], 60.0)
        frame = renderer.render(pieces, hands=(hand,), shake=False)
        assert frame.occluded["factories"][5]
        rec._previous = None
        flagged.append(rec.recognize(frame.image)["factories"][5]["occluded"])
    assert all(flagged)


def test_a_nudged_board_is_evidence_in_the_frame_it_is_found_again():
    # The frame the localiser re-aims board 2 its patches are sampled at the new pose, the previous frame's at the
    # old one: their difference is the move, not a hand (it read as motion, one frame more flagged after a nudge;
    # the board's ring and reader, at the new pose, say nothing is over it).
    renderer, rec, pieces = _nudged_towards_display(1, board=2, display=5)
    for _ in range(4):
        before = rec.boards[2].geometry.corners.copy()
        board = rec.recognize(renderer.render(pieces, shake=False).image)["boards"][2]
        if np.abs(rec.boards[2].geometry.corners - before).max() > 0:
            break
    else:
        raise AssertionError("board 2 was not found at its new pose")
    assert not board["flags"]["motion"]
    assert not board["occluded"]


def test_a_board_nudged_a_little_is_found_again_though_it_still_mostly_agrees():
    # Tuning seed 0 (1280x720): board 3 slid 6 mm and turned 1 degree still agrees with its old pose at 0.86 of the
    # localiser's points, over STEADY, so it was never searched for: its margin ring read covered in every frame.
    renderer, rec, pieces = _nudged_towards_display(0, board=3, display=8)
    before = rec.boards[3].geometry.corners.copy()
    boards = [rec.recognize(renderer.render(pieces, shake=False).image)["boards"][3] for _ in range(5)]
    truth = renderer.board_corners()[3]
    assert np.abs(rec.boards[3].geometry.corners - before).max() > 3.0
    assert np.linalg.norm(rec.boards[3].geometry.corners - truth, axis=1).max() < 1.0
    assert not boards[-1]["occluded"]


def test_a_ring_recorded_in_a_passing_shadow_is_recorded_again_once_two_frames_agree():
    # The frame a nudged board is found again in may be blurred or shaded (recorded games, tuning seed 6: a bumped
    # camera's frame; board 0 then read covered in 287 of its 400 frames left). Here the localiser re-aims board 2
    # in a frame where the leaving hand's shadow lies on 8 of its 128 ring points.
    rng = np.random.default_rng([1, 77])
    renderer = Renderer(4, "colored", Look.random(1, 1280, 720), 1)
    rec = calibrated_recognizer(renderer, 4, rng)
    clean = renderer.render(renderer.pieces(random_view(4, rng)), shake=False).image
    rec.read(clean)
    rec.set_board_corners(2, rec.boards[2].geometry.corners + 0.4)
    shaded = clean.copy()
    for x, y in rec.boards[2].ring.points[40:48].round().astype(int):
        shaded[y - 2:y + 3, x - 2:x + 3] = shaded[y - 2:y + 3, x - 2:x + 3] * 0.6
    covered = []
    for image in (shaded, clean, clean, clean):
        rec._previous = None
        covered.append(rec.recognize(image)["boards"][2]["flags"]["covered"])
    assert not covered[0]  # the ring as the board was found: evidence at once, as before
    assert not covered[-1]  # two like frames that are not like the record: recorded again
    assert not rec.boards[2].trial
