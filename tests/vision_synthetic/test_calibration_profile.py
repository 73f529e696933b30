"""The calibration file: a hand-written one loads, a saved one reloads unchanged, mistakes name their field."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from calibration.profile import (
    DEFAULT_LAYOUT,
    BoardLayout,
    CalibrationError,
    dumps,
    from_json,
    load,
    save,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "calibration-format.md"


def hand_written() -> dict:
    return {
        "image_size": [1280, 720],
        "boards": [
            {"name": "Ana", "corners": [[100, 400], [400, 410], [395, 700], [95, 690]]},
            # A board across the table, upside down in the image: TL as read is bottom-right on screen.
            {"corners": [[1180, 320], [880, 310], [885, 20], [1185, 30]]},
        ],
        "factories": [{"center": [500 + 60 * i, 360], "radius": 28} for i in range(5)],
        "center": [[600, 300], [700, 300], [700, 420], [600, 420]],
    }


def test_the_documented_example_loads():
    text = DOC.read_text()
    example = re.search(r"```json\n(.*?)```", text, re.S).group(1)
    profile = from_json(json.loads(example))
    assert profile.players == len(profile.boards) and len(profile.factories) == 2 * profile.players + 1


def test_a_hand_written_profile_loads_and_saves_back_to_the_same_profile(tmp_path):
    profile = from_json(hand_written())
    assert profile.players == 2 and profile.boards[0].name == "Ana"
    assert profile.boards[1].corners[0] == (1180.0, 320.0)
    assert profile.boards[0].effective_layout == DEFAULT_LAYOUT
    profile.boards[1].layout = BoardLayout(wall_x0=0.565)
    profile.learned["colour_model"] = {"blue": [46, 2, -46]}
    path = tmp_path / "cal.json"
    save(profile, path)
    again = load(path)
    assert again == profile
    assert again.boards[1].effective_layout.wall_x0 == 0.565
    # Points stay one to a line, so a person can edit the file.
    assert "[100.0, 400.0]" in path.read_text()
    assert json.loads(dumps(again)) == json.loads(path.read_text())


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.pop("boards"), "missing field 'boards'"),
        (lambda d: d["boards"][1].pop("corners"), "missing field 'boards[1].corners'"),
        (lambda d: d["boards"][0]["corners"].pop(), "'boards[0].corners' must list exactly 4 points"),
        (lambda d: d["boards"][0]["corners"].reverse(), "'boards[0].corners' run anticlockwise"),
        (lambda d: d["boards"][0]["corners"].__setitem__(2, [395, "700"]), "'boards[0].corners[2][1]' must be a number"),
        (lambda d: d["boards"][0]["corners"].__setitem__(1, [99999, 10]), "'boards[0].corners[1]' = [99999, 10] is far outside"),
        (lambda d: d["factories"].pop(), "'factories' lists 4 factory displays, but 2 players use 5"),
        (lambda d: d["factories"][3].__setitem__("radius", -2), "'factories[3].radius' must be positive"),
        (lambda d: d["factories"][2].pop("center"), "missing field 'factories[2].center'"),
        (lambda d: d.pop("center"), "missing field 'center'"),
        (lambda d: d.__setitem__("center", [[1, 2], [3, 4]]), "'center' must be a polygon of at least 3 points"),
        (lambda d: d.__setitem__("variant", "grey"), "'variant' must be 'colored' or 'gray'"),
        (lambda d: d.__setitem__("version", 7), "'version' 7 is not supported"),
        (lambda d: d["boards"][0].__setitem__("layout", {"wall_x": 0.5}), "'boards[0].layout' has unknown field(s) wall_x"),
    ],
)
def test_each_mistake_is_one_clear_message_naming_the_field(change, message):
    data = hand_written()
    change(data)
    with pytest.raises(CalibrationError) as err:
        from_json(data)
    assert message in str(err.value)


def test_centre_is_accepted_with_its_british_spelling():
    data = hand_written()
    data["centre"] = data.pop("center")
    assert len(from_json(data).center) == 4


def test_file_problems_name_the_file(tmp_path):
    with pytest.raises(CalibrationError, match="no such calibration file"):
        load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"boards": [}')
    with pytest.raises(CalibrationError, match=r"bad\.json: not valid JSON: .* line 1"):
        load(bad)
