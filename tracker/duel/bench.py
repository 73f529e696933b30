"""The Duel rules benchmark: complete random Azul Duel games per second.

A game is played as a user of the library plays it: `legal_actions()`, a uniformly random choice, `play()`
(which checks it), random refills and stack draws, random legal dome-tiling choices, until the game is over.
The component data is the placeholder set built in code (not the printed game's faces).
"""

from __future__ import annotations

import random

from tracker.duel.components import DuelComponents
from tracker.duel.game import DuelGame
from tracker.duel.state import DEAL, DOME_TILING, OVER, DuelState, random_dome_choices


def random_duel_game(components: DuelComponents, rng: random.Random, start_score: int = 5) -> DuelState:
    state = DuelState.new(components, start_player=rng.randrange(2), start_score=start_score)
    while state.phase != OVER:
        if state.phase == DEAL:
            state.deal(state.draw_deal(rng))
        elif state.phase == DOME_TILING:
            state.tile_domes(random_dome_choices(state, rng))
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            revealed = state.random_reveal(action, rng)
            state.play(action, revealed=revealed)
    return state


def random_step(game: DuelGame, rng: random.Random) -> None:
    """One random event of a logged game: a refill, a uniformly random legal action, or dome tiling."""
    state = game.state
    if state.phase == DEAL:
        game.deal_random(rng)
    elif state.phase == DOME_TILING:
        game.tile_domes(random_dome_choices(state, rng))
    else:
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        game.play(action, revealed=state.random_reveal(action, rng))
