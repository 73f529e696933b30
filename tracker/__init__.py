"""The rules tracker: classic Azul as a pure-Python library, the game log, and (later) move inference.

The tracker is the source of truth; vision is evidence. Nothing here does I/O except the game log.
"""

from tracker.explain import IllegalMove, InvalidDeal
from tracker.moves import CENTRE, FLOOR, Move, move
from tracker.state import (
    COLORED,
    DEAL,
    GRAY,
    OFFER,
    OVER,
    WALL_TILING,
    FinalScore,
    GameState,
    RoundScore,
    WallPlacement,
)
from tracker.tiles import COLOUR_NAMES, COLOURS, FIRST_PLAYER, colour_name, parse_colour


def new_game(players: int, variant: str = COLORED, start_player: int = 0, names=()) -> GameState:
    """A game at setup: 100 tiles in the bag, empty boards, the first player holding the marker."""
    return GameState.new(players, variant, start_player, names)


__all__ = [
    "CENTRE", "COLORED", "COLOURS", "COLOUR_NAMES", "DEAL", "FIRST_PLAYER", "FLOOR", "GRAY", "OFFER", "OVER",
    "WALL_TILING", "FinalScore", "GameState", "IllegalMove", "InvalidDeal", "Move", "RoundScore",
    "WallPlacement", "colour_name", "move", "new_game", "parse_colour",
]
