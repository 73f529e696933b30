"""A tile lying across the centre's edge, on its ring, is no hand once the centre has stayed the same a few frames:
the ring points beside a piece the centre's counter reads count as unchanged (recorded tuning game 959: the centre
read covered for seconds after leftovers landed on its edge, and two misplacements went unflagged). A hand moving
over that tile is still flagged."""

import math

import numpy as np
import pytest

from vision.recognizer import CENTRE_RING_STEADY_FRAMES
from vision.synthetic.hands import SKIN_TONES, SLEEVES, Hand
from vision.synthetic.layout import TILE_MM, Piece
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer
from web_dashboard.vision_bench import calibrated_recognizer, random_view

SEED = 3  # a tuning seed
CENTRE = {"blue": 2, "red": 1}


@pytest.fixture(scope="module")
def table():
    """Tuning seed 3's bench table, a small pile in the centre and a yellow tile at its edge (as far out as the
    renderer's pile goes), 20 degrees round: the ring read 4 % of its points changed there, over the 3 % that flag."""
    rng = np.random.default_rng([SEED, 77])
    renderer = Renderer(4, "colored", Look.random(SEED), SEED)
    rec = calibrated_recognizer(renderer, 4, rng)
    view = random_view(4, rng)
    view["center"] = dict(CENTRE, first_player=False)
    view["first_player"] = False
    out = renderer.table.centre_radius - 0.6 * TILE_MM
    edge = (out * math.cos(math.radians(20)), out * math.sin(math.radians(20)))
    return renderer, rec, renderer.pieces(view) + [Piece("yellow", *edge, 0.3, base=0.0)], edge


def _counts(region: dict) -> dict:
    return {c: n for c, n in region.items() if c not in ("occluded", "confidence", "first_player")}


def test_a_tile_on_the_centres_edge_is_read_once_the_centre_is_still(table):
    renderer, rec, pieces, _ = table
    seen = []
    for _ in range(CENTRE_RING_STEADY_FRAMES + 2):
        frame = renderer.render(pieces, shake=False)
        assert not frame.occluded["center"]
        seen.append(rec.recognize(frame.image)["center"])
    assert seen[0]["occluded"]  # the frame it came: its ring changed, as under a hand
    assert all(not c["occluded"] and _counts(c) == dict(CENTRE, yellow=1) for c in seen[CENTRE_RING_STEADY_FRAMES:])


def test_a_hand_moving_over_the_tile_on_the_centres_edge_is_flagged(table):
    renderer, rec, pieces, (x, y) = table
    rng = np.random.default_rng(5)
    for _ in range(CENTRE_RING_STEADY_FRAMES + 1):
        rec.recognize(renderer.render(pieces, shake=False).image)  # the still table first: its ring trusted
    for k in range(8):
        seat = renderer.table.seats[k % len(renderer.table.seats)]
        hand = Hand((x + rng.normal(0, 8), y + rng.normal(0, 8)), seat, SKIN_TONES[k % len(SKIN_TONES)],
                    SLEEVES[k % len(SLEEVES)], 60.0)
        frame = renderer.render(pieces, hands=(hand,), shake=False)
        assert frame.occluded["center"]
        centre = rec.recognize(frame.image)["center"]
        assert centre["occluded"] and centre["confidence"] <= 0.2
