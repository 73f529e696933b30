"""Killing the tracking process at a random moment and restarting it resumes the same game, nothing lost.

The child process follows a table (a stream of observations, as the camera would deliver them) and commits
moves to a game log. The parent SIGKILLs it at a random moment; the table goes on while it is down; a new
child resumes from the log and follows the table to the end of the game.
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

from tracker import OFFER, OVER, WALL_TILING, new_game
from tracker.game import Game

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CHILD = textwrap.dedent(
    """
    import json, os, sys
    from tracker.game import Game
    from tracker.inference import MoveTracker
    log, stream, start = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if os.path.exists(log):
        game, problem = Game.resume(log)
    else:
        game = Game.new(2, log_path=log)
    tracker = MoveTracker(game)
    with open(stream) as f:
        for index, line in enumerate(f):
            if index < start:
                continue
            status = tracker.observe(json.loads(line))
            print(index, len(game.record.events), flush=True)
    print("done", flush=True)
    """
)


def _observation(table: dict, t: float, hidden: set) -> dict:
    obs = json.loads(json.dumps(table))
    obs["timestamp"] = t
    for i, board in enumerate(obs["boards"]):
        board["occluded"] = ("board", i) in hidden
    obs["factories"] = [{"counts": f, "occluded": ("factory", j) in hidden} for j, f in enumerate(obs["factories"])]
    obs["center"] = {"counts": obs["center"], "first_player": obs["first_player"], "occluded": ("centre", 0) in hidden}
    return obs


def _stream(seed: int) -> tuple[list[dict], object]:
    """A whole 2-player game as the camera sees it at 10 fps: hands over the regions of each move."""
    rng = random.Random(seed)
    truth = new_game(2)
    out: list[dict] = []
    t = 0.0

    def frames(n, hidden=frozenset()):
        nonlocal t
        for _ in range(n):
            t += 0.1
            out.append(_observation(truth.to_table(), t, hidden))

    truth.deal_random(rng)
    frames(6)
    while truth.phase != OVER:
        if truth.phase == OFFER:
            legal = truth.legal_moves()
            m = legal[rng.randrange(len(legal))]
            hidden = {("board", truth.current_player), ("centre", 0)} | ({("factory", m.source)} if m.source >= 0 else set())
            frames(3, hidden)
            truth.play(m)
            frames(5)
        elif truth.phase == WALL_TILING:
            truth.tile_walls()
            frames(6)
        else:
            truth.deal_random(rng)
            frames(6)
    return out, truth


@pytest.mark.parametrize("seed", [3, 17])
def test_sigkill_and_restart_resumes_the_same_game(tmp_path, seed):
    stream, truth = _stream(seed)
    stream_path = tmp_path / "table.jsonl"
    stream_path.write_text("".join(json.dumps(o) + "\n" for o in stream))
    log = tmp_path / "game.jsonl"
    rng = random.Random(seed)
    kill_at = rng.randrange(len(stream) // 4, 3 * len(stream) // 4)

    child = subprocess.Popen([sys.executable, "-c", CHILD, str(log), str(stream_path), "0"],
                             stdout=subprocess.PIPE, text=True, cwd=ROOT)
    reported = 0
    seen_index = 0
    for line in child.stdout:
        index, events = map(int, line.split())
        seen_index, reported = index, events
        if index >= kill_at:
            break
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    before_restart = Game.resume(log)[0]
    assert len(before_restart.record.events) >= reported, "an event the child had committed was lost"
    before_restart.close()

    # The table went on for a second (10 frames) while the companion was down.
    restart = subprocess.run([sys.executable, "-c", CHILD, str(log), str(stream_path), str(seen_index + 10)],
                             capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert restart.returncode == 0, restart.stderr
    assert restart.stdout.rstrip().endswith("done")
    game, problem = Game.resume(log)
    assert problem is None
    assert game.state == truth
    assert [b.score for b in game.state.boards] == [b.score for b in truth.boards]
    game.close()
