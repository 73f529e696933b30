"""Board spaces read again in the light of their board: neighbours' tiles and the board's own template of a tile
(seeds < 1000; the bench measures on others)."""

from calibration.geometry import FLOOR, PATTERN, WALL, board_spaces
from calibration.profile import DEFAULT_LAYOUT
from vision.board_reader import _neighbours
from web_dashboard.vision_bench import run_game

ABOVE, BELOW, LEFT, RIGHT = range(4)


def test_neighbours_are_the_spaces_a_pitch_away_on_the_print():
    spaces = [s for s in board_spaces(DEFAULT_LAYOUT) if s.kind in (PATTERN, WALL, FLOOR)]
    index = {(s.kind, s.index): i for i, s in enumerate(spaces)}
    near = _neighbours(spaces)
    middle = near[index[(WALL, (2, 2))]]
    assert [spaces[j].index for j in middle] == [(1, 2), (3, 2), (2, 1), (2, 3)]
    # The arrow column between the pattern lines and the wall is wider than a pitch.
    assert near[index[(WALL, (2, 0))], LEFT] == -1 and near[index[(PATTERN, (2, 0))], RIGHT] == -1
    # Slot 0 of line 2 (rightmost) sits under slot 0 of line 1; the floor is one row.
    assert near[index[(PATTERN, (2, 0))], ABOVE] == index[(PATTERN, (1, 0))]
    assert near[index[(PATTERN, (2, 1))], RIGHT] == index[(PATTERN, (2, 0))]
    floor = near[[index[(FLOOR, (i,))] for i in range(7)]]
    assert (floor[:, [ABOVE, BELOW]] == -1).all() and floor[0, LEFT] == -1 and floor[6, RIGHT] == -1


def test_wall_tiles_on_their_own_print_and_empty_spaces_among_tiles_read_right():
    # Tuning seed 587 (1280x720, bright tiles, classic board), not among the seeds the weights were fitted on:
    # 7 empty wall spaces among tiles were read as tiles over its first 4 frames from each space's own patch
    # alone, none with the board's context.
    score, _ = run_game(587, 4, 4, size=None)
    assert [e for e in score.errors if e[0] == "board" and e[2] == "wall"] == []
