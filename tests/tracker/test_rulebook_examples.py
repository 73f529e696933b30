"""Every worked example of the classic rulebooks (../shared/seeds/000, 001, 004, BGA's help 002)."""

from __future__ import annotations

import pytest

from tracker import CENTRE, FLOOR, OFFER, WALL_TILING, IllegalMove, move
from tracker.notation import wall_from_text
from tracker.scoring import placement_points
from tracker.tiles import BLACK, BLUE, FIRST_PLAYER, RED, WHITE, YELLOW


def test_first_turns_pedro_martin_andrea(position):
    """'Example of first turns': Pedro takes 2 black and the rest goes to the centre; Martín takes the yellow
    and 3 red go to the centre; Andrea takes those 3 red and, first from the centre, the first-player marker,
    which goes on the leftmost space of her floor line."""
    state = position(players=3, names=["Pedro", "Martín", "Andrea"])
    state.deal([["black", "black", "blue", "white"], ["yellow", "red", "red", "red"]] + [
        ["blue", "yellow", "red", "black"]] * 5)
    state.play(move(0, BLACK, 1), player=0)
    assert state.factories[0] == {}
    assert state.centre == [1, 0, 0, 0, 1]
    state.play(move(1, YELLOW, 0), player=1)
    assert state.centre == [1, 0, 3, 0, 1]
    assert state.centre_has_marker
    state.play(move(CENTRE, RED, 2), player=2)
    andrea = state.boards[2]
    assert andrea.floor == [FIRST_PLAYER]
    assert andrea.holds_first_player and not state.centre_has_marker
    assert (andrea.pattern_colour[2], andrea.pattern_count[2]) == (RED, 3)
    assert state.marker_taker == 2


def test_andrea_three_options_for_two_yellow_tiles(position):
    """Andrea takes 2 yellow: not pattern line 2 or 3 (their wall rows have yellow), not line 4 (it holds
    blue); she may put one on line 1 and the other on the floor (A), both on line 5 (B), or both on the floor (C)."""
    state = position(boards=[{
        "wall": [".....", "..Y..", "...Y.", ".....", "....."],
        "lines": ["", "", "", "B", ""],
    }])
    state.deal([["yellow", "yellow", "red", "black"]] + [["blue", "blue", "white", "white"]] * 4)
    options = [m for m in state.legal_moves() if m.source == 0 and m.colour == YELLOW]
    assert [m.line for m in options] == [0, 4, FLOOR]
    for line, rule in ((1, "wall_has_colour"), (2, "wall_has_colour"), (3, "line_other_colour")):
        problem = state.explain_illegal(move(0, YELLOW, line))
        assert problem is not None and problem.rule == rule
    with pytest.raises(IllegalMove, match="already holds blue"):
        state.play(move(0, YELLOW, 3))
    option_a = state.copy()
    option_a.play(move(0, YELLOW, 0))
    board = option_a.boards[0]
    assert (board.pattern_count[0], board.floor) == (1, [YELLOW])
    option_b = state.copy()
    option_b.play(move(0, YELLOW, 4))
    assert (option_b.boards[0].pattern_count[4], option_b.boards[0].floor) == (2, [])
    option_c = state.copy()
    option_c.play(move(0, YELLOW, FLOOR))
    assert option_c.boards[0].floor == [YELLOW, YELLOW]


def test_pedro_wall_tiling(position):
    """Pedro's second line is full of red: its rightmost tile goes to the red wall space, 1 point. His third
    line is not full and stays. His fourth line (blue) is full: 1 point. His fifth is not full and stays.
    The rest of lines 2 and 4 goes to the lid."""
    state = position(boards=[{"lines": ["", "RR", "KK", "BBBB", "WWW"]}], phase=WALL_TILING)
    lid_before = state.lid[:]
    [report, _] = state.tile_walls()
    assert [(p.row, p.colour, p.column, p.points) for p in report.placements] == [(1, RED, 3, 1), (3, BLUE, 3, 1)]
    board = state.boards[0]
    assert board.score == 2
    assert board.wall[1][3] == RED and board.wall[3][3] == BLUE
    assert (board.pattern_count[1], board.pattern_count[3]) == (0, 0)
    assert (board.pattern_colour[2], board.pattern_count[2]) == (BLACK, 2)
    assert (board.pattern_colour[4], board.pattern_count[4]) == (WHITE, 3)
    assert state.lid[RED] - lid_before[RED] == 1 and state.lid[BLUE] - lid_before[BLUE] == 3


@pytest.mark.parametrize(
    "wall, row, column, points",
    [
        # "Placing the red tile gives you 1 point": no neighbours.
        ([".....", ".....", ".....", ".....", "....."], 1, 3, 1),
        # "The yellow tile gives 3 points for 3 tiles linked horizontally."
        ([".....", "WB...", ".....", ".....", "....."], 1, 2, 3),
        # "The blue tile gives 3 points for the tiles linked vertically."
        ([".....", ".....", ".....", "....Y", "....B"], 2, 4, 3),
        # "The yellow tile gives 4 points horizontally and 3 vertically": 7.
        ([".....", "...R.", "KWB..", "...B.", "....."], 2, 3, 7),
    ],
)
def test_scoring_examples(wall, row, column, points):
    grid = wall_from_text(wall)
    grid[row][column] = 0  # the tile just placed (any colour: adjacency ignores colour)
    assert placement_points(grid, row, column) == points


def test_yellow_tile_scores_4_plus_3_through_wall_tiling(position):
    state = position(boards=[{"wall": [".....", "...R.", "KWB..", "...B.", "....."], "lines": ["", "", "YYY", "", ""],
                              "score": 10}], phase=WALL_TILING)
    [report, _] = state.tile_walls()
    assert report.placements[0].points == 7 and state.boards[0].score == 17


def test_pedro_loses_8_points_with_4_tiles_and_the_marker(position):
    """'Pedro loses 8 points: he has 4 tiles and the first-player marker on his floor line.'"""
    state = position(boards=[{"floor": "FRRBK", "score": 12}], phase=WALL_TILING, marker_taker=0)
    [report, _] = state.tile_walls()
    assert (report.floor_items, report.floor_penalty) == (5, 8)
    assert state.boards[0].score == 4
    # The marker goes in front of its holder, who starts the next round; the 4 tiles go to the lid.
    assert state.start_player == 0 and state.boards[0].floor == []
    assert state.lid[RED] == 2 and state.lid[BLUE] == 1 and state.lid[BLACK] == 1


def test_score_never_below_zero(position):
    state = position(boards=[{"floor": "FRRBK", "score": 3}], phase=WALL_TILING)
    state.tile_walls()
    assert state.boards[0].score == 0


def test_game_ends_after_the_round_a_row_is_completed_with_bonuses(position):
    """End of game: +2 per complete row, +7 per complete column, +10 per colour with all 5 tiles."""
    state = position(boards=[
        {"wall": ["BYRK.", "WBYRK", "KWBYR", "RKWBY", "YRKWB"], "lines": ["W", "", "", "", ""], "score": 40},
        {"wall": ["B....", ".....", ".....", ".....", "....."], "score": 45},
    ], phase=WALL_TILING)
    state.tile_walls()
    assert state.phase == "over"
    first, second = state.final_scores
    # The white tile completes row 1 and column 5: 5 + 5 = 10 points; then the full wall's bonuses.
    assert first.score_before_bonus == 50
    assert (first.complete_rows, first.complete_columns, first.complete_colours) == (5, 5, 5)
    assert first.bonus == 2 * 5 + 7 * 5 + 10 * 5 and first.score == 50 + 95
    assert second.bonus == 0 and second.score == 45
    assert state.winners() == [0]


def test_refill_pours_the_lid_when_the_bag_runs_out_and_short_deal(position):
    """'If the bag is empty, refill it with the tiles in the box lid'; 'if you run out of tiles again and the
    lid is empty, start the round normally even though not all factory displays are full'."""
    import random

    state = position(bag=[2, 2, 2, 2, 2], lid=[1, 1, 1, 1, 1])
    deal = state.deal_random(random.Random(7))
    assert [len(f) for f in deal] == [4, 4, 4, 3, 0]
    assert state.bag == [0] * 5 and state.lid == [0] * 5
    assert state.phase == OFFER
