import threading
import time

import numpy as np

from vision.sources import LatestFrameReader


class FastCamera:
    """Delivers numbered frames as fast as asked; drops after `drop_after` frames, once."""

    def __init__(self, drop_after: int | None = None) -> None:
        self.n = 0
        self.opens = 0
        self.drop_after = drop_after
        self.dropped = False
        self.lock = threading.Lock()

    def open(self) -> bool:
        self.opens += 1
        return True

    def read(self):
        time.sleep(0.001)
        with self.lock:
            if self.drop_after is not None and self.n == self.drop_after and not self.dropped:
                self.dropped = True
                return False, None, 0.0
            self.n += 1
            return True, np.full((2, 2, 3), self.n % 256, np.uint8), float(self.n)

    def close(self) -> None:
        pass


def test_a_slow_consumer_gets_the_newest_frame_not_a_backlog():
    camera = FastCamera()
    with LatestFrameReader(camera) as reader:
        first = reader.latest(timeout=2.0)
        assert first is not None
        time.sleep(0.1)  # a slow recogniser: the camera delivers many frames meanwhile
        frame = reader.latest(newer_than=first.index, timeout=2.0)
        assert frame.index - first.index > 5
        # The frame handed over is the newest the source delivered, give or take the one in flight.
        assert camera.n - frame.timestamp <= 2


def test_a_dropped_source_is_reopened_and_frames_resume():
    camera = FastCamera(drop_after=20)
    with LatestFrameReader(camera, retry_seconds=0.01) as reader:
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and (camera.opens < 2 or camera.n < 40):
            time.sleep(0.01)
        assert camera.opens >= 2 and reader.reconnects >= 1
        assert reader.latest(newer_than=30, timeout=2.0) is not None


def test_no_frame_yet_returns_none_without_waiting():
    class Dead:
        def open(self):
            return False

        def read(self):
            return False, None, 0.0

        def close(self):
            pass

    with LatestFrameReader(Dead(), retry_seconds=0.01) as reader:
        assert reader.latest() is None
        assert reader.latest(timeout=0.05) is None
        assert reader.connected is False
