"""Markerless board tracking: learn each board's look at calibration, notice a nudge cheaply, find it again.

At setup each board is rectified once (its print plus a margin of table, grey levels): the *template*. From it
come a few hundred sample points where no piece ever lies and the grey level changes fast — mostly the board's
own outline — with their reference values and gradients, and ORB features of the print.

Per frame (`BoardTracker.update`) only those points are read at the current pose: one gather and a dot product,
about 0.1 ms a board at 720p. If they agree with the reference the board is where it was. If they disagree,
something is over the board or it moved; a search runs only when two opposite sides of the outline disagree (an
arm crosses a side only in part) and the points have matched the previous frame two frames running (the scene
is still: no hand moving). The search: Gauss-Newton on the points for a rigid motion on the table, from the
current pose and from ORB matches of the print within a short step of it; the fit where more points agree wins. A pose is accepted only when most points agree with the reference there;
otherwise (a hand resting on the board, a cup) the last good pose stays, and the same scene is not searched
again. Points that mostly agree but not surely (a nudge of a few millimetres) get the same search once a still
scene, its pose taken only if it agrees surely and clearly better. A found pose is aligned again in the next few
still frames (`confirm`): one found in a frame a bumped camera blurred gives way to a sharper frame's.

A nudged board moves rigidly on the table, so its new pose is the calibrated board homography composed with a
rotation and translation in board coordinates: three parameters, fitted to sub-pixel precision. Searching only a
short step from the current pose means another board's identical print is never taken for this one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.geometry import UNIT_SQUARE, BoardGeometry, Lens
from calibration.profile import DEFAULT_LAYOUT, BoardLayout
from calibration.reference import decode_image, encode_image

MARGIN = 0.1  # the template covers board fractions [-MARGIN, 1 + MARGIN]
OUTSIDE = 0.012  # sample points may lie this far outside the board: its edge profile moves with it, the table not
CLEARANCE = 0.03  # kept clear round every space a piece can take (tiles lean, stand tall and cast shadows)
POINTS = 160  # edge points per board (each read with its two sides)
SIDE_STEP = 1.5  # template pixels from an edge point to its sides
MIN_POINTS = 40  # with fewer edge points learned, or sample points in view, a board cannot be tracked
MIN_GRADIENT = 10.0  # grey levels per template pixel (about an image pixel): a point that shows a 1 px move
AGREE_LEVELS = 18.0  # a sample agrees with another reading within this many grey levels (after a gain fit)
STEADY = 0.8  # share of agreeing samples: the board is where we think
STILL = 0.8  # share of samples unchanged since the previous frame: the scene is still
EDGE_BAND = 0.03  # sample points this close to a side of the board belong to that side
SEGMENTS = 4  # each side in this many stretches: a move shows along whole sides, an arm on one stretch
SEGMENT_HIT = 0.25  # share of a stretch's samples that disagree when the outline moved across it
STILL_FRAMES = 2  # frames in a row that must match their predecessor before a search (a hand rarely stays)
SUBPIXEL = 0.5  # pixels of misalignment a sample's tolerance allows for (steep edges read differently)
CHANGED_LEVELS = 30.0  # a sample changed (not just noise) by more than this many grey levels
CHANGED = 0.05  # share of changed samples: the scene is not the one last searched
ACCEPT = 0.8  # share of samples agreeing at a new pose to accept it (a wrong pose reaches ~0.78)
SURE = 0.9  # ... for a pose found by a search to be taken, and for nothing to be over the board (confirm)
# A board nudged a few millimetres can still agree with its old pose over STEADY (tuning seed 0, 720p: slid 6 mm
# and turned 1 degree, 0.86), so it was never searched for and its margin ring read covered for good. Between
# STEADY and SURE a still scene is searched once; a pose agreeing at least SURE and this much more than the
# current one is taken.
REFINE_GAIN = 0.05
# ... and a board whose points agree surely may still lie a few pixels off (recorded tuning game 803, 3 players: a
# board 156 px wide slid 4.5 mm and turned 1 degree by the hand laying tiles, 4.6 px off at the old pose, its points
# agreed 0.95-0.98 there, its margin ring changed nowhere; its empty black wall spaces read as tiles for the rest
# of the game, which stalled at move 56 of 70). Below CHECK a still scene is searched once too, and a pose is taken
# that agrees surely and leaves at most REFINE_SHARE of the disagreement at the current one (re-rendered, the
# search took a pose agreeing 1.0, 0.2 px from the truth).
CHECK = 0.98
REFINE_SHARE = 0.5
MAX_STEP = 0.12  # the largest move looked for between two accepted poses, board widths
MAX_TURN = math.radians(10)
GN_ITERATIONS = 12
GN_DONE_PX = 0.05  # a Gauss-Newton step this small (pixels) ends the alignment
# A pose found in a frame a bumped camera blurred lies up to a pixel off, and its points still agree surely in the
# sharp frames after, so it stays (recorded tuning game 738, board 2: searched on a shaken frame, 0.75 px off, the
# small far board's wall read 3-4 phantom tiles). The still frames after a search, this many, are aligned again
# from the pose; a fit where the outline reads sharper than in the frame the pose was found in is taken (at its
# fit a shaken frame's outline reads 0.55-0.81 of the template's contrast, a sharp one's 0.88-0.94).
CONFIRM_FRAMES = 4


def _gray(frame: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame


def _rigid(turn: float, tx: float, ty: float) -> np.ndarray:
    """A rotation about the board's middle and a translation, in board fractions (3x3)."""
    c, s = math.cos(turn), math.sin(turn)
    return np.array([[c, -s, 0.5 - 0.5 * c + 0.5 * s + tx], [s, c, 0.5 - 0.5 * s - 0.5 * c + ty], [0, 0, 1]])


def _apply(m: np.ndarray, uv: np.ndarray) -> np.ndarray:
    return uv @ m[:2, :2].T + m[:2, 2]


def _template_grid(size: int) -> np.ndarray:
    """Board fractions of the template's pixel centres, (size, size, 2)."""
    t = (np.arange(size) + 0.5) / size * (1 + 2 * MARGIN) - MARGIN
    u, v = np.meshgrid(t, t)
    return np.stack([u, v], -1)


def _to_pixels(uv: np.ndarray, size: int) -> np.ndarray:
    return (uv + MARGIN) / (1 + 2 * MARGIN) * size - 0.5


@dataclass
class Probe:
    """Bilinear reads of a few points of BGR frames of one size, precomputed: one gather and one dot a frame."""

    index: np.ndarray  # (N, 12) flat indices into the frame: 4 neighbours x 3 channels
    weights: np.ndarray  # (N, 12) bilinear weight x the channel's share of grey
    inside: np.ndarray  # (N,) the point lies in the frame

    @staticmethod
    def at(xy: np.ndarray, shape: tuple[int, ...]) -> Probe:
        h, w = shape[:2]
        x, y = xy[:, 0], xy[:, 1]
        inside = (x >= 0) & (y >= 0) & (x < w - 1) & (y < h - 1)
        x0 = np.clip(np.floor(x), 0, w - 2).astype(np.intp)
        y0 = np.clip(np.floor(y), 0, h - 2).astype(np.intp)
        fx = np.clip(x - x0, 0, 1)
        fy = np.clip(y - y0, 0, 1)
        corners = np.stack([y0 * w + x0, y0 * w + x0 + 1, (y0 + 1) * w + x0, (y0 + 1) * w + x0 + 1], 1)
        bilinear = np.stack([(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy], 1)
        grey = np.array([0.114, 0.587, 0.299])  # cv2's BGR -> grey
        index = (corners[:, :, None] * 3 + np.arange(3)).reshape(-1, 12)
        weights = (bilinear[:, :, None] * grey).reshape(-1, 12) * inside[:, None]
        return Probe(index, weights.astype(np.float32), inside)

    def read(self, frame: np.ndarray) -> np.ndarray:
        return np.einsum("nk,nk->n", frame.reshape(-1)[self.index], self.weights)


def sample(frame: np.ndarray, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bilinear grey levels of a BGR (or grey) frame at (N, 2) pixel positions, and which lie inside it."""
    h, w = frame.shape[:2]
    x, y = xy[:, 0], xy[:, 1]
    inside = (x >= 0) & (y >= 0) & (x < w - 1) & (y < h - 1)
    x0 = np.clip(np.floor(x), 0, w - 2).astype(np.intp)
    y0 = np.clip(np.floor(y), 0, h - 2).astype(np.intp)
    fx = np.clip(x - x0, 0, 1).astype(np.float32)
    fy = np.clip(y - y0, 0, 1).astype(np.float32)
    ys = np.stack([y0, y0, y0 + 1, y0 + 1], 1)
    xs = np.stack([x0, x0 + 1, x0, x0 + 1], 1)
    weights = np.stack([(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy], 1)
    pixels = frame[ys, xs].astype(np.float32)
    if frame.ndim == 3:  # the same weights as cv2's BGR -> grey
        pixels = pixels @ np.array([0.114, 0.587, 0.299], np.float32)
    return np.einsum("nk,nk->n", pixels, weights), inside


def _piece_free(size: int, layout: BoardLayout) -> np.ndarray:
    """Template pixels where a sample may go: on the board or just outside its edge, clear of every space a
    piece can take and of the spot in front where the first-player marker waits."""
    grid = _template_grid(size)
    u, v = grid[..., 0], grid[..., 1]
    free = (u > -OUTSIDE) & (u < 1 + OUTSIDE) & (v > -OUTSIDE) & (v < 1 + OUTSIDE)
    spaces = [(*layout.pattern_line(r, j), layout.space) for r in range(5) for j in range(r + 1)]
    spaces += [(*layout.wall(r, c), layout.space) for r in range(5) for c in range(5)]
    spaces += [(*layout.floor(i), layout.floor_space) for i in range(7)]
    spaces += [(*layout.score(s), layout.score_space) for s in range(101)]
    spaces.append((0.93, 1.07, 0.2))
    for cu, cv, side in spaces:
        half = side / 2 + CLEARANCE
        free &= ~((np.abs(u - cu) < half) & (np.abs(v - cv) < half))
    return free


@dataclass
class BoardAppearance:
    """What a board looks like, learned once: the template and what is derived from it."""

    template: np.ndarray  # (S, S) uint8 grey, the board over [-MARGIN, 1 + MARGIN] in both directions
    points: np.ndarray  # (N, 2) sample points, board fractions
    values: np.ndarray  # (N,) their template grey levels
    gradients: np.ndarray  # (N, 2) d(grey)/du, d(grey)/dv
    keypoints: np.ndarray  # (K, 2) ORB keypoints of the print, template pixels
    descriptors: np.ndarray  # (K, 32) their descriptors
    stretches: np.ndarray = field(init=False)  # (N,) side (top, right, bottom, left) x SEGMENTS + stretch; -1 inside

    def __post_init__(self) -> None:
        u, v = self.points[:, 0], self.points[:, 1]
        distance = np.abs(np.column_stack([v, 1 - u, 1 - v, u]))
        side = distance.argmin(axis=1)
        along = np.where(side % 2 == 0, u, v)
        stretch = np.clip((along * SEGMENTS).astype(int), 0, SEGMENTS - 1)
        self.stretches = np.where(distance.min(axis=1) < EDGE_BAND, side * SEGMENTS + stretch, -1)

    def to_json(self) -> dict:
        """For the profile's learned data: the template (a small PNG); the rest is re-derived on loading."""
        return {"template": encode_image(self.template)}

    @staticmethod
    def from_json(data: dict, layout: BoardLayout = DEFAULT_LAYOUT) -> BoardAppearance:
        return appearance_of(_gray(decode_image(data["template"])), layout)


def learn_appearance(frame: np.ndarray, corners, layout: BoardLayout = DEFAULT_LAYOUT,
                     lens: Lens | None = None) -> BoardAppearance:
    """The board's appearance from a frame with the board at `corners` and nothing over it."""
    geometry = BoardGeometry(corners, lens)
    size = int(np.clip(round(geometry.pixels_per_unit() * (1 + 2 * MARGIN)), 160, 480))
    maps = geometry.to_image(_template_grid(size)).astype(np.float32)
    template = cv2.remap(_gray(frame), maps[..., 0], maps[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return appearance_of(template, layout)


def appearance_of(template: np.ndarray, layout: BoardLayout = DEFAULT_LAYOUT) -> BoardAppearance:
    """Sample points (the strongest gradient in each small cell of the piece-free area) and ORB features."""
    size = template.shape[0]
    smooth = cv2.GaussianBlur(template.astype(np.float32), (0, 0), 1.0)  # one frame's noise, not the print
    per_unit = size / (1 + 2 * MARGIN)
    gu = cv2.Scharr(smooth, cv2.CV_32F, 1, 0) / 32 * per_unit
    gv = cv2.Scharr(smooth, cv2.CV_32F, 0, 1) / 32 * per_unit
    strength = np.hypot(gu, gv) / per_unit * _piece_free(size, layout)
    px = _strongest_per_cell(strength, max(3, size // 40))
    if len(px) < MIN_POINTS:
        raise ValueError("the board shows too little texture to be tracked without markers")
    # Each edge point with its two sides: mid-edge greys alone look alike, so a wrong pose could pass for right.
    normal = np.column_stack([gu[px[:, 1], px[:, 0]], gv[px[:, 1], px[:, 0]]])
    normal /= np.linalg.norm(normal, axis=1, keepdims=True)
    xy = np.concatenate([px, px + SIDE_STEP * normal, px - SIDE_STEP * normal]).astype(np.float64)
    points = (xy + 0.5) / size * (1 + 2 * MARGIN) - MARGIN
    values = sample(template, xy)[0].astype(np.float32)  # as a frame reads them: unsmoothed
    gradients = np.column_stack([sample(gu, xy)[0], sample(gv, xy)[0]])

    orb = cv2.ORB_create(nfeatures=800, fastThreshold=10)
    on_board = np.zeros_like(template)
    lo, hi = int(round(MARGIN / (1 + 2 * MARGIN) * size)), int(round((1 + MARGIN) / (1 + 2 * MARGIN) * size))
    on_board[lo:hi, lo:hi] = 255  # the table round it does not move with the board
    keypoints, descriptors = orb.detectAndCompute(template, on_board)
    if descriptors is None or len(keypoints) < 20:
        raise ValueError("the board shows too little texture to be tracked without markers")
    return BoardAppearance(template, points.astype(np.float64), values.astype(np.float32),
                           gradients.astype(np.float64), np.array([k.pt for k in keypoints], np.float32), descriptors)


def _strongest_per_cell(strength: np.ndarray, cell: int) -> np.ndarray:
    """(x, y) of the strongest pixel in each cell, strongest first: the POINTS strongest above MIN_GRADIENT (at
    least MIN_POINTS if there are that many), spread over the board by the cells."""
    size = strength.shape[0] // cell * cell
    blocks = strength[:size, :size].reshape(size // cell, cell, size // cell, cell).transpose(0, 2, 1, 3)
    blocks = blocks.reshape(size // cell, size // cell, cell * cell)
    best = blocks.argmax(axis=2)
    value = np.take_along_axis(blocks, best[..., None], axis=2)[..., 0]
    by, bx = np.nonzero(value > 0)
    order = np.argsort(-value[by, bx], kind="stable")
    strong = max(int((value[by, bx] >= MIN_GRADIENT).sum()), MIN_POINTS)
    order = order[: min(POINTS, strong)]
    k = best[by[order], bx[order]]
    return np.column_stack([bx[order] * cell + k % cell, by[order] * cell + k // cell]).astype(np.intp)


@dataclass
class Fit:
    pose: np.ndarray  # 3x3 rigid motion in board fractions, from the calibrated pose
    agree: float  # share of sample points that agree with the reference there


@dataclass
class BoardTracker:
    """One board's pose, frame by frame. `update(frame)` says whether it changed; `corners` is the last good
    pose (kept while the board cannot be seen)."""

    appearance: BoardAppearance
    calibrated: np.ndarray  # (4, 2) corners the appearance was learned at
    lens: Lens | None = None
    pose: np.ndarray = field(default_factory=lambda: np.eye(3))  # rigid motion since calibration
    searches: int = 0  # searches run (_best_fit), for cost accounting
    _geometry: BoardGeometry = field(init=False)
    _probe: Probe | None = field(init=False, default=None)  # the sample points at the current pose
    _tolerance: np.ndarray = field(init=False)  # grey levels each sample may differ from the reference
    _previous: np.ndarray | None = field(init=False, default=None)  # the samples in the previous frame
    _before: np.ndarray | None = field(init=False, default=None)  # ... and in the one before it, at the same pose
    _still: int = field(init=False, default=0)  # frames in a row like their predecessor
    _searched: np.ndarray | None = field(init=False, default=None)  # the samples at the last search
    _sharpness: float = field(init=False, default=1.0)  # _edge_contrast in the frame the pose was found in
    _confirming: int = field(init=False, default=0)  # still frames left to align again in after a search
    _orb: cv2.ORB = field(init=False)
    _matcher: cv2.BFMatcher = field(init=False)

    def __post_init__(self) -> None:
        self.calibrated = np.asarray(self.calibrated, np.float64).reshape(4, 2)
        self._geometry = BoardGeometry(self.calibrated, self.lens)
        self._orb = cv2.ORB_create(nfeatures=1000, fastThreshold=10)
        self._matcher = cv2.BFMatcher(cv2.NORM_HAMMING, crossCheck=True)
        per_pixel = np.linalg.norm(self.appearance.gradients, axis=1) / self._geometry.pixels_per_unit()
        self._tolerance = AGREE_LEVELS + SUBPIXEL * per_pixel

    @property
    def corners(self) -> np.ndarray:
        return self._geometry.to_image(_apply(self.pose, UNIT_SQUARE))

    def _image_points(self, pose: np.ndarray) -> np.ndarray:
        return self._geometry.to_image(_apply(pose, self.appearance.points))

    def update(self, frame: np.ndarray) -> bool:
        """Read the board's sample points; relocalise when they say it moved and the scene is still. True when
        the pose changed."""
        if self._probe is None:
            self._probe = Probe.at(self._image_points(self.pose), frame.shape)
        values = self._probe.read(frame)
        inside = self._probe.inside
        self._before, self._previous = self._previous, values
        agrees = _agreeing(values, self.appearance.values, inside, self._tolerance)
        agree = float(agrees.sum() / max(inside.sum(), 1))
        if agree >= CHECK:
            self._searched, self._still = None, 0
            return False
        self._still = self._still + 1 if self.settled else 0
        steady = agree >= STEADY
        # Search only a scene still for a while, disagreeing along whole sides (a move; an arm crosses a side
        # on one stretch), and not the scene searched last (a hand resting there, a cup). A board that still
        # mostly agrees may have moved a little (REFINE_GAIN, REFINE_SHARE): only a short alignment from where it is.
        if self._still < STILL_FRAMES or not (steady or _looks_moved(~agrees & inside, self.appearance.stretches)):
            return False
        if self._searched is not None and np.mean(np.abs(values - self._searched) > CHANGED_LEVELS) < CHANGED:
            return False
        self._searched = values
        fit = self.refine(frame, agree) if steady else self.relocalise(frame)
        if fit is None:
            return False
        self._take(fit.pose, frame)
        self._confirming = CONFIRM_FRAMES
        return True

    def confirm(self, frame: np.ndarray) -> bool:
        """After `update` on the same frame, in the CONFIRM_FRAMES still frames after a search: align again from
        the pose, and take the fit if the outline reads sharper there than in the frame the pose was found in (a
        bumped camera blurred that one). True when the pose changed."""
        if not self._confirming or not self.settled:
            return False
        if _agreement(self._previous, self.appearance.values, self._probe.inside, self._tolerance) < SURE:
            return False  # something over the board
        self._confirming -= 1
        fit = self._align(frame, self.pose)
        if fit is None or fit.agree < SURE:
            return False
        values, inside = sample(frame, self._image_points(fit.pose))
        if _edge_contrast(values, self.appearance.values, inside) <= self._sharpness:
            return False
        self._take(fit.pose, frame)
        return True

    def _take(self, pose: np.ndarray, frame: np.ndarray) -> None:
        """A new pose, found in `frame`: the points are read there from now on."""
        self.pose = pose
        self._probe = Probe.at(self._image_points(pose), frame.shape)
        self._before, self._previous = None, self._probe.read(frame)
        self._sharpness = _edge_contrast(self._previous, self.appearance.values, self._probe.inside)

    @property
    def settled(self) -> bool:
        """Whether the points read in the last frame as in the one before: nothing passing over the board."""
        return self._before is not None and _agreement(self._previous, self._before, self._probe.inside) >= STILL

    def realign(self, frame: np.ndarray) -> bool:
        """A search asked for from outside: something finer than the sample points (the board's margin ring) saw
        the board move, though the points still agree (a move of a pixel or two is within their tolerance). The
        pose found is taken if it agrees surely and at least as well as the current one; True if it was."""
        probe = Probe.at(self._image_points(self.pose), frame.shape)
        now = _agreement(probe.read(frame), self.appearance.values, probe.inside, self._tolerance)
        fit = self._best_fit(frame)
        if fit is None or fit.agree < max(SURE, now):
            return False
        self._take(fit.pose, frame)
        self._searched, self._still, self._confirming = None, 0, CONFIRM_FRAMES
        return True

    def relocalise(self, frame: np.ndarray) -> Fit | None:
        """The board's pose in this frame within a short step of the current one, or None if it cannot be seen
        well enough."""
        fit = self._best_fit(frame)
        return fit if fit is not None and fit.agree >= ACCEPT else None

    def refine(self, frame: np.ndarray, agree: float) -> Fit | None:
        """A pose a little off the current one that fits this frame surely and clearly better than the current
        one (`agree`: by REFINE_GAIN below SURE, with at most REFINE_SHARE of its disagreement left above), or
        None."""
        # Agreeing surely, it is a few pixels off at most: an alignment from where it is finds it (the print's ORB
        # matches, as costly again, are for larger moves).
        fit = self._best_fit(frame, orb=agree < SURE)
        better = agree + REFINE_GAIN if agree < SURE else 1.0 - REFINE_SHARE * (1.0 - agree)
        return fit if fit is not None and fit.agree >= max(SURE, better) else None

    def _best_fit(self, frame: np.ndarray, orb: bool = True) -> Fit | None:
        """The better of two alignments within a short step: from the current pose (a small move) and, with `orb`,
        from ORB matches of the print (a larger one). Both are tried: from the current pose the alignment can settle
        on a wrong pose that agrees over SURE, and a board stays there, read covered by its margin ring for the rest
        of the game (recorded tuning game 700: slid 8 mm and turned 1 degree, aligned 10 px off at 0.94 agreement,
        where ORB's start reached 1.0 within 1.4 px)."""
        self.searches += 1
        start = self._orb_pose(frame) if orb else None
        fits = [self._align(frame, self.pose), self._align(frame, start) if start is not None else None]
        good = [f for f in fits if f is not None and _short_step(self.pose, f.pose)]
        return max(good, key=lambda f: f.agree) if good else None

    def _align(self, frame: np.ndarray, pose: np.ndarray) -> Fit | None:
        """Gauss-Newton (inverse compositional) on the sample points: the rigid motion that makes them match
        the template, robust to the points a piece or a hand hides."""
        app = self.appearance
        u, v = app.points[:, 0] - 0.5, app.points[:, 1] - 0.5
        gu, gv = app.gradients[:, 0], app.gradients[:, 1]
        steepest = np.column_stack([-v * gu + u * gv, gu, gv])  # d(template)/d(turn, tx, ty) at the identity
        per_px = 1.0 / max(self._geometry.pixels_per_unit(), 1.0)
        pose = pose.copy()
        for _ in range(GN_ITERATIONS):
            values, inside = sample(frame, self._image_points(pose))
            if inside.sum() < MIN_POINTS:
                return None
            gain, offset = _gain_fit(values[inside], app.values[inside])
            error = np.where(inside, values * gain + offset - app.values, 0.0)
            weights = _tukey(error, inside)
            hessian = (steepest * weights[:, None]).T @ steepest
            if np.linalg.cond(hessian) > 1e8:
                return None
            turn, tx, ty = np.linalg.solve(hessian, (steepest * weights[:, None]).T @ error)
            pose = pose @ np.linalg.inv(_rigid(turn, tx, ty))
            if max(abs(tx), abs(ty)) + abs(turn) < GN_DONE_PX * per_px:
                break
        values, inside = sample(frame, self._image_points(pose))
        return Fit(pose, _agreement(values, app.values, inside, self._tolerance))

    def _rectified(self, frame: np.ndarray, size: int) -> np.ndarray:
        """The frame over the template's area at the current pose, template pixels."""
        if self.lens is None:  # a plain homography: one warp
            to_image = self._geometry.homography @ self.pose @ _pixels_to_board(size)
            return cv2.warpPerspective(frame, to_image, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                       borderMode=cv2.BORDER_REPLICATE)
        maps = self._geometry.to_image(_apply(self.pose, _template_grid(size).reshape(-1, 2)))
        maps = maps.reshape(size, size, 2).astype(np.float32)
        return cv2.remap(frame, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def _orb_pose(self, frame: np.ndarray) -> np.ndarray | None:
        """A rough pose from ORB matches between the template and the frame rectified at the current pose,
        only matches within a short step (so the print of a neighbouring board never counts)."""
        app = self.appearance
        size = app.template.shape[0]
        view = _gray(self._rectified(frame, size))
        keypoints, descriptors = self._orb.detectAndCompute(view, None)
        if descriptors is None or len(keypoints) < 12:
            return None
        matches = self._matcher.match(app.descriptors, descriptors)
        src = np.array([app.keypoints[m.queryIdx] for m in matches], np.float32).reshape(-1, 2)
        dst = np.array([keypoints[m.trainIdx].pt for m in matches], np.float32).reshape(-1, 2)
        reach = MAX_STEP * size / (1 + 2 * MARGIN)
        near = np.linalg.norm(dst - src, axis=1) < reach
        if near.sum() < 12:
            return None
        similarity, inliers = cv2.estimateAffinePartial2D(src[near], dst[near], method=cv2.RANSAC,
                                                          ransacReprojThreshold=2.0)
        if similarity is None or int(inliers.sum()) < 12:
            return None
        # Template pixels -> pixels of the view at the current pose, as a rigid motion in board fractions.
        turn = math.atan2(similarity[1, 0], similarity[0, 0])
        centre = _to_pixels(np.array([[0.5, 0.5]]), size)[0]
        moved = similarity[:, :2] @ centre + similarity[:, 2]
        shift = (moved - centre) / size * (1 + 2 * MARGIN)
        return self.pose @ _rigid(turn, float(shift[0]), float(shift[1]))


def _pixels_to_board(size: int) -> np.ndarray:
    """Template pixel (x, y, 1) -> board fractions, 3x3."""
    k = (1 + 2 * MARGIN) / size
    return np.array([[k, 0, 0.5 * k - MARGIN], [0, k, 0.5 * k - MARGIN], [0, 0, 1]])


def _gain_fit(values: np.ndarray, reference: np.ndarray) -> tuple[float, float]:
    """Gain and offset taking the readings to the reference (the light changed), least squares."""
    mean_v, mean_r = float(values.mean()), float(reference.mean())
    centred = values - mean_v
    spread = float(centred @ centred)
    gain = float(np.clip(centred @ (reference - mean_r) / spread, 0.5, 2.0)) if spread > len(values) else 1.0
    return gain, mean_r - gain * mean_v


def _agreeing(values: np.ndarray, reference: np.ndarray, inside: np.ndarray,
              tolerance: np.ndarray | None = None) -> np.ndarray:
    """Which points read as the reference within their tolerance (none when too few are in view). With a
    tolerance the reference is the template (fit the light's gain); without, an earlier frame (AGREE_LEVELS)."""
    if inside.sum() < MIN_POINTS:
        return np.zeros(len(values), bool)
    if tolerance is None:
        return inside & (np.abs(values - reference) < AGREE_LEVELS)
    a, b = _gain_fit(values[inside], reference[inside])
    return inside & (np.abs(values * a + b - reference) < tolerance)


def _agreement(values: np.ndarray, reference: np.ndarray, inside: np.ndarray,
               tolerance: np.ndarray | None = None) -> float:
    """Share of the points in view that read as the reference."""
    return float(_agreeing(values, reference, inside, tolerance).sum() / max(int(inside.sum()), 1))


def _edge_contrast(values: np.ndarray, reference: np.ndarray, inside: np.ndarray) -> float:
    """How sharply the edge points read: the difference across each one's two sides, as a share of the
    template's (after the light's gain). Motion blur takes it away."""
    n = len(reference) // 3  # the edge points, then their sides one way, then the other (appearance_of)
    both = inside[n:2 * n] & inside[2 * n:]
    if inside.sum() < MIN_POINTS or not both.any():
        return 0.0
    gain, _ = _gain_fit(values[inside], reference[inside])
    across = np.abs(values[n:2 * n] - values[2 * n:])[both].sum()
    return float(gain * across / max(float(np.abs(reference[n:2 * n] - reference[2 * n:])[both].sum()), 1.0))


def _looks_moved(disagree: np.ndarray, stretches: np.ndarray) -> bool:
    """Whether the outline moved: it disagrees along nearly all of two opposite sides (a slide) or along half
    of every side (a turn); an arm or a hand crosses a side on a stretch or two. A side with no sample points
    (none of its edge's gradients among the strongest where the board was learned) says nothing either way: recorded tuning
    game 738's board 1 had none on its bottom side, and slid 3.5 px it was never searched for (its top side
    disagreeing along 3 of 4 stretches, its points agreeing 0.76), its floor read full of tiles."""
    on_edge = stretches >= 0
    cells = 4 * SEGMENTS
    count = np.bincount(stretches[on_edge], minlength=cells).reshape(4, SEGMENTS)
    hits = np.bincount(stretches[on_edge], disagree[on_edge], minlength=cells).reshape(4, SEGMENTS)
    populated = (count > 0).sum(axis=1)
    share = ((hits >= SEGMENT_HIT * count) & (count > 0)).sum(axis=1) / np.maximum(populated, 1)
    seen = populated > 0

    def along(sides: list[int], least: float) -> bool:
        return bool(seen[sides].any() and (share[sides][seen[sides]] >= least).all())

    return along([0, 2], 0.7) or along([1, 3], 0.7) or along([0, 1, 2, 3], 0.5)


def _tukey(error: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """Tukey biweights: points far off the bulk (a tile, a hand, a glint) stop pulling."""
    scale = max(1.4826 * float(np.median(np.abs(error[inside]))), 4.0)
    r = error / (4.685 * scale)
    return np.where(inside & (np.abs(r) < 1), (1 - r**2) ** 2, 0.0)


def _short_step(old: np.ndarray, new: np.ndarray) -> bool:
    """Whether a pose is within one nudge of another (so never on a neighbouring board)."""
    step = np.linalg.inv(old) @ new
    middle = np.array([[0.5, 0.5]])
    slide = float(np.linalg.norm(_apply(step, middle) - middle))
    return abs(math.atan2(step[1, 0], step[0, 0])) <= MAX_TURN and slide <= MAX_STEP
