"""Spaces the lamp's spot washes out: their print clipped at setup and a pale tile on it clipping as the print did
(seeds < 1000; the bench measures on others)."""

import numpy as np

from vision.board_reader import CLIPPED_COLOUR_TRUST, WASHED_TRUST, _doubted, _no_surer, _washed_out
from web_dashboard.vision_bench import bench_frames


def _confidently_wrong(obs: dict, view: dict, occluded: dict) -> list[tuple]:
    """Pattern-line and floor spaces whose reported value is wrong at a probability of 0.9 or more."""
    out = []
    for b, (ob, truth) in enumerate(zip(obs["boards"], view["boards"])):
        if occluded["boards"][b]:
            continue
        rows = [("line", r, probs, truth["pattern_lines"][r]) for r, probs in
                enumerate(ob["probabilities"]["pattern_lines"])]
        rows.append(("floor", 0, ob["probabilities"]["floor"], truth["floor"]))
        for kind, r, probs, tiles in rows:
            for j, slot in enumerate(probs):
                want = tiles[j] if j < len(tiles) else None
                got = None if slot["empty"] >= 0.5 else max((k for k in slot if k != "empty"), key=slot.get)
                if got != want and slot["empty" if got is None else got] >= 0.9:
                    out.append((b, kind, r, j, got, want))
    return out


def test_a_yellow_tile_under_a_clipping_spot_is_not_read_empty_for_sure():
    # Tuning seed 435, gray walls (glare 0.93): board 2's floor print clipped at setup; the yellow tile on floor
    # space 5 clips as the print did and read empty at 1.0 in frame 1. Now unsure: no space is wrong at 0.9.
    wrong = []
    for rec, view, frame in bench_frames(435, 2, variant="gray"):
        wrong += _confidently_wrong(rec.recognize(frame.image), view, frame.occluded)
    assert wrong == []


def test_only_spaces_clipping_now_are_held_unsure():
    now = np.array([[250, 252, 251], [250, 252, 200], [239, 250, 250]], np.float32)
    washed = _washed_out(now)
    assert washed.tolist() == [True, False, False]
    held = _no_surer(np.array([0.999, 0.999, 0.001]), washed)
    assert held.tolist() == [WASHED_TRUST, 0.999, 0.001]
    assert _no_surer(np.array([0.001]), np.array([True]))[0] == 1.0 - WASHED_TRUST


def test_tile_colours_over_a_clipped_print_are_not_reported_sure():
    # Tuning seed 428, gray walls, frame 0: board 3's print clipped at setup under the lamp's spot; its black
    # tiles on pattern lines 3 and 5 read white at 0.997 and 1.0 (fails before). Reported no surer than 0.77 now,
    # and so the line's slots whose colour its vote over those gives.
    rec, view, frame = next(bench_frames(428, 1, variant="gray"))
    assert _confidently_wrong(rec.recognize(frame.image), view, frame.occluded) == []


def test_doubted_colours_keep_their_order():
    probs = np.array([[0.01, 0.02, 0.9, 0.03, 0.04], [0.01, 0.02, 0.9, 0.03, 0.04]])
    out = _doubted(probs, np.array([True, False]))
    assert out[0].max() < CLIPPED_COLOUR_TRUST and np.isclose(out[0].sum(), 1.0)
    assert np.isclose(_doubted(np.eye(5)[:1], np.array([True])).max(), CLIPPED_COLOUR_TRUST)
    assert (np.argsort(out[0]) == np.argsort(probs[0])).all()
    assert np.allclose(out[1], probs[1])
