"""What the dashboard shows, computed from the game record: the snapshot every browser renders.

Everything here is derived from the tracker (the source of truth): the table from `GameState.to_table()`, the
score-by-round chart and the last wall tiling's explanation by replaying the game events still in force, the
projected bonuses from the rules' own `end_bonus`. Nothing is remembered separately, so undo and corrections
can never leave the dashboard showing a stale figure.
"""

from __future__ import annotations

from dataclasses import dataclass

from tracker.game import ClassicRules, Game
from tracker.moves import Move
from tracker.scoring import end_bonus
from tracker.state import OVER, GameState, RoundScore
from tracker.tiles import COLOUR_NAMES, WALL_SIZE

MOVE_LOG_ROWS = 80  # the snapshot carries the recent log; /api/log has all of it


@dataclass(frozen=True, slots=True)
class History:
    """Scores after each round's wall tiling (round 0: the start) and the last tiling's reports."""

    scores_by_round: list[list[int]]
    last_round: int
    last_reports: list[RoundScore]


def effective_events(events: list[dict]) -> list[dict]:
    """The game events still in force: undo takes the last ones back, a correction replaces them."""
    stack: list[dict] = []
    for event in events[1:]:
        kind = event.get("type")
        if kind == "undo":
            del stack[len(stack) - int(event.get("count", 1)):]
        elif kind == "correction":
            replace = int(event.get("replace", 0))
            if replace:
                del stack[len(stack) - replace:]
            stack.extend(event.get("events", []))
        elif kind in ClassicRules.game_events:
            stack.append(event)
    return stack


def history(events: list[dict]) -> History:
    rules = ClassicRules()
    state: GameState = rules.setup(events[0])
    scores = [[b.score for b in state.boards]]
    last_reports: list[RoundScore] = []
    last_round = 0
    for event in effective_events(events):
        if event.get("type") == "wall_tiling":
            columns = {
                (p, r): c
                for p, rows in enumerate(event.get("columns") or [])
                for r, c in enumerate(rows)
                if c is not None
            }
            last_round = state.round
            last_reports = state.tile_walls(columns)
            scores.append([r.score_after for r in last_reports])
        else:
            rules.apply(state, event)
    return History(scores, last_round, last_reports)


def describe_event(event: dict, names: tuple[str, ...]) -> str:
    """One line of the move log in words."""
    kind = event.get("type")
    if kind == "setup":
        return f"new game: {event.get('players')} players, {event.get('variant', 'colored')} wall"
    if kind == "deal":
        return "factory displays refilled"
    if kind == "move":
        who = names[event["player"]] if isinstance(event.get("player"), int) else "?"
        return f"{who}: {Move.from_json(event)}"
    if kind == "wall_tiling":
        return "wall tiling: scores " + ", ".join(
            f"{n} {s}" for n, s in zip(names, event.get("scores_after") or [])
        )
    if kind == "undo":
        count = event.get("count", 1)
        return f"undo ({count} event{'s' if count != 1 else ''})"
    if kind == "correction":
        inner = "; ".join(describe_event(e, names) for e in event.get("events", []))
        reason = f" — {event['reason']}" if event.get("reason") else ""
        return f"correction: replaced {event.get('replace', 0)} with [{inner}]{reason}"
    if kind == "end":
        return "game over"
    return str(kind)


def move_log(events: list[dict], names: tuple[str, ...], limit: int | None = MOVE_LOG_ROWS) -> list[dict]:
    rows = [
        {"index": i, "type": e.get("type"), "text": describe_event(e, names)}
        for i, e in enumerate(events)
    ]
    return rows[-limit:] if limit else rows


def _report_json(report: RoundScore, names: tuple[str, ...]) -> dict:
    return {
        "player": report.player,
        "name": names[report.player],
        "placements": [
            {"row": p.row, "colour": COLOUR_NAMES[p.colour], "column": p.column, "points": p.points}
            for p in report.placements
        ],
        "wall_points": report.wall_points,
        "floor_items": report.floor_items,
        "floor_penalty": report.floor_penalty,
        "score_before": report.score_before,
        "score_after": report.score_after,
    }


def game_view(game: Game) -> dict:
    """The game part of the snapshot (the session adds alerts, driver and camera)."""
    state = game.state
    events = game.record.events
    names = state.names
    past = history(events)
    boards = []
    for i, board in enumerate(state.boards):
        bonus = end_bonus(board.wall)
        boards.append({
            "name": names[i],
            "score": board.score,
            "holds_first_player": board.holds_first_player,
            "projected_bonus": {
                "rows": bonus.complete_rows, "columns": bonus.complete_columns,
                "colours": bonus.complete_colours, "points": bonus.points,
            },
        })
    final = None
    if state.phase == OVER and state.final_scores is not None:
        final = {
            "scores": [
                {"player": f.player, "name": names[f.player], "before_bonus": f.score_before_bonus,
                 "rows": f.complete_rows, "columns": f.complete_columns, "colours": f.complete_colours,
                 "bonus": f.bonus, "score": f.score}
                for f in state.final_scores
            ],
            "winners": state.winners(),
        }
    return {
        "players": state.players,
        "names": list(names),
        "variant": state.variant,
        "phase": state.phase,
        "round": state.round,
        "current_player": state.current_player,
        "start_player": state.start_player,
        "table": state.to_table(),
        "boards": boards,
        "score_history": past.scores_by_round,
        "last_tiling": {
            "round": past.last_round,
            "reports": [_report_json(r, names) for r in past.last_reports],
        } if past.last_reports else None,
        "moves": move_log(events, names),
        "event_count": len(events),
        "undoable": game.record.undoable,
        "final": final,
        "wall_size": WALL_SIZE,
    }
