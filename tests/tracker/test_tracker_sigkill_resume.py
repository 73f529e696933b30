"""Killing the tracking process at a random moment and restarting it resumes the same game, nothing lost.

The child process follows a table (a stream of observations, as the camera would deliver them) and commits
moves to a game log. The parent SIGKILLs it at a random moment; the table goes on while it is down; a new
child resumes from the log and follows the table to the end of the game.

The moves played while it was down are seen only where they ended. Two histories can end at the same table
(the same player's two moves in either order, the views between them gone with the killed process): then no
view can tell which was played, the tracker must not guess, and it asks ("not sure yet: '...' or '...'"). When
the restart comes at a deal and the displays were taken from before it saw them, it cannot read that deal; it
must not take the next round's refill for it either, and it asks once the walls show a round went by. A person at
the table answers with a correction; the test plays that person, who steps in only when asked and only after
the tracker has been stuck for a while.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap

import pytest

from tracker import OFFER, OVER, WALL_TILING
from tracker.game import Game

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUCK_FRAMES = 30  # 3 s: how long the person lets the tracker stay behind the table before answering it

CHILD = textwrap.dedent(
    """
    import json, os, sys
    from tracker.game import Game
    from tracker.inference import MoveTracker
    log, stream, start, person = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    with open(person) as f:
        person = json.load(f)
    true_events, known = person["events"], person["known"]

    def digest(e):
        if e["type"] == "deal":
            return "deal", tuple(tuple(sorted(f)) for f in e["factories"])
        if e["type"] == "move":
            return tuple(e[k] for k in ("player", "source", "factory", "color", "line"))
        return e["type"],

    if os.path.exists(log):
        game, problem = Game.resume(log)
    else:
        game = Game.new(2, log_path=log)
    tracker = MoveTracker(game)
    asked = None  # the frame the tracker last said it was not sure
    wrong = False  # something was committed that was not played: the person would have to undo it, not answer
    with open(stream) as f:
        for index, line in enumerate(f):
            if index < start:
                continue
            status = tracker.observe(json.loads(line))
            done = game.record.events_in_force()
            if [digest(e) for e in done] != [digest(e) for e in true_events[:len(done)]]:
                wrong = True
                print("false", index, flush=True)
            waiting = status.waiting or ""
            if waiting.startswith("not sure yet") or "went by unseen" in waiting:
                asked = index
            if not wrong and asked is not None and index - asked <= STUCK and index >= STUCK and \
                    len(done) < known[index - STUCK]:
                # Asked, and stuck behind the table for STUCK frames: the person says what was played.
                tracker.correct(0, true_events[len(done):known[index]], reason="a person answered")
                asked = None
                print("person", index, flush=True)
            print("frame", index, len(game.record.events), flush=True)
    print("done", flush=True)
    """
).replace("STUCK", str(STUCK_FRAMES))


def _observation(table: dict, t: float, hidden: set) -> dict:
    obs = json.loads(json.dumps(table))
    obs["timestamp"] = t
    for i, board in enumerate(obs["boards"]):
        board["occluded"] = ("board", i) in hidden
    obs["factories"] = [{"counts": f, "occluded": ("factory", j) in hidden} for j, f in enumerate(obs["factories"])]
    obs["center"] = {"counts": obs["center"], "first_player": obs["first_player"], "occluded": ("centre", 0) in hidden}
    return obs


def _stream(seed: int) -> tuple[list[dict], Game, list[int]]:
    """A whole 2-player game as the camera sees it at 10 fps: hands over the regions of each move. Also the
    true game, and per frame how many of its events the table shows."""
    rng = random.Random(seed)
    played = Game.new(2)
    out: list[dict] = []
    known: list[int] = []
    t = 0.0

    def frames(n, hidden=frozenset()):
        nonlocal t
        for _ in range(n):
            t += 0.1
            out.append(_observation(played.state.to_table(), t, hidden))
            known.append(len(played.record.events_in_force()))

    played.deal_random(rng)
    frames(6)
    while played.state.phase != OVER:
        truth = played.state
        if truth.phase == OFFER:
            legal = truth.legal_moves()
            m = legal[rng.randrange(len(legal))]
            hidden = {("board", truth.current_player), ("centre", 0)} | ({("factory", m.source)} if m.source >= 0 else set())
            frames(3, hidden)
            played.play(m)
            frames(5)
        elif truth.phase == WALL_TILING:
            played.tile_walls()
            frames(6)
        else:
            played.deal_random(rng)
            frames(6)
    return out, played, known


def _moves(events: list[dict]) -> list[tuple]:
    return [tuple(e[k] for k in ("player", "source", "factory", "color", "line")) for e in events if e["type"] == "move"]


@pytest.mark.parametrize("seed", [3, 12, 17])
def test_sigkill_and_restart_resumes_the_same_game(tmp_path, seed):
    stream, played, known = _stream(seed)
    truth = played.state
    stream_path = tmp_path / "table.jsonl"
    stream_path.write_text("".join(json.dumps(o) + "\n" for o in stream))
    person_path = tmp_path / "person.json"
    person_path.write_text(json.dumps({"events": played.record.events_in_force(), "known": known}))
    log = tmp_path / "game.jsonl"
    rng = random.Random(seed)
    kill_at = rng.randrange(len(stream) // 4, 3 * len(stream) // 4)

    child = subprocess.Popen([sys.executable, "-c", CHILD, str(log), str(stream_path), "0", str(person_path)],
                             stdout=subprocess.PIPE, text=True, cwd=ROOT)
    reported = 0
    seen_index = 0
    said = []
    for line in child.stdout:
        kind, *numbers = line.split()
        said.append(line)
        if kind != "frame":
            continue
        seen_index, reported = map(int, numbers)
        if seen_index >= kill_at:
            break
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    before_restart = Game.resume(log)[0]
    assert len(before_restart.record.events) >= reported, "an event the child had committed was lost"
    before_restart.close()

    # The table went on for a second (10 frames) while the companion was down.
    restart = subprocess.run([sys.executable, "-c", CHILD, str(log), str(stream_path), str(seen_index + 10),
                              str(person_path)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert restart.returncode == 0, restart.stderr
    assert restart.stdout.rstrip().endswith("done")
    said += restart.stdout.splitlines()
    assert not [line for line in said if line.startswith("false")], "a move that was not played was committed"
    # Only the moves jumped over by the restart can be beyond telling apart: one question at most.
    assert len([line for line in said if line.startswith("person")]) <= 1
    game, problem = Game.resume(log)
    assert problem is None
    assert game.state == truth
    assert _moves(game.record.events_in_force()) == _moves(played.record.events_in_force())
    assert [b.score for b in game.state.boards] == [b.score for b in truth.boards]
    game.close()
