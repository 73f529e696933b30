"""The rules benchmark: complete random games per second, and the time to list all legal moves.

Random games are played the way a user of the library would play them: `legal_moves()`, a uniformly random
choice, `play()` (which checks the move), the random deal, and wall tiling, until the game is over.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from tracker.duel.bench import random_duel_game
from tracker.duel.components import placeholder_components
from tracker.state import DEAL, OFFER, OVER, GameState


def random_game(players: int, rng: random.Random, variant: str = "colored") -> GameState:
    state = GameState.new(players, variant)
    while state.phase != OVER:
        if state.phase == OFFER:
            legal = state.legal_moves()
            state.play(legal[rng.randrange(len(legal))])
        elif state.phase == DEAL:
            state.deal_random(rng)
        else:
            state.tile_walls()
    return state


def per_second(play_one, seconds: float, minimum: int = 3) -> tuple[float, int]:
    """How many times per second `play_one()` runs, over at least `seconds` and `minimum` runs."""
    runs = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or runs < minimum:
        play_one()
        runs += 1
    return runs / elapsed, runs


def games_per_second(players: int, seconds: float, seed: int = 1) -> tuple[float, int]:
    rng = random.Random(seed)
    return per_second(lambda: random_game(players, rng), seconds)


def duel_games_per_second(seconds: float, seed: int = 1) -> float:
    """Complete random Duel games per second (made-up component data: the rules' cost does not depend on it)."""
    components = placeholder_components()
    rng = random.Random(seed)
    return per_second(lambda: random_duel_game(components, rng), seconds)[0]


def mid_game_positions(count: int, seed: int = 2) -> list[GameState]:
    """Positions from the offer of round 2 or later, a few moves in: what a tracker meets mid-game."""
    rng = random.Random(seed)
    positions: list[GameState] = []
    while len(positions) < count:
        state = GameState.new(rng.choice((2, 3, 4)))
        target_round = rng.randint(2, 4)
        target_moves = rng.randint(2, 8)
        moves = 0
        while state.phase != OVER and len(positions) < count:
            if state.phase == OFFER:
                if state.round == target_round and moves == target_moves:
                    positions.append(state.copy())
                    break
                legal = state.legal_moves()
                state.play(legal[rng.randrange(len(legal))])
                moves += state.round == target_round
            elif state.phase == DEAL:
                state.deal_random(rng)
            else:
                state.tile_walls()
    return positions


def legal_moves_median_us(positions: list[GameState], repeat: int = 200, cold: bool = True) -> float:
    """Median over positions of the per-call time of legal_moves(). Cold: the player's board has just changed,
    so its per-colour line masks are recomputed on every call (the honest, worse case)."""
    per_position = []
    for state in positions:
        board = state.boards[state.current_player]
        timings = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(repeat):
                if cold:
                    board._allowed = None
                state.legal_moves()
            timings.append((time.perf_counter() - start) / repeat)
        per_position.append(min(timings))
    return statistics.median(per_position) * 1e6


@dataclass(frozen=True)
class RulesFigures:
    games_per_s_2p: float
    games_per_s_4p: float
    legal_moves_us: float
    legal_moves_us_cached: float
    duel_games_per_s: float
    games_2p: int
    games_4p: int
    positions: int
    mean_legal_moves: float


def rules_figures(seconds: float = 3.0) -> RulesFigures:
    rate2, n2 = games_per_second(2, seconds)
    rate4, n4 = games_per_second(4, seconds)
    positions = mid_game_positions(200)
    return RulesFigures(
        games_per_s_2p=rate2,
        games_per_s_4p=rate4,
        legal_moves_us=legal_moves_median_us(positions, cold=True),
        legal_moves_us_cached=legal_moves_median_us(positions, cold=False),
        duel_games_per_s=duel_games_per_second(seconds),
        games_2p=n2,
        games_4p=n4,
        positions=len(positions),
        mean_legal_moves=statistics.mean(len(p.legal_moves()) for p in positions),
    )
