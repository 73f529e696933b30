"""Azul Duel's printed components as data: dome-tile faces, special-tile row points, bonus-tile faces.

These faces are printed on the pieces, not written in the rulebook, so the tracker never assumes them: they come
from a JSON file the user writes (format in docs/duel-components.md) or from code (tests, the benchmark). The
loader checks every field and names the one that is wrong. `placeholder_components()` builds a made-up set for
demos and benchmarks; it is marked `placeholder=True` and is NOT the real game's faces.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass

from tracker.tiles import BLACK, BLUE, RED, WHITE, YELLOW

# Azul Duel's five tile colours. The rulebook names turquoise ("turquesa") and blue ("azul") as different
# colours and never white, so Duel keeps the shared colour ints but gives slot 4 its Duel name.
TURQUOISE = WHITE
DUEL_COLOURS = (BLUE, YELLOW, RED, BLACK, TURQUOISE)
DUEL_COLOUR_NAMES = ("blue", "yellow", "red", "black", "turquoise")
TILES_PER_COLOUR = 13  # "65 peças de azulejo restantes (13 de cada uma das 5 cores)"
SPECIAL_TILES = 9  # "separa as 9 peças especiais"
BONUS_TILES = 20  # "as 20 peças de bónus"
DOME_SPACES = 9  # "Cúpula (9 espaços de cúpula)"
DOME_SIZE = 6  # 3x3 dome-tile spaces of 2x2 spaces each
# Every player ends round 4 with 9 dome tiles (1 at setup, 2 per round), so the game needs at least 18.
MIN_DOME_TILES = 2 * DOME_SPACES

# What a dome space shows (its face), beside the colours 0..4.
JOKER = 6  # "espaço com todas as cores": takes a tile of any colour
SPECIAL_SPACE = 7  # "espaço sem cor": only a special tile goes there

# What a dome space holds: a colour 0..4, EMPTY, or a special tile. Non-EMPTY, so adjacency runs count it.
SPECIAL_TILE = 5

SCORING_TILES = (
    "rows",  # +3 per complete horizontal line of 6
    "columns",  # +7 per complete vertical line of 6
    "diagonals",  # +10 per complete diagonal of 6
    "jokers",  # +2 per joker space if all of them are filled, else 0
    "five_colour_rows",  # +4 per row holding at least 5 different colours (a special tile may be one)
    "outer_ring",  # +1 per tile on the dome's outer spaces
    "corners",  # +3 or +8 (as printed) per complete corner dome tile
    "empty_specials",  # -3 per empty special space
)

_FACE_NAMES = {
    **{name: c for c, name in enumerate(DUEL_COLOUR_NAMES)},
    "joker": JOKER,
    "special": SPECIAL_SPACE,
}


class ComponentError(ValueError):
    """A component file that cannot be used; the message names the field."""


def duel_colour_name(colour: int) -> str:
    return DUEL_COLOUR_NAMES[colour]


def parse_duel_colour(name: object) -> int:
    """The colour for a Duel colour name ("turquoise"); ValueError listing the valid names otherwise."""
    if isinstance(name, str):
        key = name.strip().lower()
        if key in _FACE_NAMES and _FACE_NAMES[key] < 5:
            return _FACE_NAMES[key]
    raise ValueError(f"unknown tile colour {name!r}: expected one of {', '.join(DUEL_COLOUR_NAMES)}")


def face_name(code: int) -> str:
    if code == JOKER:
        return "joker"
    if code == SPECIAL_SPACE:
        return "special"
    return DUEL_COLOUR_NAMES[code]


def _rotate(cells: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    # cells in reading order (top-left, top-right, bottom-left, bottom-right); a quarter turn clockwise.
    tl, tr, bl, br = cells
    return (bl, tl, br, tr)


@dataclass(frozen=True, slots=True)
class DomeTileFace:
    """One dome tile's 2x2 face as written in the file (rotation 0), and its 4 quarter-turns clockwise."""

    name: str
    cells: tuple[int, int, int, int]  # reading order: top-left, top-right, bottom-left, bottom-right
    rotations: tuple[tuple[int, int, int, int], ...]

    @staticmethod
    def of(name: str, cells: Sequence[int]) -> DomeTileFace:
        turns = [tuple(cells)]
        for _ in range(3):
            turns.append(_rotate(turns[-1]))
        return DomeTileFace(name, tuple(cells), tuple(turns))

    @property
    def is_special(self) -> bool:
        return SPECIAL_SPACE in self.cells

    def to_json(self) -> dict:
        names = [face_name(c) for c in self.cells]
        return {"name": self.name, "spaces": [names[:2], names[2:]]}


@dataclass(frozen=True, slots=True)
class BonusTileFace:
    """A bonus tile: two halves, each a colour or blank (some tiles have only one coloured half)."""

    name: str
    halves: tuple[int | None, int | None]

    def shows(self, colour: int) -> bool:
        return colour in self.halves

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "halves": [None if h is None else DUEL_COLOUR_NAMES[h] for h in self.halves],
        }


@dataclass(frozen=True, slots=True)
class DuelComponents:
    dome_tiles: tuple[DomeTileFace, ...]
    bonus_tiles: tuple[BonusTileFace, ...]
    special_row_points: tuple[int, ...]  # per dome row, top to bottom: points printed at its right
    corner_points: tuple[int, int, int, int] | None  # the "corners" scoring tile: TL, TR, BL, BR dome tiles
    scoring_tiles: tuple[str, ...]  # the 3 (or 4) end-game scoring tiles in use
    placeholder: bool = False  # True: made-up faces, not the real game's
    note: str = ""

    def to_json(self) -> dict:
        data: dict = {
            "format": "azul-duel-components",
            "version": 1,
            "placeholder": self.placeholder,
            "note": self.note,
            "dome_tiles": [t.to_json() for t in self.dome_tiles],
            "bonus_tiles": [t.to_json() for t in self.bonus_tiles],
            "special_row_points": list(self.special_row_points),
            "scoring_tiles": list(self.scoring_tiles),
        }
        if self.corner_points is not None:
            data["corner_points"] = list(self.corner_points)
        return data


def load_components(path: str | os.PathLike) -> DuelComponents:
    """Read and check a component file; ComponentError names the file and the field at fault."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as err:
        raise ComponentError(f"cannot read the component file {path}: {err.strerror or err}") from None
    except json.JSONDecodeError as err:
        raise ComponentError(f"{path} is not valid JSON: {err}") from None
    try:
        return parse_components(data)
    except ComponentError as err:
        raise ComponentError(f"{path}: {err}") from None


def parse_components(data: object) -> DuelComponents:
    """Check a component description (the JSON file's content) and build it; ComponentError names the field."""
    if not isinstance(data, dict):
        raise ComponentError("the component data must be a JSON object")
    fmt = data.get("format")
    if fmt != "azul-duel-components":
        raise ComponentError(f"field 'format' must be \"azul-duel-components\", not {fmt!r}")
    if data.get("version") != 1:
        raise ComponentError(f"field 'version' must be 1, not {data.get('version')!r}")
    placeholder = data.get("placeholder", False)
    if not isinstance(placeholder, bool):
        raise ComponentError(f"field 'placeholder' must be true or false, not {placeholder!r}")
    note = data.get("note", "")
    if not isinstance(note, str):
        raise ComponentError("field 'note' must be a string")
    dome = _parse_dome_tiles(data.get("dome_tiles"))
    bonus = _parse_bonus_tiles(data.get("bonus_tiles"))
    rows = data.get("special_row_points")
    if not isinstance(rows, list) or len(rows) != DOME_SIZE:
        raise ComponentError(
            f"field 'special_row_points' must list {DOME_SIZE} numbers, the points printed at the right of each "
            f"dome row, top to bottom; got {rows!r}"
        )
    for i, p in enumerate(rows):
        if not _is_int(p) or p < 0:
            raise ComponentError(
                f"field 'special_row_points[{i}]' must be a whole number of 0 or more, not {p!r}"
            )
    scoring = parse_scoring_tiles(data.get("scoring_tiles"), "scoring_tiles")
    corners = _parse_corner_points(data.get("corner_points"))
    if "corners" in scoring and corners is None:
        raise ComponentError("field 'corner_points' is needed when the 'corners' scoring tile is in use")
    return DuelComponents(dome, bonus, tuple(rows), corners, scoring, placeholder, note)


def parse_scoring_tiles(value: object, field: str = "scoring_tiles") -> tuple[str, ...]:
    if not isinstance(value, list) or not 3 <= len(value) <= 4:
        raise ComponentError(
            f"field '{field}' must list the 3 (or 4) scoring tiles in use, from: {', '.join(SCORING_TILES)}"
        )
    for i, name in enumerate(value):
        if name not in SCORING_TILES:
            raise ComponentError(
                f"field '{field}[{i}]': unknown scoring tile {name!r}; expected one of {', '.join(SCORING_TILES)}"
            )
    if len(set(value)) != len(value):
        raise ComponentError(f"field '{field}' lists a scoring tile twice")
    return tuple(value)


def _named_entries(value: object, field: str, what: str, key: str, fits: bool):
    """(where, name, the entry's `key`) of each entry of a list of tile objects, each with an optional name;
    `fits`: the list has as many entries as the game needs, said by `what` when it does not."""
    if not isinstance(value, list) or not fits:
        raise ComponentError(
            f"field '{field}' must list {what}; got {len(value) if isinstance(value, list) else repr(value)}"
        )
    for i, entry in enumerate(value):
        where = f"{field}[{i}]"
        if not isinstance(entry, dict):
            raise ComponentError(f"field '{where}' must be an object with '{key}'")
        name = entry.get("name", f"{field.replace('_', ' ')[:-1]} {i + 1}")
        if not isinstance(name, str):
            raise ComponentError(f"field '{where}.name' must be a string")
        yield where, name, entry.get(key)


def _parse_dome_tiles(value: object) -> tuple[DomeTileFace, ...]:
    fits = isinstance(value, list) and len(value) >= MIN_DOME_TILES
    what = f"at least {MIN_DOME_TILES} dome tiles (each player places 9)"
    tiles = []
    for where, name, spaces in _named_entries(value, "dome_tiles", what, "spaces", fits):
        if (
            not isinstance(spaces, list)
            or len(spaces) != 2
            or not all(isinstance(r, list) and len(r) == 2 for r in spaces)
        ):
            raise ComponentError(
                f'field \'{where}.spaces\' must be 2 rows of 2 spaces, e.g. [["red", "joker"], '
                f'["blue", "black"]]'
            )
        cells = []
        for r in range(2):
            for c in range(2):
                cell = spaces[r][c]
                key = cell.strip().lower() if isinstance(cell, str) else None
                if key not in _FACE_NAMES:
                    raise ComponentError(
                        f"field '{where}.spaces[{r}][{c}]': unknown space {cell!r}; expected one of "
                        f"{', '.join(DUEL_COLOUR_NAMES)}, joker, special"
                    )
                cells.append(_FACE_NAMES[key])
        jokers = cells.count(JOKER)
        specials = cells.count(SPECIAL_SPACE)
        # The rulebook: two kinds of dome tile, one uncoloured (special) space or one all-colour (joker) space.
        if jokers + specials != 1:
            raise ComponentError(
                f"field '{where}.spaces' must have exactly one 'joker' or one 'special' space and 3 colours "
                f"(the rulebook's two kinds of dome tile); it has {jokers} joker and {specials} special"
            )
        tiles.append(DomeTileFace.of(name, cells))
    return tuple(tiles)


def _parse_bonus_tiles(value: object) -> tuple[BonusTileFace, ...]:
    fits = isinstance(value, list) and len(value) == BONUS_TILES
    tiles = []
    for where, name, halves in _named_entries(value, "bonus_tiles", f"the game's {BONUS_TILES} bonus tiles",
                                              "halves", fits):
        if not isinstance(halves, list) or len(halves) != 2:
            raise ComponentError(
                f"field '{where}.halves' must be 2 entries: a colour name or null (blank half)"
            )
        parsed: list[int | None] = []
        for h, half in enumerate(halves):
            if half is None:
                parsed.append(None)
                continue
            try:
                parsed.append(parse_duel_colour(half))
            except ValueError as err:
                raise ComponentError(f"field '{where}.halves[{h}]': {err}") from None
        if parsed == [None, None]:
            raise ComponentError(f"field '{where}.halves': at least one half of a bonus tile is coloured")
        tiles.append(BonusTileFace(name, (parsed[0], parsed[1])))
    return tuple(tiles)


def _parse_corner_points(value: object) -> tuple[int, int, int, int] | None:
    if value is None:
        return None
    values = [value] * 4 if _is_int(value) else value
    if (
        not isinstance(values, list)
        or len(values) != 4
        or not all(_is_int(v) and v in (3, 8) for v in values)
    ):
        raise ComponentError(
            "field 'corner_points' must be 3 or 8 (the rulebook's two values), or a list of 4 of them for the "
            f"top-left, top-right, bottom-left and bottom-right dome tiles; got {value!r}"
        )
    return (values[0], values[1], values[2], values[3])


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def placeholder_components(
    scoring_tiles: Sequence[str] = ("rows", "columns", "empty_specials"),
) -> DuelComponents:
    """A made-up, deterministic component set for demos, benchmarks and property tests.

    NOT the real game's faces or points: a cyclic pattern chosen so that every kind of space and every colour
    occurs. Marked placeholder=True so nothing presents it as the printed game.
    """
    dome = []
    for i in range(24):
        a, b, c = (i % 5), (i + 1) % 5, (i + 3) % 5
        odd = SPECIAL_SPACE if i % 3 == 0 else JOKER
        cells = [a, b, c, odd]
        # Move the odd space around so rotations and positions vary between tiles.
        k = (i // 3) % 4
        cells[3], cells[k] = cells[k], cells[3]
        dome.append(DomeTileFace.of(f"placeholder dome tile {i + 1}", cells))
    bonus = [
        BonusTileFace(f"placeholder bonus tile {i + 1}", (i % 5, None if i % 4 == 3 else (i + 2) % 5))
        for i in range(BONUS_TILES)
    ]
    return DuelComponents(
        dome_tiles=tuple(dome),
        bonus_tiles=tuple(bonus),
        special_row_points=(1, 2, 3, 3, 2, 1),
        corner_points=(3, 8, 8, 3),
        scoring_tiles=parse_scoring_tiles(list(scoring_tiles)),
        placeholder=True,
        note="PLACEHOLDER: made-up faces and points for demos and tests, not the printed Azul Duel components.",
    )
