"""`azul-companion bench soak --hours H`: hours of video through one process, and its memory all along.

An evening at the table is several games in a row, watched by one long-running companion. The soak renders
one game once (the demo's tidy table at 1280x720, people's pace: a game the pipeline follows to the end, so the
soak exercises commits, wall tilings and game over rather than one long search), records it as a folder of JPEG
frames (a camera source the companion reads), and replays that recording again and again through one
recogniser, a new move tracker per game as a new game starts, until `hours` of recording have been read. Frames
are decoded from disk every time; after every game the process's resident memory is sampled (what the kernel
says now, not the high-water mark), so a leak shows as a trend.

Not a video file: OpenCV's MJPG writer ignores the quality asked for and shifts colours by about 2 units, and
this game is then no longer followed to the end (33 of 84 moves, measured) -- a robustness question of its own,
not what the soak measures.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import cv2

from vision.synthetic.animate import GameAnimation
from web_dashboard.pipeline_bench import BENCH_PACE, _true_moves

SOAK_SEED = 3  # the demo's look and this game: followed exactly (every move, final scores) when last measured
SOAK_PLAYERS = 4
JPEG_QUALITY = 95


def resident_mb() -> float:
    """The process's resident memory now (Linux /proc; the high-water mark elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _record(folder: Path, seed: int) -> tuple[list[float], object, list[dict], dict[int, str]]:
    """Render the game into `folder` as JPEG frames; their times, the written calibration, the true log, the
    capture presses (frame index -> what)."""
    from web_dashboard.capture import simulated_press
    from web_dashboard.rendered import demo_look

    animation = GameAnimation(SOAK_PLAYERS, seed, "colored", look=demo_look().with_size(1280, 720), pace=BENCH_PACE)
    times, presses = [], {}
    for frame in animation.frames():
        press = simulated_press(animation, frame)
        if press is not None:
            presses[len(times)] = press
        if not cv2.imwrite(str(folder / f"{len(times):06d}.jpg"), frame.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]):
            raise RuntimeError(f"could not write the soak's frames in {folder}")
        times.append(frame.time)
    return times, animation.renderer.calibration(), animation.log, presses


def _frames(folder: Path, times: list[float], offset: float):
    for index, t in enumerate(times):
        yield t + offset, cv2.imread(str(folder / f"{index:06d}.jpg"), cv2.IMREAD_COLOR)


def soak_figures(hours: float, verbose: bool = False) -> dict:
    from tracker.game import Game
    from tracker.inference import MoveTracker
    from web_dashboard.capture import SetupCapture

    with tempfile.TemporaryDirectory(prefix="azul-soak-") as tmp:
        path = Path(tmp)
        times, profile, log, presses = _record(path, SOAK_SEED)
        truth = _true_moves(log)
        start_player = log[0]["start_player"]
        recognize = None

        def ready(_learned, recognizer) -> None:
            nonlocal recognize
            recognize = recognizer

        capture = SetupCapture(profile, on_ready=ready)
        length = times[-1] + 1.0  # each replay starts a second after the last ended
        offset, exact, frames, seconds = 0.0, 0, 0, 0.0
        committed: list[int] = []  # moves committed, per game
        samples: list[tuple[float, float]] = []  # (hours of recording read, resident MB)
        setup_index = None  # the frame where the setup was learned: each game is tracked from there
        while offset < hours * 3600:
            tracker = None
            begin = time.perf_counter()
            for index, (t, image) in enumerate(_frames(path, times, offset)):
                if recognize is None:  # the first game: setting up, as the person presses capture
                    if index in presses:
                        capture.press(presses[index])
                    capture(image, t)
                    continue
                setup_index = index if setup_index is None else setup_index
                observation = recognize(image, t)  # the table being reset and dealt is seen, not tracked
                if index < setup_index:
                    continue
                if tracker is None:
                    tracker = MoveTracker(Game.new(SOAK_PLAYERS, "colored", start_player=start_player))
                tracker.observe(observation, t)
                frames += 1
            seconds += time.perf_counter() - begin
            if tracker is None:
                raise RuntimeError("the soak game's setup was never learned")
            moves = _true_moves(tracker.game.record.events_in_force())
            exact += moves == truth
            committed.append(len(moves))
            offset += length
            samples.append((offset / 3600, resident_mb()))
            if verbose:
                print(f"game {len(committed)}: {committed[-1]}/{len(truth)} moves, {offset / 3600:.2f} h read, "
                      f"resident {samples[-1][1]:.1f} MB", flush=True)
    settled = samples[1:] or samples  # the first game also holds setup's one-off allocations
    return {
        "hours_read": round(offset / 3600, 3),
        "games": len(committed),
        "games_exact": exact,
        "moves_committed_per_game": f"{min(committed)}-{max(committed)} of {len(truth)}",
        "frames": frames,
        "fps_one_core": round(frames / seconds, 1) if seconds else None,
        "rss_mb_first_game": round(samples[0][1], 1),
        "rss_mb_after_first_game": round(settled[0][1], 1),
        "rss_mb_last": round(samples[-1][1], 1),
        "rss_mb_max": round(max(s[1] for s in samples), 1),
        "rss_growth_mb": round(samples[-1][1] - settled[0][1], 1),
        "rss_mb_by_hour": [[round(h, 2), round(mb, 1)] for h, mb in samples],
    }
