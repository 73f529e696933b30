"""JSON endpoints: read the game, change it (moves, undo, corrections, new game), export the log."""

from __future__ import annotations

import json
from dataclasses import asdict

from flask import Blueprint, Response, current_app, jsonify, request

from web_dashboard import validate
from web_dashboard.app import MAX_JSON_BYTES
from web_dashboard.runtime import Runtime
from web_dashboard.session import GameSettings, SessionError
from web_dashboard.validate import BadRequest
from web_dashboard.view import move_log

bp = Blueprint("api", __name__, url_prefix="/api")


def runtime() -> Runtime:
    return current_app.extensions["azul_runtime"]


def body() -> dict:
    raw = request.get_data(cache=True)
    if len(raw) > MAX_JSON_BYTES:
        # Bodies sent without a Content-Length (chunked) are measured here instead of at the gate.
        raise TooLarge()
    data = request.get_json(silent=True, cache=True)
    if data is None:
        if not request.get_data(cache=True):
            return {}
        raise BadRequest("the request body is not valid JSON")
    return validate.obj(data)


class TooLarge(Exception):
    """A JSON body over the limit."""


@bp.errorhandler(TooLarge)
def _too_large(err: TooLarge):
    return jsonify({"ok": False, "error": f"the request body is larger than {MAX_JSON_BYTES // 1024} KB"}), 413


@bp.errorhandler(BadRequest)
def _bad_request(err: BadRequest):
    return jsonify({"ok": False, "error": str(err)}), 400


@bp.errorhandler(SessionError)
def _refused(err: SessionError):
    # The rules (or the log) said no: a well-formed request the game cannot take now.
    return jsonify({"ok": False, "error": str(err)}), 409


def camera_status() -> dict | None:
    camera = runtime().camera
    return asdict(camera.status) if camera is not None else None


# ---- reading ---------------------------------------------------------------------------------------------
@bp.get("/state")
def state():
    rt = runtime()
    snapshot = rt.session.snapshot()
    return jsonify({**snapshot, "camera": camera_status(), "mode": rt.mode,
                    "players_paused": rt.players.paused if rt.players else None})


@bp.get("/camera")
def camera():
    return jsonify(camera_status())


@bp.get("/log")
def log():
    session = runtime().session
    names = session.snapshot()["names"]
    return jsonify({"events": move_log(session.events(), tuple(names), limit=None)})


@bp.get("/export.jsonl")
def export():
    lines = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in runtime().session.events())
    return Response(lines, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": "attachment; filename=azul-game.jsonl"})


# ---- changing -------------------------------------------------------------------------------------------
@bp.post("/move")
def play():
    data = body()
    session = runtime().session
    players = session.snapshot()["players"]
    player = None if data.get("player") is None else validate.integer(data, "player", 0, players - 1)
    session.play(validate.move(data), player)
    return jsonify({"ok": True, "version": session.version})


@bp.post("/undo")
def undo():
    data = body()
    count = validate.integer(data, "count", 1, 1000, default=1)
    runtime().session.undo(count)
    return jsonify({"ok": True, "version": runtime().session.version})


@bp.post("/correct")
def correct():
    data = body()
    replace = validate.integer(data, "replace", 0, 1000, default=0)
    events = validate.game_events(data.get("events"))
    reason = validate.text(data, "reason", 200)
    runtime().session.correct(replace, events, reason)
    return jsonify({"ok": True, "version": runtime().session.version})


@bp.post("/correct/last-move")
def correct_last_move():
    data = body()
    move = validate.move(validate.obj(data.get("move")))
    runtime().session.replace_last_move(move, validate.text(data, "reason", 200))
    return jsonify({"ok": True, "version": runtime().session.version})


@bp.post("/game/new")
def new_game():
    data = body()
    players = validate.integer(data, "players", 2, 4)
    variant = validate.choice(data, "variant", ("colored", "gray"), default="colored")
    names = validate.names(data, players)
    session = runtime().session
    session.new_game(GameSettings(players, variant, names, session.settings.log_dir))
    return jsonify({"ok": True, "game_id": session.game_id})


@bp.post("/alert/clear")
def clear_alert():
    body()
    runtime().session.clear_alert()
    return jsonify({"ok": True})


@bp.post("/players")
def simulated_players():
    data = body()
    action = validate.choice(data, "action", ("pause", "resume"))
    players = runtime().players
    if players is None:
        return jsonify({"ok": False, "error": "there are no simulated players in this game"}), 409
    players.pause() if action == "pause" else players.resume()
    return jsonify({"ok": True, "paused": players.paused})
