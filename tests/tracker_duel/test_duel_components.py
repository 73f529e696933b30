"""The component data file: loading, checking (errors name the field), round trips, the placeholder set."""

from __future__ import annotations

import json

import pytest

from tracker.duel import ComponentError, load_components, parse_components, placeholder_components
from tracker.duel.components import JOKER, SPECIAL_SPACE, TURQUOISE
from tracker.tiles import BLACK, BLUE, RED, YELLOW


def test_a_user_file_loads(tmp_path, component_json):
    data = component_json(
        dome_tiles=[{"name": "A", "spaces": [["Red", "joker"], ["turquoise", "black"]]}],
        bonus_tiles=[{"halves": ["yellow", None]}],
        corner_points=[3, 8, 8, 3],
        scoring_tiles=["corners", "jokers", "outer_ring", "rows"],
    )
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(data))
    comps = load_components(path)
    tile = comps.dome_tiles[0]
    assert tile.name == "A" and tile.cells == (RED, JOKER, TURQUOISE, BLACK)
    # A quarter-turn clockwise: the bottom-left space comes to the top-left.
    assert tile.rotations[1] == (TURQUOISE, RED, BLACK, JOKER)
    assert tile.rotations[2] == (BLACK, TURQUOISE, JOKER, RED)
    assert comps.bonus_tiles[0].halves == (YELLOW, None)
    assert comps.bonus_tiles[0].shows(YELLOW) and not comps.bonus_tiles[0].shows(BLUE)
    assert comps.corner_points == (3, 8, 8, 3)
    assert comps.scoring_tiles == ("corners", "jokers", "outer_ring", "rows")
    assert len(comps.dome_tiles) == 20 and len(comps.bonus_tiles) == 20
    assert parse_components(comps.to_json()) == comps, "to_json and parse round-trip"


def set_path(data, path, value):
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


@pytest.mark.parametrize(
    "path, value, field",
    [
        (("format",), "azul", "'format'"),
        (("version",), 2, "'version'"),
        (("dome_tiles", 2, "spaces", 0, 1), "purple", "'dome_tiles[2].spaces[0][1]'"),
        (("dome_tiles", 3, "spaces"), [["red", "joker", "blue"], ["red"]], "'dome_tiles[3].spaces'"),
        (("dome_tiles", 4, "spaces"), [["joker", "joker"], ["red", "blue"]], "'dome_tiles[4].spaces'"),
        (("dome_tiles", 5, "spaces"), [["red", "red"], ["blue", "blue"]], "'dome_tiles[5].spaces'"),
        (("dome_tiles", 6, "spaces"), [["special", "joker"], ["blue", "blue"]], "'dome_tiles[6].spaces'"),
        (("dome_tiles",), [], "'dome_tiles'"),
        (("bonus_tiles", 7, "halves", 1), "white", "'bonus_tiles[7].halves[1]'"),
        (("bonus_tiles", 8, "halves"), [None, None], "'bonus_tiles[8].halves'"),
        (("bonus_tiles",), [], "'bonus_tiles'"),
        (("special_row_points",), [1, 2, 3], "'special_row_points'"),
        (("special_row_points", 4), -1, "'special_row_points[4]'"),
        (("scoring_tiles",), ["rows", "colours", "jokers"], "'scoring_tiles[1]'"),
        (("scoring_tiles",), ["rows"], "'scoring_tiles'"),
        (("scoring_tiles",), ["rows", "rows", "jokers"], "'scoring_tiles'"),
        (("scoring_tiles",), ["rows", "corners", "jokers"], "'corner_points'"),
        (("corner_points",), 5, "'corner_points'"),
        (("placeholder",), "yes", "'placeholder'"),
    ],
)
def test_a_bad_file_names_the_field(tmp_path, component_json, path, value, field):
    data = component_json()
    set_path(data, path, value)
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(data))
    with pytest.raises(ComponentError) as err:
        load_components(file)
    assert field in str(err.value), str(err.value)
    assert str(file) in str(err.value)


def test_unreadable_or_invalid_json_is_reported(tmp_path):
    with pytest.raises(ComponentError, match="cannot read"):
        load_components(tmp_path / "missing.json")
    bad = tmp_path / "torn.json"
    bad.write_text('{"format": "azul-duel-components", ')
    with pytest.raises(ComponentError, match="not valid JSON"):
        load_components(bad)


def test_the_placeholder_set_is_marked_and_valid():
    comps = placeholder_components()
    assert comps.placeholder is True
    assert "PLACEHOLDER" in comps.note
    assert parse_components(comps.to_json()) == comps
    kinds = {SPECIAL_SPACE in t.cells for t in comps.dome_tiles}
    assert kinds == {True, False}, "both kinds of dome tile occur"
