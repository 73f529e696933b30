"""A move of the factory offer: take every tile of one colour from one source, put them on one destination.

Moves are interned: every possible (source, colour, destination) exists once, built when the module is
imported, so generating legal moves only gathers ready-made tuples.
"""

from __future__ import annotations

from dataclasses import dataclass

from tracker.tiles import COLOUR_NAMES, COLOURS, parse_colour

CENTRE = -1
FLOOR = 5
MAX_FACTORIES = 9
PATTERN_LINES = 5


@dataclass(frozen=True, slots=True)
class Move:
    """source: factory display index (0-based) or CENTRE; colour: 0..4; line: pattern line 0..4 or FLOOR."""

    source: int
    colour: int
    line: int

    def __str__(self) -> str:
        where = "the centre" if self.source == CENTRE else f"factory display {self.source + 1}"
        to = "the floor line" if self.line == FLOOR else f"pattern line {self.line + 1}"
        return f"{COLOUR_NAMES[self.colour]} from {where} to {to}"

    def to_json(self) -> dict:
        """The move in the game log's (and the oracle's) form."""
        return {
            "source": "center" if self.source == CENTRE else "factory",
            "factory": None if self.source == CENTRE else self.source,
            "color": COLOUR_NAMES[self.colour],
            "line": "floor" if self.line == FLOOR else self.line,
        }

    @staticmethod
    def from_json(data: dict) -> Move:
        """Parse a move written by `to_json`; ValueError naming the bad field otherwise."""
        if not isinstance(data, dict):
            raise ValueError("a move must be a JSON object")
        source = data.get("source")
        if source == "center" or source == "centre":
            src = CENTRE
        elif source == "factory":
            factory = data.get("factory")
            if not isinstance(factory, int) or isinstance(factory, bool) or not 0 <= factory < MAX_FACTORIES:
                raise ValueError(f"move field 'factory' must be a factory index 0..8, not {factory!r}")
            src = factory
        else:
            raise ValueError(f"move field 'source' must be 'factory' or 'center', not {source!r}")
        colour = parse_colour(data.get("color", data.get("colour")))
        line = data.get("line")
        if line == "floor":
            dest = FLOOR
        elif isinstance(line, int) and not isinstance(line, bool) and 0 <= line < PATTERN_LINES:
            dest = line
        else:
            raise ValueError(f"move field 'line' must be 0..4 or 'floor', not {line!r}")
        return MOVES[_slot(src)][colour][dest]


def _slot(source: int) -> int:
    return MAX_FACTORIES if source == CENTRE else source


def _build_moves() -> tuple:
    return tuple(
        tuple(tuple(Move(src, c, d) for d in range(PATTERN_LINES + 1)) for c in COLOURS)
        for src in (*range(MAX_FACTORIES), CENTRE)
    )


# MOVES[slot][colour][destination]: the one Move object for it (slot MAX_FACTORIES is the centre).
MOVES = _build_moves()


def _build_by_mask() -> tuple:
    # BY_MASK[slot][colour][mask]: the moves to every pattern line allowed in the 5-bit mask, then the floor,
    # in the rulebook's reading order (line 1 to 5, floor last).
    return tuple(
        tuple(
            tuple(
                tuple(MOVES[slot][c][d] for d in range(PATTERN_LINES) if mask >> d & 1) + (MOVES[slot][c][FLOOR],)
                for mask in range(1 << PATTERN_LINES)
            )
            for c in COLOURS
        )
        for slot in range(MAX_FACTORIES + 1)
    )


BY_MASK = _build_by_mask()


def move(source: int, colour: int, line: int) -> Move:
    """The interned Move; raises ValueError for values no move can have."""
    if not (source == CENTRE or 0 <= source < MAX_FACTORIES):
        raise ValueError(f"no such source {source}")
    if not 0 <= colour < len(COLOURS):
        raise ValueError(f"no such colour {colour}")
    if not 0 <= line <= FLOOR:
        raise ValueError(f"no such destination {line}")
    return MOVES[_slot(source)][colour][line]
