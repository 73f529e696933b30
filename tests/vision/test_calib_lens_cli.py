"""`azul-companion lens`: photos of the printed sheet -> the calibration's camera field, bad input one clear line."""

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from calibration.lens import charuco_sheet
from tests.vision.test_calib_lens import _sheet_photo

POSES = [((0.2, -0.1, 0.05), (-5.5, -4.0, 16)), ((-0.25, 0.2, -0.1), (-6, -4.5, 17)),
         ((0.1, 0.3, 0.2), (-5, -5, 15)), ((-0.3, -0.25, 0.0), (-6.5, -3.5, 18))]


def _lens(*args):
    return subprocess.run([sys.executable, "-m", "web_dashboard.cli", "lens", *args], capture_output=True, text=True)


def _calibration(tmp_path, image_size=None, learned=None, name="cal.json"):
    data = {
        "boards": [{"corners": [[100, 300], [250, 300], [250, 450], [100, 450]]},
                   {"corners": [[400, 300], [550, 300], [550, 450], [400, 450]]}],
        "factories": [{"center": [150 + 70 * i, 120], "radius": 28} for i in range(5)],
        "center": [[250, 180], [400, 180], [400, 260], [250, 260]],
    }
    if image_size:
        data["image_size"] = image_size
    if learned:
        data["learned"] = learned
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lens")
    sheet = charuco_sheet(100)
    paths = []
    for k, (r, t) in enumerate(POSES):
        paths.append(str(folder / f"sheet{k}.jpg"))
        cv2.imwrite(paths[-1], cv2.cvtColor(_sheet_photo(sheet, 100, r, t), cv2.COLOR_GRAY2BGR))
    return paths


def test_the_lens_goes_into_the_calibration_and_setup_must_be_learned_again(photos, tmp_path):
    cal = _calibration(tmp_path, learned={"colour_model": {"means": []}})
    out = tmp_path / "with-lens.json"
    run = _lens(*photos, "--calibration", str(cal), "--save-calibration", str(out))
    assert run.returncode == 0, run.stderr
    assert "lens from 4 of 4 photos" in run.stdout and "learn it again" in run.stdout
    saved = json.loads(out.read_text())
    assert saved["image_size"] == [640, 480]
    assert saved["camera"]["matrix"][0][0] == pytest.approx(700, rel=0.05)
    assert saved["camera"]["distortion"][0] == pytest.approx(-0.2, abs=0.06)
    assert "learned" not in saved  # sampled without the lens model, it would no longer line up
    assert saved["boards"] == json.loads(cal.read_text())["boards"]


def test_bad_input_is_one_clear_line(photos, tmp_path):
    cal = _calibration(tmp_path)
    (tmp_path / "junk.jpg").write_bytes(b"not an image")
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 255, np.uint8))
    cases = [
        ((*photos, "--calibration", str(_calibration(tmp_path, [1280, 720], name="hd.json"))), "the photos are 640x480"),
        ((str(tmp_path / "junk.jpg"), "--calibration", str(cal)), "not an image"),
        ((str(blank),) * 3 + ("--calibration", str(cal)), "found in 0 of 3 photographs"),
        ((*photos, "--calibration", str(cal), "--pattern", "chessboard", "--inner-corners", "nine"), "COLSxROWS"),
        ((*photos, "--calibration", str(tmp_path / "none.json")), "none.json"),
        ((*photos, "--calibration", str(cal), "--save-calibration", str(tmp_path / "no" / "dir.json")), "dir.json"),
    ]
    for args, message in cases:
        run = _lens(*args)
        assert run.returncode == 2, (args, run.stdout, run.stderr)
        assert message in run.stderr and "Traceback" not in run.stderr, run.stderr


def test_the_printed_lens_sheet_is_found_by_the_lens_calibration(tmp_path):
    from calibration.lens import charuco_board

    out = tmp_path / "sheet.png"
    run = subprocess.run([sys.executable, "-m", "web_dashboard.cli", "markers", "--lens", "--out", str(out)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "azul-companion lens" in run.stdout
    page = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    assert page.shape == (1653, 2338)  # A4 landscape at 200 dpi
    _, ids, _, _ = cv2.aruco.CharucoDetector(charuco_board()).detectBoard(page)
    assert ids is not None and len(ids) == 40  # every inner corner of the 9x6-square pattern
