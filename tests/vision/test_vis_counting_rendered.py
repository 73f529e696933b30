"""Colour counts of factory displays and the centre on the bench's own rendered games (tuning seeds only)."""

import pytest

from web_dashboard.vision_bench import bench_frames

COLOURS = ("blue", "yellow", "red", "black", "white")


def bench_game(seed: int, frames: int = 4) -> list[tuple[dict, dict]]:
    """(truth, observation) per frame, exactly as `run_game(seed, 4, frames, size=None)` renders and reads them."""
    return [(view, rec.recognize(frame.image)) for rec, view, frame in bench_frames(seed, frames)]


def counts(seen: dict) -> dict:
    return {c: seen.get(c, 0) for c in COLOURS}


@pytest.fixture(scope="module")
def game19() -> list[tuple[dict, dict]]:
    return bench_game(19)


def test_tile_shadows_on_a_pale_table_are_not_the_first_player_marker(game19):
    # A grey-linen table: the tiles' cast shadows, the table darkened, look like the cream marker and once filled
    # its core (frames 0, 1 and 3 read a marker that was not there).
    for view, obs in game19:
        assert obs["center"]["first_player"] == view["first_player"]


@pytest.fixture(scope="module")
def game1() -> list[tuple[dict, dict]]:
    return bench_game(1)


def test_white_tiles_with_their_motif_over_the_rosette_are_counted(game1):
    # Seed 1, frame 3, display 7: two white tiles side by side; their dark snowflakes, in the middle of each
    # tile, match the blue rosette under them and read as no tile, so the second tile's core fell short.
    view, obs = game1[3]
    assert counts(obs["factories"][7]) == counts(view["factories"][7]) == counts({"white": 2, "yellow": 1, "red": 1})


def test_white_tiles_close_to_the_rosette_in_colour_are_counted(game1):
    # Seed 1, frame 1, display 5: two white tiles over the rosette, within 8 of its pale blue: read as the empty
    # display there, one tile's core fell short.
    view, obs = game1[1]
    assert counts(obs["factories"][5]) == counts(view["factories"][5]) == counts({"white": 2})


def test_a_black_tile_whose_core_reads_patchy_is_counted_where_nothing_else_explains_the_change():
    # Seed 7 ("bright" tiles): black tiles under a blue cast read partly as blue side faces, so their cores fill
    # to a doubt only; nothing else is there, and the displays changed: frame 2's displays 1 and 8, frame 3's 8.
    game = bench_game(7)
    for k, j in ((2, 1), (2, 8), (3, 8)):
        view, obs = game[k]
        assert counts(obs["factories"][j]) == counts(view["factories"][j])
        assert view["factories"][j].get("black") == 1


def test_the_centres_tiles_are_read_under_the_lamps_reflection():
    # Seed 0: the lamp's reflection lies over the middle of the table (the displays round the centre learned 10-30
    # of it at setup), but the centre has no card to learn it from: its blue, red and black tiles read white and
    # its pale rims the marker in frames 1-3. Read from its own tiles, frame by frame, the glare comes off.
    game = bench_game(0)
    for view, obs in game[1:]:
        assert counts(obs["center"]) == counts(view["center"])
        assert obs["center"]["first_player"] == view["first_player"]


def test_two_touching_white_tiles_are_two(game19):
    # Seed 19, frame 0 display 0 and frame 1 display 3: two touching white tiles (and a red one); their snowflakes
    # read as no tile, so the place between them filled a tile's disc best and was taken first: read as three.
    for k, j in ((0, 0), (1, 3)):
        view, obs = game19[k]
        assert counts(obs["factories"][j]) == counts(view["factories"][j]) == counts({"white": 2, "red": 1})


def test_three_white_tiles_two_of_them_touching_are_three():
    # Seed 21, frame 3, display 5: three white tiles and a yellow one, read as two white.
    view, obs = bench_game(21)[3]
    assert counts(obs["factories"][5]) == counts(view["factories"][5]) == counts({"white": 3, "yellow": 1})
