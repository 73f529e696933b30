import pytest

from tracker import GameState, new_game
from tracker.notation import board_from_text


@pytest.fixture
def position():
    """Build a game in a chosen position: position(players, boards=[board kwargs...], **state fields)."""

    def build(players: int = 2, boards=(), variant: str = "colored", **fields) -> GameState:
        state = new_game(players, variant)
        for i, spec in enumerate(boards):
            state.boards[i] = board_from_text(**spec)
        for name, value in fields.items():
            setattr(state, name, value)
        return state

    return build
