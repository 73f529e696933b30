"""Safety of the web app: token for network clients, CSRF, size limits, clear 4xx answers to bad input."""

from __future__ import annotations

import io
import json

import pytest

from web_dashboard.app import MAX_JSON_BYTES, MAX_UPLOAD_BYTES, create_app
from web_dashboard.security import CSRF_HEADER, TOKEN_HEADER, Security

NETWORK = {"REMOTE_ADDR": "192.168.1.20"}
LOOPBACK = {"REMOTE_ADDR": "127.0.0.1"}
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def state_changing_rules(app) -> list[tuple[str, str]]:
    rules = []
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) & WRITE_METHODS):
            rules.append((method, rule.rule))
    return rules


def test_the_app_has_the_expected_state_changing_endpoints(app):
    paths = {path for _, path in state_changing_rules(app)}
    # If an endpoint is added, the refusal tests below cover it automatically; this guards against the
    # enumeration silently finding nothing.
    assert {"/api/move", "/api/undo", "/api/correct", "/api/game/new", "/api/alert/clear",
            "/api/calibration/save"} <= paths


def test_every_state_changing_endpoint_refuses_a_network_client_without_the_token(app, security, runtime):
    client = app.test_client()
    before = runtime.session.events()
    for method, path in state_changing_rules(app):
        response = client.open(path, method=method, json={"count": 1}, environ_base=NETWORK,
                               headers={CSRF_HEADER: security.csrf_value()})
        assert response.status_code == 403, (method, path, response.status_code)
        assert "token" in response.get_json()["error"]
        wrong = client.open(path, method=method, json={"count": 1}, environ_base=NETWORK,
                            headers={CSRF_HEADER: security.csrf_value(), TOKEN_HEADER: "not-the-token"})
        assert wrong.status_code == 403, (method, path)
    assert runtime.session.events() == before  # nothing changed


def test_every_state_changing_endpoint_accepts_a_network_client_with_the_token(app, security):
    client = app.test_client()
    headers = {CSRF_HEADER: security.csrf_value(), TOKEN_HEADER: security.token}
    for method, path in state_changing_rules(app):
        response = client.open(path, method=method, json={}, environ_base=NETWORK, headers=headers)
        # Past the gate: answered by the endpoint itself (success, or a 4xx about the body / game state).
        assert response.status_code != 403, (method, path, response.get_json())
        assert response.is_json


def test_undo_over_the_network_with_the_token_changes_the_game(app, security, runtime):
    client = app.test_client()
    events = len(runtime.session.events())
    headers = {CSRF_HEADER: security.csrf_value(), TOKEN_HEADER: security.token}
    response = client.post("/api/undo", json={"count": 1}, environ_base=NETWORK, headers=headers)
    assert response.status_code == 200, response.get_json()
    assert len(runtime.session.events()) == events + 1
    assert runtime.session.events()[-1] == {"type": "undo", "count": 1}


def test_the_token_cookie_from_the_start_up_link_authorises_later_requests(app, security):
    client = app.test_client()
    assert client.get("/api/state", environ_base=NETWORK).status_code == 403
    first = client.get(f"/?token={security.token}", environ_base=NETWORK)
    assert first.status_code == 200
    assert client.get("/api/state", environ_base=NETWORK).status_code == 200
    response = client.post("/api/undo", json={}, environ_base=NETWORK, headers={CSRF_HEADER: security.csrf_value()})
    assert response.status_code == 200


def test_viewing_from_the_network_is_open_only_if_chosen(runtime):
    closed = create_app(runtime, Security(bound_to_loopback=False)).test_client()
    assert closed.get("/api/state", environ_base=NETWORK).status_code == 403
    opened = create_app(runtime, Security(bound_to_loopback=False, open_viewing=True)).test_client()
    assert opened.get("/api/state", environ_base=NETWORK).status_code == 200
    # Open viewing never opens changing.
    assert opened.post("/api/undo", json={}, environ_base=NETWORK).status_code == 403


def test_loopback_needs_no_token_but_does_need_the_csrf_value(app, security, runtime):
    client = app.test_client()
    assert client.post("/api/undo", json={}, environ_base=LOOPBACK).status_code == 403
    assert client.post("/api/undo", json={}, environ_base=LOOPBACK,
                       headers={CSRF_HEADER: "forged"}).status_code == 403
    ok = client.post("/api/undo", json={}, environ_base=LOOPBACK, headers={CSRF_HEADER: security.csrf_value()})
    assert ok.status_code == 200


def test_a_foreign_origin_is_refused(app, security):
    client = app.test_client()
    response = client.post("/api/undo", json={}, environ_base=LOOPBACK,
                           headers={CSRF_HEADER: security.csrf_value(), "Origin": "http://evil.example"})
    assert response.status_code == 403
    assert "evil.example" in response.get_json()["error"]


def test_pages_carry_the_csrf_value(app, security):
    html = app.test_client().get("/", environ_base=LOOPBACK).get_data(as_text=True)
    assert f'content="{security.csrf_value()}"' in html


def test_a_loopback_server_refuses_foreign_host_names(runtime):
    client = create_app(runtime, Security(bound_to_loopback=True)).test_client()
    assert client.get("/api/state", environ_base=LOOPBACK, headers={"Host": "127.0.0.1:8000"}).status_code == 200
    rebinding = client.get("/api/state", environ_base=LOOPBACK, headers={"Host": "attacker.example:8000"})
    assert rebinding.status_code == 400


@pytest.fixture
def local(app, security):
    client = app.test_client()

    def post(path, **kwargs):
        headers = {CSRF_HEADER: security.csrf_value(), **kwargs.pop("headers", {})}
        return client.post(path, environ_base=LOOPBACK, headers=headers, **kwargs)

    return post


def test_an_oversized_json_body_is_413(local):
    big = json.dumps({"reason": "x" * (MAX_JSON_BYTES + 10)})
    response = local("/api/correct", data=big, content_type="application/json")
    assert response.status_code == 413
    assert "KB" in response.get_json()["error"]


def test_an_oversized_upload_is_413(local):
    data = {"photo": (io.BytesIO(b"\0" * (MAX_UPLOAD_BYTES + 1024)), "big.png")}
    response = local("/api/calibration/upload", data=data, content_type="multipart/form-data")
    assert response.status_code == 413
    assert response.is_json


def test_bad_json_is_400_with_a_clear_message(local):
    response = local("/api/undo", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json() == {"ok": False, "error": "the request body is not valid JSON"}


def test_non_json_bodies_are_415(local):
    response = local("/api/undo", data="count=1", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415


@pytest.mark.parametrize("path, body, words", [
    ("/api/undo", {"count": 0}, "'count' must be a whole number from 1"),
    ("/api/undo", {"count": "2"}, "'count'"),
    ("/api/undo", [1, 2], "JSON object"),
    ("/api/move", {"source": "factory", "factory": 12, "color": "red", "line": 0}, "factory index"),
    ("/api/move", {"source": "centre", "color": "purple", "line": 0}, "unknown tile colour"),
    ("/api/move", {"source": "center", "color": "red", "line": 9}, "'line'"),
    ("/api/game/new", {"players": 5}, "'players' must be a whole number from 2 to 4"),
    ("/api/game/new", {"players": 2, "variant": "blue"}, "'variant'"),
    ("/api/game/new", {"players": 2, "names": ["A", "A"]}, "different name"),
    ("/api/correct", {"replace": 1, "events": [{"type": "setup"}]}, "deal, move or wall_tiling"),
    ("/api/players", {"action": "explode"}, "'action'"),
    ("/api/correct/last-move", {"move": "red"}, "JSON object"),
    ("/api/correct/last-move", {"move": {"source": "center", "color": "red", "line": 0}, "reason": 5}, "'reason'"),
    ("/api/calibration/check", {"draft": "nope"}, "JSON object"),
])
def test_invalid_fields_are_400_naming_the_field(local, path, body, words):
    response = local(path, json=body)
    assert response.status_code == 400, response.get_json()
    assert words in response.get_json()["error"]


def test_an_illegal_move_is_409_with_the_rule_in_words(local, runtime):
    state = runtime.session.game.state
    # A colour absent from the centre at the start of a round (the centre holds only the marker).
    response = local("/api/move", json={"source": "center", "color": "red", "line": 0})
    assert response.status_code == 409
    assert "the centre holds no red tiles" in response.get_json()["error"]
    assert runtime.session.game.state is state


def test_unknown_paths_and_methods_answer_json_not_tracebacks(app):
    client = app.test_client()
    missing = client.get("/api/nope", environ_base=LOOPBACK)
    assert missing.status_code == 404 and missing.is_json
    wrong = client.get("/api/undo", environ_base=LOOPBACK)
    assert wrong.status_code == 405 and "Traceback" not in wrong.get_data(as_text=True)
