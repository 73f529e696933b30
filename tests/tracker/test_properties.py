"""Property tests over thousands of random games (hypothesis chooses players, wall side and seeds)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker import COLORED, DEAL, GRAY, OFFER, OVER, IllegalMove, move
from tracker.game import Game
from tracker.moves import CENTRE, FLOOR
from tracker.tiles import EMPTY

GAMES = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ROUNDS = 100

ALL_MOVES = [move(s, c, d) for s in (*range(9), CENTRE) for c in range(5) for d in range(FLOOR + 1)]


def random_columns(rng: random.Random):
    return lambda player, row, colour, legal: legal[rng.randrange(len(legal))]


def assert_wall_is_latin(wall: list[list[int]]) -> None:
    for r in range(5):
        row = [c for c in wall[r] if c != EMPTY]
        assert len(row) == len(set(row)), f"colour repeated in row {r}: {wall}"
    for k in range(5):
        column = [wall[r][k] for r in range(5) if wall[r][k] != EMPTY]
        assert len(column) == len(set(column)), f"colour repeated in column {k}: {wall}"


def play_checked(players: int, variant: str, seed: int, probe_illegal: bool) -> Game:
    rng = random.Random(seed)
    game = Game.new(players, variant)
    while game.state.phase != OVER:
        state = game.state
        assert state.round <= MAX_ROUNDS, "the game must end"
        if state.phase == DEAL:
            game.deal_random(rng)
        elif state.phase == OFFER:
            legal = state.legal_moves()
            assert legal, "the player to move always has a move (the floor line is always open)"
            assert len(set(legal)) == len(legal)
            for m in legal:
                assert state.explain_illegal(m) is None, f"generated move {m} judged illegal"
            if probe_illegal:
                legal_set = set(legal)
                for m in rng.sample(ALL_MOVES, 12):
                    m = state.normalise(m)
                    problem = state.explain_illegal(m)
                    assert (problem is None) == (m in legal_set), m
                    if problem is not None:
                        before = state.to_dict()
                        assert problem.reason and problem.rule
                        try:
                            state.play(m)
                        except IllegalMove as err:
                            assert str(err) == problem.reason
                        else:
                            raise AssertionError(f"illegal {m} was played")
                        assert state.to_dict() == before, "a rejected move must leave the game untouched"
            game.play(legal[rng.randrange(len(legal))])
        else:
            game.tile_walls(random_columns(rng) if variant == GRAY else None)
        state = game.state
        assert state.tile_count() == [20] * 5, "tiles are conserved"
        assert all(b.score >= 0 for b in state.boards)
        for board in state.boards:
            assert len(board.floor) <= 7
            if variant == GRAY:
                assert_wall_is_latin(board.wall)
    return game


@GAMES
@given(players=st.sampled_from([2, 3, 4]), variant=st.sampled_from([COLORED, GRAY]), seed=st.integers(0, 2**32))
def test_random_games_conserve_tiles_stay_legal_and_end(players, variant, seed):
    game = play_checked(players, variant, seed, probe_illegal=False)
    assert game.state.phase == OVER and game.state.winners()


@settings(max_examples=300, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), variant=st.sampled_from([COLORED, GRAY]), seed=st.integers(0, 2**32))
def test_every_illegal_move_is_rejected_with_an_explanation(players, variant, seed):
    play_checked(players, variant, seed, probe_illegal=True)


@settings(max_examples=300, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), variant=st.sampled_from([COLORED, GRAY]), seed=st.integers(0, 2**32))
def test_replaying_the_log_gives_the_live_state(players, variant, seed):
    game = play_checked(players, variant, seed, probe_illegal=False)
    replayed, problem = Game.from_events(game.record.events)
    assert problem is None
    assert replayed.state == game.state
    assert [f.score for f in replayed.state.final_scores] == [b.score for b in game.state.boards]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), undo_every=st.integers(2, 9))
def test_undo_restores_exactly_and_replays(seed, undo_every):
    rng = random.Random(seed)
    game = Game.new(3, GRAY)
    step = 0
    while game.state.phase != OVER:
        state = game.state
        if state.phase == DEAL:
            game.deal_random(rng)
        elif state.phase == OFFER:
            before = state.to_dict()
            legal = state.legal_moves()
            game.play(legal[rng.randrange(len(legal))])
            step += 1
            if step % undo_every == 0:
                game.undo()
                assert game.state.to_dict() == before
                game.play(legal[rng.randrange(len(legal))])
        else:
            game.tile_walls(random_columns(rng))
    replayed, problem = Game.from_events(game.record.events)
    assert problem is None and replayed.state == game.state


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.sampled_from([COLORED, GRAY]), st.integers(0, 10**6))
def test_legal_explanations_predict_the_table_the_rules_reach(players, variant, seed):
    # The beam search builds tables by moving tiles as hands do; they must be the rules' own tables.
    from tracker.evidence import table_evidence
    from tracker.hypotheses import legal_hypotheses
    from tracker.likelihood import Scorer
    from tracker.table_model import table_model

    rng = random.Random(seed)
    game = Game.new(players, variant)
    game.deal_random(rng)
    for _ in range(rng.randrange(8)):
        if game.state.phase != OFFER:
            break
        legal = game.state.legal_moves()
        game.play(legal[rng.randrange(len(legal))])
    state = game.state
    scorer = Scorer(table_evidence(state.to_table()))
    for h in legal_hypotheses(state, scorer, depth=2):
        reached = state.copy()
        for m in h.moves:
            reached.play(m)
        assert h.table == table_model(reached)


@settings(max_examples=200, deadline=None)
@given(confidence=st.floats(min_value=0.0, max_value=1.0))
def test_a_count_read_never_rewards_a_prediction_that_differs_from_it(confidence):
    # Below a confidence of 1/3 the raw likelihood ratio turns positive: an unsure reading of the centre made a
    # move that left 3 tiles there unexplained outscore the right one (a recorded real-vision game, tuning seed 22).
    from tracker.evidence import miss_cost

    assert miss_cost(confidence) <= 0.0
