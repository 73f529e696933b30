"""The console entry point: `bench rules --json`, run as a user runs it."""

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


def test_user_errors_are_one_line_not_a_traceback(tmp_path, capsys):
    assert main(["bench", "rules", "--seconds", "-1"]) == 2
    err = capsys.readouterr().err
    assert "error: --seconds must be positive" in err and "Traceback" not in err
