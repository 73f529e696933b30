"""Board tiles under the lamp's glare: its spot on the print and the sensor's clipping (seeds < 1000; the bench
measures on others)."""

import numpy as np

from calibration.colour_model import PRINT_LIT, TILE_CLASSES
from vision.board_reader import CLASS_BGR, _log_likelihood
from vision.light import to_lab
from web_dashboard.vision_bench import run_game

BLUE = TILE_CLASSES.index("blue")


def test_a_channel_the_sensor_clipped_does_not_hold_a_brighter_class_to_it():
    # A blue tile under the spot: its blue and green channels clipped (the rest of it is its own colour).
    seen = CLASS_BGR[BLUE].copy()
    seen[:2] = np.minimum(seen[:2], 120.0)
    seen = seen[None].astype(np.float32)
    as_seen = PRINT_LIT.log_likelihood(to_lab(np.clip(seen, 0, 255)))
    assert as_seen.argmax() != BLUE  # taken at face value it is another colour
    assert _log_likelihood(seen, np.array([[True, True, False]])).argmax() == BLUE
    # Unclipped channels are taken as they are.
    assert np.allclose(_log_likelihood(seen, np.zeros((1, 3), bool)), as_seen)


def test_pattern_lines_under_a_strong_lamp_spot_read_their_colours():
    # Tuning seed 595 (glare 0.63, the lamp's spot over one board clips its print at setup and the tiles on it):
    # over its first 4 frames 5 blue tiles on that board's pattern lines read white before clipped channels
    # counted as lower bounds, none after.
    score, _ = run_game(595, 4, 4, size=None)
    assert [e for e in score.errors if e[0] == "board" and e[2] == "line"] == []
