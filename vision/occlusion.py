"""Is something over a region? Rings of table or board print round each region, compared with setup.

A hand reaching for a factory display, the centre or a board comes from its player's side, so its arm crosses the
region's edge; a cup put down does too. Where no game piece ever lies (a ring of table just outside a display,
the board's own margin, a display's printed rim), any change from the setup frame means something is in the way,
or its shadow: either way the region is not evidence this frame. Glare (clipped highlights) is flagged the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration.sampling import PatchSampler
from vision.light import to_lab

RING_DELTA_E = 16.0  # a ring point has changed when it moved this far from setup (after light normalisation)
RING_FRACTION = 0.03  # share of changed ring points that flags the region
# On a display's ring a point counts as changed only in a run of RING_RUN along its circle: a hand is wider than
# that, JPEG blocks by the rim's edge and noise change points here and there (clean displays flagged, tuning seeds
# 0-47 138 -> 127 of 1728, check seeds 200-247 163 -> 146; displays under a hand missed 1 and 1 before and after).
RING_RUN = 3
GLARE_LEVEL = 250  # a channel value this high is clipped: colour there is not the object's
# A display's printed rim, in radii (on the table's plane), watched as well as the table round it: a hand the colour
# of the table changes the table ring by under RING_DELTA_E but the rim's print a lot (tuning seeds 0-47, hands:
# displays under a hand missed 13 -> 5 of 713; clean frames: displays flagged 137 -> 144 of 1728).
RIM_BAND = (0.92, 1.0)
RIM_DELTA_E = 16.0  # a rim point has changed when it is this far outside the bare table's range round it
RIM_FRACTION = 0.05
# An arm the colour of the table changes a display's table ring by only 7-14 delta E, but along an arc of both
# circles, where noise and JPEG change single points: the median of ARC_POINTS neighbours over ARC_DELTA_E on each
# circle, at angles ARC_SPREAD points apart at most, flags the display. Bench frames (hands; random resolutions),
# with the ring left out near other displays: displays under a hand missed, tuning seeds 0-47 4 -> 1 of 511 (read
# confident 3 -> 0), check seeds 200-247 6 -> 1 of 562 (1 -> 0); clean displays flagged 144 -> 138 and 163 -> 163
# of 1728. On tuning seeds 7 delta E missed 1 too and flagged 210 clean; 9 missed 2 (1 confident), flagged 95.
ARC_POINTS = 9  # of 96 a circle: 34 degrees
ARC_SPREAD = 2
ARC_DELTA_E = 8.0
# A tile lying a little past its display's circle covers rim cells: no hand. Rim cells within TILE_REACH display
# radii of a pixel the display's counter reads as a tile count as unchanged that frame (RimWatcher.check).
TILE_REACH = 0.2
# A hand reaching over one display into the next crosses the second's rim where its table ring is not watched (the
# side towards the first, NEIGHBOUR_REACH): there a rim changed in over SIDE_RIM_FRACTION of its cells within
# SIDE_ANGLE of the direction of a neighbour flagged this frame flags the display too (tuning seed 21: a finger
# over display 8's rim from display 0's side, 5 of its 184 rim cells changed, read confident 0.99). Bench frames
# (hands): displays under a hand missed, tuning seeds 0-47 3 -> 2, check seeds 200-217 3 -> 2; no display with no
# hand over it flagged more (clean or near a hand).
SIDE_ANGLE = np.radians(22.5)
SIDE_RIM_FRACTION = 0.15


def circle_ring(center, radius: float, inner: float, outer: float, points: int = 96) -> np.ndarray:
    """(1, 2, points, 2) image coordinates on two circles between inner·r and outer·r."""
    t = np.linspace(0, 2 * np.pi, points, endpoint=False)
    rows = [np.column_stack([center[0] + f * radius * np.cos(t), center[1] + f * radius * np.sin(t)])
            for f in (inner, outer)]
    return np.stack(rows)[None]


def polygon_ring(polygon, scale: float, points: int = 128) -> np.ndarray:
    """(1, 1, points, 2) points along the polygon scaled about its centroid by `scale`."""
    pts = np.asarray(polygon, np.float64)
    centre = pts.mean(axis=0)
    closed = np.vstack([pts, pts[:1]])
    seg = np.linalg.norm(np.diff(closed, axis=0), axis=1)
    pos = np.concatenate([[0], np.cumsum(seg)])
    s = np.linspace(0, pos[-1], points, endpoint=False)
    x = np.interp(s, pos, closed[:, 0])
    y = np.interp(s, pos, closed[:, 1])
    ring = centre + (np.column_stack([x, y]) - centre) * scale
    return ring[None, None]


@dataclass
class OcclusionCheck:
    changed: float  # share of ring points that changed
    glare: float  # share of clipped pixels
    occluded: bool
    rim: float = 0.0  # a display's share of rim points changed (RimWatcher)
    arc: float = 0.0  # share of a display's ring's angles where a changed arc crosses its circles (_arc)


class RingWatcher:
    """Compares a region's ring with its setup appearance."""

    def __init__(self, grid: np.ndarray, frame_size, reference: np.ndarray | None = None,
                 keep: np.ndarray | None = None, arcs: bool = False, run: int = 1,
                 order: np.ndarray | None = None) -> None:
        """The grid's rows are concentric circles, each point in turn round them (circle_ring), or one ring.
        `arcs`: a changed arc crossing all of them flags the region too (ARC_DELTA_E; `arc` measures it anyway). A
        point counts as changed only in a run of `run` along its circle, the points taken in turn round the region
        in `order` (indices; None: as laid)."""
        self.sampler = PatchSampler(grid, frame_size)
        self.points = grid.reshape(-1, 2)
        self.keep = keep  # (P*Q,) bool: ring points to use (e.g. not inside another region)
        self.stale: np.ndarray | None = None  # (P*Q,) bool: points whose reference no longer holds (forget)
        self.alternate_lab: np.ndarray | None = None  # another look of the ring that counts as unchanged
        self.reference_lab = None if reference is None else to_lab(reference).reshape(-1, 3)
        self.circles = grid.shape[1]
        self.arcs = arcs
        self.run = run
        self.order = order
        self.watched = max(1, grid.shape[1] * grid.shape[2] if keep is None else int(np.count_nonzero(keep)))

    def sample(self, frame: np.ndarray) -> np.ndarray:
        return self.sampler.sample(frame)

    def look(self, frame: np.ndarray, gain: np.ndarray | None) -> np.ndarray:
        """The ring's points in L*a*b* (in the setup's light, as `check` compares), (P*Q, 3)."""
        return to_lab(self.sampler.sample(frame), gain).reshape(-1, 3)

    def forget(self, points: np.ndarray) -> None:
        """These points (bool, P*Q) no longer look as recorded (something was moved over or off them): they are
        left out of the check until `relearn`."""
        self.stale = points if self.stale is None else self.stale | points

    def relearn(self, frame: np.ndarray, gain: np.ndarray | None) -> None:
        """The forgotten points as they look in this frame become their reference."""
        if self.stale is not None and self.reference_lab is not None:
            lab = self.look(frame, gain)
            self.reference_lab = np.where(self.stale[:, None], lab, self.reference_lab)
            if self.alternate_lab is not None:
                self.alternate_lab = np.where(self.stale[:, None], lab, self.alternate_lab)
        self.stale = None

    def check(self, frame: np.ndarray, gain: np.ndarray | None, ignore: np.ndarray | None = None) -> OcclusionCheck:
        """Whether something covers the ring; `ignore` (P*Q,) bool: points left out this once, as forgotten ones."""
        return check_rings([self], self.sampler.sample(frame), gain, None if ignore is None else ignore[None])[0]

    def arc(self, frame: np.ndarray, gain: np.ndarray | None) -> float:
        """The share of the ring's angles where a changed arc crosses its circles (_arc), flagging or not."""
        return float(np.mean(self.arc_angles(frame, gain)))

    def arc_angles(self, frame: np.ndarray, gain: np.ndarray | None) -> np.ndarray:
        """Per angle (in order), whether a changed arc crosses the ring's circles there (_arcs), flagging or not."""
        if self.reference_lab is None:
            return np.zeros(self.points.shape[0] // self.circles, bool)
        return _arcs(self._change(self.look(frame, gain)), self.circles)

    def _change(self, lab: np.ndarray, ignore: np.ndarray | None = None) -> np.ndarray:
        """Each point's change from setup (delta E; the lesser from either look), 0 where not watched (or
        `ignore`d), in order."""
        return _changes([self], lab[None], None if ignore is None else ignore[None])[0]


class RingGroup:
    """Rings laid alike (the displays': as many circles and points, arcs, runs and order alike), sampled in one
    remap and checked together (check_rings)."""

    def __init__(self, rings: list[RingWatcher], frame_size) -> None:
        self.rings = rings
        self.sampler = PatchSampler(np.concatenate([r.points.reshape(1, r.circles, -1, 2) for r in rings]), frame_size)

    def check(self, frame: np.ndarray, gain: np.ndarray | None) -> list[OcclusionCheck]:
        return check_rings(self.rings, self.sampler.sample(frame), gain)


def check_rings(rings: list[RingWatcher], samples: np.ndarray, gain: np.ndarray | list[np.ndarray | None] | None,
                ignore: np.ndarray | None = None) -> list[OcclusionCheck]:
    """RingWatcher.check of rings laid alike (RingGroup), from their samples (R, Q, P, 3) BGR, the light's `gain`
    (one for all, or a list: each ring's own) and `ignore` (R, P*Q) or None: each step one numpy pass over every
    ring, as a ring's check costs mostly per numpy call."""
    flat = samples.reshape(len(rings), -1, 3)
    glare = np.mean(flat.min(axis=2) >= GLARE_LEVEL, axis=1)
    checks = [OcclusionCheck(0.0, float(g), False) for g in glare]
    seen = [k for k, r in enumerate(rings) if r.reference_lab is not None]
    if not seen:
        return checks
    ring = rings[seen[0]]
    if isinstance(gain, list):
        lab = np.stack([to_lab(samples[k], gain[k]).reshape(-1, 3) for k in seen])
    else:
        lab = to_lab(samples[seen], gain).reshape(len(seen), -1, 3)
    d = _changes([rings[k] for k in seen], lab, None if ignore is None else ignore[seen])
    arc = _arc(d, ring.circles) if ring.arcs else np.zeros(len(seen))
    hit = d.reshape(len(seen) * ring.circles, -1) > RING_DELTA_E
    runs = np.count_nonzero(_in_runs(hit, ring.run).reshape(len(seen), -1), axis=1)
    for k, n, a in zip(seen, runs, arc.tolist()):
        changed = float(n / rings[k].watched)
        outside = float(rings[k].sampler.outside.mean())
        checks[k] = OcclusionCheck(changed, checks[k].glare, changed > RING_FRACTION or outside > 0.05 or a > 0,
                                   arc=a)
    return checks


def _changes(rings: list[RingWatcher], lab: np.ndarray, ignore: np.ndarray | None = None) -> np.ndarray:
    """(R, P*Q) each ring's points' change (RingWatcher._change) from their L*a*b* (R, P*Q, 3), rings laid alike
    and each with its reference."""
    d = np.sqrt(np.sum((lab - np.stack([r.reference_lab for r in rings])) ** 2, axis=2))
    if any(r.alternate_lab is not None for r in rings):
        other = np.stack([r.reference_lab if r.alternate_lab is None else r.alternate_lab for r in rings])
        d = np.minimum(d, np.sqrt(np.sum((lab - other) ** 2, axis=2)))
    if any(r.keep is not None for r in rings):
        d = np.where(np.stack([np.ones(d.shape[1], bool) if r.keep is None else r.keep for r in rings]), d, 0.0)
    for left_out in (_stacked([r.stale for r in rings], d.shape[1]), ignore):
        if left_out is not None:
            d = np.where(left_out, 0.0, d)
    order = rings[0].order
    return d if order is None else d[:, order]


def _stacked(masks: list[np.ndarray | None], points: int) -> np.ndarray | None:
    """(R, points) bool of the rings' masks (None: none set), or None if no ring has one."""
    if all(m is None for m in masks):
        return None
    return np.stack([np.zeros(points, bool) if m is None else m for m in masks])


def _arc(d: np.ndarray, circles: int) -> np.ndarray:
    """Per ring (d (..., points)), the share of angles where an arc crosses every circle (_arcs)."""
    return np.mean(_arcs(d, circles), axis=-1)


def _arcs(d: np.ndarray, circles: int) -> np.ndarray:
    """Per ring (d (..., points)) and angle, whether an arc crosses every circle there: on each circle more than
    half of ARC_POINTS neighbours changed by ARC_DELTA_E, the circles' arcs within ARC_SPREAD points of the angle
    (a median filter over ARC_DELTA_E, counted rather than sorted)."""
    hit = (d > ARC_DELTA_E).reshape(*d.shape[:-1], circles, -1)
    half = ARC_POINTS // 2
    if np.all(np.count_nonzero(hit, axis=-1).min(axis=-1) <= half):
        return np.zeros(hit.shape[:-2] + hit.shape[-1:], bool)  # most frames: no circle has an arc anywhere
    arcs = _window_sum(hit, half) > half
    return np.all(_window_sum(arcs, ARC_SPREAD) > 0, axis=-2)


def _in_runs(hit: np.ndarray, k: int) -> np.ndarray:
    """Which of each row's (circle's) hits lie in a run of k or more round it."""
    if k <= 1:
        return hit
    if np.count_nonzero(hit, axis=1).max() < k:
        return np.zeros_like(hit)
    starts = _wrapped_sums(hit, 0, k - 1) == k  # a run of k starts here
    return _wrapped_sums(starts, k - 1, 0) > 0


def _window_sum(x: np.ndarray, half: int) -> np.ndarray:
    """Per point the sum of its 2·half + 1 neighbours round each row (rows wrap)."""
    return _wrapped_sums(x, half, half)


def _wrapped_sums(x: np.ndarray, before: int, after: int) -> np.ndarray:
    """Per point the sum of the `before` points ahead of it, itself and the `after` points behind it, round each
    row (the last axis; rows wrap)."""
    n = x.shape[-1]
    wrapped = np.concatenate([x[..., n - before:], x, x[..., :after]], axis=-1).astype(np.int16)
    return np.add.reduce([wrapped[..., i:i + n] for i in range(before + after + 1)])


class RimWatcher:
    """The factory displays' printed rims, compared with the bare table (the empty-table capture).

    The points are the displays' canonical grid cells (vision.counting.circle_grid) on the rim, so the bare table's
    own samples of those cells are the reference, no second capture needed. A point is unchanged while each
    channel stays within the range of its 3x3 neighbourhood there (give or take a pixel's shift or blur of the
    rim's edges); no tile lies on the rim, so a changed one is something over the display. Seen obliquely a
    display is an ellipse, not the calibration's circle: the rim is found on the table's plane (a board's
    homography); the image circle's band, where it lies on the display's card, crossed tiles (check seeds 216-247,
    clean frames: 125 displays flagged with the image circle's band, 105 on the plane; 97 without the rim).
    """

    def __init__(self, grid: np.ndarray, empty: np.ndarray, frame_size, displays, planes,
                 inside: np.ndarray | None = None, blind: list[list[int]] | None = None) -> None:
        """`grid` (N, G, G, 2) image coordinates of the displays' canonical grids, `empty` (N, G, G, 3) BGR the
        bare table sampled on them, `displays` their (centre, radius) in the image and `planes` a board geometry
        per display (board units are the table's plane) or None to take the image circle; `inside` (G, G) the
        grid pixels the displays' counter reads tiles on (None: no rim cell is beside a tile); `blind` per display
        the displays its table ring is not watched towards (SIDE_ANGLE)."""
        kernel = np.ones((3, 3), np.uint8)
        points, least, most, owner, near = [], [], [], [], []
        for n, (cells, lab, (centre, radius), plane) in enumerate(zip(grid, to_lab(empty), displays, planes)):
            rim = _rim_cells(cells, centre, radius, plane)
            points.append(cells[rim])
            least.append(cv2.erode(lab, kernel)[rim])
            most.append(cv2.dilate(lab, kernel)[rim])
            owner.append(np.full(int(rim.sum()), n))
            near.append(_beside(np.argwhere(rim), inside, TILE_REACH * rim.shape[0] / 2))
        # Per display, (neighbour, its rim cells facing that neighbour) for each neighbour its ring is blind to.
        self.sides = [[(k, _facing(cells, centre, displays[k][0])) for k in neighbours]
                      for cells, (centre, _), neighbours in zip(points, displays, blind or [[]] * len(points))]
        self.owner = np.concatenate(owner)
        self.count = np.maximum(np.bincount(self.owner, minlength=len(grid)), 1)
        self.sampler = PatchSampler(np.concatenate(points)[None, None], frame_size) if len(self.owner) else None
        self.least, self.most = np.concatenate(least), np.concatenate(most)
        self.near = near  # per display, (rim cell, grid pixel) pairs within TILE_REACH (_beside)

    def check(self, frame: np.ndarray, gain: np.ndarray | None, rings: list[OcclusionCheck],
              label: np.ndarray | None = None) -> list[OcclusionCheck]:
        """The displays' ring checks (in display order) with their rims' changes added. `label` (N, G, G): the
        displays' counter's class per pixel (-1: no tile); a rim cell beside a tile's pixel counts as unchanged
        (TILE_REACH)."""
        if self.sampler is None:
            return rings
        lab = to_lab(self.sampler.sample(frame), gain).reshape(-1, 3)
        outside = np.maximum(self.least - lab, 0) + np.maximum(lab - self.most, 0)
        hit = np.sum(outside ** 2, axis=1) > RIM_DELTA_E ** 2
        changed = np.bincount(self.owner, weights=hit, minlength=len(self.count)) / self.count
        if label is not None:
            for j in np.flatnonzero(changed > RIM_FRACTION):  # most displays and frames: none to look at again
                changed[j] = np.count_nonzero(self._untiled(hit, j, label)) / self.count[j]
        checks = [replace(c, rim=float(r), occluded=c.occluded or bool(r > RIM_FRACTION)) for c, r in zip(rings, changed)]
        return self._from_the_side(checks, hit, label)

    def _untiled(self, hit: np.ndarray, j: int, label: np.ndarray | None) -> np.ndarray:
        """Display j's rim cells changed, those beside a tile its counter reads (TILE_REACH) left out."""
        mine = hit[self.owner == j]
        if label is not None:
            cell, pixel = self.near[j]
            mine[cell[label[j].ravel()[pixel] >= 0]] = False
        return mine

    def _from_the_side(self, checks: list[OcclusionCheck], hit: np.ndarray,
                       label: np.ndarray | None) -> list[OcclusionCheck]:
        """A display whose rim changed on the side facing a flagged neighbour, where its ring is blind, is flagged
        too (SIDE_RIM_FRACTION)."""
        out = list(checks)
        for j, sides in enumerate(self.sides):
            facing = [cells for k, cells in sides if checks[k].occluded and len(cells)]
            if checks[j].occluded or not facing:
                continue  # most displays and frames
            mine = self._untiled(hit, j, label)
            if any(np.mean(mine[cells]) > SIDE_RIM_FRACTION for cells in facing):
                out[j] = replace(checks[j], occluded=True)
        return out


def _beside(cells: np.ndarray, inside: np.ndarray | None, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Every (cell, pixel) pair of a display's rim `cells` ((K, 2) row and column on its grid) and the `inside`
    pixels (G, G) within `reach` of each other: the cell's place in `cells`, the pixel's index into the grid."""
    if inside is None:
        return np.zeros(0, int), np.zeros(0, int)
    pixels = np.argwhere(inside)
    dy = cells[:, None, 0] - pixels[None, :, 0]
    dx = cells[:, None, 1] - pixels[None, :, 1]
    cell, pixel = np.nonzero(dy * dy + dx * dx <= reach * reach)
    return cell, pixels[pixel, 0] * inside.shape[1] + pixels[pixel, 1]


def _facing(cells: np.ndarray, centre, towards) -> np.ndarray:
    """Indices of the rim `cells` ((K, 2) image points) within SIDE_ANGLE of the direction from `centre` to
    `towards`."""
    angle = np.arctan2(cells[:, 1] - centre[1], cells[:, 0] - centre[0])
    aim = np.arctan2(towards[1] - centre[1], towards[0] - centre[0])
    return np.flatnonzero(np.abs((angle - aim + np.pi) % (2 * np.pi) - np.pi) < SIDE_ANGLE)


def _rim_cells(cells: np.ndarray, centre, radius: float, plane) -> np.ndarray:
    """(G, G) bool: the cells between RIM_BAND's fractions of the display's radius, measured on the table."""
    centre = np.asarray(centre, np.float64)
    if plane is None:
        return _in_band(np.linalg.norm(cells - centre, axis=-1) / radius)
    middle = plane.to_board(centre)
    t = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    ray = np.column_stack([np.cos(t), np.sin(t)])
    # The disc's radius on the table: its outline's mean distance in the image is the calibration's radius.
    size = radius / plane.pixels_per_unit()
    for _ in range(2):
        seen = np.linalg.norm(plane.to_image(middle + size * ray) - centre, axis=1).mean()
        size *= radius / seen
    return _in_band(np.linalg.norm(plane.to_board(cells) - middle, axis=-1) / size)


def _in_band(fraction: np.ndarray) -> np.ndarray:
    return (fraction > RIM_BAND[0]) & (fraction < RIM_BAND[1])
