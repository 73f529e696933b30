"""The calibration wizard's server side and the camera overlay, through the app's endpoints."""

from __future__ import annotations

import io
import json

import cv2
import numpy as np

from calibration.profile import from_json, load
from web_dashboard.security import CSRF_HEADER
from web_dashboard.wizard import overlay_painter

LOOPBACK = {"REMOTE_ADDR": "127.0.0.1"}
NETWORK = {"REMOTE_ADDR": "192.168.1.20"}

DRAFT = {
    "boards": [{"corners": [[10, 10], [150, 10], [150, 120], [10, 120]]},
               {"corners": [[170, 10], [310, 10], [310, 120], [170, 120]]},
               {"corners": [[10, 130], [150, 130], [150, 235], [10, 235]]},
               {"corners": [[170, 130], [310, 130], [310, 235], [170, 235]]}],
    "factories": [{"center": [20 + 30 * j, 225], "radius": 12} for j in range(9)],
    "center": [[120, 100], [200, 100], [200, 140], [120, 140]],
}


def png(width: int, height: int) -> bytes:
    ok, data = cv2.imencode(".png", np.full((height, width, 3), 200, np.uint8))
    return data.tobytes()


def client_post(app, security):
    client = app.test_client()

    def post(path, **kwargs):
        return client.post(path, environ_base=LOOPBACK, headers={CSRF_HEADER: security.csrf_value()}, **kwargs)

    return client, post


def test_the_wizard_refuses_steps_out_of_order_with_a_clear_message(app, security):
    _, post = client_post(app, security)
    response = post("/api/calibration/check", json={"draft": DRAFT})
    assert response.status_code == 409 and response.get_json()["error"] == "take a snapshot first"
    response = post("/api/calibration/snapshot", json={})  # the demo camera is not running in this fixture
    assert response.status_code == 409 and "upload a photo" in response.get_json()["error"]


def test_upload_check_and_save_a_profile(app, security, runtime):
    client, post = client_post(app, security)
    bad = post("/api/calibration/upload", data={"photo": (io.BytesIO(b"not an image"), "x.png")},
               content_type="multipart/form-data")
    assert bad.status_code == 409 and "not an image" in bad.get_json()["error"]
    good = post("/api/calibration/upload", data={"photo": (io.BytesIO(png(320, 240)), "table.png")},
                content_type="multipart/form-data")
    assert good.status_code == 200 and (good.get_json()["width"], good.get_json()["height"]) == (320, 240)
    wrong = post("/api/calibration/check", json={"draft": {**DRAFT, "boards": []}})
    assert wrong.status_code == 409 and "boards" in wrong.get_json()["error"]
    checked = post("/api/calibration/check", json={"draft": DRAFT})
    assert checked.status_code == 200, checked.get_json()
    overlay = client.get("/calibration/overlay.jpg", environ_base=LOOPBACK)
    image = cv2.imdecode(np.frombuffer(overlay.data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (240, 320, 3)
    assert (np.abs(image.astype(int) - 200).sum(axis=2) > 60).mean() > 0.02  # the layout was drawn on it
    saved = post("/api/calibration/save", json={"draft": DRAFT})
    assert saved.status_code == 200
    profile = load(runtime.wizard.profile_path)
    assert profile.image_size == (320, 240) and profile.players == 4


def test_the_bare_table_endpoint_is_guarded_and_refuses_a_frame_of_another_size(app, security, runtime,
                                                                              monkeypatch):
    client, post = client_post(app, security)
    monkeypatch.setattr(runtime.camera, "snapshot", lambda: np.full((240, 320, 3), 90, np.uint8))
    # The same gate as every state-changing endpoint: the token for network clients, the CSRF value for all.
    assert client.post("/api/calibration/bare", environ_base=NETWORK,
                       headers={CSRF_HEADER: security.csrf_value()}).status_code == 403
    assert client.post("/api/calibration/bare", environ_base=LOOPBACK).status_code == 403
    assert runtime.wizard.captures() == {"bare": False, "setup": False}
    post("/api/calibration/upload", data={"photo": (io.BytesIO(png(640, 480)), "table.png")},
         content_type="multipart/form-data")
    refused = post("/api/calibration/bare")
    assert refused.status_code == 409 and "320x240 but the snapshot is 640x480" in refused.get_json()["error"]
    post("/api/calibration/upload", data={"photo": (io.BytesIO(png(320, 240)), "table.png")},
         content_type="multipart/form-data")
    taken = post("/api/calibration/bare")
    assert taken.status_code == 200 and taken.get_json()["captures"] == {"bare": True, "setup": False}
    assert post("/api/calibration/empty").get_json()["captures"] == {"bare": True, "setup": True}
    shown = client.get("/api/calibration/captures", environ_base=LOOPBACK).get_json()
    assert shown["captures"] == {"bare": True, "setup": True}


def test_the_camera_overlay_marks_regions_and_occluded_boards():
    profile = from_json({**DRAFT, "image_size": [320, 240]})
    paint = overlay_painter(profile)
    clear = np.zeros((240, 320, 3), np.uint8)
    paint(clear, {"boards": [{"confidence": 0.97, "occluded": False}] * 4, "factories": []})
    covered = np.zeros((240, 320, 3), np.uint8)
    paint(covered, {"boards": [{"confidence": 0.2, "occluded": True}] + [{"confidence": 0.9}] * 3})
    # Board 1's outline: yellow (B=0, G, R high) when seen, red (only R) when covered.
    assert tuple(clear[60, 10]) == (0, 255, 255)
    assert tuple(covered[60, 10]) == (0, 0, 255)


def test_saving_a_calibration_switches_the_running_camera_to_it(tmp_path):
    import time

    from web_dashboard.runtime import camera_runtime

    class Still:
        name = "still camera"

        def open(self):
            return True

        def read(self):
            time.sleep(0.02)
            return True, np.full((240, 320, 3), 120, np.uint8), time.time()

        def close(self):
            pass

    runtime = camera_runtime(Still(), 4, "colored", ("A", "B", "C", "D"), tmp_path / "cal.json", tmp_path / "logs")
    assert runtime.camera.recognizer is None and runtime.session.driver == "manual entry"
    runtime.start()
    try:
        deadline = time.monotonic() + 5
        while runtime.camera.snapshot() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        runtime.wizard.set_snapshot(runtime.camera.snapshot())
        runtime.wizard.save(dict(DRAFT))
        assert runtime.camera.overlay is not None
        assert runtime.camera.status.recognition.startswith("on")
        assert runtime.session.snapshot()["driver"] == "camera"
        frames = runtime.camera.status.frames
        while runtime.camera.status.frames < frames + 10 and time.monotonic() < deadline + 5:
            time.sleep(0.02)
        # Frames keep flowing through recognition and the move tracker; an empty table commits nothing.
        assert runtime.camera.status.frames >= frames + 10
        assert runtime.camera.status.state == "live"
        assert runtime.camera.status.message == "", runtime.camera.status.message
        assert len(runtime.session.events()) == 1
    finally:
        runtime.stop()


def schematic_bare() -> np.ndarray:
    """The same schematic table before the first deal: boards, factory displays and centre empty."""
    from tracker.game import Game
    from web_dashboard.schematic import draw_table

    return draw_table(Game.new(4).state.to_table(), (960, 600))


def schematic_setup():
    """A frame of the demo's schematic table at setup (boards empty, round 1 dealt) and its true layout."""
    import random

    from tracker.game import Game
    from web_dashboard.schematic import draw_table

    game = Game.new(4)
    game.deal_random(random.Random(1))
    w, h, bw, bh = 960, 600, 300, 230
    spots = [(20, 20), (w - bw - 20, 20), (w - bw - 20, h - bh - 20), (20, h - bh - 20)]
    factories = []
    for i in range(9):
        a = 2 * np.pi * i / 9 - np.pi / 2
        factories.append({"center": [float(int(w // 2 + 200 * np.cos(a) * 0.9)),
                                     float(int(h // 2 + 170 * np.sin(a) * 0.75))], "radius": 34})
    draft = {"boards": [{"corners": [[x, y], [x + bw, y], [x + bw, y + bh], [x, y + bh]]} for x, y in spots],
             "factories": factories, "center": [[400, 270], [560, 270], [560, 340], [400, 340]]}
    return draw_table(game.state.to_table(), (w, h)), draft


def test_the_setup_capture_teaches_the_profile(tmp_path):
    from web_dashboard.wizard import CalibrationWizard

    frame, draft = schematic_setup()
    wizard = CalibrationWizard(tmp_path / "cal.json")
    wizard.set_snapshot(frame)
    wizard.capture_setup(frame)
    result = wizard.save(draft)
    assert result["learned"] is True and result["warning"] is None
    # Without the bare table the setup is still learned, and the person is told what that costs.
    assert result["bare_table"] is False and "less reliable" in result["note"]
    profile = load(tmp_path / "cal.json")
    assert len(profile.learned["setup"]["boards"]) == 4 and len(profile.learned["setup"]["factories"]) == 9
    assert "colour_model" in profile.learned
    assert "empty" not in profile.learned["setup"]["factories"][0] and "empty_image" not in profile.learned
    assert (tmp_path / profile.learned["setup_image"]).exists()


def test_the_bare_table_and_the_setup_are_learned_together(tmp_path):
    import cv2

    from web_dashboard.wizard import CalibrationWizard

    frame, draft = schematic_setup()
    bare = schematic_bare()
    wizard = CalibrationWizard(tmp_path / "cal.json")
    wizard.set_snapshot(bare)
    assert wizard.capture_bare(bare)["captures"] == {"bare": True, "setup": False}
    assert wizard.capture_setup(frame)["captures"] == {"bare": True, "setup": True}
    result = wizard.save(draft)
    assert result["learned"] is True and result["bare_table"] is True
    assert result["warning"] is None and result["note"] is None
    profile = load(tmp_path / "cal.json")
    assert all("empty" in f for f in profile.learned["setup"]["factories"])
    assert "empty" in profile.learned["setup"]["center"]
    # Both frames are kept beside the profile, exactly as captured.
    saved_bare = cv2.imread(str(tmp_path / profile.learned["empty_image"]))
    assert profile.learned["empty_image"] != profile.learned["setup_image"]
    assert np.array_equal(saved_bare, bare)
    assert (tmp_path / profile.learned["setup_image"]).exists()


def test_a_bare_capture_of_another_size_is_refused(tmp_path):
    import pytest

    from web_dashboard.wizard import CalibrationWizard, WizardError

    frame, _ = schematic_setup()
    wizard = CalibrationWizard(tmp_path / "cal.json")
    wizard.capture_setup(frame)
    with pytest.raises(WizardError, match="bare-table frame is 400x300 but the setup capture is 960x600"):
        wizard.capture_bare(frame[:300, :400])
    wizard.set_snapshot(frame)
    with pytest.raises(WizardError, match="but the snapshot is 960x600"):
        wizard.capture_bare(frame[:300, :400])
    assert wizard.captures() == {"bare": False, "setup": True}


def test_a_bare_capture_taken_before_a_snapshot_of_another_size_is_left_out_with_a_note(tmp_path):
    from web_dashboard.wizard import CalibrationWizard

    frame, draft = schematic_setup()
    wizard = CalibrationWizard(tmp_path / "cal.json")
    wizard.capture_bare(schematic_bare()[:300, :400])  # nothing to compare with yet
    wizard.set_snapshot(frame)
    wizard.capture_setup(frame)
    result = wizard.save(draft)
    assert result["learned"] is True and result["bare_table"] is False
    assert "(400x300) is not the setup frame's size (960x600)" in result["note"]
    assert "empty" not in load(tmp_path / "cal.json").learned["setup"]["factories"][0]


def test_the_bare_table_alone_teaches_nothing_but_the_clicks_are_saved(tmp_path):
    from web_dashboard.wizard import CalibrationWizard

    _, draft = schematic_setup()
    wizard = CalibrationWizard(tmp_path / "cal.json")
    wizard.set_snapshot(schematic_bare())
    wizard.capture_bare(schematic_bare())
    result = wizard.save(draft)
    assert result["learned"] is False and "capture the setup too" in result["note"]
    profile = load(tmp_path / "cal.json")
    assert "setup" not in profile.learned and (tmp_path / profile.learned["empty_image"]).exists()


def test_an_unusable_setup_capture_still_saves_the_clicks_with_a_warning(tmp_path):
    from web_dashboard.wizard import CalibrationWizard

    frame, draft = schematic_setup()
    wizard = CalibrationWizard(tmp_path / "cal.json")
    wizard.set_snapshot(frame)
    wizard.capture_setup(frame[:300, :400])  # a frame of another size than the calibration's
    result = wizard.save(draft)
    assert result["learned"] is False and "capture the table at setup again" in result["warning"]
    profile = load(tmp_path / "cal.json")
    assert "setup" not in profile.learned and profile.players == 4


def test_a_setup_capture_under_a_lamp_that_pales_displays_says_so_and_what_to_do(tmp_path):
    # Tuning seed 877's table: the lamp mirrored in factory display 2 (read 120 at setup) and paling display 4 (70);
    # the moment to move the lamp is before play. The same table under a faint lamp is saved with no such note.
    from calibration.profile import dumps
    from vision.synthetic.look import Look
    from vision.synthetic.render import Renderer
    from web_dashboard.vision_bench import empty_view, setup_view
    from web_dashboard.wizard import CalibrationWizard

    notes = {}
    for glare in (None, 0.3):
        look = Look.random(877, 1280, 720) if glare is None else Look.random(877, 1280, 720, glare=glare)
        renderer = Renderer(2, "gray", look, 877)
        setup = renderer.render(renderer.pieces(setup_view(2, np.random.default_rng([877, 77]))), shake=False).image
        bare = renderer.render(renderer.pieces(empty_view(2)), shake=False).image
        wizard = CalibrationWizard(tmp_path / f"cal-{glare}.json")
        wizard.set_snapshot(setup)
        wizard.capture_bare(bare)
        wizard.capture_setup(setup)
        result = wizard.save(json.loads(dumps(renderer.calibration())))
        assert result["learned"] is True and result["warning"] is None
        notes[glare] = result["note"]
    assert notes[None].startswith("the lamp's reflection pales the tiles on factory display 2 and factory display 4")
    assert notes[None].endswith("capture the setup again")
    assert notes[0.3] is None
