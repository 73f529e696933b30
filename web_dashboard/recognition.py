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

RECOGNIZER_MODULE = "vision.recognizer"


def load_recognizer(profile) -> tuple[Recognizer | None, str]:
    """(recogniser, label for the UI). The recogniser only ever sees camera frames and the calibration."""
    if profile is None:
        return None, "off: no calibration yet (open /calibrate)"
    try:
        module = importlib.import_module(RECOGNIZER_MODULE)
    except ImportError as err:
        return None, f"off: vision's recogniser cannot be loaded ({err}); enter moves on /setup"
    try:
        recognizer = module.TableRecognizer(profile)
    except (ValueError, KeyError, TypeError) as err:
        # FrameError (a ValueError) and friends: the profile lacks something vision needs (image size, model).
        return None, f"off: the calibration cannot drive recognition yet ({err})"
    return recognizer.recognize, "on (vision.recognizer.TableRecognizer)"
