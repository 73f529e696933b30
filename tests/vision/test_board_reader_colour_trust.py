"""A board tile's colour is trusted less where it was often misread: under the lamp's spot and glare, with a
clipped channel, or fitting no colour well (seeds < 1000; the bench measures on others)."""

import numpy as np

from vision.board_reader import PRINT_LIT, _colour_trust
from web_dashboard.vision_bench import _slots, bench_frames


def test_trust_is_full_for_a_clean_tile_and_less_under_the_spot_clipped_or_unlike_any_colour():
    clean = PRINT_LIT.means[:1]  # a blue tile as the model knows it
    odd = np.array([[70.0, -20.0, -15.0]], np.float32)  # pale cyan: no tile looks like it
    ll = PRINT_LIT.log_likelihood(np.vstack([clean, clean, clean, odd]))
    spot = np.array([0.0, 20.0, 0.0, 0.0])
    clipped = np.array([[False] * 3, [False] * 3, [True, False, False], [False] * 3])
    trust = _colour_trust(ll, spot, clipped, np.zeros(4))
    assert trust[0] == 1.0
    assert (trust[1:] < 0.6).all()


def test_colours_misread_under_a_strong_lamp_are_not_reported_sure():
    # Tuning seed 576 (1920x1080, bright tiles, glare 0.84): a white floor tile read black and the first-player
    # marker read yellow, both at p 1.00 before; still misread, but no longer sure of it. (Tiles missed or seen
    # where there are none are occupancy's business, not colour's.)
    seed, players = 576, 4
    sure_and_wrong = []
    for k, (rec, view, frame) in enumerate(bench_frames(seed, 4, players)):
        obs = rec.recognize(frame.image)
        for i, (board, truth) in enumerate(zip(obs["boards"], view["boards"])):
            if frame.occluded["boards"][i]:
                continue
            probs = board["probabilities"]
            for r in range(5):
                got, want = _slots(board["pattern_lines"][r], r), _slots(truth["pattern_lines"][r], r)
                for j in range(r + 1):
                    if got[j] and want[j] and got[j] != want[j]:
                        sure_and_wrong += [(k, i, r, j)] * (probs["pattern_lines"][r][j][got[j] or "empty"] > 0.9)
            floor = list(board["floor"]) + [None] * 7
            for q, want in enumerate(list(truth["floor"]) + [None] * (7 - len(truth["floor"]))):
                if floor[q] and want and floor[q] != want:
                    sure_and_wrong += [(k, i, "floor", q)] * (probs["floor"][q][floor[q] or "empty"] > 0.9)
    assert sure_and_wrong == []
