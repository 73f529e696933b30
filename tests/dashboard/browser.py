"""Helpers for the browser tests: Debian's Chromium driven by Playwright, and an in-process dashboard."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import pytest

from web_dashboard.app import create_app
from web_dashboard.security import Security
from web_dashboard.server import DashboardServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The README's screenshots are refreshed only on request (AZUL_UPDATE_SCREENSHOTS=1), so an ordinary test run
# leaves the work tree clean; otherwise they go to a scratch folder (they are still taken: that is tested).
DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "dashboard"
SHOTS = DOCS_SHOTS if os.environ.get("AZUL_UPDATE_SCREENSHOTS") == "1" else Path(tempfile.gettempdir()) / "azul-shots"


def require_chromium() -> None:
    # The browser tests are part of the acceptance: a missing browser is a failure to fix, never a skip.
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's browser with `apt-get install chromium` "
                    "(scripts/test.sh does this when run as root)", pytrace=False)


@contextlib.contextmanager
def browser():
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@contextlib.contextmanager
def served(runtime):
    """The runtime started and served on a free loopback port; yields the base URL."""
    server = DashboardServer(create_app(runtime, Security()), "127.0.0.1", 0)
    server.start_background()
    runtime.start()
    try:
        yield server.url
    finally:
        runtime.stopping.set()
        server.close()
        runtime.stop()


def shot(page, name: str, full_page: bool = True) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    page.screenshot(path=str(path), full_page=full_page)
    return path
