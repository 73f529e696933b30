"""The Flask application factory: one app per Runtime, with the safety rules applied to every request."""

from __future__ import annotations

from flask import Flask, g, jsonify, request

from web_dashboard.runtime import Runtime
from web_dashboard.security import CSRF_HEADER, TOKEN_COOKIE, TOKEN_HEADER, Security, is_loopback

MAX_UPLOAD_BYTES = 8 * 1024 * 1024  # a phone photo for the calibration wizard
MAX_JSON_BYTES = 64 * 1024  # the largest legitimate JSON body (a correction, a calibration draft) is far smaller
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def create_app(runtime: Runtime, security: Security | None = None) -> Flask:
    from web_dashboard import api, pages, streams, wizard_routes

    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD_BYTES
    app.config["JSON_SORT_KEYS"] = False
    app.extensions["azul_runtime"] = runtime
    app.extensions["azul_security"] = security or Security()
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(streams.bp)
    app.register_blueprint(wizard_routes.bp)
    app.before_request(_guard)
    app.after_request(_headers)
    for code in (400, 403, 404, 405, 413, 415, 500):
        app.register_error_handler(code, _error)
    return app


def _security() -> Security:
    from flask import current_app

    return current_app.extensions["azul_security"]


def _guard():
    """Refuse what must be refused before any view runs: bad host names, missing token, missing CSRF value,
    oversized JSON."""
    security = _security()
    if not security.host_allowed(request.host):
        return _json_error(400, f"unknown host name {request.host!r}: open the dashboard at http://127.0.0.1")
    local = is_loopback(request.remote_addr)
    presented = request.headers.get(TOKEN_HEADER) or request.cookies.get(TOKEN_COOKIE)
    query_token = request.args.get("token")
    if query_token and security.token_ok(query_token):
        presented = query_token
        g.set_token_cookie = True
    authorised = local or security.token_ok(presented)
    g.authorised = authorised
    if request.method in SAFE_METHODS:
        if not authorised and not security.open_viewing:
            return _json_error(403, "this dashboard needs the access token printed when the companion started: "
                                    "open it once as http://HOST:PORT/?token=...")
        return None
    if not authorised:
        return _json_error(403, "changing the game from another device needs the access token printed when the "
                                "companion started (header X-Azul-Token, or open the page once with ?token=...)")
    if not security.csrf_ok(request.headers.get(CSRF_HEADER)):
        return _json_error(403, "missing or wrong CSRF token: reload the page and try again")
    origin = request.headers.get("Origin")
    if origin and origin.rstrip("/") != request.host_url.rstrip("/"):
        return _json_error(403, f"requests from {origin} are not accepted")
    if request.mimetype != "multipart/form-data":
        if request.content_length is not None and request.content_length > MAX_JSON_BYTES:
            return _json_error(413, f"the request body is larger than {MAX_JSON_BYTES // 1024} KB")
        if request.content_length and request.mimetype != "application/json":
            return _json_error(415, "send the request body as JSON (Content-Type: application/json)")
    return None


def _headers(response):
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    if getattr(g, "set_token_cookie", False):
        response.set_cookie(TOKEN_COOKIE, _security().token, httponly=True, samesite="Strict")
    return response


def _json_error(code: int, message: str):
    response = jsonify({"ok": False, "error": message})
    response.status_code = code
    return response


def _error(err):
    code = getattr(err, "code", 500) or 500
    messages = {
        400: "bad request", 403: "forbidden", 404: "no such page or endpoint", 405: "method not allowed here",
        413: f"the request is too large (uploads up to {MAX_UPLOAD_BYTES // (1024 * 1024)} MB)",
        415: "unsupported content type", 500: "internal error: see the companion's terminal",
    }
    description = getattr(err, "description", None) if code in (400,) else None
    return _json_error(code, description or messages.get(code, "error"))
