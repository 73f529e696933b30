"""Frame + calibration -> observation: the recogniser of a whole table.

Everything that depends only on the calibration (homographies, remap grids, references in L*a*b*) is built once
in the constructor, or again for one board when its pose changes; `recognize(frame)` then samples small patches,
classifies them with vectorised numpy and writes the observation (see vision/observation.py and
docs/observation-format.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from calibration.colour_model import ColourModel
from calibration.geometry import FLOOR, BoardGeometry, Lens, Space
from calibration.profile import CalibrationProfile
from calibration.reference import BoardReference, BoardSpaces, board_samplers, decode_image
from calibration.sampling import PatchSampler
from vision.board_reader import SCORE_COVER_SPACES, BoardReader, BoardReading, read_boards
from vision.counting import (
    FACTORY_GRID,
    UNEXPLAINED_FREE,
    RegionCount,
    RegionCounter,
    circle_grid,
    polygon_grid,
)
from vision.light import to_lab
from vision.localise import LEARNED_KEY, BoardLocaliser
from vision.observation import GLARE_SHARE, MOTION_LEVEL, build_observation
from vision.occlusion import (
    RIM_FRACTION,
    RING_DELTA_E,
    RING_FRACTION,
    RING_RUN,
    OcclusionCheck,
    RimWatcher,
    RingGroup,
    RingWatcher,
    check_rings,
    circle_ring,
    polygon_ring,
)

FACTORY_RING = (1.1, 1.3)  # table just outside a display, in radii
# A display's ring is not watched within this many radii of another display, nor in the centre: tiles there (their
# side faces, shadows, blurred print) come and go. Tuning seeds 0-47, clean frames: displays flagged 144 -> 72 of
# 1728, but displays under a hand missed 4 -> 7 of 511; with the ring's arcs (vision.occlusion.ARC_DELTA_E) 138
# flagged and 1 missed.
NEIGHBOUR_REACH = 1.2
CENTRE_RING = 1.06
# Leftovers pushed into the centre may lie across its edge, on its ring, for the rest of the round: the centre then
# read covered in every frame, correct counts and all, and a move or misplacement that sent tiles there waited on
# it (recorded tuning game 959, round 4: two misplacements not flagged). Ring points within this many tile sides
# of a piece the centre's counter reads count as unchanged, once the centre has looked the same
# CENTRE_RING_STEADY_FRAMES frames running (a hand moves; a skin the colour of a tile reads as tiles: tuning seed
# 3, a hand on a tile at the centre's edge read as 11 yellow tiles, its ring beside them) and no more change inside
# than CENTRE_UNEXPLAINED is left unexplained.
CENTRE_RING_TILE_REACH = 1.0
CENTRE_RING_STEADY_FRAMES = 3
# A moved board's margin ring is recorded again, read at the new pose, fewer than this share of its points
# changed since the old pose, each given a pixel's slack across the margin (MOVED_RING_SLACK): the ring lies on
# the print's frame line, where a sub-pixel shift alone changed 11-19 % of the points (demo game, MJPG video:
# never under the 15 % once asked without slack, so the board stayed 'covered' for the rest of the game); with
# the slack 2-9 %, and a hand the board's print does not see 15-27 %.
MOVED_RING_CHANGE = 0.1
# ... or, whatever it looks like, once the board has read uncovered with nothing moving over it (its patches and
# the localiser's points as in the frame before) this many frames running: near the edge of a small board the ring
# reads the table through the blur, which a move changes (recorded tuning game 762, 4 players, board about 140 px
# wide on wood, nudged 6 mm and turned 1.6 degrees: 16 % of the points changed, 31 % and 28 % along two edges, in
# every frame, and the board read covered for the rest of the game; a hand over the margin does not lie still).
MOVED_QUIET_FRAMES = 10
MOVED_RING_SLACK = (-1.0, -0.5, 0.0, 0.5, 1.0)  # image pixels across the margin, inward positive
BOARD_RING_INSET = 0.012  # the board's own margin, inside its outer edge
# A nudged board carries its edge and contact shadow over the table rings round displays and the centre near it:
# those points (within this many board sides of its old or new outline) are left out until the board has settled
# at its new pose and the region reads uncovered, then recorded again there.
MOVED_BOARD_REACH = 0.06
# Nor is a display's table ring watched that near a board at all: there it lies on the board's edge and contact
# shadow, which a board nudged a millimetre (too little to re-aim) moves. Recorded tuning game 711 (4p gray, 720p,
# board 3 beside displays 4 and 5, 1-based): those displays flagged with no hand anywhere in 306 and 255 of 977
# frames -> 219 and 48.
BOARD_EDGE_REACH = MOVED_BOARD_REACH
# A display's table ring is recorded at setup with its tiles dealt, whose shadows (a tile stands 5-6 mm tall) fall
# past its rim onto the ring: once its tiles are taken the bare ring differs there by 10-25 delta E. The first time
# a display reads empty (every colour's count sure to this confidence, the rim unchanged) two frames running, with no
# board or the centre covered and its ring the same in both frames, its ring as it then looks counts as unchanged
# too. Recorded games (displays flagged with no hand): tuning seed 33 5200 -> 1436 of 12212 frames, seed 24 967 ->
# 558, seed 22 464 -> 322; displays under a hand missed, read confident, seed 7 35 -> 38 of 657 (marginal touches the
# tiles' shadows had flagged), seed 22 2 -> 2 of 669.
EMPTY_DISPLAY_CONFIDENCE = 0.9
# The score marker stands on the score track's "0" space at setup and leaves it at the first scoring, for good:
# where the margin ring would cross that space it runs on the border outside it instead (this far in; the space
# and ZERO_MARGIN round it, board units). Clean frames, boards flagged: tuning seeds 0-47 56 -> 48 of 768, check
# seeds 200-247 74 -> 65; boards under a hand missed 0 of 337 and 1 of 349 before and after.
ZERO_DETOUR_INSET = 0.004
ZERO_MARGIN = 0.01
# A board's margin ring point counts as changed only beside another (in turn round the board): JPEG blocks and
# noise change one here and there. Clean frames, boards flagged: tuning seeds 0-47 48 -> 43 of 768; boards under a
# hand missed 0 of 254 before and after (runs of 3: 33 flagged, 2 missed).
BOARD_RING_RUN = 2
BOARD_RING_EDGE = 32  # points along each edge
CENTRE_CAPACITY = 100  # tiles: the whole set
# The centre is covered when this share of it changed since the bare table where no tile explains it: much of its
# ring is left out near the displays, where a hand reaching in over a display does not cross it (tuning seeds 0-39:
# centres under a hand missed 6 -> 1 of 117; clean frames: at most 0.061 unexplained, 7 of 96 flagged before and
# after).
CENTRE_UNEXPLAINED = 0.08
# Fingers the colour of the table over the centre's edge change its ring along an arc by under RING_DELTA_E
# (vision.occlusion.ARC_DELTA_E) and leave change inside that no tile explains, under CENTRE_UNEXPLAINED. Either
# alone comes with nothing there (a board's shadow, a tile missed), both at once hardly: the count is then no more
# than a guess, its confidence at most this, though not flagged (tuning seed 45: 2.8 % of the centre under
# fingertips, 0.047 unexplained, read at 0.72).
ARM_BY_THE_CENTRE_CONFIDENCE = 0.5
# A palm the colour of a board's print over its score track changes a few spaces near one another by 10-14 delta E
# (board_reader.SCORE_DOUBT_DELTA_E, under what flags the board alone) and its margin ring, where the arm crosses
# it, by 6-16 along an arc (vision.occlusion.ARC_DELTA_E; tuning seed 23: board 2 read confident 1.0). Either alone
# comes with nothing there (light drifting over the track, a board nudged a pixel along its frame line), both side by
# side hardly: the board is covered when SCORE_COVER_SPACES of the doubt's spaces lie within TRACK_REACH (board
# sides) of an arc of its ring, where the arm came in.
TRACK_REACH = 0.15
STILL_COVERED_FRAMES = 3  # frames a board read covered must lie still before its pose is searched for
# The score marker stands on the track's "0" space at setup, so the margin ring recorded then holds its cube's side
# face and shadow wherever they reach past the detour (ZERO_DETOUR_INSET). Recorded tuning game 711 (4p gray, 720p):
# once board 1's marker left 0 at the first scoring, the ring points at the corner by space 0 read 30-62 delta E
# from setup and the board read covered with no hand for about 15 s, until a nudge had its ring recorded again. The
# ring points within CUBE_SHADOW (board units) of space 0 are recorded again, as a second look that counts as
# unchanged, once the marker stands that far from them (_record_cube_corner).
CUBE_SHADOW = 0.05
# A piece on the floor line stands by the board's edge: the first-player marker on its first space, standing tall,
# casts its side face and shadow over the margin ring (recorded tuning game 800, 3p gray: board 3's marker changed 4
# of its 128 ring points by 18-33 delta E, and the board read covered with no hand for 10.5 s, a misplacement on it
# unflagged). The ring points within FLOOR_SHADOW of a floor space read holding a piece at FLOOR_PIECE_SURE or
# better (a hand over the floor reads as no piece surely) are recorded again, as a second look that counts as
# unchanged, when they alone changed and looked alike two frames running (_record_floor_side).
FLOOR_SHADOW = CUBE_SHADOW
FLOOR_PIECE_SURE = 0.9


class FrameError(ValueError):
    """A frame that cannot be read with this calibration (wrong size, not an image)."""


def _empty_grid(info: dict, shape: tuple[int, int]) -> np.ndarray | None:
    """A region's canonical grid on the empty table, if it was captured at setup and fits this grid."""
    if not info.get("empty"):
        return None
    try:
        img = decode_image(info["empty"])
    except ValueError:
        raise FrameError("learned.setup: an empty-region image is not a valid base64 PNG") from None
    return img if img.shape[:2] == tuple(shape) else None


def _glare(info: dict, where: str) -> float:
    """A display's learned glare (8-bit grey): a number from 0 to 255, else the profile is refused."""
    value = info.get("glare", 0.0)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 255:
        raise FrameError(f"learned.{where}.glare must be a number from 0 to 255, not {value!r}")
    return float(value)


def board_ring_grid(geometry: BoardGeometry, zero: Space, per_edge: int = BOARD_RING_EDGE,
                    inset: float = BOARD_RING_INSET) -> np.ndarray:
    """(1, 1, 4 * per_edge, 2) image points round the board's margin, `inset` in from its edges, detouring round
    the score track's "0" space `zero` (ZERO_DETOUR_INSET)."""
    t = (np.arange(per_edge) + 0.5) / per_edge
    a, b = inset, 1 - inset
    uv = np.concatenate([
        np.column_stack([t, np.full_like(t, a)]), np.column_stack([np.full_like(t, b), t]),
        np.column_stack([t, np.full_like(t, b)]), np.column_stack([np.full_like(t, a), t]),
    ])
    reach = zero.side / 2 + ZERO_MARGIN
    over = np.nonzero((np.abs(uv[:, 0] - zero.u) < reach) & (np.abs(uv[:, 1] - zero.v) < reach))[0]
    shift = ZERO_DETOUR_INSET + inset - BOARD_RING_INSET  # a moved ring's slack moves the detour alike
    axis = np.repeat([1, 0, 1, 0], per_edge)  # the coordinate each edge holds fixed
    uv[over, axis[over]] = np.repeat([shift, 1 - shift, 1 - shift, shift], per_edge)[over]
    return geometry.to_image(uv)[None, None]


def _unsure(count: RegionCount, most: float) -> RegionCount:
    """The count with its confidence, and each colour's, at most `most`."""
    return replace(count, confidence=min(count.confidence, most),
                   count_confidence={c: min(p, most) for c, p in count.count_confidence.items()})


def _alike(look: np.ndarray, other: np.ndarray) -> bool:
    """Whether two looks of a ring (L*a*b*, (P, 3)) are the same: under RING_FRACTION of the points moved past
    RING_DELTA_E."""
    return bool(np.mean(np.sum((look - other) ** 2, axis=1) > RING_DELTA_E ** 2) < RING_FRACTION)


def _away_from_displays(points: np.ndarray, displays, reach: float, but: int | None = None) -> np.ndarray:
    """Which points lie farther than `reach` radii from every display (display `but` aside)."""
    keep = np.ones(len(points), bool)
    for k, ((cx, cy), r) in enumerate(displays):
        if k != but:
            keep &= np.hypot(points[:, 0] - cx, points[:, 1] - cy) > r * reach
    return keep


def _near_outlines(points: np.ndarray, outlines, reach: float) -> np.ndarray:
    """Which points lie inside any of these quadrilaterals (image corners) or within `reach` pixels of one."""
    near = np.zeros(len(points), bool)
    for corners in outlines:
        polygon = np.asarray(corners, np.float32).reshape(-1, 1, 2)
        near |= np.array([cv2.pointPolygonTest(polygon, (float(x), float(y)), True) > -reach for x, y in points])
    return near


def _display_ring_keep(points: np.ndarray, index: int, displays, centre,
                       boards: list[BoardGeometry]) -> np.ndarray:
    """Which of a display's ring points are watched: none near another display (NEIGHBOUR_REACH), in the centre
    or beside a board (BOARD_EDGE_REACH)."""
    keep = _away_from_displays(points, displays, NEIGHBOUR_REACH, but=index)
    if centre is not None and len(centre) >= 3:
        polygon = np.asarray(centre, np.float32).reshape(-1, 1, 2)
        keep &= np.array([cv2.pointPolygonTest(polygon, (float(x), float(y)), False) < 0 for x, y in points])
    for board in boards:
        keep &= ~_near_outlines(points, (board.corners,), BOARD_EDGE_REACH * board.pixels_per_unit())
    return keep


def _beside_track(geometry: BoardGeometry, spaces: BoardSpaces, ring: RingWatcher) -> np.ndarray:
    """(score spaces, ring points in the ring's order) bool: which margin ring points lie within TRACK_REACH of
    each score track space, on the board."""
    uv = geometry.to_board(ring.points if ring.order is None else ring.points[ring.order])
    track = np.array([(s.u, s.v) for s in spaces.score])
    return np.sum((track[:, None, :] - uv[None, :, :]) ** 2, axis=2) < TRACK_REACH ** 2


def _near_squares(uv: np.ndarray, spaces, reach: float) -> np.ndarray:
    """(spaces, points) bool: which points (board units) lie within `reach` of each space's square, on either axis."""
    middles = np.array([(s.u, s.v) for s in spaces])
    sides = np.array([s.side / 2 + reach for s in spaces])
    return np.all(np.abs(uv[None] - middles[:, None]) < sides[:, None, None], axis=2)


def _cube_corner(geometry: BoardGeometry, spaces: BoardSpaces, ring: RingWatcher) -> tuple[np.ndarray, np.ndarray]:
    """The margin ring's points (as laid) within CUBE_SHADOW of the score track's "0" space, and per score space
    those of them the cube standing there is that far from (spaces, points)."""
    near = _near_squares(geometry.to_board(ring.points), spaces.score, CUBE_SHADOW)
    corner = near[0]
    return corner, corner & ~near


def _record_alike(ring: RingWatcher, frame: np.ndarray, gain: np.ndarray | None, points: np.ndarray,
                  before: tuple[np.ndarray, np.ndarray] | None) -> tuple[tuple[np.ndarray, np.ndarray] | None, bool]:
    """These ring points' look (L*a*b*) is recorded as the ring's alternate look if it is alike the one `before` (the
    previous frame's, of the same points): a hand passing over them is no record; one resting there is still seen
    wherever it differs from both looks. Returns the look to compare the next frame's with (None once recorded) and
    whether it was recorded."""
    look = ring.look(frame, gain)
    if before is not None and np.array_equal(before[0], points) and _alike(look[points], before[1]):
        ring.alternate_lab = np.where(points[:, None], look,
                                      ring.reference_lab if ring.alternate_lab is None else ring.alternate_lab)
        return None, True
    return (points, look[points]), False


def _record_cube_corner(board: _Board, frame: np.ndarray, reading: BoardReading,
                        check: OcclusionCheck) -> OcclusionCheck:
    """The board's ring check, the cube's corner recorded: the look of its points the marker stands CUBE_SHADOW
    clear of counts as unchanged too (the ring's alternate look), taken when the board reads uncovered but for the
    corner two frames running, those points alike in both (_record_alike). Points the marker stands near wait for it
    to move on (recorded tuning game 711: board 1's marker on space 3 for 15 s, within CUBE_SHADOW of one corner
    point of seven, and the other six, changed 30-62 delta E since the cube left "0", read it covered all the
    while)."""
    clear = None if board.cube_corner is None else board.cube_clear[reading.score_marker or 0] & board.cube_corner
    ring, corner = board.ring, board.cube_corner
    # The rest of the ring: is it only the corner that changed?
    if clear is None or reading.occluded or not clear.any() or (
            check.occluded and ring.check(frame, reading.gain, ignore=corner).occluded):
        board.corner_look = None
        return check  # most frames and boards
    board.corner_look, recorded = _record_alike(ring, frame, reading.gain, clear, board.corner_look)
    if not recorded:
        return check
    board.cube_corner = corner & ~clear if (corner & ~clear).any() else None
    return _arm_over_track(board, frame, reading, ring.check(frame, reading.gain)) if check.occluded else check


def _record_floor_side(board: _Board, frame: np.ndarray, reading: BoardReading,
                       check: OcclusionCheck) -> OcclusionCheck:
    """The board's ring check, the floor's side recorded: when the ring flags the board, nothing else does, and
    only points within FLOOR_SHADOW of floor spaces read holding a piece surely (FLOOR_PIECE_SURE) changed, their
    look counts as unchanged too once alike two frames running (_record_alike)."""
    if not check.occluded or reading.occluded:
        board.floor_look = None
        return check  # most frames and boards: the floor's pieces are not even looked at
    occupied = np.array([max(p for name, p in space.items() if name != "empty") >= FLOOR_PIECE_SURE
                         for space in reading.floor], bool)
    near = board.floor_side[occupied].any(axis=0)
    if not near.any() or board.ring.check(frame, reading.gain, ignore=near).occluded:
        board.floor_look = None
        return check
    board.floor_look, recorded = _record_alike(board.ring, frame, reading.gain, near, board.floor_look)
    return _arm_over_track(board, frame, reading, board.ring.check(frame, reading.gain)) if recorded else check


def _arm_over_track(board: _Board, frame: np.ndarray, reading: BoardReading, check: OcclusionCheck) -> OcclusionCheck:
    """The board's ring check, occluded too where SCORE_COVER_SPACES of its score track's doubt (reading.track_doubt)
    lie beside an arc of its ring (TRACK_REACH): where the arm came in."""
    if not reading.track_doubt or check.occluded:
        return check  # most frames and boards
    arcs = board.ring.arc_angles(frame, reading.gain)
    beside = board.beside_track[list(reading.track_doubt)][:, arcs].any(axis=1)
    return replace(check, occluded=True) if np.count_nonzero(beside) >= SCORE_COVER_SPACES else check


def _hold(boards: list[_Board], readings: list[BoardReading], still: list[bool], motion: list[float]) -> None:
    """Each board's tiles as read where it lies at rest, read uncovered by every cue with no tile excused
    (BoardReading.leaning; `still`: nor its margin ring nor glare): only those excuse the band's ground patches under
    them later (board_reader._ground_covered), never tiles read while the board is in doubt."""
    for board, reading, at_rest, m in zip(boards, readings, still, motion):
        if at_rest and not reading.leaning and m <= MOTION_LEVEL:
            board.held = reading.occupancy > 0.5


def board_ring_order(per_edge: int = BOARD_RING_EDGE) -> np.ndarray:
    """board_ring_grid's points in turn round the board: its bottom and left edges run the other way."""
    e = per_edge
    return np.r_[0:2 * e, 3 * e - 1:2 * e - 1:-1, 4 * e - 1:3 * e - 1:-1]


@dataclass
class _Board:
    geometry: BoardGeometry
    spaces: BoardSpaces
    reader: BoardReader
    main: object
    score: object
    ring: RingWatcher
    beside_track: np.ndarray  # (score spaces, ring points in order) bool: the ring within TRACK_REACH of the space
    cube_corner: np.ndarray | None  # ring points (as laid) the cube on "0" shaded at setup, until recorded again
    cube_clear: np.ndarray  # (score spaces, ring points) bool: the corner's points the cube there is CUBE_SHADOW from
    floor_side: np.ndarray  # (floor spaces, ring points as laid) bool: the ring within FLOOR_SHADOW of the space
    # The corner's points the marker was clear of in the previous frame and their look, while it is recorded.
    corner_look: tuple[np.ndarray, np.ndarray] | None = None
    floor_look: tuple[np.ndarray, np.ndarray] | None = None  # ... and the floor side's points beside pieces
    moved: bool = False  # re-aimed since its margin ring was last recorded
    slack: PatchSampler | None = None  # the ring a little inside and outside, while moved (MOVED_RING_SLACK)
    before: np.ndarray | None = None  # the ring's reference before the move (ring_settled's), until confirmed
    trial: bool = False  # the ring recorded at the new pose from one frame only, not yet seen again so
    look: np.ndarray | None = None  # while on trial: the ring's look in the previous frame, if it differed
    quiet_frames: int = 0  # while moved or on trial: frames running it read uncovered with nothing moving over it
    held: np.ndarray | None = None  # its main spaces holding a tile when it last lay at rest read uncovered (_hold)

    def ring_settled(self, frame: np.ndarray, gain: np.ndarray | None, frame_size) -> bool:
        """Whether the margin ring at this (new) pose still looks as recorded: a point counts as unchanged when
        the recorded colour is read within a pixel across the margin (the print's frame line there, sampled a
        fraction of a pixel off, is another colour), and fewer than MOVED_RING_CHANGE of the points changed."""
        if self.before is None:
            return True
        if self.slack is None:
            side = self.geometry.pixels_per_unit()
            grids = [board_ring_grid(self.geometry, self.spaces.score[0], inset=BOARD_RING_INSET + px / side)
                     for px in MOVED_RING_SLACK]
            self.slack = PatchSampler(np.concatenate(grids, axis=1), frame_size)
        lab = to_lab(self.slack.sample(frame)[0], gain)  # (slack, points, 3)
        d = np.sqrt(np.sum((lab - self.before[None]) ** 2, axis=2)).min(axis=0)
        return float(np.mean(d > RING_DELTA_E)) < MOVED_RING_CHANGE


@dataclass
class TableReading:
    boards: list[BoardReading]
    board_checks: list[OcclusionCheck]
    factories: list[RegionCount]
    factory_checks: list[OcclusionCheck]
    centre: RegionCount
    centre_check: OcclusionCheck
    gain: np.ndarray | None
    motion: list[float] = field(default_factory=list)
    washed: list[dict[str, int]] = field(default_factory=list)  # per board, its reader's washed_at_setup


class TableRecognizer:
    def __init__(self, profile: CalibrationProfile, frame_size: tuple[int, int] | None = None) -> None:
        self.profile = profile
        self.frame_size = tuple(frame_size or profile.image_size or (0, 0))
        if self.frame_size[0] <= 0:
            raise FrameError("the calibration has no image_size: pass the frame size")
        self.lens = Lens.from_model(profile.camera)
        learned = profile.learned or {}
        setup = learned.get("setup") or {}
        try:
            self.model = ColourModel.from_json(learned.get("colour_model"))
        except ValueError as err:
            raise FrameError(str(err)) from None
        self.variant = profile.variant or "colored"
        board_setup = setup.get("boards") or [{}] * len(profile.boards)
        self.boards = [self._board(i, b.corners, board_setup[i] if i < len(board_setup) else {})
                       for i, b in enumerate(profile.boards)]
        fac_setup = setup.get("factories") or [{}] * len(profile.factories)
        self.factory_rings = []
        self._displays = [(f.center, f.radius) for f in profile.factories]
        grids, empties, glare = [], [], []
        for j, f in enumerate(profile.factories):
            info = fac_setup[j] if j < len(fac_setup) else {}
            grid, inside = circle_grid(f.center, f.radius, FACTORY_GRID)
            grids.append(grid)
            empties.append(_empty_grid(info, grid.shape[1:3]))
            glare.append(_glare(info, f"setup.factories[{j}]"))
            ring_ref = decode_image(info["ring"]) if info.get("ring") else None
            ring = circle_ring(f.center, f.radius, *FACTORY_RING)
            keep = _display_ring_keep(ring.reshape(-1, 2), j, self._displays, profile.center,
                                      [b.geometry for b in self.boards])
            self.factory_rings.append(RingWatcher(ring, self.frame_size, ring_ref, keep, arcs=True, run=RING_RUN))
        self._factory_ring_group = RingGroup(self.factory_rings, self.frame_size)  # checked together
        # The tile side comes from the set's proportions: learned from a setup frame it strayed by up to 20 %
        # (tuning seeds 0-7 at 720p: regions right 89.4 % learned, 90.9 % from the proportions).
        self.display_grids = np.concatenate(grids)
        self.factories = RegionCounter(self.display_grids, inside, self.frame_size)
        self.rims: RimWatcher | None = None  # the displays' rims, once the bare table is known
        mean_r = float(np.mean([f.radius for f in profile.factories]))
        centre_info = setup.get("center") or {}
        grid, inside = polygon_grid(profile.center, FACTORY_GRID / (2 * mean_r))
        table_lab = np.array(centre_info.get("table_lab") or np.zeros((0, 3)), np.float32).reshape(-1, 3)
        self.centre = RegionCounter(grid, inside, self.frame_size, self.factories.tile_side, table_lab,
                                    allow_marker=True, capacity=CENTRE_CAPACITY)
        centre_empty = _empty_grid(centre_info, grid.shape[1:3])
        # The bare table helps only if every display and the centre were captured: one counter serves them all.
        if centre_empty is not None and empties and all(e is not None for e in empties):
            self._use_empty(np.stack(empties), centre_empty, np.array(glare, np.float32))
        ring = polygon_ring(profile.center, CENTRE_RING)
        keep = _away_from_displays(ring.reshape(-1, 2), self._displays, 1.3)
        ring_ref = decode_image(centre_info["ring"]) if centre_info.get("ring") else None
        self.centre_ring = RingWatcher(ring, self.frame_size, ring_ref, keep)
        # Each ring point's pixel on the centre's grid (its pixels' centres step evenly from the first), padded by
        # the reach: what lies beyond is out of reach of every piece.
        step = grid[0, 0, 1, 0] - grid[0, 0, 0, 0]
        reach = CENTRE_RING_TILE_REACH * self.centre.tile_side
        self._centre_reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(reach) + 1,) * 2)
        pad = round(reach)
        cells = np.round((ring.reshape(-1, 2) - grid[0, 0, 0]) / step).astype(int) + pad
        self._centre_ring_cells = (cells[:, 1], cells[:, 0], ((cells >= 0) & (cells < grid.shape[1] + 2 * pad)).all(1))
        self._previous: list[np.ndarray] | None = None
        self._quiet: list[np.ndarray | None] = [None] * len(self.boards)  # per board, its patches when last quiet
        self._still_covered = [0] * len(self.boards)  # per board, frames running it was read covered but still
        self._waiting_for: dict[int, set[int]] = {}  # table ring (displays', then the centre's) -> moved boards
        # Per display, its ring's look in the last frame it read empty with nothing else on the table covered.
        self._empty_looks: list[np.ndarray | None] = [None] * len(self.factory_rings)
        # Boards get nudged: follow each from its own print when its look was learned at setup.
        self.localiser = None
        if learned.get(LEARNED_KEY):
            try:
                self.localiser = BoardLocaliser(profile)
            except (ValueError, KeyError, TypeError) as err:
                raise FrameError(f"learned.{LEARNED_KEY} is malformed ({err}); capture the setup again") from None

    def _board(self, index: int, corners, info: dict) -> _Board:
        geometry = BoardGeometry(corners, self.lens)
        layout = self.profile.boards[index].effective_layout
        spaces = BoardSpaces.of(layout)
        main, score = board_samplers(geometry, spaces, self.frame_size)
        ref = BoardReference.from_json(info["reference"]) if info.get("reference") else None
        reader = BoardReader(spaces.main, ref.main if ref else None, ref.score if ref else None, main.shape[0])
        ring_ref = decode_image(info["ring"]) if info.get("ring") else None
        ring = RingWatcher(board_ring_grid(geometry, spaces.score[0]), self.frame_size, ring_ref, run=BOARD_RING_RUN,
                           order=board_ring_order())
        floor = [s for s in spaces.main if s.kind == FLOOR]
        return _Board(geometry, spaces, reader, main, score, ring, _beside_track(geometry, spaces, ring),
                      *_cube_corner(geometry, spaces, ring),
                      _near_squares(geometry.to_board(ring.points), floor, FLOOR_SHADOW))

    def use_empty_table(self, frame: np.ndarray,
                        setup: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Learn what lies under the tiles from a frame of the bare table, and with a frame of the dealt table
        (`setup`) the lamp's glare over each display; -> the displays' grids (N, G, G, 3) and the centre's
        (G', G', 3) on the bare table, and the glare (N,) or None, for the profile."""
        self.check_frame(frame)
        displays, centre = self.factories.sampler.sample(frame), self.centre.sampler.sample(frame)[0]
        self._use_empty(displays, centre)
        glare = None
        if setup is not None:
            self.check_frame(setup)
            glare = self.factories.find_glare(self.factories.sample(setup))
            self._use_empty(displays, centre, glare)
        return displays, centre, glare

    def _use_empty(self, displays: np.ndarray, centre: np.ndarray, glare: np.ndarray | None = None) -> None:
        self.factories.set_empty(displays, glare=glare)
        self.rims = RimWatcher(self.display_grids, displays, self.frame_size, self._displays, self._planes(),
                               self.factories.inside[0], self._blind_towards())
        # The centre has no card of its own to measure the light by, nor to bound the lamp's glare by: the displays
        # round it have.
        self.centre.set_empty(centre[None], np.median(self.factories.print_gain, axis=0),
                              displays_glare=float(self.factories.glare.max()))

    def _blind_towards(self) -> list[list[int]]:
        """Per display, the other displays its table ring is not watched towards (NEIGHBOUR_REACH)."""
        return [[k for k, other in enumerate(self._displays)
                 if k != j and not _away_from_displays(ring.points, [other], NEIGHBOUR_REACH).all()]
                for j, ring in enumerate(self.factory_rings)]

    def _planes(self) -> list[BoardGeometry | None]:
        """Per display, the nearest board's geometry: its units are the table's plane (None without boards)."""
        middles = [b.geometry.corners.mean(axis=0) for b in self.boards]
        if not middles:
            return [None] * len(self._displays)
        return [self.boards[int(np.argmin([np.hypot(*(m - np.asarray(c))) for m in middles]))].geometry
                for c, _ in self._displays]

    def set_board_corners(self, index: int, corners) -> None:
        """A board moved (markers or tracking found its new pose): rebuild its sampling grids, keep its reference."""
        info = ((self.profile.learned or {}).get("setup") or {}).get("boards") or []
        old = self.boards[index]
        self.boards[index] = self._board(index, corners, info[index] if index < len(info) else {})
        # Until the ring is recorded again at the new pose (read, once the board reads uncovered), the old one
        # stands in: its colours hold in board coordinates, all but the board's edge and shadow.
        self.boards[index].ring.reference_lab = old.ring.reference_lab
        self.boards[index].moved = True
        self.boards[index].before = old.before if old.moved or old.trial else old.ring.reference_lab
        reach = MOVED_BOARD_REACH * old.geometry.pixels_per_unit()
        for k, ring in enumerate(self._table_rings()):
            near = _near_outlines(ring.points, (old.geometry.corners, self.boards[index].geometry.corners), reach)
            if near.any():
                ring.forget(near)
                self._waiting_for.setdefault(k, set()).add(index)

    def _table_rings(self) -> list[RingWatcher]:
        return [*self.factory_rings, self.centre_ring]

    def _relearn_table_rings(self, frame: np.ndarray, gain: np.ndarray | None, checks: list[OcclusionCheck]) -> None:
        """Table rings that moved boards left waiting are recorded again where they read uncovered and those
        boards have settled (their margin rings recorded at the new pose, nothing over them)."""
        rings = self._table_rings()
        for k, boards in list(self._waiting_for.items()):
            if not checks[k].occluded and not any(self.boards[i].moved for i in boards):
                rings[k].relearn(frame, gain)
                del self._waiting_for[k]

    # ---- per frame ----------------------------------------------------------------------------------------
    def check_frame(self, frame: np.ndarray) -> None:
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise FrameError("the frame must be an 8-bit colour image")
        h, w = frame.shape[:2]
        if (w, h) != self.frame_size:
            raise FrameError(f"the frame is {w}x{h} but the calibration is for {self.frame_size[0]}x{self.frame_size[1]}"
                             " (recalibrate, or scale the calibration)")

    def read(self, frame: np.ndarray) -> TableReading:
        self.check_frame(frame)
        reaimed = set()
        if self.localiser is not None:
            for index, corners in self.localiser.update(frame):
                self.set_board_corners(index, corners)
                reaimed.add(index)
        samples = [b.main.sample(frame) for b in self.boards]
        readings = read_boards([b.reader for b in self.boards], samples, [b.score.sample(frame) for b in self.boards],
                               self.model, [float(b.main.outside.mean()) for b in self.boards],
                               [b.held for b in self.boards])
        for b, r in zip(self.boards, readings):
            if b.moved or b.trial:
                self._settle(b, frame, r)
        # The boards' margin rings are laid alike: checked together, each in its board's light.
        rings = [b.ring for b in self.boards]
        checks = check_rings(rings, np.stack([ring.sample(frame) for ring in rings]), [r.gain for r in readings]) \
            if rings else []
        checks = [_arm_over_track(b, frame, r, c) for b, r, c in zip(self.boards, readings, checks)]
        checks = [_record_floor_side(b, frame, r, _record_cube_corner(b, frame, r, c))
                  for b, r, c in zip(self.boards, readings, checks)]
        gains = [r.gain for r in readings if r.gain is not None]
        visible = [r.gain for r in readings if r.gain is not None and not r.occluded]
        gain = np.median(np.array(visible or gains), axis=0) if gains else None
        labels = self.factories.classify_fast(frame, self.model, gain)  # its pixels' classes: where tiles lie
        factories = self.factories.count_labels(*labels)
        factory_checks = self._factory_ring_group.check(frame, gain)
        if self.rims is not None:
            factory_checks = self.rims.check(frame, gain, factory_checks, labels[0])
        centre_labels = self.centre.classify_fast(frame, self.model, gain)
        centre = self.centre.count_labels(*centre_labels)[0]
        centre_check = self.centre_ring.check(frame, gain)
        if centre_check.occluded and centre.unexplained <= CENTRE_UNEXPLAINED and \
                self.centre.steady_frames[0] >= CENTRE_RING_STEADY_FRAMES:
            centre_check = self.centre_ring.check(frame, gain, self._beside_centre_pieces(centre_labels[0][0]))
        if centre.unexplained > CENTRE_UNEXPLAINED:
            centre_check = replace(centre_check, occluded=True)
        elif centre.unexplained > UNEXPLAINED_FREE:  # most frames: not (the arc is looked for only then)
            if self.centre_ring.arc(frame, gain) > 0:
                centre = _unsure(centre, ARM_BY_THE_CENTRE_CONFIDENCE)
        if self._waiting_for:
            self._relearn_table_rings(frame, gain, [*factory_checks, centre_check])
        quiet = not any(r.occluded or c.occluded for r, c in zip(readings, checks)) and not centre_check.occluded
        self._record_emptied_rings(frame, gain, factories, factory_checks, quiet)
        still = [not (r.occluded or c.occluded or c.glare > GLARE_SHARE) for r, c in zip(readings, checks)]
        motion = self._motion(samples, reaimed, still)
        self._count_quiet(readings, motion)
        _hold(self.boards, readings, still, motion)
        self._realign_still_covered(frame, readings, checks, motion, reaimed)
        return TableReading(readings, checks, factories, factory_checks, centre, centre_check, gain, motion,
                            [b.reader.washed_at_setup for b in self.boards])

    def _beside_centre_pieces(self, label: np.ndarray) -> np.ndarray:
        """(ring points,) bool: the centre's ring points within CENTRE_RING_TILE_REACH of a pixel its counter reads
        as a piece (`label` (G, G), its class per pixel, -1 none)."""
        rows, columns, on_grid = self._centre_ring_cells
        pad = self._centre_reach.shape[0] // 2
        pieces = cv2.copyMakeBorder((label >= 0).view(np.uint8), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
        near = cv2.dilate(pieces, self._centre_reach)
        return on_grid & (near[rows.clip(0, near.shape[0] - 1), columns.clip(0, near.shape[1] - 1)] > 0)

    def _count_quiet(self, readings: list[BoardReading], motion: list[float]) -> None:
        """Per re-aimed board whose margin ring is not yet recorded again: frames running it read uncovered by its
        reader, its patches hardly changed since the frame before and the localiser's points read as then."""
        for i, (board, reading, m) in enumerate(zip(self.boards, readings, motion)):
            quiet = not reading.occluded and m <= MOTION_LEVEL and (self.localiser is None or self.localiser.settled(i))
            board.quiet_frames = board.quiet_frames + 1 if (board.moved or board.trial) and quiet else 0

    def _realign_still_covered(self, frame: np.ndarray, readings: list[BoardReading],
                               checks: list[OcclusionCheck], motion: list[float], reaimed: set[int]) -> None:
        """A board read covered (by its reader or its margin ring) that does not move, STILL_COVERED_FRAMES frames
        running, may have been nudged by a pixel or two: too little for the localiser's sample points to notice,
        enough for the ring and the reader's ground patches. The localiser searches it once, and a new pose
        re-aims it (its ring is then recorded again there, _settle). Recorded tuning game 708: board 1 moved 1.7
        px, its points agreed 0.99 at the old pose, and its ring (12 % of points changed) read it covered for the
        rest of the round. A hand resting on the board hides enough points that no pose is taken. Still means
        the localiser's points too read as in the frame before: a hand crossing a small far board's edge hardly
        moves its patches (recorded tuning game 738, board 2: motion 4-6 while its points changed by a quarter),
        and a search on the frame it left, its shadow still on the board, took a pose 3.5 px off at 0.93."""
        if self.localiser is None:
            return
        for i, (reading, check, m) in enumerate(zip(readings, checks, motion)):
            still = ((reading.occluded or check.occluded) and not reading.out_of_view and m <= MOTION_LEVEL
                     and self.localiser.settled(i))
            self._still_covered[i] = self._still_covered[i] + 1 if still and i not in reaimed else 0
            if self._still_covered[i] == STILL_COVERED_FRAMES:
                corners = self.localiser.realign(i, frame)
                if corners is not None:
                    self.set_board_corners(i, corners)

    def _settle(self, board: _Board, frame: np.ndarray, reading: BoardReading) -> None:
        """A board's edge and shadow fall on other ring points at a new pose (tuning: 6 of 128 changed, leaving a
        nudged board covered for the rest of the game): its ring is recorded where it now lies, in the first frame
        it reads uncovered there. That frame may be blurred (a bumped camera, the hand just leaving; recorded
        games, tuning seed 6: board 0 then read covered in 287 of its 400 frames left), so the record is on trial
        until a frame looks like it; two frames running that look alike but not like it are recorded instead (a
        hand over the ring changes its look from frame to frame)."""
        if reading.occluded or not (board.quiet_frames >= MOVED_QUIET_FRAMES
                                    or board.ring_settled(frame, reading.gain, self.frame_size)):
            board.look = None
            return
        look = board.ring.look(frame, reading.gain)
        if board.moved:
            board.ring.reference_lab, board.moved, board.trial = look, False, True
        elif _alike(look, board.ring.reference_lab) or (board.look is not None and _alike(look, board.look)):
            board.ring.reference_lab = look
            board.trial, board.before, board.slack, look = False, None, None, None
        board.look = look

    def _record_emptied_rings(self, frame: np.ndarray, gain: np.ndarray | None, counts: list[RegionCount],
                              checks: list[OcclusionCheck], quiet: bool) -> None:
        """A display read empty two frames running, nothing over its rim, no board or the centre covered (`quiet`),
        its ring the same in both frames (no arm passing by): its ring's look without the tiles dealt at setup
        (EMPTY_DISPLAY_CONFIDENCE)."""
        for j, (ring, count, check) in enumerate(zip(self.factory_rings, counts, checks)):
            if ring.alternate_lab is not None:
                continue
            if not (quiet and not any(count.counts.values()) and count.confidence >= EMPTY_DISPLAY_CONFIDENCE
                    and check.rim <= RIM_FRACTION and max(check.glare, count.glare) <= GLARE_SHARE):
                self._empty_looks[j] = None
                continue
            look, before = ring.look(frame, gain), self._empty_looks[j]
            self._empty_looks[j] = look
            if before is not None and _alike(look, before):
                ring.alternate_lab = look

    def _motion(self, samples: list[np.ndarray], reaimed: set[int], still: list[bool]) -> list[float]:
        """How much each board's patches moved this frame: their mean absolute change since the previous frame,
        or since the board last lay quiet if that is less; 0 for the first frame and for a board re-aimed this
        frame (its patches lay elsewhere before: the change is the move, which its margin ring and reader judge at
        the new pose). `still`: per board, nothing else (reader, margin ring, glare) sees anything over it.

        The frame after a hand leaves, or after a shaken, blurred frame, differs from the frame before it, not from
        the board as it lay before (a tile laid changes a few patches)."""
        prev, self._previous = self._previous, samples
        motion = [0.0] * len(samples)
        if prev is not None and len(prev) == len(samples):
            for i, (now, before, quiet) in enumerate(zip(samples, prev, self._quiet)):
                if i not in reaimed:
                    change = cv2.norm(now, before, cv2.NORM_L1)
                    if quiet is not None:
                        change = min(change, cv2.norm(now, quiet, cv2.NORM_L1))
                    motion[i] = change / now.size
        for i, m in enumerate(motion):
            if still[i] and m <= MOTION_LEVEL:
                self._quiet[i] = samples[i]
            elif i in reaimed:
                self._quiet[i] = None  # its patches lay elsewhere
        return motion

    def recognize(self, frame: np.ndarray, timestamp: float | None = None) -> dict:
        return build_observation(self.read(frame), self.variant, timestamp)
