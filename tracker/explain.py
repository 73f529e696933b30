"""Illegal actions, each with the rule it breaks in words a player understands."""

from __future__ import annotations


class IllegalMove(Exception):
    """An action the rules forbid. `rule` is a stable code for programs; str() is the explanation."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(reason)
        self.rule = rule
        self.reason = reason


class InvalidDeal(Exception):
    """A deal the bag and lid could not have produced, or one of the wrong shape."""


def line_name(line: int) -> str:
    return f"pattern line {line + 1}"


# A region of the table as the move tracker and vision's lamp watch name it: ("board", i), ("factory", j) or
# ("centre", 0).
Region = tuple[str, int]


def region_name(region: Region) -> str:
    kind, index = region
    return {"board": f"board {index + 1}", "factory": f"factory display {index + 1}"}.get(kind, "the centre")


def source_name(source: int) -> str:
    return "the centre" if source < 0 else f"factory display {source + 1}"
