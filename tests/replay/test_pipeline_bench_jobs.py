"""`bench pipeline --jobs N`: games played at once, each on a core of its own, added up as one run."""

from web_dashboard.cli import main
from web_dashboard.pipeline_bench import FIRST_SEED, GAME_KINDS, GameScore, figures_of, planned_games


def test_jobs_need_a_core_each(capsys):
    assert main(["bench", "pipeline", "--jobs", "0"]) == 2
    assert "error: --jobs must be at least 1" in capsys.readouterr().err
    assert main(["bench", "pipeline", "--jobs", "4096", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "error: --jobs 4096: the bench may use" in err and "Traceback" not in err


def test_the_plan_cycles_through_every_kind_of_game_from_the_first_bench_seed():
    plan = planned_games(8, (640, 360))
    assert [seed for seed, *_ in plan] == list(range(FIRST_SEED, FIRST_SEED + 8))
    assert [(players, variant) for _, players, variant, _ in plan] == GAME_KINDS + GAME_KINDS[:2]
    assert {size for *_, size in plan} == {(640, 360)}


def test_games_from_several_workers_add_up_with_the_largest_worker_memory_as_the_peak():
    def game(seed, exact, frames, seconds, latencies, illegal=(0, 0)):
        return GameScore(seed, 2, "colored", exact=exact, frames=frames, pipeline_seconds=seconds,
                         latencies=latencies, illegal_flagged=illegal[0], illegal_total=illegal[1],
                         problem="" if exact else "round 4, phase deal, moves 74/91")

    played = [(game(1, True, 600, 10.0, [0.3, 0.1], (2, 2)), 300.0),
              (game(2, False, 400, 10.0, [0.3], (1, 2)), 5000.0),
              (game(3, True, 500, 5.0, [1.9], (0, 0)), 400.0)]
    figures = figures_of(iter(played), 3, verbose=False)
    assert figures["games_total"] == 3 and figures["games_exact"] == 2
    assert figures["illegal_flagged"] == 3 and figures["illegal_total"] == 4
    assert figures["fps_720p_one_core"] == 1500 / 25.0
    assert figures["peak_rss_mb"] == 5000.0
    assert figures["commit_latency_s_counts"] == {"0.1": 1, "0.3": 2, "1.9": 1}
    assert figures["not_exact"] == ["seed 2 2p colored: round 4, phase deal, moves 74/91"]
