"""Input checks for the JSON endpoints: each failure is a BadRequest whose message names the field."""

from __future__ import annotations

from typing import Any

from tracker.moves import Move


class BadRequest(Exception):
    """A request the client got wrong; answered 400 with this message."""


def obj(data: Any) -> dict:
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def integer(data: dict, key: str, low: int, high: int, default: int | None = None) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadRequest(f"'{key}' must be a whole number from {low} to {high}, not {value!r}")
    return value


def choice(data: dict, key: str, options: tuple[str, ...], default: str | None = None) -> str:
    value = data.get(key, default)
    if value not in options:
        raise BadRequest(f"'{key}' must be one of {', '.join(options)}, not {value!r}")
    return value


def text(data: dict, key: str, max_len: int, default: str = "") -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or len(value) > max_len:
        raise BadRequest(f"'{key}' must be text of at most {max_len} characters")
    return value.strip()


def names(data: dict, players: int) -> tuple[str, ...]:
    value = data.get("names", [])
    if not isinstance(value, list) or len(value) > players or not all(isinstance(n, str) for n in value):
        raise BadRequest(f"'names' must be a list of at most {players} player names")
    cleaned = [n.strip()[:24] for n in value]
    out = tuple(n or f"Player {i + 1}" for i, n in enumerate(cleaned))
    out += tuple(f"Player {i + 1}" for i in range(len(out), players))
    if len(set(out)) != len(out):
        raise BadRequest("every player needs a different name")
    return out


def move(data: dict) -> Move:
    try:
        return Move.from_json(data)
    except ValueError as err:
        raise BadRequest(str(err)) from None


def game_events(value: Any) -> list[dict]:
    """A correction's replacement events: game events only (deal, move, wall_tiling), at most 64."""
    if not isinstance(value, list) or len(value) > 64:
        raise BadRequest("'events' must be a list of at most 64 game events")
    for i, event in enumerate(value):
        if not isinstance(event, dict) or event.get("type") not in ("deal", "move", "wall_tiling"):
            raise BadRequest(f"'events[{i}]' must be a deal, move or wall_tiling event")
        if event["type"] == "move":
            move(event)
    return value
