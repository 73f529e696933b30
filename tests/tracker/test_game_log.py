"""The game log: append-only, fsynced per event, replays exactly, survives torn writes and SIGKILL."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap

import pytest

from tracker import DEAL, OFFER, OVER, move
from tracker.game import Game
from tracker.gamelog import parse_log, read_log
from tracker.record import RecordError
from tracker.tiles import RED


def play_some(game: Game, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        state = game.state
        if state.phase == OVER:
            return
        if state.phase == DEAL:
            game.deal_random(rng)
        elif state.phase == OFFER:
            legal = state.legal_moves()
            game.play(legal[rng.randrange(len(legal))])
        else:
            game.tile_walls()


def test_every_event_is_on_disk_as_soon_as_it_is_appended(tmp_path):
    path = tmp_path / "game.jsonl"
    game = Game.new(2, names=["Ana", "Ben"], log_path=path)
    play_some(game, random.Random(1), 10)
    # Read while the log is still open: nothing may wait in a buffer.
    on_disk = read_log(path)
    assert on_disk.problem is None
    assert on_disk.events == game.record.events
    assert [e["type"] for e in on_disk.events][:3] == ["setup", "deal", "move"]
    game.close()


def test_resume_continues_the_same_game(tmp_path):
    path = tmp_path / "game.jsonl"
    game = Game.new(4, variant="gray", log_path=path)
    rng = random.Random(5)
    play_some(game, rng, 60)
    game.close()
    resumed, problem = Game.resume(path)
    assert problem is None and resumed.state == game.state
    play_some(resumed, rng, 5)
    resumed.close()
    again, _ = Game.resume(path)
    assert again.state == resumed.state
    again.close()


def test_a_new_game_refuses_a_log_that_holds_one(tmp_path):
    path = tmp_path / "game.jsonl"
    Game.new(2, log_path=path).close()
    with pytest.raises(RecordError, match="already holds a game"):
        Game.new(2, log_path=path)


def test_torn_last_line_is_reported_kept_aside_and_the_rest_kept(tmp_path):
    path = tmp_path / "game.jsonl"
    game = Game.new(2, log_path=path)
    play_some(game, random.Random(2), 8)
    game.close()
    good = path.read_bytes()
    torn = b'{"type":"move","player":1,"source":"fac'
    path.write_bytes(good + torn)
    loaded = read_log(path)
    assert loaded.problem is not None and loaded.problem.line == len(game.record.events) + 1
    assert "cut short" in loaded.problem.reason
    assert loaded.events == game.record.events
    resumed, problem = Game.resume(path)
    assert problem.line == len(game.record.events) + 1
    assert resumed.state == game.state
    # The torn bytes are kept aside, and appending after the resume writes whole lines only.
    assert (tmp_path / "game.jsonl.corrupt-1").read_bytes() == torn
    play_some(resumed, random.Random(3), 3)
    resumed.close()
    assert read_log(path).problem is None


def test_corrupt_line_in_the_middle_reports_its_number():
    lines = [b'{"type":"setup","players":2}', b'{"type":"deal","factories":[]}', b"\x00garbage", b'{"type":"x"}']
    loaded = parse_log(b"\n".join(lines) + b"\n")
    assert loaded.problem.line == 3 and "not valid JSON" in loaded.problem.reason
    assert len(loaded.events) == 2
    assert parse_log(b'{"type":"setup"}\n[1,2]\n').problem.line == 2


def test_an_event_the_rules_reject_is_reported_by_line():
    game = Game.new(2)
    game.deal([["red", "red", "blue", "blue"]] + [["black"] * 4] * 4)
    events = list(game.record.events)
    # Factory display 2 holds no red: the third line of this log cannot have happened.
    events.append({"type": "move", "player": 0, "source": "factory", "factory": 1, "color": "red", "line": 0})
    replayed, problem = Game.from_events(events)
    assert problem.line == 3 and "holds no red" in problem.reason
    assert replayed.state == game.state


def test_undo_and_correction_are_events_that_replay(tmp_path):
    path = tmp_path / "game.jsonl"
    game = Game.new(2, log_path=path)
    game.deal([["red", "red", "blue", "blue"]] + [["black"] * 4] * 4)
    start = game.state.to_dict()
    game.play(move(0, RED, 1))
    game.undo()
    assert game.state.to_dict() == start
    game.play(move(0, RED, 1))
    wrong = game.state.to_dict()
    # The camera got the line wrong: a person corrects it to line 2 (3 spaces).
    game.correct(1, [{"type": "move", "player": 0, **move(0, RED, 2).to_json()}], reason="wrong line")
    assert game.state.boards[0].pattern_count[2] == 2 and game.state.to_dict() != wrong
    with pytest.raises(RecordError, match="cannot undo 5"):
        game.undo(5)
    game.close()
    kinds = [json.loads(line)["type"] for line in path.read_text().splitlines()]
    assert kinds == ["setup", "deal", "move", "undo", "move", "correction"]
    assert [(e["type"], e.get("line")) for e in game.record.events_in_force()] == [("deal", None), ("move", 2)]
    resumed, _ = Game.resume(path)
    assert resumed.state == game.state
    resumed.close()


def test_a_rejected_event_is_not_logged(tmp_path):
    path = tmp_path / "game.jsonl"
    game = Game.new(2, log_path=path)
    with pytest.raises(RecordError, match="every factory display must get 4"):
        game.deal([["red"]] * 5)
    game.close()
    assert len(path.read_text().splitlines()) == 1


CHILD = textwrap.dedent(
    """
    import random, sys
    from tracker.game import Game
    from tracker import DEAL, OFFER, OVER
    rng = random.Random(int(sys.argv[2]))
    game = Game.new(4, log_path=sys.argv[1])
    while True:
        s = game.state
        if s.phase == OVER:
            game = Game.new(4, log_path=sys.argv[1] + "." + str(rng.random()))
            continue
        if s.phase == DEAL:
            game.deal_random(rng)
        elif s.phase == OFFER:
            legal = s.legal_moves(); game.play(legal[rng.randrange(len(legal))])
        else:
            game.tile_walls()
        print(len(game.record.events), flush=True)
    """
)


def test_sigkill_loses_no_committed_event(tmp_path):
    path = tmp_path / "game.jsonl"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), "11"], stdout=subprocess.PIPE, text=True,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
    )
    committed = 0
    for line in child.stdout:
        committed = int(line)
        if committed >= 40:
            break
    child.send_signal(signal.SIGKILL)
    child.wait()
    resumed, problem = Game.resume(path)
    # Every event the child reported as committed is there, and the log replays to a legal game.
    assert len(resumed.record.events) >= committed
    assert problem is None or problem.line > committed
    assert resumed.state.tile_count() == [20] * 5
    resumed.close()
