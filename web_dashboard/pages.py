"""The HTML pages. They are thin shells: the browser draws everything from the live snapshot."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template

bp = Blueprint("pages", __name__)


def _page(template: str, **extra):
    runtime = current_app.extensions["azul_runtime"]
    security = current_app.extensions["azul_security"]
    return render_template(template, csrf=security.csrf_value(), mode=runtime.mode, **extra)


@bp.get("/")
def dashboard():
    return _page("dashboard.html", view="full")


@bp.get("/tv")
def tv():
    return _page("dashboard.html", view="tv")


@bp.get("/setup")
def setup():
    return _page("setup.html")


@bp.get("/calibrate")
def calibrate():
    return _page("calibrate.html")


@bp.get("/scoresheet")
def scoresheet():
    snapshot = current_app.extensions["azul_runtime"].session.snapshot()
    return _page("scoresheet.html", game=snapshot)


@bp.get("/healthz")
def health():
    return {"ok": True}
