"""Builders for Azul Duel tests: component data written the way a user writes the JSON file, and positions.

The dome-tile and bonus-tile faces here are the tests' own (the printed ones are not in the rulebook); the only
printed value used is the one the rulebook's scoring example gives: a special tile on the 2nd row scores 2.
"""

from __future__ import annotations

import copy

import pytest

from tracker.duel import ACQUISITION, parse_components
from tracker.duel.components import DUEL_COLOUR_NAMES
from tracker.duel.state import DuelState

# A plain filler dome tile (one joker space) used to make up the 18+ dome tiles a game needs.
FILLER = {"spaces": [["blue", "yellow"], ["red", "joker"]]}


def component_data(
    dome_tiles=(), bonus_tiles=(), special_row_points=None, scoring_tiles=None, corner_points=None
):
    """Component JSON with the given dome tiles first (ids 0, 1, ...), padded to 20 dome tiles and 20 bonus tiles.

    Padding bonus tiles show two colours each, cycling through the five."""
    dome = [copy.deepcopy(t) for t in dome_tiles] + [
        copy.deepcopy(FILLER) for _ in range(max(0, 20 - len(dome_tiles)))
    ]
    bonus = [copy.deepcopy(t) for t in bonus_tiles]
    i = 0
    while len(bonus) < 20:
        bonus.append({"halves": [DUEL_COLOUR_NAMES[i % 5], DUEL_COLOUR_NAMES[(i + 1) % 5]]})
        i += 1
    data = {
        "format": "azul-duel-components",
        "version": 1,
        "placeholder": True,
        "note": "test data",
        "dome_tiles": dome,
        "bonus_tiles": bonus,
        # Row 2's value is the rulebook's (scoring example); the others are the tests' own.
        "special_row_points": special_row_points or [1, 2, 3, 4, 5, 6],
        "scoring_tiles": scoring_tiles or ["rows", "columns", "diagonals"],
    }
    if corner_points is not None:
        data["corner_points"] = corner_points
    return data


@pytest.fixture
def component_json():
    return component_data


@pytest.fixture
def components():
    def build(**kwargs):
        return parse_components(component_data(**kwargs))

    return build


@pytest.fixture
def position(components):
    """A game mid-acquisition (round 2 unless told), empty factories and boards, start player 0 to move.

    position(components=..., round=..., scores=(a, b)) -> DuelState; tests then set the factories and boards.
    """

    def build(comps=None, round: int = 2, scores=(10, 10), **fields) -> DuelState:
        state = DuelState.new(comps or components(), start_score=0)
        state.phase = ACQUISITION
        state.round = round
        state.bag = [0] * 5
        state.tower = [13] * 5  # every tile starts in the tower; tests move the ones they use
        state.dome_display = [0, 1, 2]
        state.dome_stack = list(range(3, len(state.components.dome_tiles)))
        state.bonus_pool = list(range(4, len(state.components.bonus_tiles)))
        state.bonus_on = [0, 1, 2, 3]
        for b, s in zip(state.boards, scores):
            b.score = s
        for name, value in fields.items():
            setattr(state, name, value)
        return state

    return build


def take_from_tower(state: DuelState, colours) -> None:
    """Keep the tile count honest: tiles a test puts on the table come out of the tower."""
    for c in colours:
        assert state.tower[c] > 0
        state.tower[c] -= 1


@pytest.fixture
def tower_take():
    return take_from_tower


def set_line(state: DuelState, player: int, line: int, colour: int, count: int) -> None:
    board = state.boards[player]
    board.pattern_colour[line] = colour
    board.pattern_count[line] = count
    take_from_tower(state, [colour] * count)


@pytest.fixture
def line_setter():
    return set_line


def fill_dome(state: DuelState, player: int, cells) -> None:
    """Put tiles on dome spaces: cells is {(row, column): colour}; the dome tile must already be there."""
    board = state.boards[player]
    for (r, c), colour in cells.items():
        assert board.face[r][c] != -1, "a dome space without a dome tile"
        board.dome[r][c] = colour
        take_from_tower(state, [colour])


@pytest.fixture
def dome_filler():
    return fill_dome
