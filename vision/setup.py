"""Learning from the setup frame: the photograph taken when the game starts.

At setup the rules fix what is on the table without anyone saying it: every board is empty (score marker on 0),
every factory display holds exactly 4 tiles, and the centre holds only the first-player marker. From one such
frame the companion learns, into the profile's `learned` field:
- per board, its corners snapped onto the printed squares (calibration/grid.py: written corners are a few
  pixels off), then the empty-board reference patches and its margin (for occupancy and occlusion);
- per factory, the area one tile covers on its canonical grid (4 tiles' area / 4) and the ring of table round it;
- the centre's table colours and its ring;
- the colour model, re-fitted to the 20-36 factory tiles of this set under this light;
- each board's appearance, for following it when a player nudges it.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from calibration.colour_model import COLOURS, FIRST_PLAYER, TILE_CLASSES, ColourModel
from calibration.geometry import Lens
from calibration.grid import snap_corners
from calibration.profile import BoardCalibration, CalibrationProfile
from calibration.reference import BoardReference, encode_image
from vision.board_reader import BoardReader
from vision.counting import ring_mask
from vision.light import to_lab
from vision.localise import LEARNED_KEY, BoardLocaliser
from vision.recognizer import TableRecognizer

MAX_SAMPLES = 4000
# A frame with less fine detail (variance of its grey Laplacian) than this share of the sharpest frame's of the same
# still table was blurred by a bumped camera: left out of the average. The renderer's shake (3-9 px of motion blur
# at 720p) leaves 0.09-0.42 of a still frame's detail, sensor noise 0.9-1.0; recorded tuning game 750 was learned
# from a shaken setup frame (0.15), and every far board's empty wall then read 15-21 tiles.
SHAKEN_DETAIL = 0.6


class SetupError(ValueError):
    """The setup frame does not look like a table at setup (say so rather than learn nonsense)."""


def learn_setup(profile: CalibrationProfile, frame, empty=None) -> CalibrationProfile:
    """A copy of the profile with learned references, tile side and colour model from a setup frame.

    `frame` may be a list of frames of the still table at setup: their average is a reference with a fraction
    of one frame's sensor noise (a second of video is plenty). `empty`, optional (one frame or a list), is the
    table just before the first deal, displays and centre empty: what lies under the tiles, so that nothing
    there is ever taken for a tile.
    """
    frame = average_frames(frame, "setup")
    size = (frame.shape[1], frame.shape[0])
    profile = dataclasses.replace(profile, boards=snapped_boards(profile, frame))
    bare = CalibrationProfile(profile.boards, profile.factories, profile.center, profile.image_size or size,
                              profile.variant, profile.camera, {})
    rec = TableRecognizer(bare, size)
    rec.check_frame(frame)
    bare_grids = None
    if empty is not None:
        empty = average_frames(empty, "empty-table")
        if empty.shape != frame.shape:
            raise SetupError("the empty-table frames and the setup frames differ in size")
        bare_grids = rec.use_empty_table(empty, frame)

    boards = []
    for b in rec.boards:
        ref = BoardReference(b.main.sample(frame).copy(), b.score.sample(frame).copy())
        ring = b.ring.sample(frame)[0]
        washed = BoardReader(b.reader.spaces, ref.main, None, b.reader.patch).washed_at_setup
        boards.append({"reference": ref.to_json(), "ring": encode_image(ring), "washed": washed})

    # Colour model: at setup each display holds a 2x2 block of tiles over its middle, so a small circle round
    # the middle (0.3 radii) crosses only tiles; their colours, clustered, are this set under this light.
    model = ColourModel.from_json((profile.learned or {}).get("colour_model"))
    bank = rec.factories
    lab = to_lab(bank.sample(frame))
    pixels = lab[:, ring_mask(bank.size, 0.24, 0.36)].reshape(-1, 3)
    model = model.fitted(pixels[:: max(1, len(pixels) // MAX_SAMPLES)])
    # What lies under the tiles: the disc's card and print between the tile block and the rim, as clusters;
    # a cluster that looks like a tile colour is a tile corner, not card.
    disc = _clusters(lab[:, ring_mask(bank.size, 0.66, 0.84)].reshape(-1, 3), 5)
    if len(disc):
        dist = model.mahalanobis(disc, len(COLOURS)).min(axis=1)
        model.background = np.concatenate([model.background, disc[dist > 2.0]]).astype(np.float32)
    factories = [{"ring": encode_image(ring.sample(frame)[0])} for ring in rec.factory_rings]
    if bare_grids is not None:
        for info, grid, glare in zip(factories, bare_grids[0], bare_grids[2]):
            info["empty"] = encode_image(grid)
            info["glare"] = round(float(glare), 1)

    # The centre: the table's own colours (k-means), minus a small cream cluster that is the marker itself.
    _, lab = rec.centre.classify(frame, model, None)
    pixels = lab[rec.centre.inside].reshape(-1, 3)
    table, marker = _table_colours(pixels, model)
    if marker is not None:
        model.means[TILE_CLASSES.index(FIRST_PLAYER)] = marker
    centre = {
        "table_lab": np.round(table, 2).tolist(),
        "ring": encode_image(rec.centre_ring.sample(frame)[0]),
    }
    if bare_grids is not None:
        centre["empty"] = encode_image(bare_grids[1])
    learned = dict(profile.learned or {})
    learned["setup"] = {"boards": boards, "factories": factories, "center": centre}
    learned["colour_model"] = model.to_json()
    appearances = _board_appearances(bare, frame)
    if appearances is not None:
        learned[LEARNED_KEY] = appearances
    return CalibrationProfile(profile.boards, profile.factories, profile.center, profile.image_size or size,
                              profile.variant, profile.camera, learned)


def snapped_boards(profile: CalibrationProfile, frame: np.ndarray) -> list[BoardCalibration]:
    """The boards with their corners moved onto the printed grid the empty boards show at setup (a board whose
    printing cannot be found keeps the corners it was given)."""
    lens = Lens.from_model(profile.camera)
    boards = []
    for board in profile.boards:
        fit = snap_corners(frame, board.corners, board.effective_layout, lens)
        corners = tuple((round(float(x), 2), round(float(y), 2)) for x, y in fit.corners) if fit else board.corners
        boards.append(dataclasses.replace(board, corners=corners))
    return boards


def _board_appearances(profile: CalibrationProfile, frame: np.ndarray) -> list[dict] | None:
    """Each empty board's look, for following it when it is nudged (None: a board too plain to track, which
    then stays where the calibration put it)."""
    try:
        return BoardLocaliser(profile, frame).learned_appearances()
    except ValueError:
        return None


def average_frames(frames, what: str) -> np.ndarray:
    """One frame, or the average of a list of same-sized frames of a still table, shaken ones left out."""
    if not isinstance(frames, (list, tuple)):
        return frames
    if not frames:
        raise SetupError(f"no {what} frames")
    if len({f.shape for f in frames}) != 1:
        raise SetupError(f"the {what} frames differ in size")
    return np.mean(np.stack(unshaken(frames)).astype(np.float32), axis=0).round().astype(np.uint8)


def unshaken(frames: list[np.ndarray]) -> list[np.ndarray]:
    """The frames of a still table not blurred by a bumped camera: with at least SHAKEN_DETAIL of the sharpest
    one's fine detail."""
    detail = [_detail(f) for f in frames]
    return [f for f, d in zip(frames, detail) if d >= SHAKEN_DETAIL * max(detail)]


def _detail(frame: np.ndarray) -> float:
    """A frame's fine detail: the variance of its grey Laplacian (motion blur takes it away)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return float(cv2.Laplacian(grey, cv2.CV_32F).var())


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


def _clusters(pixels: np.ndarray, k: int) -> np.ndarray:
    data = pixels.astype(np.float32).reshape(-1, 3)
    if len(data) < k * 4:
        return np.zeros((0, 3), np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, centres = cv2.kmeans(data, k, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    share = np.bincount(labels.ravel(), minlength=k) / len(data)
    return centres[share > 0.03]
