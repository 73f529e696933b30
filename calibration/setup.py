"""Learning from the setup frame: the photograph taken when the game starts.

At setup the rules fix what is on the table without anyone saying it: every board is empty (score marker on 0),
every factory display holds exactly 4 tiles, and the centre holds only the first-player marker. From one such
frame the companion learns, into the profile's `learned` field:
- per board, the empty-board reference patches and its margin (for occupancy and occlusion);
- per factory, the area one tile covers on its canonical grid (4 tiles' area / 4) and the ring of table round it;
- the centre's table colours and its ring;
- the colour model, re-fitted to the 20-36 factory tiles of this set under this light.
"""

from __future__ import annotations

import numpy as np

from calibration.colour_model import COLOURS, FIRST_PLAYER, TILE_CLASSES, ColourModel
from calibration.profile import CalibrationProfile
from calibration.reference import encode_image

TILES_PER_FACTORY = 4
MAX_SAMPLES = 4000


class SetupError(ValueError):
    """The setup frame does not look like a table at setup (say so rather than learn nonsense)."""


def learn_setup(profile: CalibrationProfile, frame: np.ndarray) -> CalibrationProfile:
    """A copy of the profile with learned references, tile areas and colour model from a setup frame."""
    # The recogniser owns the sampling; imported here so that calibration's data modules stay free of vision.
    from vision.recognizer import TableRecognizer

    size = (frame.shape[1], frame.shape[0])
    bare = CalibrationProfile(profile.boards, profile.factories, profile.center, profile.image_size or size,
                              profile.variant, profile.camera, {})
    rec = TableRecognizer(bare, size)
    rec.check_frame(frame)

    boards = []
    for b in rec.boards:
        from calibration.reference import BoardReference

        ref = BoardReference(b.main.sample(frame).copy(), b.score.sample(frame).copy())
        ring = b.ring.sample(frame)[0]
        boards.append({"reference": ref.to_json(), "ring": encode_image(ring)})

    # Colour model: label factory pixels with the current model, refit to the tiles found, twice.
    model = ColourModel.from_json((profile.learned or {}).get("colour_model"))
    for _ in range(2):
        samples = []
        for counter in rec.factories:
            label, lab = counter.classify(frame, model, None)
            samples.append(lab[label >= 0][:, :3])
        pixels = np.concatenate(samples) if samples else np.zeros((0, 3), np.float32)
        if len(pixels) < 50:
            raise SetupError("no tiles found on the factory displays: is this a frame of the table at setup?")
        step = max(1, len(pixels) // MAX_SAMPLES)
        model = model.fitted(pixels[::step])

    factories = []
    for counter, ring in zip(rec.factories, rec.factory_rings):
        label, _ = counter.classify(frame, model, None)
        tiles = float(np.sum((label >= 0) & (label < len(COLOURS))))
        area = tiles / TILES_PER_FACTORY
        if area < 4:
            raise SetupError("a factory display shows almost no tiles: every display holds 4 tiles at setup")
        factories.append({"tile_area": round(area, 2), "ring": encode_image(ring.sample(frame)[0])})

    # The centre: the table's own colours (k-means), minus a small cream cluster that is the marker itself.
    _, lab = rec.centre.classify(frame, model, None)
    pixels = lab[rec.centre.inside].reshape(-1, 3)
    table, marker = _table_colours(pixels, model)
    if marker is not None:
        model.means[TILE_CLASSES.index(FIRST_PLAYER)] = marker
    centre = {
        "tile_area": round(float(np.mean([f["tile_area"] for f in factories])), 2),
        "table_lab": np.round(table, 2).tolist(),
        "ring": encode_image(rec.centre_ring.sample(frame)[0]),
    }
    learned = dict(profile.learned or {})
    learned["setup"] = {"boards": boards, "factories": factories, "center": centre}
    learned["colour_model"] = model.to_json()
    return CalibrationProfile(profile.boards, profile.factories, profile.center, profile.image_size or size,
                              profile.variant, profile.camera, learned)


def _table_colours(pixels: np.ndarray, model: ColourModel, k: int = 4) -> tuple[np.ndarray, np.ndarray | None]:
    """Cluster centres of the centre region at setup; a small cluster near the marker's colour is the marker."""
    import cv2

    data = pixels.astype(np.float32)
    if len(data) < k:
        return np.zeros((0, 3), np.float32), None
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, centres = cv2.kmeans(data, k, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    share = np.bincount(labels.ravel(), minlength=k) / len(data)
    mi = TILE_CLASSES.index(FIRST_PLAYER)
    d = np.sqrt(np.sum(((centres - model.means[mi]) / model.sigmas[mi]) ** 2, axis=1))
    keep = np.ones(k, bool)
    marker = None
    cand = np.flatnonzero((share < 0.15) & (d < 3.0))
    if len(cand):
        best = cand[np.argmin(d[cand])]
        keep[best] = False
        marker = centres[best]
    return centres[keep & (share > 0.01)], marker
