"""The session and what the dashboard shows: always derived from the tracker, live on the bus."""

from __future__ import annotations

import http.client
import random
import sys
import threading
from pathlib import Path

import pytest

from tracker.game import Game
from tracker.state import DEAL, OFFER, OVER
from web_dashboard.bus import EventBus
from web_dashboard.session import GameSettings, SessionError, TableSession
from web_dashboard.simplayers import SimulatedPlayers, SimulationSettings, illegal_attempt

sys.path.insert(0, str(Path(__file__).parent))
from browser import served  # noqa: E402


def play_rounds(session: TableSession, rng: random.Random, rounds: int) -> None:
    while session.game.state.phase != OVER and session.game.state.round <= rounds:
        state = session.game.state
        if state.phase == DEAL:
            if state.round == rounds:
                return
            session.deal_random(rng)
        elif state.phase == OFFER:
            session.play(rng.choice(state.legal_moves()))
        else:
            session.tile_walls()


@pytest.fixture
def session(tmp_path):
    s = TableSession(EventBus(), GameSettings(3, "colored", ("A", "B", "C"), tmp_path))
    yield s
    s.close()


def test_score_history_and_last_tiling_match_the_tracker(session):
    play_rounds(session, random.Random(4), 2)
    snap = session.snapshot()
    assert len(snap["score_history"]) == 3  # the start and two tilings
    assert snap["score_history"][-1] == [b.score for b in session.game.state.boards]
    reports = snap["last_tiling"]["reports"]
    assert [r["score_after"] for r in reports] == snap["score_history"][-1]
    for r in reports:
        assert r["score_after"] == max(0, r["score_before"] + r["wall_points"] - r["floor_penalty"])
        assert r["wall_points"] == sum(p["points"] for p in r["placements"])


def test_undo_and_correction_are_reflected_everywhere(session):
    rng = random.Random(9)
    session.deal_random(rng)
    first = session.game.state.legal_moves()[0]
    session.play(first)
    before = session.snapshot()
    session.undo(1)
    after = session.snapshot()
    assert after["version"] > before["version"]
    assert after["table"] != before["table"] and after["undoable"] == before["undoable"] - 1
    assert after["moves"][-1]["text"] == "undo (1 event)"
    second = session.game.state.legal_moves()[-1]
    session.play(first)
    session.correct(1, [{"type": "move", "player": 0, **second.to_json()}], "camera misread")
    assert "camera misread" in session.snapshot()["moves"][-1]["text"]
    reference = Game.from_events(session.events())[0]
    assert reference.state == session.game.state  # the log replays to exactly what the dashboard shows


def test_refused_actions_are_session_errors_and_change_nothing(session):
    session.deal_random(random.Random(1))
    events = session.events()
    with pytest.raises(SessionError, match="cannot undo 5 events"):
        session.undo(5)
    assert session.events() == events


def test_alerts_are_published_and_cleared(session):
    sub = session.bus.subscribe(replay=False)
    session.report_illegal(1, "line_other_colour", "pattern line 2 already holds red")
    message = sub.get(1)
    assert message.kind == "state" and message.data["alert"]["name"] == "B"
    assert message.data["alert"]["rule"] == "line_other_colour"
    session.report_illegal(1, "line_other_colour", "pattern line 2 already holds red")
    assert sub.get(0.05) is None  # the same alert again is not news
    session.clear_alert()
    assert sub.get(1).data["alert"] is None


def test_the_simulated_players_illegal_attempts_carry_the_trackers_rule():
    state = Game.new(4).state
    rng = random.Random(2)
    found = 0
    for _ in range(30):
        if state.phase == DEAL:
            state.deal_random(rng)
        if state.phase != OFFER:
            break
        attempt = illegal_attempt(state, rng)
        if attempt is not None:
            move, rule, reason = attempt
            problem = state.explain_illegal(move)
            assert problem is not None and (problem.rule, problem.reason) == (rule, reason)
            found += 1
        state.play(rng.choice(state.legal_moves()))
    assert found > 0


def test_simulated_players_show_then_clear_an_illegal_attempt(tmp_path):
    session = TableSession(EventBus(), GameSettings(2, "colored", ("A", "B"), tmp_path))
    sub = session.bus.subscribe(replay=False)
    players = SimulatedPlayers(session, SimulationSettings(move_seconds=0.0, illegal_chance=1.0,
                                                          alert_seconds=0.05, seed=3))
    players.start()
    alerts = []
    try:
        # Until an alert has been shown and the next state after it has arrived.
        while not any(alerts[:-1]):
            message = sub.get(5)
            assert message is not None
            alerts.append(message.data["alert"])
    finally:
        players.stop()
        session.close()
    shown = [a for a in alerts if a]
    assert shown and shown[0]["rule"] in ("line_other_colour", "wall_has_colour")
    assert alerts[alerts.index(shown[0]) + 1] is None  # taken back before the next move


def read_events(response, count: int) -> list[str]:
    kinds, line = [], b""
    while len(kinds) < count:
        line = response.fp.readline()
        if line.startswith(b"event: "):
            kinds.append(line[7:].strip().decode())
    return kinds


def test_the_event_stream_pushes_a_new_state_when_the_game_changes(tmp_path):
    from urllib.parse import urlparse

    from web_dashboard.runtime import players_demo_runtime

    runtime = players_demo_runtime(2, simulation=SimulationSettings(seed=1), log_dir=tmp_path, camera="schematic")
    runtime.players = None  # this test makes the moves itself
    with served(runtime) as url:
        address = urlparse(url)
        conn = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
        conn.request("GET", "/api/events")
        response = conn.getresponse()
        assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
        assert "state" in read_events(response, 2)  # the current picture at once (state and camera)
        version = runtime.session.version
        threading.Timer(0.2, lambda: runtime.session.deal_random(random.Random(1))).start()
        seen = []
        while "state" not in seen:
            seen += read_events(response, 1)
        assert runtime.session.version == version + 1
        conn.close()


def test_simulated_players_sometimes_misplace_a_score_cube_and_fix_it(tmp_path):
    session = TableSession(EventBus(), GameSettings(2, "colored", ("A", "B"), tmp_path))
    sub = session.bus.subscribe(replay=False)
    players = SimulatedPlayers(session, SimulationSettings(move_seconds=0.0, illegal_chance=0.0, alert_seconds=0.05,
                                                          cube_slip_chance=1.0, seed=5))
    players.start()
    cube_alerts = []
    try:
        while not cube_alerts or cube_alerts[-1]:
            message = sub.get(10)
            assert message is not None
            if message.data["score_alerts"] or cube_alerts:
                cube_alerts.append(message.data["score_alerts"])
    finally:
        players.stop()
        session.close()
    first = cube_alerts[0][0]
    assert first["rule"] == "score_cube" and "score cube shows" in first["reason"]
    true_score = int(first["reason"].rsplit(" ", 1)[1])
    assert true_score in [row[first["player"]] for row in session.snapshot()["score_history"]]


def test_replacing_the_last_move_keeps_the_player_and_logs_the_reason(session):
    rng = random.Random(6)
    session.deal_random(rng)
    with pytest.raises(SessionError, match="not a move"):
        session.replace_last_move(session.game.state.legal_moves()[0], "x")
    legal = session.game.state.legal_moves()
    session.play(legal[0])
    session.replace_last_move(legal[-1], "the camera misread the colour")
    last = session.events()[-1]
    assert last["type"] == "correction" and last["replace"] == 1
    assert last["events"] == [{"type": "move", "player": 0, **legal[-1].to_json()}]
    assert last["reason"] == "the camera misread the colour"
    assert session.game.state.current_player == 1
