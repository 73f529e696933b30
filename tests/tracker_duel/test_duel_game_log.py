"""DuelGame on the shared game-record machinery: the log on disk, resume, undo, corrections, refusals."""

from __future__ import annotations

import json
import random

import pytest

from tracker.bench import duel_games_per_second
from tracker.duel import OVER, DuelGame, TakeSun, placeholder_components
from tracker.duel.bench import random_duel_game, random_step
from tracker.duel.state import ACQUISITION, OPENING
from tracker.record import RecordError


def play_until(game: DuelGame, rng: random.Random, done) -> None:
    steps = 0
    while not done(game.state):
        random_step(game, rng)
        steps += 1
        assert steps < 2000


def test_a_logged_game_resumes_exactly_and_keeps_logging(tmp_path):
    path = tmp_path / "duel.jsonl"
    rng = random.Random(11)
    game = DuelGame.new(placeholder_components(), names=["Ina", "Michael"], start_player=1, log_path=path)
    play_until(game, rng, lambda s: s.round == 3 and s.phase == ACQUISITION)
    game.close()
    lines = path.read_text().splitlines()
    assert len(lines) == len(game.events)
    assert json.loads(lines[0])["components"]["placeholder"] is True, "the setup carries the component data"

    resumed, problem = DuelGame.resume(path)
    assert problem is None
    assert resumed.state == game.state
    assert resumed.state.names == ("Ina", "Michael")
    play_until(resumed, rng, lambda s: s.phase == OVER)
    resumed.close()
    events = [json.loads(line) for line in path.read_text().splitlines()]
    assert events[-1]["type"] == "end"
    assert events[-1]["final_scores"] == [b.score for b in resumed.state.boards]
    assert events[-1]["winners"] == resumed.state.winners()
    replayed, problem = DuelGame.from_events(events)
    assert problem is None and replayed.state == resumed.state


def test_a_torn_last_line_is_set_aside_and_the_game_goes_on(tmp_path):
    path = tmp_path / "duel.jsonl"
    game = DuelGame.new(placeholder_components(), log_path=path)
    play_until(game, random.Random(3), lambda s: s.phase == ACQUISITION)
    game.close()
    good = len(game.events)
    with open(path, "ab") as f:
        f.write(b'{"type":"take_sun","player":0,"fac')
    resumed, problem = DuelGame.resume(path)
    assert problem is not None and problem.line == good + 1
    assert resumed.state == game.state
    random_step(resumed, random.Random(4))
    resumed.close()
    assert len(path.read_text().splitlines()) == good + 1
    assert list(tmp_path.glob("duel.jsonl.corrupt-*"))


def test_an_illegal_action_is_refused_and_not_logged(tmp_path):
    path = tmp_path / "duel.jsonl"
    game = DuelGame.new(placeholder_components(), log_path=path)
    play_until(game, random.Random(5), lambda s: s.phase == ACQUISITION)
    before = game.state.to_dict()
    count = len(path.read_text().splitlines())
    state = game.state
    absent = next(c for c in range(5) if not state.suns[0][c])
    with pytest.raises(RecordError, match="holds no"):
        game.play(TakeSun(0, absent, 0, ()))
    with pytest.raises(RecordError, match="turn"):
        game.play(state.legal_actions()[0], player=1 - state.current_player)
    assert game.state.to_dict() == before
    assert len(path.read_text().splitlines()) == count
    game.close()


def test_undo_and_correction():
    rng = random.Random(8)
    game = DuelGame.new(placeholder_components())
    play_until(game, rng, lambda s: s.phase == ACQUISITION)
    start = game.state.copy()
    mover = start.current_player
    sun_moves = [a for a in start.legal_actions() if isinstance(a, TakeSun)]
    first, second = sun_moves[0], sun_moves[-1]
    assert first != second
    game.play(first)
    game.undo()
    assert game.state == start
    # The camera got it wrong: replace the last action with the one really played.
    game.play(first)
    game.correct(1, [{**second.to_json(), "player": mover}], reason="misread colour")
    expected = start.copy()
    expected.play(second)
    assert game.state == expected
    assert game.events[-1]["type"] == "correction"
    replayed, problem = DuelGame.from_events(game.events)
    assert problem is None and replayed.state == game.state
    with pytest.raises(RecordError, match="cannot undo"):
        game.undo(10_000)


def test_an_end_event_before_the_end_is_refused():
    game = DuelGame.new(placeholder_components())
    play_until(game, random.Random(1), lambda s: s.phase == OPENING)
    with pytest.raises(RecordError, match="before the game is over"):
        game.record.submit({"type": "end"})


def test_random_games_end_and_the_benchmark_counts_them():
    state = random_duel_game(placeholder_components(), random.Random(2))
    assert state.phase == OVER and state.round == 5
    rate = duel_games_per_second(0.2, seed=3)
    assert rate > 0
