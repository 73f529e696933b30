"""Boards get bumped: find every board's pose again each frame, from its own print, without markers.

`BoardLocaliser` is built once from the calibration and the setup frame (the empty boards, nothing over them):
it learns each board's appearance there (calibration/markerless.py), or loads it from the profile's learned data
when `learned_appearances` were saved. Then `update(frame)` returns the boards whose pose moved by more than
`REPORT_PX` since it last reported them, for the recogniser to re-aim its sampling grids
(`TableRecognizer.set_board_corners`). A frame where nothing moved costs a few sparse reads per board; a hand over
a board keeps its last good pose.
"""

from __future__ import annotations

import numpy as np

from calibration.geometry import Lens
from calibration.markerless import BoardAppearance, BoardTracker, learn_appearance
from calibration.profile import CalibrationProfile

REPORT_PX = 1.0  # a pose that moved less than this (largest corner shift, pixels) is not worth new grids
# ... unless the board's margin ring saw it move (realign): a ring's points change with a move of under a pixel;
# or a search's pose was found again in a sharper frame (BoardTracker.confirm): the one searched was blurred
REALIGN_PX = 0.25
LEARNED_KEY = "board_appearance"  # where the appearances go in the profile's learned data


class BoardLocaliser:
    def __init__(self, profile: CalibrationProfile, setup_frame: np.ndarray | None = None) -> None:
        """Appearances from `profile.learned["board_appearance"]` if saved there, else learned from
        `setup_frame` (about 15-30 ms a board at 720p)."""
        lens = Lens.from_model(profile.camera)
        saved = (profile.learned or {}).get(LEARNED_KEY)
        self.trackers: list[BoardTracker] = []
        for i, board in enumerate(profile.boards):
            layout = board.effective_layout
            if saved and i < len(saved):
                appearance = BoardAppearance.from_json(saved[i], layout)
            elif setup_frame is not None:
                appearance = learn_appearance(setup_frame, board.corners, layout, lens)
            else:
                raise ValueError("no board appearance saved in the profile: pass the setup frame")
            self.trackers.append(BoardTracker(appearance, board.corners, lens))
        self.reported = [t.corners for t in self.trackers]

    def learned_appearances(self) -> list[dict]:
        """JSON for `profile.learned["board_appearance"]` (a small PNG per board)."""
        return [t.appearance.to_json() for t in self.trackers]

    @property
    def corners(self) -> list[np.ndarray]:
        """Every board's current corners (TL, TR, BR, BL), the last good pose of any board out of sight."""
        return [t.corners for t in self.trackers]

    def update(self, frame: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """(board index, new corners) for each board whose pose moved by more than REPORT_PX since reported
        (REALIGN_PX when the pose was found again in a sharper frame after a search)."""
        changed = []
        for i, tracker in enumerate(self.trackers):
            if tracker.update(frame):
                corners = self._report(i, REPORT_PX)
            else:  # a pose found again in a sharper frame than the search's is worth new grids for less
                corners = self._report(i, REALIGN_PX) if tracker.confirm(frame) else None
            if corners is not None:
                changed.append((i, corners))
        return changed

    def settled(self, index: int) -> bool:
        """Whether board `index`'s sample points, mostly on its outline, read in the last frame as in the one
        before (no hand or its shadow passing over the board)."""
        return self.trackers[index].settled

    def realign(self, index: int, frame: np.ndarray) -> np.ndarray | None:
        """Board `index`'s new corners if a search asked for now (its margin ring saw it move) finds it more than
        REALIGN_PX from where it was reported, else None."""
        return self._report(index, REALIGN_PX) if self.trackers[index].realign(frame) else None

    def _report(self, index: int, least: float) -> np.ndarray | None:
        corners = self.trackers[index].corners
        if float(np.linalg.norm(corners - self.reported[index], axis=1).max()) <= least:
            return None
        self.reported[index] = corners
        return corners
