"""A nudged board's margin ring is recorded again at its new pose though the print's frame line under it reads
another colour a fraction of a pixel off: frames as a video file gives them (MJPG: JPEG, 4:2:0 chroma, colours
shifted a couple of units)."""

import math

import cv2
import numpy as np

from vision.recognizer import TableRecognizer
from vision.setup import learn_setup
from vision.synthetic.render import Renderer
from web_dashboard.rendered import demo_look
from web_dashboard.vision_bench import empty_view, random_view, setup_view, still_frames


def mjpg_like(image: np.ndarray) -> np.ndarray:
    """What OpenCV's MJPG writer and FFMPEG reader make of a frame: JPEG (4:2:0) near quality 80, colours shifted
    by about -2 blue, -0.2 green, -1.5 red (measured on the demo game's video)."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert ok
    shifted = cv2.imdecode(data, cv2.IMREAD_COLOR).astype(np.float32) + np.array([-2.0, -0.2, -1.5], np.float32)
    return np.clip(np.rint(shifted), 0, 255).astype(np.uint8)


def test_a_nudged_board_in_video_frames_is_evidence_again():
    renderer = Renderer(4, "colored", demo_look().with_size(1280, 720), 3)
    rng = np.random.default_rng(3)
    profile = learn_setup(renderer.calibration(), [mjpg_like(f) for f in still_frames(renderer, setup_view(4, rng), 1)],
                          empty=[mjpg_like(f) for f in still_frames(renderer, empty_view(4), 1)])
    view = random_view(4, rng)
    boards = renderer.home.boards
    renderer.move_boards((boards[0], boards[1].moved(5.0, 2.0, math.radians(1.2)), *boards[2:]))
    frame = mjpg_like(renderer.render(renderer.pieces(view), shake=False).image)
    rec = TableRecognizer(profile)
    for _ in range(3):  # the board is searched for once the scene has been still a couple of frames
        obs = rec.recognize(frame)
        rec._previous = None
    truth = renderer.board_corners()[1]
    assert np.abs(rec.boards[1].geometry.corners - truth).max() < 1.0
    # Without the slack across the margin, 18.8 % of the ring's points read changed at the new pose (15 % was
    # allowed): the board stayed 'covered' and its player's moves were never committed.
    assert not rec.boards[1].moved
    assert not obs["boards"][1]["occluded"], obs["boards"][1]["flags"]
