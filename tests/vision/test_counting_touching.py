"""Two touching tiles of one colour seen as one: picked between them, a tile's explained disc leaves a crescent of
each on either side of it, what changed there reading their colour (TOUCHING): the tile is two."""

from calibration.colour_model import COLOURS


def test_rendered_two_touching_red_tiles_are_two():
    # Tuning seed 20 (gray walls), frame 1, display 3: two red tiles touching, a yellow and a blue one; one red tile
    # was found between the two red ones, 0.4-0.5 sides from each (red 1, at confidence 0.32).
    from web_dashboard.vision_bench import bench_frames

    *_, (rec, view, frame) = bench_frames(20, 2, variant="gray")
    seen = rec.recognize(frame.image)["factories"][3]
    assert view["factories"][3] == {"blue": 1, "yellow": 1, "red": 2}
    assert {c: seen.get(c, 0) for c in COLOURS} == {c: view["factories"][3].get(c, 0) for c in COLOURS}


def test_rendered_a_white_tile_with_its_lit_bevels_beside_it_stays_one():
    # Tuning seed 8 (gray walls), frame 2, display 8: a white tile whose lit bevels and what changed round it lie on
    # both sides of it, as two touching tiles' crescents do (white is left out of TOUCHING: it read white 2).
    from web_dashboard.vision_bench import bench_frames

    *_, (rec, view, frame) = bench_frames(8, 3, variant="gray")
    seen = rec.recognize(frame.image)["factories"][8]
    assert view["factories"][8].get("white") == 1
    assert {c: seen.get(c, 0) for c in COLOURS} == {c: view["factories"][8].get(c, 0) for c in COLOURS}
