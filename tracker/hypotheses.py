"""Explanations of a changed table during the factory offer: what moves (legal or not) could have led here.

Legal explanations are sequences of up to 3 legal moves (the camera may have missed some), found by a beam
search from the committed state. Illegal explanations model what people get wrong at a real table, each
labelled with the rule it breaks and a sentence naming the player.
"""

from __future__ import annotations

from dataclasses import dataclass

from tracker.explain import line_name, source_name
from tracker.likelihood import Scorer
from tracker.moves import CENTRE, FLOOR, Move
from tracker.moves import move as make_move
from tracker.state import OFFER, GameState
from tracker.table_model import (
    BoardModel,
    TableModel,
    line_room,
    put,
    source_counts,
    table_model,
    take,
    with_board,
)
from tracker.tiles import COLOUR_NAMES, EMPTY

# Log-prior of the explanations, in nats: fewer moves are likelier, and an illegal action must be seen more
# clearly than a legal one before the tracker says someone broke a rule.
EXTRA_MOVE_PRIOR = -3.0
ILLEGAL_PRIOR = -2.0


@dataclass(frozen=True, slots=True)
class Hypothesis:
    table: TableModel
    moves: tuple[Move, ...] = ()
    player: int | None = None
    rule: str | None = None  # None: a legal explanation (or no change at all)
    reason: str = ""
    prior: float = 0.0

    @property
    def legal(self) -> bool:
        return self.rule is None

    def describe(self, state: GameState) -> str:
        if not self.legal:
            return self.reason
        if not self.moves:
            return "no change"
        return "; ".join(f"{state.names[p]}: {m}" for p, m in movers(state, self.moves))


def movers(state: GameState, moves: tuple[Move, ...]):
    player = state.current_player
    for m in moves:
        yield player, m
        player = (player + 1) % state.players


def table_after(table: TableModel, player: int, m: Move) -> TableModel:
    """The table after `player` makes the legal move `m`: what hands do with it, no rules state needed."""
    after, taken, marker = take(table, m.source, m.colour)
    return with_board(after, player, put(table.boards[player], m.line, m.colour, taken, marker))


def _next_tables(position: GameState, table: TableModel):
    """Each legal move from `position` (whose table is `table`) and the table after it."""
    if position.phase != OFFER:
        return
    for m in position.legal_moves():
        yield m, table_after(table, position.current_player, m)


def legal_hypotheses(state: GameState, scorer: Scorer, depth: int = 3, beam: int = 6,
                     taken_from: int | None = None) -> list[Hypothesis]:
    """No change, every legal move, and the best few continued up to `depth` moves (beam search). `taken_from`: a
    factory display the view shows emptied; the best few sequences that take from it are continued as well. A move
    scores by the whole view, so one that takes the few tiles of an emptied display while another display, emptied
    later, still holds its tiles, scores below moves from that other one (recorded tuning game 951: the move that
    told a misread deal's content was not among the best 6 first moves, and the correction was never found)."""
    found = [Hypothesis(table_model(state))]
    frontier: list[tuple[float, GameState, TableModel, tuple[Move, ...]]] = [(0.0, state, found[0].table, ())]
    for level in range(depth):
        grown = []
        for _, position, table, moves in frontier:
            # Rules state is needed only for the few positions the beam goes on from.
            for m, after in _next_tables(position, table):
                prior = EXTRA_MOVE_PRIOR * level
                sequence = moves + (m,)
                found.append(Hypothesis(after, sequence, prior=prior))
                grown.append((scorer.table(after) + prior, position, after, sequence))
        grown.sort(key=lambda item: item[0], reverse=True)
        kept = grown[:beam]
        if taken_from is not None:
            kept += [g for g in grown[beam:] if any(m.source == taken_from for m in g[3])][:beam // 2]
        frontier = []
        for score, position, table, sequence in kept:
            position = position.copy()
            position._apply(sequence[-1])
            frontier.append((score, position, table, sequence))
    return found


def search_bound(state: GameState, scorer: Scorer, depth: int, illegal: bool = False) -> float:
    """What no explanation legal_hypotheses(state, scorer, depth) finds can score more than (with `illegal`, nor
    one of illegal_hypotheses(state)): each move takes from one source and fills one pattern line of its player's
    board at most; an illegal action is one player's, and fills one line of their board (out of turn) or two of
    the current player's (tiles split between them), taking from two sources at most (see Scorer.bound). A search
    whose best cannot matter is skipped for it."""
    players, current, table = state.players, state.current_player, table_model(state)
    bound = scorer.bound(table, [sum((current + k) % players == p for k in range(depth)) for p in range(players)],
                         depth)
    for player in range(players if illegal else 0):
        lines = [(2 if p == current else 1) if p == player else 0 for p in range(players)]
        bound = max(bound, scorer.bound(table, lines, 2))
    return bound


def tables_along(state: GameState, moves: tuple[Move, ...]) -> list[TableModel]:
    """The table before these legal moves from `state` and after each of them."""
    tables = [table_model(state)]
    for player, m in movers(state, moves):
        tables.append(table_after(tables[-1], player, m))
    return tables


def histories_like(state: GameState, target: TableModel, depth: int = 3) -> list[Hypothesis]:
    """Every sequence of 1 to `depth` legal moves from `state` that ends with the boards and factory displays of
    `target` (the centre may differ).

    The beam search keeps only the likeliest few partial sequences, so it may find one of two histories that end
    at the same table (blue from a display, then from the centre, or the other way round) and not the other, or
    miss the one whose leftovers explain the centre; this search is complete. Tiles only ever leave the displays
    and only ever fill the boards during the offer, so a partial sequence whose table is not on the way to
    `target` is dropped at once."""
    found: list[Hypothesis] = []
    frontier: list[tuple[GameState, TableModel, tuple[Move, ...]]] = [(state, table_model(state), ())]
    for level in range(depth):
        grown = []
        for position, table, moves in frontier:
            for m, after in _next_tables(position, table):
                if not _on_the_way(after, target):
                    continue
                sequence = moves + (m,)
                if after.boards == target.boards and after.factories == target.factories:
                    found.append(Hypothesis(after, sequence, prior=EXTRA_MOVE_PRIOR * level))
                if level + 1 < depth:
                    grown.append((position, after, sequence))
        frontier = []
        for position, table, sequence in grown:
            position = position.copy()
            position._apply(sequence[-1])
            frontier.append((position, table, sequence))
    return found


def _on_the_way(table: TableModel, target: TableModel) -> bool:
    """Whether more legal moves could still turn `table` into `target` (a necessary condition only)."""
    if table.centre_marker < target.centre_marker:
        return False
    if any(a != b and (not any(a) or any(b)) for a, b in zip(table.factories, target.factories)):
        return False  # a display emptied that is full at the end, or one the end shows otherwise
    return all(_board_on_the_way(a, b) for a, b in zip(table.boards, target.boards))


def _board_on_the_way(board: BoardModel, target: BoardModel) -> bool:
    if board.floor != target.floor[:len(board.floor)]:
        return False
    return all(a == EMPTY or a == b for line, end in zip(board.lines, target.lines) for a, b in zip(line, end))


def illegal_hypotheses(state: GameState) -> list[Hypothesis]:
    """One illegal action from the committed position, of each kind a player can make."""
    if state.phase != OFFER:
        return []
    table = table_model(state)
    names = state.names
    current = state.current_player
    out: list[Hypothesis] = []

    def add(new_table: TableModel, player: int, rule: str, reason: str) -> None:
        out.append(Hypothesis(new_table, player=player, rule=rule, reason=reason, prior=ILLEGAL_PRIOR))

    sources = [s for s in range(len(state.factories)) if state.factories[s]] + [CENTRE]
    for source in sources:
        held = source_counts(table, source)
        for colour in range(5):
            n = held[colour]
            if not n:
                continue
            cname = COLOUR_NAMES[colour]
            after_take, taken, marker = take(table, source, colour)
            for player in range(state.players):
                board = table.boards[player]
                for line in (*range(5), FLOOR):
                    new_table = with_board(after_take, player, put(board, line, colour, taken, marker))
                    if player != current:
                        add(new_table, player, "turn",
                            f"{names[player]} took {cname} from {source_name(source)} out of turn: "
                            f"it is {names[current]}'s turn")
                        continue
                    problem = state.explain_illegal(make_move(source, colour, line))
                    if problem is not None and problem.rule in ("line_other_colour", "wall_has_colour"):
                        add(new_table, player, problem.rule, f"{names[player]}: {problem.reason}")
            board = table.boards[current]
            allowed = state.boards[current].allowed_lines()[colour]
            targets = [r for r in range(5) if allowed >> r & 1]
            # Tiles split between two pattern lines, or a line with room and the floor.
            for first in targets:
                room = line_room(board, first)
                for second in [*targets, FLOOR]:
                    if second == first:
                        continue
                    for k in range(1, min(n, room + 1)):
                        if second == FLOOR and k == room:
                            continue  # the legal overflow
                        split = put(put(board, first, colour, k, marker), second, colour, n - k, False)
                        add(with_board(after_take, current, split), current, "split",
                            f"{names[current]} split the {cname} tiles between {line_name(first)} and "
                            f"{'the floor line' if second == FLOOR else line_name(second)}: all tiles taken go "
                            f"to one pattern line (what does not fit goes to the floor line)")
            # Part of the colour left behind (with or without the leftovers moved).
            for k in range(1, n):
                for leftovers in (("centre", "stay") if source != CENTRE else ("centre",)):
                    partial, _, mk = take(table, source, colour, k, leftovers)
                    for line in [*targets, FLOOR]:
                        add(with_board(partial, current, put(board, line, colour, k, mk)), current, "part_left",
                            f"{names[current]} left {n - k} {cname} tile{'s' if n - k > 1 else ''} on "
                            f"{source_name(source)}: a player takes every tile of the chosen colour")
            if source != CENTRE and sum(held) > n:
                kept, _, _ = take(table, source, colour, None, "stay")
                for line in [*targets, FLOOR]:
                    add(with_board(kept, current, put(board, line, colour, n, False)), current, "leftovers",
                        f"the tiles left on {source_name(source)} after {names[current]} took {cname} must go to "
                        f"the centre")
            if source == CENTRE and table.centre_marker:
                no_marker, _, _ = take(table, source, colour, None, take_marker=False)
                for line in [*targets, FLOOR]:
                    add(with_board(no_marker, current, put(board, line, colour, n, False)), current, "marker",
                        f"{names[current]} took from the centre first this round and must take the "
                        f"first-player marker onto their floor line")
    out.extend(_two_sources(state, table))
    return out


def _two_sources(state: GameState, table: TableModel) -> list[Hypothesis]:
    current = state.current_player
    board = table.boards[current]
    allowed = state.boards[current].allowed_lines()
    out = []
    sources = [s for s in range(len(state.factories)) if state.factories[s]] + [CENTRE]
    for colour in range(5):
        having = [s for s in sources if source_counts(table, s)[colour]]
        for i, first in enumerate(having):
            for second in having[i + 1:]:
                after, n1, m1 = take(table, first, colour)
                after, n2, m2 = take(after, second, colour)
                for line in [*(r for r in range(5) if allowed[colour] >> r & 1), FLOOR]:
                    placed = put(board, line, colour, n1 + n2, m1 or m2)
                    out.append(Hypothesis(
                        with_board(after, current, placed), player=current, rule="two_sources",
                        reason=f"{state.names[current]} took {COLOUR_NAMES[colour]} from both {source_name(first)} "
                               f"and {source_name(second)}: a turn takes from one source only",
                        prior=ILLEGAL_PRIOR,
                    ))
    return out


def changed_regions(before: TableModel, after: TableModel) -> set[tuple[str, int]]:
    """The regions ('board', i), ('factory', j), ('centre', 0) whose contents differ."""
    regions = {("board", i) for i, (a, b) in enumerate(zip(before.boards, after.boards)) if a != b}
    regions |= {("factory", j) for j, (a, b) in enumerate(zip(before.factories, after.factories)) if a != b}
    if before.centre != after.centre or before.centre_marker != after.centre_marker:
        regions.add(("centre", 0))
    return regions

