"""How well a predicted table explains the evidence: a log-likelihood summed over the regions in view.

Occluded regions add nothing, so hypotheses that differ only there tie, and the tracker waits. Region scores
are memoised per evidence: most hypotheses change one board, one source and the centre.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tracker.evidence import BoardEvidence, CountEvidence, TableEvidence, slot_index
from tracker.scoring import FLOOR_SPACES
from tracker.table_model import BoardModel, TableModel
from tracker.tiles import EMPTY, FIRST_PLAYER

# A count's difference from the reading is a misfit when vision favours its reading at least 4:1 over the
# predicted count (confidence 2/3 or more: see evidence.miss_cost).
UNSURE_COUNT = -math.log(4.0)
# Parts a Scorer remembers by identity in each of its two generations: each entry keeps its object alive, and a
# deal re-check in a stalled view scores tables of some 720 000 distinct parts against one frame (recorded tuning
# game 877).
IDENTITY_MEMO_SIZE = 1 << 16
# A floor space's log-probability of the first-player marker that outweighs the centre's reading of it (0.99).
SURE_MARKER = math.log(0.99)


def board_loglik(board: BoardModel, ev: BoardEvidence) -> float:
    if ev.occluded:
        return 0.0
    total = 0.0
    for r, slots in enumerate(board.lines):
        dists = ev.pattern[r]
        for j, item in enumerate(slots):
            total += dists[j][slot_index(item)]
    floor = board.floor
    for k in range(FLOOR_SPACES):
        total += ev.floor[k][slot_index(floor[k]) if k < len(floor) else slot_index(EMPTY)]
    for r, row in enumerate(board.wall):
        probs = ev.wall[r]
        for c, cell in enumerate(row):
            total += probs[c][cell != EMPTY]
    return total


def board_gains(board: BoardModel, ev: BoardEvidence) -> tuple[list[float], float]:
    """The most each pattern line, and the floor line, of a board can gain in score as pieces are put on it (pieces
    only ever fill empty places during the offer): per line, and the floor's."""
    if ev.occluded:
        return [0.0] * len(board.lines), 0.0
    empty = slot_index(EMPTY)
    lines = [sum(max(dists[j]) - dists[j][empty] for j, item in enumerate(slots) if item == EMPTY)
             for slots, dists in zip(board.lines, ev.pattern)]
    floor = sum(max(ev.floor[k]) - ev.floor[k][empty] for k in range(len(board.floor), FLOOR_SPACES))
    return lines, floor


def count_loglik(counts: tuple[int, ...], marker: bool | None, ev: CountEvidence) -> float:
    """Each tile of difference costs what vision's confidence in that colour's count says (the region's, when
    vision gives none per colour); the first-player marker, the region's."""
    if ev.occluded:
        return 0.0
    costs = ev.colour_costs
    total = sum(abs(a - b) * cost for a, b, cost in zip(counts, ev.counts, costs))
    if marker is not None and ev.first_player is not None and marker != ev.first_player:
        total += ev.log_miss
    return total


def max_loglik(evidence: TableEvidence) -> float:
    """The best log-likelihood any table could reach: every visible element at its likeliest reading."""
    total = 0.0
    for ev in evidence.boards:
        if ev.occluded:
            continue
        total += sum(max(d) for line in ev.pattern for d in line)
        total += sum(max(d) for d in ev.floor)
        total += sum(max(p) for row in ev.wall for p in row)
    return total


class Scorer:
    """Log-likelihood of whole tables against one TableEvidence, with per-region memoisation.

    A search scores many thousands of tables that share most of their parts (a move changes one board, one source
    and the centre; the other boards and displays are the very same objects): each part's score is remembered by
    the object itself first (no hashing of a whole board), then by its value. An entry keeps its object alive, so
    an id is never reused for another object while it is remembered. That memo holds two generations: when the new
    one is full (IDENTITY_MEMO_SIZE) the old one is forgotten and the new one becomes old, and a part found in the
    old one is remembered anew (the boards a search shares stay); the scores by value stay."""

    def __init__(self, evidence: TableEvidence) -> None:
        self.evidence = evidence
        self._boards: dict[tuple[int, BoardModel], float] = {}
        self._factories: dict[tuple[int, tuple[int, ...]], float] = {}
        self._centres: dict[tuple[tuple[int, ...], bool], float] = {}
        self._by_id: dict[tuple[int, int], tuple[object, float]] = {}  # (part, id(object)) -> (object, score)
        self._by_id_old: dict[tuple[int, int], tuple[object, float]] = {}

    def _known_before(self, part: int, obj: object) -> float | None:
        """The part's score remembered in the old generation (the new one is looked up inline: it is hot)."""
        known = self._by_id_old.get((part, id(obj)))
        if known is not None and known[0] is obj:
            self._remember(part, obj, known[1])
            return known[1]
        return None

    def _remember(self, part: int, obj: object, value: float) -> None:
        if len(self._by_id) >= IDENTITY_MEMO_SIZE:
            self._by_id_old, self._by_id = self._by_id, {}
        self._by_id[part, id(obj)] = (obj, value)

    def board(self, player: int, board: BoardModel) -> float:
        known = self._by_id.get((player, id(board)))
        if known is not None and known[0] is board:
            return known[1]
        remembered = self._known_before(player, board)
        if remembered is not None:
            return remembered
        key = (player, board)
        value = self._boards.get(key)
        if value is None:
            value = self._boards[key] = board_loglik(board, self.evidence.boards[player])
        self._remember(player, board, value)
        return value

    def factory(self, index: int, counts: tuple[int, ...]) -> float:
        key = (index, counts)
        value = self._factories.get(key)
        if value is None:
            value = self._factories[key] = count_loglik(counts, None, self.evidence.factories[index])
        return value

    def _displays(self, factories: tuple[tuple[int, ...], ...]) -> float:
        known = self._by_id.get((-1, id(factories)))
        if known is not None and known[0] is factories:
            return known[1]
        remembered = self._known_before(-1, factories)
        if remembered is not None:
            return remembered
        value = sum(self.factory(j, f) for j, f in enumerate(factories))
        self._remember(-1, factories, value)
        return value

    def _centre(self, counts: tuple[int, ...], marker: bool) -> float:
        key = (counts, marker)
        value = self._centres.get(key)
        if value is None:
            value = self._centres[key] = count_loglik(counts, marker, self.evidence.centre)
        return value

    def table(self, table: TableModel) -> float:
        known = self._by_id.get((-2, id(table)))
        if known is not None and known[0] is table:
            return known[1]
        remembered = self._known_before(-2, table)
        if remembered is not None:
            return remembered
        total = sum(self.board(p, b) for p, b in enumerate(table.boards))
        total += self._displays(table.factories)
        total += self._centre(table.centre, table.centre_marker)
        self._remember(-2, table, total)
        return total

    def bound(self, table: TableModel, lines: Sequence[int], displays: int) -> float:
        """The most any table the factory offer can lead to from `table` can score, when at most `lines[p]` pattern
        lines of player p's board and at most `displays` factory displays change (a bound that costs no search):
        during the offer tiles only leave the displays and only fill empty places of the boards (a board that
        changes may gain on its floor line too); the centre gains at most what those displays held but a tile."""
        total = 0.0
        for p, board in enumerate(table.boards):
            total += self.board(p, board)
            if lines[p]:
                gains, floor = board_gains(board, self.evidence.boards[p])
                total += floor + sum(sorted(gains, reverse=True)[:lines[p]])
        scores = [self.factory(j, f) for j, f in enumerate(table.factories)]
        gains = [_display_bound(f, ev) - score for f, ev, score in zip(table.factories, self.evidence.factories, scores)]
        total += sum(scores) + sum(sorted(gains, reverse=True)[:displays])
        return total + _centre_bound(table, displays, self.evidence.centre)


def _display_bound(counts: tuple[int, ...], ev: CountEvidence) -> float:
    """The most a display that only loses tiles from `counts` on can score: each colour's count as near its reading
    as it can come."""
    if ev.occluded:
        return 0.0
    costs = ev.colour_costs
    return sum(abs(min(held, seen) - seen) * cost for held, seen, cost in zip(counts, ev.counts, costs))


def _centre_bound(table: TableModel, displays: int, ev: CountEvidence) -> float:
    """The most the centre can score once at most `displays` factory displays have sent it their leftovers (all but
    a tile each at most) and tiles have been taken from it: each colour's count anywhere from none to what it holds
    and those displays could add, its tiles no more than they could add in all, and the first-player marker only
    ever taken (the cheapest misses are the ones left)."""
    if ev.occluded:
        return 0.0
    costs = [-c for c in ev.colour_costs]
    added = [sorted((f[c] for f in table.factories), reverse=True)[:displays] for c in range(len(table.centre))]
    counts = [min(seen, held + sum(more)) for seen, held, more in zip(ev.counts, table.centre, added)]
    room = sum(table.centre) + sum(sorted((max(0, sum(f) - 1) for f in table.factories), reverse=True)[:displays])
    miss = sum((seen - n) * cost for seen, n, cost in zip(ev.counts, counts, costs))
    excess = sum(counts) - room
    for cost, c in sorted((cost, c) for c, cost in enumerate(costs)):
        cut = min(excess, counts[c]) if excess > 0 else 0
        miss, excess = miss + cut * cost, excess - cut
    if ev.first_player and not table.centre_marker:
        miss -= ev.log_miss
    return -miss


def _argmax(dist: tuple[float, ...]) -> int:
    return max(range(len(dist)), key=dist.__getitem__)


def _misread(dist: tuple[float, ...], item: int) -> bool:
    """Whether a slot or floor space predicted to hold `item` reads likeliest as something else (a place without
    evidence, every value alike, never does; nor does one read as a piece of any kind, when `item` is one)."""
    return max(dist) != min(dist) and dist[slot_index(item)] < max(dist)


def board_misfits(board: BoardModel, ev: BoardEvidence, before: BoardModel | None = None,
                  changed: bool = True, whole_lines: bool = False) -> int:
    """How many pattern-line slots (a line's colour counting once), floor spaces and wall spaces of a predicted
    board are not what vision reads likeliest there (0 for an occluded board; a place without evidence either way
    never counts). With `before`, only the places the change from it to `board` fills, empties or recolours count
    (`changed`), or only the others; with `whole_lines` too, every place of a pattern line or the floor line the
    change alters counts as changed."""
    if ev.occluded:
        return 0
    lines_changed = set() if before is None or not whole_lines else {
        r for r, slots in enumerate(board.lines) if slots != before.lines[r]} | (
        {"floor"} if board.floor != before.floor else set())

    def counted(was: int, now: int, line: int | str) -> bool:
        return before is None or (was != now or line in lines_changed) == changed

    misses = 0
    # A pattern line holds one colour, and vision reads it so (its occupied slots vote on the line's colour): a tile
    # where vision reads none, or none where it reads one, is a misfit each; a colour read as another is one misfit
    # for the whole board, however many of its slots and lines hold it (the board's light makes vision read that
    # colour so wherever it lies on the board).
    wrong_colours = set()
    for r, slots in enumerate(board.lines):
        dists = ev.pattern[r]
        for j, item in enumerate(slots):
            if _misread(dists[j], item) and counted(before.lines[r][j] if before else item, item, r):
                seen = _argmax(dists[j])
                if item == EMPTY or seen == slot_index(EMPTY):
                    misses += 1
                else:
                    wrong_colours.add((item, seen))
    misses += len(wrong_colours)
    floor = board.floor
    was_floor = before.floor if before else floor
    for k in range(FLOOR_SPACES):
        item = floor[k] if k < len(floor) else EMPTY
        misses += _misread(ev.floor[k], item) and counted(was_floor[k] if k < len(was_floor) else EMPTY, item, "floor")
    for r, row in enumerate(board.wall):
        for c, cell in enumerate(row):
            empty, occupied = ev.wall[r][c]
            if empty != occupied and counted(before.wall[r][c] if before else cell, cell, "wall"):
                misses += (occupied > empty) != (cell != EMPTY)
    return misses


def count_misfits(counts: tuple[int, ...], marker: bool | None, ev: CountEvidence,
                  before: tuple[tuple[int, ...], bool | None] | None = None, changed: bool = True) -> int:
    """Tiles (and the first-player marker) by which predicted counts differ from the reading, in the colours (and
    the marker) vision is sure enough of (UNSURE_COUNT: a count read at confidence 0.6 is no contradiction; nor is a
    marker read so, where a lone tile may be the piece it saw). With `before` (its counts and marker), only the colours
    (and the marker) the change from it alters count (`changed`), or only the others."""
    if ev.occluded:
        return 0
    was_counts, was_marker = before if before is not None else (counts, marker)
    costs = ev.colour_costs
    miss = sum(abs(a - b) for a, b, cost, was in zip(counts, ev.counts, costs, was_counts)
               if cost <= UNSURE_COUNT and (before is None or (was != a) == changed))
    if marker is not None and ev.first_player is not None and marker != ev.first_player and (
            ev.log_miss <= UNSURE_COUNT) and (before is None or (was_marker != marker) == changed):
        miss += 1
    return miss


def region_misfits(table: TableModel, evidence: TableEvidence, before: TableModel | None = None,
                   changed: bool = True, whole_lines: bool = False) -> dict[tuple[str, int], int]:
    """Per region in view, how many of its elements the predicted table does not read as vision does; with
    `before`, only the elements the change from it alters (`changed`; with `whole_lines`, every place of a board's
    line it alters), or only the others."""
    out: dict[tuple[str, int], int] = {}
    for i, b in enumerate(table.boards):
        if not evidence.boards[i].occluded:
            out[("board", i)] = board_misfits(b, evidence.boards[i], before and before.boards[i], changed,
                                              whole_lines)
    for j, f in enumerate(table.factories):
        if not evidence.factories[j].occluded:
            out[("factory", j)] = count_misfits(f, None, evidence.factories[j],
                                                before and (before.factories[j], None), changed)
    if not evidence.centre.occluded:
        marker = table.centre_marker
        if not marker and evidence.centre.first_player and _marker_on_a_floor(table, evidence):
            marker = None  # the one marker is read surely where the table has it: what the centre shows is a lookalike
        out[("centre", 0)] = count_misfits(table.centre, marker, evidence.centre,
                                           before and (before.centre, before.centre_marker), changed)
    return out


def _marker_on_a_floor(table: TableModel, evidence: TableEvidence) -> bool:
    """Whether a board in view reads the first-player marker surely (SURE_MARKER) on its floor where the predicted
    table has it. Recorded tuning game 986, round 4: the marker taken to a floor line read there at 0.9999, while
    the centre went on reading it at 0.8 (a pale tile's shape); a misplacement by that player waited on the centre,
    and no alert came."""
    return any(FIRST_PLAYER in b.floor and not ev.occluded
               and ev.floor[b.floor.index(FIRST_PLAYER)][slot_index(FIRST_PLAYER)] >= SURE_MARKER
               for b, ev in zip(table.boards, evidence.boards))
