"""Board tiles judged in the light of the board's own print (seeds < 1000; the bench measures on others)."""

import numpy as np
import pytest

from calibration.colour_model import PRINT_LIT, TILE_CLASSES, ColourModel
from calibration.geometry import FLOOR, PATTERN, SCORE, WALL, board_spaces
from calibration.profile import DEFAULT_LAYOUT
from vision import board_reader
from vision.board_reader import ANY_WALL_WEIGHTS, WALL_WEIGHTS
from vision.light import print_gains
from vision.recognizer import TableRecognizer
from vision.setup import learn_setup
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer
from web_dashboard.vision_bench import (
    calibrated_recognizer,
    empty_view,
    random_view,
    score_observation,
    setup_view,
    still_frames,
)


def test_print_gains_undo_a_coloured_light_that_falls_off_across_the_board():
    spaces = [s for s in board_spaces(DEFAULT_LAYOUT) if s.kind != SCORE]
    uv = np.array([(s.u, s.v) for s in spaces])
    cream = np.array([s.kind in (PATTERN, FLOOR) for s in spaces])
    # A warm lamp, darker to the right and towards the bottom (per BGR channel).
    light = np.exp(np.array([-0.5, -0.3, -0.1]) - 0.4 * uv[:, :1] - 0.2 * uv[:, 1:])
    target = np.full((len(spaces), 3), 200.0)
    printed = np.where(cream[:, None], target, np.array([60.0, 120.0, 180.0]))  # the wall prints its own colours
    gains = print_gains(printed * light - 1.0, target, cream, uv)
    assert np.allclose(gains * light, 1.0, atol=0.01)


def test_the_print_lit_model_names_its_own_means():
    assert list(PRINT_LIT.probabilities(PRINT_LIT.means).argmax(axis=1)) == list(range(len(TILE_CLASSES)))


def _line_and_floor_errors(seed: int, look: Look, frames: int = 2) -> list:
    """Pattern-line and floor errors of a rendered 4-player table calibrated on its own setup frames."""
    renderer = Renderer(4, "colored", look, seed)
    rng = np.random.default_rng([seed, 5])
    rec = calibrated_recognizer(renderer, 4, rng)
    errors = []
    for k in range(frames):
        view = random_view(4, rng)
        frame = renderer.render(renderer.pieces(view, salt=k), shake=False)
        rec._previous = None
        score = score_observation(rec.recognize(frame.image), view, frame.occluded)
        errors += [e for e in score.errors if e[0] == "board" and e[2] != "wall"]
    return errors


@pytest.mark.parametrize("look", [
    Look(tile_style="matte", colour_temp_k=2800, brightness=0.8, light_gradient=0.35, noise_sigma=3.0),
    Look(tile_style="bright", colour_temp_k=6500, vignette=0.45, tilt_deg=30, noise_sigma=3.0),
], ids=["matte-warm-lamp", "bright-daylight-oblique"])
def test_board_colours_read_right_under_a_cast_and_a_fall_off(look):
    assert _line_and_floor_errors(31, look) == []


def test_taking_the_lamps_glare_off_saves_tiles_in_it(monkeypatch):
    look = Look(glare=0.8, brightness=0.85, noise_sigma=2.0)
    with_glare = sum(len(_line_and_floor_errors(seed, look, 3)) for seed in (36, 37))
    monkeypatch.setattr(board_reader, "GLARE_STEPS", np.zeros(1, np.float32))
    without = sum(len(_line_and_floor_errors(seed, look, 3)) for seed in (36, 37))
    # Measured 13 against 20 when written: glare strong enough to whiten a board is still the hardest light.
    assert with_glare <= 0.75 * without


def test_the_colored_wall_is_told_from_the_gray_by_its_print():
    for variant, expected in (("colored", WALL_WEIGHTS[[(c - r) % 5 for r in range(5) for c in range(5)]]),
                              ("gray", np.tile(ANY_WALL_WEIGHTS, (25, 1)))):
        renderer = Renderer(2, variant, Look(), 5)
        profile = learn_setup(renderer.calibration(), still_frames(renderer, setup_view(2, np.random.default_rng(5))),
                              empty=still_frames(renderer, empty_view(2)))
        reader = TableRecognizer(profile).boards[0].reader
        assert np.array_equal(reader.occupancy_weights[reader.kind == WALL], expected), variant


def test_the_occupancy_inputs_are_what_the_reading_weighs():
    renderer = Renderer(2, "colored", Look(), 6)
    rng = np.random.default_rng(6)
    profile = learn_setup(renderer.calibration(), still_frames(renderer, setup_view(2, rng)),
                          empty=still_frames(renderer, empty_view(2)))
    board = TableRecognizer(profile).boards[0]
    frame = renderer.render(renderer.pieces(random_view(2, rng)), shake=False).image
    main = board.main.sample(frame)
    reading = board.reader.read(main, board.score.sample(frame), ColourModel.default(), 0.0)
    inputs = board.reader.occupancy_inputs(main)
    assert inputs.shape[1] == board.reader.occupancy_weights.shape[1] - 1
    first = board_reader._logistic(inputs, board.reader.occupancy_weights)
    context = board.reader.context_inputs(main)
    assert context.shape[1] == board.reader.context_weights.shape[1] - 1
    # The second reading takes the first's log-odds among its inputs.
    assert np.allclose(context[:, 4], np.log(first + 1e-4) - np.log(1 - first + 1e-4), atol=1e-3)
    # A colored wall's spaces are read a third time, once the tiles' colours are known (_exemplar_likeness).
    again = board.reader.print_colour >= 0
    assert again.sum() == 25
    occupancy = board_reader._logistic(context, board.reader.context_weights)
    # A pattern line's spaces are weighed by their colour too: one read as the marker is its empty print.
    occupancy = board_reader._no_marker_in_lines(occupancy, reading.colour_probs, board.reader.kind == PATTERN)
    assert np.allclose(occupancy[~again], reading.occupancy[~again])
