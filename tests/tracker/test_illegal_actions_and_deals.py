"""Each rule a move or a deal can break, with the explanation a player reads."""

from __future__ import annotations

import random

import pytest

from tracker import CENTRE, GRAY, WALL_TILING, IllegalMove, InvalidDeal, move, new_game
from tracker.tiles import BLACK, BLUE, RED, WHITE, YELLOW

DEAL_2P = [["red", "red", "blue", "blue"], ["black"] * 4, ["white"] * 4, ["yellow"] * 4, ["blue"] * 4]


@pytest.fixture
def dealt(position):
    state = position(boards=[{"wall": ["..R..", ".....", ".....", ".....", "....."], "lines": ["", "", "BB", "", ""]}],
                     names=["Ana", "Ben"])
    state.deal(DEAL_2P)
    return state


@pytest.mark.parametrize(
    "action, rule, words",
    [
        (move(0, RED, 0), "wall_has_colour", "row 1 of the wall already has a red tile"),
        (move(0, RED, 2), "line_other_colour", "pattern line 3 already holds blue"),
        (move(1, RED, 1), "colour_absent", "factory display 2 holds no red tiles"),
        (move(CENTRE, RED, 1), "colour_absent", "the centre holds no red tiles"),
        (move(7, RED, 1), "no_such_source", "there is no factory display 8: this game has 5"),
    ],
)
def test_illegal_moves_name_the_rule(dealt, action, rule, words):
    with pytest.raises(IllegalMove) as raised:
        dealt.play(action)
    assert raised.value.rule == rule and words in str(raised.value)


def test_empty_display_and_out_of_turn(dealt):
    dealt.play(move(0, RED, 1))
    with pytest.raises(IllegalMove, match="factory display 1 is empty"):
        dealt.play(move(0, BLUE, 1))
    with pytest.raises(IllegalMove, match="it is Ben's turn, not Ana's") as raised:
        dealt.play(move(1, BLACK, 0), player=0)
    assert raised.value.rule == "turn"


def test_a_full_line_of_the_same_colour_is_the_floor_move(position):
    state = position(boards=[{"lines": ["", "RR", "", "", ""]}])
    state.deal(DEAL_2P)
    assert move(0, RED, 1) not in state.legal_moves()
    state.play(move(0, RED, 1))
    assert state.boards[0].floor == [RED, RED] and state.boards[0].pattern_count[1] == 2


def test_no_tiles_after_the_offer(position):
    state = position(phase=WALL_TILING)
    with pytest.raises(IllegalMove, match="wall tiling phase"):
        state.play(move(0, RED, 0))
    assert state.legal_moves() == []


def test_gray_wall_column_rules(position):
    state = position(variant=GRAY, boards=[{"wall": ["B....", ".....", ".....", ".....", "....."],
                                             "lines": ["", "BB", "", "", ""]}], phase=WALL_TILING)
    with pytest.raises(IllegalMove, match="column 1 already has a blue tile"):
        state.copy().tile_walls({(0, 1): 0})
    assert state.legal_wall_columns(0, 1, BLUE) == [1, 2, 3, 4]


def test_colored_wall_has_one_space_per_colour(position):
    state = position(boards=[{"lines": ["W", "", "", "", ""]}], phase=WALL_TILING)
    with pytest.raises(IllegalMove, match="white belongs in column 5 of row 1, not column 1"):
        state.copy().tile_walls({(0, 0): 0})


# ---- deals ------------------------------------------------------------------------------------------

def test_a_seen_deal_must_fit_the_bag(position):
    state = position(bag=[20, 20, 3, 20, 20])
    with pytest.raises(InvalidDeal, match="4 red tiles but the bag holds only 3"):
        state.deal([["red"] * 4] + [["blue"] * 4] * 4)
    with pytest.raises(InvalidDeal, match="every factory display must get 4"):
        state.deal([["red"] * 3] + [["blue"] * 4] * 4)
    with pytest.raises(InvalidDeal, match="at most 4"):
        state.deal([["red"] * 5] + [["blue"] * 4] * 3 + [["black"] * 3])
    with pytest.raises(InvalidDeal, match="lists 4 factory displays"):
        state.deal([["blue"] * 4] * 4)
    with pytest.raises(InvalidDeal, match="unknown tile colour 'green'"):
        state.deal([["green"] * 4] + [["blue"] * 4] * 4)
    assert state.phase == "deal" and state.bag == [20, 20, 3, 20, 20]


def test_a_deal_that_needs_the_lid_must_empty_the_bag(position):
    state = position(bag=[2, 0, 0, 0, 0], lid=[10, 10, 10, 10, 10])
    with pytest.raises(InvalidDeal, match="must include every tile left in the bag"):
        state.deal([["red"] * 4] * 5)
    state.deal([["blue", "blue", "red", "red"]] + [["red", "black", "white", "yellow"]] * 4)
    assert state.bag == [10, 6, 4, 6, 6] and state.lid == [0] * 5


def test_short_deal_when_bag_and_lid_run_dry(position):
    state = position(bag=[3, 0, 0, 0, 0], lid=[0, 2, 2, 0, 0])
    with pytest.raises(InvalidDeal, match="the bag and lid hold 7: all of them must be dealt"):
        state.deal([["blue", "blue", "blue", "yellow"], [], [], [], []])
    state.deal([["blue", "blue", "blue", "yellow"], ["yellow", "red", "red"], [], [], []])
    assert state.bag == [0] * 5 and state.lid == [0] * 5 and state.legal_moves()


def test_random_deal_draws_uniformly_from_the_bag_first():
    state = new_game(2)
    state.bag, state.lid = [1, 0, 0, 0, 0], [0, 0, 0, 0, 30]
    deal = state.deal_random(random.Random(3))
    assert deal[0][0] == BLUE and sum(map(len, deal)) == 20 and deal[0].count(WHITE) == 3
    assert state.lid == [0] * 5 and state.bag == [0, 0, 0, 0, 11]
    assert YELLOW not in sum(deal, [])
