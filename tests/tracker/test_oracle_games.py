"""Replays the recorded games of an independent engine (../shared/oracle) through the tracker.

Two checks per file:
- replay: every recorded deal and move is fed to the tracker; after every round the scores, walls,
  pattern lines and next start player must match, and at the end the bonuses and final scores;
- regeneration: from the seed alone, using the README's random-number procedure and the tracker's own
  legal-move list (same order as the engine's), the tracker must rebuild the recorded line byte for byte.
  This checks legal-move generation and the bag/lid procedure, not just scoring.

Where the engine departs from RULES.md: it records no winner, so the official tie-break (most complete rows,
then a shared victory) is not checked here; tests/tracker/test_scoring_table.py covers it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tracker import DEAL, OFFER, OVER, WALL_TILING, GameState, Move, new_game
from tracker.moves import FLOOR
from tracker.tiles import COLOUR_NAMES, EMPTY

ORACLE = Path(__file__).resolve().parents[3] / "shared" / "oracle"
FILES = ["azulbot-2p.jsonl", "azulbot-4p.jsonl", "azulbot-tidy-2p.jsonl", "azulbot-tidy-4p.jsonl"]


def _lines(name: str) -> list[str]:
    path = ORACLE / name
    assert path.exists(), f"the oracle games are missing: {path} (shared/ must sit beside the checkout)"
    return path.read_text().splitlines()


def _walls(state: GameState) -> list:
    return [[[COLOUR_NAMES[c] if c != EMPTY else None for c in row] for row in b.wall] for b in state.boards]


def _pattern_lines(state: GameState) -> list:
    return [
        [[COLOUR_NAMES[b.pattern_colour[r]]] * b.pattern_count[r] for r in range(5)] for b in state.boards
    ]


@pytest.mark.parametrize("name", FILES)
def test_replay_matches_every_round(name: str) -> None:
    rounds_checked = 0
    for line in _lines(name):
        game = json.loads(line)
        state = new_game(game["players"])
        for rnd in game["rounds"]:
            assert state.phase == DEAL
            assert state.start_player == rnd["start_player"]
            state.deal(rnd["factories"])
            for recorded in rnd["moves"]:
                assert state.phase == OFFER
                state.play(Move.from_json(recorded), player=recorded["player"])
            assert state.phase == WALL_TILING
            state.tile_walls()
            scores = (
                [f.score_before_bonus for f in state.final_scores]
                if state.phase == OVER
                else [b.score for b in state.boards]
            )
            where = f"seed {game['seed']} round {state.round}"
            assert scores == rnd["scores_after"], where
            assert _walls(state) == rnd["walls_after"], where
            assert _pattern_lines(state) == rnd["pattern_lines_after"], where
            assert state.start_player == rnd["first_player_next"], where
            assert state.tile_count() == [20] * 5
            rounds_checked += 1
        assert state.phase == OVER, f"seed {game['seed']}: the game should be over"
        assert [f.bonus for f in state.final_scores] == game["end_bonus"]
        assert [b.score for b in state.boards] == game["final_scores"]
    assert rounds_checked > 1000


def _floor_tiles(state: GameState, move: Move) -> int:
    """Tiles a move sends to the floor line (aimed there, or overflowing the chosen line)."""
    count = state.centre[move.colour] if move.source < 0 else state.factories[move.source][move.colour]
    if move.line == FLOOR:
        return count
    board = state.boards[state.current_player]
    return max(0, count - (move.line + 1 - board.pattern_count[move.line]))


def regenerate(players: int, seed: int, tidy: bool) -> str:
    rng = random.Random(seed)
    state = new_game(players)
    rounds = []
    while state.phase != OVER:
        start = state.start_player
        deal = state.deal_random(rng)
        moves = []
        while state.phase == OFFER:
            legal = state.legal_moves()
            if tidy:
                least = min(_floor_tiles(state, m) for m in legal)
                legal = [m for m in legal if _floor_tiles(state, m) == least]
            chosen = legal[rng.randrange(len(legal))]
            moves.append({"player": state.current_player, **chosen.to_json()})
            state.play(chosen)
        state.tile_walls()
        over = state.phase == OVER
        rounds.append(
            {
                "start_player": start,
                "factories": [[COLOUR_NAMES[c] for c in f] for f in deal],
                "moves": moves,
                "scores_after": [f.score_before_bonus for f in state.final_scores] if over
                else [b.score for b in state.boards],
                "walls_after": _walls(state),
                "pattern_lines_after": _pattern_lines(state),
                "first_player_next": state.start_player,
            }
        )
    game = {
        "players": players,
        "seed": seed,
        "rounds": rounds,
        "final_scores": [b.score for b in state.boards],
        "end_bonus": [f.bonus for f in state.final_scores],
    }
    return json.dumps(game, separators=(",", ":"))


@pytest.mark.parametrize("name", FILES)
def test_regenerated_from_seed_byte_for_byte(name: str) -> None:
    lines = _lines(name)
    tidy = "tidy" in name
    for line in lines:
        head = json.loads(line)
        assert regenerate(head["players"], head["seed"], tidy) == line, f"seed {head['seed']}"
