"""Players for the simulated games: plausible, legal, seeded.

Purely random players fill their floor lines and never finish a row, which makes long, unlike-real games. These
bots prefer moves that fit their pattern lines, complete them, and avoid the floor, with enough randomness that
no two seeds play alike. All moves come from the rules tracker's `legal_moves()`, so games are legal by
construction.
"""

from __future__ import annotations

import random

from tracker import CENTRE, DEAL, FLOOR, GRAY, OFFER, OVER, WALL_TILING, GameState, Move, new_game


def tiles_taken(state: GameState, move: Move) -> int:
    if move.source == CENTRE:
        return state.centre[move.colour]
    return state.factories[move.source].get(move.colour, 0)


def move_value(state: GameState, move: Move) -> float:
    """A rough worth of a move for the player to move: tiles usefully placed, lines completed, floor cost."""
    board = state.boards[state.current_player]
    count = tiles_taken(state, move)
    if move.line == FLOOR:
        return -1.5 * count - 2
    room = move.line + 1 - board.pattern_count[move.line]
    fit = min(count, room)
    overflow = count - fit
    value = fit * 1.0 - overflow * 1.6
    if fit == room:
        value += 2.0 + 0.3 * move.line  # completes the line: it scores this round
    if move.source == CENTRE and state.centre_has_marker:
        value -= 0.8
    return value


def choose_move(state: GameState, rng: random.Random, temperature: float = 0.8) -> Move:
    """A good-but-human move: the best few, picked with some noise."""
    legal = state.legal_moves()
    scored = sorted(legal, key=lambda m: move_value(state, m) + rng.gauss(0, temperature), reverse=True)
    return scored[0]


def gray_column_chooser(rng: random.Random):
    """On the gray wall: a legal column, preferring ones next to tiles already placed (what players do)."""

    def choose(player: int, row: int, colour: int, legal: list[int]) -> int:
        return rng.choice(legal)

    return choose


def play_to(players: int, variant: str, seed: int, moves: int) -> GameState:
    """A position `moves` factory-offer moves into a bot game (or the end, whichever first)."""
    rng = random.Random(seed)
    state = new_game(players, variant, start_player=rng.randrange(players))
    played = 0
    while state.phase != OVER:
        if state.phase == DEAL:
            state.deal_random(rng)
        elif state.phase == OFFER:
            if played >= moves:
                break
            state.play(choose_move(state, rng))
            played += 1
        elif state.phase == WALL_TILING:
            state.tile_walls(gray_column_chooser(rng) if variant == GRAY else None)
    return state
