"""One player board: patches -> occupancy -> colour, with probabilities.

Occupancy is a change against the empty-board reference captured at setup: per pixel colour difference in L*a*b*
after the light is normalised on the board's own print. A tile changes its space by more than its colour: bevel
highlights, side faces, a shadow, a small offset, so even a tile on its own printed colour (colored wall) shows.
Colour is decided only where the rules leave a choice: pattern lines (one colour per line, so the slots vote)
and the floor (5 colours or the first-player marker). Wall spaces are occupied-or-not.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.colour_model import COLOURS, TILE_CLASSES, ColourModel
from calibration.geometry import FLOOR, GROUND, PATTERN, WALL, Space
from vision.light import light_gain, to_lab

# Change detection, in L*a*b* units and fractions of a patch (tuned on training renders, see vision/bench.py).
CHANGE_DELTA_E = 13.0  # a pixel has changed when it moved this far from the reference
OCCUPIED_FRACTION = 0.22  # the changed share of a patch at which a space is as likely occupied as not
OCCUPIED_SOFTNESS = 0.04
GROUND_OCCLUDED_DELTA_E = 12.0  # median change of a never-covered ground patch that means "something is over it"
SCORE_DARKENING = 22.0  # L* drop of a score space under the black cube
N_COLOURS = len(COLOURS)
MARKER_INDEX = TILE_CLASSES.index("first_player")


@dataclass
class BoardReading:
    occluded: bool
    out_of_view: bool
    confidence: float
    occupancy: np.ndarray  # (57,) p(occupied) per main space (ground included, where it means "covered")
    colour_probs: np.ndarray  # (57, 6) p(class | occupied) per main space
    pattern: list[list[dict[str, float]]]  # per line, per slot (rightmost first): {name or "empty": p}
    floor: list[dict[str, float]]
    wall: list[list[float]]  # p(occupied)
    score_marker: int | None
    score_confidence: float
    ground_change: np.ndarray  # (G,) median delta E of the ground patches
    centre_lab: np.ndarray  # (57, 3) median Lab of each space's middle (for colour-model adaptation)


class BoardReader:
    """Reads one board from its sampled patches; holds the per-calibration constants (reference in Lab)."""

    def __init__(self, spaces: list[Space], reference_main: np.ndarray | None, reference_score: np.ndarray | None,
                 patch: int) -> None:
        self.spaces = spaces
        self.kind = np.array([s.kind for s in spaces])
        self.ground = np.flatnonzero(self.kind == GROUND)
        self.pattern_index = {s.index: i for i, s in enumerate(spaces) if s.kind == PATTERN}
        self.wall_index = {s.index: i for i, s in enumerate(spaces) if s.kind == WALL}
        self.floor_index = [i for i, s in enumerate(spaces) if s.kind == FLOOR]
        self.patch = patch
        lo, hi = int(round(patch * 0.3)), int(round(patch * 0.7))
        self.middle = (slice(lo, hi), slice(lo, hi))  # the middle of the printed space (patches reach past it)
        self.reference_bgr = reference_main
        if reference_main is not None:
            self.ref_ground = np.median(reference_main[self.ground].reshape(-1, 3).astype(np.float32), axis=0)
            self.ref_lab = to_lab(_smooth(reference_main))
        else:
            self.ref_ground = None
            self.ref_lab = None
        if reference_score is not None:
            lab = to_lab(reference_score)[..., 0].reshape(len(reference_score), -1)
            base = np.median(lab, axis=1)
            # At setup the cube sits on "0": take that space's baseline from the rest of the (cream) track.
            base[0] = np.percentile(base[1:], 75)
            self.score_base = base
        else:
            self.score_base = None

    @property
    def has_reference(self) -> bool:
        return self.ref_lab is not None

    def read(self, main: np.ndarray, score: np.ndarray, model: ColourModel, outside: float) -> BoardReading:
        n = len(self.spaces)
        gain = None
        if self.ref_ground is not None:
            gain = light_gain(np.median(main[self.ground].reshape(-1, 3).astype(np.float32), axis=0), self.ref_ground)
        lab = to_lab(_smooth(main), gain)
        mid = lab[:, self.middle[0], self.middle[1]].reshape(n, -1, 3)
        centre_lab = np.median(mid, axis=1)

        if self.ref_lab is not None:
            diff = np.sqrt(np.sum((lab - self.ref_lab) ** 2, axis=-1)).reshape(n, -1)
            changed = (diff > CHANGE_DELTA_E).mean(axis=1)
            occupancy = _sigmoid((changed - OCCUPIED_FRACTION) / OCCUPIED_SOFTNESS)
            ground_change = np.median(diff[self.ground], axis=1)
        else:
            # No reference: cream spaces are told by colour (a tile is far from the board's cream); wall spaces
            # cannot be told at all on the colored side, so they stay undecided (0.5) and say so.
            cream = _cream_estimate(centre_lab, self.kind)
            dist = np.sqrt(np.sum((centre_lab - cream) ** 2, axis=1))
            occupancy = _sigmoid((dist - 18.0) / 4.0)
            occupancy[self.kind == WALL] = 0.5
            ground_change = np.zeros(len(self.ground), np.float32)

        colour_probs = model.probabilities(centre_lab)
        covered = bool(np.any(ground_change > GROUND_OCCLUDED_DELTA_E))
        out_of_view = outside > 0.02
        occluded = covered or out_of_view

        pattern = self._pattern(occupancy, colour_probs)
        floor = [self._slot(occupancy[i], colour_probs[i], allow_marker=True) for i in self.floor_index]
        wall = [[float(occupancy[self.wall_index[(r, c)]]) for c in range(5)] for r in range(5)]
        marker, marker_conf = self._score(score, gain)

        # Confidence of the board: the least certain decision it contains.
        decided = [occupancy[i] for i in range(n) if self.kind[i] in (PATTERN, WALL, FLOOR)]
        occ_conf = float(np.min(np.maximum(decided, 1 - np.asarray(decided)))) if decided else 0.0
        confidence = 0.3 if occluded else occ_conf
        if not self.has_reference:
            confidence = min(confidence, 0.5)
        return BoardReading(occluded, out_of_view, confidence, occupancy, colour_probs, pattern, floor, wall,
                            marker, marker_conf, ground_change, centre_lab)

    # ---- pieces of the reading --------------------------------------------------------------------------
    @staticmethod
    def _slot(p_occ: float, probs: np.ndarray, allow_marker: bool) -> dict[str, float]:
        classes = TILE_CLASSES if allow_marker else COLOURS
        p = probs[: len(classes)]
        p = p / max(p.sum(), 1e-9)
        out = {name: float(p_occ * v) for name, v in zip(classes, p)}
        out["empty"] = float(1 - p_occ)
        return out

    def _pattern(self, occupancy: np.ndarray, colour_probs: np.ndarray) -> list[list[dict[str, float]]]:
        lines = []
        for r in range(5):
            idx = [self.pattern_index[(r, j)] for j in range(r + 1)]
            occ = occupancy[idx]
            probs = colour_probs[idx, :N_COLOURS] + 1e-6
            probs /= probs.sum(axis=1, keepdims=True)
            # A line holds one colour: the occupied slots vote (sum of log-probabilities, weighted by occupancy).
            vote = np.exp(np.sum(occ[:, None] * np.log(probs), axis=0))
            vote /= vote.sum()
            slots = []
            for k in range(len(idx)):
                own = probs[k]
                # Keep a slot's own reading when it clearly disagrees with the line: that is an illegal
                # placement the tracker must see, not noise to vote away.
                mixed = own if own.max() > 0.995 and own.argmax() != vote.argmax() else vote
                slot = {name: float(occ[k] * v) for name, v in zip(COLOURS, mixed)}
                slot["empty"] = float(1 - occ[k])
                slots.append(slot)
            lines.append(slots)
        return lines

    def _score(self, score: np.ndarray, gain: np.ndarray | None) -> tuple[int | None, float]:
        lum = to_lab(score, gain)[..., 0].reshape(len(score), -1)
        med = np.median(lum, axis=1)
        base = self.score_base if self.score_base is not None else np.full(len(med), np.percentile(med, 75))
        dark = base - med
        order = np.argsort(dark)
        best, second = dark[order[-1]], dark[order[-2]]
        if best < SCORE_DARKENING:
            return None, 0.0
        conf = float(_sigmoid((best - SCORE_DARKENING) / 4.0) * _sigmoid((best - second - 10.0) / 3.0))
        return int(order[-1]), conf


def _smooth(patches: np.ndarray) -> np.ndarray:
    """A 3x3 box blur of every patch (stacked as one strip): sensor noise and JPEG blocks off the pixel diffs."""
    n, p = patches.shape[:2]
    strip = patches.reshape(n * p, p, -1)
    return cv2.blur(strip, (3, 3)).reshape(patches.shape)


def _cream_estimate(centre_lab: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """The board's cream print without a reference: the lightest, least saturated pattern/floor spaces."""
    cand = centre_lab[(kind == PATTERN) | (kind == FLOOR)]
    score = cand[:, 0] - np.hypot(cand[:, 1], cand[:, 2])
    top = cand[np.argsort(score)[-max(3, len(cand) // 3):]]
    return np.median(top, axis=0)


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))
