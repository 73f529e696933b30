"""`replay` of a game filmed from the start, with a calibration that has learned nothing: the setup is found in the
recording (after the deal, before the first move) and the move tracker follows the game from there. The truth
files are read here only, to check the finder; replay never sees them."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from vision.synthetic.animate import PEOPLE_PACE, GameAnimation
from vision.synthetic.look import Look
from vision.synthetic.output import write_simulation
from web_dashboard.cli import main

# People's pace (the table at rest between moves long enough for the tracker to judge it), no rule broken, no
# board bumped.
PEOPLE = replace(PEOPLE_PACE, misplace_probability=0.0, nudge_probability=0.0)


def _replay(capsys, media, out, *extra: str) -> dict:
    truth_setup = json.loads((out / "moves.jsonl").read_text().splitlines()[0])
    args = ["replay", str(media), "--calibration", str(out / "calibration.json"), "--players", "2",
            "--start-player", str(truth_setup["start_player"] + 1), "--json", *extra]
    assert main(args) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _truth(out) -> list[dict]:
    return [json.loads(line) for line in (out / "truth.jsonl").read_text().splitlines()]


def _true_moves(out) -> list[dict]:
    events = [json.loads(line) for line in (out / "moves.jsonl").read_text().splitlines()]
    return [{k: e[k] for k in ("player", "source", "factory", "color", "line")} for e in events if e["type"] == "move"]


def _assert_found_after_deal_before_first_move(result: dict, truth: list[dict]) -> None:
    setup = result["setup"]
    at = truth[setup["frame"]]
    first_move = next(t["frame"] for t in truth if t["event"]["type"] == "move")
    assert at["event"]["type"] == "deal" and at["event"]["factories_dealt"] == 5
    assert not (any(at["occluded"]["factories"]) or at["occluded"]["center"] or any(at["occluded"]["boards"]))
    assert setup["frame"] < first_move
    assert setup["t"] == pytest.approx(at["time"])
    assert setup["empty_frames"] == sum(t["event"]["type"] == "setup" for t in truth)


def test_simulate_video_setup_found_after_the_deal(tmp_path, capsys):
    out = tmp_path / "sim"
    assert main(["simulate", "--players", "2", "--seed", "3", "--size", "640x480", "--max-frames", "30",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    result = _replay(capsys, out / "video.mp4", out)
    _assert_found_after_deal_before_first_move(result, _truth(out))
    assert result["frames"] == 30  # the frames before the setup count as read


def test_game_filmed_from_the_start_first_moves_committed(tmp_path, capsys):
    out = tmp_path / "game"
    # A tidy table in good light: this checks replay's setup finding and hand-over, not recognition's limits.
    animation = GameAnimation(2, 7, look=Look(width=640, height=480, tilt_deg=10, noise_sigma=2.0), pace=PEOPLE)
    write_simulation(animation, out, video=False, frame_format="png", max_frames=75)
    result = _replay(capsys, out / "frames", out)
    _assert_found_after_deal_before_first_move(result, _truth(out))
    assert result["commits"][0]["what"] == "round 1 dealt"
    true = _true_moves(out)
    # The tracker follows from the setup on: what it commits is the true game so far. How far it gets in these 75
    # frames is recognition's business (measured: 1 move at 416dcad, where a one-tile line and a two-tile line stay
    # "not sure yet"; 4 at 2c4003e on another look), so only a start is asserted here.
    assert len(result["moves"]) >= 1
    assert result["moves"] == true[: len(result["moves"])]


def test_no_dealt_table_is_a_clear_error(tmp_path, capsys):
    out = tmp_path / "short"
    # The empty table and the dealer's hand over the displays, never the dealt table at rest.
    assert main(["simulate", "--players", "2", "--seed", "3", "--size", "640x480", "--max-frames", "5",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    args = ["replay", str(out / "video.mp4"), "--calibration", str(out / "calibration.json"), "--players", "2"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "no still frame with every factory display dealt was found" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_start_player_must_be_one_of_the_players(tmp_path, capsys):
    args = ["replay", str(tmp_path), "--calibration", str(tmp_path / "c.json"), "--players", "2",
            "--start-player", "3"]
    assert main(args) == 2
    assert "--start-player must be 1 to 2" in capsys.readouterr().err
