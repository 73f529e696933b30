"""Where things lie on the table, in millimetres, and where each tile of a table view sits.

`table_layout` places the player boards round the table (each facing its player), the factory displays in a ring
and the centre inside it. `PiecePlacer` turns a table view (DESIGN.md's observation shape) into pieces with a
pose: tiles on boards sit on their printed spaces with a small, stable offset and turn; factory tiles lie loose
and touching; the centre is a pile that keeps its tiles where they are when others are added or taken, as a
real pile does. The placer remembers the pile between calls, so each game owns one.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.profile import DEFAULT_LAYOUT, BoardLayout

BOARD_MM = 265.0  # a classic board is about 26.5 cm square; spaces are 0.072 of it (19 mm tiles)
TILE_MM = BOARD_MM * DEFAULT_LAYOUT.space * 0.98
TILE_HEIGHT_MM = 5.5
BOARD_THICKNESS_MM = 2.0
DISC_RADIUS_MM = BOARD_MM * 0.13
CUBE_MM = 9.0
MARKER_MM = TILE_MM * 1.12


@dataclass(frozen=True)
class BoardPlace:
    """A board on the table: its centre and the world directions of its reading right and down."""

    centre: tuple[float, float]
    right: tuple[float, float]
    down: tuple[float, float]
    width: float = BOARD_MM

    def at(self, u: float, v: float) -> tuple[float, float]:
        """Board fractions (u right, v down, as the board is read) -> world mm."""
        du, dv = (u - 0.5) * self.width, (v - 0.5) * self.width
        return (self.centre[0] + du * self.right[0] + dv * self.down[0],
                self.centre[1] + du * self.right[1] + dv * self.down[1])

    @property
    def angle(self) -> float:
        """Turn of the board's reading 'right' from world +x, radians."""
        return math.atan2(self.right[1], self.right[0])

    def corners(self) -> list[tuple[float, float]]:
        """TL, TR, BR, BL as the board is read."""
        return [self.at(0, 0), self.at(1, 0), self.at(1, 1), self.at(0, 1)]

    def moved(self, dx: float, dy: float, turn: float) -> BoardPlace:
        """The board slid by (dx, dy) mm and turned by `turn` radians about its centre (a nudge)."""
        c, s = math.cos(turn), math.sin(turn)
        return BoardPlace((self.centre[0] + dx, self.centre[1] + dy),
                          (c * self.right[0] - s * self.right[1], s * self.right[0] + c * self.right[1]),
                          (c * self.down[0] - s * self.down[1], s * self.down[0] + c * self.down[1]), self.width)


@dataclass(frozen=True)
class TableLayout:
    boards: tuple[BoardPlace, ...]
    factories: tuple[tuple[float, float], ...]
    centre_radius: float  # the centre of the table: a disc round the origin
    seats: tuple[tuple[float, float], ...]  # per player, the unit direction from the table's middle to them

    def centre_polygon(self, sides: int = 12) -> list[tuple[float, float]]:
        return [
            (self.centre_radius * math.cos(2 * math.pi * k / sides), self.centre_radius * math.sin(2 * math.pi * k / sides))
            for k in range(sides)
        ]

    def room_for(self, index: int, place: BoardPlace, gap: float = 3.0) -> bool:
        """Whether board `index` may lie at `place`: at least `gap` mm from every other board and display."""
        mine = np.array(place.corners())
        others = [np.array(b.corners()) for k, b in enumerate(self.boards) if k != index]
        if any(_polygon_gap(mine, other) < gap for other in others):
            return False
        return all(_point_gap(np.array(f), mine) > DISC_RADIUS_MM + gap for f in self.factories)

    def extent(self) -> np.ndarray:
        """World points that must be in view: every board corner (with the space in front for the marker) and
        every factory display."""
        pts = []
        for b in self.boards:
            pts += [b.at(-0.02, -0.02), b.at(1.02, -0.02), b.at(1.12, 1.12), b.at(-0.02, 1.12)]
        for x, y in self.factories:
            pts += [(x - DISC_RADIUS_MM, y), (x + DISC_RADIUS_MM, y), (x, y - DISC_RADIUS_MM), (x, y + DISC_RADIUS_MM)]
        return np.array([(x, y, 0.0) for x, y in pts])


def _point_gap(point: np.ndarray, polygon: np.ndarray) -> float:
    """Distance from a point to a convex polygon's outline (0 inside)."""
    if cv2.pointPolygonTest(polygon.astype(np.float32).reshape(-1, 1, 2), (float(point[0]), float(point[1])), False) >= 0:
        return 0.0
    a, b = polygon, np.roll(polygon, -1, axis=0)
    t = np.clip(np.einsum("ij,ij->i", point - a, b - a) / np.einsum("ij,ij->i", b - a, b - a), 0, 1)
    return float(np.min(np.linalg.norm(a + t[:, None] * (b - a) - point, axis=1)))


def _polygon_gap(p: np.ndarray, q: np.ndarray) -> float:
    """Distance between two convex polygons (0 when they overlap)."""
    return min(min(_point_gap(v, q) for v in p), min(_point_gap(v, p) for v in q))


def _seat_place(direction: tuple[float, float], distance: float, along: float = 0.0) -> BoardPlace:
    dx, dy = direction
    down = (dx, dy)  # a board is read by the player sitting on that side: its bottom edge faces them
    right = (dy, -dx)  # the player's right hand, seen from above in y-down coordinates
    centre = (dx * distance + right[0] * along, dy * distance + right[1] * along)
    return BoardPlace(centre, right, down)


def table_layout(players: int, arrangement: str, rng: np.random.Generator) -> TableLayout:
    """Boards round the table ("around": one per side, clockwise from the bottom) or facing each other in two
    rows ("rows": players 0 and 1 at the bottom, the others at the top), factory displays in a ring."""
    factories = 2 * players + 1
    ring = max(118.0, factories * (2 * DISC_RADIUS_MM + 12) / (2 * math.pi))
    centre_radius = ring - DISC_RADIUS_MM - 8
    gap = ring + DISC_RADIUS_MM + 22 + BOARD_MM / 2
    bottom, left, top, right = (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0)
    if arrangement == "rows" and players >= 3:
        half = BOARD_MM / 2 + 12
        places = [_seat_place(bottom, gap, -half), _seat_place(bottom, gap, half), _seat_place(top, gap, -half)]
        if players == 4:
            places.append(_seat_place(top, gap, half))
        seats = tuple(p.down for p in places)
    else:
        order = {2: [bottom, top], 3: [bottom, left, right], 4: [bottom, left, top, right]}[players]
        places = [_seat_place(d, gap) for d in order]
        seats = tuple(order)
    # Nobody lays a board perfectly square to the table.
    jittered = []
    for p in places:
        turn = math.radians(rng.uniform(-4, 4))
        c, s = math.cos(turn), math.sin(turn)
        right_v = (c * p.right[0] - s * p.right[1], s * p.right[0] + c * p.right[1])
        down_v = (c * p.down[0] - s * p.down[1], s * p.down[0] + c * p.down[1])
        centre = (p.centre[0] + rng.uniform(-8, 8), p.centre[1] + rng.uniform(-8, 8))
        jittered.append(BoardPlace(centre, right_v, down_v))
    start = rng.uniform(0, 2 * math.pi)
    discs = tuple(
        (ring * math.cos(start + 2 * math.pi * k / factories) + rng.uniform(-4, 4),
         ring * math.sin(start + 2 * math.pi * k / factories) + rng.uniform(-4, 4))
        for k in range(factories)
    )
    return TableLayout(tuple(jittered), discs, centre_radius, seats)


# ---- pieces -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Piece:
    """A solid on the table: a square box of side `size` and `height`, standing on `base` mm above the table.

    kind: a colour name (a tile), "first_player" (the marker), "cube" (a score marker), or "solid:B,G,R" for
    clutter."""

    kind: str
    x: float
    y: float
    angle: float  # radians
    size: float = TILE_MM
    height: float = TILE_HEIGHT_MM
    base: float = BOARD_THICKNESS_MM


def _stable_rng(*key) -> np.random.Generator:
    """A generator fixed by a key, so the same tile in the same space always lies the same way."""
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _counts(mapping: dict) -> list[str]:
    return [colour for colour in ("blue", "yellow", "red", "black", "white") for _ in range(int(mapping.get(colour, 0)))]


class PiecePlacer:
    """Turns table views into posed pieces for one game on one table."""

    def __init__(self, table: TableLayout, seed: int, layout: BoardLayout = DEFAULT_LAYOUT) -> None:
        self.table = table
        self.seed = seed
        self.layout = layout
        rng = _stable_rng(seed, "centre pile")
        self._pile_slots = _pile_slots(rng, table.centre_radius, 60)
        self._pile: list[tuple[int, str]] = []  # (slot, colour) of the tiles in the centre now

    # Pieces on a board -------------------------------------------------------------------------------------
    def _on_board(self, player: int, u: float, v: float, kind: str, key, size=TILE_MM, height=TILE_HEIGHT_MM,
                  wobble: float = 1.0) -> Piece:
        board = self.table.boards[player]
        rng = _stable_rng(self.seed, player, key)
        x, y = board.at(u, v)
        dx, dy = rng.normal(0, 0.9 * wobble, 2)
        turn = math.radians(rng.normal(0, 3.0 * wobble))
        return Piece(kind, x + dx, y + dy, board.angle + turn, size, height)

    def board_pieces(self, player: int, board: dict, salt: int = 0) -> list[Piece]:
        layout = self.layout
        pieces = []
        for r, line in enumerate(board.get("pattern_lines", [])):
            for j, colour in enumerate(line[: r + 1]):
                pieces.append(self._on_board(player, *layout.pattern_line(r, j), colour, ("line", r, j, salt)))
        for r, row in enumerate(board.get("wall", [])):
            for c, colour in enumerate(row):
                if colour:
                    pieces.append(self._on_board(player, *layout.wall(r, c), colour, ("wall", r, c), wobble=0.8))
        for i, item in enumerate(board.get("floor", [])[:7]):
            size = MARKER_MM if item == "first_player" else TILE_MM
            pieces.append(self._on_board(player, *layout.floor(i), item, ("floor", i, salt), size=size, wobble=1.6))
        score = board.get("score_marker")
        if score is not None:
            pieces.append(
                self._on_board(player, *layout.score(int(score)), "cube", ("score", score), CUBE_MM, CUBE_MM, 0.4)
            )
        return pieces

    def marker_beside(self, player: int) -> Piece:
        """The first-player marker in front of its holder, between wall tiling and the next deal."""
        return self._on_board(player, 0.93, 1.07, "first_player", ("held",), MARKER_MM, TILE_HEIGHT_MM, 2.0)

    # Factory displays -------------------------------------------------------------------------------------
    def factory_pieces(self, index: int, contents: dict, salt: int = 0) -> list[Piece]:
        tiles = _counts(contents)
        if not tiles:
            return []
        rng = _stable_rng(self.seed, "factory", index, salt, tuple(tiles))
        order = rng.permutation(len(tiles))
        fx, fy = self.factories_xy(index)
        cluster_turn = rng.uniform(0, math.pi / 2)
        c, s = math.cos(cluster_turn), math.sin(cluster_turn)
        ox, oy = rng.uniform(-4, 4, 2)
        pitch = TILE_MM * 1.03  # loose, touching
        pieces = []
        for k, t in enumerate(order):
            gx, gy = (k % 2 - 0.5) * pitch, (k // 2 - 0.5) * pitch
            if len(tiles) > 4:  # not in a real deal, but a view may say so: spread them round
                gx, gy = 1.2 * pitch * math.cos(k * 2 * math.pi / len(tiles)), 1.2 * pitch * math.sin(k * 2 * math.pi / len(tiles))
            jx, jy = rng.normal(0, 0.8, 2)
            x = fx + ox + c * gx - s * gy + jx
            y = fy + oy + s * gx + c * gy + jy
            pieces.append(Piece(tiles[t], x, y, cluster_turn + math.radians(rng.normal(0, 4)), base=1.5))
        return pieces

    def factories_xy(self, index: int) -> tuple[float, float]:
        return self.table.factories[index]

    # The centre -------------------------------------------------------------------------------------------
    def centre_pieces(self, centre: dict, first_player: bool) -> list[Piece]:
        """The pile after this view: tiles of a colour whose count fell leave (from the newest), new tiles take
        the free places nearest the middle; the marker sits in the middle of the pile."""
        self._pile = self._next_pile(centre)
        pieces = [Piece(colour, *self._pile_slots[slot], base=0.0) for slot, colour in self._pile]
        if first_player:
            x, y, a = self._pile_slots[0]
            pieces.append(Piece("first_player", x, y, a, MARKER_MM, TILE_HEIGHT_MM, 0.0))
        return pieces

    def preview_new_centre_tiles(self, centre: dict) -> list[Piece]:
        """The tiles that would join the pile if the centre became `centre` (where leftovers slide to), without
        changing the pile."""
        before = set(self._pile)
        return [Piece(colour, *self._pile_slots[slot], base=0.0) for slot, colour in self._next_pile(centre)
                if (slot, colour) not in before]

    def _next_pile(self, centre: dict) -> list[tuple[int, str]]:
        want = {c: int(centre.get(c, 0)) for c in ("blue", "yellow", "red", "black", "white")}
        have: dict[str, list[int]] = {}
        for slot, colour in self._pile:
            have.setdefault(colour, []).append(slot)
        kept: list[tuple[int, str]] = []
        for colour, slots in have.items():
            kept += [(slot, colour) for slot in slots[: want.get(colour, 0)]]
        used = {slot for slot, _ in kept}
        free = [k for k in range(1, len(self._pile_slots)) if k not in used]
        for colour in want:
            extra = want[colour] - len(have.get(colour, []))
            for _ in range(max(0, extra)):
                if not free:
                    break
                kept.append((free.pop(0), colour))
        return sorted(kept)

    def pieces(self, view: dict, marker_holder: int | None = None, salt: int = 0) -> list[Piece]:
        """Every piece of a table view. `marker_holder`: the player with the marker in front of them (between
        wall tiling and the deal), which the observation shape does not carry."""
        out: list[Piece] = []
        for p, board in enumerate(view.get("boards", [])):
            out += self.board_pieces(p, board, salt)
        for i, contents in enumerate(view.get("factories", [])):
            out += self.factory_pieces(i, contents, salt)
        out += self.centre_pieces(view.get("center", {}), bool(view.get("first_player")))
        if marker_holder is not None:
            out.append(self.marker_beside(marker_holder))
        return out


def _pile_slots(rng: np.random.Generator, radius: float, count: int) -> list[tuple[float, float, float]]:
    """Places for a loose pile whose tiles touch: each new tile is pushed against one already there, as close
    to the middle as it will go. Slot 0 (the middle) is the first-player marker's."""
    slots = [(0.0, 0.0, rng.uniform(-0.4, 0.4))]
    limit = radius - TILE_MM * 0.6
    tries = 0
    while len(slots) < count and tries < 4000:
        tries += 1
        best = None
        for _ in range(10):
            bx, by, _a = slots[int(rng.integers(len(slots)))]
            a = rng.uniform(0, 2 * math.pi)
            d = TILE_MM * rng.uniform(1.08, 1.2)
            x, y = bx + d * math.cos(a), by + d * math.sin(a)
            if math.hypot(x, y) > limit:
                continue
            if min(math.hypot(x - sx, y - sy) for sx, sy, _ in slots) < TILE_MM * 1.08:
                continue
            score = math.hypot(x, y) + rng.uniform(0, 6)
            if best is None or score < best[0]:
                best = (score, x, y)
        if best is None:
            if tries > 3000:
                break
            continue
        slots.append((best[1], best[2], rng.uniform(-0.45, 0.45)))
    # If the region is too small for `count`, later tiles overlap the edge rather than vanish.
    while len(slots) < count:
        a = rng.uniform(0, 2 * math.pi)
        slots.append((limit * math.cos(a), limit * math.sin(a), rng.uniform(-0.45, 0.45)))
    return slots
