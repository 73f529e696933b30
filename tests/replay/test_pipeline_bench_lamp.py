"""The pipeline bench says which games the players were told of a lamp's reflection (vision.lamp), and when."""

import copy

import numpy as np

from tracker import new_game
from vision.lamp import LAMP_ADVICE_SECONDS, PALE_LAMP
from web_dashboard.pipeline_bench import GameScore, figures_of, score_game


def test_the_first_lamp_advice_of_a_game_is_timed_from_its_observations():
    table = {**new_game(2, "colored").to_table(), "details": {"factories": [{"lamp": 0.0}] * 5, "center": {}}}
    paled = copy.deepcopy(table)
    paled["details"]["factories"][1] = {"lamp": PALE_LAMP + 10}

    def stream(lamp_from: float):
        # Setup until 1 s, then the still table: display 2 paled from `lamp_from` on.
        for t in np.round(np.arange(0.0, 12.0, 0.1), 6).tolist():
            yield t, {"type": "setup"}, None if t < 1.0 else (paled if t >= lamp_from else table)

    log = [{"type": "setup", "start_player": 0}]
    told = score_game(GameScore(1, 2, "colored"), log, stream(5.0))
    # Said once the paled display stood over three quarters of the last LAMP_ADVICE_SECONDS.
    assert 5.0 + 0.7 * LAMP_ADVICE_SECONDS < told.lamp_advice_at < 5.0 + LAMP_ADVICE_SECONDS
    assert score_game(GameScore(1, 2, "colored"), log, stream(99.0)).lamp_advice_at is None


def test_the_figures_count_the_games_told_of_the_lamp_and_mark_the_lost_ones():
    def game(seed, exact, lamp_advice_at):
        return GameScore(seed, 2, "colored", exact=exact, frames=10, pipeline_seconds=1.0,
                         problem="" if exact else "round 1, phase offer, moves 0/51", lamp_advice_at=lamp_advice_at)

    played = [(game(1, True, 40.0), 1.0), (game(2, False, 3.9), 1.0), (game(3, False, None), 1.0),
              (game(4, True, None), 1.0)]
    figures = figures_of(iter(played), 4, verbose=False)
    assert figures["games_lamp_advised"] == 2 and figures["not_exact_lamp_advised"] == 1
    assert figures["not_exact"] == ["seed 2 2p colored: round 1, phase offer, moves 0/51, lamp advice from 3.9 s",
                                    "seed 3 2p colored: round 1, phase offer, moves 0/51"]
