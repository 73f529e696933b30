"""The console entry point: `bench rules --json` and the terminal demo, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys

from web_dashboard.cli import main


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "web_dashboard.cli", *args], capture_output=True, text=True,
                          timeout=120)


def test_bench_rules_json_prints_one_object_with_the_figures():
    result = run_cli("bench", "rules", "--json", "--seconds", "0.2")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    for key in ("games_per_s_2p", "games_per_s_4p", "legal_moves_us", "duel_games_per_s"):
        assert isinstance(figures[key], float) and figures[key] > 0
    assert figures["games_2p"] >= 3 and figures["positions"] == 200


def test_demo_plays_a_whole_game_and_names_a_winner(tmp_path):
    log = tmp_path / "demo.jsonl"
    result = run_cli("demo", "--delay", "0", "--seed", "4", "--players", "2", "--log", str(log))
    assert result.returncode == 0, result.stderr
    assert "Final scores:" in result.stdout and "Winner: " in result.stdout
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert events[0]["type"] == "setup" and events[-1]["type"] == "end"


def test_user_errors_are_one_line_not_a_traceback(tmp_path, capsys):
    assert main(["bench", "rules", "--seconds", "-1"]) == 2
    err = capsys.readouterr().err
    assert "error: --seconds must be positive" in err and "Traceback" not in err
    log = tmp_path / "taken.jsonl"
    assert main(["demo", "--delay", "0", "--seed", "1", "--players", "2", "--log", str(log)]) == 0
    assert main(["demo", "--delay", "0", "--log", str(log)]) == 2
    assert "already holds a game" in capsys.readouterr().err
