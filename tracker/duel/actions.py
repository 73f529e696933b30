"""Azul Duel's actions in the acquisition phase (and the opening dome-tile picks), as frozen values.

A) `TakeDomeTile` (a face-up dome tile), or `DrawDomeTile` repeated and then `KeepDomeTile` (from the stack);
B) `TakeSun`; C) `TakeMoons`; D) `TakeBonus`. Each converts to and from its game-log event.
Which tile a draw from the stack turns up is not a choice but something seen: it travels beside the action
(`revealed`), as does the dome tile that refills the face-up display during the opening.
"""

from __future__ import annotations

from dataclasses import dataclass

from tracker.duel.components import DUEL_COLOUR_NAMES, parse_duel_colour

LARGE = 4  # the large factory's index; the small factories are 0..3
SMALL_FACTORIES = 4
PATTERN_LINES = 6
BROKEN = 6  # destination: the broken-tiles space
ROTATIONS = 4


def factory_name(factory: int) -> str:
    return "the large factory" if factory == LARGE else f"small factory {factory + 1}"


def line_name(line: int) -> str:
    return "the broken tiles" if line == BROKEN else f"pattern line {line + 1}"


@dataclass(frozen=True, slots=True)
class TakeDomeTile:
    """A face-up dome tile placed on dome space `space` (0..8, reading order) turned `rotation` quarter-turns
    clockwise. Costs a player piece, except in the opening picks."""

    tile: int
    space: int
    rotation: int

    def to_json(self) -> dict:
        return {"type": "dome_tile", "tile": self.tile, "space": self.space, "rotation": self.rotation}

    def __str__(self) -> str:
        return (
            f"take face-up dome tile #{self.tile} to dome space {self.space + 1} (rotation {self.rotation})"
        )


@dataclass(frozen=True, slots=True)
class DrawDomeTile:
    """Draw the top dome tile of the stack, unseen, for 1 point (the first draw places a player piece)."""

    def to_json(self) -> dict:
        return {"type": "dome_draw"}

    def __str__(self) -> str:
        return "draw a dome tile from the stack (1 point)"


@dataclass(frozen=True, slots=True)
class KeepDomeTile:
    """Stop drawing: keep one drawn dome tile, place it; the others go to the bottom of the stack."""

    tile: int
    space: int
    rotation: int

    def to_json(self) -> dict:
        return {"type": "dome_keep", "tile": self.tile, "space": self.space, "rotation": self.rotation}

    def __str__(self) -> str:
        return f"keep drawn dome tile #{self.tile} on dome space {self.space + 1} (rotation {self.rotation})"


@dataclass(frozen=True, slots=True)
class TakeSun:
    """All tiles of `colour` from one factory's sun to `line`. For a small factory, `stack` is the order the
    leftovers are stacked on its moon, bottom to top (the player's choice); empty for the large factory."""

    factory: int
    colour: int
    line: int
    stack: tuple[int, ...] = ()

    def to_json(self) -> dict:
        return {
            "type": "take_sun",
            "factory": "large" if self.factory == LARGE else self.factory,
            "colour": DUEL_COLOUR_NAMES[self.colour],
            "line": "broken" if self.line == BROKEN else self.line,
            "stack": [DUEL_COLOUR_NAMES[c] for c in self.stack],
        }

    def __str__(self) -> str:
        return f"{DUEL_COLOUR_NAMES[self.colour]} from the sun of {factory_name(self.factory)} to {line_name(self.line)}"


@dataclass(frozen=True, slots=True)
class TakeMoons:
    """Every top tile of `colour` from all five moons to `line`."""

    colour: int
    line: int

    def to_json(self) -> dict:
        return {
            "type": "take_moons",
            "colour": DUEL_COLOUR_NAMES[self.colour],
            "line": "broken" if self.line == BROKEN else self.line,
        }

    def __str__(self) -> str:
        return f"{DUEL_COLOUR_NAMES[self.colour]} from the moons to {line_name(self.line)}"


@dataclass(frozen=True, slots=True)
class TakeBonus:
    """The revealed bonus tile of small factory `factory` (0..3) to the player's bonus reserve."""

    factory: int

    def to_json(self) -> dict:
        return {"type": "take_bonus", "factory": self.factory}

    def __str__(self) -> str:
        return f"take the bonus tile of {factory_name(self.factory)}"


DuelAction = TakeDomeTile | DrawDomeTile | KeepDomeTile | TakeSun | TakeMoons | TakeBonus
DRAW = DrawDomeTile()
ACTION_EVENTS = frozenset({"dome_tile", "dome_draw", "dome_keep", "take_sun", "take_moons", "take_bonus"})


def action_from_json(event: dict) -> DuelAction:
    """The action an event records; ValueError naming the field otherwise."""
    kind = event.get("type")
    if kind in ("dome_tile", "dome_keep"):
        tile = _int_field(event, "tile", 0, 10_000)
        space = _int_field(event, "space", 0, 8)
        rotation = _int_field(event, "rotation", 0, ROTATIONS - 1)
        return (
            TakeDomeTile(tile, space, rotation)
            if kind == "dome_tile"
            else KeepDomeTile(tile, space, rotation)
        )
    if kind == "dome_draw":
        return DRAW
    if kind == "take_sun":
        factory = event.get("factory")
        if factory == "large":
            f = LARGE
        else:
            f = _int_field(event, "factory", 0, SMALL_FACTORIES - 1, 'or "large"')
        stack = event.get("stack", [])
        if not isinstance(stack, list):
            raise ValueError("field 'stack' must list the moon's new stack, bottom to top")
        return TakeSun(
            f,
            parse_duel_colour(event.get("colour")),
            _line(event),
            tuple(parse_duel_colour(c) for c in stack),
        )
    if kind == "take_moons":
        return TakeMoons(parse_duel_colour(event.get("colour")), _line(event))
    if kind == "take_bonus":
        return TakeBonus(_int_field(event, "factory", 0, SMALL_FACTORIES - 1))
    raise ValueError(f"{kind!r} is not an Azul Duel action")


def _line(event: dict) -> int:
    line = event.get("line")
    if line == "broken":
        return BROKEN
    return _int_field(event, "line", 0, PATTERN_LINES - 1, 'or "broken"')


def _int_field(event: dict, name: str, low: int, high: int, extra: str = "") -> int:
    value = event.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"field '{name}' must be {low}..{high}{' ' + extra if extra else ''}, not {value!r}")
    return value
