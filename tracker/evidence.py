"""What the camera says about the table, as the move tracker weighs it.

Vision hands over an observation (DESIGN.md's JSON). This module turns it into per-element probabilities:
- a pattern-line slot or a floor-line space: a distribution over what lies there (a colour, the first-player
  marker on the floor, or EMPTY);
- a wall space: the probability that it holds a tile (on the colored wall colour cannot tell tile from print);
- a factory display or the centre: the counts seen, and how sure vision is of them.
A region flagged as occluded (a hand, motion, glare) carries no evidence at all. Plain observations without
probabilities are read with a default confidence, so a hand-written observation works too.

Accepted observation shape (a superset of DESIGN.md's):
  boards[i]: pattern_lines, wall, floor, score_marker, and optionally occluded (bool), confidence (0..1),
             probabilities: {pattern_lines: [[{name: p}] per slot, rightmost first] per line,
                             wall: [[p_occupied] * 5] * 5, floor: [{name: p}] per space}
             ("empty" names an empty slot or space, "first_player" the marker)
  factories[j]: {colour: count} or {"counts": {colour: count}, "occluded": bool, "confidence": p}
  center: {colour: count, "first_player": bool} or {"counts": {...}, "first_player": bool, "occluded": bool,
          "confidence": p}
  details (optional): {"factories": [{"count_confidence": {colour: p}}] per display, "center": {...the same}}:
          how sure vision is of each colour's count; each tile of difference then costs that colour's miss cost
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tracker.tiles import COLOUR_NAMES, EMPTY, FIRST_PLAYER, FIRST_PLAYER_NAME, WALL_SIZE

DEFAULT_CONFIDENCE = 0.95
FLOOR_SPACES = 7
# What a slot can hold, by index: the 5 colours, the first-player marker, empty.
SLOT_VALUES = 7
_EMPTY_INDEX = 6
_FLOOR_FLOOR = 1e-4  # no probability is ever exactly 0: evidence is never absolute
MARKER_ELEMENT = 5  # the first-player marker among a count region's elements (after the 5 colours)


class ObservationError(ValueError):
    """An observation that is not shaped like one; the message names the field."""


def slot_index(item: int) -> int:
    """Index into a slot distribution for a colour, FIRST_PLAYER or EMPTY."""
    return _EMPTY_INDEX if item == EMPTY else item


@dataclass(frozen=True, slots=True)
class BoardEvidence:
    occluded: bool
    # log-probabilities: pattern[r][j][value], slot j = 0 is the rightmost; floor[k][value]; wall[r][c] =
    # (log p(empty), log p(occupied)).
    pattern: tuple[tuple[tuple[float, ...], ...], ...]
    floor: tuple[tuple[float, ...], ...]
    wall: tuple[tuple[tuple[float, float], ...], ...]
    score_marker: int | None
    signature: tuple  # the most likely reading, to tell when the board is at rest


@dataclass(frozen=True, slots=True)
class CountEvidence:
    occluded: bool
    counts: tuple[int, ...]  # per colour
    first_player: bool | None  # the centre only
    log_miss: float  # log-probability cost of each tile the prediction differs by
    signature: tuple
    colour_log_miss: tuple[float, ...] | None = None  # the same per colour, when vision says how sure each is
    # Colours (0-4) and the centre's first-player marker (MARKER_ELEMENT) whose reading changed too recently to count:
    # they carry no evidence (the tracker's stability, not vision's).
    unsettled: frozenset[int] = frozenset()

    @property
    def colour_costs(self) -> tuple[float, ...]:
        """Each colour's log_miss: vision's per colour where it gives them, else the region's."""
        return self.colour_log_miss or (self.log_miss,) * len(self.counts)


@dataclass(frozen=True, slots=True)
class TableEvidence:
    boards: tuple[BoardEvidence, ...]
    factories: tuple[CountEvidence, ...]
    centre: CountEvidence
    timestamp: float


def _log(p: float) -> float:
    return math.log(min(1.0, max(_FLOOR_FLOOR, p)))


def _peaked(index: int, confidence: float, values: int = SLOT_VALUES) -> tuple[float, ...]:
    other = (1.0 - confidence) / (values - 1)
    return tuple(_log(confidence if i == index else other) for i in range(values))


def _item(name: object, where: str, allow_marker: bool) -> int:
    if name is None or name == "empty":
        return EMPTY
    if allow_marker and name == FIRST_PLAYER_NAME:
        return FIRST_PLAYER
    if isinstance(name, str) and name in COLOUR_NAMES:
        return COLOUR_NAMES.index(name)
    raise ObservationError(f"{where}: unknown item {name!r}")


def _distribution(value: object, where: str, allow_marker: bool) -> tuple[float, ...]:
    if not isinstance(value, dict):
        raise ObservationError(f"{where}: expected a map of item -> probability")
    probs = [0.0] * SLOT_VALUES
    for name, p in value.items():
        if not isinstance(p, int | float) or not math.isfinite(p) or p < 0:
            raise ObservationError(f"{where}: probability of {name!r} must be a non-negative number")
        probs[slot_index(_item(name, where, allow_marker))] += float(p)
    total = sum(probs)
    if total <= 0:
        raise ObservationError(f"{where}: probabilities sum to 0")
    return tuple(_log(p / total) for p in probs)


def _confidence(value: object, where: str) -> float:
    if value is None:
        return DEFAULT_CONFIDENCE
    if not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ObservationError(f"{where}: confidence must be a number from 0 to 1")
    return min(0.999, max(0.2, float(value)))


def _list(value: object, length: int | None, where: str) -> list:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise ObservationError(f"{where}: expected a list" + (f" of {length}" if length is not None else ""))
    return value


def board_evidence(board: object, where: str) -> BoardEvidence:
    if not isinstance(board, dict):
        raise ObservationError(f"{where}: expected an object")
    occluded = bool(board.get("occluded", False))
    conf = _confidence(board.get("confidence"), where)
    probs = board.get("probabilities") or {}
    if not isinstance(probs, dict):
        raise ObservationError(f"{where}.probabilities: expected an object")
    lines = _list(board.get("pattern_lines", [[]] * 5), WALL_SIZE, f"{where}.pattern_lines")
    pattern = []
    signature: list = []
    for r in range(WALL_SIZE):
        spaces = r + 1
        given = probs.get("pattern_lines")
        if given is not None:
            slots = _list(_list(given, WALL_SIZE, f"{where}.probabilities.pattern_lines")[r], spaces,
                          f"{where}.probabilities.pattern_lines[{r}]")
            dists = tuple(_distribution(s, f"{where}.probabilities.pattern_lines[{r}]", False) for s in slots)
        else:
            seen = _list(lines[r], None, f"{where}.pattern_lines[{r}]")
            if len(seen) > spaces:
                raise ObservationError(f"{where}.pattern_lines[{r}]: line {r + 1} has only {spaces} spaces")
            items = [_item(n, f"{where}.pattern_lines[{r}]", False) for n in seen]
            items += [EMPTY] * (spaces - len(items))
            dists = tuple(_peaked(slot_index(i), conf) for i in items)
        pattern.append(dists)
        signature.append(tuple(max(range(SLOT_VALUES), key=d.__getitem__) for d in dists))
    given = probs.get("floor")
    if given is not None:
        spaces_seen = _list(given, FLOOR_SPACES, f"{where}.probabilities.floor")
        floor = tuple(_distribution(s, f"{where}.probabilities.floor", True) for s in spaces_seen)
    else:
        seen = _list(board.get("floor", []), None, f"{where}.floor")
        if len(seen) > FLOOR_SPACES:
            raise ObservationError(f"{where}.floor: the floor line has only 7 spaces")
        items = [_item(n, f"{where}.floor", True) for n in seen] + [EMPTY] * (FLOOR_SPACES - len(seen))
        floor = tuple(_peaked(slot_index(i), conf) for i in items)
    signature.append(tuple(max(range(SLOT_VALUES), key=d.__getitem__) for d in floor))
    given = probs.get("wall")
    wall_rows = []
    if given is not None:
        rows = _list(given, WALL_SIZE, f"{where}.probabilities.wall")
        for r in range(WALL_SIZE):
            row = _list(rows[r], WALL_SIZE, f"{where}.probabilities.wall[{r}]")
            for p in row:
                if not isinstance(p, int | float) or not 0 <= p <= 1:
                    raise ObservationError(f"{where}.probabilities.wall[{r}]: expected probabilities 0..1")
            wall_rows.append(tuple((_log(1 - p), _log(p)) for p in row))
    else:
        rows = _list(board.get("wall", [[None] * 5] * 5), WALL_SIZE, f"{where}.wall")
        for r in range(WALL_SIZE):
            row = _list(rows[r], WALL_SIZE, f"{where}.wall[{r}]")
            wall_rows.append(tuple((_log(1 - conf), _log(conf)) if cell is not None else (_log(conf), _log(1 - conf))
                                   for cell in row))
    signature.append(tuple(tuple(p[1] > p[0] for p in row) for row in wall_rows))
    marker = board.get("score_marker")
    if marker is not None and (not isinstance(marker, int) or isinstance(marker, bool) or not 0 <= marker <= 200):
        raise ObservationError(f"{where}.score_marker: expected a score or null")
    return BoardEvidence(occluded, tuple(pattern), floor, tuple(wall_rows), marker, tuple(signature))


def count_evidence(region: object, where: str, is_centre: bool, details: object = None) -> CountEvidence:
    if not isinstance(region, dict):
        raise ObservationError(f"{where}: expected a map of colour -> count")
    # Either {"counts": {...}, ...} or the counts themselves beside the optional keys.
    counts_map = region["counts"] if "counts" in region else {
        k: v for k, v in region.items() if k not in ("first_player", "occluded", "confidence")}
    occluded = bool(region.get("occluded", False))
    conf = _confidence(region.get("confidence"), where)
    if not isinstance(counts_map, dict):
        raise ObservationError(f"{where}.counts: expected a map of colour -> count")
    counts = [0] * 5
    for name, n in counts_map.items():
        colour = _item(name, where, False)
        if colour == EMPTY or not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 100:
            raise ObservationError(f"{where}: count of {name!r} must be a whole number 0..100")
        counts[colour] = n
    marker = region.get("first_player") if is_centre else None
    if marker is not None and not isinstance(marker, bool):
        raise ObservationError(f"{where}.first_player: expected true or false")
    return CountEvidence(occluded, tuple(counts), marker, miss_cost(conf), (tuple(counts), marker),
                         _colour_log_miss(details, f"details.{where}"))


def miss_cost(confidence: float) -> float:
    """What each tile of difference from a count read with this confidence costs: the log-likelihood ratio of a
    count off by one (either way) against a right one. Never a gain: below a confidence of 1/3 the ratio turns
    positive, and a count vision is unsure of would reward every prediction that differs from it."""
    return min(0.0, _log((1 - confidence) / 2) - _log(confidence))


def _colour_log_miss(details: object, where: str) -> tuple[float, ...] | None:
    """Per colour log_miss from the optional `details` of a region (its `count_confidence`)."""
    if details is None:
        return None
    per_colour = details.get("count_confidence") if isinstance(details, dict) else None
    if not isinstance(per_colour, dict):
        raise ObservationError(f"{where}.count_confidence: expected a map of colour -> probability")
    out = []
    for name in COLOUR_NAMES:
        p = _confidence(per_colour.get(name, 1.0), f"{where}.count_confidence.{name}")
        out.append(miss_cost(p))
    return tuple(out)


def table_evidence(observation: object, timestamp: float = 0.0) -> TableEvidence:
    """Read an observation dict; raises ObservationError naming the first malformed field."""
    if not isinstance(observation, dict):
        raise ObservationError("an observation must be a JSON object")
    boards = _list(observation.get("boards"), None, "boards")
    factories = _list(observation.get("factories"), None, "factories")
    centre = observation.get("center", observation.get("centre"))
    if centre is None:
        raise ObservationError("center: missing")
    stamp = observation.get("timestamp", timestamp)
    if not isinstance(stamp, int | float) or not math.isfinite(stamp):
        raise ObservationError("timestamp: expected a number of seconds")
    details = observation.get("details")
    factory_details = details.get("factories") if isinstance(details, dict) else None
    if not isinstance(factory_details, list) or len(factory_details) != len(factories):
        factory_details = [None] * len(factories)
    centre_details = details.get("center") if isinstance(details, dict) else None
    if not isinstance(centre_details, dict) or "count_confidence" not in centre_details:
        centre_details = None  # the centre's details carry more than counts (the marker's probability)
    return TableEvidence(
        tuple(board_evidence(b, f"boards[{i}]") for i, b in enumerate(boards)),
        tuple(count_evidence(f, f"factories[{j}]", False, d)
              for j, (f, d) in enumerate(zip(factories, factory_details))),
        count_evidence(centre, "center", True, centre_details),
        float(stamp),
    )
