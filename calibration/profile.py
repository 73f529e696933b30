"""The calibration profile: where the player boards, factory displays and the centre are in the camera image.

A profile is plain JSON that a person can write by hand from one photograph of the table (see
docs/calibration-format.md). The required part says where things are:

- per player board, its 4 outer corners in image pixels, in the order top-left, top-right, bottom-right,
  bottom-left *as the board is read* (score track at the top), whatever way the board faces the camera;
- per factory display, its centre and radius in pixels;
- the centre of the table as a polygon in pixels.

Everything the companion learns later (a refined board layout, references of the empty boards, a colour model,
the camera's intrinsics) goes in optional fields, so a hand-written file and a learned one load the same way.
Loading never raises a traceback at a user: every problem is a `CalibrationError` whose message names the field.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

FORMAT_NAME = "azul-companion calibration"
FORMAT_VERSION = 1
VARIANTS = ("colored", "gray")
FACTORIES_FOR_PLAYERS = {2: 5, 3: 7, 4: 9}

Point = tuple[float, float]


class CalibrationError(ValueError):
    """A calibration file that cannot be used; the message names the file and the field and says what is wrong."""


# ---- the board layout ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BoardLayout:
    """Where the spaces are on a player board, as fractions of its outer width (x) and height (y).

    The defaults are BOARD-GEOMETRY.md's measurements of a real classic board; calibration may refine them per
    board (printings vary), and a refined layout is saved in the board's optional "layout" field.
    """

    wall_x0: float = 0.563  # centre of wall column 0
    wall_y0: float = 0.386  # centre of wall row 0 (and of pattern line 0)
    step_x: float = 0.0885  # between columns of the wall and slots of a pattern line
    step_y: float = 0.0905  # between wall rows / pattern lines
    space: float = 0.072  # side of a wall or pattern-line space
    pattern_x0: float = 0.431  # centre of the rightmost slot of every pattern line
    floor_x0: float = 0.075
    floor_step: float = 0.0945
    floor_y: float = 0.900
    floor_space: float = 0.080
    score_zero_x: float = 0.068  # the "0" space of the score track
    score_zero_y: float = 0.028
    score_zero_space: float = 0.035
    score_x0: float = 0.068  # score 1; scores run 20 to a row
    score_y0: float = 0.081
    score_step_x: float = 0.0454
    score_step_y: float = 0.0525
    score_space: float = 0.040

    def wall(self, row: int, column: int) -> Point:
        return (self.wall_x0 + self.step_x * column, self.wall_y0 + self.step_y * row)

    def pattern_line(self, line: int, slot: int) -> Point:
        """Slot 0 is the rightmost space of the line, next to the arrow; line r has r + 1 slots."""
        return (self.pattern_x0 - self.step_x * slot, self.wall_y0 + self.step_y * line)

    def floor(self, index: int) -> Point:
        return (self.floor_x0 + self.floor_step * index, self.floor_y)

    def score(self, score: int) -> Point:
        """The track space of a score 0..100 (scores above 100 wrap round, as players do with the marker)."""
        if score <= 0:
            return (self.score_zero_x, self.score_zero_y)
        s = (score - 1) % 100
        return (self.score_x0 + self.score_step_x * (s % 20), self.score_y0 + self.score_step_y * (s // 20))

    def to_json(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


DEFAULT_LAYOUT = BoardLayout()


# ---- the profile --------------------------------------------------------------------------------------------
@dataclass
class BoardCalibration:
    corners: tuple[Point, Point, Point, Point]  # TL, TR, BR, BL as the board is read, in image pixels
    name: str | None = None  # the player, if the person wants to say
    layout: BoardLayout | None = None  # None: the default layout (BOARD-GEOMETRY.md)

    @property
    def effective_layout(self) -> BoardLayout:
        return self.layout or DEFAULT_LAYOUT


@dataclass
class FactoryCalibration:
    center: Point
    radius: float


@dataclass
class CameraModel:
    """Optional: the camera's intrinsics (3x3) and OpenCV distortion coefficients, if someone calibrated it."""

    matrix: tuple[tuple[float, float, float], ...]
    distortion: tuple[float, ...] = ()


@dataclass
class CalibrationProfile:
    boards: list[BoardCalibration]
    factories: list[FactoryCalibration]
    center: list[Point]  # the centre-of-table polygon, image pixels
    image_size: tuple[int, int] | None = None  # (width, height) of the frames the pixels refer to
    variant: str | None = None  # "colored" or "gray": the wall side in use, if known
    camera: CameraModel | None = None
    # Learned things whose shape belongs to their own modules (empty-board references, colour model...):
    # stored and saved as given, so a newer companion's fields survive an older one's load/save.
    learned: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.boards)

    def to_json(self) -> dict:
        data: dict[str, Any] = {"format": FORMAT_NAME, "version": FORMAT_VERSION}
        if self.image_size is not None:
            data["image_size"] = list(self.image_size)
        if self.variant is not None:
            data["variant"] = self.variant
        boards = []
        for board in self.boards:
            item: dict[str, Any] = {}
            if board.name is not None:
                item["name"] = board.name
            item["corners"] = [_round_point(p) for p in board.corners]
            if board.layout is not None:
                item["layout"] = board.layout.to_json()
            boards.append(item)
        data["boards"] = boards
        data["factories"] = [
            {"center": _round_point(f.center), "radius": round(float(f.radius), 2)} for f in self.factories
        ]
        data["center"] = [_round_point(p) for p in self.center]
        if self.camera is not None:
            data["camera"] = {
                "matrix": [[float(v) for v in row] for row in self.camera.matrix],
                "distortion": [float(v) for v in self.camera.distortion],
            }
        if self.learned:
            data["learned"] = self.learned
        return data


def _round_point(p: Point) -> list[float]:
    return [round(float(p[0]), 2), round(float(p[1]), 2)]


# ---- loading and validating ---------------------------------------------------------------------------------
def load(path: str | os.PathLike) -> CalibrationProfile:
    """Read and validate a calibration file; CalibrationError with the file and field on any problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationError(f"{path}: no such calibration file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise CalibrationError(f"{path}: cannot read the calibration file ({err})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise CalibrationError(f"{path}: not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
    try:
        return from_json(data)
    except CalibrationError as err:
        raise CalibrationError(f"{path}: {err}") from None


def from_json(data: Any) -> CalibrationProfile:
    """Validate a parsed calibration document (see docs/calibration-format.md)."""
    if not isinstance(data, dict):
        raise CalibrationError("the calibration must be a JSON object with 'boards', 'factories' and 'center'")
    fmt = data.get("format", FORMAT_NAME)
    if fmt != FORMAT_NAME:
        raise CalibrationError(f"'format' must be {FORMAT_NAME!r}, not {fmt!r}")
    version = data.get("version", FORMAT_VERSION)
    if version != FORMAT_VERSION:
        raise CalibrationError(f"'version' {version!r} is not supported (this companion reads version {FORMAT_VERSION})")

    image_size = None
    if data.get("image_size") is not None:
        size = data["image_size"]
        if (
            not isinstance(size, list) or len(size) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)
        ):
            raise CalibrationError(f"'image_size' must be [width, height] in whole pixels, not {size!r}")
        image_size = (size[0], size[1])

    variant = data.get("variant")
    if variant is not None and variant not in VARIANTS:
        raise CalibrationError(f"'variant' must be 'colored' or 'gray', not {variant!r}")

    boards_data = _require(data, "boards", list, "a list with one entry per player board")
    if len(boards_data) not in FACTORIES_FOR_PLAYERS:
        raise CalibrationError(f"'boards' must list 2, 3 or 4 player boards, not {len(boards_data)}")
    boards = [_board(item, f"boards[{i}]", image_size) for i, item in enumerate(boards_data)]

    factories_data = _require(data, "factories", list, "a list of {\"center\": [x, y], \"radius\": r}")
    expected = FACTORIES_FOR_PLAYERS[len(boards)]
    if len(factories_data) != expected:
        raise CalibrationError(
            f"'factories' lists {len(factories_data)} factory displays, but {len(boards)} players use {expected}"
        )
    factories = [_factory(item, f"factories[{i}]", image_size) for i, item in enumerate(factories_data)]

    if "center" in data:
        center_key = "center"
    elif "centre" in data:
        center_key = "centre"  # the British spelling a person may well type
    else:
        raise CalibrationError("missing field 'center': the centre-of-table region as a polygon [[x, y], ...]")
    center = _polygon(data[center_key], center_key, image_size)

    camera = _camera(data["camera"]) if data.get("camera") is not None else None
    learned = data.get("learned", {})
    if not isinstance(learned, dict):
        raise CalibrationError("'learned' must be a JSON object")
    return CalibrationProfile(boards, factories, center, image_size, variant, camera, learned)


def _require(data: dict, key: str, kind: type, what: str) -> Any:
    if key not in data:
        raise CalibrationError(f"missing field '{key}': {what}")
    if not isinstance(data[key], kind):
        raise CalibrationError(f"'{key}' must be {what}")
    return data[key]


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise CalibrationError(f"'{where}' must be a number, not {value!r}")
    return float(value)


def _point(value: Any, where: str, image_size: tuple[int, int] | None) -> Point:
    if not isinstance(value, list) or len(value) != 2:
        raise CalibrationError(f"'{where}' must be a point [x, y] in image pixels, not {value!r}")
    x, y = _number(value[0], f"{where}[0]"), _number(value[1], f"{where}[1]")
    if image_size is not None:
        # A corner may lie a little outside the frame (a board at the edge); far outside is a typo.
        w, h = image_size
        if not (-w <= x <= 2 * w and -h <= y <= 2 * h):
            raise CalibrationError(f"'{where}' = [{x:g}, {y:g}] is far outside the {w}x{h} image")
    return (x, y)


def signed_area(points: list[Point]) -> float:
    """Shoelace area in image coordinates (y down): positive when the points run clockwise on screen."""
    total = 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
        total += x0 * y1 - x1 * y0
    return total / 2


def _is_convex(points: list[Point]) -> bool:
    signs = set()
    n = len(points)
    for i in range(n):
        (x0, y0), (x1, y1), (x2, y2) = points[i], points[(i + 1) % n], points[(i + 2) % n]
        cross = (x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1)
        if cross != 0:
            signs.add(cross > 0)
    return len(signs) == 1


def _board(item: Any, where: str, image_size: tuple[int, int] | None) -> BoardCalibration:
    if not isinstance(item, dict):
        raise CalibrationError(f"'{where}' must be an object with 'corners': [TL, TR, BR, BL]")
    corners_data = item.get("corners")
    if corners_data is None:
        raise CalibrationError(f"missing field '{where}.corners': the 4 outer corners [TL, TR, BR, BL] in pixels")
    if not isinstance(corners_data, list) or len(corners_data) != 4:
        raise CalibrationError(
            f"'{where}.corners' must list exactly 4 points: top-left, top-right, bottom-right, bottom-left"
        )
    corners = [_point(p, f"{where}.corners[{k}]", image_size) for k, p in enumerate(corners_data)]
    area = signed_area(corners)
    if abs(area) < 100:
        raise CalibrationError(f"'{where}.corners' enclose almost no area ({abs(area):.0f} square pixels)")
    if not _is_convex(corners):
        raise CalibrationError(f"'{where}.corners' do not form a convex quadrilateral: is a corner out of order?")
    if area < 0:
        # Turning the board only rotates the quadrilateral; anticlockwise order means two corners are swapped.
        raise CalibrationError(
            f"'{where}.corners' run anticlockwise: list them top-left, top-right, bottom-right, bottom-left "
            "as the board is read (score track at the top)"
        )
    name = item.get("name")
    if name is not None and not isinstance(name, str):
        raise CalibrationError(f"'{where}.name' must be text")
    layout = _layout(item["layout"], f"{where}.layout") if item.get("layout") is not None else None
    return BoardCalibration(tuple(corners), name, layout)  # type: ignore[arg-type]


def _layout(value: Any, where: str) -> BoardLayout:
    if not isinstance(value, dict):
        raise CalibrationError(f"'{where}' must be an object of layout fractions")
    known = {f.name for f in fields(BoardLayout)}
    unknown = sorted(set(value) - known)
    if unknown:
        raise CalibrationError(f"'{where}' has unknown field(s) {', '.join(unknown)}")
    values = {}
    for key, v in value.items():
        number = _number(v, f"{where}.{key}")
        if not 0 < number < 1:
            raise CalibrationError(f"'{where}.{key}' is a fraction of the board and must lie in (0, 1), not {v!r}")
        values[key] = number
    return BoardLayout(**values)


def _factory(item: Any, where: str, image_size: tuple[int, int] | None) -> FactoryCalibration:
    if not isinstance(item, dict):
        raise CalibrationError(f"'{where}' must be an object {{\"center\": [x, y], \"radius\": r}}")
    key = "center" if "center" in item else "centre"
    if key not in item:
        raise CalibrationError(f"missing field '{where}.center': the factory display's centre [x, y] in pixels")
    center = _point(item[key], f"{where}.{key}", image_size)
    if "radius" not in item:
        raise CalibrationError(f"missing field '{where}.radius': the factory display's radius in pixels")
    radius = _number(item["radius"], f"{where}.radius")
    if radius <= 0:
        raise CalibrationError(f"'{where}.radius' must be positive, not {item['radius']!r}")
    return FactoryCalibration(center, radius)


def _polygon(value: Any, where: str, image_size: tuple[int, int] | None) -> list[Point]:
    if not isinstance(value, list) or len(value) < 3:
        raise CalibrationError(f"'{where}' must be a polygon of at least 3 points [[x, y], ...]")
    points = [_point(p, f"{where}[{k}]", image_size) for k, p in enumerate(value)]
    if abs(signed_area(points)) < 100:
        raise CalibrationError(f"'{where}' encloses almost no area")
    return points


def _camera(value: Any) -> CameraModel:
    if not isinstance(value, dict):
        raise CalibrationError("'camera' must be an object with 'matrix' (3x3) and 'distortion'")
    matrix = value.get("matrix")
    if not isinstance(matrix, list) or len(matrix) != 3 or not all(isinstance(r, list) and len(r) == 3 for r in matrix):
        raise CalibrationError("'camera.matrix' must be a 3x3 list of numbers")
    rows = tuple(
        tuple(_number(v, f"camera.matrix[{i}][{j}]") for j, v in enumerate(row)) for i, row in enumerate(matrix)
    )
    distortion = value.get("distortion", [])
    if not isinstance(distortion, list) or len(distortion) not in (0, 4, 5, 8, 12, 14):
        raise CalibrationError("'camera.distortion' must list 0, 4, 5, 8, 12 or 14 OpenCV coefficients")
    coeffs = tuple(_number(v, f"camera.distortion[{i}]") for i, v in enumerate(distortion))
    return CameraModel(rows, coeffs)


# ---- saving -------------------------------------------------------------------------------------------------
def dumps(profile: CalibrationProfile) -> str:
    """The profile as JSON laid out for people: one point per line, objects indented."""
    return _format(profile.to_json(), 0) + "\n"


def save(profile: CalibrationProfile, path: str | os.PathLike) -> None:
    """Write atomically, so a crash never leaves half a calibration behind."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dumps(profile), encoding="utf-8")
    os.replace(tmp, path)


def _format(value: Any, indent: int) -> str:
    # Short lists of scalars (points, sizes, matrix rows) stay on one line; everything else is indented.
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{pad}{json.dumps(k)}: {_format(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list):
        if all(not isinstance(v, (list, dict)) for v in value) and len(value) <= 16:
            return "[" + ", ".join(json.dumps(v) for v in value) + "]"
        if all(isinstance(v, list) and all(not isinstance(x, (list, dict)) for x in v) for v in value) and len(value) <= 4:
            return "[" + ", ".join(_format(v, indent + 1) for v in value) + "]"
        items = [pad + _format(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(value)
