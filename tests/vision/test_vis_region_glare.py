"""A reflection over a factory display: its counts are unknown, so it is flagged, never confident."""

import cv2
import numpy as np

from vision.recognizer import TableRecognizer


def test_a_glare_spot_on_a_display_flags_it_and_only_it(plain_table):
    rec = TableRecognizer(plain_table.profile)
    view, frame = plain_table.frame(salt=3)
    image = frame.image.copy()
    f = plain_table.profile.factories[4]
    cv2.circle(image, (int(f.center[0]), int(f.center[1])), int(f.radius * 0.45), (255, 255, 255), -1)
    obs = rec.recognize(image)
    spot = obs["factories"][4]
    assert spot["occluded"] and spot["confidence"] <= 0.5
    assert obs["details"]["factories"][4]["glare"] > 0.1
    assert not any(o["occluded"] for j, o in enumerate(obs["factories"]) if j != 4)
    rec._previous = None
    clean = rec.recognize(frame.image)
    assert not clean["factories"][4]["occluded"] and clean["details"]["factories"][4]["glare"] < 0.01
    assert np.isfinite(clean["factories"][4]["confidence"])


def test_a_change_no_tile_explains_makes_a_display_unsure(plain_table):
    rec = TableRecognizer(plain_table.profile)
    board = {"pattern_lines": [[] for _ in range(5)], "wall": [[None] * 5 for _ in range(5)], "floor": [],
             "score_marker": 0}
    view = {"boards": [board] * 4, "factories": [{"red": 2}, {}, {}, {"blue": 1}, {}, {}, {}, {}, {}],
            "center": {"first_player": False}, "first_player": False}
    _, frame = plain_table.frame(view)
    image = frame.image.copy()
    f = plain_table.profile.factories[2]
    # Something green on the display, inside its rim (a bottle cap): not a tile, not the bare display either.
    cv2.ellipse(image, (int(f.center[0]), int(f.center[1] + f.radius * 0.3)),
                (int(f.radius * 0.35), int(f.radius * 0.25)), 0, 0, 360, (40, 150, 40), -1)
    touched = rec.read(image).factories[2]
    rec._previous = None
    clean = rec.read(frame.image).factories[2]
    assert touched.unexplained > 0.05 > clean.unexplained
    assert touched.confidence < 0.5 < clean.confidence
