"""Snapping a board's corners to its printed grid of spaces, on the empty board at setup.

Corners written by hand (or clicked in the wizard) are a few pixels off, and a board's rounded corners and worn
edges do not say exactly where the printing sits. Five pixels on a 250-pixel board move a wall space a quarter of
its side; the readings of its neighbours then mix in. The empty board shows 47 printed squares (wall, pattern
lines, floor): each is found near where the written corners put it, on the board rectified at those corners,
and a homography through the found centres says where the grid really is. The board's corners follow.

The search reaches `REACH` board sides, under half the step between spaces, so a square is never matched with
its neighbour; a fit that does not explain most squares to a pixel changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import UNIT_SQUARE, BoardGeometry, Lens
from calibration.profile import BoardLayout

SIZE = 320  # rectified board, pixels: a space is 23 pixels, enough for its outline at any camera resolution
REACH = 0.035  # board sides a space may be found from where the corners put it (a step is 0.0885)
RANSAC_PX = 1.5  # rectified pixels a found square may stray from the fitted grid
MIN_SQUARES = 20  # of 47: fewer found squares do not pin down 8 corner coordinates against clutter
# A board's own print (shading, bevels) puts the found squares up to ~0.004 board sides off the layout even at
# the true corners; only a larger median offset is a real error of the corners.
ON_GRID = 0.006
CORNERS_PX = UNIT_SQUARE * SIZE - 0.5  # the board's corners, rectified pixels (pixel i is board fraction (i + 0.5) / SIZE)
PASSES = 2  # the second pass starts close, where the rectified squares are square again


@dataclass(frozen=True)
class GridFit:
    corners: np.ndarray  # (4, 2) image pixels, TL TR BR BL as the board is read
    squares: int  # printed squares that agree with the fitted grid


def printed_squares(layout: BoardLayout) -> list[tuple[float, float, float]]:
    """Every printed square of the empty board that a tile goes on: (u, v, side) in board fractions."""
    out = [(*layout.wall(r, c), layout.space) for r in range(5) for c in range(5)]
    out += [(*layout.pattern_line(r, j), layout.space) for r in range(5) for j in range(r + 1)]
    out += [(*layout.floor(i), layout.floor_space) for i in range(7)]
    return out


def _rectified_edges(frame: np.ndarray, geometry: BoardGeometry) -> np.ndarray:
    """Gradient magnitude of the board rectified at `geometry`, SIZE x SIZE."""
    grid = (np.stack(np.meshgrid(np.arange(SIZE), np.arange(SIZE)), -1) + 0.5) / SIZE
    maps = geometry.to_image(grid.reshape(-1, 2)).reshape(SIZE, SIZE, 2).astype(np.float32)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    board = cv2.remap(gray, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    board = cv2.GaussianBlur(board.astype(np.float32), (0, 0), 1.0)
    return cv2.magnitude(cv2.Sobel(board, cv2.CV_32F, 1, 0), cv2.Sobel(board, cv2.CV_32F, 0, 1))


def _outline_kernel(side_px: float) -> np.ndarray:
    """A square's outline, about 2 pixels wide, zero-mean: it answers to a square edge, not to a bright patch.
    Built from each pixel's distance to the outline, so it is symmetric to the sub-pixel."""
    n = 2 * int(np.ceil(side_px / 2)) + 5
    offsets = np.abs(np.arange(n) - (n - 1) / 2)
    ring = np.maximum(offsets[:, None], offsets[None, :])  # Chebyshev distance from the middle
    kernel = np.clip(1.5 - np.abs(ring - side_px / 2), 0, 1).astype(np.float32)
    return kernel - kernel.mean()


def _responses(edges: np.ndarray, layout: BoardLayout) -> dict[float, np.ndarray]:
    """Per size of square, how much each rectified pixel looks like the middle of a printed square's outline."""
    sides = {side for _, _, side in printed_squares(layout)}
    return {side: cv2.filter2D(edges, -1, _outline_kernel(side * SIZE)) for side in sides}


def _find_squares(responses: dict[float, np.ndarray], layout: BoardLayout) -> tuple[np.ndarray, np.ndarray]:
    """(expected, found) square centres in rectified pixels, for the squares with one clear best place."""
    reach = int(round(REACH * SIZE))
    expected, found = [], []
    for u, v, side in printed_squares(layout):
        x, y = u * SIZE - 0.5, v * SIZE - 0.5
        x0, y0 = int(round(x)) - reach, int(round(y)) - reach
        if x0 < 0 or y0 < 0 or x0 + 2 * reach >= SIZE or y0 + 2 * reach >= SIZE:
            continue
        window = responses[side][y0:y0 + 2 * reach + 1, x0:x0 + 2 * reach + 1]
        dy, dx = np.unravel_index(int(np.argmax(window)), window.shape)
        if not 0 < dx < window.shape[1] - 1 or not 0 < dy < window.shape[0] - 1:
            continue  # best at the edge of the search: the square lies beyond reach, or is not printed
        if window[dy, dx] <= 2 * max(float(np.median(window)), 1e-3):
            continue  # no outline stands out (glare, a plain print)
        expected.append((x, y))
        found.append((x0 + dx + _peak_offset(window[dy, dx - 1:dx + 2]),
                      y0 + dy + _peak_offset(window[dy - 1:dy + 2, dx])))
    return np.array(expected, np.float64).reshape(-1, 2), np.array(found, np.float64).reshape(-1, 2)


def _sample(image: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Bilinear values of `image` at (N, 2) points inside it."""
    xy = np.clip(xy, 0, np.array(image.shape[::-1]) - 1.001)
    i = xy.astype(int)
    f = xy - i
    x, y = i[:, 0], i[:, 1]
    top = image[y, x] * (1 - f[:, 0]) + image[y, x + 1] * f[:, 0]
    bottom = image[y + 1, x] * (1 - f[:, 0]) + image[y + 1, x + 1] * f[:, 0]
    return top * (1 - f[:, 1]) + bottom * f[:, 1]


def _polish(corners: np.ndarray, responses: dict[float, np.ndarray], layout: BoardLayout) -> np.ndarray:
    """The rectified board corners moved (pattern search, steps from 1 down to 1/8 pixel) to where every
    square's outline answers most, all squares together: one square's stray peak cannot pull the grid."""
    squares = printed_squares(layout)
    centres = np.array([(u, v) for u, v, _ in squares]) * SIZE - 0.5
    groups = [(responses[side], np.array([q[2] == side for q in squares])) for side in responses]

    def fit(c: np.ndarray) -> float:
        h = cv2.getPerspectiveTransform(CORNERS_PX.astype(np.float32), c.astype(np.float32))
        at = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), h).reshape(-1, 2)
        return float(sum(_sample(response, at[mask]).sum() for response, mask in groups))

    best, score = corners.copy(), fit(corners)
    step = 1.0
    while step >= 0.125:
        improved = False
        for k in range(8):
            for sign in (1, -1):
                trial = best.copy()
                trial.flat[k] += sign * step
                value = fit(trial)
                if value > score:
                    best, score, improved = trial, value, True
        if not improved:
            step /= 2
    return best


def _peak_offset(three: np.ndarray) -> float:
    """Sub-pixel offset of a peak from its value and its two neighbours (a parabola through them)."""
    left, mid, right = (float(v) for v in np.ravel(three))
    bend = left - 2 * mid + right
    return 0.0 if bend >= 0 else float(np.clip(0.5 * (left - right) / bend, -0.5, 0.5))


@dataclass(frozen=True)
class _Squares:
    """The printed squares as found on the board rectified at some corners."""

    geometry: BoardGeometry  # the corners' board
    responses: dict[float, np.ndarray]  # _responses there
    expected: np.ndarray  # (N, 2) where the corners put the squares found, rectified pixels
    found: np.ndarray  # (N, 2) where they were found

    @property
    def offset(self) -> float:
        """How far the squares lie from where the corners put them (median, rectified pixels)."""
        return float(np.median(np.linalg.norm(self.found - self.expected, axis=1)))


def _squares_at(frame: np.ndarray, corners: np.ndarray, layout: BoardLayout, lens: Lens | None) -> _Squares | None:
    """The printed squares found on the board rectified at `corners`; None if too few stand out."""
    geometry = BoardGeometry(corners, lens)
    responses = _responses(_rectified_edges(frame, geometry), layout)
    expected, found = _find_squares(responses, layout)
    return _Squares(geometry, responses, expected, found) if len(found) >= MIN_SQUARES else None


def _corrected(squares: _Squares, layout: BoardLayout) -> GridFit | None:
    """The corners moved by a homography through the squares found (RANSAC), polished; None if too few of
    them agree on one."""
    # The correction maps where a square should be to where it was found, in the rectified board.
    correction, inliers = cv2.findHomography(squares.expected, squares.found, cv2.RANSAC, RANSAC_PX)
    if correction is None or int(inliers.sum()) < MIN_SQUARES:
        return None
    moved = cv2.perspectiveTransform(CORNERS_PX.reshape(-1, 1, 2), correction).reshape(4, 2)
    polished = _polish(moved, squares.responses, layout)
    return GridFit(squares.geometry.to_image((polished + 0.5) / SIZE), int(inliers.sum()))


def snap_corners(frame: np.ndarray, corners, layout: BoardLayout, lens: Lens | None = None) -> GridFit | None:
    """The board's corners moved so its printed squares sit where the layout says; None if the printing
    cannot be found well enough to improve on `corners`."""
    start = np.asarray(corners, np.float64).reshape(4, 2)
    squares = _squares_at(frame, start, layout, lens)
    if squares is None or squares.offset < ON_GRID * SIZE:
        return None  # no printing to go by, or the given corners already put the squares on it
    given = squares.offset
    for _ in range(PASSES):
        fit = _corrected(squares, layout)
        squares = _squares_at(frame, fit.corners, layout, lens) if fit is not None else None
        # Each pass must put the squares closer to where its corners say than the given corners did: a far
        # board's blurred print (recorded tuning game 738, board 3) has a third of its squares found on a
        # neighbouring motif, a homography through half of them took in a few of those, and at its corners the
        # squares were found further off than at the true ones (4.2 rectified pixels against 2.2); the next pass
        # then put a corner 4.7 px off.
        if squares is None or squares.offset >= given:
            return None
    shift = float(np.linalg.norm(fit.corners - start, axis=1).max())
    side = BoardGeometry(start, lens).pixels_per_unit()
    if shift > 2 * REACH * side:  # further than a square could have been found: a fit to something else
        return None
    return fit
