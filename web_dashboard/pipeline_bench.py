"""`azul-companion bench pipeline`: rendered games through the whole pipeline, scored against the truth.

Each game is rendered by the synthetic table (vision.synthetic) frame by frame. The pipeline sees only what a
user's companion sees: the frames, the calibration a person would write (board corners, factory circles, centre
polygon), the setup captures taken when the person presses "capture" (over the empty table, then with the first
deal on the table), and who starts. The ground truth is read only here, to score: the committed move log against the true one, every
committed move that was wrong at the time (false moves), alerts against the deliberate illegal placements,
and the time from the table coming to rest after a move to its commit.
"""

from __future__ import annotations

import collections
import concurrent.futures
import multiprocessing
import resource
import statistics
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from vision.synthetic.animate import PEOPLE_PACE, GameAnimation, Pace
from vision.synthetic.look import Look

BENCH_PACE = PEOPLE_PACE
ALERT_GRACE_S = 1.0  # an alert may come this late after a misplacement is fixed and still count for it
FIRST_SEED = 50_000  # bench games never overlap the seeds tests or tuning use


@dataclass
class GameScore:
    seed: int
    players: int
    variant: str
    exact: bool = False
    false_moves: int = 0
    illegal_total: int = 0
    illegal_flagged: int = 0
    false_alerts: int = 0
    latencies: list[float] = field(default_factory=list)
    frames: int = 0
    pipeline_seconds: float = 0.0  # recognition + tracking only, rendering excluded
    problem: str = ""
    # When the dashboard's lamp advice (vision.lamp.LampWatch) first named a piece the lamp's reflection hides, pales
    # or washes out, or None: a game not followed is then one the players were told of, and why.
    lamp_advice_at: float | None = None


def _true_moves(log: list[dict]) -> list[dict]:
    return [{k: e[k] for k in ("player", "source", "factory", "color", "line")} for e in log if e["type"] == "move"]


def run_game(seed: int, players: int, variant: str, size=(1280, 720), pace: Pace = BENCH_PACE) -> GameScore:
    animation = GameAnimation(players, seed, variant, look=Look.random(seed, *size), pace=pace)
    score = GameScore(seed, players, variant)
    return score_game(score, animation.log, observed_frames(animation, score))


def observed_frames(animation: GameAnimation, score: GameScore) -> Iterator[tuple[float, dict, object]]:
    """(time, true event, observation) per rendered frame; the observation is None until the setup is learned.

    Recognition time goes into `score.pipeline_seconds`; learning the setup happens once, so it is not timed."""
    from web_dashboard.capture import SetupCapture, simulated_press

    recognize = None

    def ready(_learned, recognizer) -> None:
        nonlocal recognize
        recognize = recognizer

    capture = SetupCapture(animation.renderer.calibration(), on_ready=ready)  # what `simulate` saves
    for frame in animation.frames():
        if recognize is None:
            press = simulated_press(animation, frame)
            if press is not None:
                capture.press(press)
            yield frame.time, frame.truth["event"], capture(frame.image, frame.time)
            continue
        begin = time.perf_counter()
        observation = recognize(frame.image, frame.time)
        score.pipeline_seconds += time.perf_counter() - begin
        yield frame.time, frame.truth["event"], observation


def score_game(score: GameScore, log: list[dict], stream: Iterable[tuple[float, dict, object]]) -> GameScore:
    """Feed a stream of (time, true event, observation) to a move tracker and score what it commits and flags
    against the true log (which may still be growing as the stream plays). A recorded stream can be scored again
    after a change to the tracker."""
    from tracker.game import Game
    from tracker.inference import MoveTracker
    from vision.lamp import LampWatch

    tracker = None
    lamp = LampWatch()
    committed_moves = 0
    alert_on = False
    illegal_windows: list[list[float]] = []  # [start, end] of each misplacement on the table
    alert_times: list[float] = []
    rest_at: dict[int, float] = {}  # true move index -> time the table came to rest after it
    true_index = 0
    for t, event, observation in stream:
        stage = event.get("stage")
        if event["type"] == "move" and stage == "misplaced":
            if not illegal_windows or illegal_windows[-1][1] < t - 0.15:
                illegal_windows.append([t, t])
            illegal_windows[-1][1] = t
        if event["type"] == "move" and stage == "done":
            rest_at.setdefault(true_index, t)
        elif event["type"] == "move" and stage == "reach" and true_index in rest_at:
            true_index += 1
        if observation is None:  # setting up
            continue
        if tracker is None:
            tracker = MoveTracker(Game.new(score.players, score.variant, start_player=log[0]["start_player"]))
        begin = time.perf_counter()
        status = tracker.observe(observation, t)
        advice = lamp.observe(observation, t)  # the camera loop's too (web_dashboard.pipeline)
        score.pipeline_seconds += time.perf_counter() - begin
        if advice and score.lamp_advice_at is None:
            score.lamp_advice_at = t
        score.frames += 1
        now_moves = [e for e in tracker.game.record.events_in_force() if e["type"] == "move"]
        if len(now_moves) > committed_moves:
            truth = _true_moves(log)  # the animation's log grows as it plays
            for i in range(committed_moves, len(now_moves)):
                mine = {k: now_moves[i][k] for k in ("player", "source", "factory", "color", "line")}
                if i >= len(truth) or mine != truth[i]:
                    score.false_moves += 1
                elif i in rest_at:
                    score.latencies.append(max(0.0, t - rest_at[i]))
        committed_moves = len(now_moves)
        is_alert = status.alert is not None and status.alert.rule in (
            "line_other_colour", "wall_has_colour", "split", "part_left", "leftovers", "two_sources", "marker", "turn")
        if is_alert and not alert_on:
            alert_times.append(t)
        alert_on = is_alert
    if tracker is None:
        score.problem = "no setup frame"
        return score
    final = tracker.game.state
    truth = _true_moves(log)
    truth_end = next((e for e in reversed(log) if e["type"] == "end"), None)
    moves_match = _true_moves(tracker.game.record.events_in_force()) == truth
    scores_match = truth_end is not None and final.final_scores is not None and \
        [f.score for f in final.final_scores] == truth_end["final_scores"]
    score.exact = moves_match and scores_match
    if not score.exact:
        score.problem = f"round {final.round}, phase {final.phase}, moves {committed_moves}/{len(truth)}"
    score.illegal_total = len(illegal_windows)
    for start, end in illegal_windows:
        if any(start <= a <= end + ALERT_GRACE_S for a in alert_times):
            score.illegal_flagged += 1
    score.false_alerts = sum(
        1 for a in alert_times if not any(s <= a <= e + ALERT_GRACE_S for s, e in illegal_windows))
    return score


def latency_figures(latencies: list[float]) -> dict:
    """Commit latency: the 95th percentile, the median, and how many commits came after each tenth of a second
    (input frames come every 0.1 s), so that a tail shows where it lies."""
    ordered = sorted(latencies)
    counts = collections.Counter(f"{x:.1f}" for x in ordered)
    return {
        "commit_latency_s_p95": ordered[int(0.95 * (len(ordered) - 1))] if ordered else None,
        "commit_latency_s_median": statistics.median(ordered) if ordered else None,
        "commit_latency_s_counts": dict(sorted(counts.items(), key=lambda item: float(item[0]))),
    }


GAME_KINDS = [(p, v) for v in ("colored", "gray") for p in (2, 3, 4)]


def planned_games(games: int, size=(1280, 720)) -> list[tuple[int, int, str, tuple[int, int]]]:
    """(seed, players, variant, size) of the bench's games: the kinds in turn, so any run mixes them all."""
    return [(FIRST_SEED + g, *GAME_KINDS[g % len(GAME_KINDS)], size) for g in range(games)]


def _play(plan: tuple[int, int, str, tuple[int, int]]) -> tuple[GameScore, float]:
    """One planned game and the peak resident memory of the process that played it (MB)."""
    seed, players, variant, size = plan
    return run_game(seed, players, variant, size), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _pin_worker(cores) -> None:
    # Each worker takes a core of its own, so every game is still played and timed on one core.
    from web_dashboard.commands.bench import pin_to_core

    pin_to_core(cores.get())


def pipeline_figures(games: int = 6, size=(1280, 720), verbose: bool = False,
                     cores: list[int] | None = None) -> dict:
    """Play the planned games, one core each: in this process, or in one worker process per core of `cores`
    (distinct cores, so that a 100-game run can use the whole machine and still time each game on one core)."""
    plan = planned_games(games, size)
    if not cores or len(cores) == 1:
        played: Iterable[tuple[GameScore, float]] = map(_play, plan)
        return figures_of(played, games, verbose)
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no forked OpenCV threads
    queue = context.Queue()
    for core in cores:
        queue.put(core)
    with concurrent.futures.ProcessPoolExecutor(len(cores), mp_context=context, initializer=_pin_worker,
                                                initargs=(queue,)) as pool:
        return figures_of(pool.map(_play, plan), games, verbose)


def figures_of(played: Iterable[tuple[GameScore, float]], games: int, verbose: bool) -> dict:
    results = []
    peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    for g, (result, rss_mb) in enumerate(played):
        results.append(result)
        peak_rss_mb = max(peak_rss_mb, rss_mb)
        if verbose:
            print(f"game {g + 1}/{games}: seed {result.seed} {result.players}p {result.variant}: "
                  f"{'exact' if result.exact else 'NOT exact (' + result.problem + ')'}, false moves "
                  f"{result.false_moves}, illegal {result.illegal_flagged}/{result.illegal_total}, "
                  f"false alerts {result.false_alerts}, commits 0.6 s or more after rest "
                  f"{sum(x >= 0.55 for x in result.latencies)}/{len(result.latencies)}{_advised(result)}", flush=True)
    frames = sum(r.frames for r in results)
    seconds = sum(r.pipeline_seconds for r in results)
    return {
        "games_total": len(results),
        "games_exact": sum(r.exact for r in results),
        "false_moves": sum(r.false_moves for r in results),
        "illegal_total": sum(r.illegal_total for r in results),
        "illegal_flagged": sum(r.illegal_flagged for r in results),
        "false_alerts": sum(r.false_alerts for r in results),
        **latency_figures([x for r in results for x in r.latencies]),
        "fps_720p_one_core": frames / seconds if seconds else None,
        "frames": frames,
        "peak_rss_mb": peak_rss_mb,
        "games_lamp_advised": sum(r.lamp_advice_at is not None for r in results),
        "not_exact_lamp_advised": sum(r.lamp_advice_at is not None for r in results if not r.exact),
        "not_exact": [f"seed {r.seed} {r.players}p {r.variant}: {r.problem}{_advised(r)}" for r in results
                      if not r.exact],
    }


def _advised(result: GameScore) -> str:
    return "" if result.lamp_advice_at is None else f", lamp advice from {result.lamp_advice_at:.1f} s"
