"""The motion cue (a board's patches changing between frames) flags hands moving over a board, not the frame after
a hand left nor the frame after a shaken camera's blurred one (tuning seeds < 10000; the bench's held-out views are
from 10000)."""

import dataclasses

import numpy as np

from vision.synthetic.hands import SKIN_TONES, SLEEVES, Hand
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer
from web_dashboard.vision_bench import calibrated_recognizer, random_view


def _table(seed: int, players: int = 4):
    rng = np.random.default_rng([seed, 77])
    renderer = Renderer(players, "colored", Look.random(seed, 1280, 720), seed)
    rec = calibrated_recognizer(renderer, players, rng)
    pieces = renderer.pieces(random_view(players, rng))
    return renderer, rec, pieces


def _hand_over_board(renderer, board: int) -> Hand:
    return Hand(renderer.table.boards[board].at(0.5, 0.5), renderer.table.seats[board], SKIN_TONES[1], SLEEVES[0],
                60.0)


def test_a_board_is_evidence_in_the_frame_after_the_hand_left():
    # A hand over board 1 for three frames, then gone: the first frame without it differs from the last under it
    # by the hand (recorded tuning games 6 and 24: 80 and 139 board-frames flagged by motion alone 1-4 frames after
    # the hand left), not from the board before the hand came.
    renderer, rec, pieces = _table(2)
    for _ in range(2):
        rec.recognize(renderer.render(pieces, shake=False).image)
    hand = _hand_over_board(renderer, 1)
    under = [rec.recognize(renderer.render(pieces, hands=(hand,), shake=False).image)["boards"][1] for _ in range(3)]
    assert all(b["occluded"] for b in under)
    after = rec.recognize(renderer.render(pieces, shake=False).image)["boards"][1]
    assert not after["flags"]["motion"]
    assert not after["occluded"]


def test_the_frame_after_a_shaken_one_leaves_the_boards_evidence():
    # A bumped camera blurs one frame: every board's patches change, and change back in the next frame (recorded
    # tuning game 24: 266 board-frames flagged by motion alone, every clean board of the frame, half of them the
    # frame after). Seed 8: the frame after differs from the blurred one by 10.5-14.3 a board.
    renderer, rec, pieces = _table(8)
    for _ in range(2):
        rec.recognize(renderer.render(pieces, shake=False).image)
    rec.recognize(renderer.render(pieces, shake=True).image)
    after = rec.recognize(renderer.render(pieces, shake=False).image)
    assert not any(b["flags"]["motion"] for b in after["boards"])


def test_a_hand_moving_over_a_board_is_still_motion():
    # The board's quiet look is not taken while a hand is over it: a hand moving on over the board differs from
    # it as much as from the frame before.
    renderer, rec, pieces = _table(8)
    for _ in range(2):
        rec.recognize(renderer.render(pieces, shake=False).image)
    hand = _hand_over_board(renderer, 2)
    motion = []
    for mm in (0.0, 30.0, 60.0):
        motion.append(rec.read(renderer.render(pieces, hands=(_moved(hand, mm),), shake=False).image).motion[2])
    assert min(motion) > 12.0


def _moved(hand: Hand, mm: float) -> Hand:
    return dataclasses.replace(hand, target=(hand.target[0] + mm, hand.target[1]))
