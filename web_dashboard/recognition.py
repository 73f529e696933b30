"""The seam between the camera loop and vision's recogniser.

The camera loop needs a callable `frame, timestamp -> observation dict` (DESIGN.md's observation JSON). Vision's
recogniser is being written in parallel; until it exists (or without a calibration) there is no recogniser and
the dashboard says so: the camera view still works and moves are entered by hand.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import numpy as np

Recognizer = Callable[[np.ndarray, float], dict]

# Where vision is expected to provide `make_recognizer(profile) -> (frame, timestamp) -> observation`.
RECOGNIZER_MODULE = "vision.recognizer"


def load_recognizer(profile) -> tuple[Recognizer | None, str]:
    """(recogniser, label for the UI). The recogniser only ever sees camera frames and the calibration."""
    if profile is None:
        return None, "off: no calibration yet (open /calibrate)"
    try:
        module = importlib.import_module(RECOGNIZER_MODULE)
    except ImportError:
        return None, "off: vision's recogniser is not installed in this build; enter moves on /setup"
    factory = getattr(module, "make_recognizer", None)
    if factory is None:
        return None, f"off: {RECOGNIZER_MODULE} has no make_recognizer(profile)"
    return factory(profile), f"on ({RECOGNIZER_MODULE})"
