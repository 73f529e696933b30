"""The pipeline bench's commit-latency figures: percentile, median and where the tail lies."""

from web_dashboard.pipeline_bench import latency_figures


def test_latency_figures_count_commits_by_tenth_of_a_second_and_take_the_95th_percentile():
    # 19 commits 0.3 s after rest and one 1.9 s after: the tail is one commit, the p95 stays at 0.3 s.
    latencies = [0.30000000000000004] * 18 + [0.29999999999999716, 1.9000000000000021]
    figures = latency_figures(latencies)
    assert figures["commit_latency_s_counts"] == {"0.3": 19, "1.9": 1}
    assert round(figures["commit_latency_s_p95"], 6) == 0.3
    assert round(figures["commit_latency_s_median"], 6) == 0.3
    # Five of twenty at 0.6 s put the p95 there, and the counts come in order of time.
    figures = latency_figures([0.6] * 5 + [0.1] * 15)
    assert figures["commit_latency_s_p95"] == 0.6
    assert list(figures["commit_latency_s_counts"]) == ["0.1", "0.6"]


def test_latency_figures_of_a_run_with_no_commit_are_empty():
    assert latency_figures([]) == {"commit_latency_s_p95": None, "commit_latency_s_median": None,
                                   "commit_latency_s_counts": {}}
