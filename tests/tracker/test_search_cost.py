"""What keeps the tracker's searches cheap must never change what they find: the scorer's memory of the tables
it has scored, and the bound that skips a search whose best could not matter."""

from __future__ import annotations

import gc
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker import OFFER, likelihood, new_game
from tracker.evidence import table_evidence
from tracker.game import Game
from tracker.hypotheses import illegal_hypotheses, legal_hypotheses, search_bound
from tracker.likelihood import Scorer, board_loglik, count_loglik, max_loglik
from tracker.table_model import TableModel, put, table_model, with_board
from tracker.tiles import COLOUR_NAMES

from .test_inference import FPS, _misread_display_and_a_move_from_it, observe


def _played(players: int, variant: str, seed: int, moves: int):
    """A game dealt and played `moves` random legal moves into its first round (fewer if the offer ends)."""
    rng = random.Random(seed)
    game = Game.new(players, variant)
    game.deal_random(rng)
    for _ in range(moves):
        if game.state.phase != OFFER:
            break
        legal = game.state.legal_moves()
        game.play(legal[rng.randrange(len(legal))])
    return game.state, rng


def _misread(state, rng: random.Random, noise: float):
    """Evidence of the table with pattern-line slots misread at random (each sure of what it reads), and the centre's
    and a display's counts and the first-player marker now and then."""
    table = state.to_table()
    for counts in (table["center"], table["factories"][rng.randrange(len(table["factories"]))]):
        for colour in COLOUR_NAMES:
            if rng.random() < noise:
                counts[colour] = max(0, counts.get(colour, 0) + rng.choice((-2, -1, 1, 3)))
    table["first_player"] ^= rng.random() < noise
    return table_evidence(observe(table, noise=noise, rng=rng), 0.0)


def _score_from_scratch(table: TableModel, evidence) -> float:
    total = sum(board_loglik(b, evidence.boards[p]) for p, b in enumerate(table.boards))
    total += sum(count_loglik(f, None, evidence.factories[j]) for j, f in enumerate(table.factories))
    return total + count_loglik(table.centre, table.centre_marker, evidence.centre)


def test_a_board_or_table_built_anew_is_scored_anew_though_it_may_take_a_freed_one_s_place_in_memory():
    # The scorer remembers boards and tables by the object (no hashing of a whole board); one dropped after it was
    # scored must not lend its score to a new one that Python puts at the same address.
    state, rng = _played(2, "colored", 3, 0)
    evidence = _misread(state, rng, 0.3)
    table = table_model(state)
    boards, tables = Scorer(evidence), Scorer(evidence)
    for k in range(60):
        board = put(table.boards[0], k % 5, k % 5, 1 + k % 3, k % 2 == 0)
        assert boards.board(0, board) == board_loglik(board, evidence.boards[0])
        del board
    for k in range(60):
        built = with_board(table, 0, put(table.boards[0], k % 5, k % 5, 1 + k % 3, k % 2 == 0))
        assert tables.table(built) == _score_from_scratch(built, evidence)
        del built


def test_the_scorer_keeps_a_bounded_number_of_the_tables_it_scored_alive(monkeypatch):
    # A deal re-check in a stalled view scores hundreds of thousands of tables against one frame: remembering each
    # by the object kept them all alive (recorded tuning game 877: 435 MB at peak).
    monkeypatch.setattr(likelihood, "IDENTITY_MEMO_SIZE", 64)
    state, rng = _played(3, "colored", 5, 0)
    evidence = _misread(state, rng, 0.3)
    table = table_model(state)
    scorer = Scorer(evidence)
    gc.collect()
    before = sum(isinstance(o, TableModel) for o in gc.get_objects())
    for k in range(500):
        built = with_board(table, k % 3, put(table.boards[k % 3], k % 5, (k // 5) % 5, 1 + k % 3, k % 2 == 0))
        assert scorer.table(built) == _score_from_scratch(built, evidence)
        assert scorer.table(built) == _score_from_scratch(built, evidence)  # remembered, or scored again alike
        del built
    gc.collect()
    assert sum(isinstance(o, TableModel) for o in gc.get_objects()) - before <= 2 * 64  # two generations


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.sampled_from(["colored", "gray"]), st.integers(0, 10**6), st.integers(0, 6))
def test_every_explanation_scores_as_its_regions_add_up(players, variant, seed, moves):
    state, rng = _played(players, variant, seed, moves)
    evidence = _misread(state, rng, 0.3)
    scorer = Scorer(evidence)
    for h in legal_hypotheses(state, scorer, depth=2) + illegal_hypotheses(state):
        assert scorer.table(h.table) == _score_from_scratch(h.table, evidence)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.sampled_from(["colored", "gray"]), st.integers(0, 10**6), st.integers(0, 6),
       st.integers(1, 2), st.booleans())
def test_no_explanation_scores_above_the_search_bound(players, variant, seed, moves, depth, illegal):
    # The deal's re-check skips a content whose bound cannot reach the two best found: a bound below an explanation
    # would skip the one that corrects the deal.
    state, rng = _played(players, variant, seed, moves)
    evidence = _misread(state, rng, 0.3)
    scorer = Scorer(evidence)
    explanations = legal_hypotheses(state, scorer, depth=depth) + (illegal_hypotheses(state) if illegal else [])
    bound = search_bound(state, scorer, depth, illegal)
    assert max(scorer.table(h.table) + h.prior for h in explanations) <= bound + 1e-9


def test_the_search_bound_counts_only_the_boards_of_players_who_may_move():
    # A board no one explained in the search changes is scored as it is: a misread there caps every explanation.
    truth = new_game(3)
    truth.deal_random(random.Random(4))
    seen = truth.to_table()
    idle = (truth.current_player + 2) % 3
    seen["boards"][idle]["pattern_lines"][4] = [COLOUR_NAMES[0]] * 2  # tiles no move of two players puts there
    evidence = table_evidence(observe(seen), 0.0)
    scorer = Scorer(evidence)
    assert search_bound(truth, scorer, 2) < search_bound(truth, scorer, 3) == search_bound(truth, scorer, 1, True)
    # The displays and the centre read as committed: with every board free, every place at its likeliest reading.
    assert search_bound(truth, scorer, 3) == pytest.approx(max_loglik(evidence), abs=1e-9)


def test_the_search_bound_lets_a_move_fill_one_pattern_line_and_a_split_two():
    # A view with tiles on two pattern lines of a board is no single move's: a stalled view (nothing explains it)
    # must not cost a search per content of the deal's re-check (recorded tuning game 720: 2 s each, many a second).
    truth = new_game(2)
    truth.deal_random(random.Random(4))
    seen = truth.to_table()
    mover = truth.current_player
    seen["boards"][mover]["pattern_lines"][3] = [COLOUR_NAMES[1]]
    seen["boards"][mover]["pattern_lines"][4] = [COLOUR_NAMES[2]]
    evidence = table_evidence(observe(seen), 0.0)
    scorer = Scorer(evidence)
    assert search_bound(truth, scorer, 2) < search_bound(truth, scorer, 3)  # its second move at depth 3
    assert search_bound(truth, scorer, 3) == pytest.approx(max_loglik(evidence), abs=1e-9)
    assert search_bound(truth, scorer, 1, True) == pytest.approx(max_loglik(evidence), abs=1e-9)


def test_the_search_bound_lets_a_move_empty_one_display_and_an_illegal_action_two():
    # Recorded tuning game 720, round 4: the tracker a round's worth of moves behind, six displays read empty that
    # the log still fills; every content of the deal's re-check was searched, 2 s a time, many times a second.
    truth = new_game(2)
    truth.deal_random(random.Random(4))
    seen = truth.to_table()
    seen["factories"][0] = seen["factories"][1] = {}
    evidence = table_evidence(observe(seen), 0.0)
    scorer = Scorer(evidence)
    assert search_bound(truth, scorer, 1) < search_bound(truth, scorer, 2)
    # Every place of the boards at its likeliest reading, both displays as read, the centre left free.
    assert search_bound(truth, scorer, 1, True) == search_bound(truth, scorer, 2) == pytest.approx(
        max_loglik(evidence), abs=1e-9)


def test_the_search_bound_lets_the_centre_gain_no_more_than_the_displays_taken_from_send_it():
    # Game 720's stall again: the centre read holding many tiles the log has not sent there yet.
    truth = new_game(2)
    truth.deal_random(random.Random(4))
    seen = truth.to_table()
    seen["center"] = {colour: 2 for colour in COLOUR_NAMES}  # 10 tiles: more than 3 displays' leftovers (9)
    evidence = table_evidence(observe(seen), 0.0)
    scorer = Scorer(evidence)
    assert search_bound(truth, scorer, 3) < search_bound(truth, scorer, 4)
    assert search_bound(truth, scorer, 4) == pytest.approx(max_loglik(evidence), abs=1e-9)


def _tracked(seed: int, noise: float) -> list[dict]:
    from tracker.inference import MoveTracker

    truth, game, m = _misread_display_and_a_move_from_it(seed)
    tracker, rng, t = MoveTracker(game), random.Random(seed), 0.0
    for frames, move in ((4, None), (16, m)):
        if move is not None:
            truth.play(move)
        for _ in range(frames):
            t += 1 / FPS
            tracker.observe(observe(truth.to_table(), noise=noise, rng=rng), t)
    return game.record.events


def test_the_deal_s_re_check_finds_what_it_finds_without_the_bound(monkeypatch):
    # A content skipped by the bound is one whose best explanation could not have changed the outcome: a view
    # misread at random here and there, the deal corrected (or not) the same with every content searched.
    from tracker import inference

    seeds = range(5, 11)
    bounded = [_tracked(seed, 0.05) for seed in seeds]
    monkeypatch.setattr(inference, "search_bound", lambda *args, **kwargs: math.inf)
    assert bounded == [_tracked(seed, 0.05) for seed in seeds]
    assert sum(any(e["type"] == "correction" for e in events) for events in bounded) >= len(seeds) // 2


def test_a_stalled_deal_is_searched_again_ever_more_rarely_not_on_every_place_coming_to_rest(monkeypatch):
    # Recorded tuning game 720 (4 players, colored), round 4: the round stalled with displays taken from, and every
    # board place coming to rest was news: 123 re-checks of the deal in 20 s of play, 139 s of CPU. Here the other
    # player's floor line flickers every frame (news each time) while a pattern line no move fills keeps the view
    # unexplained: 15 s of frames.
    from tracker import inference

    truth, game, m = _misread_display_and_a_move_from_it(5)
    other = 1 - truth.current_player
    truth.play(m)

    def stalled(tracker) -> int:
        searches = []
        real_search = inference.legal_hypotheses
        monkeypatch.setattr(inference, "legal_hypotheses", lambda *a, **k: searches.append(1) or real_search(*a, **k))
        for n in range(150):
            table = truth.to_table()
            board = table["boards"][other]
            board["pattern_lines"][4] = ["white"] * 5
            board["floor"] = ["black"] if n % 2 else []
            evidence = table_evidence(observe(table), 0.0)
            tracker._recheck_deal(evidence, Scorer(evidence), -math.inf, table_model(game.state), frozenset(), n / FPS)
        return len(searches)

    searches = stalled(inference.MoveTracker(game))
    monkeypatch.setattr(inference, "DEAL_RECHECK_FREE", math.inf)
    every_frame = stalled(inference.MoveTracker(game))
    # Each frame's news searched for DEAL_RECHECK_FREE seconds (3 s), then after 0.75, 0.94, 1.17, 1.46, 1.83,
    # 2.29 and 2.86 s: 37 of the 150 frames.
    assert 0 < searches < 0.3 * every_frame
