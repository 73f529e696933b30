"""The gray side of the wall (one print, any colour on it) is read again in the light of its board, as the colored
side is, and a third time against its board's tiles (seeds < 1000; the bench measures on others)."""

from web_dashboard.vision_bench import bench_frames


def _held(wall: list[list]) -> list[list[bool]]:
    return [[space is not None for space in row] for row in wall]


def _walls_read_right(seed: int) -> bool:
    rec, view, frame = next(bench_frames(seed, 1, variant="gray"))
    obs = rec.recognize(frame.image)
    return [_held(ob["wall"]) for ob in obs["boards"]] == [_held(tb["wall"]) for tb in view["boards"]]


def test_empty_gray_wall_spaces_among_tiles_read_empty():
    # Tuning seed 2 (gray walls, 1280x720, bright tiles, glare 0.61), frame 0: two empty wall spaces of board 3
    # beside tiles, (2, 1) and (4, 1), read as tiles before (their neighbours' shadows and side faces).
    assert _walls_read_right(2)


def test_pale_tiles_on_the_gray_wall_read_as_tiles():
    # Tuning seed 403 (gray walls, 640x480, matte tiles), frame 0: two white tiles on board 3's wall, (0, 1) and
    # (2, 2), changed their gray print too little to read as tiles before; against the board's own tiles they do.
    assert _walls_read_right(403)


def test_tiles_on_a_gray_wall_under_the_lamps_reflection_read_their_colours():
    # Tuning seed 16 (gray walls, 1280x720, classic tiles, glare 0.44): the lamp's reflection lies over board 0's
    # wall more than over its pattern lines and floor, where the board's glare is fitted; read with that glare
    # its black and blue tiles read white (7 wall spaces over 4 frames). The wall's own glare reads them right.
    wrong = 0
    for rec, view, frame in bench_frames(16, 4, variant="gray"):
        got, want = rec.recognize(frame.image)["boards"][0]["wall"], view["boards"][0]["wall"]
        wrong += sum(g != w for row, truth in zip(got, want) for g, w in zip(row, truth))
    assert wrong == 0


def test_a_gray_walls_tile_colours_are_weighed_against_its_boards_tiles():
    # Tuning seed 33 (gray walls), frame 0: a white tile on board 3's wall, (1, 4), read black by the colour model;
    # it looks like the board's white tiles in its pattern lines and floor, and reads white against them.
    assert _wall_colours_read_right(33, 0)


def test_a_gray_walls_glare_far_from_its_boards_must_be_worth_it():
    # Tuning seed 43 (gray walls), frame 1: board 2's wall's few tiles fitted a glare far above its board's, which
    # darkened its white tiles to black (4 wall spaces); the wall's glare now pays for its distance from the board's.
    assert _wall_colours_read_right(43, 1)


def test_a_gray_walls_tiles_are_exemplars_for_its_other_tiles():
    # Tuning seed 25 (gray walls), frame 3: a black tile on board 3's wall, (2, 0), read blue; the board's tiles
    # in its pattern lines and floor lie on cream, under the board's glare, but the wall's clear black tiles lie on
    # the same gray print under the wall's glare, and it reads black against them.
    assert _wall_colours_read_right(25, 3)


def _wall_colours_read_right(seed: int, index: int) -> bool:
    *_, (rec, view, frame) = bench_frames(seed, index + 1, variant="gray")
    return [ob["wall"] for ob in rec.recognize(frame.image)["boards"]] == [tb["wall"] for tb in view["boards"]]
