"""The colour model: what each kind of tile looks like, in CIE L*a*b*, under the light of the setup photograph.

It starts from the measurements of a real set (BOARD-GEOMETRY.md), is re-learned from the set in front of the
camera at setup (the factory displays then hold 4 tiles each: 20-36 tiles of known count, unknown colour). It is
not changed during the game: frames are brought to the setup light by the board's own print (see vision/light.py),
so the model never has to follow the lamp, and a model fitted pixel by pixel to the very tiles of a rendered set
read no more regions right than this one (0.859 against 0.894), so colours learned further in play would not
remove the errors that remain.

Stored in the calibration profile under learned["colour_model"]; the factory displays and the centre use it.
Tiles on a player board are classified by PRINT_LIT instead: in the light of the board's own print they look the
same under every lamp, so that model is fixed and nothing at setup has to name the colours right.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

COLOURS = ("blue", "yellow", "red", "black", "white")
FIRST_PLAYER = "first_player"
TILE_CLASSES = COLOURS + (FIRST_PLAYER,)

# Tiles as measured on a real photograph (BOARD-GEOMETRY.md); the marker is a cream tile with a dark "1".
DEFAULT_MEANS = {
    "blue": (46.0, 2.0, -46.0),
    "yellow": (63.0, 34.0, 31.0),
    "red": (49.0, 47.0, 25.0),
    "black": (20.0, -1.0, -8.0),
    "white": (60.0, -10.0, -17.0),
    FIRST_PLAYER: (84.0, 3.0, 9.0),
}
# How far a tile's median strays from its colour's mean (lighting across the table, motifs, gloss), per L*a*b*.
DEFAULT_SIGMA = (7.0, 6.0, 6.0)
MAX_CLUSTER_MOVE = 16.0  # how far (L*a*b*) a colour may move from the defaults beyond the common cast
# Things in a factory display or the centre that are not tiles: the disc's cream card, blue rosette, orange rim.
DEFAULT_BACKGROUND = ((84.0, 3.0, 10.0), (53.0, 2.0, -26.0), (62.0, 32.0, 58.0))


# The board's cream print as measured (BOARD-GEOMETRY.md): a board's tiles are classified in the light that makes
# its own empty print look like this (vision/light.py), so one model serves every lamp and every place on the table.
PRINT_CREAM = {"pattern": (83.0, 4.0, 6.0), "floor": (87.0, 1.0, 1.0)}


class PrintLitModel:
    """Tile classes in print-referenced L*a*b*: one Gaussian per class with a full covariance (a tile's colour
    varies along its own directions: a motif, gloss, a paler or bolder printing of the set)."""

    def __init__(self, means, covariances) -> None:
        self.means = np.asarray(means, np.float32)  # (6, 3) TILE_CLASSES order
        cov = np.asarray(covariances, np.float64)  # (6, 3, 3)
        # z @ whiten has unit covariance: the Mahalanobis distance is a plain sum of squares.
        self.whiten = np.linalg.cholesky(np.linalg.inv(cov)).astype(np.float32)
        self.log_norm = (-0.5 * np.log(np.linalg.det(cov))).astype(np.float32)

    def log_likelihood(self, lab: np.ndarray) -> np.ndarray:
        """(N, 3) -> (N, 6) Gaussian log-likelihoods."""
        z = np.asarray(lab, np.float32).reshape(1, -1, 3) - self.means[:, None]  # (6, N, 3)
        w = np.matmul(z, self.whiten)
        return (self.log_norm[:, None] - 0.5 * np.sum(w * w, axis=2)).T

    def probabilities(self, lab: np.ndarray) -> np.ndarray:
        """(N, 3) -> (N, 6) posterior over tile classes with a flat prior."""
        ll = self.log_likelihood(lab)
        ll -= ll.max(axis=1, keepdims=True)
        p = np.exp(ll)
        return p / p.sum(axis=1, keepdims=True)


# Fitted on training renders (medians and covariances of the board tiles of seeds 0-100, every look of the
# renderer; the bench uses seeds from 10000). The means are within a few units of the real set's (DEFAULT_MEANS) but
# for black, whose teal rosette lifts its median.
PRINT_LIT = PrintLitModel(
    [[50.3, 2.2, -43.4], [67.2, 25.3, 39.6], [52.8, 44.7, 24.0], [31.7, -7.1, -8.8], [60.0, -7.0, -18.7],
     [76.6, 2.1, 3.2]],
    [[[31.7, -0.8, -25.9], [-0.8, 10.1, -15.4], [-25.9, -15.4, 64.9]],
     [[27.9, 7.0, 15.9], [7.0, 34.4, 30.3], [15.9, 30.3, 42.9]],
     [[28.1, 23.6, 11.9], [23.6, 55.8, 34.1], [11.9, 34.1, 28.6]],
     [[59.7, -18.0, -8.8], [-18.0, 13.3, 4.1], [-8.8, 4.1, 9.7]],
     [[20.1, -1.4, -4.4], [-1.4, 3.3, -1.2], [-4.4, -1.2, 23.2]],
     [[35.1, -3.4, 2.7], [-3.4, 4.7, 1.3], [2.7, 1.3, 9.5]]],
)


@dataclass
class ColourModel:
    means: np.ndarray  # (6, 3) Lab per tile class (TILE_CLASSES order)
    sigmas: np.ndarray  # (6, 3)
    background: np.ndarray  # (K, 3) Lab of non-tile things inside factories and the centre
    learned_from: int = 0  # how many tiles the means were fitted to (0: the defaults)
    extra: dict = field(default_factory=dict)

    @staticmethod
    def default() -> ColourModel:
        return ColourModel(
            np.array([DEFAULT_MEANS[c] for c in TILE_CLASSES], np.float32),
            np.tile(np.array(DEFAULT_SIGMA, np.float32), (len(TILE_CLASSES), 1)),
            np.array(DEFAULT_BACKGROUND, np.float32),
        )

    # ---- classification ---------------------------------------------------------------------------------
    def log_likelihood(self, lab: np.ndarray, classes: int = len(TILE_CLASSES)) -> np.ndarray:
        """(N, 3) Lab -> (N, classes) Gaussian log-likelihoods (diagonal covariance)."""
        lab = np.asarray(lab, np.float32).reshape(-1, 1, 3)
        z = (lab - self.means[None, :classes]) / self.sigmas[None, :classes]
        return -0.5 * np.sum(z * z, axis=2) - np.sum(np.log(self.sigmas[:classes]), axis=1)[None]

    def probabilities(self, lab: np.ndarray, classes: int = len(TILE_CLASSES)) -> np.ndarray:
        """(N, 3) Lab -> (N, classes) posterior over tile classes with a flat prior."""
        ll = self.log_likelihood(lab, classes)
        ll -= ll.max(axis=1, keepdims=True)
        p = np.exp(ll)
        return p / p.sum(axis=1, keepdims=True)

    def mahalanobis(self, lab: np.ndarray, classes: int = len(TILE_CLASSES)) -> np.ndarray:
        """(N, 3) -> (N, classes) distances in sigmas: how tile-like a colour is at all."""
        lab = np.asarray(lab, np.float32).reshape(-1, 1, 3)
        z = (lab - self.means[None, :classes]) / self.sigmas[None, :classes]
        return np.sqrt(np.sum(z * z, axis=2))

    # ---- learning ---------------------------------------------------------------------------------------
    def fitted(self, samples: np.ndarray) -> ColourModel:
        """A model re-learned from unlabelled tile colours (N, 3) of the set in front of the camera.

        The 5 colours are found as 5 clusters started at the current means (k-means), so each cluster keeps
        the name of the colour it started nearest to; a cluster that gets too few members keeps its old mean.
        The marker and the background are moved by the mean shift of the colours (the light's cast).
        """
        samples = np.asarray(samples, np.float32).reshape(-1, 3)
        if len(samples) < 5:
            return self
        k = len(COLOURS)
        means = self.means[:k].copy()
        scale = self.sigmas[:k].mean(axis=0)
        for _ in range(12):
            d = np.sum(((samples[:, None] - means[None]) / scale) ** 2, axis=2)
            label = d.argmin(axis=1)
            new = means.copy()
            for c in range(k):
                members = samples[label == c]
                if len(members) >= 2:
                    new[c] = np.median(members, axis=0)
            if np.allclose(new, means, atol=0.05):
                break
            means = new
        counts = np.bincount(label, minlength=k)
        enough = counts >= max(8, len(samples) // 40)
        moved = means - self.means[:k]
        shift = np.median(moved[enough], axis=0) if enough.any() else np.zeros(3, np.float32)
        sigmas = self.sigmas.copy()
        default = np.array(DEFAULT_SIGMA, np.float32)
        for c in range(k):
            # A colour with few tiles at setup, or whose cluster wandered off (it caught gaps, shadows), keeps
            # its old mean moved by the light's cast seen on the others.
            if not enough[c] or np.linalg.norm(moved[c] - shift) > MAX_CLUSTER_MOVE:
                means[c] = self.means[c] + shift
                continue
            members = samples[label == c]
            spread = 1.4826 * np.median(np.abs(members - means[c]), axis=0)  # robust sigma
            sigmas[c] = np.clip(spread * 2.0, default * 0.6, default * 1.6)
        all_means = self.means.copy()
        all_means[:k] = means
        all_means[k:] += shift
        return ColourModel(all_means, sigmas, self.background + shift, len(samples), dict(self.extra))

    # ---- storage ----------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "classes": list(TILE_CLASSES),
            "means": np.round(self.means, 2).tolist(),
            "sigmas": np.round(self.sigmas, 2).tolist(),
            "background": np.round(self.background, 2).tolist(),
            "learned_from": int(self.learned_from),
        }

    @staticmethod
    def from_json(data: dict | None) -> ColourModel:
        if not data:
            return ColourModel.default()
        try:
            means = np.array(data["means"], np.float32).reshape(len(TILE_CLASSES), 3)
            sigmas = np.array(data["sigmas"], np.float32).reshape(len(TILE_CLASSES), 3)
            background = np.array(data.get("background", DEFAULT_BACKGROUND), np.float32).reshape(-1, 3)
        except (KeyError, ValueError, TypeError) as err:
            raise ValueError(f"learned.colour_model is malformed ({err})") from None
        if np.any(sigmas <= 0):
            raise ValueError("learned.colour_model.sigmas must be positive")
        return ColourModel(means, sigmas, background, int(data.get("learned_from", 0)))
