"""The dashboard in a real browser (Debian's Chromium, headless) during a simulated game.

Each test looks for behaviour a person would see: a move appearing without a reload, an illegal-placement alert
appearing and clearing, undo, the camera shown as lost and back, the calibration wizard end to end. Screenshots
of every page go to docs/dashboard/ for the README when AZUL_UPDATE_SCREENSHOTS=1 is set.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from browser import browser, served, shot  # noqa: E402

from calibration.geometry import BoardGeometry  # noqa: E402
from calibration.grid import printed_squares  # noqa: E402
from calibration.profile import load  # noqa: E402
from tracker.state import DEAL, OFFER, OVER  # noqa: E402
from web_dashboard.runtime import players_demo_runtime, vision_demo_runtime  # noqa: E402
from web_dashboard.simplayers import SimulationSettings  # noqa: E402

TIMEOUT_MS = 30_000


@pytest.fixture(scope="module")
def chromium():
    with browser() as b:
        yield b


@pytest.fixture(scope="module")
def live(tmp_path_factory, chromium):
    tmp = tmp_path_factory.mktemp("live")
    simulation = SimulationSettings(move_seconds=0.5, illegal_chance=0.35, alert_seconds=2.5, seed=7)
    runtime = players_demo_runtime(4, simulation=simulation, log_dir=tmp / "logs", calibration_path=tmp / "cal.json")
    with served(runtime) as url:
        yield runtime, url, chromium


@pytest.fixture
def page(live):
    runtime, url, b = live
    page = b.new_page(viewport={"width": 1440, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    page.close()
    assert errors == [], errors


def events_shown(page) -> int:
    return int(page.evaluate("document.body.dataset.events || 0"))


def test_a_move_appears_without_reloading(live, page):
    runtime, url, _ = live
    page.goto(url + "/")
    page.wait_for_function("document.body.dataset.events !== undefined", timeout=TIMEOUT_MS)
    page.evaluate("window.__not_reloaded = true")
    # The count and the log are read in one step: a snapshot arriving between two reads would pair the log
    # after a move with the count before it.
    first, first_log = page.evaluate(
        "[+document.body.dataset.events, document.getElementById('log').innerText]")
    page.wait_for_function(f"+document.body.dataset.events > {first}", timeout=TIMEOUT_MS)
    assert page.evaluate("window.__not_reloaded === true")
    assert page.inner_text("#log") != first_log
    # What the page shows is what the tracker holds.
    page.wait_for_timeout(300)
    shown = events_shown(page)
    assert shown <= len(runtime.session.events())
    assert page.locator(".board").count() == 4
    assert page.locator(".factory").count() == 9
    shot(page, "dashboard.png")


def test_an_illegal_placement_alert_appears_and_clears(live, page):
    runtime, url, _ = live
    page.goto(url + "/")
    alert = page.locator("#illegal-alert")
    alert.wait_for(state="visible", timeout=TIMEOUT_MS)
    text = alert.inner_text()
    assert "Illegal placement" in text and "rule:" in text
    # The alert names the player who tried the illegal placement.
    assert any(f"Illegal placement — {name}:" in text for name in runtime.session.game.state.names), text
    shot(page, "alert.png", full_page=False)
    alert.wait_for(state="detached", timeout=TIMEOUT_MS)


def test_undo_takes_back_the_last_action(live, page):
    runtime, url, _ = live
    page.goto(url + "/")
    page.wait_for_function("document.body.dataset.events !== undefined", timeout=TIMEOUT_MS)
    runtime.players.pause()
    try:
        page.wait_for_timeout(1200)  # let a move already under way land
        with runtime.session.transaction() as game:
            before_state = game.state.to_dict()
            undoable = game.record.undoable
        assert undoable > 0
        events = len(runtime.session.events())
        page.click("#undo-btn")
        page.wait_for_function(f"+document.body.dataset.events === {events + 1}", timeout=TIMEOUT_MS)
        assert runtime.session.events()[-1] == {"type": "undo", "count": 1}
        assert runtime.session.game.record.undoable == undoable - 1
        assert runtime.session.game.state.to_dict() != before_state
        assert "undo (1 event)" in page.inner_text("#log")
    finally:
        runtime.players.resume()


def test_the_camera_is_shown_lost_and_comes_back_with_the_game_intact(live, page):
    runtime, url, _ = live
    page.goto(url + "/")
    page.wait_for_function("document.body.dataset.camera === 'live'", timeout=TIMEOUT_MS)
    game_id = runtime.session.game_id
    runtime.camera_off.set()
    try:
        page.wait_for_function("document.body.dataset.camera === 'lost'", timeout=TIMEOUT_MS)
        assert page.locator("#camera.is-lost .lost").is_visible()
        assert "LOST" in page.inner_text("#camera-badge")
        events_while_lost = len(runtime.session.events())
        shot(page, "camera-lost.png", full_page=False)
    finally:
        runtime.camera_off.clear()
    page.wait_for_function("document.body.dataset.camera === 'live'", timeout=TIMEOUT_MS)
    assert not page.locator("#camera .lost").is_visible()
    assert runtime.session.game_id == game_id
    assert len(runtime.session.events()) >= events_while_lost
    assert runtime.camera.status.losses >= 1


def test_what_the_lamps_reflection_hides_is_shown_until_it_is_fixed(live, page):
    # The camera loop's lamp watch (vision.lamp) fills the status; the page shows it and hides it once it clears.
    runtime, url, _ = live
    page.goto(url + "/")
    lamp = page.locator("#lamp-text")
    page.wait_for_function("document.body.dataset.camera === 'live'", timeout=TIMEOUT_MS)
    assert not lamp.is_visible()
    advice = "The lamp's reflection hides factory display 2: tilt or move the lamp."
    runtime.camera.status.lamp = advice
    try:
        lamp.wait_for(state="visible", timeout=TIMEOUT_MS)
        assert lamp.inner_text() == advice
    finally:
        runtime.camera.status.lamp = ""
    lamp.wait_for(state="hidden", timeout=TIMEOUT_MS)


def test_the_calibration_wizard_saves_a_valid_profile(live, page, tmp_path):
    runtime, url, _ = live
    page.goto(url + "/calibrate")
    # As a person would: wait for the camera (this test may be the first of its module on an xdist worker).
    page.wait_for_function("document.getElementById('camera-badge').textContent.startsWith('camera live')",
                           timeout=TIMEOUT_MS)
    page.click("#snap-btn")
    image = page.locator("#shot")
    image.wait_for(state="visible", timeout=TIMEOUT_MS)
    page.wait_for_function("document.getElementById('shot').complete && "
                           "document.getElementById('shot').naturalWidth > 0", timeout=TIMEOUT_MS)
    box = image.bounding_box()
    # Where a person would click: the rendered table's boards, factory displays and centre area.
    truth = runtime.camera.source.renderer.calibration()
    width, height = truth.image_size
    page.fill("#radius", str(round(truth.factories[0].radius)))
    points = [p for board in truth.boards for p in board.corners]
    points += [f.center for f in truth.factories]
    xs, ys = [p[0] for p in truth.center], [p[1] for p in truth.center]
    centre = [(min(xs), min(ys)), (max(xs), min(ys)), (max(xs), max(ys)), (min(xs), max(ys))]
    points += centre
    for x, y in points:
        page.mouse.click(box["x"] + x * box["width"] / width, box["y"] + y * box["height"] / height)
    assert "29 of 29 points" in page.inner_text("#progress")
    assert page.inner_text("#bare-state") == page.inner_text("#setup-state") == "not captured"
    page.click("#bare-btn")
    page.wait_for_function("document.getElementById('cal-msg').textContent.includes('Bare table captured')")
    assert page.inner_text("#bare-state") == "✓ captured" and page.inner_text("#setup-state") == "not captured"
    page.click("#empty-btn")
    page.wait_for_function("document.getElementById('cal-msg').textContent.includes('Setup captured')")
    assert page.inner_text("#setup-state") == "✓ captured"
    page.click("#check-btn")
    overlay = page.locator("#overlay")
    overlay.wait_for(state="visible", timeout=TIMEOUT_MS)
    page.wait_for_function("document.getElementById('overlay').naturalWidth > 0", timeout=TIMEOUT_MS)
    shot(page, "calibrate.png")
    page.click("#save-btn")
    page.wait_for_function("document.getElementById('cal-msg').textContent.startsWith('Saved to')",
                           timeout=TIMEOUT_MS)
    # The capture either taught the profile or says why not; the clicks are saved either way.
    saved = page.inner_text("#cal-msg")
    assert "with the setup learned" in saved or "setup was not learned" in saved
    profile = load(runtime.wizard.profile_path)
    assert profile.players == 4 and len(profile.factories) == 9
    # The clicks landed where they were aimed (to within the page's pixel scale and rounding), and setup only
    # snapped the corners onto the print: the printed squares are where the aimed corners put them (the snap
    # fits the print to about half a pixel on average, up to ~2 px at a board's far squares).
    tolerance = 1.5 * width / box["width"]
    for board, aimed in zip(profile.boards, truth.boards):
        squares = np.array([(u, v) for u, v, _ in printed_squares(aimed.effective_layout)])
        off = np.abs(BoardGeometry(board.corners).to_image(squares) - BoardGeometry(aimed.corners).to_image(squares))
        assert off.mean() <= tolerance and off.max() <= 2 * tolerance, (off.mean(), off.max())
    for image in ("setup_image", "empty_image"):  # both captures are kept beside the profile
        assert (runtime.wizard.profile_path.parent / profile.learned[image]).exists()
    assert runtime.camera.overlay is not None  # the camera view now shows the saved calibration


def test_setup_tv_and_phone_views(live, page):
    runtime, url, b = live
    page.goto(url + "/setup")
    page.wait_for_function("document.getElementById('full-log').children.length > 1", timeout=TIMEOUT_MS)
    assert page.locator("#sim-panel").is_visible()  # a simulated game says so
    shot(page, "setup.png")
    page.goto(url + "/tv")
    page.wait_for_function("document.body.dataset.events !== undefined", timeout=TIMEOUT_MS)
    assert not page.locator("#undo-btn").is_visible()  # the TV shows the game, not the controls
    shot(page, "tv.png", full_page=False)
    phone = b.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    try:
        phone.goto(url + "/")
        phone.wait_for_function("document.body.dataset.events !== undefined", timeout=TIMEOUT_MS)
        # Nothing wider than the phone's screen.
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        shot(phone, "phone.png", full_page=False)
    finally:
        phone.close()


def test_the_vision_demo_is_labelled_and_says_while_it_sets_up(tmp_path, chromium):
    runtime = vision_demo_runtime(4, simulation=SimulationSettings(seed=1), log_dir=tmp_path)
    with served(runtime) as url:
        page = chromium.new_page(viewport={"width": 1440, "height": 1000})
        page.goto(url + "/")
        setting_up = page.locator("#setting-up")
        setting_up.wait_for(state="visible", timeout=TIMEOUT_MS)
        assert setting_up.inner_text().startswith("Setting up")
        assert page.inner_text("#driver-badge") == "DEMO: VISION READS A SIMULATED TABLE"
        # Once the setup is learned from the first frames, vision reads the table and the tracker says how it goes.
        setting_up.wait_for(state="hidden", timeout=TIMEOUT_MS)
        page.locator("#tracker-text").wait_for(state="visible", timeout=TIMEOUT_MS)
        assert page.inner_text("#tracker-text").startswith("Tracker: ")
        page.close()


def test_game_over_summary_and_score_sheet(tmp_path, chromium):
    # A game of its own, played to the end quickly through the session, so the summary is reached in seconds.
    runtime = players_demo_runtime(2, simulation=SimulationSettings(move_seconds=60, seed=2), log_dir=tmp_path)
    runtime.players = None
    rng = random.Random(11)
    session = runtime.session
    while session.game.state.phase != OVER:
        state = session.game.state
        if state.phase == DEAL:
            session.deal_random(rng)
        elif state.phase == OFFER:
            legal = state.legal_moves()
            placed = [m for m in legal if m.line != 5] or legal
            session.play(rng.choice(placed))
        else:
            session.tile_walls()
    final = session.snapshot()["final"]
    with served(runtime) as url:
        page = chromium.new_page(viewport={"width": 1440, "height": 1000})
        page.goto(url + "/")
        page.locator("#final").wait_for(state="visible", timeout=TIMEOUT_MS)
        winners = " and ".join(session.snapshot()["names"][i] for i in final["winners"])
        assert f"Winner: {winners}" in page.inner_text("#final")
        shot(page, "game-over.png")
        page.goto(url + "/scoresheet")
        sheet = page.inner_text("#scoresheet")
        for score in final["scores"]:
            assert score["name"] in sheet and str(score["score"]) in sheet
        shot(page, "scoresheet.png")
        exported = page.request.get(url + "/api/export.jsonl").text()
        events = [json.loads(line) for line in exported.splitlines()]
        assert events[0]["type"] == "setup" and events[-1]["type"] == "end"
        page.close()


def test_a_misread_move_is_corrected_from_the_setup_page(live, page):
    from tracker.game import Game
    from tracker.moves import CENTRE, FLOOR

    runtime, url, _ = live
    session = runtime.session
    runtime.players.pause()
    try:
        page.wait_for_timeout(1200)  # let a move already under way land
        rng = random.Random(8)
        # A turn with a choice to correct: late in a round only one move may be left (CI hit that once).
        while not (session.game.state.phase == OFFER and len(session.game.state.legal_moves()) > 1):
            phase = session.game.state.phase
            if phase == DEAL:
                session.deal_random(rng)
            elif phase == OFFER:
                session.play(session.game.state.legal_moves()[0])
            elif phase == OVER:
                session.new_game(session.settings)
            else:
                session.tile_walls()
        before = Game.from_events(session.events())[0].state
        played, other = before.legal_moves()[0], before.legal_moves()[-1]
        session.play(played)
        page.goto(url + "/setup")
        page.wait_for_function("document.getElementById('full-log').children.length > 1", timeout=TIMEOUT_MS)
        page.select_option("#m-source", "center" if other.source == CENTRE else str(other.source))
        page.select_option("#m-colour", ["blue", "yellow", "red", "black", "white"][other.colour])
        page.select_option("#m-line", "floor" if other.line == FLOOR else str(other.line))
        page.fill("#m-reason", "the camera read red as black")
        page.click("#replace-btn")
        page.wait_for_function("document.getElementById('move-msg').textContent === 'Last move corrected.'",
                               timeout=TIMEOUT_MS)
        last = session.events()[-1]
        assert last["type"] == "correction" and last["reason"] == "the camera read red as black"
        assert last["events"][0]["player"] == before.current_player
        reference = before.copy()
        reference.play(other)
        assert session.game.state == reference
        page.wait_for_function("document.getElementById('full-log').textContent.includes('the camera read red')",
                               timeout=TIMEOUT_MS)
    finally:
        runtime.players.resume()
