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


def test_soak_bench_refuses_no_hours_and_reads_resident_memory_now(capsys):
    import numpy as np

    from web_dashboard.soak import resident_mb

    assert main(["bench", "soak", "--hours", "0"]) == 2
    assert "error: --hours must be positive" in capsys.readouterr().err
    before = resident_mb()
    block = np.ones(64 * 2**20, np.uint8)  # touched, so resident
    during = resident_mb()
    del block
    # Resident now, not the high-water mark: it rises with the block and falls once it is freed.
    assert during - before > 50 and resident_mb() < during - 50
