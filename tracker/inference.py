"""The move tracker: from a stream of observations to a verified, scored game.

The rules tracker is the truth; vision is evidence. For each observation the tracker asks which explanation
from the committed state (no change, legal moves, or an illegal action) best accounts for what the camera
sees, and commits a legal one only when it clearly beats every other and the regions it changes have been at
rest long enough. An illegal best explanation raises an alert naming the player and the rule and commits
nothing; the alert clears when the table is back to a legal position or a person corrects the game.

Everything committed goes through the Game, so it lands in the game log before it counts.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tracker.evidence import (
    FLOOR_SPACES,
    MARKER_ELEMENT,
    SLOT_VALUES,
    BoardEvidence,
    CountEvidence,
    ObservationError,
    TableEvidence,
    miss_cost,
    slot_index,
    table_evidence,
)
from tracker.explain import IllegalMove, InvalidDeal, Region, region_name
from tracker.game import Game
from tracker.hypotheses import (
    EXTRA_MOVE_PRIOR,
    Hypothesis,
    changed_regions,
    histories_like,
    illegal_hypotheses,
    legal_hypotheses,
    movers,
    search_bound,
    tables_along,
)
from tracker.likelihood import Scorer, board_loglik, max_loglik, region_misfits
from tracker.moves import CENTRE, Move
from tracker.record import RecordError
from tracker.state import COLORED, DEAL, OFFER, WALL_TILING, GameState
from tracker.table_model import BoardModel, TableModel, board_model, table_model
from tracker.tiles import COLOUR_NAMES, EMPTY, WALL_SIZE, colored_wall_column

NO_WALL_EVIDENCE = ((((0.0, 0.0),) * WALL_SIZE),) * WALL_SIZE
NO_SLOT_EVIDENCE = (0.0,) * SLOT_VALUES


@dataclass(frozen=True, slots=True)
class Alert:
    player: int | None
    rule: str
    reason: str
    since: float


@dataclass(frozen=True, slots=True)
class TrackerStatus:
    timestamp: float
    committed: tuple[str, ...]  # what was committed on this observation, in words
    alert: Alert | None  # an illegal action on the table, if any
    score_alerts: tuple[Alert, ...]  # score cubes that disagree with the true score
    waiting: str | None  # why nothing was committed, when something seems to be happening
    occluded: tuple[Region, ...]


@dataclass
class TrackerSettings:
    rest_seconds: float = 0.3  # a region must look the same this long before it counts
    margin: float = 3.0  # nats (20:1) by which the best explanation must beat the runner-up
    deal_margin: float = 2.0  # nats by which a display's 4-tile content must beat the next, when misread
    search_interval: float = 0.15  # seconds between searches of the same state while they stay undecided
    depth: int = 3  # moves the camera may have missed
    cube_rest_seconds: float = 1.5  # score cubes move during tiling: judge them only when they have settled
    # The wall tiling can only end one way per board (or a named wrong space), and the last board's hand may leave
    # just before the camera stops: a tiled board needs a shorter rest than a move.
    tiling_rest_seconds: float = 0.15
    # A commit must fit what vision reads, not only beat the other explanations (the likeliest of many bad
    # explanations is still a bad one: a move the camera missed, a misread deal): at most this many elements
    # (slots, floor spaces, tiles) of the regions the moves change may differ from the reading, and at most
    # `unexplained_misfits` in all the other regions together (what no move changed: vision's misreads).
    changed_misfits: int = 1
    unexplained_misfits: int = 2
    # A display or the centre that no hand has covered for the rest time but that vision reads differently from
    # frame to frame (a colour it cannot settle on) is unsteady: it is no evidence, and a move that changes it
    # may still be committed if the rest of the table decides it and the count it predicts there was read in the
    # last `unsteady_window` seconds.
    unsteady_window: float = 1.0


@dataclass
class _RegionWatch:
    signature: object = None
    since: float = 0.0
    uncovered_since: float | None = None  # None while covered
    lately: dict = field(default_factory=dict)  # reading -> when last read, since the region was last covered
    # A board's pattern-line slots and floor spaces: element -> (likeliest reading, since when), updated while the
    # board is uncovered (see MoveTracker._steady_board).
    elements: dict = field(default_factory=dict)
    # The same for a board's places and its wall ("wall"), covered or not (see MoveTracker._seen_through).
    held: dict = field(default_factory=dict)
    # A board's places: place -> (whether a tile or the marker is read there, since when), while uncovered.
    occupied: dict = field(default_factory=dict)
    # A display's or the centre's: since when vision has flagged it covered, None while it reads it in view
    # (MoveTracker._chronic_flags).
    flagged_since: float | None = None
    # A display's or the centre's: since when vision has doubted every count of it in every frame, None while it is
    # sure of one or the region is covered (MoveTracker._steady_counts).
    doubted_since: float | None = None
    # ... and the counts (and marker) that have not rested though, passed over for that (MoveTracker._sole_witness).
    passed_over: frozenset = frozenset()


@dataclass
class MoveTracker:
    game: Game
    settings: TrackerSettings = field(default_factory=TrackerSettings)
    alert: Alert | None = None
    score_alerts: dict[int, Alert] = field(default_factory=dict)
    _watch: dict[Region, _RegionWatch] = field(default_factory=dict)
    # The refill as read so far: per display, its last reading seen at rest with tiles on it.
    _deal_round: int = -1
    _deal_seen: dict[int, CountEvidence] = field(default_factory=dict)
    # Per display, each colour's count cost at vision's least sure in those readings (a colour doubted once may be
    # misread in every reading): what a deal correction overrules (_read_as).
    _deal_doubts: dict[int, tuple[float, ...]] = field(default_factory=dict)
    # Every reading of each display with tiles on it, and whether a player has begun taking from the displays.
    _deal_votes: dict[int, Counter] = field(default_factory=dict)
    _deal_taken: bool = False
    _deal_taken_at: float = float("inf")  # when play was first seen to have begun
    # The displays read empty at rest after they were read with tiles at rest: taken from, whatever is read there
    # later (a hand's tiles over an empty display).
    _deal_emptied: set[int] = field(default_factory=set)
    # Every reading with tiles of each display vision flags covered: the votes of one never read in view (see
    # _settled_readings); and the displays read with tiles in view.
    _deal_covered: dict[int, Counter] = field(default_factory=dict)
    _deal_in_view: set[int] = field(default_factory=set)
    # The displays vision has read with tiles at better than even odds this deal (LEGIBLE_LOG_MISS).
    _deal_legible: set[int] = field(default_factory=set)
    # The regions the last _settle counted in view though vision flagged them covered (_seen_through,
    # _counted_through).
    _through: frozenset = frozenset()
    # Wall spaces seen occupied during a deal that the committed walls leave empty, and since when: (player, row,
    # column) -> time, for the game log's length in _walls_logged. A board's last view counts while it is covered.
    _walls_gained: dict[tuple[int, int, int], float] = field(default_factory=dict)
    _walls_logged: int = -1
    # The wall tiling as last seen per board, while the round's tiling is followed: a board seen tiled stays tiled
    # while it is covered (hands reach across the table while the others tile).
    _tiled_round: int = -1
    _tiled: dict[int, dict] = field(default_factory=dict)
    # The last undecided offer evaluation: the same evidence again needs no new search.
    _last_offer_key: tuple = (None, None, None)
    _last_offer_at: float = float("-inf")
    _last_offer_waiting: str | None = None
    # The distinct views at rest during the offer since the game log last changed (at most SEEN_VIEWS, newest
    # last), each with its reading: when two move histories end at the same table, what was seen on the way
    # tells which one was played.
    _seen: list[tuple[tuple, TableEvidence]] = field(default_factory=list)
    _seen_since: int = -1
    # The views searched undecided since the game log last changed (_view_signature; at most SEARCHED_VIEWS).
    _searched: set = field(default_factory=set)
    _searched_since: int = -1
    # The last re-check of the round's deal: (events in the log, displays seen taken from, the boards' readings, what
    # was in view, when).
    _deal_rechecked: tuple = (None, None, None, None, float("-inf"))
    # The first search of other deals since the log last changed: (events in the log, when).
    _deal_searches: tuple = (None, float("-inf"))
    # When a deal re-check is due, news in the view or not: the board places a corrected deal's moves fill will have
    # read the same long enough (_held_long), or the rest time after a re-check that news came too soon for.
    _deal_held_at: float = float("inf")
    # The last search for what a display taken from unseen held (_deal_with_hidden_display): what was in view, when.
    _hidden_searched: tuple = (None, float("-inf"))
    # The displays a view has contradicted the logged content of (_display_misread), as of a length of the log:
    # (events, displays).
    _contradicted: tuple = (None, frozenset())
    # The tiles the round's deal guessed (its `unseen`), as of a length of the log: (events, per display guessed).
    _guessed: tuple = (None, [])
    # The last re-check of the round's last moves: (events in the log, what was in view, when, why it was unsure).
    _rechecked: tuple = (None, None, float("-inf"), None)

    @property
    def state(self) -> GameState:
        return self.game.state

    # ---- the one entry point -----------------------------------------------------------------------
    def observe(self, observation: dict | TableEvidence, timestamp: float | None = None) -> TrackerStatus:
        """Take one observation; commit what it proves, raise or clear alerts, and say why it waits."""
        try:
            evidence = observation if isinstance(observation, TableEvidence) else table_evidence(
                observation, 0.0 if timestamp is None else timestamp)
        except ObservationError as err:
            return self._status(timestamp or 0.0, (), f"unreadable observation: {err}", ())
        now = evidence.timestamp if timestamp is None else timestamp
        shape = self._shape_problem(evidence)
        if shape:
            return self._status(now, (), shape, ())
        settled, occluded, unsteady = self._settle(evidence, now, self.settings.rest_seconds,
                                                   walls=self.state.phase != OFFER)
        committed: list[str] = []
        waiting = None
        # A round can move on several steps in one view (the last move, then the tiling is already visible).
        for _ in range(4):
            phase = self.state.phase
            if phase == OFFER:
                done, waiting = self._offer(settled, now, unsteady, evidence)
            elif phase == WALL_TILING:
                tiled, _, _ = self._settle(evidence, now, self.settings.tiling_rest_seconds, walls=True)
                done, waiting = self._wall_tiling(tiled, now)
            elif phase == DEAL:
                done, waiting = self._deal(settled, now, evidence)
            else:
                done, waiting = [], None
            committed += done
            if not done:
                break
        self._check_score_cubes(evidence, now)
        return self._status(now, tuple(committed), waiting, occluded)

    def _status(self, now, committed, waiting, occluded) -> TrackerStatus:
        return TrackerStatus(now, committed, self.alert, tuple(self.score_alerts.values()), waiting, occluded)

    def _shape_problem(self, evidence: TableEvidence) -> str | None:
        state = self.state
        if len(evidence.boards) != state.players or len(evidence.factories) != len(state.factories):
            return (f"the observation shows {len(evidence.boards)} boards and {len(evidence.factories)} factory "
                    f"displays; this game has {state.players} and {len(state.factories)}")
        return None

    # ---- stability ---------------------------------------------------------------------------------
    def _settle(
        self, evidence: TableEvidence, now: float, rest: float, walls: bool
    ) -> tuple[TableEvidence, tuple[Region, ...], frozenset[Region]]:
        """Evidence with every region that is covered, or changed too recently, turned into no evidence; and
        which of those are unsteady displays or centre (see TrackerSettings.unsteady_window).

        Without `walls` (during the offer, when no wall can change) wall spaces are no evidence at all: a wall
        space vision misreads or flickers on must neither hold a board's moves back nor count against them."""
        hidden: list[Region] = []
        unsteady: set[Region] = set()
        boards = []
        through = set()
        counted = [*((("factory", j), ev) for j, ev in enumerate(evidence.factories)), (("centre", 0), evidence.centre)]
        chronic = self._chronic_flags(evidence, counted, now)
        for i, ev in enumerate(evidence.boards):
            seen = self._seen_through(("board", i), ev, now, rest, walls)
            if seen.occluded != ev.occluded:
                through.add(("board", i))
            ev = seen
            if not walls:
                ev = dataclasses.replace(ev, wall=NO_WALL_EVIDENCE, signature=ev.signature[:-1])
            # A board rests place by place (pattern-line slots, floor and wall spaces): as a whole, it only needs to be
            # uncovered.
            still = self._at_rest(("board", i), (), ev.occluded, now, rest)
            if not ev.occluded:
                ev = self._steady_board(self._watch[("board", i)], ev, now, rest)
                if walls:
                    ev = self._steady_wall(self._watch[("board", i)], ev, now, rest)
            if ev.occluded or not still:
                hidden.append(("board", i))
                ev = dataclasses.replace(ev, occluded=True)
            boards.append(ev)
        regions = []
        for region, ev in counted:
            seen = self._counted_through(region, ev, now)
            if region in chronic:
                seen = dataclasses.replace(ev, occluded=False)
            elif seen.occluded != ev.occluded:
                through.add(region)
                self._rested_through(region, seen)
            ev = seen
            still = self._at_rest(region, ev.signature, ev.occluded, now, rest)
            watch = self._watch[region]
            if not ev.occluded:
                steady = self._steady_counts(watch, ev, now, rest)
                if not still and not walls and not steady.unsettled.issuperset(range(MARKER_ELEMENT)):
                    # During the offer a display or the centre whose count of one colour vision cannot settle on
                    # (it reads 2, then 4, then 3 yellow) still counts in the colours it reads steadily.
                    still, ev = True, steady
                    if now - watch.uncovered_since >= rest - REST_TOLERANCE:
                        unsteady.add(region)
            if ev.occluded or not still:
                hidden.append(region)
                ev = dataclasses.replace(ev, occluded=True)
            regions.append(ev)
        factories, centre = regions[:-1], regions[-1]
        for region in hidden:
            watch = self._watch[region]
            if region[0] != "board" and watch.uncovered_since is not None and \
                    now - watch.uncovered_since >= rest - REST_TOLERANCE:
                unsteady.add(region)
        self._through = frozenset(through)
        return TableEvidence(tuple(boards), tuple(factories), centre, now), tuple(hidden), frozenset(unsteady)

    def _seen_through(self, region: Region, ev: BoardEvidence, now: float, rest: float, walls: bool) -> BoardEvidence:
        """A board vision flags covered, with each pattern-line slot and floor space that has read the same for
        COVER_STEADY_SECONDS kept as evidence and the others turned into none: it counts as in view if any place
        is kept (while walls count, its wall spaces are places too). Vision flags a board covered where
        no hand is (a tile's shadow, a lamp's glare on its margin), at times for the rest of a round (recorded
        tuning game 600: board 1 from the round's fifth move to its tiling; 604: two of three boards in most
        frames), and the tracker saw none of its moves and stalled for good. A hand over a board changes what is
        read under it from frame to frame; a place that stays put is the board (14 recorded tuning games, 600-615
        of today's vision, 604-609 of the last, 5 and 33: board-frames flagged covered whose whole reading had
        stayed 1 s, 5,780 with no hand, 0.5 % of them misread somewhere, and 979 under a hand, 0.2 %).

        A place that has read the same for the rest time, and was read so in a frame the board was in view, is kept
        too: vision flags a board covered again for frames after the hand has left (recorded tuning game 701, 44.8 s:
        board 3 in view one frame after the hand, then flagged for 0.8 s with no hand, read the same all along; the
        move waited the 1 s). A reading made under a hand is rarely seen in view (recorded tuning games 744-761, 735,
        750: pattern and floor lines read the same for 0.3-1 s under a cover flag, with a hand over the board 72.6 %
        of them wrong if never read so in view, 1.8 % if read so in view; with no hand 1.5 % and 0.1 %)."""
        watch = self._watch.setdefault(region, _RegionWatch(None, now))
        board = _BoardPlaces(ev)
        kept = []
        for key, dists, j in board.places:
            seen = _held_through(watch, key, _likeliest(dists[j]), now, rest)
            if seen is None:
                board.forget(key, dists, j)
            else:
                kept.append((key, seen))
        wall, occupied = [list(row) for row in ev.wall], [list(row) for row in ev.signature[WALL_SIZE + 1]]
        for r, c in itertools.product(range(WALL_SIZE), repeat=2):
            # A wall space rests on its own, as a place does (recorded tuning game 938, round 4: board 3 flagged
            # covered through its tiling, one space read now with a tile, now without, and the whole wall never
            # rested: the tiling waited 16 s, far into the next round).
            seen = _held_through(watch, ("wall", r, c), occupied[r][c], now, rest)
            if not walls:
                continue
            if seen is None:
                wall[r][c], occupied[r][c] = (0.0, 0.0), None
            else:
                kept.append((("wall", r, c), seen))
        if not ev.occluded or not kept:
            return ev
        for key, seen in kept:  # a place kept has rested (see _steady_board)
            if watch.elements.get(key, (None,))[0] != seen[0]:
                watch.elements[key] = seen
        seen_through = board.evidence(occluded=False)
        return dataclasses.replace(seen_through, wall=_freeze(wall),
                                   signature=(*seen_through.signature[:WALL_SIZE + 1], _freeze(occupied)))

    def _counted_through(self, region: Region, ev: CountEvidence, now: float) -> CountEvidence:
        """A display or the centre vision flags covered that reads tiles (or the marker), the same for
        COVER_STEADY_SECONDS, counts as in view, as a board's places do (_seen_through). Recorded tuning game 604:
        factory displays 1 and 2 flagged covered in most frames with no hand; display 2 was emptied, display 6
        held the same four tiles, and which one the move took from was never seen. Read empty it does not count:
        a hand hides what lies under it (covered readings that had stayed 1 s, the 14 recordings of _seen_through:
        with tiles, 4,507 with no hand 0.4 % wrong, 730 under a hand 1.1 %; empty, 2,933 under a hand 2.9 %)."""
        watch = self._watch.setdefault(region, _RegionWatch(None, now))
        seen = watch.held.get("counts")
        # The tile counts, since when, and in how many frames running (each a vote on a deal, see _deal).
        watch.held["counts"] = seen = (ev.counts, now, 1) if seen is None or seen[0] != ev.counts else (
            *seen[:2], seen[2] + 1)
        marker = watch.held.get("marker")
        if marker is None or marker[0] != ev.first_player:
            watch.held["marker"] = (ev.first_player, now)
        if not ev.occluded or now - seen[1] < COVER_STEADY_SECONDS - REST_TOLERANCE:
            return ev
        # The centre's first-player marker read one way, then the other, under a cover flag is no evidence; its tiles
        # still are (recorded tuning game 711: the centre flagged covered all game, its tiles read the same for
        # seconds, the marker flickering: it never counted, and every move sends tiles to the centre).
        marker = ev.first_player if self._marker_held(watch, now) else None
        if sum(ev.counts) or marker:
            return dataclasses.replace(ev, occluded=False, first_player=marker, signature=(ev.counts, marker))
        return ev

    def _rested_through(self, region: Region, ev: CountEvidence) -> None:
        """A display or the centre counted through a cover flag has read so for COVER_STEADY_SECONDS: it has rested
        since (recorded tuning game 711: the centre flagged covered all game counted 1 s after each move, and waiting
        the rest time more took till the next move's hand)."""
        watch = self._watch[region]
        if watch.signature != ev.signature:
            watch.signature, watch.since = ev.signature, watch.held["counts"][1]

    @staticmethod
    def _marker_held(watch: _RegionWatch, now: float) -> bool:
        """Whether the centre's first-player marker (None for a display) has read the same for COVER_STEADY_SECONDS."""
        return now - watch.held["marker"][1] >= COVER_STEADY_SECONDS - REST_TOLERANCE

    def _chronic_flags(self, evidence: TableEvidence, counted: list, now: float) -> frozenset[Region]:
        """The centre, if vision has flagged it covered in every frame for CHRONIC_COVER_SECONDS and flags nothing
        else on the table covered this frame but displays flagged as long: then it counts as in view (_settle).

        A flag that stands that long is no hand passing by (a move's hand comes and goes in under a second) but a
        look vision takes for one (the centre flagged all game in recorded tuning game 711). Counted through the flag
        (_counted_through), the centre waits COVER_STEADY_SECONDS after each move, and nearly every move sends tiles
        to it or takes them from it: recorded tuning game 707 re-scored with the centre's flag on in every frame
        had 67 of its 73 commits 0.6-0.8 s after the table came to rest (0 with vision's own flags), and none of its
        3 misplaced tiles flagged (all 3), an alert needing what the action changed in view; game 701 so re-scored
        stalled in round 1 (a black tile read now 1, now 2, the counts never the same for a second).

        A hand is about while anything else is flagged: a move's hand takes from the centre, then lays the tiles on
        a board. Counted in view whatever else was flagged, the centre had rested 0.3 s after the take with the hand
        still over the board, and places forgotten under the hand (_seen_through) took the tiles: one false move in
        game 707 so re-scored (black to the floor line, not line 5). A display is no part of this: covered, its
        readings are votes on the deal (_deal)."""
        chronic, busy = False, any(b.occluded for b in evidence.boards)
        for region, ev in counted:
            watch = self._watch.setdefault(region, _RegionWatch(None, now))
            if not ev.occluded:
                watch.flagged_since = None
                continue
            if watch.flagged_since is None:
                watch.flagged_since = now
            if now - watch.flagged_since < CHRONIC_COVER_SECONDS - REST_TOLERANCE:
                busy = True
            elif region[0] == "centre":
                chronic = True
        return frozenset({("centre", 0)}) if chronic and not busy else frozenset()

    def _at_rest(self, region: Region, signature, occluded: bool, now: float, rest: float) -> bool:
        watch = self._watch.setdefault(region, _RegionWatch(None, now))
        if occluded:
            # A covered region may have changed underneath; if it has, it reads differently afterwards and must be
            # seen at rest again. If it reads as before, it was at rest all along: vision flags a display covered
            # for a frame or two every few frames (its glare, a shadow), and waiting 0.3 s without a flag kept a
            # display from ever counting.
            watch.uncovered_since = None
            watch.lately.clear()
            watch.doubted_since = None
            return False
        if watch.uncovered_since is None:
            watch.uncovered_since = now
        watch.lately[signature] = now
        for reading, when in list(watch.lately.items()):
            if now - when > self.settings.unsteady_window:
                del watch.lately[reading]
        if signature != watch.signature:
            watch.signature, watch.since = signature, now
        return now - watch.since >= rest - REST_TOLERANCE

    def _steady_board(self, watch: _RegionWatch, ev: BoardEvidence, now: float, rest: float) -> BoardEvidence:
        """A board in view, with each pattern-line slot and floor space whose reading changed within the rest time
        turned into no evidence (its own stability: a slot vision reads one way, then another, frame after frame
        must not keep the whole board from counting; a tile just put down counts once it has rested). A slot that
        reads as before a cover was at rest all along, as a region is. A place read as a tile all along, but now one
        colour, now another, has rested as a tile of no colour seen (_BoardPlaces.tile): recorded tuning game 704
        (3 players, gray), a white tile on pattern line 1 read white, then blue, each at 1.00, frame after frame for
        5 s after it was laid; the move was never committed and the round stalled."""
        board = _BoardPlaces(ev)
        for key, dists, j in board.places:
            if dists[j] == NO_SLOT_EVIDENCE:
                # Not read steadily under a cover flag (_seen_through): no reading, as when the board is covered.
                board.forget(key, dists, j)
                continue
            reading = _likeliest(dists[j])
            seen = watch.elements.get(key)
            if seen is None or seen[0] != reading:
                # Read so in every frame since, flagged covered or not (_seen_through), it has rested since: vision
                # flags a board covered where no hand is for frames at a time (recorded tuning game 718: a misplaced
                # tile, the board in view in two single frames of the second it lay there, read the same in all).
                held = watch.held.get(key)
                watch.elements[key] = seen = held if held is not None and held[0] == reading else (reading, now)
            tile = reading != slot_index(EMPTY)
            since = watch.occupied.get(key)
            if since is None or since[0] != tile:
                watch.occupied[key] = since = (tile, now)
            if now - seen[1] < rest - REST_TOLERANCE:
                if tile and now - since[1] >= rest - REST_TOLERANCE:
                    board.tile(key, dists, j)
                else:
                    board.forget(key, dists, j)
        return board.evidence()

    def _steady_wall(self, watch: _RegionWatch, ev: BoardEvidence, now: float, rest: float) -> BoardEvidence:
        """A board's wall in view, with each space whose reading changed within the rest time turned into no evidence,
        as its places are (_steady_board). The wall rested as a whole, and a space vision read now with a tile, now
        without, held the whole board back: recorded tuning game 706 (2 players, colored), the game's last tiling
        never committed, a wall space no tile was placed on flickering in the last frames."""
        wall = [list(row) for row in ev.wall]
        occupied = [list(row) for row in ev.signature[WALL_SIZE + 1]]
        unsettled = False
        for r, c in itertools.product(range(WALL_SIZE), repeat=2):
            seen = watch.elements.get(("wall", r, c))
            if seen is None or seen[0] != occupied[r][c]:
                watch.elements["wall", r, c] = seen = (occupied[r][c], now)
            if now - seen[1] < rest - REST_TOLERANCE:
                wall[r][c], occupied[r][c], unsettled = (0.0, 0.0), None, True
        if not unsettled:
            return ev
        return dataclasses.replace(ev, wall=_freeze(wall), signature=(*ev.signature[:WALL_SIZE + 1], _freeze(occupied)))

    def _steady_counts(self, watch: _RegionWatch, ev: CountEvidence, now: float, rest: float) -> CountEvidence:
        """A display or the centre in view, with each colour's count (and the centre's marker) whose reading changed
        within the rest time turned into no evidence, as a board's places are (see _steady_board).

        A region whose every count vision has doubted (FAINT_LOG_MISS) in every frame for COVER_STEADY_SECONDS since
        it was last covered is not waited on: its counts weigh little however they read, and they may never settle
        (recorded tuning game 877: a lamp over the centre washed its tiles so pale that their colours read a
        different way each frame, and every move that left tiles there waited for the centre to rest; 0 of 51 moves
        followed). Doubted only since a hand left, the flicker is a hand's doing, and waited on (recorded tuning game
        322: a red tile still being taken from the centre, its count doubted for 0.2 s; not waited on, a move it was
        not made of was committed). A region vision is sure of in any count is waited on as ever: it still tells,
        and a count that flickers there is a change under way. Nor is a doubted region passed over for a move from a
        display vision never read legibly (_sole_witness)."""
        readings = [*ev.counts, ev.first_player]
        if any(cost < FAINT_LOG_MISS for cost in ev.colour_costs):
            watch.doubted_since = None
        elif watch.doubted_since is None:
            watch.doubted_since = now
        doubted = _doubted_long(watch, now)
        unsettled = set()
        for element, reading in enumerate(readings):
            seen = watch.elements.get(element)
            if seen is None or seen[0] != reading:
                watch.elements[element] = seen = (reading, now)
            if now - seen[1] < rest - REST_TOLERANCE:
                unsettled.add(element)
        watch.passed_over = frozenset(unsettled) if doubted else frozenset()
        if doubted:
            unsettled = set()
        if not unsettled:
            return ev
        costs = ev.colour_costs
        return dataclasses.replace(
            ev, colour_log_miss=tuple(0.0 if c in unsettled else cost for c, cost in enumerate(costs)),
            first_player=None if MARKER_ELEMENT in unsettled else ev.first_player, unsettled=frozenset(unsettled))

    # ---- the factory offer -------------------------------------------------------------------------
    def _offer(self, evidence: TableEvidence, now: float, unsteady: frozenset[Region] = frozenset(),
               raw: TableEvidence | None = None) -> tuple[list[str], str | None]:
        """`raw`: the view as vision read it, walls and all (see _tiled_after)."""
        state = self.state
        read = self._guess_read(evidence, raw or evidence)
        if read:
            return read, None
        evidence = self._unguessed(evidence)
        scorer = Scorer(evidence)
        committed = table_model(state)
        self._remember(evidence)  # even as committed: a re-check of the last move may need it
        if scorer.table(committed) >= max_loglik(evidence) - 1e-9:
            # The table is exactly as committed (wherever it is in view): nothing to explain.
            self.alert = None
            return [], None
        key = (len(self.game.record.events), _in_view(evidence), _evidence_key(evidence))
        last = self._last_offer_key
        view = _view_signature(evidence)
        if self._searched_since != key[0]:
            self._searched_since, self._searched = key[0], set()
        # The board places a corrected deal waits on have read the same long enough (_held_long): news, once.
        places_held = now >= self._deal_held_at
        if places_held:
            self._deal_held_at = float("inf")
        if not places_held and ((key == last and now - self._last_offer_at < STALE_SEARCH_INTERVAL) or (
                key[0] == last[0] and now - self._last_offer_at < self.settings.search_interval
                and _nothing_new(key[1], last[1])) or (
                key[0] == last[0] and now - self._last_offer_at < STALE_SEARCH_INTERVAL and view in self._searched)):
            # The same view, or an undecided search of this state with these regions in view (or more) only just
            # done: a camera's noise makes every frame a new view, and vision flags regions covered for a frame now
            # and then; searching each one would cost more than the frame rate allows (a stalled 3-player game took
            # 0.2 s a frame). A region or a board's place coming to rest is news, though: searching it at once
            # saves a frame of latency. A view read as one already searched since the log last changed (every
            # region and place in view reading the same) is no news either: while the tracker is stuck, vision's
            # flags come and go and each combination of them was searched again and again (up to 1 s a frame on a
            # loaded machine, recorded tuning game 600); it is searched again only after STALE_SEARCH_INTERVAL.
            return [], self._last_offer_waiting
        hypotheses = legal_hypotheses(state, scorer, depth=1)
        best_legal = max(_score(h, scorer) for h in hypotheses)
        if best_legal < max_loglik(evidence) - 1e-9:
            # No single legal move explains everything in view: missed moves, or a rule broken.
            hypotheses = legal_hypotheses(state, scorer, depth=self.settings.depth)
            hypotheses += illegal_hypotheses(state)
        best, runner_up = _best_two(hypotheses, scorer)
        committed_table = hypotheses[0].table
        if _score(best, scorer) < max_loglik(evidence) - 1e-9:
            recheck, unsure = self._recheck(evidence, scorer, _score(best, scorer), unsteady, now)
            if not recheck and not unsure:
                recheck = self._recheck_deal(evidence, scorer, _score(best, scorer), best.table, unsteady, now,
                                             places_held)
            if not recheck and not unsure:
                recheck = self._tiled_after(evidence, raw or evidence, hypotheses, committed_table, unsteady)
            if recheck:
                return recheck, None
            if unsure:
                self._last_offer_key, self._last_offer_at, self._last_offer_waiting = key, now, unsure
                self._undecided(view)
                return [], unsure
        if not best.moves and best.legal:
            if self.alert is not None:
                self.alert = None
            return [], None
        margin = _score(best, scorer) - (_score(runner_up, scorer) if runner_up else float("-inf"))
        if margin < self.settings.margin:
            what = best.describe(state)
            other = runner_up.describe(state) if runner_up else "nothing"
            self._last_offer_key, self._last_offer_at = key, now
            self._undecided(view)
            self._last_offer_waiting = f"not sure yet: '{what}' or '{other}'"
            return [], self._last_offer_waiting
        hidden = self._hidden(evidence, committed_table, best, unsteady)
        if hidden:
            changed = changed_regions(committed_table, best.table)
            if not unsteady & changed and not any(self._held_as(r, best.table, float("inf")) for r in changed):
                # Only a region or place coming to rest (news) can change this; an unsteady one's readings can, too,
                # and so can time, for a covered one read as the move leaves it (_held_as).
                self._last_offer_key, self._last_offer_at, self._last_offer_waiting = key, now, hidden
            return [], hidden
        unfit = self._misfit(evidence, committed_table, best)
        if unfit:
            self._last_offer_key, self._last_offer_at = key, now
            self._undecided(view)
            self._last_offer_waiting = unfit
            return [], unfit
        if not best.legal:
            doubted = {r for r, watch in self._watch.items() if _doubted_long(watch, now)}
            through = sorted((self._through | doubted) & changed_regions(committed_table, best.table))
            if through:
                # An alert names a person: what its action changed must be in view, not only read steadily under a
                # cover flag (recorded tuning game 611: a hand over the centre, its reading the same for 1.4 s and
                # unsure, and a move out of turn best explained a view that one board had not settled on), nor in a
                # region whose every count vision has doubted for 1 s (recorded tuning game 877: the centre under a
                # lamp, one black tile read there at 0.6 after a player took them all, and "Player 1 left 1 black
                # tile" was alerted).
                return [], f"waiting for {region_name(through[0])} to be in view"
            refilled = [j for j, f in enumerate((raw or evidence).factories)
                        if not state.factories[j] and not f.occluded and sum(f.counts) >= 2]
            if refilled:
                # No rule a player breaks puts tiles on an emptied display: the next refill is out, the round is over
                # and the tracker behind it; what the boards show is no action of this round's offer (recorded tuning
                # game 600, stalled a round behind: an alert as the refill's displays were still coming to rest).
                return [], f"factory display {refilled[0] + 1} holds tiles again: waiting for the round to be entered"
            # Every region it changes has rested, and fits exactly: a hand's last frames are past. No further wait:
            # at a real table's pace a misplaced tile lies about a second before the player puts it right, and
            # vision may flag the board covered for the first half of it (recorded tuning games 6, 22).
            if self.alert is None or self.alert.rule != best.rule or self.alert.reason != best.reason:
                self.alert = Alert(best.player, best.rule, best.reason, now)
            return [], None
        if len(best.moves) > 1:
            # The table is clear enough; which history led to it may not be (searched only now: it is rare).
            chosen, rival, margin = self._history(state, best, scorer)
            why = None
            if margin < self.settings.margin:
                why = f"not sure yet: '{chosen.describe(state)}' or '{rival.describe(state)}'"
            elif chosen.table != best.table:
                why = self._hidden(evidence, committed_table, chosen, unsteady) or \
                    self._misfit(evidence, committed_table, chosen)
            if why:
                self._last_offer_key, self._last_offer_at, self._last_offer_waiting = key, now, why
                self._undecided(view)
                return [], why
            best = chosen
        described = best.describe(state)
        for move in best.moves:
            self.game.play(move)
        self.alert = None
        return [described], None

    def _unguessed(self, evidence: TableEvidence) -> TableEvidence:
        """The view with a display dealt with a guess (_guess_display) turned into no evidence while it holds its
        tiles: vision reads it wrong, some colours surely (recorded tuning game 703, glare: no red at 0.83 on a
        display with a red tile), or a tile short in every reading, which nothing explains (recorded tuning game
        720, round 4: display 2, full for 13 moves, held every re-check of another display's guess back). Read
        empty, it has been taken from: that counts (_recheck_deal then tells what it held)."""
        washed = [g["factory"] for g in self._deal_guess()
                  if self.state.factories[g["factory"]] and sum(evidence.factories[g["factory"]].counts)]
        if not washed:
            return evidence
        factories = list(evidence.factories)
        for j in washed:
            factories[j] = dataclasses.replace(factories[j], occluded=True)
        return dataclasses.replace(evidence, factories=tuple(factories))

    def _guess_read(self, evidence: TableEvidence, raw: TableEvidence) -> list[str]:
        """A display dealt with a guess that still holds its tiles, now read at rest with all 4 surely, or as its
        readings settle it (_settled_readings: a hand had covered it, or the round was dealt on patience,
        _guess_wholes): the reading replaces the guess in the log (a logged correction), and the display is evidence
        again."""
        record = self.game.record
        for guess in self._deal_guess():
            j = guess["factory"]
            if not self.state.factories[j]:
                continue
            if not raw.factories[j].occluded and sum(raw.factories[j].counts):
                self._deal_votes.setdefault(j, Counter())[raw.factories[j].counts] += 1
                self._deal_in_view.add(j)
            f = evidence.factories[j]
            if f.occluded or f.unsettled or sum(f.counts) != 4 or (
                    f.log_miss > DEAL_LOG_MISS and self._settled_readings([j]).get(j) != f.counts):
                continue
            events = record.events_in_force()
            start = max(i for i, e in enumerate(events) if e["type"] == "deal")
            back = len(events) - start
            if back > record.undoable:
                return []
            deal = [list(held) for held in events[start]["factories"]]
            guessed = sorted(deal[j])
            deal[j] = [COLOUR_NAMES[c] for c in range(5) for _ in range(f.counts[c])]
            if _replayed(record.state_before(back), deal, events[start + 1:]) is None:
                continue
            held = _described(deal[j])
            unseen = _unseen_of([g for g in self._deal_guess() if g["factory"] != j])
            self.game.correct(back, [{"type": "deal", "factories": deal, **({"unseen": unseen} if unseen else {})},
                                     *events[start + 1:]],
                              reason=f"factory display {j + 1} read clearly: it holds {held}")
            said = "as guessed" if sorted(deal[j]) == guessed else "not as guessed"
            return [f"factory display {j + 1} read clearly: it holds {held} ({said})"]
        return []

    def _deal_guess(self) -> list[dict]:
        """The tiles the round's deal guessed (its log event's `unseen`), per display guessed."""
        events = len(self.game.record.events)
        if self._guessed[0] != events:
            deal = next((e for e in reversed(self.game.record.events_in_force()) if e["type"] == "deal"), {})
            self._guessed = (events, _guesses(deal))
        return self._guessed[1]

    def _undecided(self, view: tuple) -> None:
        """Remember a view whose search could not decide: what it reads says so however long it lasts (unlike a
        region still coming to rest)."""
        if len(self._searched) < SEARCHED_VIEWS:
            self._searched.add(view)

    def _tiled_after(self, evidence: TableEvidence, raw: TableEvidence, hypotheses: list[Hypothesis],
                     committed: TableModel, unsteady: frozenset[Region]) -> list[str]:
        """The round's last move was not seen before the wall tiling began (a board flagged covered, then its
        player tiled at once): the view shows boards tiled, which no move explains. Each legal explanation that
        ends the factory offer is scored with every board as before its tiling, part-way or done, whichever fits
        it best, its wall read as well (a full line and the floor both emptied by the tiling differ there); the
        displays and the centre carry no evidence once the next round's refill is on them. If one explains every
        line and floor space in view but one at most (a move's commit allows a misread too: recorded tuning game
        600, a tile read on an emptied pattern line of a board flagged covered, frame after frame), clearly better
        than every other (those that leave the offer going, no move at all among them, included: see _shows_tiling
        for a move committed so before it was made), and a board in view is seen tiled (_shows_tiling), its moves
        are committed (the tiling then follows from the same view)."""
        state, seen = self.state, evidence
        if any(not f.occluded and sum(f.counts) for f in evidence.factories):
            evidence = dataclasses.replace(
                evidence, factories=tuple(dataclasses.replace(f, occluded=True) for f in evidence.factories),
                centre=dataclasses.replace(evidence.centre, occluded=True))
        walled = dataclasses.replace(evidence, boards=tuple(
            b if b.occluded else dataclasses.replace(b, wall=r.wall) for b, r in zip(evidence.boards, raw.boards)))
        ranking = Scorer(walled)
        scored = []
        untiled = float("-inf")  # the best legal explanation that leaves the offer going, no move at all included
        for h in hypotheses:
            if not h.legal:
                continue
            after = state.copy()
            for player, m in movers(state, h.moves):
                after.play(m, player)
            if after.phase != WALL_TILING:
                untiled = max(untiled, ranking.table(h.table) + h.prior)
                continue
            boards, tiled = [], False
            for p, ev in enumerate(walled.boards):
                options = [(ranking.board(p, b), label != "start", b)
                           for b, _, label, _ in _tiling_options(after, p, ev) if label != "wrong"]
                _, moved, board = max(options, key=lambda o: o[0])
                boards.append(board)
                tiled |= moved and not ev.occluded and _shows_tiling(ev, h.table.boards[p], board)
            seen_as = dataclasses.replace(h.table, boards=tuple(boards))
            scored.append((ranking.table(seen_as) + h.prior, seen_as, h, tiled))
        if not scored:
            return []
        scored.sort(key=lambda item: item[0], reverse=True)
        score, seen_as, best, tiled = scored[0]
        rival = max(untiled, next((s for s, t, _, _ in scored[1:] if t != seen_as), float("-inf")))
        if (not tiled or sum(region_misfits(seen_as, evidence).values()) > self.settings.changed_misfits
                or score - rival < self.settings.margin or self._hidden(seen, committed, best, unsteady)):
            return []
        described = best.describe(state)
        for m in best.moves:
            self.game.play(m)
        self.alert = None
        return [described]

    def _remember(self, evidence: TableEvidence) -> None:
        """Keep this view at rest if it reads differently from every one kept since the game log last changed."""
        events = len(self.game.record.events)
        if events != self._seen_since:
            self._seen_since, self._seen = events, []
        signature = _view_signature(evidence)
        if any(signature == s for s, _ in self._seen):
            return
        self._seen.append((signature, evidence))
        del self._seen[:-SEEN_VIEWS]

    def _hidden(self, evidence: TableEvidence, committed: TableModel, best: Hypothesis, unsteady: frozenset[Region]
                ) -> str | None:
        """Why a region `best` changes does not count yet, or None when every one does."""
        hidden = [r for r in changed_regions(committed, best.table)
                  if (_is_hidden(evidence, r) or _unsettled(evidence, r, committed, best.table)
                      or self._sole_witness(r, committed, best, evidence.timestamp))
                  and not (self._read_lately(r, best.table, unsteady)
                           or best.legal and self._held_as(r, best.table, evidence.timestamp))]
        return f"waiting for {region_name(hidden[0])} to be in view and still" if hidden else None

    def _sole_witness(self, region: Region, committed: TableModel, best: Hypothesis, now: float) -> bool:
        """Whether `region` is one whose counts are not waited on to settle, vision doubting them all
        (_steady_counts), with some that `best` changes not rested, and `best` takes from a display vision never read
        at better than even odds this deal: the region may be the one witness against a misread of that display's
        tiles, on it and on the board alike (recorded tuning game 749: 2 black tiles read white surely on display 2
        and on board 3, display 2 never read better than 0.23; with the centre, doubted, not waited on, the move was
        committed as white)."""
        watch = self._watch.get(region)  # a board's is never doubted (_steady_counts watches displays and the centre)
        if watch is None or not _doubted_long(watch, now) or \
                not _counts_unrested(region, watch.passed_over, committed, best.table):
            return False
        return any(m.source != CENTRE and m.source not in self._deal_legible for m in best.moves)

    def _history(self, state: GameState, best: Hypothesis, scorer: Scorer
                 ) -> tuple[Hypothesis, Hypothesis | None, float]:
        """Which legal move history from `state` led to `best`'s boards and displays (the beam search keeps only
        the likeliest few, and may have dropped the true one: another order, the same tiles from the centre
        instead of a display): the one that fits the view now (`scorer`) and the views kept on the way best (a view
        where display 1 is empty but display 2 still full), with a fewer-move prior. Returns it, its closest rival
        (None if no other history ends so) and the margin between them."""
        histories = histories_like(state, best.table, self.settings.depth)
        if len(histories) < 2:
            return best, None, float("inf")
        now = _view_signature(scorer.evidence)
        scorers = [Scorer(view) for signature, view in self._seen if signature != now]

        def fit(h: Hypothesis) -> float:
            tables = tables_along(state, h.moves)
            return h.prior + scorer.table(h.table) + sum(max(s.table(t) for t in tables) for s in scorers)

        ranked = sorted(((fit(h), h) for h in histories), key=lambda item: item[0], reverse=True)
        (top, chosen), (second, rival) = ranked[:2]
        return chosen, rival, top - second

    def _misfit(self, evidence: TableEvidence, committed: TableModel, best: Hypothesis,
                state: GameState | None = None) -> str | None:
        """Why the best explanation (from `state`, the committed one by default) does not fit the view well enough
        to act on, or None when it does."""
        guessed = [g["factory"] for g in self._deal_guess()] if state is None else None
        state = state or self.state
        misfits = region_misfits(best.table, evidence)
        changed = changed_regions(committed, best.table)
        elsewhere = {r: n for r, n in misfits.items() if r not in changed}
        if not best.legal:
            # An alert names a person and a rule: what its action changed must look exactly as after it, the lines
            # it fills in full (recorded tuning game 738: board 3's floor line read with 3 to 7 tiles where none lay
            # for 8 s, and "Player 3 took white out of turn", 2 tiles on it, fitted best). A misread of what it left
            # alone in those regions (the marker missed in a centre it sent tiles to) is a misread like any other.
            misfits = {**region_misfits(best.table, evidence, committed, changed=True, whole_lines=True), **elsewhere}
            elsewhere.update((r, n) for r, n in region_misfits(best.table, evidence, committed, changed=False,
                                                               whole_lines=True).items() if r in changed)
        off = sorted(r for r in changed if misfits.get(r, 0))
        allowed = self.settings.changed_misfits if best.legal else 0
        if any(state.factories[j] and any(m.source == j for m in best.moves) for j in guessed or ()):
            # The move from a display dealt with a guessed tile tells what it held: what it changed must look
            # exactly as after it, or the guess is wrong (_recheck_deal). Recorded check game 728: display 4
            # dealt with a black tile guessed for a white one; white taken to a line read holding 2 whites (1 as
            # guessed) was committed in the one frame the centre read the guess's extra black.
            allowed = 0
        misfit = sum(misfits[r] for r in off)
        # Asked even when the move does not fit: a view that contradicts the display's content is remembered.
        misread = None if guessed is None else self._display_misread(evidence, best, state, changed, misfit)
        if misfit > allowed:
            return (f"'{best.describe(state)}' fits best, but {region_name(off[0])} does not look as it "
                    f"would after it")
        if misread:
            return misread
        other = sorted(r for r, n in elsewhere.items() if n)
        if sum(elsewhere[r] for r in other) > self.settings.unexplained_misfits:
            return (f"'{best.describe(state)}' fits best, but leaves {region_name(other[0])} unexplained "
                    f"(a move not seen?)")
        return None

    def _display_misread(self, evidence: TableEvidence, best: Hypothesis, state: GameState, changed: set,
                         misfit: int) -> str | None:
        """Why a legal move from a display waits: the same moves from another content of that display, one tile's
        colour away, fit what they change better (changed_misfits allows one difference), or, once a view has said
        so since the log last changed, as well. The deal's re-check (_recheck_deal) tells, once the places it
        corrects have read the same long enough. Recorded tuning game 720, round 4: display 5 read surely (0.97)
        with 2 white tiles for a black and a white one; the centre after red was taken from it read the black for
        a second, then a hand came and, the centre's black and white not yet at rest, the move was committed from
        the misread deal: the log's centre held a white tile for the black one, and a false alert followed. The tile
        misread may be the one taken, too: the moves then take its true colour (a yellow tile read blue, taken to a
        line that reads yellow, was committed as blue the moment the table rested)."""
        events = len(self.game.record.events)
        if self._contradicted[0] != events:
            self._contradicted = (events, frozenset())
        contradicted = self._contradicted[1]
        if not best.legal:
            return None
        for j in sorted({m.source for m in best.moves if m.source >= 0 and state.factories[m.source]}):
            if not misfit and j not in contradicted:
                continue
            held = [COLOUR_NAMES[c] for c, n in sorted(state.factories[j].items()) for _ in range(n)]
            logged = Counter(state.factories[j])
            for content in _other_contents(held, whole=False):
                tiles = Counter(COLOUR_NAMES.index(c) for c in content)
                (was,), (instead,) = logged - tiles, tiles - logged
                # The tile read as another colour may be the one taken: the same moves, that colour taken instead.
                taken_instead = tuple(Move(m.source, instead, m.line) if m.source == j and m.colour == was else m
                                      for m in best.moves)
                for moves in dict.fromkeys((best.moves, taken_instead)):
                    other = state.copy()
                    other.factories[j] = tiles
                    try:
                        for player, m in movers(state, moves):
                            other.play(m, player)
                    except IllegalMove:
                        continue
                    fit = sum(region_misfits(table_model(other), evidence).get(r, 0) for r in changed)
                    if fit < misfit or (j in contradicted and fit <= misfit):
                        self._contradicted = (events, contradicted | {j})
                        return (f"'{best.describe(state)}' fits best, but factory display {j + 1} may have held "
                                f"{', '.join(content)}")
        return None

    def _recheck(self, evidence: TableEvidence, scorer: Scorer, best_now: float, unsteady: frozenset[Region],
                 now: float) -> tuple[list[str], str | None]:
        """Nothing from the committed state explains this clear view: were the last one or two committed moves
        misread? If moves from before them explain everything in view, replace them (a logged correction).
        Returns what was corrected, or why nothing was although a correction is due: two move histories from
        before them end at this table and nothing seen tells which was played."""
        record = self.game.record
        # A stalled view is searched again and again: the last moves are re-checked when a region or place has come
        # into view since the last re-check, or after a while (two deeper searches each time: half the tracker's
        # time in stalled recorded tuning games 702 and 710).
        in_view = _in_view(evidence)
        events, last_view, last_at, last_unsure = self._rechecked
        if events == len(record.events) and now - last_at < RECHECK_INTERVAL and _nothing_new(in_view, last_view):
            return [], last_unsure
        corrected, unsure = self._recheck_moves(evidence, scorer, best_now, unsteady)
        self._rechecked = (len(record.events), in_view, now, unsure)
        return corrected, unsure

    def _recheck_moves(self, evidence: TableEvidence, scorer: Scorer, best_now: float, unsteady: frozenset[Region]
                       ) -> tuple[list[str], str | None]:
        """_recheck's search."""
        state = self.state
        record = self.game.record
        for back in (1, 2):
            if back > record.undoable:
                break
            before = record.state_before(back)
            if before.phase != OFFER or before.round != state.round:
                break  # only moves of this round are re-checked; deals and tilings stand
            committed_moves = [Move.from_json(e) for e in record.events_in_force() if e.get("type") == "move"][-back:]
            found = [h for h in legal_hypotheses(before, scorer, depth=back + 1) if len(h.moves) >= back]
            if not found:
                continue
            best = max(found, key=lambda h: _score(h, scorer))

            def due(h: Hypothesis, back=back, before=before, committed_moves=committed_moves) -> bool:
                return (
                    scorer.table(h.table) >= max_loglik(evidence) - 1e-9
                    and _score(h, scorer) - best_now >= self.settings.margin
                    and list(h.moves[:back]) != committed_moves
                    and not self._hidden(evidence, table_model(before), h, unsteady)
                )

            if due(best):
                if len(best.moves) > 1:
                    # Two histories from `before` may end at this table: the views kept must tell them apart.
                    best, rival, margin = self._history(before, best, scorer)
                    if margin < self.settings.margin:
                        return [], (f"not sure yet: '{best.describe(before)}' or '{rival.describe(before)}' (in "
                                    f"place of the last {back} move(s))")
                    if not due(best):
                        return [], None  # the history the views favour is not one to correct to
                described = best.describe(before)
                self.game.correct(back, _move_events(before, best.moves), reason=f"re-checked against a clearer view: {described}")
                self.alert = None
                return [f"corrected the last {back} move(s): {described}"], None
        return [], None

    def _held_as(self, region: Region, table: TableModel, now: float) -> bool:
        """Whether a display or the centre has read as `table` has it for COVER_STEADY_SECONDS, covered or not. A
        display vision flags covered and reads empty is no evidence (a hand hides what lies under it, see
        _counted_through), but once the rest of the table has decided a legal move that empties it, reading so
        steadily confirms it (recorded tuning game 604: display 2, taken from, flagged covered in all but a few
        single frames)."""
        if region[0] == "board":
            return False
        watch = self._watch.get(region)
        if watch is None or "counts" not in watch.held:
            return False
        counts, since, _ = watch.held["counts"]
        marker = watch.held["marker"][0] if self._marker_held(watch, now) else None  # flickering: no evidence
        kind, index = region
        predicted, predicted_marker = ((table.centre, table.centre_marker) if kind == "centre"
                                       else (table.factories[index], None))
        return (counts == predicted and marker in (None, predicted_marker)
                and now - since >= COVER_STEADY_SECONDS - REST_TOLERANCE)

    def _read_lately(self, region: Region, table: TableModel, unsteady: frozenset[Region]) -> bool:
        """Whether an unsteady region was read lately as `table` has it (see TrackerSettings.unsteady_window)."""
        if region not in unsteady:
            return False
        kind, index = region
        counts, marker = (table.factories[index], None) if kind == "factory" else (table.centre, table.centre_marker)
        return any(c == counts and None in (m, marker) or (c, m) == (counts, marker)
                   for c, m in self._watch[region].lately)

    # ---- wall tiling -------------------------------------------------------------------------------
    def _wall_tiling(self, evidence: TableEvidence, now: float) -> tuple[list[str], str | None]:
        state = self.state
        if self._tiled_round != state.round:
            self._tiled_round, self._tiled = state.round, {}
        waiting = None
        for player in range(state.players):
            ev = evidence.boards[player]
            if ev.occluded:
                if player not in self._tiled:
                    waiting = waiting or f"waiting to see {state.names[player]}'s board during wall tiling"
                continue
            options = _tiling_options(state, player, ev)
            scored = sorted(((board_loglik(b, ev) + prior, i) for i, (b, prior, _, _) in enumerate(options)),
                            reverse=True)
            top, i = scored[0]
            board, _, label, detail = options[i]
            second = max((v for v, j in scored[1:] if options[j][2] != label and (
                options[j][2] != "wrong" or _read_with_a_tile(ev, options[j][3][0]))), default=float("-inf"))
            if top - second < self.settings.margin or label not in ("done", "wrong"):
                self._tiled.pop(player, None)
                waiting = waiting or f"{state.names[player]} is still tiling"
                continue
            if label == "wrong":
                self._tiled.pop(player, None)
                self.alert = Alert(player, "wrong_wall_space", detail[1], now)
                return [], None
            self._tiled[player] = detail
        if waiting:
            return [], waiting
        columns: dict[tuple[int, int], int] = {}
        for detail in self._tiled.values():
            columns.update(detail)
        try:
            reports = self.game.tile_walls(columns)
        except (IllegalMove, RecordError) as err:
            self.alert = Alert(None, "wall_tiling", str(err), now)
            return [], None
        self.alert = None
        words = [f"{state.names[r.player]} +{r.wall_points} -{r.floor_penalty} = {r.score_after}" for r in reports]
        return ["wall tiling: " + ", ".join(words)], None

    # ---- the next round's deal ---------------------------------------------------------------------
    def _deal(self, evidence: TableEvidence, now: float, raw: TableEvidence) -> tuple[list[str], str | None]:
        """Read the refill. Players often start taking tiles the moment the displays are full, so each display's
        clearest reading seen at rest with tiles on it is kept: the deal is what they held, even if one has
        since been taken from. A wrong deal would derail the whole round, so every display must have been
        read with DEAL_CONFIDENCE at least once, or, once play has begun, read the same nearly every time."""
        state = self.state
        expected = min(4 * len(state.factories), sum(state.bag) + sum(state.lid))
        if self._deal_round != state.round:
            self._deal_round, self._deal_seen, self._deal_votes, self._deal_taken = state.round, {}, {}, False
            self._deal_taken_at = float("inf")
            self._deal_legible, self._deal_covered, self._deal_in_view = set(), {}, set()
            self._deal_emptied, self._deal_doubts = set(), {}
            self._seen_since, self._seen = len(self.game.record.events), []  # the last round's views are no more
        ahead, persisting = self._walls_ahead(evidence, now)
        if ahead >= MISSED_TILING_TILES:
            # Walls change only at a tiling: these displays may be a later round's refill (the tracker was stopped or
            # blind through a whole round). Taking them for this round's deal would be a false event, even in a
            # view where hands cover the boards (a board's last view counts): no deal while the tiles are seen. Once
            # they have stayed WALLS_AHEAD_SECONDS, a person must undo or correct the game; a misread that goes
            # away (a glint on one frame's wall) holds the deal back only while it lasts.
            if persisting < MISSED_TILING_TILES:
                return [], f"checking the walls: {ahead} tiles more than after the last tiling"
            return [], (f"the walls hold {persisting} tiles more than after the last tiling: a round went by unseen; "
                        f"enter it by hand (undo or correct) to go on")
        # The centre is empty at a deal (the round ended when it was): tiles there mean a player took from a display,
        # even one never read at rest before it was taken from.
        if not evidence.centre.occluded and sum(evidence.centre.counts):
            self._deal_taken = True
        for j, f in enumerate(evidence.factories):
            if f.occluded or f.unsettled:
                continue
            if j in self._deal_seen and sum(f.counts) < sum(self._deal_seen[j].counts):
                self._deal_taken = True
                if not sum(f.counts):
                    self._deal_emptied.add(j)
            if sum(f.counts) and ("factory", j) in self._through:
                # Counted through a cover flag, it has read so in every frame for a second (vision gives a covered
                # display no confidence: only votes can settle it): each of those frames is a vote.
                votes = self._deal_votes.setdefault(j, Counter())
                votes[f.counts] = max(votes[f.counts], self._watch["factory", j].held["counts"][2])
            if sum(f.counts) and (j not in self._deal_seen or f.log_miss <= self._deal_seen[j].log_miss):
                self._deal_seen[j] = f  # log_miss falls as vision is surer of the count
            if sum(f.counts):
                doubts = self._deal_doubts.get(j, f.colour_costs)
                self._deal_doubts[j] = tuple(max(a, b) for a, b in zip(doubts, f.colour_costs))
        for j, f in enumerate(raw.factories):
            # Every reading of an uncovered display with tiles is a vote, at rest or not: one read differently from
            # frame to frame (a tile vision sees one frame in two), or flagged covered every other frame with no hand
            # over it (recorded tuning game 710: display 5 through the first round's deal and first move), never
            # rests. A vote is never the display's clearest reading.
            if not f.occluded and sum(f.counts):
                self._deal_votes.setdefault(j, Counter())[f.counts] += 1
                self._deal_in_view.add(j)
                if f.log_miss < LEGIBLE_LOG_MISS:
                    self._deal_legible.add(j)
            elif sum(f.counts):
                self._deal_covered.setdefault(j, Counter())[f.counts] += 1
        if self._deal_taken:
            self._deal_taken_at = min(self._deal_taken_at, now)
            # The views since play began tell the order of the first moves apart, whether the deal is read from them
            # (_deal_with_hidden_display) or made before them (kept past the deal: _dealt). Views of the refill under
            # way are none of the round's tables.
            self._remember(evidence)
        unsure = [j for j, f in sorted(self._deal_seen.items()) if f.log_miss > DEAL_LOG_MISS]
        unseen = [j for j in range(len(state.factories)) if j not in self._deal_seen]
        settled = self._settled_readings(unsure + unseen)
        if expected < 4 * len(state.factories):
            settled = self._left_over(settled, unseen)
        unsure = [j for j in unsure if j not in settled]
        unseen = [j for j in unseen if j not in settled]
        readings = [settled.get(j, self._deal_seen[j].counts if j in self._deal_seen else (0,) * 5)
                    for j in range(len(state.factories))]
        # A display read a tile short, however surely, and taken from before its readings settled it is as unclear
        # (recorded tuning game 714, round 3: display 2 read without one of its black tiles at 0.88 in 7 frames,
        # then taken from by the first move; the round waited for a clearer view of it for good).
        short = [j for j, f in self._deal_seen.items() if j not in settled and sum(f.counts) < 4
                 ] if expected == 4 * len(state.factories) else []
        emptied = [j for j in sorted({*unsure, *unseen, *short}) if not evidence.factories[j].occluded
                   and not sum(evidence.factories[j].counts)]
        split = {j: self._split_reading(j) for j in unsure + unseen if j not in emptied}
        if len(emptied) == 1 and len(split) <= 1 and None not in split.values():
            # One display was never read clearly while it held its tiles (a hand over it, an unsure reading, then
            # a player took from it) and is empty now: the first move says what it held. Another still full that
            # vision reads two ways, one tile's colour apart, is dealt as a guess the move from it corrects.
            hidden = emptied[0]
            others = [(0,) * 5 if j == hidden else split[j][0] if j in split else c for j, c in enumerate(readings)]
            seen = sum(sum(c) for c in others)
            if seen < expected:
                unseen_tile = next((guess for _, guess in split.values()), None)
                done = self._deal_with_hidden_display(evidence, others, hidden, expected - seen, now, unseen_tile)
                if done:
                    return done, None
        patient = now - self._deal_taken_at < DEAL_PATIENCE_SECONDS
        if unsure and not unseen and (len(unsure) > 2 or not self._deal_taken) and patient:
            return [], f"waiting for a clearer view of factory display {unsure[0] + 1}"
        seen = sum(sum(c) for c in readings)
        unseen_tile = None
        # A display never read at rest, but read with tiles again and again (glare washes it out: vision reads it a
        # different way each frame), is as unclear as one read unsurely.
        washed_out = len(unseen) == 1 and sum(self._deal_votes.get(unseen[0], Counter()).values()) >= GUESS_VOTES
        if expected == 4 * len(state.factories) and (not unseen or washed_out or not patient) and (
                unsure or any(sum(c) != 4 for c in readings)):
            completed, unclear = self._full_displays(settled)
            unclear = sorted({*unclear, *unsure})
            if unclear:
                guesses = self._guess_display(completed, unclear, raw) or (
                    None if patient else self._guess_wholes(completed, unclear))
                if guesses is None:
                    return [], f"waiting for a clearer view of factory display {unclear[0] + 1}"
                for j, content, _ in guesses:
                    completed[j] = content
                unseen_tile = _unseen_of([guess for _, _, guess in guesses])
            readings = completed
            seen = expected
        if seen != expected or any(sum(c) > 4 for c in readings):
            return [], f"waiting for the factory displays to be refilled ({seen} of {expected} tiles seen)"
        if unseen_tile is None and not self._dealable(readings):
            readings, unseen_tile = self._mended(readings)
        try:
            self._dealt(_deal_of(readings), unseen_tile)
        except RecordError as err:
            if self.alert is None or self.alert.reason != str(err):
                self.alert = Alert(None, "deal", f"this deal is impossible: {err}", now)
            return [], None
        self.alert = None
        if unseen_tile is not None:
            said = "; ".join(f"factory display {g['factory'] + 1}: "
                             f"{'its tiles were' if g.get('tiles') == 4 else 'one tile of it was'} never read surely"
                             for g in _guesses({"unseen": unseen_tile}))
            return [f"round {self.state.round} dealt ({said}; the move that takes from it will tell)"], None
        return [f"round {self.state.round} dealt"], None

    def _dealt(self, deal: list[list[int]], unseen: dict | None) -> None:
        """Log the deal, keeping the views seen since play began: the moves it was late for are searched next, and
        two of them may end at the same table in either order (recorded tuning game 711, round 3: red from displays 3
        and 8, two each, to pattern lines 2 and 5, made before the deal was read; only the view between tells)."""
        self.game.deal(deal, unseen)
        self._seen_since = len(self.game.record.events)

    def _walls_ahead(self, evidence: TableEvidence, now: float) -> tuple[int, int]:
        """Wall spaces in view (or in a covered board's last view) that read occupied but are empty in the committed
        state: how many, and how many of them have read so for WALLS_AHEAD_SECONDS."""
        logged = len(self.game.record.events)
        if logged != self._walls_logged:
            self._walls_logged, self._walls_gained = logged, {}
        for p, (board, ev) in enumerate(zip(self.state.boards, evidence.boards)):
            if ev.occluded:
                continue
            for r in range(WALL_SIZE):
                for c in range(WALL_SIZE):
                    if board.wall[r][c] == EMPTY and _read_with_a_tile(ev, (r, c)):
                        self._walls_gained.setdefault((p, r, c), now)
                    else:
                        self._walls_gained.pop((p, r, c), None)
        persisting = sum(1 for since in self._walls_gained.values()
                         if now - since >= WALLS_AHEAD_SECONDS - REST_TOLERANCE)
        return len(self._walls_gained), persisting

    def _settled_readings(self, unsure: list[int]) -> dict[int, tuple[int, ...]]:
        """Once players have begun taking tiles the displays will not be dealt again: waiting for a clearer view
        of a display vision never reads surely would stall the whole round (the demo's look: a display of 2 blue
        and 2 white read so, at confidence 0.03-0.67, for 30 s of play). An unsure display read as the same 4
        tiles nearly every time is settled as that (the others still wait, or the first move says what they held).
        A display vision flags covered in every frame, never reading the same for the second that counts it through
        the flag, is settled by its covered readings, GUESS_VOTES of them: recorded tuning game 711 (4 players,
        gray), round 2: display 9 flagged covered with no hand over it from the deal until it was taken from, read
        right in 32 frames of 45 and a tile short in 7 (never 1 s the same), and the deal was never made. Covered
        readings with no hand over the display are right 86 % of the time and right or a tile short 95 % (12
        recorded tuning games, 700-711); so settled after 10 of them, every display of those games was right (95,
        none wrong; after 5, 153 right and 1 wrong). All of them: the frames of one reading held a second under the flag
        (votes of a display read in view now and then) may all be a tile short (recorded tuning game 714, round 2:
        display 8 read without its white tile in 82 covered frames, without its black one in 66, whole in 8)."""
        if not self._deal_taken:
            return {}
        settled = {}
        for j in unsure:
            in_view = j in self._deal_in_view
            votes = self._deal_votes.get(j, Counter()) if in_view else self._deal_covered.get(j, Counter())
            total = sum(votes.values())
            if total < (DEAL_VOTES if in_view else GUESS_VOTES):
                continue
            # A reading one tile short of a content agrees with it (vision misses a tile far more often than it
            # invents one: a white tile on the display's rosette): the content nearly every reading agrees with,
            # and that only one does, is the deal. A display read two ways (a colour vision confuses) stays unclear;
            # one never read whole, now without one tile, now without another, is what both readings are short of.
            agreeing = [c for c in {c for c in votes if sum(c) == 4} if _agreed(votes, c)] or [
                c for c in _FOUR if _agreed(votes, c)]
            if len(agreeing) == 1:
                settled[j] = agreeing[0]
        return settled

    def _left_over(self, settled: dict[int, tuple[int, ...]], unseen: list[int]) -> dict[int, tuple[int, ...]]:
        """The bag and lid ran short (recorded tuning games 702 and 717, round 5: 30 and 33 tiles dealt): every tile
        they held is dealt, the last displays short or not at all. A display never read with tiles may be empty, so
        it is settled by its readings only with tiles the displays read with them leave over (a hand's colours read
        over an empty display settle nothing)."""
        left = [b + n for b, n in zip(self.state.bag, self.state.lid)]
        for j, f in self._deal_seen.items():
            left = [a - n for a, n in zip(left, settled.get(j, f.counts))]
        kept = {j: c for j, c in settled.items() if j not in unseen}
        for j in unseen:
            if j in settled and all(a >= n for a, n in zip(left, settled[j])):
                kept[j] = settled[j]
                left = [a - n for a, n in zip(left, settled[j])]
        return kept

    def _full_displays(self, settled: dict[int, tuple[int, ...]]) -> tuple[list[tuple[int, ...]], list[int]]:
        """Every display was dealt 4 tiles (the bag had enough): per display, the 4-tile content its reading
        explains best, weighing each colour's miss by how sure vision was of that colour. A display where the
        best beats the runner-up by less than the deal margin is unclear (its index is listed)."""
        out, unclear = [], []
        for j in range(len(self.state.factories)):
            if j in settled:
                out.append(settled[j])
                continue
            f = self._deal_seen.get(j)
            if f is None:  # never read at rest (see _deal: washed out)
                out.append((0,) * 5)
                unclear.append(j)
                continue
            if sum(f.counts) == 4:
                out.append(f.counts)
                continue
            miss = f.colour_costs
            ranked = sorted(_FOUR, key=lambda c: sum(abs(a - b) * m for a, b, m in zip(c, f.counts, miss)),
                            reverse=True)
            best, second = (sum(abs(a - b) * m for a, b, m in zip(c, f.counts, miss)) for c in ranked[:2])
            if best - second < self.settings.deal_margin:
                unclear.append(j)
            out.append(ranked[0])
        return out, unclear

    def _guess_display(self, completed: list[tuple[int, ...]], unclear: list[int], evidence: TableEvidence
                       ) -> list[tuple[int, tuple[int, ...], dict]] | None:
        """Play has begun and one or two displays are still unclear: waiting would stall the round. One read a tile
        short every time (a tile vision never sees, such as a white one on the display's rosette) is dealt with the
        colour the bag most likely gave, the other colours its readings agree with kept; one read two ways, one
        tile's colour apart, as the way more readings agree with; one vision never read at better than even odds
        (glare washes it out), with the 4 tiles its readings and the bag most likely give (one such display at
        most, and only from the tiles the others leave). The view after the move that takes from each tells what it
        held (_recheck_deal). The deal's `unseen` field says so in the log, so that a restarted tracker still
        knows. Returns per display guessed (display, content, its `unseen`), or None."""
        if not self._deal_taken or len(unclear) > 2:
            return None
        deal = [(0,) * 5 if k in unclear else counts for k, counts in enumerate(completed)]
        guesses = []
        for whole in (False, True):
            for j in unclear:
                left = len(unclear) - len(guesses)
                if any(j == g[0] for g in guesses):
                    continue
                if whole and left > 1:
                    return None  # two displays read no way: too many deals to guess from
                guess = self._guess_one(deal, j, evidence, whole, last=left == 1)
                if guess is not None:
                    deal[j] = guess[0]
                    guesses.append((j, *guess))
        return guesses if len(guesses) == len(unclear) else None

    def _guess_one(self, deal: list[tuple[int, ...]], j: int, evidence: TableEvidence, whole: bool, last: bool
                   ) -> tuple[tuple[int, ...], dict] | None:
        """The guess of unclear display j (see _guess_display) with the others as in `deal` (another unclear one
        still empty there), its `unseen` with it: a tile short or read two ways, or, with `whole`, all 4 tiles.
        `last`: no other display is left to guess, so the whole deal must be one the bag and lid can give."""
        seen = self._deal_seen.get(j)
        reading = seen.counts if seen is not None else (0,) * 5
        votes = self._deal_votes.get(j, Counter())
        if sum(votes.values()) < GUESS_VOTES:
            return None
        pool, dealable = self._left_for(deal, j, last)
        if not whole:
            options = []
            for colour in range(5 if sum(reading) == 3 else 0):
                content = tuple(n + (c == colour) for c, n in enumerate(reading))
                if _agreed(votes, content) and dealable(content):
                    options.append((pool[colour], colour))
            if options:
                options.sort(reverse=True)
                guess = options[0][1]
                return (tuple(n + (c == guess) for c, n in enumerate(reading)),
                        {"factory": j, "colors": [COLOUR_NAMES[c] for _, c in options]})
            split = self._split_reading(j)
            return split if split is not None and dealable(split[0]) else None
        if (j in self._deal_legible or j in self._deal_emptied or evidence.factories[j].occluded
                or not sum(evidence.factories[j].counts)):
            # Read at some confidence, it may yet be read clearly (or taken from first: what it held is what that
            # move took, see _deal_with_hidden_display); taken from already or not in view, the first move from it
            # says what it held. Read empty at rest once, it has been taken from, whatever a frame reads there now
            # (recorded tuning game 720, round 4: display 4 read empty for 3 s, then a hand's 2 black tiles over it:
            # it was guessed whole, wrongly).
            return None
        content = _likeliest_content(filter(dealable, _FOUR), votes, pool)
        return (content, {"factory": j, "tiles": 4}) if content is not None else None

    def _left_for(self, deal: list[tuple[int, ...]], j: int, last: bool
                  ) -> tuple[list[int], Callable[[tuple[int, ...]], bool]]:
        """The tiles per colour the bag (or bag and lid) leaves for display j with the others dealt as in `deal`,
        and whether a content of j can be dealt so (`last`: no other display is left to guess, so the whole deal
        must be one the bag and lid can give)."""
        pool = self._deal_pool()
        for k, counts in enumerate(deal):
            if k != j:
                pool = [p - n for p, n in zip(pool, counts)]

        def dealable(content: tuple[int, ...]) -> bool:
            return all(p >= n for p, n in zip(pool, content)) and (not last or self._dealable(
                [content if k == j else counts for k, counts in enumerate(deal)]))

        return pool, dealable

    def _guess_wholes(self, completed: list[tuple[int, ...]], unclear: list[int]
                      ) -> list[tuple[int, tuple[int, ...], dict]] | None:
        """Play has gone on DEAL_PATIENCE_SECONDS and displays are still unclear, more than _guess_display guesses
        (recorded tuning game 801, round 1, under a lamp's glare: displays 5, 6 and 7, their black tiles read as white
        or not at all in nearly every frame, display 5 taken from by the first move; the round was never dealt, nor
        any move of the game committed). Every unclear display is dealt whole as a guess, the content its readings
        and the bag make likeliest. While one holds its tiles its readings are no evidence (_unguessed) until they
        settle it (_guess_read); the move that takes from it tells what it held (_recheck_deal, every content).
        Only displays read with tiles DEAL_VOTES times or more: one never read so (a tracker restarted after the
        players took from it) may be anything, and its deal is left to a person."""
        votes = {j: self._deal_votes.get(j, Counter()) + self._deal_covered.get(j, Counter()) for j in unclear}
        if any(sum(votes[j].values()) < DEAL_VOTES for j in unclear):
            return None
        deal = [(0,) * 5 if k in unclear else counts for k, counts in enumerate(completed)]
        guesses = []
        for n, j in enumerate(unclear):
            pool, dealable = self._left_for(deal, j, last=n == len(unclear) - 1)
            best = _likeliest_content(filter(dealable, _FOUR), votes[j], pool, prefer=completed[j])
            if best is None:
                return None
            deal[j] = best
            guesses.append((j, best, {"factory": j, "tiles": 4}))
        return guesses

    def _split_reading(self, j: int) -> tuple[tuple[int, ...], dict] | None:
        """A display vision reads two ways, one tile's colour apart (recorded tuning game 711, round 1: display 3
        read as 2 blue, 1 black and 1 red or 1 yellow, 21 and 14 times): once play has begun and nearly every reading
        agrees with one of the two, the content more of them agree with, and the deal's `unseen` tile (the colours
        it may be, that one first) that the move from it settles (_recheck_deal). None if it is not so read."""
        votes = self._deal_votes.get(j, Counter())
        total = sum(votes.values())
        if not self._deal_taken or total < GUESS_VOTES:
            return None
        support = {c: sum(n for r, n in votes.items() if _short_of(r, c)) for c in votes if sum(c) == 4}
        ranked = sorted(support, key=lambda c: (support[c], c), reverse=True)[:2]
        if len(ranked) < 2 or sum(abs(a - b) for a, b in zip(*ranked)) != 2 or sum(
                n for r, n in votes.items() if any(_short_of(r, c) for c in ranked)) < DEAL_AGREEMENT * total:
            return None
        first, second = ranked
        colours = [next(c for c in range(5) if a[c] > b[c]) for a, b in ((first, second), (second, first))]
        return first, {"factory": j, "colors": [COLOUR_NAMES[c] for c in colours]}

    def _mended(self, readings: list[tuple[int, ...]]) -> tuple[list[tuple[int, ...]], dict | None]:
        """The displays read hold one tile of a colour more than the bag and lid can give: one of them was misread
        (recorded tuning game 759, round 4: 9 white tiles read, 8 left; display 9's blue tile read as white in
        every frame, vision doubting its count of blue). Waiting would stall the game for good, so of the displays
        holding that colour, the tile vision's own doubts make likeliest misread (the sum of the two colours'
        misses, in the display's clearest reading) is dealt as the colour they make likeliest, a guess (`unseen`,
        the other colours after it) that the move taking from it settles (_recheck_deal). The readings unchanged,
        and no guess, if the deal is impossible otherwise or no one display is likeliest."""
        pool = self._deal_pool()
        over = [c for c in range(5) if sum(r[c] for r in readings) > pool[c]]
        if len(over) != 1 or sum(r[over[0]] for r in readings) != pool[over[0]] + 1:
            return readings, None
        colour = over[0]
        options = []  # ((never read so, log-likelihood of the misread), display, colour it was)
        for j, reading in enumerate(readings):
            if not reading[colour] or j not in self._deal_seen:
                continue
            seen = self._deal_seen[j]
            # A tile of that colour its clearest reading lacked was added to make it whole (_full_displays): it is
            # the guess, not what vision read surely on another display (recorded tuning game 864, round 5: display
            # 2 read as 1 red and 2 white, made whole with a third white, and display 1's white tile, read surely,
            # was dealt as blue).
            added = reading[colour] > seen.counts[colour]
            costs = seen.colour_costs
            left = [p - sum(r[c] for k, r in enumerate(readings) if k != j) for c, p in enumerate(pool)]
            options += [((added, costs[colour] + costs[c]), j, c) for c in range(5)
                        if c != colour and left[c] > reading[c]]
        if not options:
            return readings, None
        options.sort(key=lambda o: (not o[0][0], -o[0][1], o[1], o[2]))
        j = options[0][1]
        if any(k != j and likeliness >= options[0][0] for likeliness, k, _ in options):
            return readings, None  # no one display singled out (every one read as surely)
        instead = [c for _, k, c in options if k == j]
        content = tuple(n - (c == colour) + (c == instead[0]) for c, n in enumerate(readings[j]))
        mended = [content if k == j else r for k, r in enumerate(readings)]
        return mended, {"factory": j, "colors": [COLOUR_NAMES[c] for c in instead]}

    def _deal_pool(self) -> list[int]:
        """The tiles per colour this round's deal is drawn from: the bag when it holds enough for every display
        (recorded tuning game 710, round 5: the bag's last 6 black tiles were on the other displays, and a seventh
        guessed from the lid made a deal the rules reject, for the rest of the game), else bag and lid (the lid is
        poured in only once the bag is empty)."""
        bag, lid = self.state.bag, self.state.lid
        return list(bag) if sum(bag) >= 4 * len(self.state.factories) else [b + n for b, n in zip(bag, lid)]

    def _dealable(self, displays: list[tuple[int, ...]]) -> bool:
        """Whether the bag and lid can give these displays (per display, counts per colour)."""
        try:
            self.state.copy().deal(_deal_of(displays))
        except InvalidDeal:
            return False
        return True

    def _recheck_deal(self, evidence: TableEvidence, scorer: Scorer, best_now: float, logged_table: TableModel,
                      unsteady: frozenset[Region], now: float, places_held: bool = False) -> list[str]:
        """Nothing explains the view, and a display the round's deal says still holds tiles is now empty (or one taken
        from was never read surely, and its leftovers may be misread ones): the deal may be wrong there (vision read one
        of its tiles as another colour in every reading, some of them sure; or the guessed tile of a display always read
        a tile short, see _guess_display). Deal that display with every other content of as many tiles, each weighed by
        how sure vision was of the colours it changes (_read_as: a lamp's gleam makes several tiles of a display read
        white, recorded tuning game 889), play the round's moves again, and if one of them (and the moves since)
        fits the view as a move must and explains it clearly better, replace the round (a logged correction), as an
        unsure reading of a move is replaced (_recheck). Only what the view contradicts is reopened: a display not yet
        taken from is still read as dealt. `best_now` scores the best explanation from the logged deal; `logged_table`
        is its table. `places_held`: the board places a correction waited on have now read the same long enough
        (_held_long), news however still the view."""
        state, record = self.state, self.game.record
        events = record.events_in_force()
        start = max((i for i, e in enumerate(events) if e["type"] == "deal"), default=None)
        if start is None or state.phase != OFFER or len(events) - start > record.undoable:
            return []
        back = len(events) - start
        logged = events[start]["factories"]
        guesses = _guesses(events[start])
        guessed = {g["factory"] for g in guesses}
        # A display a view has contradicted since the log last changed (_display_misread) is searched as deep as a
        # guessed one: the next move may have come before its places were read long enough.
        contradicted = self._contradicted[1] if self._contradicted[0] == len(record.events) else frozenset()
        # A display whose tiles were all guessed (washed out by glare, read a different way each frame).
        washed_out = {g["factory"] for g in guesses if g.get("tiles") == 4}
        # Taken from since the view's last commit: empty now (a display is emptied whole; a tile or two read there
        # is a misread; a washed-out display is read so while full: it must read empty) while the log still has
        # its tiles there.
        taken = tuple(j for j, f in enumerate(evidence.factories)
                      if state.factories[j] and not f.occluded and sum(f.counts) < (1 if j in washed_out else 3))
        # Taken from by a logged move, but never read surely while it held its tiles (its readings settled it, see
        # _settled_readings): vision may have misread it the same way in every frame, and the leftovers it sent to
        # the centre are then not the logged ones. Recorded tuning game 961 (a lamp's glare): display 5's two blue
        # tiles read as white in every reading, at confidence 0.05-0.46; its leftovers, blue, were taken from the
        # centre to a line read blue, and nothing from the logged deal explained it.
        reopened = tuple(j for j, f in sorted(self._deal_seen.items()) if not state.factories[j]
                         and j not in guessed and f.log_miss > DEAL_LOG_MISS)
        if not taken and not reopened:
            return []
        taken += reopened
        # A stalled view is searched again and again (a board misread): the deal is re-checked when a place has come
        # to rest since it last was, or after a while.
        in_view = _in_view(evidence)
        boards = _view_signature(evidence)[0]
        *last, last_view, last_at = self._deal_rechecked
        stalled = now - self._deal_searches[1] if self._deal_searches[0] == len(events) else 0.0
        if not places_held and last == [len(events), taken, boards] and now - last_at < DEAL_RECHECK_INTERVAL and (
                _nothing_new(in_view, last_view) or now - last_at < self.settings.rest_seconds - REST_TOLERANCE):
            if not _nothing_new(in_view, last_view) and stalled < DEAL_RECHECK_FREE:
                # News only just after the last re-check: searched once the rest time is past, though the view
                # reads the same by then; a still view is otherwise not searched again for a second, and the next
                # hand may come first (recorded tuning game 988: display 4 came into view 0.1 s after a re-check).
                self._deal_held_at = min(self._deal_held_at, last_at + self.settings.rest_seconds - REST_TOLERANCE)
            return []
        if not places_held and now - last_at < _deal_recheck_wait(stalled):
            return []
        self._deal_rechecked = (len(events), taken, boards, in_view, now)
        before = record.state_before(back)
        replays = []
        for display in taken:
            for content in _other_contents(logged[display], whole=True):
                deal = [list(f) for f in logged]
                deal[display] = content
                replayed = _replayed(before, deal, events[start + 1:])
                if replayed is not None:
                    replays.append((display, deal, replayed))

        # Searched two moves since (else one: each content costs a search): a display dealt with a guess, or never
        # read surely, or one a view has contradicted; the board that tells must read the same a while (see
        # _overrules), and the next hand may come first.
        deep = guessed | contradicted | set(reopened)

        def depth(display: int, guessed_depth: int) -> int:
            return guessed_depth if display in deep else 1

        def read(display: int, deal: list[list[str]]) -> float:
            # How much worse the display's clearest reading fits the content than the logged one (_read_as). A
            # guessed display's too: a guess is no reading, but what vision read there surely still tells (recorded
            # tuning game 360, round 1: display 1's yellow tile never read, its white read at 0.998; the white taken
            # lay on a line read white at 0.77, and a black one in its place fitted the view only 2.6 nats worse).
            return self._read_as(display, deal[display]) - self._read_as(display, logged[display])

        def options(guessed_depth: int) -> list[tuple]:
            # Only the two best contents decide; a content whose best explanation cannot come up to the second
            # best found so far (search_bound) is not searched: the likeliest bounds first.
            bounded = sorted(((search_bound(replayed, scorer, depth(display, guessed_depth), display in washed_out)
                               + read(display, deal), i) for i, (display, deal, replayed) in enumerate(replays)),
                             key=lambda b: (-b[0], b[1]))
            found: list[tuple] = []
            for bound, i in bounded:
                if len(found) > 1 and bound + BOUND_TOLERANCE < found[1][0]:
                    break
                display, deal, replayed = replays[i]
                # A move from another display dealt with a guess is no ground for this one's content: the two
                # guesses together may end at the view through moves never made (taken from each other's display).
                explanations = [h for h in legal_hypotheses(replayed, scorer, depth=depth(display, guessed_depth),
                                                            taken_from=display)
                                if not any(m.source in guessed - {display} and replayed.factories[m.source]
                                           for m in h.moves)]
                if display in washed_out:
                    # The first move from a washed-out display may break a rule: no alert could name it from the
                    # guessed deal (its leftovers in the centre are not the guess's; recorded tuning game 703).
                    explanations += illegal_hypotheses(replayed)
                best = max(explanations, key=lambda h: _score(h, scorer))
                found.append((_score(best, scorer) + read(display, deal), display, deal, best, replayed, i))
                found.sort(key=lambda o: (-o[0], o[5]))  # ties as the contents come (the first one wins)
            return [o[:5] for o in found]

        # Nothing to correct when no content's explanation could beat the view's best by the margin (a stalled view
        # is re-checked again and again: up to 69 contents, two moves deep).
        if replays and max(search_bound(replayed, scorer, depth(display, 2), display in washed_out) + read(display, deal)
                           for display, deal, replayed in replays) + BOUND_TOLERANCE - best_now < self.settings.margin:
            return []
        if self._deal_searches[0] != len(events):
            self._deal_searches = (len(events), now)
        # A move more costs EXTRA_MOVE_PRIOR: when one move explains everything in view, no two-move explanation
        # can come within the margin of it, and the deeper search (up to 69 contents) is not needed.
        found = options(1)
        if found and deep and (scorer.table(found[0][3].table) < max_loglik(evidence) - 1e-9
                               or -EXTRA_MOVE_PRIOR < self.settings.margin):
            found = options(2)
        if not found:
            return []
        score, display, deal, best, replayed = found[0]
        if len(best.moves) > 1:
            best, _, told_apart = self._history(replayed, best, scorer)
            if told_apart < self.settings.margin:
                return []  # two orders of the moves since end here, and nothing seen tells which
        # The corrected round must fit the view as a move must (_misfit), no more: recorded tuning game 360, round 1,
        # vision missed the first-player marker among the leftovers in the centre, under every deal alike. The margins
        # first: they cost nothing, and a stalled view is re-checked again and again.
        replayed_table = table_model(replayed)
        if (
            (len(found) > 1 and score - found[1][0] < self.settings.margin)
            or score - best_now < self.settings.margin
            or self._misfit(evidence, replayed_table, best, replayed)
            or self._hidden(evidence, replayed_table, best, unsteady)
        ):
            return []
        # A guess overrules no reading; one never read surely, taken from, waits only the rest time.
        steady = self.settings.rest_seconds if display in reopened else COVER_STEADY_SECONDS
        if display not in guessed and self._overrules(display, read(display, deal)) and not self._held_long(
                replayed_table, best.table, now, logged_table, steady):
            # Due but for the board that tells, which has not read the same long enough: the next hand may come
            # first, so from now on the display is searched two moves deep, as one a view has contradicted
            # (recorded tuning game 988: display 3 read surely with a white tile for a black; the 2 blacks taken
            # read on their line at once, the correction waited its second, and the next hand came then).
            self._contradicted = (len(record.events), contradicted | {display})
            return []
        held = _described(deal[display])
        # A guessed tile elsewhere stays a guess until the move that takes from its display tells.
        unseen = _unseen_of([g for g in guesses if g["factory"] != display])
        self.game.correct(back, [{"type": "deal", "factories": deal, **({"unseen": unseen} if unseen else {})},
                                 *events[start + 1:], *_move_events(replayed, best.moves)],
                          reason=f"factory display {display + 1} held {held}, as the move that took from it shows")
        self.alert = None
        return [f"corrected the deal: factory display {display + 1} held {held}",
                *(best.describe(replayed).split("; ") if best.moves else [])]

    def _read_as(self, display: int, content: list[str]) -> float:
        """The log-likelihood of the display's clearest reading this round (the one it was dealt from) had it held
        `content`, each colour weighed as vision was least sure of it in the readings at rest: a deal correction
        overrules those readings, so they weigh as evidence beside the view. Recorded tuning game 745, round 4:
        display 3 read 3 blue and a yellow, every colour at 0.999 or more in each of 30 readings; the yellow sent to
        the centre lay beside the first-player marker, vision read the two as the marker alone (no yellow at 0.999,
        a black only doubted) and the deal was corrected to a black tile, false. Recorded tuning game 720, round 4:
        display 5's black, read as white surely in its clearest reading, was doubted in others (0.09): that
        correction, right, stands. None kept (a restart): no evidence."""
        reading, doubts = self._deal_seen.get(display), self._deal_doubts.get(display)
        if reading is None or doubts is None:
            return 0.0
        return sum(abs(content.count(name) - n) * cost for name, n, cost in zip(COLOUR_NAMES, reading.counts, doubts))

    def _overrules(self, display: int, cost: float) -> bool:
        """Whether correcting the deal at `display`, at `cost` against its readings (_read_as), overrules a reading
        vision was sure of, and so must wait for the board that tells to have read the same a while (_held_long).
        Readings of no better than even odds of the colours it changes overrule nothing (recorded tuning game 951,
        round 1: display 8 read 2 yellow and 1 red, each at times below 0.1, for 1 yellow and 2 red; the correction
        fitted all in view at once but waited on board 3, and the next hand came 0.9 s after the table rested). A
        deal known from the log alone (a restart) counts as read surely."""
        return display not in self._deal_doubts or cost < LEGIBLE_LOG_MISS

    def _held_long(self, before: TableModel, after: TableModel, now: float, logged: TableModel, steady: float
                   ) -> bool:
        """Whether every board place the change from `before` to `after` fills or empties, and `logged` (the best
        explanation from the logged deal) shows otherwise, has read the same for `steady` seconds. A corrected
        deal overrules every reading of the display dealt: the board that tells must not be one frame's colour of a
        flicker (recorded tuning game 711: a white tile on pattern line 1 read blue at 0.98 for 0.3 s, then white,
        then blue, for 6 s; display 9, read holding that white tile in 90 frames, was corrected to a blue one and
        the move committed false). A place both deals fill alike tells nothing between them (recorded tuning game
        720, round 4: the red tile taken from display 5, misread, lay where either content put it; waiting for it
        held the correction back until the next hand came)."""
        held_at = float("-inf")
        for kind, i in changed_regions(before, after):
            if kind != "board":
                continue
            seen = self._watch[("board", i)].elements if ("board", i) in self._watch else {}
            told = set(_changed_places(logged.boards[i], after.boards[i]))
            for key in (k for k in _changed_places(before.boards[i], after.boards[i]) if k in told):
                held_at = max(held_at, seen[key][1] + steady if key in seen else float("inf"))
        if now >= held_at - REST_TOLERANCE:
            return True
        # Searched again the moment it has (a still view is otherwise not searched again: nothing new in it).
        self._deal_held_at = held_at - REST_TOLERANCE
        return False

    def _deal_with_hidden_display(
        self, evidence: TableEvidence, readings: list[tuple[int, ...]], hidden: int, missing: int, now: float,
        unseen: dict | None = None
    ) -> list[str]:
        """One display was never seen at rest with its tiles (a hand filled it, a player took from it at once)
        and is now empty: what it held is what the first move(s) took from it plus the leftovers they sent to
        the centre. Try every content it could have held; commit the refill and the moves if one explains the
        table clearly better than every other. `unseen`: a tile of another display the deal guesses (see
        _split_reading)."""
        state = self.state
        if missing > 4 or evidence.factories[hidden].occluded or sum(evidence.factories[hidden].counts):
            return []
        key = ("deal", state.round, _evidence_key(evidence))
        if key == self._last_offer_key:
            return []
        self._last_offer_key = key
        # Up to 70 contents, two moves deep each: searched again when a place has come to rest or after a while,
        # as the deal's re-check is, not on every frame's noise.
        in_view, last_view, last_at = _in_view(evidence), *self._hidden_searched
        if now - last_at < DEAL_RECHECK_INTERVAL and _nothing_new(in_view, last_view):
            return []
        self._hidden_searched = (in_view, now)
        scorer = Scorer(evidence)
        scored: list[tuple[float, list, Hypothesis]] = []
        for content in _contents(missing):
            deal = _deal_of([content if j == hidden else counts for j, counts in enumerate(readings)])
            dealt = state.copy()
            try:
                dealt.deal(deal)
            except InvalidDeal:
                continue
            # Two moves deep: a view with both the centre and the board at rest may come only after the next move
            # (recorded tuning game 711: a move every 1.6 s, the centre flagged covered and counted 1 s after each).
            for h in legal_hypotheses(dealt, scorer, depth=2):
                if any(m.source == hidden for m in h.moves):
                    scored.append((_score(h, scorer), deal, h))
        if len(scored) < 2:
            return []
        scored.sort(key=lambda item: item[0], reverse=True)
        (best, deal, h), second = scored[0], next((x for x in scored[1:] if x[2].table != scored[0][2].table), None)
        if second is not None and best - second[0] < self.settings.margin:
            return []
        dealt = state.copy()
        dealt.deal(deal)
        if self._misfit(evidence, table_model(dealt), h, dealt):
            return []  # the best guess does not fit what is in view well enough: wait for a clearer view
        if len(h.moves) > 1:
            h, _, told_apart = self._history(dealt, h, scorer)
            if told_apart < self.settings.margin:
                return []  # two orders of the moves end here, and nothing seen tells which
        self.game.deal(deal, unseen)
        described = h.describe(self.state)
        for move in h.moves:
            self.game.play(move)
        self.alert = None
        return [f"round {self.state.round} dealt (display {hidden + 1} read from the first move)", described]

    # ---- score cubes -------------------------------------------------------------------------------
    def _check_score_cubes(self, evidence: TableEvidence, now: float) -> None:
        if self.state.phase == WALL_TILING:
            return
        for player, ev in enumerate(evidence.boards):
            watch = self._watch.setdefault(("cube", player), _RegionWatch(None, now))
            if ev.occluded or ev.score_marker is None:
                watch.signature, watch.since = None, now
                continue
            if ev.score_marker != watch.signature:
                watch.signature, watch.since = ev.score_marker, now
            if now - watch.since < self.settings.cube_rest_seconds:
                continue
            true = self.state.boards[player].score
            if ev.score_marker != true:
                if player not in self.score_alerts:
                    name = self.state.names[player]
                    self.score_alerts[player] = Alert(
                        player, "score_cube", f"{name}'s score cube shows {ev.score_marker}, but the score is {true}",
                        now)
            else:
                self.score_alerts.pop(player, None)

    # ---- people ------------------------------------------------------------------------------------
    def undo(self, count: int = 1) -> None:
        self.game.undo(count)
        self.alert = None

    def correct(self, replace: int, events: list[dict], reason: str = "") -> None:
        """A person's correction: replace the last `replace` game events with `events` (it goes into the log)."""
        self.game.correct(replace, events, reason)
        self.alert = None


def _deal_recheck_wait(stalled: float) -> float:
    """Seconds since the last re-check of the deal before another, its first search since the log last changed
    `stalled` seconds ago (DEAL_RECHECK_FREE)."""
    return 0.0 if stalled < DEAL_RECHECK_FREE else min(stalled / 4, DEAL_RECHECK_LONGEST)


def _other_contents(held: list[str], whole: bool) -> list[list[str]]:
    """What a display logged as holding `held` (colour names) may have held instead: every content one tile's colour
    away, or with `whole` every other content of as many tiles."""
    if whole:
        mine = sorted(COLOUR_NAMES.index(c) for c in held)
        return [[COLOUR_NAMES[c] for c in tiles] for tiles in _deal_of(_contents(len(held))) if tiles != mine]
    return [[instead if k == held.index(was) else c for k, c in enumerate(held)]
            for was, instead in itertools.product(sorted(set(held)), COLOUR_NAMES) if instead != was]


def _described(tiles: list[str]) -> str:
    """A display's tiles as a person says them: "2 blue, 1 red, 1 white"."""
    return ", ".join(f"{tiles.count(c)} {c}" for c in COLOUR_NAMES if c in tiles)


def _replayed(before: GameState, deal: list[list[str]], moves: list[dict]) -> GameState | None:
    """The round played again from another deal (`before` it; the logged `moves` since): None if the bag cannot
    give that deal or a move is then illegal."""
    replayed = before.copy()
    try:
        replayed.deal(deal)
        for e in moves:
            replayed.play(Move.from_json(e), e["player"])
    except (InvalidDeal, IllegalMove):
        return None
    return replayed


def _guesses(deal: dict) -> list[dict]:
    """The displays a deal event guessed (its `unseen`: one display's guess, or a list of them)."""
    unseen = deal.get("unseen")
    return [] if not unseen else [unseen] if isinstance(unseen, dict) else list(unseen)


def _unseen_of(guesses: list[dict]) -> dict | list[dict] | None:
    """A deal event's `unseen` for these guesses: none, one display's, or the list of them."""
    return None if not guesses else guesses[0] if len(guesses) == 1 else guesses


def _deal_of(displays: list[tuple[int, ...]]) -> list[list[int]]:
    """A deal's tiles per display, from its counts per colour."""
    return [[c for c in range(5) for _ in range(counts[c])] for counts in displays]


def _contents(tiles: int) -> list[tuple[int, ...]]:
    """Every way `tiles` tiles can be coloured (counts per colour)."""
    return [c for c in itertools.product(range(tiles + 1), repeat=5) if sum(c) == tiles]


# Timestamps are often frame counts over a frame rate (1207 / 10 - 1204 / 10 < 0.3): a rest this much short is a
# whole rest.
REST_TOLERANCE = 1e-6
_FOUR = _contents(4)  # what a display holds after a full deal
DEAL_CONFIDENCE = 0.85  # how sure vision must have been of a display once before its reading makes the deal
DEAL_LOG_MISS = miss_cost(DEAL_CONFIDENCE)
# A display vision never reads at better than even odds is washed out (glare): its readings tell nothing of what it
# holds (recorded tuning game 703: every reading of display 2, 1 to 3 black tiles, below 0.4; a flipped colour of a
# display read at 0.6 is still a reading, see _settled_readings).
LEGIBLE_LOG_MISS = miss_cost(0.5)
# How long a region vision flags covered must read the same before it counts as in view (_seen_through,
# _counted_through).
COVER_STEADY_SECONDS = 1.0
# How long vision must have flagged the centre covered, every frame, before the flag counts for no hand
# (_chronic_flags); a display flagged as long holds nothing else back. On 91 recorded tuning games (701, 707 and 713
# whole, the first 7-14 moves of 700-760 and of the 3-player colored 719-833) vision flagged a display or the centre
# covered 6,710 times running: 6,708 of them for 0.6 s or less, one 0.8 s, and one 2.7 s (game 718, display 1, as
# the deal was laid).
CHRONIC_COVER_SECONDS = 5.0
# Wall tiles in view beyond the committed walls that say a tiling went by unseen. A round places one or two tiles
# a player at the least; vision misreads 1-2 board spaces in 1,000 (bench vision), so two false wall tiles at
# once, both at rest, are unlikely; and they would hold the deal back with this message, not make a false one.
MISSED_TILING_TILES = 2
# How long those wall tiles must stay before the tracker says a round went by unseen (until then it only waits).
WALLS_AHEAD_SECONDS = 1.0
# Readings of an unsure display, and their share that must agree with one 4-tile content, that settle it once play
# began. On recorded real-vision games (14 tuning seeds) a full display read the same in 4 or more uncovered frames
# running, each below DEAL_CONFIDENCE, was read right every time; 3 frames running, 97 %. A tile of a display
# always read one short is guessed only after GUESS_VOTES readings.
DEAL_VOTES, GUESS_VOTES, DEAL_AGREEMENT = 5, 10, 0.8
# How long play may go on with displays of the deal still unclear before they are all dealt as guesses
# (_guess_wholes): every second more is a move or so the tracker must catch up on once the deal is made (recorded
# tuning game 801, round 1: dealt after 5 s, 4 moves behind, it was still unsure of the first moves' order 10 s
# later; dealt after 2 s, it followed them).
DEAL_PATIENCE_SECONDS = 2.0
# A score bound (Scorer.bound) sums the same terms in another order: it may come out this much below the score.
BOUND_TOLERANCE = 1e-9
# A count vision is no surer of than 0.6 (what it reports under a lamp's glare: vision/counting.py GLEAM_TRUST), 0.6
# itself included, is doubted: _steady_counts does not wait for it to settle.
FAINT_LOG_MISS = miss_cost(0.6) - 1e-9
# A stalled view with nothing new in it is re-checked against other deals at most this often (seconds): it costs a
# search per content (up to 16 a display taken from).
DEAL_RECHECK_INTERVAL = 1.0
# A stall must not outrun the camera: every place coming to rest is news, and a stalled round's re-checks (recorded
# tuning game 720, round 4: 123 in 20 s of play, 139 s of CPU) cost more than the frames' time. Once the deal has
# been searched for DEAL_RECHECK_FREE seconds with the log unchanged (a correction came 0.6 s and 6 searches after
# the first in recorded tuning game 702), a re-check waits a quarter of the time searched so far, up to
# DEAL_RECHECK_LONGEST seconds.
DEAL_RECHECK_FREE, DEAL_RECHECK_LONGEST = 3.0, 8.0
# The same for a re-check of the round's last moves (MoveTracker._recheck): up to two searches 2 and 3 moves deep.
RECHECK_INTERVAL = 1.0
# Distinct views kept since the last commit: enough for the few moves the camera may miss and a misread or two on
# the way, bounded so a long wait keeps memory flat.
SEEN_VIEWS = 12
# A view read as one already searched since the game log last changed is searched again at most this often
# (seconds); the views remembered so are bounded, so a long stall keeps memory flat.
STALE_SEARCH_INTERVAL, SEARCHED_VIEWS = 1.0, 256


def _short_of(reading: tuple[int, ...], content: tuple[int, ...]) -> bool:
    """Whether `reading` is `content`, or `content` with one tile missed."""
    return all(r <= c for r, c in zip(reading, content)) and sum(content) - sum(reading) <= 1


def _likeliest_content(contents: Iterable[tuple[int, ...]], votes: Counter, pool: list[int],
                       prefer: tuple[int, ...] | None = None) -> tuple[int, ...] | None:
    """Of `contents`, `prefer` if among them, else the one most `votes` agree with (a tile short at most), then the
    likeliest draw from `pool`; None if there are none."""
    return max(contents, key=lambda c: (c == prefer, sum(n for r, n in votes.items() if _short_of(r, c)),
                                        _draws(pool, c), c), default=None)


def _draws(pool: list[int], content: tuple[int, ...]) -> int:
    """In how many ways `content` (counts per colour) can be drawn from `pool`."""
    return math.prod(math.comb(p, n) for p, n in zip(pool, content))


def _agreed(votes: Counter, content: tuple[int, ...]) -> bool:
    """Whether nearly every reading of a display (DEAL_AGREEMENT of them) agrees with its holding `content`."""
    return sum(n for r, n in votes.items() if _short_of(r, content)) >= DEAL_AGREEMENT * sum(votes.values())


def _move_events(state: GameState, moves) -> list[dict]:
    """The game log's events for these moves played in turn from `state`."""
    return [{"type": "move", "player": p, **m.to_json()} for p, m in movers(state, moves)]


def _score(h: Hypothesis, scorer: Scorer) -> float:
    return scorer.table(h.table) + h.prior


def _best_two(hypotheses: list[Hypothesis], scorer: Scorer) -> tuple[Hypothesis, Hypothesis | None]:
    # One explanation per distinct table: the likeliest a priori (legal before illegal, shorter first).
    by_table: dict = {}
    for h in hypotheses:
        known = by_table.get(h.table)
        if known is None or h.prior > known.prior or (h.prior == known.prior and h.legal and not known.legal):
            by_table[h.table] = h
    ranked = sorted(by_table.values(), key=lambda h: _score(h, scorer), reverse=True)
    return ranked[0], (ranked[1] if len(ranked) > 1 else None)


def _view_signature(evidence: TableEvidence) -> tuple:
    """What a view reads in each region in view (None where it sees nothing), and which of its places have not
    rested (a view where they have is another view: it says more)."""
    centre = evidence.centre
    return (
        tuple(None if b.occluded else b.signature for b in evidence.boards),
        tuple(None if f.occluded else (f.counts, f.unsettled) for f in evidence.factories),
        None if centre.occluded else (centre.counts, centre.first_player, centre.unsettled),
    )


def _evidence_key(evidence: TableEvidence) -> tuple:
    return (
        tuple(None if b.occluded else (b.pattern, b.floor, b.wall) for b in evidence.boards),
        tuple(None if f.occluded else (f.counts, f.log_miss) for f in evidence.factories),
        None if evidence.centre.occluded else (evidence.centre.counts, evidence.centre.first_player),
    )


def _nothing_new(in_view: tuple, before: tuple | None) -> bool:
    """Whether every region (and every rested place of a board) in view now was in view before (see _in_view)."""
    if before is None:
        return False
    for now, then in zip(in_view, before):
        if isinstance(now, tuple):
            if then is None or any(a and not b for a, b in zip(now, then)):
                return False
        elif now and not then:
            return False
    return True


def _in_view(evidence: TableEvidence) -> tuple:
    """Which regions are in view, and in each which places (a board's slots and spaces, a display's or the centre's
    colours) have rested: a place coming to rest is news."""
    boards = (None if b.occluded else tuple(x is not None for part in b.signature[:WALL_SIZE + 1] for x in part)
              for b in evidence.boards)
    counted = (None if c.occluded else tuple(k not in c.unsettled for k in range(MARKER_ELEMENT + 1))
               for c in (*evidence.factories, evidence.centre))
    return (*boards, *counted)


def _unsettled(evidence: TableEvidence, region: Region, before: TableModel, after: TableModel) -> bool:
    """Whether a board in view has a place the change from `before` to `after` fills or empties that has not rested
    yet (see MoveTracker._steady_board): every place a commit changes must have been seen at rest."""
    kind, i = region
    if kind != "board":
        ev = evidence.centre if kind == "centre" else evidence.factories[i]
        return not ev.occluded and _counts_unrested(region, ev.unsettled, before, after)
    if evidence.boards[i].occluded:
        return False
    ev = evidence.boards[i]
    return any((ev.floor[key[1]] if key[0] == "floor" else ev.pattern[key[0]][key[1]]) == NO_SLOT_EVIDENCE
               for key in _changed_places(before.boards[i], after.boards[i]))


def _counts_unrested(region: Region, unrested: frozenset, before: TableModel, after: TableModel) -> bool:
    """Whether a display's or the centre's counts (or marker) that the change from `before` to `after` changes are
    among the `unrested` ones."""
    kind, i = region
    if not unrested:
        return False
    old_counts, new_counts = (before.centre, after.centre) if kind == "centre" else (before.factories[i],
                                                                                    after.factories[i])
    return any(c in unrested for c, (a, b) in enumerate(zip(old_counts, new_counts)) if a != b) or (
        kind == "centre" and MARKER_ELEMENT in unrested and before.centre_marker != after.centre_marker)


def _changed_places(old: BoardModel, new: BoardModel) -> list[tuple]:
    """The places (row, slot) or ("floor", space) of a board that the change from `old` to `new` fills or empties,
    keyed as MoveTracker._steady_board keys them."""
    places = [(r, j) for r in range(WALL_SIZE) for j, (a, b) in enumerate(zip(old.lines[r], new.lines[r])) if a != b]
    floors = [(*f, *(EMPTY,) * (FLOOR_SPACES - len(f))) for f in (old.floor, new.floor)]
    return places + [("floor", k) for k, (a, b) in enumerate(zip(*floors)) if a != b]


class _BoardPlaces:
    """A board's evidence with its pattern-line slots and floor spaces editable, to turn some of them into no
    evidence (_steady_board, _seen_through). `places`: (key, the list holding its reading, index in it); key (row,
    slot) or ("floor", space)."""

    def __init__(self, ev: BoardEvidence):
        self._ev = ev
        self._pattern = [list(line) for line in ev.pattern]
        self._floor = list(ev.floor)
        self._signature = [list(part) for part in ev.signature[:WALL_SIZE + 1]]
        self.places = [((r, j), self._pattern[r], j) for r in range(WALL_SIZE) for j in range(r + 1)]
        self.places += [(("floor", k), self._floor, k) for k in range(len(self._floor))]

    def forget(self, key: tuple, dists: list, j: int) -> None:
        dists[j] = NO_SLOT_EVIDENCE
        self._signature[key[0] if key[0] != "floor" else WALL_SIZE][j] = None

    def tile(self, key: tuple, dists: list, j: int) -> None:
        """A place read as holding a tile (or the marker), whatever it is: every piece alike, as likely in all as
        vision says a piece is there."""
        dist = dists[j]
        empty = dist[slot_index(EMPTY)]
        piece = math.log(max(1e-12, 1.0 - math.exp(empty)) / (SLOT_VALUES - 1))
        dists[j] = tuple(empty if v == slot_index(EMPTY) else piece for v in range(SLOT_VALUES))
        self._signature[key[0] if key[0] != "floor" else WALL_SIZE][j] = SLOT_VALUES  # no value: some piece

    def evidence(self, **changes) -> BoardEvidence:
        return dataclasses.replace(
            self._ev, pattern=tuple(tuple(line) for line in self._pattern), floor=tuple(self._floor),
            signature=(*(tuple(part) for part in self._signature), *self._ev.signature[WALL_SIZE + 1:]), **changes)


def _held_through(watch: _RegionWatch, key: tuple, reading, now: float, rest: float) -> tuple | None:
    """A covered board's place or wall space read as `reading` (noted in watch.held with its since): (reading, since)
    if it has read so for COVER_STEADY_SECONDS, or for the rest time and was read so in view since it was first read
    (watch.elements holds a place's reading in view with its since, _steady_board); else None (_seen_through)."""
    seen = watch.held.get(key)
    if seen is None or seen[0] != reading:
        watch.held[key] = seen = (reading, now)
    if now - seen[1] < COVER_STEADY_SECONDS - REST_TOLERANCE and not (
            watch.elements.get(key) == seen and now - seen[1] >= rest - REST_TOLERANCE):
        return None
    return seen


def _doubted_long(watch: _RegionWatch, now: float) -> bool:
    """Whether vision has doubted every count of a display or the centre for COVER_STEADY_SECONDS on end."""
    return watch.doubted_since is not None and now - watch.doubted_since >= COVER_STEADY_SECONDS - REST_TOLERANCE


def _likeliest(dist: tuple[float, ...]) -> int:
    return max(range(len(dist)), key=dist.__getitem__)


def _is_hidden(evidence: TableEvidence, region: Region) -> bool:
    kind, index = region
    if kind == "board":
        return evidence.boards[index].occluded
    if kind == "factory":
        return evidence.factories[index].occluded
    return evidence.centre.occluded


def _tiling_options(state: GameState, player: int, ev) -> list[tuple[BoardModel, float, str, object]]:
    """The board before tiling, part-way (rows done top to bottom), done, done with one tile in another legal column
    (gray wall), and done but for one tile on a space where it may not go. Each with its prior, its label, and its
    detail: for "done" the columns chosen, for "wrong" the space the tile went to ((row, column)) and the alert's
    words."""
    start = board_model(state, player)
    board = state.boards[player]
    full = [r for r in range(WALL_SIZE) if board.pattern_count[r] == r + 1]
    options: list[tuple[BoardModel, float, str, object]] = [(start, 0.0, "start", None)]
    wall = [list(row) for row in start.wall]
    lines = list(start.lines)
    column_sets = [0] * WALL_SIZE
    for r in range(WALL_SIZE):
        for c in range(WALL_SIZE):
            if wall[r][c] != EMPTY:
                column_sets[c] |= 1 << wall[r][c]
    chosen: dict[tuple[int, int], int] = {}
    legal_by_row: dict[int, list[int]] = {}
    for r in full:
        colour = board.pattern_colour[r]
        if state.variant == COLORED:
            legal = [colored_wall_column(r, colour)]
        else:
            legal = [c for c in range(WALL_SIZE) if wall[r][c] == EMPTY and not column_sets[c] >> colour & 1]
        # Gray wall: the player's choice is the legal column that looks most occupied (the first of them on a tie).
        legal_by_row[r] = sorted(legal, key=lambda c: ev.wall[r][c][0] - ev.wall[r][c][1])
        lines[r] = (EMPTY,) * (r + 1)
        if legal:
            column = legal_by_row[r][0]
            wall[r][column] = colour
            column_sets[column] |= 1 << colour
            chosen[(player, r)] = column
        options.append((BoardModel(tuple(lines), start.floor, _freeze(wall)), 0.0, "partial", None))
    # Every tile placed is enough to commit: the floor line is cleared by the tiling whether or not the player
    # has cleared it yet. Both views are "done", with the same columns.
    finished = [(BoardModel(tuple(lines), floor, _freeze(wall)), floor) for floor in {start.floor, ()}]
    options = [o for o in options if all(o[0] != b for b, _ in finished)]
    options += [(b, 0.0, "done", chosen) for b, _ in finished]

    def laid_at(r: int, c: int) -> list[BoardModel]:
        """The finished boards with row r's tile on column c instead of the one chosen."""
        moved = [row[:] for row in wall]
        if (player, r) in chosen:
            moved[r][chosen[player, r]] = EMPTY
        moved[r][c] = board.pattern_colour[r]
        return [BoardModel(tuple(lines), floor, _freeze(moved)) for _, floor in finished]

    wrong = []
    for r in full:
        # Gray wall: the tile laid in the runner-up legal column is a rival the chosen one must beat, or nothing
        # told the two apart (recorded tuning game 938, round 3: both spaces no evidence, the new tile's not yet
        # read for a second through a cover flag, a flicker on the other; the first legal column was logged).
        options += [(b, 0.0, "other column", None) for c in legal_by_row[r][1:2] for b in laid_at(r, c)]
        for c in range(WALL_SIZE):
            if start.wall[r][c] != EMPTY or c in legal_by_row[r]:
                continue
            detail = (f"{state.names[player]} put the {COLOUR_NAMES[board.pattern_colour[r]]} tile of pattern line "
                      f"{r + 1} on column {c + 1} of the wall, where it may not go")
            # Wall occupancy is weaker evidence than colour (2 nats a space at 0.9): a lighter prior.
            wrong += [(b, -1.0, "wrong", ((r, c), detail)) for b in laid_at(r, c)]
    return options + wrong


def _read_with_a_tile(ev: BoardEvidence, space: tuple[int, int]) -> bool:
    """Whether vision reads a tile on this wall space, more likely than not: a tile put where it may not go holds a
    board's tiling back only where one is read (_wall_tiling). A space read empty, or now with a tile and now without
    (no evidence, _steady_wall), shows none. Weighed as a rival all the same, such a tile on a row whose full line had
    no legal space differs from the true tiling by that one space, trails it by its prior alone (1 nat), and the
    tiling waited for good: recorded tuning game 777 (4 players, gray), the game's last tiling, a forbidden space of
    the row read either way from frame to frame all game. A tile put there changes the space and empties the line
    in the same move, and until both have settled the tiling done is no likelier than the tiling part-way."""
    empty, occupied = ev.wall[space[0]][space[1]]
    return occupied > empty


def _shows_tiling(ev: BoardEvidence, before: BoardModel, after: BoardModel) -> bool:
    """Whether a board's view shows it tiled from `before` to `after`: a tile on the wall where the tiling lays one,
    read so on every such space. An emptied line or floor is not enough: a line read empty may be one whose move is
    yet to come, and the floor's marker is missed for a frame now and then (recorded tuning game 869: the centre's
    last black tile read as white, board 1's marker missed in one frame, and the round's last move, black to
    pattern line 1, committed as made and tiled at once before its player had reached for it; the wall space it
    would have filled read empty at 0.992, less sure than the empty line)."""
    laid = [(r, c) for r in range(WALL_SIZE) for c in range(WALL_SIZE)
            if after.wall[r][c] != EMPTY and before.wall[r][c] == EMPTY]
    return bool(laid) and all(_read_with_a_tile(ev, space) for space in laid)


def _freeze(wall: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(row) for row in wall)

