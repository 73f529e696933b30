import json
import subprocess
import sys

import cv2
import numpy as np

from calibration.profile import save


def _run(*args):
    return subprocess.run([sys.executable, "-m", "web_dashboard.cli", "recognize", *args], capture_output=True, text=True)


def test_recognize_prints_one_observation_and_saves_what_it_learned(plain_table, tmp_path):
    cal = tmp_path / "cal.json"
    save(plain_table.calibration, cal)
    cv2.imwrite(str(tmp_path / "setup.png"), plain_table.setup_frames[0])
    view, frame = plain_table.frame()
    cv2.imwrite(str(tmp_path / "frame.png"), frame.image)
    run = _run(str(tmp_path / "frame.png"), "--calibration", str(cal), "--setup", str(tmp_path / "setup.png"),
               "--save-calibration", str(tmp_path / "learned.json"), "--json")
    assert run.returncode == 0, run.stderr
    obs = json.loads(run.stdout)
    assert len(obs["boards"]) == 4 and len(obs["factories"]) == 9
    assert obs["boards"][0]["floor"] == view["boards"][0]["floor"]
    again = _run(str(tmp_path / "frame.png"), "--calibration", str(tmp_path / "learned.json"), "--json")
    assert again.returncode == 0 and json.loads(again.stdout)["boards"] == obs["boards"]


def test_bad_inputs_are_one_clear_line(plain_table, tmp_path):
    cal = tmp_path / "cal.json"
    save(plain_table.calibration, cal)
    (tmp_path / "junk.png").write_bytes(b"not an image")
    cv2.imwrite(str(tmp_path / "small.png"), np.zeros((480, 640, 3), np.uint8))
    (tmp_path / "broken.json").write_text("{")
    cases = [
        ((str(tmp_path / "junk.png"), "--calibration", str(cal)), "not an image"),
        ((str(tmp_path / "missing.png"), "--calibration", str(cal)), "no such image"),
        ((str(tmp_path / "small.png"), "--calibration", str(cal)), "640x480"),
        ((str(tmp_path / "small.png"), "--calibration", str(tmp_path / "broken.json")), "not valid JSON"),
    ]
    for args, message in cases:
        run = _run(*args, "--json")
        assert run.returncode == 2, (args, run.stderr)
        assert message in run.stderr and "Traceback" not in run.stderr


def test_recognize_learns_the_bare_table_given_with_empty(plain_table, tmp_path):
    from calibration.profile import load

    cal = tmp_path / "cal.json"
    save(plain_table.calibration, cal)
    cv2.imwrite(str(tmp_path / "setup.png"), plain_table.setup_frames[0])
    cv2.imwrite(str(tmp_path / "empty.png"), plain_table.empty_frames[0])
    view, frame = plain_table.frame()
    cv2.imwrite(str(tmp_path / "frame.png"), frame.image)
    run = _run(str(tmp_path / "frame.png"), "--calibration", str(cal), "--setup", str(tmp_path / "setup.png"),
               "--empty", str(tmp_path / "empty.png"), "--save-calibration", str(tmp_path / "learned.json"), "--json")
    assert run.returncode == 0, run.stderr
    learned = load(tmp_path / "learned.json").learned["setup"]
    assert all("empty" in f for f in learned["factories"]) and "empty" in learned["center"]
    obs = json.loads(run.stdout)
    assert len(obs["factories"]) == 9 and obs["boards"][0]["floor"] == view["boards"][0]["floor"]


def test_bad_empty_images_are_one_clear_line(plain_table, tmp_path):
    cal = tmp_path / "cal.json"
    save(plain_table.calibration, cal)
    frame, setup = str(tmp_path / "frame.png"), str(tmp_path / "setup.png")
    cv2.imwrite(frame, plain_table.setup_frames[0])
    cv2.imwrite(setup, plain_table.setup_frames[0])
    (tmp_path / "junk.png").write_bytes(b"not an image")
    cv2.imwrite(str(tmp_path / "small.png"), np.zeros((480, 640, 3), np.uint8))
    cases = [
        (("--empty", str(tmp_path / "small.png")), "--empty needs --setup"),
        (("--setup", setup, "--empty", str(tmp_path / "junk.png")), "not an image"),
        (("--setup", setup, "--empty", str(tmp_path / "missing.png")), "no such image"),
        (("--setup", setup, "--empty", str(tmp_path / "small.png")), "small.png is 640x480 but"),
    ]
    for args, message in cases:
        run = _run(frame, "--calibration", str(cal), *args, "--json")
        assert run.returncode == 2, (args, run.stderr)
        assert message in run.stderr and "Traceback" not in run.stderr
