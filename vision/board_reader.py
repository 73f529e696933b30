"""One player board: patches -> occupancy -> colour, with probabilities.

Occupancy is a change against the empty-board reference captured at setup: per pixel colour difference in L*a*b*
after the light is normalised on the board's own print. A tile changes its space by more than its colour: bevel
highlights, side faces, a shadow, a small offset, so even a tile on its own printed colour (colored wall) shows.
Each space is read twice: first from its own patch, then again in the light of its board (_context): its
neighbours' first readings and the board's own template of how a tile changes its space. A colored wall's space is
read a third time once the tiles' colours are known: against the board's own tiles of its printed colour
(_Exemplars), which weigh the colours of the tiles in the pattern lines and the floor too; a gray wall's space
(any colour may lie on it) against the nearest of its board's tiles.
Colour is decided only where the rules leave a choice: pattern lines (one colour per line, so the slots vote)
and the floor (5 colours or the first-player marker). Wall spaces are occupied-or-not. Colours are judged in the
light of the board's own print: each space is divided by its empty cream print at setup (after the lamp's glare
is taken off), which undoes the lamp's colour and its fall-off across the table, so one model (PRINT_LIT) fits
every set and every light, with no fit to the factory tiles needed. The glare is a spot: where it shows on the
empty print at setup it is taken off space by space (_spot), and a channel the sensor clipped under it counts
only as a lower bound (_log_likelihood).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, fields

import cv2
import numpy as np

from calibration.colour_model import COLOURS, PRINT_CREAM, PRINT_LIT, TILE_CLASSES, ColourModel
from calibration.geometry import FLOOR, GROUND, PATTERN, WALL, Space
from vision.light import from_lab, light_gain, print_gains, to_lab, to_lab_planes

GROUND_OCCLUDED_DELTA_E = 12.0  # median change of two never-covered ground patches that means "something is over it"
GROUND_ALONE_DELTA_E = 20.0  # the same of one patch alone (seen obliquely, a tile's side face leans over the arrow
# column's patch next to it: up to 19.7 on clean tuning frames, where 45 of 512 boards were flagged by one patch)
# Tiles lean over the band's patches under them too (_ground_covered): two such patches changed, as under three
# tiles on the last pattern line (recorded tuning game 718); more are a hand over the band.
BAND_LEANING_PATCHES = 2
SCORE_DARKENING = 22.0  # L* drop of a score space under the black cube
SCORE_COVER_DELTA_E = 12.0  # median change of a score space, away from the cube, that means "something is over it"
SCORE_COVER_SPACES = 3  # that many such spaces flag the board (clean tuning frames: at most 1)
# As many spaces changed near one another by this much are a doubt: something over the track if an arm crosses the
# board's margin beside them (vision.recognizer.TRACK_REACH); alone, light and a board nudged change them too.
SCORE_DOUBT_DELTA_E = 10.0
# A doubt this wide is a palm over the track whatever the margin ring shows (tuning seed 413, 640x480: fingers over
# board 3's track changed 12 spaces near one another by 10-12 delta E, the ring unchanged where the arm came in:
# read confident 1.0). Recorded tuning games 702, 711 and 718: boards with no hand over them, 7 at most.
SCORE_DOUBT_COVER_SPACES = 10
SCORE_ROW = 20  # scores 1-100 run 20 to a row (BoardLayout.score)
N_COLOURS = len(COLOURS)
GLARE_STEPS = np.arange(0.0, 130.0, 10.0, dtype=np.float32)  # additive glare tried per board, 8-bit units
GLEAM = 0.5  # glossy tiles mirror the lamp more than the print: their extra share of the glare
GLEAMS = (GLEAM, 1.0)  # the shares tried (the glossiest tiles mirror it as much again as the print)
GLOSSY_GLARE = 40.0  # past this much glare the glossier share is tried too (tuning seeds 560-619: 4 boards)
CLIPPED = 245.0  # a space's 8-bit median this bright at setup is (partly) clipped
# A space whose print the sensor clipped at setup (every channel at CLIPPED) and whose middle is this bright in every
# channel now shows the sensor's white whatever lies there: a pale tile and its gleam clip as the print did
# (recorded check game 728, white and yellow tiles under the lamp's spot read empty at 0.99). Its occupancy is no
# surer than WASHED_TRUST either way: on such spaces of the tuning seeds 0-199 and 400-619, 73 of 367 held a tile.
WASHED = 240.0
WASHED_TRUST = 0.8
# A line's slots read as two colours this much likelier (natural log) than as any one colour are reported as read,
# not voted to one: tiles of another colour laid on a line are an illegal placement the tracker must see. Recorded
# tuning game 895: 2 red tiles laid on 3 black ones, the black slots read black at 0.96-0.97 (red 0.001-0.002), the
# red at 1.0; the vote read 5 red, 19 more likely as two colours, and the alert never came.
MIXED_LINE_LOG_ODDS = math.log(1e4)
# A tile's colour under a print clipped at setup is reported no surer than this: tiles read there on the tuning seeds
# 0-199 and 400-619 had the wrong colour in 65 of 283 (8 of them at 0.9 or more; the spot's share, 23 %, as in
# _colour_trust), and a line's vote over such slots was surer still.
CLIPPED_COLOUR_TRUST = 0.77
SPOT_MIN = 8.0  # a cream space this much brighter (8-bit) than the plane of its board's light is in the lamp's spot
GLARE_COST = 0.05  # log-likelihood a unit of glare must buy (no glare unless the tiles ask for it)
# A tile's colour is in doubt where a glare that fits its board's tiles within this many log-likelihood units of
# the best reads it otherwise (_rival_glare): it is then no surer than CLIPPED_COLOUR_TRUST. The margin grows by
# GLARE_RIVAL_PER_TILE for each tile the rival reads otherwise: a gleaming tile fits the wrong class better by
# about as much every time (recorded tuning game 749: black tiles under the lamp, read as white with no glare,
# fitted white 2-4 units better each than black at their true glare).
GLARE_RIVAL_MARGIN = 10.0
GLARE_RIVAL_PER_TILE = 2.0
WALL_GLARE_COST = 0.1  # and a unit of a gray wall's glare away from its board's (_wall_glares; tuning seeds gray
# 0-99, space errors 0 / 0.1 / 0.2: 122 / 114 / 116; before the gray walls' exemplar colours 0 / 0.1 / 0.3 / 1:
# 127 / 120 / 121 / 126)
# A board's glare across it (_glare_slope): the slopes tried along u and v (8-bit per board width), the changes of
# its amount tried at the best, and the log-likelihood a unit of slope must buy. Tuning seeds 0-199 and 400-619
# colored and gray, space errors (916 without slopes): every slope at the amount, costs 0.01 / 0.02 / 0.05 / 0.1 /
# 0.2: 824 / 835 / 844 / 862 / 890; slopes up to 180: 834; every slope with every change of the amount up to 10:
# 817, up to 20: 803 (+0.2-0.4 ms a frame on glared tables); the changes at the best slope only: 829, and the
# slopes again at the changed amount (kept): 816.
GLARE_SLOPES = np.stack(np.meshgrid(*[np.float32([-120, -60, 0, 60, 120])] * 2), axis=-1).reshape(-1, 2)
GLARE_SLOPE_AMOUNTS = np.float32([-20, -10, 0, 10, 20])
GLARE_SLOPE_COST = 0.02
DISTINCT_PRINTS = 6.0  # delta E between the wall's diagonals that means "colored side" (nearest pair: ~12)
CLASS_BGR = from_lab(PRINT_LIT.means)  # (6, 3) each tile class's mean colour in the print's light, BGR
MARKER_INDEX = TILE_CLASSES.index("first_player")
CLASS_WHITENING = np.concatenate(list(PRINT_LIT.whiten), axis=1)  # (3, 18) each class's whitening, side by side
CLASS_WHITE = (PRINT_LIT.means[:, None] @ PRINT_LIT.whiten)[:, 0].ravel()  # (18,) the class means, whitened
CLASS_SUMS = np.repeat(np.eye(len(TILE_CLASSES), dtype=np.float32), 3, axis=0)  # (18, 6) sums each class's three
# Log-trust per unit of: best class log-likelihood below -7, under the spot, a clipped channel, glare / 100; fitted
# (least log loss of the true colour, trust at most 1) on the tiles of tuning seeds 0-48, 400-509 and 560-619.
TRUST_WEIGHTS = np.array([-0.24, -0.838, -1.527, -0.88], np.float32)
COLOUR_EXEMPLAR_WEIGHT = 1.0  # log-likelihood per unit of _Exemplars.colour_distance (tuning seeds 0-199, 400-619:
# 0 / 0.5 / 1 / 1.25 / 1.5 / 2 -> space errors 771 / - / 731 / - / 737 / -; 0-199 alone 264 / 252 / 244 / - / 238)
CLEAR_TILE = 0.9  # a first reading this sure is a tile the board's template of a tile's change is taken from
TEMPLATE_TILES = 3  # fewer clear tiles on a board make no template
TOP_QUANTILE = 70.0  # a tile's colour: this per-channel quantile of its space's middle, not the median (seen
# obliquely a tile's top face shifts off its space and its dark side face fills much of the middle: white floor
# tiles read black; tuning seeds 0-63, 64 of 141 space errors at tilts of 30-45 degrees)


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
    centre_lab: np.ndarray  # (57, 3) median Lab of each space's middle (print-referenced when there is a reference)
    gain: np.ndarray | None  # (3,) BGR gains from this frame's light to the setup light, measured on the ground
    track_doubt: tuple[int, ...] = ()  # score spaces changed near one another past SCORE_DOUBT_DELTA_E, if flagged by none
    # The ground cue saw a change that tiles the board held at rest explain (_ground_covered's `under_tile`): read
    # uncovered, but no frame to learn which tiles it holds from.
    leaning: bool = False


class BoardReader:
    """Reads one board from its sampled patches; holds the per-calibration constants (reference in Lab)."""

    def __init__(self, spaces: list[Space], reference_main: np.ndarray | None, reference_score: np.ndarray | None,
                 patch: int) -> None:
        self.spaces = spaces
        self.kind = np.array([s.kind for s in spaces])
        self.uv = np.array([(s.u, s.v) for s in spaces])
        self.ground = np.flatnonzero(self.kind == GROUND)
        self.ground_beside = _ground_beside(spaces, self.ground)
        self.ground_under = _ground_beside(spaces, self.ground, across=True)
        self.pattern_index = {s.index: i for i, s in enumerate(spaces) if s.kind == PATTERN}
        self.wall_index = {s.index: i for i, s in enumerate(spaces) if s.kind == WALL}
        self.floor_index = [i for i, s in enumerate(spaces) if s.kind == FLOOR]
        # Pattern lines fill from the wall side (slot 0), the floor from its left (space 0), without gaps: their
        # spaces in that order, a row each (-1 past a row's end).
        rows = [[self.pattern_index[(r, j)] for j in range(r + 1)] for r in range(1, 5)] + [self.floor_index]
        self.fill_order = np.array([row + [-1] * (len(self.floor_index) - len(row)) for row in rows])
        # Every pattern-line slot, line by line (slot 0 rightmost): its space, its line and its place in the line.
        self.pattern_slots = np.array([self.pattern_index[(r, j)] for r in range(5) for j in range(r + 1)])
        self.slot_line = np.repeat(np.arange(5), np.arange(1, 6))
        self.slot_place = np.concatenate([np.arange(r + 1) for r in range(5)])
        self.wall_grid = np.array([[self.wall_index[(r, c)] for c in range(5)] for r in range(5)])
        self.decided = np.flatnonzero(np.isin(self.kind, (PATTERN, WALL, FLOOR)))
        self.neighbours = _neighbours(spaces)
        self.patch = patch
        self.cream = np.flatnonzero((self.kind == PATTERN) | (self.kind == FLOOR))
        floor = (self.kind == FLOOR)[:, None]
        self.cream_target = np.where(floor, from_lab(PRINT_CREAM["floor"]), from_lab(PRINT_CREAM["pattern"]))
        lo, hi = int(round(patch * 0.22)), int(round(patch * 0.78))
        self.middle = (slice(lo, hi), slice(lo, hi))  # the middle of the printed space (patches reach past it)
        self.reference_bgr = reference_main
        if reference_main is not None:
            self.ref_ground = np.median(reference_main[self.ground].reshape(-1, 3).astype(np.float32), axis=0)
            smooth = _smooth(reference_main)
            self.ref_stats = ReferenceStats.of(to_lab(smooth))
            self.ref_mid = _middle_median(smooth, self.middle)
            self.clipped_print = self.ref_mid.min(axis=1) >= CLIPPED
            self._gains: dict[tuple[float, bool], np.ndarray] = {}
            self.spot = self._spot()
            print_lab = to_lab(self.ref_mid * self._print_gain(0.0))
            self.ref_tile_likeness = _tile_likeness(print_lab)
            self.occupancy_weights, self.context_weights, self.print_colour = self._occupancy_weights(print_lab)
            self.print_inner = _print_inner(smooth, np.arange(len(smooth)), self._print_gain(0.0))
        else:
            self.ref_ground = None
            self.ref_stats = None
            self.clipped_print = np.zeros(len(spaces), bool)
        # How many of the board's pattern-line, wall and floor spaces the lamp's reflection clipped at setup (their
        # print at CLIPPED in every channel): there a pale tile, or any tile gleaming as much, clips as the print did
        # and looks like an empty space (_washed_out). A setup constant, as the reader is.
        self.washed_at_setup = {name: int((self.clipped_print & (self.kind == kind)).sum())
                                for name, kind in (("pattern_lines", PATTERN), ("wall", WALL), ("floor", FLOOR))}
        if reference_score is not None:
            self.score_ref_planes = to_lab_planes(reference_score[None], np.ones((1, 3), np.float32))[:, 0]
            base = np.median(self.score_ref_planes[0].reshape(len(reference_score), -1), axis=1)
            # At setup the cube sits on "0": take that space's baseline from the rest of the (cream) track.
            base[0] = np.percentile(base[1:], 75)
            self.score_base = base
        else:
            self.score_base = None
            self.score_ref_planes = None

    def _spot(self) -> np.ndarray:
        """(N,) the lamp's spot on the empty board at setup, an additive grey (8-bit) over each cream space: how
        much brighter its print was than the light over the board explains. The light (the lamp's fall-off, its
        pool, the vignette) changes little across a board: a plane of the cream spaces' log gains, fitted to the
        darker half of them and again to those it explains. A spot is a board across or less and can clip the
        print; there dividing by the print takes the spot for light and leaves tiles pale (blue reads white)."""
        cream = self.cream
        uv = np.array([(self.spaces[i].u, self.spaces[i].v, 1.0) for i in cream])
        target = self.cream_target[cream]  # the pattern lines' cream and the floor's differ
        log_gain = np.log(self.ref_mid[cream] + 1.0) - np.log(target)
        lit = log_gain.mean(axis=1) <= np.median(log_gain.mean(axis=1))
        for _ in range(2):
            coef, *_ = np.linalg.lstsq(uv[lit], log_gain[lit], rcond=None)
            excess = _grey(self.ref_mid[cream] + 1.0 - target * np.exp(uv @ coef), self.ref_mid[cream])
            lit = excess < SPOT_MIN
        spot = np.zeros(len(self.spaces), np.float32)
        spot[cream] = np.where(lit, 0.0, excess)
        return spot

    def _print_gain(self, glare: float, spot: bool = False) -> np.ndarray:
        """Per-space BGR gains from the setup light, less `glare` (and with `spot`, less the lamp's spot seen on the
        empty print, see _spot), to the light the print was measured under."""
        if (glare, spot) not in self._gains:
            cream = np.zeros(len(self.spaces), bool)
            cream[self.cream] = True
            uv = np.array([(s.u, s.v) for s in self.spaces], np.float64)
            ref = self.ref_mid - glare - (self.spot[:, None] if spot else 0.0)
            self._gains[glare, spot] = print_gains(np.maximum(ref, 5.0), self.cream_target, cream, uv)
        return self._gains[glare, spot]

    def _occupancy_weights(self, print_lab: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(N, F+1) weights per space and (N, K+1) weights of its context; wall spaces by their printed colour when
        the wall is the colored side (its diagonals print 5 clearly different colours; the gray side prints one),
        else the weights for any print (the gray side). And (N,) the colour printed under each space, COLOURS
        index (-1: none, or the gray side)."""
        weights = np.tile(CREAM_WEIGHTS, (len(self.spaces), 1))
        context = np.tile(CONTEXT_CREAM_WEIGHTS, (len(self.spaces), 1))
        context[self.kind == GROUND] = CONTEXT_NONE
        wall = np.flatnonzero(self.kind == WALL)
        colour = np.array([(self.spaces[i].index[1] - self.spaces[i].index[0]) % 5 for i in wall])
        prints = np.array([np.median(print_lab[wall[colour == c]], axis=0) for c in range(N_COLOURS)])
        apart = np.linalg.norm(prints[:, None] - prints[None], axis=2) + np.eye(N_COLOURS) * 1e9
        colored = apart.min() > DISTINCT_PRINTS
        weights[wall] = WALL_WEIGHTS[colour] if colored else ANY_WALL_WEIGHTS
        context[wall] = CONTEXT_WALL_WEIGHTS[colour] if colored else CONTEXT_GRAY_WALL_WEIGHTS
        printed = -np.ones(len(self.spaces), int)
        printed[wall] = colour if colored else -1
        return weights, context, printed

    def occupancy_inputs(self, main: np.ndarray) -> np.ndarray:
        """(N, F) what the occupancy weights take for these patches: for fitting them on training renders."""
        return _look((self,), [main]).features

    def context_inputs(self, main: np.ndarray) -> np.ndarray:
        """(N, K) what the context weights take (see _context): for fitting them on training renders."""
        return _look((self,), [main]).context

    @property
    def has_reference(self) -> bool:
        return self.ref_stats is not None

    def read(self, main: np.ndarray, score: np.ndarray, model: ColourModel, outside: float) -> BoardReading:
        """This board alone (a table's boards are read together by read_boards)."""
        return read_boards([self], [main], [score], model, [outside])[0]

    def _read_unreferenced(self, main: np.ndarray, track: ScoreTrack, model: ColourModel,
                           outside: float) -> BoardReading:
        """Without a reference cream spaces are told by colour (a tile is far from the board's cream); wall spaces
        cannot be told at all on the colored side, so they stay undecided (0.5) and say so."""
        n = len(self.spaces)
        lab = _planes(to_lab(_smooth(main)))
        mid = lab[:, :, self.middle[0], self.middle[1]].transpose(1, 0, 2, 3)
        centre_lab = _quantiles(mid.reshape(n * 3, -1), (50,))[0].reshape(n, 3)
        colour_probs = model.probabilities(centre_lab)
        cream = _cream_estimate(centre_lab, self.kind)
        dist = np.sqrt(np.sum((centre_lab - cream) ** 2, axis=1))
        occupancy = _sigmoid((dist - 18.0) / 4.0)
        colour_probs = _one_marker(colour_probs, occupancy, np.array([self.floor_index]))
        occupancy[self.kind == WALL] = 0.5
        ground_change = np.zeros(len(self.ground), np.float32)
        return self._readings(occupancy[None], colour_probs[None], centre_lab[None], ground_change[None], None,
                              [track], [outside])[0]

    def _readings(self, occupancy: np.ndarray, colour_probs: np.ndarray, centre_lab: np.ndarray,
                  ground_change: np.ndarray, gains: np.ndarray | None, tracks: list[ScoreTrack], outsides: list[float],
                  filled: np.ndarray | None = None, unsure: np.ndarray | None = None,
                  clipped: np.ndarray | None = None, held: np.ndarray | None = None) -> list[BoardReading]:
        """The readings of boards laid out as this one from their spaces' occupancy (B, N) and colours (B, N, 6)
        and their score `tracks`; pattern lines and floors by `filled` (B, N), their occupancy in fill order
        (_in_fill_order), when given, reported no surer than WASHED_TRUST at the `unsure` (B, N) spaces
        (_washed_out; a line's colour vote still weighs them as read), and their colours no surer than
        CLIPPED_COLOUR_TRUST where `clipped` (B, N): the print clipped at setup, or the board's glare is in doubt
        (_colours_doubted). The band's ground patches under a tile read now that the board `held` (B, N) when it
        last lay at rest read uncovered are excused as _ground_covered says. The boards go through each step
        together: numpy's cost is mostly per call."""
        # A tile's side face and shadow lean over the ground patch beside it (the arrow column between a pattern
        # line and the wall): that patch is no witness of a hand.
        beside = self._tile_by(self.ground_beside, occupancy > 0.5)
        covered = _ground_covered(ground_change, beside)
        leaning = np.zeros(len(covered), bool)
        if held is not None and covered.any():  # most frames: no board flagged, no band patch to excuse
            # Only tiles read at rest before: a hand over the board makes the reader see tiles where it lies (recorded
            # tuning game 761: six on board 2's floor line), which would excuse the very patches it covers.
            under = self._tile_by(self.ground_under, (occupancy > 0.5) & held)
            leaning = covered & ~_ground_covered(ground_change, beside, under)
            covered &= ~leaning

        rows = occupancy if filled is None else filled
        shown = rows if unsure is None else _no_surer(rows, unsure)
        clipped = np.zeros(rows.shape, bool) if clipped is None else clipped
        patterns = self._pattern(rows, colour_probs, shown, clipped)
        floors = self._floor(shown, colour_probs, clipped)
        walls = occupancy[:, self.wall_grid].tolist()

        # Confidence of a board: the least certain decision it contains.
        decided = occupancy[:, self.decided]
        sure = np.min(np.maximum(decided, 1 - decided), axis=1).tolist() if decided.shape[1] else [0.0] * len(rows)
        readings = []
        for k, (track, outside) in enumerate(zip(tracks, outsides)):
            out_of_view = outside > 0.02
            occluded = bool(covered[k]) or track.covered or out_of_view
            confidence = 0.3 if occluded else sure[k]
            if not self.has_reference:
                confidence = min(confidence, 0.5)
            readings.append(BoardReading(occluded, out_of_view, confidence, occupancy[k], colour_probs[k], patterns[k],
                                         floors[k], walls[k], track.marker, track.confidence, ground_change[k],
                                         centre_lab[k], None if gains is None else gains[k],
                                         () if occluded else track.doubt, bool(leaning[k])))
        return readings

    @staticmethod
    def _tile_by(near: np.ndarray, tiles: np.ndarray) -> np.ndarray:
        """(B, G) whether any of the spaces `near` (G, k; -1: none) each ground patch holds a tile (`tiles` (B, N))."""
        return np.where(near >= 0, tiles[:, np.maximum(near, 0)], False).any(axis=2)

    # ---- pieces of the reading --------------------------------------------------------------------------
    def _floor(self, occupancy: np.ndarray, colour_probs: np.ndarray,
               clipped: np.ndarray) -> list[list[dict[str, float]]]:
        """Per board (occupancy (B, N), colours (B, N, 6)), per floor space: {colour, "first_player" or "empty": p};
        colours doubted over a print `clipped` (B, N) at setup (_doubted)."""
        occ = occupancy[:, self.floor_index]
        p = colour_probs[:, self.floor_index, :len(TILE_CLASSES)]
        p = _doubted(p / np.maximum(p.sum(axis=2, keepdims=True), 1e-9), clipped[:, self.floor_index])
        return [[dict(zip(TILE_CLASSES, values), empty=empty) for values, empty in zip(board, free)]
                for board, free in zip((p * occ[..., None]).tolist(), (1 - occ).tolist())]

    def _pattern(self, occupancy: np.ndarray, colour_probs: np.ndarray, shown: np.ndarray,
                 clipped: np.ndarray) -> list[list[list[dict[str, float]]]]:
        """Per board (occupancy (B, N), colours (B, N, 6)), per pattern line, per slot (rightmost first): {colour or
        "empty": p}; all five lines at once. The slots vote by their `occupancy`, and report `shown` (B, N); their
        colours are doubted over a print `clipped` (B, N) at setup (_doubted)."""
        occ = occupancy[:, self.pattern_slots]
        probs = colour_probs[:, self.pattern_slots, :N_COLOURS] + 1e-6
        probs /= probs.sum(axis=2, keepdims=True)
        # A line holds one colour: the occupied slots vote (sum of log-probabilities, weighted by occupancy).
        weighted = occ[..., None] * np.log(probs)
        votes = np.zeros((len(occ), 5, 5, N_COLOURS), weighted.dtype)  # line, slot (none past its length), colour
        votes[:, self.slot_line, self.slot_place] = weighted
        one_colour = votes.sum(axis=2)  # (B, line, colour): log-likelihood of the line all that colour
        vote = np.exp(one_colour - one_colour.max(axis=2, keepdims=True))
        vote /= vote.sum(axis=2, keepdims=True)
        line_vote = vote[:, self.slot_line]
        in_line = self.slot_line[:, None] == np.arange(5)
        # Keep a slot's own reading when it clearly disagrees with the line, alone or with others of its line:
        # that is an illegal placement the tracker must see, not noise to vote away.
        as_read = (occ * np.log(probs.max(axis=2))) @ in_line  # (B, line): each slot its likeliest colour
        two_colours = (as_read - one_colour.max(axis=2) > MIXED_LINE_LOG_ODDS)[:, self.slot_line]
        own = ((probs.max(axis=2) > 0.995) | two_colours) & (probs.argmax(axis=2) != line_vote.argmax(axis=2))
        reported = shown[:, self.pattern_slots]
        # A slot over a clipped print is doubted, and with it every slot its line's vote speaks for.
        clipped = clipped[:, self.pattern_slots]
        doubt = ((clipped * occ) @ in_line)[:, self.slot_line] > 0.5
        mixed = _doubted(np.where(own[..., None], probs, line_vote), clipped | (doubt & ~own))
        mixed *= reported[..., None]
        boards = [[dict(zip(COLOURS, values), empty=1.0 - p_occ) for values, p_occ in zip(board, board_occ)]
                  for board, board_occ in zip(mixed.tolist(), reported.tolist())]
        return [[slots[r * (r + 1) // 2:(r + 1) * (r + 2) // 2] for r in range(5)] for slots in boards]


def _doubted(probs: np.ndarray, clipped: np.ndarray) -> np.ndarray:
    """Colour probabilities (..., K) no surer than CLIPPED_COLOUR_TRUST where the print under the space clipped at
    setup (`clipped` (...)): mixed with even odds, their order kept (decisions do not change)."""
    k = probs.shape[-1]
    mix = np.where(clipped, (1.0 - CLIPPED_COLOUR_TRUST) * k / (k - 1), 0.0)[..., None]
    return probs * (1.0 - mix) + mix / k


def _colours_doubted(stack: _Stack, glare_doubted: np.ndarray, boards: int) -> np.ndarray:
    """(B, N) bool: where a tile's colour is doubted (_doubted): over a print clipped at setup, and where a rival
    glare reads it otherwise (`glare_doubted` (B*N,), _rival_glare)."""
    return (stack.clipped_print | glare_doubted).reshape(boards, -1)


def _one_marker(probs: np.ndarray, occupancy: np.ndarray, floors: np.ndarray) -> np.ndarray:
    """Class probabilities (N, 6) given that a floor, its spaces `floors` (B, F), holds one first-player marker at
    most (there is one in the game): a space's chance of the marker becomes that of the marker there and nowhere
    else on its floor, over every way to place one or none, the spaces' occupancy (N,) weighing their readings;
    the other classes keep their odds. Under a lamp's glare pale tiles can each look like the marker (tuning
    seeds: 77 floor tiles read as the marker, on floors with up to 5 of them)."""
    p = probs[floors]  # (B, F, 6)
    occ = occupancy[floors]
    held = p[..., MARKER_INDEX]
    marker = np.clip(held * occ, 0.0, 1.0 - 1e-6)
    odds = marker / (1.0 - marker)  # the marker here against not here
    mine = np.minimum(odds / (1.0 + odds.sum(axis=1, keepdims=True)) / np.maximum(occ, 1e-6), held)
    rest = 1.0 - held
    # A space sure of the marker alone says nothing of the colours: those share what the marker gave up evenly.
    others = np.where((rest > 1e-9)[..., None], p / np.maximum(rest, 1e-9)[..., None], 1.0 / (p.shape[2] - 1))
    out = probs.copy()
    out[floors] = others * (1.0 - mine)[..., None]
    out[floors, MARKER_INDEX] = mine
    return out


def _no_marker_in_lines(occupancy: np.ndarray, colour_probs: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """(N,) occupancy with each pattern-line space's (`lines` (N,) bool) weighed by its colour (N, 6). The
    first-player marker never lies in a pattern line, and its class is the print's cream a little darker (PRINT_LIT:
    L* 77, the print 83): a space there that reads more like the marker than like a tile reads as its own empty
    print, and its odds of a tile fall by as much. Not the other way: an empty space shaded by its neighbour's side
    face reads as some tile's colour too. Recorded tuning game 718: a small far board, nudged and re-aimed 0.56 px
    off, read the line beside a new row of black tiles occupied (0.99; their side faces lean over its spaces), its
    colour the marker's (p 0.9999), and the line's vote over the tiles' colours made that yellow at 0.99."""
    marker = np.clip(colour_probs[:, MARKER_INDEX], 1e-6, 1.0 - 1e-6)
    tile = occupancy * np.minimum((1.0 - marker) / marker, 1.0)
    return np.where(lines, tile / (tile + 1.0 - occupancy), occupancy)


def _washed_out(now: np.ndarray) -> np.ndarray:
    """(N,) bool: a space's middle (`now` (N, 3), 8-bit as the sensor gave it) at least WASHED in every channel.
    Where its print clipped at setup too, a white or yellow tile, gleaming, clips as the print did, and the change
    that tells a tile is lost; a darker tile (black or blue under the spot) still shows."""
    return now.min(axis=1) >= WASHED


def _no_surer(occupancy: np.ndarray, washed: np.ndarray) -> np.ndarray:
    """Occupancy no surer than WASHED_TRUST either way at the `washed` spaces (_washed_out)."""
    return np.where(washed, np.clip(occupancy, 1.0 - WASHED_TRUST, WASHED_TRUST), occupancy)


def _ground_covered(ground_change: np.ndarray, beside_tile: np.ndarray,
                    under_tile: np.ndarray | None = None) -> np.ndarray:
    """Is something over the board, by its never-covered ground patches' change (..., G); those `beside_tile`
    (..., G) do not count (recorded gray game 33: the arrow column's patches changed by over 12 beside a tile in
    5,038 of 17,330 board-frames without a hand, never beside none; the board was flagged covered in 1,641).
    Those `under_tile` (a tile above or below, across the band between the last pattern line and wall row and the
    floor line) count only when a patch no tile explains changed too: a tile leans over them as well (recorded
    tuning game 718: red tiles on pattern line 5 changed the band's patches under them by 14-22 delta E for 20 s,
    the board read covered with no hand in over 100 frames), but a hand over the band changes them and more
    (tuning seed 53: a hand over the wall's corner changed a band patch under a wall tile and one beside the floor
    line, no other cue saw it), or a stretch of the band: more than BAND_LEANING_PATCHES of them (seed 625: a hand
    over the band under a full last wall row changed three past GROUND_OCCLUDED_DELTA_E). Per board (...)."""
    change = np.where(beside_tile, 0.0, ground_change)
    covered = _ground_changed(change)
    if under_tile is None:
        return covered
    unexplained = np.where(under_tile, 0.0, change)
    leaning = np.count_nonzero((change > GROUND_OCCLUDED_DELTA_E) & under_tile, axis=-1) <= BAND_LEANING_PATCHES
    return _ground_changed(unexplained) | (covered & (np.any(unexplained > GROUND_OCCLUDED_DELTA_E, axis=-1)
                                                      | ~leaning))


def _ground_changed(change: np.ndarray) -> np.ndarray:
    """Whether the ground patches' change (..., G) says something is over the board: two past
    GROUND_OCCLUDED_DELTA_E or one past GROUND_ALONE_DELTA_E."""
    return (np.count_nonzero(change > GROUND_OCCLUDED_DELTA_E, axis=-1) >= 2) | np.any(change > GROUND_ALONE_DELTA_E,
                                                                                        axis=-1)


def _ground_beside(spaces: list[Space], ground: np.ndarray, across: bool = False) -> np.ndarray:
    """(G, 4) for each ground patch the pattern-line, wall and floor spaces beside it (-1: none): left and right,
    or with `across` above and below, where their spans across overlap."""
    out = -np.ones((len(ground), 4), int)
    for g, i in enumerate(ground):
        near = []
        for j, other in enumerate(spaces):
            if other.kind not in (PATTERN, WALL, FLOOR):
                continue
            reach = spaces[i].side + other.side
            du, dv = abs(other.u - spaces[i].u), abs(other.v - spaces[i].v)
            along, off = (dv, du) if across else (du, dv)
            if along < 0.75 * reach and off < (0.5 if across else 0.25) * reach:
                near.append(j)
        out[g, :len(near[:4])] = near[:4]
    return out


@dataclass(frozen=True)
class ScoreTrack:
    """What a board's score track shows: something over it (a hand, a sleeve), and where the score marker stands."""

    covered: bool
    marker: int | None
    confidence: float
    doubt: tuple[int, ...] = ()  # spaces changed near one another past SCORE_DOUBT_DELTA_E, too few or too little to flag


def _score_tracks(readers: list[BoardReader], scores: list[np.ndarray], gains: np.ndarray) -> list[ScoreTrack]:
    """Every board's score track (`scores` its patches, `gains` (B, 3) to its setup light), the boards together:
    at these sizes numpy's cost is mostly per call.

    Covered: a hand or sleeve over the board's far edge changes a run of track spaces even where its colour is
    close to the print's (skin over a tan board: 2 of 128 margin-ring points changed at 640x480); the cube
    changes only its own space and its shadow its neighbours, and space 0 it left at setup. The marker: the
    space darkest against its setup baseline, clearly so."""
    lab = to_lab_planes(np.stack(scores), gains)  # (3, B, S, p, p)
    boards, spaces = lab.shape[1:3]
    med = _quantiles(lab[0].reshape(boards * spaces, -1), (50,))[0].reshape(boards, spaces)
    base = np.array([r.score_base if r.score_base is not None else np.full(spaces, np.percentile(m, 75))
                     for r, m in zip(readers, med)])
    dark = base - med
    order = np.argsort(dark, axis=1)
    best, second = np.take_along_axis(dark, order[:, -2:], axis=1).T[::-1]
    conf = _sigmoid((best - SCORE_DARKENING) / 4.0) * _sigmoid((best - second - 10.0) / 3.0)
    covered = np.zeros(boards, bool)
    doubts: list[tuple[int, ...]] = [()] * boards
    known, reference = _score_references(tuple(readers))
    if len(known):
        delta = (lab if len(known) == boards else lab[:, known]) - reference
        change = _quantiles((delta[0] * delta[0] + delta[1] * delta[1] + delta[2] * delta[2]).reshape(
            len(known) * spaces, -1), (50,))[0].reshape(len(known), spaces)  # squared delta E
        cube = np.argmax(change[:, 1:], axis=1) + 1
        free = ~_score_neighbours(cube[:, None], np.arange(spaces))
        covered[known] = _track_covered((change > SCORE_COVER_DELTA_E ** 2) & free)
        for k, doubt in zip(known, _track_doubts((change > SCORE_DOUBT_DELTA_E ** 2) & free)):
            doubts[k] = doubt
            covered[k] |= _palm_over_track(doubt)
    return [ScoreTrack(bool(c), int(o[-1]) if b >= SCORE_DARKENING else None, float(f) if b >= SCORE_DARKENING else 0.0,
                       () if c else doubt) for c, o, b, f, doubt in zip(covered, order, best, conf, doubts)]


@functools.lru_cache(maxsize=8)
def _score_references(readers: tuple[BoardReader, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The boards with a score track reference and those references' L*a*b* planes (3, K, S, p, p)."""
    known = [k for k, r in enumerate(readers) if r.score_ref_planes is not None]
    planes = [readers[k].score_ref_planes for k in known]
    return np.array(known, int), np.stack(planes, axis=1) if planes else np.zeros(0, np.float32)


def _track_covered(away: np.ndarray) -> np.ndarray:
    """Per board, is something over its score track, by its spaces changed away from the cube (K, S): a hand or
    sleeve changes spaces near one another, noise and a slightly different light single ones here and there
    (recorded tuning game 702: board 2 flagged in 210 frames with nothing over it by spaces such as 20, 95 and 100
    at 12-14 delta E). Only a changed space with another within two along its row or one across counts (a hand's
    shadow can change every other space, the print's tones alternating: tuning seed 37, spaces 11, 13, 15, 17)."""
    many = np.count_nonzero(away, axis=1) >= SCORE_COVER_SPACES
    if not many.any():
        return many  # most frames: too few changed spaces to look closer
    return np.count_nonzero(_paired(away), axis=1) >= SCORE_COVER_SPACES


def _track_doubts(away: np.ndarray) -> list[tuple[int, ...]]:
    """Per board, its spaces changed away from the cube (K, S) that lie near another, if SCORE_COVER_SPACES or more
    (as _track_covered counts them), else ()."""
    doubts: list[tuple[int, ...]] = [()] * len(away)
    for k in np.flatnonzero(np.count_nonzero(away, axis=1) >= SCORE_COVER_SPACES):  # most frames: none
        paired = np.flatnonzero(_paired(away[k:k + 1])[0])
        if len(paired) >= SCORE_COVER_SPACES:
            doubts[k] = tuple(paired.tolist())
    return doubts


def _palm_over_track(doubt: tuple[int, ...]) -> bool:
    """Whether a track's doubt is wide enough to be a hand alone (SCORE_DOUBT_COVER_SPACES)."""
    return len(doubt) >= SCORE_DOUBT_COVER_SPACES


def _paired(away: np.ndarray) -> np.ndarray:
    """The changed spaces (K, S) with another changed one near (_near_spaces)."""
    return away & ((away.astype(np.float32) @ _near_spaces(away.shape[1])) > 0)


@functools.lru_cache(maxsize=2)
def _near_spaces(spaces: int) -> np.ndarray:
    """(S, S) 1 where two score spaces lie within two along a row and one across (_track_covered), else 0."""
    s = np.arange(spaces)
    col, row = (s - 1) % SCORE_ROW, (s - 1) // SCORE_ROW
    near = (np.abs(col[:, None] - col) <= 2) & (np.abs(row[:, None] - row) <= 1) & (s[:, None] != s)
    return near.astype(np.float32)


def _score_neighbours(cube: np.ndarray, spaces: np.ndarray) -> np.ndarray:
    """Which of these score spaces are space 0 or the cube's space or one of its 8 neighbours on the track."""
    col, row = (spaces - 1) % SCORE_ROW, (spaces - 1) // SCORE_ROW
    near = (np.abs(col - (cube - 1) % SCORE_ROW) <= 1) & (np.abs(row - (cube - 1) // SCORE_ROW) <= 1)
    return near | (spaces == 0)


def read_boards(readers: list[BoardReader], mains: list[np.ndarray], scores: list[np.ndarray], model: ColourModel,
                outsides: list[float], held: list[np.ndarray | None] | None = None) -> list[BoardReading]:
    """The readings of a table's boards. The spaces of every board with a reference go through each step together:
    at these sizes numpy's cost is mostly per call, not per pixel; a board without a reference is read alone.
    `held`: per board, the main spaces (N,) bool that held a tile when it last lay at rest read uncovered, or None
    (BoardReader._readings)."""
    readings: list[BoardReading | None] = [None] * len(readers)
    referenced = [i for i, r in enumerate(readers) if r.has_reference]
    look = _look(tuple(readers[i] for i in referenced), [mains[i] for i in referenced]) if referenced else None
    gains = np.ones((len(readers), 3), np.float32)  # no reference, no light to bring the track to
    if referenced:
        gains[referenced] = look.gains
    tracks = _score_tracks(readers, scores, gains)
    for i, reader in enumerate(readers):
        if not reader.has_reference:
            readings[i] = reader._read_unreferenced(mains[i], tracks[i], model, outsides[i])
    if referenced:
        boards = tuple(readers[i] for i in referenced)
        occupancy = _logistic(look.context, _stack(boards).context_weights)
        stack = _stack(boards)
        centre_lab, log_likelihood, glare, glare_doubted = _print_lit(boards, stack, look, occupancy)
        spot = stack.spot
        logits = log_likelihood * _colour_trust(log_likelihood, spot, look.clipped, glare)[:, None]
        colour_probs = _softmax(logits)
        # The board's clear tiles, now that their colours are known, show what a tile of each colour looks like
        # here: the colored walls' spaces are read a third time against them (the pattern lines' fill and the
        # glare above weigh only cream spaces), and the colours of the cream spaces' and gray walls' tiles are
        # weighed against them.
        exemplars = _Exemplars.of(look, occupancy, colour_probs, stack)
        if stack.again.any():
            occupancy[stack.again] = _logistic(np.column_stack([look.context[stack.again], exemplars.likeness(stack)]),
                                               stack.wall_weights[stack.again])
        if stack.gray_again.any():
            occupancy[stack.gray_again] = _logistic(np.column_stack([look.context[stack.gray_again],
                                                                     exemplars.gray_likeness(stack)]),
                                                    GRAY_WALL_AGAIN_WEIGHTS)
        # Under the lamp's spot a tile looks as much like where it lies as its colour: the board's others are no
        # exemplar there.
        logits[:, :N_COLOURS] += (COLOUR_EXEMPLAR_WEIGHT * (spot == 0))[:, None] * exemplars.colour_distance(occupancy,
                                                                                                             stack)
        colour_probs = _one_marker(_softmax(logits), occupancy, stack.floors)
        occupancy = _no_marker_in_lines(occupancy, colour_probs, stack.lines)
        b = len(boards)
        occupancy = occupancy.reshape(b, -1)  # board after board: each its own row
        filled = _in_fill_order(occupancy, boards[0].fill_order)
        washed = (stack.clipped_print & _washed_out(look.setup_lit / look.space_gains)).reshape(b, -1)
        read = boards[0]._readings(_no_surer(occupancy, washed), colour_probs.reshape(b, -1, colour_probs.shape[1]),
                                   centre_lab.reshape(b, -1, 3), look.ground_change, look.gains,
                                   [tracks[i] for i in referenced], [outsides[i] for i in referenced],
                                   filled, washed, _colours_doubted(stack, glare_doubted, b),
                                   _held([held[i] for i in referenced] if held else [], occupancy.shape))
        for i, reading in zip(referenced, read):
            readings[i] = reading
    return readings


def _held(held: list[np.ndarray | None], shape: tuple[int, int]) -> np.ndarray | None:
    """(B, N) the boards' tiles held at rest (read_boards' `held`; none where not known), or None if none is."""
    if all(h is None for h in held):
        return None
    return np.stack([np.zeros(shape[1], bool) if h is None else h for h in held])


def _print_lit(boards: tuple[BoardReader, ...], stack: _Stack, look: _Look,
               occupancy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(B*N, 3) Lab of each space's middle in the print's light: its BGR brought to the setup light less its
    board's glare (_glares), then each space to the light that makes its own empty print look as measured; most
    boards have no glare (look.plain). With it, (B*N, 6) the class log-likelihoods, a clipped channel counting
    only as a lower bound (_log_likelihood) on boards where a cream space's middle is clipped, and (B*N,) each
    space's board's glare (8-bit, the tiles' share included), and (B*N,) bool: the tiles whose colour a rival glare
    reads otherwise (_glares)."""
    n = len(boards[0].spaces)
    centre_lab = look.plain.copy()
    lit = look.setup_lit * stack.print_gain
    glare = np.zeros(len(stack.spot))
    glared = []
    glares, doubted = _glares(stack, look, occupancy, n)
    gains = [reader._print_gain(amount, bool(reader.spot.any())) for reader, (amount, *_) in zip(boards, glares)]
    walls = _wall_glares(look, np.flatnonzero(stack.gray_again & (occupancy > 0.5)), np.concatenate(gains), n,
                         glares)
    for k, (reader, (amount, gleam, cream_amount, slope), gain) in enumerate(zip(boards, glares, gains)):
        spot = bool(reader.spot.any())
        glare[k * n:(k + 1) * n] = amount * (1 + gleam)
        r = slice(k * n, (k + 1) * n)
        wall_amount = walls[k]
        if amount or spot or wall_amount:
            here = np.full(n, amount, np.float32)
            here[stack.gray_again[r]] = wall_amount
            if slope.any():
                # The glare across the board at its cream spaces, whose tiles it was fitted on (the wall lies
                # beyond them, and the gray side's tiles were read worse with it): each one's gain is its
                # print's less its own glare.
                cream = reader.cream
                here[cream] = np.clip(cream_amount + stack.uv[r][cream] @ slope, 0.0, None)
                gain = gain.copy()
                gain[cream] = reader.cream_target[cream] / (np.maximum(
                    reader.ref_mid[cream] - (here + reader.spot)[cream, None], 5.0) + 1.0)
            lit[r] = (look.setup_lit[r] - (here + reader.spot)[:, None] * (1 + gleam)) * gain
            glared.append(np.arange(k * n, (k + 1) * n))
    lit = np.clip(lit, 0.0, 255.0)
    if glared:
        rows = np.concatenate(glared)
        centre_lab[rows] = to_lab(lit[rows])
    log_likelihood = _class_log_likelihood(centre_lab)
    # A clipped channel is a lower bound on the boards where a cream space's middle clipped (the lamp's spot).
    by_board = (look.clipped.any(axis=1) & stack.cream).reshape(len(boards), n).any(axis=1)
    raised = np.flatnonzero(look.clipped.any(axis=1) & np.repeat(by_board, n))
    if len(raised):
        log_likelihood[raised] = _log_likelihood(lit[raised].astype(np.float32), look.clipped[raised])
    return centre_lab, log_likelihood, glare, doubted


def _wall_glares(look: _Look, rows: np.ndarray, gains: np.ndarray, n: int,
                 glares: list[tuple[float, float, float, np.ndarray]]) -> list[float]:
    """Each board's glare over its gray wall's tiles (`rows`, board after board; `gains` (B*N, 3) each space's
    to the print's light), fitted on them as _glares fits the board's on its cream spaces' tiles, with the
    board's gleam; the board's own glare where its wall holds none (or is the colored side). The lamp's
    reflection can lie over the wall more than over the cream spaces: read with the board's glare, such a gray
    wall read its black tiles white and its blue ones white or black. But a wall's few tiles can also be
    explained by too much glare (white read black, black blue): a glare away from the board's must buy its
    distance too (WALL_GLARE_COST). The boards' tiles are tried together."""
    amounts = [amount for amount, *_ in glares]
    if not len(rows):
        return amounts
    board = rows // n
    gleam = np.array([gleam for _, gleam, *_ in glares], np.float32)[board]
    steps = GLARE_STEPS[:, None, None] * (1 + gleam)[:, None]
    lit = np.clip((look.setup_lit[rows] - steps) * gains[rows], 0.0, 255.0).astype(np.float32)
    fits = np.maximum(_log_likelihood(lit, look.clipped[rows]).max(axis=-1), -30.0)  # (steps, tiles)
    starts = np.flatnonzero(np.diff(board, prepend=-1))  # each board's first tile
    for k, fit in zip(board[starts], np.add.reduceat(fits, starts, axis=1).T):
        cost = GLARE_COST * GLARE_STEPS + WALL_GLARE_COST * np.abs(GLARE_STEPS - amounts[k])
        amounts[k] = float(GLARE_STEPS[int(np.argmax(fit - cost))])
    return amounts


def _glares(stack: _Stack, look: _Look, occupancy: np.ndarray,
            n: int) -> tuple[list[tuple[float, float, float, np.ndarray]], np.ndarray]:
    """Each board's lamp reflection as an additive grey (8-bit, setup light) besides its spot (see _spot), and
    the tiles' extra share of it (their gleam): the amounts that best explain its occupied cream spaces as tiles.
    It whitens print and tiles alike, so without it dividing by the print leaves tiles pale (blue reads white,
    black grey); glossy tiles gleam more than the print, the glossiest as much again. The boards' tiles are
    tried together, each board's fit summed over its own. Then, at a board's cream spaces, its glare at their
    middle and its slope across them (_glare_slope). And (B*N,) bool: the tiles whose colour a rival glare reads
    otherwise (_rival_glare)."""
    tiles = stack.cream_rows[occupancy[stack.cream_rows] > 0.5]  # board after board
    ends = np.searchsorted(tiles, np.arange(len(stack.ref_ground) + 1) * n)
    best = [(0.0, GLEAMS[0])] * len(stack.ref_ground)
    best_fit = np.full(len(best), -np.inf)
    doubted = np.zeros(len(stack.spot), bool)
    todo = np.flatnonzero(ends[1:] > ends[:-1])
    for gleam in GLEAMS:
        if not len(todo):
            break
        rows = np.concatenate([tiles[ends[k]:ends[k + 1]] for k in todo])
        steps = GLARE_STEPS[:, None, None] + stack.spot[rows, None]
        gain = stack.cream_target[rows] / (np.maximum(stack.ref_mid[rows] - steps, 5.0) + 1.0)
        lit = np.clip((look.setup_lit[rows] - steps * (1 + gleam)) * gain, 0.0, 255.0).astype(np.float32)
        log_likelihood = _log_likelihood(lit, look.clipped[rows])
        fits = np.maximum(log_likelihood.max(axis=-1), -30.0)  # (steps, tiles)
        classes = log_likelihood.argmax(axis=-1)
        start = 0
        for k in todo:
            count = ends[k + 1] - ends[k]
            fit = fits[:, start:start + count].sum(axis=1)
            fit -= GLARE_COST * GLARE_STEPS
            i = int(np.argmax(fit))
            if fit[i] > best_fit[k]:
                best_fit[k], best[k] = fit[i], (float(GLARE_STEPS[i]), gleam)
                doubted[tiles[ends[k]:ends[k + 1]]] = _rival_glare(fit, classes[:, start:start + count], i)
            start += count
        todo = np.array([k for k in todo if best[k][0] >= GLOSSY_GLARE], int)  # only a strong glare shows gloss
    return [(amount, gleam, *(_glare_slope(stack, look, tiles[ends[k]:ends[k + 1]], amount, gleam, best_fit[k])
                              if amount > 0 else (amount, np.zeros(2, np.float32)))) for k, (amount, gleam) in enumerate(best)], doubted


def _rival_glare(fit: np.ndarray, classes: np.ndarray, best: int) -> np.ndarray:
    """(tiles,) bool: the tiles of a board whose colour is in doubt: read otherwise (`classes` (steps, tiles)) at a
    rival glare, one that fits them (`fit` (steps,)) within GLARE_RIVAL_MARGIN of the best (index `best`). A white
    tile seen bluish (a bright set on a warm board under a warm lamp) reads white with no glare and blue with
    some: recorded tuning game 738, board 2's white tiles flipped white <-> blue frame by frame, each time at 1.0,
    as its glare fit flipped between 0 and 40 within a few log-likelihood units. The margin grows with the tiles the
    rival reads otherwise (GLARE_RIVAL_PER_TILE): those tiles' own fits are what is in question, and the class
    model's error on them is the same tile after tile, so more of them make the best glare no surer."""
    otherwise = classes != classes[best]
    rivals = fit[best] - fit < GLARE_RIVAL_MARGIN + GLARE_RIVAL_PER_TILE * otherwise.sum(axis=1)
    return (otherwise & rivals[:, None]).any(axis=0)


def _glare_slope(stack: _Stack, look: _Look, rows: np.ndarray, amount: float, gleam: float,
                 flat: float) -> tuple[float, np.ndarray]:
    """A board's glare at its cream spaces' mean place and (2,) how it changes across the board (8-bit per board
    width, along u and v), given the one `amount` that fits its tiles (`rows`) best with log-likelihood `flat`.
    The lamp's reflection is a spot that fades across a board: one amount over-corrects the tiles far from it
    (white reads black) and under-corrects those near it (black reads white; most colour errors left on the
    tuning seeds were on boards with a glare). The slopes are tried at that amount, then other amounts at the
    best slope, then the slopes again at a better amount; a slope is kept where it explains the tiles better than
    one amount by more than its cost."""
    def fits(amounts: np.ndarray, slopes: np.ndarray) -> np.ndarray:
        here = np.clip(amounts[:, None] + slopes @ stack.uv[rows].T, 0.0, None)[..., None] + stack.spot[rows, None]
        gain = stack.cream_target[rows] / (np.maximum(stack.ref_mid[rows] - here, 5.0) + 1.0)
        lit = np.clip((look.setup_lit[rows] - here * (1 + gleam)) * gain, 0.0, 255.0).astype(np.float32)
        fit = np.maximum(_log_likelihood(lit, look.clipped[rows]).max(axis=-1), -30.0).sum(axis=1)
        return fit - GLARE_COST * amounts - GLARE_SLOPE_COST * np.abs(slopes).sum(axis=1)

    slope = GLARE_SLOPES[int(np.argmax(fits(np.full(len(GLARE_SLOPES), amount, np.float32), GLARE_SLOPES)))]
    if not slope.any():
        return amount, slope
    amounts = np.maximum(amount + GLARE_SLOPE_AMOUNTS, 0.0)
    fit = fits(amounts, np.tile(slope, (len(amounts), 1)))
    i = int(np.argmax(fit))
    if amounts[i] != amount:  # the slopes again at the amount that fits better
        again = fits(np.full(len(GLARE_SLOPES), amounts[i], np.float32), GLARE_SLOPES)
        j = int(np.argmax(again))
        if again[j] > fit[i] and GLARE_SLOPES[j].any():
            slope, fit[i] = GLARE_SLOPES[j], again[j]
    return (float(amounts[i]), slope) if fit[i] > flat else (amount, np.zeros(2, np.float32))


@dataclass(frozen=True)
class _Stack:
    """The per-space constants of several boards (each with a reference), board after board."""

    ref: ReferenceStats
    ground: np.ndarray  # (B, G) each board's ground spaces, as rows of the stack
    ref_ground: np.ndarray  # (B, 3)
    print_gain: np.ndarray  # (B*N, 3) each space's gain from the setup light to the print's, no glare taken off
    ref_mid: np.ndarray  # (B*N, 3) each space's middle at setup, BGR
    spot: np.ndarray  # (B*N,) the lamp's spot at setup (BoardReader._spot)
    clipped_print: np.ndarray  # (B*N,) bool: the print clipped at setup in every channel (CLIPPED)
    cream: np.ndarray  # (B*N,) bool: a pattern-line or floor space
    cream_rows: np.ndarray  # (C,) the rows of those
    lines: np.ndarray  # (B*N,) bool: a pattern-line space
    cream_target: np.ndarray  # (B*N, 3) their print's BGR as measured (BoardReader.cream_target)
    ref_tile_likeness: np.ndarray  # (B*N,)
    weights: np.ndarray  # (B*N, F+1) occupancy weights
    context_weights: np.ndarray  # (B*N, K+1)
    neighbours: np.ndarray  # (B*N, 4) rows of each space's neighbours (see _neighbours), -1 for none
    decided: np.ndarray  # (B*N,) bool: a pattern-line, wall or floor space
    inner_mask: np.ndarray  # (P*P,) the mean over the printed space itself (_inner)
    printed: np.ndarray  # (B*N, 5) one-hot: the colour printed under a colored wall's space (none elsewhere)
    again: np.ndarray  # (B*N,) bool: a colored wall's space, read again once the tiles' colours are known
    wall_weights: np.ndarray  # (B*N, K+3) the weights of that third reading (see _Exemplars.likeness)
    print_walls: np.ndarray  # (W, M*3) the colored walls' spaces' BGR at setup in the print's light (_print_inner)
    gray_again: np.ndarray  # (B*N,) bool: a gray wall's space, read again once the tiles' colours are known
    print_grays: np.ndarray  # (G, M*3) those spaces' BGR at setup in the print's light
    floors: np.ndarray  # (B, F) the rows of each board's floor spaces
    uv: np.ndarray  # (B*N, 2) each space's place on its board, less the mean place of its board's cream spaces
    exemplar_rows: np.ndarray  # (U,) the rows of the cream spaces and the walls' spaces, in order
    exemplar_board: np.ndarray  # (U, B) bool: the board of each of those rows
    exemplar_cream: np.ndarray  # (U, 1) bool: a cream space
    exemplar_read: np.ndarray  # (U, 1) bool: a cream space or a gray wall's space (a tile's colour is read there)
    exemplar_printed: np.ndarray  # (U, 5) bool: the colour printed under a colored wall's space
    exemplar_group: np.ndarray  # (W,) the colored walls' spaces' boards and printed colours, as board * 5 + colour
    exemplar_colour: np.ndarray  # (W,) their printed colours
    exemplar_walls: np.ndarray  # (W,) where the colored walls' spaces are among stack.exemplar_rows
    exemplar_coloured: np.ndarray  # (C,) where the cream spaces and the gray walls' spaces (a tile's colour is read
    # there) are among them
    exemplar_grays: np.ndarray  # (G,) where the gray walls' spaces are among them
    exemplar_first_group: np.ndarray  # (U,) each row's board * 5


@functools.lru_cache(maxsize=8)
def _stack(readers: tuple[BoardReader, ...]) -> _Stack:
    """Built once per set of readers (every board lists its spaces in the same order, board_spaces')."""
    n = len(readers[0].spaces)
    return _Stack(ReferenceStats.joined([r.ref_stats for r in readers]),
                  np.stack([r.ground + k * n for k, r in enumerate(readers)]),
                  np.stack([r.ref_ground for r in readers]),
                  np.concatenate([r._print_gain(0.0) for r in readers]),
                  np.concatenate([r.ref_mid for r in readers]),
                  np.concatenate([r.spot for r in readers]),
                  np.concatenate([r.clipped_print for r in readers]),
                  np.concatenate([np.isin(r.kind, (PATTERN, FLOOR)) for r in readers]),
                  np.concatenate([r.cream + k * n for k, r in enumerate(readers)]),
                  np.concatenate([r.kind == PATTERN for r in readers]),
                  np.concatenate([r.cream_target for r in readers]),
                  np.concatenate([r.ref_tile_likeness for r in readers]),
                  np.concatenate([r.occupancy_weights for r in readers]),
                  np.concatenate([r.context_weights for r in readers]),
                  np.concatenate([np.where(r.neighbours >= 0, r.neighbours + k * n, -1) for k, r in enumerate(readers)]),
                  np.concatenate([np.isin(r.kind, (PATTERN, WALL, FLOOR)) for r in readers]),
                  _inner_mask(readers[0].patch),
                  np.concatenate([r.print_colour[:, None] == np.arange(N_COLOURS) for r in readers]).astype(np.float32),
                  np.concatenate([r.print_colour >= 0 for r in readers]),
                  np.concatenate([WALL_AGAIN_WEIGHTS[np.maximum(r.print_colour, 0)] for r in readers]),
                  _rows_flat(np.concatenate([r.print_inner[r.print_colour >= 0] for r in readers])),
                  np.concatenate([(r.kind == WALL) & (r.print_colour < 0) for r in readers]),
                  _rows_flat(np.concatenate([r.print_inner[(r.kind == WALL) & (r.print_colour < 0)] for r in readers])),
                  np.array([np.array(r.floor_index) + k * n for k, r in enumerate(readers)]),
                  np.concatenate([r.uv - r.uv[r.cream].mean(axis=0) for r in readers]).astype(np.float32),
                  *_exemplar_rows(readers))


def _rows_flat(a: np.ndarray) -> np.ndarray:
    """(R, M, K) -> (R, M*K), also for R = 0 (gray walls have no colored print, an empty board no tile to compare:
    reshape(0, -1) is ambiguous)."""
    return a.reshape(a.shape[0], a.shape[1] * a.shape[2])


def _exemplar_rows(readers: tuple[BoardReader, ...]) -> tuple[np.ndarray, ...]:
    """_Stack's exemplar_rows to exemplar_first_group (see _Exemplars)."""
    n = len(readers[0].spaces)
    cream = np.concatenate([np.isin(r.kind, (PATTERN, FLOOR)) for r in readers])
    colour = np.concatenate([r.print_colour for r in readers])
    gray = np.concatenate([(r.kind == WALL) & (r.print_colour < 0) for r in readers])
    used = np.flatnonzero(cream | (colour >= 0) | gray)
    board, colour = used // n, colour[used]
    wall = colour >= 0
    return (used, board[:, None] == np.arange(len(readers)), cream[used, None], (cream | gray)[used, None],
            colour[:, None] == np.arange(N_COLOURS),
            board[wall] * N_COLOURS + colour[wall], colour[wall], np.flatnonzero(wall),
            np.flatnonzero(cream[used] | gray[used]), np.flatnonzero(gray[used]), board * N_COLOURS)


@dataclass
class _Look:
    """What several boards' patches show this frame, their spaces stacked board after board."""

    gains: np.ndarray  # (B, 3) BGR gains to the setup light
    features: np.ndarray  # (B*N, F) occupancy features
    context: np.ndarray  # (B*N, K) the second look, with the first's occupancy (see _context)
    ground_change: np.ndarray  # (B, G)
    setup_lit: np.ndarray  # (B*N, 3) BGR of each space's middle (TOP_QUANTILE) in the setup light, for colours
    clipped: np.ndarray  # (B*N, 3) bool: that middle clipped (the sensor's white) in that channel
    plain: np.ndarray  # (B*N, 3) its Lab in the print's light, no glare taken off
    smooth: np.ndarray  # (B*N, P, P, 3) the patches, smoothed (_smooth)
    space_gains: np.ndarray  # (B*N, 3) BGR gains to the setup light


def _look(readers: tuple[BoardReader, ...], mains: list[np.ndarray]) -> _Look:
    stack = _stack(readers)
    boards, n = len(mains), len(mains[0])
    gains = light_gain(_channel_medians([m[readers[0].ground] for m in mains]), stack.ref_ground)
    smooth = np.empty((boards, *mains[0].shape), np.uint8)
    for m, out in zip(mains, smooth):
        _smooth(m, out)
    lab = to_lab_planes(smooth, gains).reshape(3, boards * n, *smooth.shape[2:4])
    smooth = smooth.reshape(boards * n, *smooth.shape[2:])
    median, top = _middle_quantiles(smooth, readers[0].middle, (50, TOP_QUANTILE))
    space_gains = np.repeat(gains, n, axis=0)
    feats, ground_change, delta, strips = occupancy_features(lab, stack.ground, stack.ref)
    # How much like a tile each space's middle looks in the print's light, against the empty print and as it is:
    # a tile is bolder than the print of its own colour.
    likeness = _tile_likeness(to_lab(np.clip(median * space_gains * stack.print_gain, 0.0, 255.0)))
    features = np.column_stack([feats, likeness - stack.ref_tile_likeness, likeness])
    context = _context(delta, strips, _logistic(features, stack.weights), stack, boards)
    setup_lit = top * space_gains
    return _Look(gains, features, context, ground_change, setup_lit, top >= CLIPPED,
                 to_lab(np.clip(setup_lit * stack.print_gain, 0.0, 255.0)), smooth, space_gains)


def _context(delta: np.ndarray, strips: np.ndarray, first: np.ndarray, stack: _Stack, boards: int) -> np.ndarray:
    """(B*N, K) a space's change read again in the light of its board, given every space's first reading `first`
    (B*N,) from its own patch. `delta` is the L*a*b* change (3, B*N, P, P) against the empty boards, `strips`
    (B*N, 4) the mean L* change of each side's border strip / 10 (_border_strips).

    A neighbour's tile darkens the side of an empty space next to it (its shadow, its side face seen obliquely):
    that darkening is set apart from darkening beside empty neighbours. And every tile on a board changes its
    space in the same way, set by where the lamp and the camera are (which bevel edge is lit, which side face and
    shadow show): the mean change over the board's clear tiles is a template, and a tile on its own printed colour,
    which changes its space little, still changes it in that shape (tuning seeds: most wall errors were yellow
    and black tiles on their own print, and empty spaces among tiles). Its mean colour changes little, but alike
    on every board of the table: the mean change of the clear tiles on each printed colour is a second template."""
    n, p = delta.shape[1], delta.shape[2]
    # Sums as products with masks: numpy's reductions over a patch's short rows cost several times more.
    total = (delta.reshape(3 * n, -1) @ np.ones(p * p, np.float32)).reshape(3, boards, -1)  # per channel
    has = stack.neighbours >= 0
    beside = np.where(has, first[np.maximum(stack.neighbours, 0)], 0.0)  # neighbours' occupancy by side
    # A space's change as a shape: less its mean per channel, to unit length (L* alone, and L*a*b*). Templates
    # are centred, so a space's raw change dotted with one is its centred change's.
    flat = delta.reshape(3, boards, n // boards, p * p)
    energy = np.maximum(np.einsum("cbnm,cbnm->cbn", flat, flat) - total * total / (p * p), 0.0)
    lum_norm = np.sqrt(energy[0]) + 1e-3  # (B, N/B)
    lab_norm = np.sqrt(energy.sum(axis=0)) + 1e-3
    clear = ((first > CLEAR_TILE) & stack.decided).reshape(boards, -1)
    lum = (clear / lum_norm)[:, None] @ flat[0]  # (B, 1, M): the sum of the clear tiles' unit shapes
    lab = (clear / lab_norm)[None, :, None] @ flat  # (3, B, 1, M)
    lum -= lum.mean(axis=2, keepdims=True)
    lab -= lab.mean(axis=3, keepdims=True)
    made = clear.sum(axis=1) >= TEMPLATE_TILES  # boards with a template
    lum *= (made / (np.sqrt(np.sum(lum * lum, axis=(1, 2))) + 1e-6))[:, None, None]
    lab *= (made / (np.sqrt(np.sum(lab * lab, axis=(0, 2, 3))) + 1e-6))[None, :, None, None]
    like_lum = ((flat[0] @ lum.transpose(0, 2, 1))[..., 0] / lum_norm).ravel()
    like_lab = ((flat @ lab.transpose(0, 1, 3, 2))[..., 0].sum(axis=0) / lab_norm).ravel()
    # A tile on its own print changes the space's mean colour little, but in the same way on every board of the
    # table (the same set under the same lamp: a matte yellow tile is a little less red than its print): the mean
    # change of the clear tiles on each printed colour, and each space's mean change measured along it.
    mean = (delta.reshape(3 * n, -1) @ stack.inner_mask).reshape(3, n).T  # (N, 3)
    on_print = (first > CLEAR_TILE)[:, None] * stack.printed  # (N, 5)
    counts = on_print.sum(axis=0)
    shift = (on_print.T @ mean) / np.maximum(counts, 1.0)[:, None]  # (5, 3) per printed colour
    shift *= ((counts >= 2) / np.maximum(np.sum(shift * shift, axis=1), 1e-6))[:, None]  # along it, in its units
    along = np.sum((mean @ shift.T) * stack.printed, axis=1)
    known = stack.printed @ (counts >= 2).astype(np.float32)
    return np.column_stack([
        beside.sum(axis=1),
        (beside * strips).sum(axis=1),
        ((1 - beside) * has * strips).sum(axis=1),
        np.where(beside < 0.5, strips, 0.0).min(axis=1),
        np.log(first + 1e-4) - np.log(1 - first + 1e-4),
        like_lum,
        like_lab,
        along,
        known,
    ]).astype(np.float32)


@dataclass
class _Exemplars:
    """What a tile of each colour looks like on each board this frame, from the board's own clear tiles: those of
    that colour in the pattern lines, the floor and a gray wall (their colours are known by then) and its clear
    colored wall tiles on that print (a gray wall's tiles lie on its print under the wall's glare, as the wall
    tiles read against them do). A tile on its own print changes its space little (most wall errors were matte
    tiles missed on their own print), and under a lamp's glare the colour model confuses white and blue, black
    and blue; but the board shows what such a tile looks like under this lamp, from this side. The patches are
    compared in the print's light (_print_inner), by their mean absolute BGR difference."""

    cur: np.ndarray  # (U, M) the patches of stack.exemplar_rows
    member: np.ndarray  # (U, 5) float: an exemplar of that colour (on its board)
    sums: np.ndarray  # (B*5, M) the members' patches summed per board and colour (board * 5 + colour)
    counts: np.ndarray  # (B*5,)
    wall_sums: np.ndarray  # (B*5, M) and (B*5,) the same of the members on the walls alone
    wall_counts: np.ndarray

    @staticmethod
    def of(look: _Look, occupancy: np.ndarray, colour_probs: np.ndarray, stack: _Stack) -> _Exemplars:
        used = stack.exemplar_rows
        member = (stack.exemplar_read & (colour_probs[used, :N_COLOURS] > CLEAR_TILE)) | stack.exemplar_printed
        member = (member & (occupancy[used] > CLEAR_TILE)[:, None]).astype(np.float32)  # (U, 5)
        # The patches of the walls and of the cream spaces holding a tile; empty cream spaces are never compared.
        need = np.flatnonzero(~stack.exemplar_cream[:, 0] | (occupancy[used] > 0.5))
        rows = used[need]
        cur = np.zeros((len(used), stack.print_walls.shape[1]), np.float32)
        cur[need] = _rows_flat(_print_inner(look.smooth, rows, look.space_gains[rows] * stack.print_gain[rows]))
        group = _rows_flat(stack.exemplar_board[:, :, None] * member[:, None, :])
        on_wall = group * ~stack.exemplar_cream
        return _Exemplars(cur, member, group.T @ cur, group.sum(axis=0), on_wall.T @ cur, on_wall.sum(axis=0))

    def _excluding(self, rows: np.ndarray, groups: np.ndarray, colours: np.ndarray,
                   on_wall: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The exemplars (R, K, M) of these groups (R, K) for these rows of stack.exemplar_rows, each row left out
        of its own (K colours `colours` each), and how many tiles each is the mean of (R, K); with `on_wall`, of
        the walls' tiles alone (rows on a wall)."""
        sums, counts = (self.wall_sums, self.wall_counts) if on_wall else (self.sums, self.counts)
        own = self.member[rows[:, None], colours]  # (R, K)
        count = counts[groups] - own
        exemplar = (sums[groups] - own[..., None] * self.cur[rows, None]) / np.maximum(count, 1.0)[..., None]
        return exemplar, count

    def likeness(self, stack: _Stack) -> np.ndarray:
        """(W, 2) for each colored wall's space (stack.again): how much more it looks like its board's tile of its
        printed colour than like its own empty print, log((to print + 1) / (to exemplar + 1)), and whether there
        was such a tile to compare with. The exemplar is the nearer of two: the board's tiles of that colour, and
        its wall's tiles on that print alone (a tile seen blurred takes on what lies around it, on the wall its
        print, in the pattern lines and floor the cream: a tile on its own print looked more like that print than
        like its colour's tiles there)."""
        walls = stack.exemplar_walls
        groups, colours = stack.exemplar_group[:, None], stack.exemplar_colour[:, None]
        exemplar, count = self._excluding(walls, groups, colours)
        on_print, on_wall = self._excluding(walls, groups, colours, on_wall=True)
        wall = self.cur[walls]
        to_print = np.abs(wall - stack.print_walls).mean(axis=1)
        to_tile = np.abs(wall - exemplar[:, 0]).mean(axis=1)
        to_tile = np.where(on_wall[:, 0] > 0, np.minimum(to_tile, np.abs(wall - on_print[:, 0]).mean(axis=1)), to_tile)
        have = count[:, 0] > 0
        return np.column_stack([np.where(have, np.log((to_print + 1.0) / (to_tile + 1.0)), 0.0), have])

    def gray_likeness(self, stack: _Stack) -> np.ndarray:
        """(G, 2) for each gray wall's space (stack.gray_again): how much more it looks like the nearest of its
        board's tiles, one colour each (the space left out of its own), than like its own empty print (any colour
        may lie on the gray side), as likeness does, and whether there was a tile to compare with."""
        rows = stack.exemplar_grays
        groups = stack.exemplar_first_group[rows, None] + np.arange(N_COLOURS)
        exemplar, count = self._excluding(rows, groups, np.arange(N_COLOURS)[None])
        to_tile = np.where(count > 0, np.abs(self.cur[rows, None] - exemplar).mean(axis=2), np.inf).min(axis=1)
        to_print = np.abs(self.cur[rows] - stack.print_grays).mean(axis=1)
        have = (count > 0).any(axis=1)
        return np.column_stack([np.where(have, np.log((to_print + 1.0) / (np.where(have, to_tile, 0.0) + 1.0)), 0.0),
                                have])

    def colour_distance(self, occupancy: np.ndarray, stack: _Stack) -> np.ndarray:
        """(B*N, 5) for each occupied cream space and gray wall's space (a gray wall's tiles are of any colour, and
        under a lamp's reflection the colour model read its black tiles blue, its white ones black): how much farther
        (-log(1 + mean difference)) its patch is from its board's tile of each colour than from the nearest; 0 for
        the nearest and where the board shows no tile of that colour."""
        out = np.zeros((len(occupancy), N_COLOURS), np.float32)
        tiles = stack.exemplar_coloured[occupancy[stack.exemplar_rows[stack.exemplar_coloured]] > 0.5]
        if not len(tiles):
            return out
        groups = stack.exemplar_first_group[tiles, None] + np.arange(N_COLOURS)
        exemplar, count = self._excluding(tiles, groups, np.arange(N_COLOURS)[None])
        near = -np.log1p(np.abs(self.cur[tiles, None] - exemplar).mean(axis=2))  # (C, 5)
        have = count > 0
        best = np.where(have, near, -np.inf).max(axis=1, keepdims=True)
        out[stack.exemplar_rows[tiles]] = np.where(have, near - np.where(np.isfinite(best), best, 0.0), 0.0)
        return out


def _print_inner(smooth: np.ndarray, rows: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """(R, M, 3) float BGR of the printed space (_inner) of these rows of smoothed patches (N, P, P, 3) in the
    print's light: times each row's gain (R, 3) from their light to the print's. Every other pixel across and
    down: the patches are smoothed, and a quarter of the pixels cost a quarter of the time."""
    span = _inner_span(smooth.shape[1], step=2)
    inner = smooth[rows, span, span]
    inner = inner.reshape(len(rows), inner.shape[1] * inner.shape[2], 3).astype(np.float32)  # also for 0 rows
    inner *= gain[:, None, :].astype(np.float32)
    return inner


def _inner_mask(p: int) -> np.ndarray:
    """(P*P,) weights that take the mean over a patch's printed space (_inner)."""
    span = _inner_span(p)
    mask = np.zeros((p, p), np.float32)
    mask[span, span] = 1.0
    return (mask / mask.sum()).ravel()


@functools.lru_cache(maxsize=2)
def _strip_masks(p: int) -> np.ndarray:
    """(P*P, 4) weights that take the mean of the top, bottom, left and right border strips of a patch, / 10."""
    b = max(2, int(round(p * 0.2)))
    masks = np.zeros((4, p, p), np.float32)
    masks[0, :b], masks[1, -b:], masks[2, :, :b], masks[3, :, -b:] = 1.0, 1.0, 1.0, 1.0
    return (masks.reshape(4, -1) / (10.0 * b * p)).T.copy()


def _log_likelihood(lit: np.ndarray, clipped: np.ndarray) -> np.ndarray:
    """(..., M, 6) PRINT_LIT's class log-likelihoods of BGR colours in the print's light (..., M, 3). A channel
    the sensor clipped (`clipped` (M, 3)) shows less than was there: a class brighter in it is not held to it
    (under the lamp's spot a blue tile's blue and green clip and it reads black, or white)."""
    out = _class_log_likelihood(to_lab(lit).reshape(-1, 3)).reshape(*lit.shape[:-1], -1)
    some = np.flatnonzero(clipped.any(axis=1))  # few spaces clip: only theirs are raised, class by class
    if not len(some):
        return out
    sub = lit[..., some, :]
    raised = np.where(clipped[some], np.maximum(sub, CLASS_BGR[:, None, None]), sub)  # (6, ..., S, 3) per class
    white = np.matmul(to_lab(np.clip(raised, 0.0, 255.0)).reshape(len(CLASS_BGR), -1, 3), PRINT_LIT.whiten)
    white -= CLASS_WHITE.reshape(len(CLASS_BGR), 1, 3)  # each class's own variant, in its own units
    ll = PRINT_LIT.log_norm[:, None] - 0.5 * (white * white) @ np.ones(3, np.float32)  # (6, M)
    out[..., some, :] = ll.T.reshape(*sub.shape[:-1], -1)
    return out


def _class_log_likelihood(lab: np.ndarray) -> np.ndarray:
    """PRINT_LIT.log_likelihood (M, 3) -> (M, 6) as products: every class's whitening side by side, its squares
    summed by a product too (numpy's reductions over rows of 3 cost ten times more; the glare searches evaluate
    thousands of colours)."""
    white = lab @ CLASS_WHITENING - CLASS_WHITE
    return PRINT_LIT.log_norm - 0.5 * ((white * white) @ CLASS_SUMS)


def _colour_trust(log_likelihood: np.ndarray, spot: np.ndarray, clipped: np.ndarray, glare: np.ndarray) -> np.ndarray:
    """(N,) how far each space's colour log-likelihoods (N, 6) are trusted: 1 fully, less flattens its colour
    probabilities. A tile that fits no class well, under the lamp's spot (`spot` (N,)), with a clipped channel
    (`clipped` (N, 3)) or on a board with glare taken off (`glare` (N,), 8-bit, tiles' share included) was misread
    far more often than the others (tuning seeds: 23 % under the spot, 8 % clipped, 0.3 % elsewhere), but its
    Gaussian log-likelihoods were as sure: a pattern line's vote then followed it and the tracker took it at its
    word."""
    badness = np.column_stack([np.maximum(0.0, -7.0 - log_likelihood.max(axis=1)), spot > 0, clipped.any(axis=1),
                               glare / 100.0]).astype(np.float32)
    return np.minimum(np.exp(badness @ TRUST_WEIGHTS), 1.0)


def _in_fill_order(occupancy: np.ndarray, order: np.ndarray) -> np.ndarray:
    """(B, N) each board's occupancy where rows of spaces (`order` (R, M): each row's spaces in the order they
    fill, -1 past its end) fill without gaps (a pattern line from the wall side, the floor from its left): each
    space's chance that its row's tiles reach past it, over the fills its spaces' readings allow. A space read
    empty between tiles (a first-player marker, cream on the cream floor, missed) is then taken as covered, and
    the tiles beyond it are no longer reported one space short."""
    p = np.where(order >= 0, occupancy[:, np.maximum(order, 0)], 0.0)  # (B, R, M); nothing past a row's end
    p = np.clip(p, 1e-6, 1 - 1e-6)
    held, free = np.log(p), np.log1p(-p)
    zero = np.zeros((*p.shape[:2], 1), p.dtype)
    # log p(exactly k tiles), k = 0..M: the first k spaces held, the rest free
    fill = (np.concatenate([zero, np.cumsum(held, axis=2)], axis=2)
            + np.concatenate([np.cumsum(free[..., ::-1], axis=2)[..., ::-1], zero], axis=2))
    fill = np.exp(fill - fill.max(axis=2, keepdims=True))
    reach = 1.0 - np.cumsum(fill, axis=2)[..., :-1] / fill.sum(axis=2, keepdims=True)
    out = occupancy.copy()
    rows = order >= 0
    out[:, order[rows]] = reach[:, rows]
    return out


def _softmax(log_likelihood: np.ndarray) -> np.ndarray:
    p = np.exp(log_likelihood - log_likelihood.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def _grey(excess: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """(N,) an additive grey from its per-channel estimates (N, 3): their mean over the channels the print did not
    clip at setup (a clipped channel shows less than was added), else the largest."""
    unclipped = ref < CLIPPED
    mean = np.sum(excess * unclipped, axis=1) / np.maximum(unclipped.sum(axis=1), 1)
    return np.where(unclipped.any(axis=1), mean, excess.max(axis=1))


def _neighbours(spaces: list[Space]) -> np.ndarray:
    """(N, 4) the index of the space above, below, left and right of each pattern-line, wall and floor space
    (-1: none), a pitch apart on the print (the arrow column between pattern lines and wall is wider)."""
    out = -np.ones((len(spaces), 4), int)
    placed = [i for i, s in enumerate(spaces) if s.kind in (PATTERN, WALL, FLOOR)]
    for i in placed:
        for j in placed:
            du, dv = (spaces[j].u - spaces[i].u) / spaces[i].side, (spaces[j].v - spaces[i].v) / spaces[i].side
            for side, (along, across) in enumerate(((-dv, du), (dv, du), (-du, dv), (du, dv))):
                if 0.5 < along < 1.6 and abs(across) < 0.3:
                    out[i, side] = j
    return out


@dataclass(frozen=True)
class ReferenceStats:
    """What occupancy_features needs of the empty board that does not change from frame to frame."""

    planes: np.ndarray  # (3, N, P, P) the empty board's L*a*b* planes
    lum_mean: np.ndarray  # (N,) mean L* over each printed space
    lum_std: np.ndarray
    lum_centred: np.ndarray  # (N, M) L* less its mean, for the correlation with the frame
    lum_energy: np.ndarray  # (N,) sum of squares of lum_centred
    chroma_median: np.ndarray
    edges: np.ndarray  # (N,) see _edges

    @staticmethod
    def of(ref_lab: np.ndarray) -> ReferenceStats:
        """From the empty board's L*a*b* patches (N, P, P, 3)."""
        planes = _planes(ref_lab)
        n = len(ref_lab)
        lum = _inner(planes[0]).reshape(n, -1)
        centred = lum - lum.mean(axis=1, keepdims=True)
        chroma = _chroma(_inner(planes[1]), _inner(planes[2])).reshape(n, -1)
        return ReferenceStats(planes, lum.mean(axis=1), lum.std(axis=1), centred, np.sum(centred * centred, axis=1),
                              _quantiles(chroma, (50,))[0], _edges(planes[0]))

    @staticmethod
    def joined(stats: list[ReferenceStats]) -> ReferenceStats:
        """Several boards' stats as one, their spaces board after board."""
        return ReferenceStats(np.concatenate([s.planes for s in stats], axis=1),
                              *(np.concatenate([getattr(s, f.name) for s in stats]) for f in fields(ReferenceStats)[1:]))


def _planes(lab: np.ndarray) -> np.ndarray:
    """(N, P, P, 3) -> contiguous (3, N, P, P): per-channel work runs several times faster on contiguous rows."""
    return np.ascontiguousarray(np.moveaxis(lab, -1, 0))


def _inner(patches: np.ndarray) -> np.ndarray:
    """The printed space itself (patches reach past it): (N, P, P) -> (N, P', P')."""
    span = _inner_span(patches.shape[1])
    return patches[:, span, span]


def _inner_span(p: int, step: int = 1) -> slice:
    """Where the printed space lies across (and down) a patch of side `p`: its middle 60 %."""
    return slice(int(round(p * 0.2)), int(round(p * 0.8)), step)


def occupancy_features(lab: np.ndarray, ground: np.ndarray,
                       ref: ReferenceStats) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(N, F) features of change against the reference per space, the ground patches' median change (B, G), the
    change itself (3, N, P, P) and its border strips' mean L* change (N, 4; _border_strips);
    `lab` is the frame's L*a*b* planes (3, N, P, P) of B boards' spaces, board after board, `ground` (B, G) the
    rows of each board's ground spaces.

    Changes are measured in units of the board's own noise this frame: the median change over its ground patches,
    where nothing is ever put, is what sensor noise, JPEG and a slightly different light do on their own.
    """
    n = lab.shape[1]
    delta = lab - ref.planes
    diff = _chroma(delta[1], delta[2], delta[0])  # (N, P, P) delta E
    # The change's order within each patch, sorted once: its ground patches' median and every patch's top end.
    ordered = np.sort(diff.reshape(n, -1), axis=1)
    ground_change = _sorted_quantiles(ordered[ground.ravel()], (50,))[0].reshape(ground.shape)
    board_noise = np.maximum(_quantiles(ground_change, (50,))[0].astype(np.float64), 1.0)
    log_noise = np.repeat(np.log(board_noise), n // len(ground))
    noise = np.repeat(board_noise.astype(np.float32), n // len(ground))  # per space
    inner = _inner(diff).reshape(n, -1)
    cur_l = _inner(lab[0]).reshape(n, -1)
    cur_c = _chroma(_inner(lab[1]), _inner(lab[2])).reshape(n, -1)
    lum_mean = cur_l.mean(axis=1, keepdims=True)
    cl = cur_l - lum_mean
    energy = np.sum(cl * cl, axis=1)  # also the spread: std is sqrt(energy / M), as numpy takes it
    ncc = np.sum(cl * ref.lum_centred, axis=1) / (np.sqrt(energy * ref.lum_energy) + 1e-3)
    q25, q75, q90 = _quantiles(inner, (25, 75, 90))
    dl3, dl97 = _quantiles(delta[0].reshape(n, -1), (3, 97))
    hue = _chroma(delta[1], delta[2]).reshape(n, -1)
    strips = _border_strips(delta[0])
    feats = np.column_stack([
        np.log1p(inner.mean(axis=1) / noise),
        np.log1p(diff.reshape(n, -1).mean(axis=1) / noise),
        np.log1p(q75 / noise),
        np.log1p(q25 / noise),
        (lum_mean[:, 0] - ref.lum_mean) / 10.0,
        (_quantiles(cur_c, (50,))[0] - ref.chroma_median) / 10.0,
        (np.sqrt(energy / cl.shape[1]) - ref.lum_std) / 10.0,
        ncc,
        log_noise,
        # Bevel highlights and gloss brighten, side faces and shadows darken a few pixels a lot.
        np.log1p(_sorted_quantiles(ordered, (95,))[0] / noise),
        dl97 / 10.0,
        dl3 / 10.0,
        np.log1p(q90 / noise),
        *_edge_features(strips, _edges(lab[0]) - ref.edges),
        # A tile on its own printed colour keeps the hue; what changes is the motif's place and the gloss.
        np.log1p(_quantiles(hue, (50,))[0] / noise),
    ]).astype(np.float32)
    return feats, ground_change, delta, strips


def _chroma(a: np.ndarray, b: np.ndarray, lum: np.ndarray | None = None) -> np.ndarray:
    """sqrt(a² + b²) of float32 planes, with `lum` sqrt(lum² + a² + b²) (summed in that order): np.hypot calls the
    C library pixel by pixel, seven times slower here. Summed in place: each fresh plane is another pass over
    memory."""
    out = a * a if lum is None else lum * lum
    if lum is not None:
        out += a * a
    out += b * b
    return np.sqrt(out, out=out)


def _border_strips(dl: np.ndarray) -> np.ndarray:
    """(N, 4) the mean L* change (N, P, P) of each patch's top, bottom, left and right border strip, / 10."""
    n, p = dl.shape[:2]
    return dl.reshape(n, -1) @ _strip_masks(p)  # a product: numpy's means over them cost more


def _edge_features(strips: np.ndarray, edge_change: np.ndarray) -> list[np.ndarray]:
    """A tile's shadow and side faces darken one or two sides of its patch's border (which ones depends on the
    light and the camera), its bevel adds sharp edges: the darkest, second darkest and lightest border strip
    (`strips` (N, 4), _border_strips), and the change of edge strength (N,)."""
    strips = np.sort(strips, axis=1)
    return [strips[:, 0], strips[:, 1], strips[:, 3], edge_change / 5.0]


def _edges(lum: np.ndarray) -> np.ndarray:
    """Mean absolute difference of neighbouring pixels inside each patch (N,)."""
    return (np.abs(np.diff(lum, axis=2))[:, 1:-1].mean(axis=(1, 2))
            + np.abs(np.diff(lum, axis=1))[:, :, 1:-1].mean(axis=(1, 2)))


# Logistic weights over BoardReader.occupancy_inputs (last entry: bias), fitted on training renders (seeds 0-100,
# every look of the renderer; the bench uses seeds from 10000): cream spaces (pattern lines, floor), wall spaces by the colour
# printed under them (a black tile on its black print shows other changes than a yellow one), and wall spaces of
# any print (the gray side).
WALL_WEIGHTS = np.array([  # by printed colour, COLOURS order
    [2.470, 1.510, 1.119, 5.549, 0.740, 5.912, 4.656, -4.258, 0.847, -1.454, 1.183, -1.431, -2.694, 2.470, -3.073, -0.289, 5.082, -2.349, -0.129, 4.682, -2.659],
    [1.258, 7.134, -3.856, 4.391, 0.627, 2.571, 13.282, -3.546, -2.016, -4.334, 3.873, 1.338, -2.892, 1.704, -4.977, -0.819, 6.481, 4.135, -1.928, 5.628, 0.123],
    [2.567, 5.257, -5.717, 10.422, -5.083, 4.891, 4.420, -4.709, -0.467, -4.417, 0.739, 1.687, 0.736, -0.028, -4.775, 1.192, 5.316, -3.266, 1.559, -0.759, -4.878],
    [2.155, 7.009, 2.111, 7.697, -1.686, 7.476, -4.604, -8.980, -0.356, -4.474, 5.108, -1.316, -3.047, -1.494, -2.673, -7.787, 1.442, -4.705, 1.636, 2.693, -1.335],
    [1.820, 4.576, 1.761, 3.656, 2.508, 6.748, 4.811, -4.543, -2.658, -3.135, 3.410, 0.100, -3.695, -1.107, -4.394, 1.522, 1.544, -2.563, 2.229, 4.090, 0.586],
], np.float32)
ANY_WALL_WEIGHTS = np.array([2.380, 16.545, -3.806, 8.155, 0.473, 3.590, 3.294, -2.355, -0.440, -8.996, 3.079, -1.691, -1.715, 1.700, -4.652, -2.395, -1.571, -5.110, -0.613, 4.036, -2.817], np.float32)
# Logistic weights over BoardReader.context_inputs (last entry: bias), fitted on renders of every look (tuning
# seeds 0-199 and 400-619, random resolutions, 4 frames each): wall spaces by printed colour, then cream spaces.
CONTEXT_WALL_WEIGHTS = np.array([  # by printed colour, COLOURS order
    [0.872, 1.189, 1.763, -6.987, 1.160, 4.338, 6.830, 0.917, -4.720, 0.925],
    [-0.204, 0.836, -1.603, -3.244, 0.872, -0.834, 8.174, 1.457, -0.862, -1.770],
    [0.169, 0.868, -1.742, -3.177, 0.911, -0.143, 10.485, -0.411, 0.582, -4.461],
    [-0.024, 0.722, -0.869, -4.991, 0.833, 1.237, 9.720, 0.523, -1.575, -1.429],
    [0.844, 1.297, -1.406, -2.603, 1.341, -2.572, 8.934, 1.437, -2.250, -2.525],
], np.float32)
# Logistic weights of a colored wall's third reading (see _Exemplars.likeness): its context inputs, then its
# likeness to its board's exemplar and whether there was one, by printed colour (COLOURS order); fitted as the
# context weights, on tuning seeds 0-199 and 400-619, then each bias raised by 0.25 (fitted for least log loss, not
# fewest errors; captured tuning seeds 0-76 and 400-469, wall errors at +0 / +0.25 / +0.5 / +1: 54 / 50 / 49 / 59;
# at +0.5 tuning seed 601, tilted 42 degrees, read a phantom tile beside its neighbours' tiles).
WALL_AGAIN_WEIGHTS = np.array([  # by printed colour, COLOURS order
    [-0.111, 1.913, 2.162, -7.527, 1.228, 1.885, 10.374, -0.014, -2.744, 11.413, 4.414, 0.918],
    [-0.019, 0.864, -1.093, -2.771, 0.708, -1.538, 6.681, 0.761, 0.397, 2.611, 0.324, -1.747],
    [0.306, 1.096, -1.434, -3.306, 0.764, -1.232, 11.021, -0.535, 1.322, 1.713, 0.135, -4.211],
    [0.059, 0.957, -0.602, -5.903, 0.715, 1.800, 7.027, 0.222, -0.002, 3.243, 1.381, -2.824],
    [0.912, 1.517, -0.392, -4.131, 1.168, -2.183, 5.895, 1.420, 0.976, 5.262, -0.849, -4.383],
], np.float32)
CONTEXT_CREAM_WEIGHTS = np.array([-0.189, 0.475, -0.661, -3.162, 1.117, -0.668, 6.939, 0.0, 0.0, -0.324], np.float32)
# The gray side's wall spaces (one print, any colour on it), fitted as the context weights on the gray side of
# tuning seeds 0-99 and 400-469 (4 frames each, random resolutions): most of its errors were empty spaces among
# tiles read as tiles (their neighbours' shadows and side faces), 293 -> 38 wall spaces wrong on those seeds.
CONTEXT_GRAY_WALL_WEIGHTS = np.array([-0.353, 0.523, -0.594, -1.091, 1.353, 2.966, 1.588, 0.0, 0.0, -4.111], np.float32)
# Logistic weights of a gray wall's third reading (see _Exemplars.gray_likeness): its context inputs, then its
# likeness to the nearest of its board's tiles and whether there was one; fitted as the gray side's context weights
# (wall spaces wrong on those seeds: 38 -> 23; matte tiles on the gray print were most of those left).
GRAY_WALL_AGAIN_WEIGHTS = np.array([-0.039, 0.925, -0.168, -1.530, 1.151, 3.120, -0.376, 0.0, 0.0, 4.299, 1.393, -2.245],
                                   np.float32)
CONTEXT_NONE = np.array([0, 0, 0, 0, 1, 0, 0, 0, 0, 0], np.float32)  # the first reading stands (the ground)
CREAM_WEIGHTS = np.array([3.216, 0.039, 1.008, 5.686, -3.878, 1.161, -1.081, -5.449, -0.436, -6.008, 2.490, -2.323, 0.892, 2.131, -0.769, 1.881, 6.760, 1.400, -0.479, 1.645, -6.206], np.float32)


def _logistic(feats: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per-row logistic: weights (F+1,) for all rows or (N, F+1), one set per row."""
    return _sigmoid(np.sum(feats * weights[..., :-1], axis=-1) + weights[..., -1])


def _quantiles(rows: np.ndarray, qs: tuple[float, ...]) -> list[np.ndarray]:
    """np.percentile(rows, q, axis=1) for each q of float rows (N, M) (linear interpolation, as numpy's): one sort
    serves every q and skips numpy's per-call overhead that dominated the frame time (numpy's sort of float rows is
    vectorised; np.partition is slower at these sizes)."""
    return _sorted_quantiles(np.sort(rows, axis=1), qs)


def _sorted_quantiles(ordered: np.ndarray, qs: tuple[float, ...]) -> list[np.ndarray]:
    """_quantiles of rows (N, M) already sorted along each row."""
    m = ordered.shape[1]
    out = []
    for q in qs:
        pos = q / 100.0 * (m - 1)
        lo = int(np.floor(pos))
        hi, frac = min(lo + 1, m - 1), pos - lo
        out.append(ordered[:, lo] * (1 - frac) + ordered[:, hi] * frac)
    return out


def _channel_medians(images: list[np.ndarray]) -> np.ndarray:
    """(B, 3) float32 per-channel median of each 8-bit BGR image (..., 3), the value _quantiles takes (the two
    middle values interpolated): counted in its histograms, a fraction of the cost of sorting its pixels."""
    counts = np.array([[cv2.calcHist([image.reshape(-1, 1, 3)], [c], None, [256], (0, 256)).ravel() for c in range(3)]
                       for image in images])  # (B, 3, 256)
    below = np.cumsum(counts, axis=2)  # pixels at or under each value
    pos = (images[0].size // 3 - 1) * 0.5
    lo = int(pos)
    frac = pos - lo
    lower = np.count_nonzero(below <= lo, axis=2).astype(np.float32)  # the lo-th smallest value (from 0)
    upper = np.count_nonzero(below <= lo + 1, axis=2).astype(np.float32)
    return lower * (1 - frac) + upper * frac


def _tile_likeness(lab: np.ndarray) -> np.ndarray:
    return np.maximum(_class_log_likelihood(lab).max(axis=1), -40.0) / 10.0


def _middle_median(patches: np.ndarray, middle: tuple[slice, slice]) -> np.ndarray:
    """(N, C) float32 per-channel median of each patch's middle."""
    return _middle_quantiles(patches, middle, (50,))[0]


def _middle_quantiles(patches: np.ndarray, middle: tuple[slice, slice], qs: tuple[float, ...]) -> list[np.ndarray]:
    """Per q, (N, C) float32 per-channel quantile of each patch's middle."""
    n, c = len(patches), patches.shape[-1]
    mid = patches[:, middle[0], middle[1]].reshape(n, -1, c).transpose(0, 2, 1).astype(np.float32)
    return [q.reshape(n, c) for q in _quantiles(mid.reshape(n * c, -1), qs)]


def _smooth(patches: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """A 3x3 box blur of every patch (stacked as one strip): sensor noise and JPEG blocks off the pixel diffs;
    into `out` (contiguous, the patches' shape) when given."""
    n, p = patches.shape[:2]
    strip = patches.reshape(n * p, p, -1)
    if out is None:
        return cv2.blur(strip, (3, 3)).reshape(patches.shape)
    cv2.blur(strip, (3, 3), dst=out.reshape(strip.shape))
    return out


def _cream_estimate(centre_lab: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """The board's cream print without a reference: the lightest, least saturated pattern/floor spaces."""
    cand = centre_lab[(kind == PATTERN) | (kind == FLOOR)]
    score = cand[:, 0] - np.hypot(cand[:, 1], cand[:, 2])
    top = cand[np.argsort(score)[-max(3, len(cand) // 3):]]
    return np.median(top, axis=0)


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))
