"""The camera loop: a camera that fails and comes back reconnects by itself, with the game intact."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np

from web_dashboard.bus import EventBus
from web_dashboard.pipeline import CameraLoop
from web_dashboard.session import GameSettings, TableSession
from web_dashboard.sources import ImageFolderSource, OpenCVSource, source_from_spec


class UnpluggableCamera:
    """A camera that delivers frames until unplugged, refuses to reopen while unplugged, then comes back."""

    name = "test camera"

    def __init__(self) -> None:
        self.plugged = threading.Event()
        self.plugged.set()
        self.opens = 0

    def open(self) -> bool:
        if self.plugged.is_set():
            self.opens += 1
            return True
        return False

    def read(self):
        time.sleep(0.01)
        if not self.plugged.is_set():
            return False, None, time.time()
        return True, np.full((60, 80, 3), 128, np.uint8), time.time()

    def close(self) -> None:
        pass


def wait_until(condition, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def make_session(tmp_path) -> TableSession:
    return TableSession(EventBus(), GameSettings(2, "colored", ("A", "B"), tmp_path))


def test_an_unplugged_camera_is_shown_lost_and_reconnects_by_itself(tmp_path):
    import random

    session = make_session(tmp_path)
    session.deal_random(random.Random(1))
    session.play(session.game.state.legal_moves()[0])
    game, events = session.game, session.events()
    camera = UnpluggableCamera()
    loop = CameraLoop(camera, session, session.bus, retry_seconds=(0.02, 0.1))
    states: list[str] = []
    sub = session.bus.subscribe(replay=False)
    loop.start()
    try:
        assert wait_until(lambda: loop.status.state == "live" and loop.status.frames > 3)
        camera.plugged.clear()
        assert wait_until(lambda: loop.status.state == "lost")
        time.sleep(0.3)  # several failed reopen attempts while unplugged
        assert loop.status.state == "lost" and loop.status.fps == 0.0
        frames_while_lost = loop.status.frames
        time.sleep(0.1)
        assert loop.status.frames == frames_while_lost  # nothing invented while the camera is away
        camera.plugged.set()
        assert wait_until(lambda: loop.status.state == "live" and loop.status.frames > frames_while_lost + 3)
    finally:
        loop.stop()
    while (message := sub.get(0.01)) is not None:
        if message.kind == "camera":
            states.append(message.data["state"])
    assert "lost" in states and states.index("lost") < len(states) - 1 - states[::-1].index("live")
    assert loop.status.losses == 1 and camera.opens == 2
    # The game is untouched: same game object, same events.
    assert session.game is game and session.events() == events
    session.close()


def test_the_camera_view_serves_the_latest_frame_and_a_raw_snapshot(tmp_path):
    session = make_session(tmp_path)
    loop = CameraLoop(UnpluggableCamera(), session, session.bus)
    loop.start()
    try:
        assert wait_until(lambda: loop.latest_jpeg()[1] is not None)
        seq, jpeg = loop.latest_jpeg()
        assert cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).shape == (60, 80, 3)
        newer, _ = loop.wait_jpeg(seq, timeout=2)
        assert newer > seq
        assert loop.snapshot().shape == (60, 80, 3)
    finally:
        loop.stop()
    session.close()


def test_a_camera_that_cannot_be_opened_is_reported_not_fatal(tmp_path):
    session = make_session(tmp_path)
    source = OpenCVSource(str(tmp_path / "no-such-video.mp4"))
    loop = CameraLoop(source, session, session.bus, retry_seconds=(0.02, 0.05))
    loop.start()
    try:
        assert wait_until(lambda: "cannot open" in loop.status.message)
        assert loop.status.state == "connecting" and loop.status.frames == 0
    finally:
        loop.stop()
    session.close()


def test_an_image_folder_plays_its_images_in_order(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(3):
        cv2.imwrite(str(folder / f"{i:03d}.png"), np.full((10, 10, 3), 50 * i, np.uint8))
    (folder / "notes.txt").write_text("not an image")
    source = source_from_spec(str(folder), fps=200)
    assert isinstance(source, ImageFolderSource)
    assert source.open()
    values = [int(source.read()[1][0, 0, 0]) for _ in range(4)]
    assert values == [0, 50, 100, 0]


def test_a_video_file_plays_at_its_own_rate_and_ends(tmp_path):
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 20, (64, 48))
    for i in range(10):
        writer.write(np.full((48, 64, 3), 20 * i, np.uint8))
    writer.release()
    session = make_session(tmp_path)
    loop = CameraLoop(OpenCVSource(str(path)), session, session.bus)
    started = time.monotonic()
    loop.start()
    try:
        assert wait_until(lambda: loop.status.state == "ended", timeout=5)
        elapsed = time.monotonic() - started
    finally:
        loop.stop()
    assert loop.status.frames == 10
    assert elapsed >= 0.4  # 10 frames at 20 fps: half a second, not as fast as the disk allows
    assert loop.status.losses == 0
    session.close()


class StillTable:
    """A camera on a still table, 10 frames a second by their timestamps (as fast as the loop takes them)."""

    name = "still table"
    finite = True

    def __init__(self, frames: int) -> None:
        self.left, self.time = frames, 100.0

    def open(self) -> bool:
        return True

    def read(self):
        if not self.left:
            return False, None, self.time
        self.left -= 1
        self.time += 0.1
        return True, np.full((60, 80, 3), 128, np.uint8), self.time

    def close(self) -> None:
        pass


def test_the_dashboard_is_told_what_the_lamps_reflection_hides(tmp_path):
    # Factory display 3 under the lamp's reflection in every frame but the last second's: the camera status names
    # it once it has stood 3 s (LAMP_ADVICE_SECONDS), and the advice goes when the lamp is moved.
    from vision.observation import GLARE_SHARE

    session = make_session(tmp_path)
    said = []

    def recognizer(frame, timestamp):
        glare = 2 * GLARE_SHARE if timestamp < 105.0 else 0.0
        return {"boards": [], "factories": [], "center": {},
                "details": {"factories": [{"glare": 0.0}] * 2 + [{"glare": glare}] + [{"glare": 0.0}] * 2,
                            "center": {"glare": 0.0}}}

    def painter(shown, observation):
        said.append(loop.status.lamp)

    loop = CameraLoop(StillTable(60), session, session.bus, recognizer=recognizer, overlay=painter)
    loop.start()
    try:
        assert wait_until(lambda: loop.status.state == "ended")
    finally:
        loop.stop()
    session.close()
    named = [k for k, text in enumerate(said) if text]
    assert named and 29 <= named[0] <= 31  # the 30th frame is 3 s after the first
    assert "factory display 3" in said[named[0]] and "display 4" not in said[named[0]]
    assert said[-1] == ""  # the lamp moved at 105 s
