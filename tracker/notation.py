"""A compact text notation for walls and player boards, for tests, docs and debugging.

Colours are letters: B blue, Y yellow, R red, K black, W white; '.' is an empty space, 'F' the first-player
marker on a floor line. A wall is 5 rows of 5 letters; a board is given by its wall, its pattern lines (each
the letters on it, e.g. "RR") and its floor (e.g. "FBBR").
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.board import PlayerBoard
from tracker.tiles import EMPTY, FIRST_PLAYER, WALL_SIZE

LETTERS = "BYRKW"


def colour_of(letter: str) -> int:
    if letter == ".":
        return EMPTY
    if letter == "F":
        return FIRST_PLAYER
    index = LETTERS.find(letter.upper())
    if index < 0 or not letter:
        raise ValueError(f"unknown tile letter {letter!r}: use B Y R K W, '.' or F")
    return index


def wall_from_text(rows: Sequence[str]) -> list[list[int]]:
    cleaned = [r.replace(" ", "") for r in rows]
    if len(cleaned) != WALL_SIZE or any(len(r) != WALL_SIZE for r in cleaned):
        raise ValueError("a wall is 5 rows of 5 letters")
    return [[colour_of(ch) for ch in r] for r in cleaned]


def wall_to_text(wall: Sequence[Sequence[int]]) -> list[str]:
    return ["".join("." if c == EMPTY else LETTERS[c] for c in row) for row in wall]


def board_from_text(
    wall: Sequence[str] = (".....",) * 5, lines: Sequence[str] = ("",) * 5, floor: str = "", score: int = 0
) -> PlayerBoard:
    board = PlayerBoard(score=score)
    for r, row in enumerate(wall_from_text(wall)):
        for k, colour in enumerate(row):
            if colour != EMPTY:
                board.place_on_wall(r, k, colour)
    for r, text in enumerate(lines):
        if text:
            colours = {colour_of(ch) for ch in text}
            if len(colours) != 1 or len(text) > r + 1:
                raise ValueError(f"pattern line {r + 1} holds 1 to {r + 1} tiles of one colour, not {text!r}")
            board.pattern_colour[r] = colours.pop()
            board.pattern_count[r] = len(text)
    board.floor = [colour_of(ch) for ch in floor]
    board.holds_first_player = FIRST_PLAYER in board.floor
    return board
