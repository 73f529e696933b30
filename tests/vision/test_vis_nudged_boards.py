"""The recogniser follows boards that players nudge: read at the old pose they would be misread."""

import math

import numpy as np

from vision.localise import LEARNED_KEY
from vision.recognizer import TableRecognizer
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer
from web_dashboard.vision_bench import empty_view, random_view, score_observation, setup_view, still_frames


def test_a_nudged_board_is_followed_and_read_right():
    from vision.setup import learn_setup

    renderer = Renderer(2, "colored", Look(noise_sigma=2.0, jpeg_quality=90), 17)
    rng = np.random.default_rng(17)
    profile = learn_setup(renderer.calibration(), still_frames(renderer, setup_view(2, rng)),
                          empty=still_frames(renderer, empty_view(2)))
    assert len(profile.learned[LEARNED_KEY]) == 2
    view = random_view(2, rng)
    renderer.move_boards((renderer.home.boards[0].moved(12.0, -8.0, math.radians(3.0)), *renderer.home.boards[1:]))
    frame = renderer.render(renderer.pieces(view), shake=False)

    stale = TableRecognizer(profile)
    stale.localiser = None  # as if nothing followed the boards
    missed = score_observation(stale.recognize(frame.image), view, frame.occluded)

    rec = TableRecognizer(profile)
    for _ in range(3):  # the board is searched for once the scene has been still a couple of frames
        obs = rec.recognize(frame.image)
        rec._previous = None
    truth = renderer.board_corners()[0]
    assert np.abs(rec.boards[0].geometry.to_image(np.array([[0.0, 0.0]]))[0] - truth[0]).max() < 1.5
    score = score_observation(obs, view, frame.occluded)
    assert missed.space_errors > 5
    assert score.space_errors == 0, score.errors
    # Followed, the board is evidence again: its margin ring, recorded anew at the new pose, says uncovered.
    assert not obs["boards"][0]["occluded"] and obs["boards"][0]["confidence"] > 0.5


def test_a_malformed_board_appearance_is_a_clear_error(plain_table):
    import pytest

    from calibration.profile import CalibrationProfile
    from vision.recognizer import FrameError

    p = plain_table.profile
    broken = CalibrationProfile(p.boards, p.factories, p.center, p.image_size, p.variant, p.camera,
                                {**p.learned, LEARNED_KEY: [{"template": "not a png"}] * 4})
    with pytest.raises(FrameError, match=LEARNED_KEY):
        TableRecognizer(broken)
