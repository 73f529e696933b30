"""Finding the setup in the camera's own frames: no one presses "capture".

A game filmed from the start first shows the empty table (boards, displays and centre bare), then the dealer's
hand refilling the displays, then the dealt table at rest before the first player reaches. `SetupFinder` watches
frames in order and, from pixels and the calibration alone:
- takes the leading frames that look like the first one (no hand, nothing on the displays) as the empty table;
- then waits for a frame where every display has changed substantially from the empty table (tiles on it) and
  no region's ring of table or board margin differs from the empty table (no hand, no arm), held still for at
  least `STILL_SECONDS` of video (people deal, look, and reach: at 10 fps that may be a single frame);
- learns the setup from that still run (its average, up to `SETUP_SECONDS`), with the empty table
  (`vision.setup.learn_setup`), and builds the recogniser. The frames from the run's first on are the first the
  move tracker should see: it reads the deal from them.
Every test is made on softened frames (a small blur): sensor noise and video compression are not change.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.profile import CalibrationProfile
from vision.counting import EmptyReference
from vision.light import to_lab
from vision.occlusion import RingWatcher
from vision.recognizer import TableRecognizer
from vision.setup import average_frames, learn_setup

MAX_EMPTY_FRAMES = 20  # averaged; two seconds of a still table at 10 fps is plenty
EMPTY_CHANGE = 0.15  # share of a display changed from the first frame that ends the empty table (a tile: ~0.19)
DEALT_CHANGE = 0.4  # share changed from the empty table that means tiles lie there (4 tiles and their shadows: ~0.75)
STILL_DIFF = 15.0  # a display's mean absolute BGR change within one still run (compression noise: up to ~10)
STILL_SECONDS = 0.1  # how long the dealt table must be seen at rest (one frame at 10 fps, three at 30)
SETUP_SECONDS = 1.0  # a longer still run is not waited for: this much, averaged, is a quiet reference
HAND_RING = 0.05  # share of a ring's points changed from the empty table that means a hand or arm is there
SEARCH_SECONDS = 120.0  # a recording whose first two minutes show no dealt table is not filmed from the start


class SetupNotFound(ValueError):
    """The frames never showed the empty table followed by a still, fully dealt one."""


@dataclass
class FoundSetup:
    profile: CalibrationProfile  # the calibration plus what was learned at setup
    recognizer: TableRecognizer
    index: int  # the setup frame: the first frame of the still run, counted from 0
    timestamp: float
    frames: list[tuple[float, np.ndarray]]  # from the setup frame on, for the move tracker (it reads the deal)
    empty_frames: int  # how many frames of the empty table were averaged
    setup_frames: int  # how many frames of the dealt table at rest were averaged


@dataclass
class _Look:
    """One frame as the finder sees it: the displays' grids, and whether any region's ring is covered."""

    displays: np.ndarray  # (N, G, G, 3) BGR, median-filtered
    covered: bool


@dataclass
class SetupFinder:
    """Feed frames in order with `feed`; it returns the setup once found (None until then); `finish` when the
    frames end."""

    profile: CalibrationProfile  # what the person wrote: corners, circles, centre
    frame_size: tuple[int, int]
    search_seconds: float | None = SEARCH_SECONDS  # None: watch for ever (a live camera)
    _bare: TableRecognizer = field(init=False)
    _rings: list[RingWatcher] = field(init=False)
    _first: float | None = field(default=None, init=False)
    _index: int = field(default=-1, init=False)
    _previous: float = field(default=0.0, init=False)  # the last frame's timestamp
    _period: float = field(default=0.0, init=False)  # time between the last two frames
    _empty: list[np.ndarray] = field(default_factory=list, init=False)
    _reference: EmptyReference | None = field(default=None, init=False)  # the displays on the empty table
    _empty_over: bool = field(default=False, init=False)
    _run: list[tuple[float, np.ndarray]] = field(default_factory=list, init=False)  # the dealt table at rest
    _run_start: tuple[int, np.ndarray] | None = field(default=None, init=False)  # its first index and displays
    _most_dealt: int = field(default=0, init=False)  # most displays seen dealt in a frame free of hands

    def __post_init__(self) -> None:
        bare = CalibrationProfile(self.profile.boards, self.profile.factories, self.profile.center,
                                  self.profile.image_size or self.frame_size, self.profile.variant,
                                  self.profile.camera, {})
        self._bare = TableRecognizer(bare, self.frame_size)
        self._rings = [*self._bare.factory_rings, self._bare.centre_ring, *(b.ring for b in self._bare.boards)]

    def feed(self, frame: np.ndarray, timestamp: float) -> FoundSetup | None:
        self._bare.check_frame(frame)
        self._index += 1
        self._period, self._previous = timestamp - self._previous, timestamp
        if self._first is None:
            self._first = timestamp
            self._empty = [frame.copy()]
            self._set_references(frame)
            return None
        if not self._empty_over:
            if self._still_empty(frame):
                return None
            # The empty table is over: its average is the reference.
            self._set_references(average_frames(self._empty, "empty-table"))
            self._empty_over = True
        found = self._watch_deal(frame, timestamp)
        if found is None and self.search_seconds is not None and timestamp - self._first > self.search_seconds:
            raise SetupNotFound(self._why_not())
        return found

    def finish(self) -> FoundSetup:
        """The frames ended: the setup if the dealt table was at rest long enough at the very end, else say why."""
        if self._run_long_enough():
            return self._learn([])
        raise SetupNotFound(self._why_not())

    def _still_empty(self, frame: np.ndarray) -> bool:
        """Still the empty table of the first frame (no hand, nothing dealt yet): then it joins the average."""
        look = self._look(frame)
        if look.covered or self._changed(look.displays).max() > EMPTY_CHANGE:
            return False
        if len(self._empty) < MAX_EMPTY_FRAMES:
            self._empty.append(frame.copy())
        return True

    def _set_references(self, empty: np.ndarray) -> None:
        empty = _soften(empty)
        for ring in self._rings:
            ring.reference_lab = to_lab(ring.sample(empty)).reshape(-1, 3)
        self._reference = EmptyReference(to_lab(self._bare.factories.sample(empty)))

    # ---- the deal -------------------------------------------------------------------------------------
    def _watch_deal(self, frame: np.ndarray, timestamp: float) -> FoundSetup | None:
        """Extend the run of still, dealt, uncovered frames; learn from it when it ends (or is long enough)."""
        look = self._look(frame)
        dealt = int(np.sum(self._changed(look.displays) >= DEALT_CHANGE))
        if not look.covered:
            self._most_dealt = max(self._most_dealt, dealt)
        at_rest = not look.covered and dealt == self._bare.factories.regions and (
            self._run_start is None or _difference(look.displays, self._run_start[1]) <= STILL_DIFF)
        if at_rest:
            if self._run_start is None:
                self._run_start = (self._index, look.displays)
            self._run.append((timestamp, frame.copy()))
            return self._learn([]) if self._run_seconds() >= SETUP_SECONDS - 1e-9 else None
        if self._run_long_enough():
            return self._learn([(timestamp, frame)])
        self._run, self._run_start = [], None
        if dealt == self._bare.factories.regions and not look.covered:  # dealt and clear, but moved: start again
            return self._watch_deal(frame, timestamp)
        return None

    def _run_seconds(self) -> float:
        """How long the run lasted: its span plus one frame's time (one frame at 10 fps is 0.1 s)."""
        return self._run[-1][0] - self._run[0][0] + self._period if self._run else 0.0

    def _run_long_enough(self) -> bool:
        return self._run_seconds() >= STILL_SECONDS - 1e-9

    def _learn(self, after: list[tuple[float, np.ndarray]]) -> FoundSetup:
        learned = learn_setup(self.profile, [f for _, f in self._run], empty=self._empty)
        recognizer = TableRecognizer(learned, self.frame_size)
        return FoundSetup(learned, recognizer, self._run_start[0], self._run[0][0], self._run + after,
                          len(self._empty), len(self._run))

    # ---- per frame ------------------------------------------------------------------------------------
    def _look(self, frame: np.ndarray) -> _Look:
        soft = _soften(frame)
        covered = any(ring.check(soft, None).changed > HAND_RING for ring in self._rings)
        return _Look(self._bare.factories.sample(soft), covered)

    def _changed(self, displays: np.ndarray) -> np.ndarray:
        """Per display, the share of its pixels (inside the rim) no longer as on the empty table."""
        inside = self._bare.factories.inside
        changed = ~self._reference.unchanged(to_lab(displays)) & inside
        return changed.sum(axis=(1, 2)) / inside.sum(axis=(1, 2))

    def _why_not(self) -> str:
        seconds = f"{self.search_seconds:g}" if self.search_seconds is not None else "all"
        regions = self._bare.factories.regions
        if not self._empty_over:
            detail = "the table never changed from the first frame"
        else:
            detail = (f"at most {self._most_dealt} of the {regions} displays were seen dealt with no hand over "
                      "the table")
        return (f"no still frame with every factory display dealt was found in the first {seconds} seconds: "
                f"{detail} (the recording must start at the empty table, before the deal, or the calibration "
                "must hold a learned setup)")


def find_setup(frames: Iterator[tuple[float, np.ndarray]], profile: CalibrationProfile,
               frame_size: tuple[int, int], search_seconds: float | None = SEARCH_SECONDS) -> FoundSetup:
    """Read (timestamp, frame) pairs until the setup is found; the iterator then continues after the frames
    the setup hands over."""
    finder = SetupFinder(profile, frame_size, search_seconds)
    for timestamp, frame in frames:
        found = finder.feed(frame, timestamp)
        if found is not None:
            return found
    return finder.finish()


def _soften(frame: np.ndarray) -> np.ndarray:
    """Sensor noise and video compression off, so that only real change (a hand, tiles) counts."""
    return cv2.GaussianBlur(frame, (5, 5), 0)


def _difference(a: np.ndarray, b: np.ndarray) -> float:
    """The most any one display changed (mean absolute BGR): a tile moved on one display is not averaged away."""
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean(axis=(1, 2, 3)).max())
