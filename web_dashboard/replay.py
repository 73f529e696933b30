"""A recorded game, replayed through the whole pipeline: frames -> recognition -> move tracker -> game log.

The frames start at the setup (empty boards, displays filled, marker in the centre): either the calibration
already holds what was learned at setup, or the setup was found in the recording (`vision.autosetup`) and the
frames before it are left out. Every frame is then read in order at its recording timestamp; the move tracker
commits what the table proves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from tracker.game import Game
from tracker.inference import MoveTracker, TrackerStatus
from tracker.state import OVER


@dataclass
class ReplayReport:
    players: int
    variant: str
    frames: int = 0
    seconds: float = 0.0
    commits: list[dict] = field(default_factory=list)
    alerts: list[dict] = field(default_factory=list)
    score_alerts: list[dict] = field(default_factory=list)
    setup: dict | None = None  # where the setup was found in the recording (frame, t, frames averaged)

    def to_json(self, game: Game) -> dict:
        state = game.state
        moves = [
            {k: e[k] for k in ("player", "source", "factory", "color", "line")}
            for e in game.record.events_in_force() if e["type"] == "move"
        ]
        return {
            "players": self.players,
            "variant": self.variant,
            "frames": self.frames,
            "seconds": round(self.seconds, 3),
            "rounds": state.round,
            "game_over": state.phase == OVER,
            "moves": moves,
            "scores": [b.score for b in state.boards],
            "final_scores": [f.score for f in state.final_scores] if state.final_scores else None,
            "winners": state.winners(),
            "commits": self.commits,
            "alerts": self.alerts,
            "score_alerts": self.score_alerts,
            "setup": self.setup,
        }


def replay_frames(
    frames: Iterable[tuple[float, np.ndarray]],
    recognize: Callable[[np.ndarray, float], dict],
    game: Game,
    on_status: Callable[[float, TrackerStatus], None] | None = None,
    setup: dict | None = None,
) -> ReplayReport:
    """Feed every frame to the recogniser and the move tracker; record commits and alerts as they happen.
    `setup`: where the setup was found; the frames before it count as read, though the tracker never saw them."""
    tracker = MoveTracker(game)
    report = ReplayReport(game.state.players, game.state.variant, frames=setup["frame"] if setup else 0,
                          setup=setup)
    last_alert = None
    seen_cubes: set[tuple[int, str]] = set()
    for timestamp, frame in frames:
        status = tracker.observe(recognize(frame, timestamp), timestamp)
        report.frames += 1
        report.seconds = timestamp
        for what in status.committed:
            report.commits.append({"t": round(timestamp, 3), "what": what})
        if status.alert is not None and status.alert != last_alert:
            a = status.alert
            report.alerts.append({"t": round(timestamp, 3), "player": a.player, "rule": a.rule, "reason": a.reason})
        last_alert = status.alert
        for a in status.score_alerts:
            if (a.player, a.reason) not in seen_cubes:
                seen_cubes.add((a.player, a.reason))
                report.score_alerts.append({"t": round(timestamp, 3), "player": a.player, "reason": a.reason})
        if on_status is not None:
            on_status(timestamp, status)
    return report
