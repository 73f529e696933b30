"""A black tile's top is dark: a pale blue white tile, read a little greener than the print's light, is no black one
(on a display, nor in the centre)."""

import cv2
import numpy as np
import pytest

from calibration.colour_model import COLOURS, PRINT_CREAM, ColourModel
from vision.counting import RegionCounter, circle_grid
from vision.light import from_lab
from vision.recognizer import TableRecognizer
from vision.setup import learn_setup
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer
from web_dashboard.vision_bench import empty_view, setup_view, still_frames


def _bgr(lab) -> tuple[int, ...]:
    return tuple(int(v) for v in np.clip(np.round(from_lab(np.array(lab, np.float32))), 0, 255))


def _one_tile(lab, centre: bool = False) -> dict:
    """A display in the print's own light (its cream card the print's cream, a blue rosette in the middle) holding
    one tile whose top is the colour `lab` (L*a*b*); `centre`: the centre instead, a grey table lit as the print."""
    grid, inside = circle_grid((100.0, 100.0), 50.0, 40)
    empty = np.empty((200, 200, 3), np.uint8)
    if centre:
        empty[:] = _bgr((50, 0, 0))
    else:
        empty[:] = _bgr(PRINT_CREAM["pattern"])
        cv2.circle(empty, (100, 100), 28, _bgr((45, 0, -35)), -1)
    frame = empty.copy()
    cv2.fillConvexPoly(frame, np.round(cv2.boxPoints(((100, 100), (28, 28), 15.0))).astype(np.int32), _bgr(lab))
    counter = RegionCounter(grid, inside, (200, 200), 11.0, allow_marker=centre)
    counter.set_empty(counter.sampler.sample(empty), np.ones(3, np.float32) if centre else None)
    return counter.count(frame, ColourModel.default(), None)[0].counts


@pytest.mark.parametrize("top", [(75, -18, -20), (80, -22, -15)])
def test_a_pale_blue_white_tile_read_greener_is_white(top):
    # Lit, these read closer to black's Gaussian (stretched along its light teal motif) than to white's.
    assert _one_tile(top) == {"white": 1}


@pytest.mark.parametrize("top", [(28, -1, -9), (55, -24, -11)])
def test_a_black_tile_and_its_teal_motif_still_read_black(top):
    assert _one_tile(top) == {"black": 1}


@pytest.mark.parametrize("top", [(80, -22, -18), (88, -24, -15)])
def test_a_pale_blue_white_tile_lit_in_the_centre_is_white(top):
    # Read in the displays' light, such a top falls in black's Gaussian before white's in the centre too.
    assert _one_tile(top, centre=True) == {"white": 1}


@pytest.mark.parametrize("top", [(35, -10, -10), (66, -18, -13)])
def test_a_black_tile_and_its_lit_motif_still_read_black_in_the_centre(top):
    # In the centre, read in the displays' light less the glare its tiles show, a black tile's motif reads lighter
    # than on a display (L* 66.8 at most on the tuning and check seeds).
    assert _one_tile(top, centre=True) == {"black": 1}


@pytest.fixture(scope="module")
def game_750():
    """The look of recorded tuning game 750: camera tilted 39 degrees, far displays 15 px in radius, bright tiles
    (white ones pale blue) on an oak table; its renderer and the profile learnt at setup."""
    renderer = Renderer(4, "colored", Look.random(750, 1280, 720), 750)
    rng = np.random.default_rng([750, 5])
    profile = learn_setup(renderer.calibration(), still_frames(renderer, setup_view(4, rng)),
                          empty=still_frames(renderer, empty_view(4)))
    return renderer, profile


# Game 750's first deal, display by display.
DEAL_750 = [("white", "white", "yellow", "white"), ("red", "yellow", "blue", "red"), ("red", "red", "blue", "black"),
            ("white", "yellow", "yellow", "blue"), ("black", "white", "black", "black"), ("white", "black", "blue", "blue"),
            ("red", "white", "red", "red"), ("blue", "blue", "red", "yellow"), ("black", "blue", "red", "white")]


def _dealt(deal) -> dict:
    view = empty_view(4)
    view["factories"] = [{colour: display.count(colour) for colour in set(display)} for display in deal]
    return view


def test_pale_blue_white_tiles_on_far_displays_are_not_read_black(game_750):
    # The far displays' cards, mixed with their rosette and rim, read 5-11 % greener against blue than the near
    # ones', and in that light their white tiles' tops read as black's light teal: displays 4, 5 and 6 of the game's
    # first deal read with a black tile for the white one.
    renderer, profile = game_750
    view = _dealt(DEAL_750)
    frame = renderer.render(renderer.pieces(view), shake=False)
    read = TableRecognizer(profile).recognize(frame.image)["factories"]
    for display, want in zip(read, view["factories"]):
        assert {c: display.get(c, 0) for c in COLOURS} == {c: want.get(c, 0) for c in COLOURS}


def test_a_pale_blue_white_tile_alone_in_the_centre_is_not_read_black(game_750):
    # Game 750's first move takes display 7's red tiles: its white one goes to the centre, beside the first-player
    # marker, where its lit top (L* 72-91) read black, and the tracker waited for good at move 0. Eight placements
    # of it: five read black before.
    renderer, profile = game_750
    view = _dealt(DEAL_750[:6] + [()] + DEAL_750[7:])
    view["center"], view["first_player"] = {"white": 1, "first_player": True}, True
    recognizer = TableRecognizer(profile)
    for salt in range(8):
        centre = recognizer.recognize(renderer.render(renderer.pieces(view, salt=salt), shake=False).image)["center"]
        assert {c: centre.get(c, 0) for c in COLOURS} == {**dict.fromkeys(COLOURS, 0), "white": 1}, salt
