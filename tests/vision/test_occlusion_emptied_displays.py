"""A display's table ring is recorded with its tiles dealt, their shadows falling past its rim: once its tiles are
taken the bare ring is no hand, and a hand over it is still one (tuning seeds < 10000; the bench's held-out views
are seeds from 10000)."""

import numpy as np

from vision.synthetic.hands import SKIN_TONES, SLEEVES, Hand
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer
from web_dashboard.vision_bench import calibrated_recognizer, random_view


def _emptied(seed: int):
    """Seed 33's table (1280x720, green felt, JPEG 69), set up, then every display emptied."""
    rng = np.random.default_rng([seed, 77])
    renderer = Renderer(4, "colored", Look.random(seed, 1280, 720), seed)
    rec = calibrated_recognizer(renderer, 4, rng)
    view = random_view(4, rng)
    view["factories"] = [{} for _ in view["factories"]]
    return renderer, rec, renderer.pieces(view)


def test_an_emptied_display_is_no_hand():
    # Displays 3 and 4 read covered in every frame once emptied: the tiles dealt at setup shaded their rings
    # (recorded game, tuning seed 33: display 5 flagged in 918 of its 1153 empty frames with no hand).
    renderer, rec, pieces = _emptied(33)
    for _ in range(3):  # read empty two frames running
        rec.recognize(renderer.render(pieces, shake=False).image)
    obs = rec.recognize(renderer.render(pieces, shake=False).image)
    assert not any(f["occluded"] for f in obs["factories"])


def test_a_hand_over_an_emptied_display_is_still_flagged():
    renderer, rec, pieces = _emptied(33)
    for _ in range(3):
        rec.recognize(renderer.render(pieces, shake=False).image)
    flagged = []
    for j in (3, 4):
        x, y = renderer.table.factories[j]
        for k, seat in enumerate(renderer.table.seats):
            hand = Hand((x - 5.0, y + 5.0), seat, SKIN_TONES[k % len(SKIN_TONES)], SLEEVES[k % len(SLEEVES)], 60.0)
            frame = renderer.render(pieces, hands=(hand,), shake=False)
            assert frame.occluded["factories"][j]
            rec._previous = None
            flagged.append(rec.recognize(frame.image)["factories"][j]["occluded"])
    assert all(flagged)


def test_the_bare_ring_is_not_learned_while_a_hand_is_on_the_table():
    # A hand over a board: an arm may lie across an emptied display's ring too (tuning seed 7's recorded game: arms
    # learned into the bare ring hid later hands there); nothing is learned until the table is quiet.
    renderer, rec, pieces = _emptied(33)
    hand = Hand(renderer.table.boards[0].at(0.5, 0.5), renderer.table.seats[0], SKIN_TONES[0], SLEEVES[0], 60.0)
    for _ in range(3):
        rec.recognize(renderer.render(pieces, hands=(hand,), shake=False).image)
    assert all(ring.alternate_lab is None for ring in rec.factory_rings)
