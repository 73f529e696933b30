"""Recorded media read in order with recording timestamps, and `replay`'s clear errors."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.recording import RecordingError, frames
from web_dashboard.cli import main


def _frame(i: int) -> np.ndarray:
    img = np.zeros((48, 64, 3), np.uint8)
    img[:, :, 1] = 10 * i  # each frame distinguishable by its green level
    return img


def test_image_folder_in_name_order_with_index_timestamps(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), _frame(i))
    (tmp_path / "notes.txt").write_text("not a frame")
    got = list(frames(tmp_path, fps=4))
    assert [t for t, _ in got] == [0.0, 0.25, 0.5]
    assert [int(f[0, 0, 1]) for _, f in got] == [0, 10, 20]


def test_video_every_frame_in_order(tmp_path):
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for i in range(12):
        writer.write(_frame(i))
    writer.release()
    got = list(frames(path))
    assert len(got) == 12
    assert got[-1][0] == pytest.approx(1.1)
    assert abs(int(got[5][1][0, 0, 1]) - 50) <= 4  # MJPEG is lossy


def test_unreadable_recordings_are_clear_errors(tmp_path):
    with pytest.raises(RecordingError, match="no such video file or image folder"):
        list(frames(tmp_path / "missing.mp4"))
    with pytest.raises(RecordingError, match="no images"):
        list(frames(tmp_path))
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"\x00" * 100)
    with pytest.raises(RecordingError, match="bad.mp4"):
        list(frames(bad))


def test_replay_reports_bad_input_in_one_line(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "x.mp4"), "--calibration", str(tmp_path / "c.json"), "--players", "2"]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err
    calibration = tmp_path / "c.json"
    calibration.write_text("{not json")
    assert main(["replay", str(tmp_path), "--calibration", str(calibration), "--players", "2"]) == 2
    assert "c.json" in capsys.readouterr().err
