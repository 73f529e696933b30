"""The move tracker on synthetic observations: made from the true table, with hands, noise and mistakes.

These observations come from the true game state the way a perfect (or noisy) camera would describe it; the
tracker only sees the observation dicts, never the true game. A few come from vision itself: observations recorded
from a rendered game (tests/tracker/data), where a case needs what vision really read."""

from __future__ import annotations

import copy
import gzip
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker import CENTRE, DEAL, FLOOR, GRAY, OFFER, OVER, WALL_TILING, move, new_game
from tracker.game import Game
from tracker.inference import MoveTracker, TrackerStatus
from tracker.tiles import BLACK, BLUE, COLOUR_NAMES, RED, WHITE, YELLOW

FPS = 10
DATA = Path(__file__).parent / "data"


def observe(table: dict, occluded=(), noise: float = 0.0, rng: random.Random | None = None) -> dict:
    """An observation of `table` (a GameState.to_table()): regions in `occluded` are covered by a hand; with
    noise, each pattern-line slot is misread with that probability (and its confidence says so)."""
    obs = copy.deepcopy(table)
    for i, board in enumerate(obs["boards"]):
        board["occluded"] = ("board", i) in occluded
        if noise and rng is not None:
            probs = []
            for r, line in enumerate(board["pattern_lines"]):
                slots = []
                for j in range(r + 1):
                    truth = line[j] if j < len(line) else "empty"
                    seen = truth if rng.random() >= noise else rng.choice([*COLOUR_NAMES, "empty"])
                    dist = {name: 0.02 for name in [*COLOUR_NAMES, "empty"]}
                    dist[seen] = 0.88
                    slots.append(dist)
                probs.append(slots)
            board["probabilities"] = {"pattern_lines": probs}
    obs["factories"] = [{"counts": f, "occluded": ("factory", j) in occluded} for j, f in enumerate(obs["factories"])]
    obs["center"] = {"counts": obs["center"], "first_player": obs["first_player"], "occluded": ("centre", 0) in occluded}
    return obs


class Table:
    """A played game and the clock: feeds the tracker frames at 10 fps."""

    def __init__(self, tracker: MoveTracker, truth) -> None:
        self.tracker, self.truth, self.t = tracker, truth, 0.0
        self.log: list = []

    def frames(self, n: int, table: dict | None = None, **kwargs):
        status = None
        for _ in range(n):
            self.t += 1 / FPS
            status = self.tracker.observe(observe(table or self.truth.to_table(), **kwargs), self.t)
            self.log.append(status)
        return status


def regions_of(state, m, player):
    regions = {("board", player), ("centre", 0)}
    if m.source != CENTRE:
        regions.add(("factory", m.source))
    return regions


def played_under_a_hand(truth, feed, m, **kwargs) -> None:
    """A hand over the regions move `m` changes for 3 of `feed`'s frames, then the move made on `truth`."""
    feed(3, occluded=regions_of(truth, m, truth.current_player), **kwargs)
    truth.play(m)


def recording_moves(truth, feed, then: int = 0):
    """(played, play): play(m) makes move `m` under a hand (played_under_a_hand), then feeds `then` frames of the
    table; played lists (player, display, colour) of the moves made so."""
    played = []

    def play(m) -> None:
        played.append((truth.current_player, m.source, COLOUR_NAMES[m.colour]))
        played_under_a_hand(truth, feed, m)
        feed(then)

    return played, play


def misread_feed(truth, tracker: MoveTracker, flagged, misread):
    """feed(frames, occluded=()): that many views of `truth` at FPS to `tracker`, the regions `occluded` and
    `flagged(n)` flagged covered, each view changed in place by `misread(obs, n, occluded)` (n counts from 1)."""
    clock = {"t": 0.0, "n": 0}

    def feed(frames: int, occluded=()):
        for _ in range(frames):
            clock["t"] += 1 / FPS
            clock["n"] += 1
            obs = observe(truth.to_table(), {*occluded, *flagged(clock["n"])})
            misread(obs, clock["n"], occluded)
            tracker.observe(obs, clock["t"])
    return feed


def started(players=2, variant="colored", seed=1):
    truth = new_game(players, variant)
    game = Game.new(players, variant)
    rng = random.Random(seed)
    deal = truth.deal_random(rng)
    game.deal(deal)
    return truth, game, rng


def play_the_offer(truth, table, rng) -> None:
    """Random legal moves until the factory offer ends, each seen for 5 frames at rest."""
    while truth.phase == OFFER:
        legal = truth.legal_moves()
        truth.play(legal[rng.randrange(len(legal))])
        table.frames(5)


def tiled_after_the_offer(seed: int):
    """A 2-player round played to its wall tiling, seen move by move; the truth then tiles its walls. Returns the
    truth, the tracked game, the table, and the true table before and after the tiling."""
    truth, game, rng = started(seed=seed)
    table = Table(MoveTracker(game), truth)
    play_the_offer(truth, table, rng)
    assert game.state == truth and truth.phase == WALL_TILING
    before = truth.to_table()
    truth.tile_walls()
    return truth, game, table, before, truth.to_table()


def test_a_move_is_committed_after_the_hand_leaves_and_the_table_rests():
    truth, game, rng = started()
    table = Table(MoveTracker(game), truth)
    assert table.frames(5).committed == ()
    m = truth.legal_moves()[3]
    hidden = regions_of(truth, m, truth.current_player)
    table.frames(6, occluded=hidden)  # the hand covers the display and the board while tiles move
    truth.play(m)
    table.frames(2, occluded=hidden)
    statuses = [table.frames(1) for _ in range(6)]
    committed = [s for s in statuses if s.committed]
    assert len(committed) == 1 and game.state == truth
    # At rest from the first clear frame; committed within 0.5 s of it.
    assert statuses.index(committed[0]) <= 4


def test_a_hand_over_one_display_does_not_stop_another_board():
    truth, game, rng = started(players=4)
    table = Table(MoveTracker(game), truth)
    table.frames(4)
    m = next(m for m in truth.legal_moves() if m.source == 0)
    truth.play(m)
    status = table.frames(6, occluded={("factory", 5)})
    assert game.state == truth and status.occluded == (("factory", 5),)


@pytest.mark.parametrize("players, variant, seed", [(2, "colored", 3), (3, GRAY, 4), (4, "colored", 5), (4, GRAY, 6)])
def test_whole_game_followed_from_observations(players, variant, seed):
    truth, game, rng = started(players, variant, seed)
    tracker = MoveTracker(game)
    table = Table(tracker, truth)
    while truth.phase != OVER:
        if truth.phase == OFFER:
            legal = truth.legal_moves()
            m = legal[rng.randrange(len(legal))]
            hidden = regions_of(truth, m, truth.current_player)
            table.frames(3, occluded=hidden)
            truth.play(m)
            table.frames(1, occluded=hidden)
            table.frames(5)
        elif truth.phase == WALL_TILING:
            chooser = (lambda p, r, c, legal: rng.choice(legal)) if variant == GRAY else None
            truth.tile_walls(chooser)
            table.frames(6)
        else:
            truth.deal_random(rng)
            table.frames(6)
        assert game.state == truth, "the tracker fell behind or went astray"
    assert [b.score for b in game.state.boards] == [b.score for b in truth.boards]
    assert all(s.alert is None for s in table.log)


@pytest.mark.parametrize("ghost", [False, True])
@pytest.mark.parametrize("seed", [7, 8, 9, 10, 11, 12])
def test_the_last_move_of_a_round_seen_only_after_its_board_was_tiled_is_committed(seed, ghost):
    # Real vision (tuning seed 7): the board of the round's last move was flagged covered from the move until its
    # player had tiled it, and the next refill was on the displays by then. No move explains a tiled board; the last
    # move with every board tiled does, and the tiling and the refill follow from the same views. (A line filled
    # exactly and the floor line are both emptied by the tiling: the wall tells them apart, read as surely as
    # vision reads walls, 0.99.)
    truth, game, rng = started(3, seed=seed)
    table = Table(MoveTracker(game), truth)
    table.frames(4)
    while True:
        legal = truth.legal_moves()
        m = legal[rng.randrange(len(legal))]
        after = truth.copy()
        after.play(m)
        if after.phase == WALL_TILING:
            break
        played_under_a_hand(truth, table.frames, m)
        table.frames(5)
    player = truth.current_player
    hidden = regions_of(truth, m, player)
    table.frames(3, occluded=hidden)
    truth.play(m)
    table.frames(3, occluded=hidden)
    truth.tile_walls()
    table.frames(3, occluded=hidden)
    truth.deal_random(rng)
    for _ in range(10):
        view = observe(truth.to_table())
        for board in view["boards"]:
            board["probabilities"] = {"wall": [[0.99 if c else 0.01 for c in row] for row in board["wall"]]}
        if ghost:
            # Real vision (recorded tuning game 600): a tile read on an empty pattern line of the tiled board, frame
            # after frame (a shadow); one misread, as a move's commit allows.
            lines = view["boards"][player]["pattern_lines"]
            lines[lines.index([])] = ["yellow"]
        table.t += 1 / FPS
        table.log.append(table.tracker.observe(view, table.t))
    assert game.state == truth


def _logged_moves(game: Game) -> list[dict]:
    """The moves in force in the game's log, as a recording's `true_moves` list them."""
    return [{k: e[k] for k in ("player", "source", "factory", "color", "line")}
            for e in game.record.events_in_force() if e["type"] == "move"]


def test_the_last_move_of_a_round_is_not_committed_as_made_and_tiled_before_its_player_reaches_for_it():
    # Recorded tuning game 869 (3 players, colored), the end of round 1, from the tracker's log then: the centre's
    # last tile (black) read as white, player 1's first-player marker missed in one frame. "Player 1: black from
    # the centre to pattern line 1", the round's last move, was committed with the move before it, as made and tiled
    # at once, before player 1 had reached for the tile: pattern line 1 read empty, and so did the wall space the
    # tile would have gone to (at 0.992), but the tiling explained the view a little better than the move unmade.
    recorded = json.loads(gzip.decompress((DATA / "round_end_869.json.gz").read_bytes()))
    game, problem = Game.from_events(recorded["events"])
    assert problem is None and game.state.phase == OFFER
    tracker = MoveTracker(game)
    for observation in recorded["observations"]:
        tracker.observe(observation)
    moves = _logged_moves(game)
    assert moves == recorded["true_moves"][:len(moves)] and len(moves) < len(recorded["true_moves"])
    assert game.state.phase == OFFER


def test_missed_moves_are_recovered_as_a_sequence():
    truth, game, rng = started(players=3, seed=8)
    table = Table(MoveTracker(game), truth)
    table.frames(4)
    for _ in range(2):  # two moves while the camera was blind
        legal = truth.legal_moves()
        truth.play(legal[rng.randrange(len(legal))])
    table.frames(5)
    assert game.state == truth


def _illegal_setup():
    truth = new_game(2, names=["Ana", "Ben"])
    truth.boards[0].pattern_colour[2], truth.boards[0].pattern_count[2] = BLUE, 1
    truth.bag[BLUE] -= 1
    truth.deal([["red", "red", "yellow", "black"], ["blue"] * 4, ["white"] * 4, ["yellow"] * 4, ["black"] * 4])
    game = Game.new(2, names=["Ana", "Ben"])
    game.state.boards[0].pattern_colour[2], game.state.boards[0].pattern_count[2] = BLUE, 1
    game.state.bag[BLUE] -= 1
    game.deal(truth.factories and [["red", "red", "yellow", "black"], ["blue"] * 4, ["white"] * 4, ["yellow"] * 4,
                                   ["black"] * 4])
    return truth, game


def _mutated(truth, change) -> dict:
    table = truth.to_table()
    change(table)
    return table


ILLEGAL = {
    # Ana puts her 2 red on pattern line 3, which holds blue.
    "line_other_colour": lambda t: (t["boards"][0]["pattern_lines"].__setitem__(2, ["blue", "red", "red"]),
                                    t["factories"].__setitem__(0, {}), t["center"].update({"yellow": 1, "black": 1})),
    # Ana splits the 2 red between line 2 and line 1.
    "split": lambda t: (t["boards"][0]["pattern_lines"].__setitem__(0, ["red"]),
                        t["boards"][0]["pattern_lines"].__setitem__(1, ["red"]),
                        t["factories"].__setitem__(0, {}), t["center"].update({"yellow": 1, "black": 1})),
    # Ana takes one red and leaves the other with the leftovers.
    "part_left": lambda t: (t["boards"][0]["pattern_lines"].__setitem__(1, ["red"]),
                            t["factories"].__setitem__(0, {}), t["center"].update({"red": 1, "yellow": 1, "black": 1})),
    # Ana takes the red but leaves the yellow and black on the display.
    "leftovers": lambda t: (t["boards"][0]["pattern_lines"].__setitem__(1, ["red", "red"]),
                            t["factories"].__setitem__(0, {"yellow": 1, "black": 1})),
    # Ben plays before Ana.
    "turn": lambda t: (t["boards"][1]["pattern_lines"].__setitem__(3, ["white"] * 4),
                       t["factories"].__setitem__(2, {})),
    # Ana takes the yellow from display 1 and display 4 at once (all 5 fill pattern line 5).
    "two_sources": lambda t: (t["boards"][0]["pattern_lines"].__setitem__(4, ["yellow"] * 5),
                              t["factories"].__setitem__(0, {}), t["factories"].__setitem__(3, {}),
                              t["center"].update({"red": 2, "black": 1})),
}


@pytest.mark.parametrize("rule", sorted(ILLEGAL))
def test_illegal_placements_raise_an_alert_and_clear_when_fixed(rule):
    truth, game = _illegal_setup()
    tracker = MoveTracker(game)
    table = Table(tracker, truth)
    table.frames(4)
    before = game.state.to_dict()
    status = table.frames(6, table=_mutated(truth, ILLEGAL[rule]))
    assert status.alert is not None and status.alert.rule == rule, status
    assert ("Ana" if rule != "turn" else "Ben") in status.alert.reason
    assert game.state.to_dict() == before, "nothing is committed while the table is illegal"
    status = table.frames(5)  # put back as it was
    assert status.alert is None and game.state.to_dict() == before


def _misplaced_under_a_hand(frames: int):
    """Ana lays a colour on a line holding another (4 still frames first), seen under a hand over her board, the
    display and the centre for `frames` frames. -> (game, table, the misplaced table)"""
    truth, game = _illegal_setup()
    table = Table(MoveTracker(game), truth)
    table.frames(4)
    wrong = _mutated(truth, ILLEGAL["line_other_colour"])
    table.frames(frames, table=wrong, occluded={("board", 0), ("factory", 0), ("centre", 0)})
    return game, table, wrong


def test_an_illegal_placement_is_flagged_as_soon_as_the_table_has_rested():
    # Bench pace (recorded real-vision games, tuning seeds 6 and 22): a misplaced tile lies on the board about 1 s
    # before the player puts it right, and vision flags the board covered for the first 0.3-0.5 s of it. Waiting for
    # the illegal explanation to persist 0.2 s after the rest left no frame for the alert.
    _, table, wrong = _misplaced_under_a_hand(3)
    status = table.frames(4, table=wrong)  # at rest from the first clear frame: 0.3 s
    assert status.alert is not None and status.alert.rule == "line_other_colour", status


def test_an_illegal_placement_is_flagged_though_vision_cannot_settle_on_the_centre_it_sends_leftovers_to():
    # Recorded tuning game 718 (2 players, colored), round 4: yellow laid on a line whose wall row has yellow, the
    # leftovers (a black and a white) sent to the centre, which vision read with 1 or 2 whites and 1 or 2 blacks
    # frame after frame for the whole second the tiles lay there. The centre never rested, and the alert waited for
    # it; a legal move is committed from a centre read as it leaves it within the last second, and so is an alert.
    game, table, wrong = _misplaced_under_a_hand(2)
    alerts = []
    for n in range(8):
        seen = copy.deepcopy(wrong)
        if n % 2:
            seen["center"]["black"] += 1  # a phantom black every other frame
        alerts.append(table.frames(1, table=seen).alert)
    assert any(a is not None and a.rule == "line_other_colour" for a in alerts[:6]), alerts
    assert not [e for e in game.record.events_in_force() if e["type"] == "move"], "nothing is committed"


def test_an_illegal_placement_on_a_board_flagged_covered_but_for_single_frames_is_flagged():
    # Recorded tuning game 718 (2 players, colored), round 2: yellow laid on pattern line 5, which held red; no hand
    # was over board 1, but vision flagged it covered in all but single frames of the second the tiles lay there,
    # reading them the same in every frame. A place rested only over frames in view: in each of those single frames
    # the tiles had just come into view, and the alert never came.
    truth, game = _illegal_setup()
    tracker = MoveTracker(game)
    table = Table(tracker, truth)
    table.frames(4)
    before = truth.to_table()["boards"][0]
    wrong = _mutated(truth, ILLEGAL["line_other_colour"])
    for _ in range(2):  # the hand over the board: what is read under it is the board as it was
        obs = observe(wrong, occluded={("board", 0), ("factory", 0), ("centre", 0)})
        obs["boards"][0] = {**before, "occluded": True}
        table.t += 1 / FPS
        tracker.observe(obs, table.t)
    alerts = [table.frames(1, table=wrong, occluded=set() if n in (3, 5) else {("board", 0)}).alert
              for n in range(8)]
    assert alerts[3] is not None and alerts[3].rule == "line_other_colour", alerts
    assert not [e for e in game.record.events_in_force() if e["type"] == "move"], "nothing is committed"


def test_no_alert_while_the_floor_line_it_fills_reads_more_tiles_than_it_puts_there():
    # Recorded tuning game 738 (4 players, colored): board 3's floor line read with 3 to 7 tiles where none lay, for
    # 8 s, while Player 2 took white to a pattern line; "Player 3 took white out of turn", two white tiles on that
    # floor line, fitted every place it filled, and the extra tiles counted as misreads elsewhere. Here Ana takes the
    # 4 white tiles of display 3 to pattern line 4 under a hand, and vision reads Ben's floor line with 6 tiles.
    truth, game = _illegal_setup()
    table = Table(MoveTracker(game), truth)
    table.frames(4)
    truth.play(move(2, WHITE, 3))
    view = truth.to_table()
    view["boards"][1]["floor"] = ["white"] * 4 + ["blue"] * 2
    alerts = [table.frames(1, table=view, occluded={("board", 0)}).alert for _ in range(10)]
    assert alerts == [None] * 10, alerts
    assert not [e for e in game.record.events_in_force() if e["type"] == "move"], "nothing is committed"


def test_an_illegal_placement_read_only_under_a_cover_flag_is_flagged_once_it_is_in_view():
    # A region vision flags covered but reads the same for a while counts for moves; an alert names a person, so
    # what its action changed must be in view (recorded tuning game 611: a hand over the centre, read the same and
    # unsure for 1.4 s, and a false alert).
    truth, game = _illegal_setup()
    table = Table(MoveTracker(game), truth)
    table.frames(4)
    wrong = _mutated(truth, ILLEGAL["turn"])
    status = table.frames(15, table=wrong, occluded={("board", 1)})
    assert status.alert is None and status.waiting == "waiting for board 2 to be in view", status
    status = table.frames(4, table=wrong)
    assert status.alert is not None and status.alert.rule == "turn", status


@pytest.mark.parametrize("refilled", [False, True])
def test_no_alert_once_an_emptied_display_holds_tiles_again(refilled):
    # A tracker stalled a round behind (recorded tuning game 600) saw the next round's boards as a move out of turn
    # while the refill's displays were still coming to rest. No rule a player breaks refills a display.
    truth, game = _illegal_setup()
    table = Table(MoveTracker(game), truth)
    table.frames(4)
    truth.play(move(3, YELLOW, 4))  # Ana empties display 4
    table.frames(5)
    assert game.state == truth

    for n in range(6):
        # Ana takes the white of display 3 out of turn; display 4 is being refilled (vision counts its blue tiles
        # one way, then another: the display never rests).
        view = truth.to_table()
        view["boards"][0]["pattern_lines"][3] = ["white"] * 4
        view["factories"][2] = {}
        if refilled:
            view["factories"][3] = {"red": 1, "blue": 1 + n % 2}
        status = table.frames(1, table=view)
    if refilled:
        assert status.alert is None and "holds tiles again" in status.waiting, status
    else:
        assert status.alert is not None and status.alert.rule == "turn", status


def test_an_illegal_placement_is_flagged_though_vision_misses_the_marker_in_the_centre_it_sends_tiles_to():
    # Real vision (tuning seed 4, 2 players, gray): the first-player marker in the centre read as absent in every
    # frame. The misplacement sent the leftovers to the centre, so the centre was a region it changed, and its
    # marker (which it left alone) was a misfit there: no alert, though everything the action changed read right.
    truth, game = _illegal_setup()
    table = Table(MoveTracker(game), truth)

    def seen(view: dict) -> dict:
        view["first_player"] = False
        return view

    table.frames(4, table=seen(truth.to_table()))
    status = table.frames(6, table=seen(_mutated(truth, ILLEGAL["line_other_colour"])))
    assert status.alert is not None and status.alert.rule == "line_other_colour", status
    assert not [e for e in game.record.events_in_force() if e["type"] == "move"], "nothing is committed"


def test_marker_not_taken_is_flagged():
    truth, game = _illegal_setup()
    truth.play(move(0, RED, 1))
    game.play(move(0, RED, 1))
    truth.play(move(1, BLUE, 3))
    game.play(move(1, BLUE, 3))
    table = Table(MoveTracker(game), truth)
    table.frames(4)
    # Ana takes the yellow from the centre onto line 1 and leaves the marker there.
    status = table.frames(6, table=_mutated(truth, lambda t: (
        t["boards"][0]["pattern_lines"].__setitem__(0, ["yellow"]), t["center"].pop("yellow"))))
    assert status.alert is not None and status.alert.rule == "marker"
    truth.play(move(CENTRE, YELLOW, 0))
    status = table.frames(5)
    assert status.alert is None and game.state == truth


def test_wrong_wall_space_and_score_cube():
    truth = new_game(2, names=["Ana", "Ben"])
    game = Game.new(2, names=["Ana", "Ben"])
    rng = random.Random(2)
    deal = truth.deal_random(rng)
    game.deal(deal)
    tracker = MoveTracker(game)
    table = Table(tracker, truth)
    play_the_offer(truth, table, rng)
    assert game.state == truth and truth.phase == WALL_TILING
    board = truth.boards[0]
    row = next((r for r in range(5) if board.pattern_count[r] == r + 1), None)
    if row is None:
        pytest.skip("seed gives player 1 no full line")  # pragma: no cover - the seed is fixed and has one
    after = truth.copy()
    after.tile_walls()
    wrong = after.to_table()
    right_col = next(c for c in range(5) if after.boards[0].wall[row][c] != truth.boards[0].wall[row][c])
    wrong_col = next(c for c in range(5) if after.boards[0].wall[row][c] == -1)
    wrong["boards"][0]["wall"][row][right_col] = None
    wrong["boards"][0]["wall"][row][wrong_col] = COLOUR_NAMES[board.pattern_colour[row]]
    status = table.frames(6, table=wrong)
    assert status.alert is not None and status.alert.rule == "wrong_wall_space" and "Ana" in status.alert.reason
    truth.tile_walls()
    status = table.frames(6)
    assert status.alert is None and game.state == truth and truth.phase in (DEAL, OVER)
    # Ana's cube is left one space short.
    bad_cube = truth.to_table()
    bad_cube["boards"][0]["score_marker"] = truth.boards[0].score + 1
    status = table.frames(20, table=bad_cube)
    assert [a.player for a in status.score_alerts] == [0] and "score cube shows" in status.score_alerts[0].reason
    status = table.frames(20)
    assert status.score_alerts == ()


def test_a_board_seen_tiled_counts_while_a_hand_covers_it_as_the_others_finish():
    # Ana tiles first and her board is then covered (a hand reaching across) whenever Ben's is seen tiled: the
    # tiling is committed from each board's last clear view, not only when all are in view at once.
    truth, game, table, half, tiled = tiled_after_the_offer(seed=9)
    half["boards"][0] = tiled["boards"][0]
    table.frames(5, table=half)
    status = table.frames(5, occluded={("board", 0)})
    assert game.state == truth and status.alert is None


def test_a_wall_space_read_with_a_tile_one_frame_and_without_the_next_does_not_hold_the_tiling_back():
    # Recorded tuning game 706 (2 players, colored): in the game's last frames vision read one wall space no tile
    # was placed on now occupied, now empty. The wall rested as a whole: the board never did, and the game's last
    # tiling was never committed. Wall spaces rest one by one, as pattern-line slots do.
    truth, game, table, before, tiled = tiled_after_the_offer(seed=9)
    player = next(p for p, b in enumerate(tiled["boards"]) if b["wall"] != before["boards"][p]["wall"])
    row, column = next((r, c) for r in range(5) for c in range(5) if tiled["boards"][player]["wall"][r][c] is None)
    for n in range(8):
        view = copy.deepcopy(tiled)
        view["boards"][player]["wall"][row][column] = "blue" if n % 2 else None
        table.frames(1, table=view)
    assert game.state == truth


def _gray_game_at_tiling(round_: int, seed: int):
    """A 2-player gray game played at random to the tiling of round `round_` (earlier ones each line's tile in its
    leftmost legal column), the tracked game logged move by move with no views. -> (truth, game)"""
    truth, game, rng = new_game(2, GRAY), Game.new(2, GRAY), random.Random(seed)
    while truth.round < round_ or truth.phase != WALL_TILING:
        if truth.phase == WALL_TILING:
            truth.tile_walls()
            game.tile_walls()
        else:
            game.deal(truth.deal_random(rng))
        while truth.phase == OFFER:
            legal = truth.legal_moves()
            m = legal[rng.randrange(len(legal))]
            truth.play(m)
            game.play(m)
    return truth, game


def _a_full_line_with_no_legal_space():
    """A 2-player gray game played at random (seed 61, found by search) to the tiling of round 7, where Ben's full
    pattern line 1 has no legal space on his wall: the tracked game logged move by move with no views, its tracker
    new. Returns the truth before the tiling, the tracked game, a table, and Ben's empty spaces of wall row 1."""
    truth, game = _gray_game_at_tiling(7, seed=61)
    board = truth.boards[1]
    assert board.pattern_count[0] == 1 and truth.legal_wall_columns(1, 0, board.pattern_colour[0]) == []
    return truth, game, Table(MoveTracker(game), truth), [c for c in range(5) if board.wall[0][c] == -1]


def test_a_wall_space_read_either_way_where_a_tile_may_not_go_does_not_hold_the_tiling_back():
    # Recorded tuning game 777 (4 players, gray): the game's last tiling never committed. A full line's tile had no
    # legal space (it goes to the floor line), and one forbidden space of its wall row read now with a tile, now
    # without, all game: the tile misplaced there was the runner-up to the true tiling by its prior alone.
    truth, game, table, forbidden = _a_full_line_with_no_legal_space()
    truth.tile_walls()
    for n in range(10):
        view = truth.to_table()
        view["boards"][1]["wall"][0][forbidden[0]] = "blue" if n % 2 else None
        status = table.frames(1, table=view)
    assert game.state == truth and status.alert is None


def test_a_tile_read_where_a_full_line_with_no_legal_space_may_not_put_it_is_flagged():
    # Read as surely as vision reads a wall tile (log-odds 9.2 in recorded tuning game 777): at the observations'
    # default 0.9 the misplacement beats the true tiling by less than the margin, and the tiling waits.
    truth, game, table, forbidden = _a_full_line_with_no_legal_space()
    colour = truth.boards[1].pattern_colour[0]
    truth.tile_walls()
    view = truth.to_table()
    view["boards"][1]["wall"][0][forbidden[0]] = COLOUR_NAMES[colour]
    view["boards"][1]["confidence"] = 0.9999
    status = table.frames(10, table=view)
    assert status.alert is not None and status.alert.rule == "wrong_wall_space" and game.state.phase == WALL_TILING


def _a_gray_tiling(seed: int = 5):
    """A 2-player gray game played at random to its first tiling (_gray_game_at_tiling), its tracker new; the truth
    then tiles each full line's tile in its last legal column. Returns the truth after the tiling,
    the tracked game, a table, and per full line (player, row, column laid, first legal column)."""
    truth, game = _gray_game_at_tiling(1, seed)
    laid = []

    def last_column(player, row, colour, legal):
        laid.append((player, row, legal[-1], legal[0]))
        return legal[-1]

    truth.tile_walls(last_column)
    assert any(column != first for _, _, column, first in laid)
    return truth, game, Table(MoveTracker(game), truth), laid


def test_a_gray_wall_column_nothing_tells_from_another_is_not_guessed():
    # Recorded tuning game 938 (3 players, gray), round 3: board 3 flagged covered through its tiling, the space the
    # new tile lay on not yet read steadily, a flicker on the first legal space of its row: both no evidence, the
    # first legal column was logged, and the next tiling put a tile where the log said it may not go.
    truth, game, table, laid = _a_gray_tiling()
    view = truth.to_table()
    for player, row, column, first in laid:
        wall = [[1.0 if c is not None else 0.0 for c in r] for r in view["boards"][player]["wall"]]
        wall[row][column] = wall[row][first] = 0.5
        view["boards"][player]["probabilities"] = {"wall": wall}
    table.frames(15, table=view)
    assert game.state.phase == WALL_TILING
    table.frames(5)
    assert game.state == truth


def test_a_tiling_is_seen_through_a_cover_flag_with_a_wall_space_flickering():
    # Recorded tuning game 938 (3 players, gray), round 4: board 3 flagged covered through its tiling with no hand
    # over it, one wall space read now with a tile, now without: the wall never rested as a whole, and the tiling
    # waited 16 s, far into the next round. Its spaces rest one by one, as its places do.
    truth, game, table, laid = _a_gray_tiling()
    player, row = laid[0][:2]
    empty = next(c for c in range(5) if truth.to_table()["boards"][player]["wall"][row][c] is None)
    for n in range(20):
        view = truth.to_table()
        view["boards"][player]["wall"][row][empty] = "blue" if n % 2 else None
        # Read as surely as vision reads a wall tile (recorded 938: log-odds 9.2): with the flickering space no
        # evidence, the new tile's space alone tells its column from that one (_a_gray_tiling: the first legal).
        view["boards"][player]["confidence"] = 0.9999
        table.frames(1, table=view, occluded={("board", player)})
    assert game.state == truth


def test_an_impossible_deal_is_flagged():
    truth, game, rng = started(seed=9)
    table = Table(MoveTracker(game), truth)
    play_the_offer(truth, table, rng)
    truth.tile_walls()
    table.frames(5)
    assert game.state.phase == DEAL
    seen = truth.to_table()
    seen["factories"] = [{"red": 4}] * 5  # 20 red: more than there are
    status = table.frames(6, table=seen)
    assert status.alert is not None and status.alert.rule == "deal" and "red" in status.alert.reason
    truth.deal_random(rng)
    status = table.frames(6)
    assert status.alert is None and game.state == truth


def _the_whole_bag_dealt():
    """A 2-player game played to its fifth round, whose deal takes every tile left in the bag, dealt on `truth` only.
    -> (truth, game)"""
    truth, game, rng = started(seed=3)
    while truth.round < 4 or truth.phase != DEAL:
        if truth.phase == DEAL:
            game.deal(truth.deal_random(rng))
        while truth.phase == OFFER:
            legal = truth.legal_moves()
            move = legal[rng.randrange(len(legal))]
            game.play(move, truth.current_player)
            truth.play(move)
        truth.tile_walls()
        game.tile_walls()
    assert sum(truth.bag) == 4 * len(truth.factories)
    truth.deal_random(rng)
    return truth, game


def _a_tile_more_than_the_bag_holds(doubted: bool):
    """The fifth round of a 2-player game deals the whole bag: a display's tile read as white is one white more
    than there is. With `doubted`, vision doubts that display's count of white and of the tile's true colour."""
    truth, game = _the_whole_bag_dealt()
    seen = truth.to_table()
    j, colour = next((j, c) for j, f in enumerate(seen["factories"]) for c in f if c != "white")
    seen["factories"][j] = dict(seen["factories"][j])
    seen["factories"][j][colour] -= 1
    seen["factories"][j]["white"] = seen["factories"][j].get("white", 0) + 1
    obs = observe(seen)
    if doubted:
        doubts = {name: 0.99 for name in COLOUR_NAMES} | {colour: 0.5, "white": 0.9}
        obs["details"] = {"factories": [{"count_confidence": doubts if k == j else {n: 0.99 for n in COLOUR_NAMES}}
                                        for k in range(len(seen["factories"]))]}
    tracker = MoveTracker(game)
    status = None
    for k in range(6):
        status = tracker.observe(copy.deepcopy(obs), (k + 1) / FPS)
    return truth, game, status, j, colour


def test_a_deal_the_bag_cannot_give_by_one_tile_is_dealt_with_the_tile_vision_doubts_as_a_guess():
    # Recorded tuning game 759, round 4: one display's blue tile read as white in every frame made 9 white tiles
    # where bag and lid held 8, and the game stalled on "this deal is impossible" for good.
    truth, game, status, j, colour = _a_tile_more_than_the_bag_holds(doubted=True)
    assert status.alert is None and game.state == truth
    assert game.record.events_in_force()[-1]["unseen"] == {"factory": j, "colors": [colour]}


def test_a_tile_a_display_was_read_without_is_the_guess_when_the_bag_cannot_give_what_made_it_whole():
    # Recorded tuning game 864, round 5: display 2 read without its blue tile, made whole with a third white (the
    # colour vision doubted most there), one white more than the bag held; display 1's white tile, read surely but
    # its white doubted more, was dealt as the blue instead, and the round stalled.
    truth, game = _the_whole_bag_dealt()
    seen = truth.to_table()
    short, colour = next((j, c) for j, f in enumerate(seen["factories"]) for c in f if c != "white")
    other = next(j for j, f in enumerate(seen["factories"]) if j != short and f.get("white"))
    seen["factories"][short] = dict(seen["factories"][short])
    seen["factories"][short][colour] -= 1
    obs = observe(seen)
    sure = {name: 0.99 for name in COLOUR_NAMES}
    doubts = {short: sure | {"white": 0.8}, other: sure | {"white": 0.5}}
    obs["details"] = {"factories": [{"count_confidence": doubts.get(k, sure)} for k in range(len(seen["factories"]))]}
    tracker = MoveTracker(game)
    for k in range(6):
        status = tracker.observe(copy.deepcopy(obs), (k + 1) / FPS)
    assert status.alert is None and game.state == truth
    assert game.record.events_in_force()[-1]["unseen"] == {"factory": short, "colors": [colour]}


def test_a_deal_the_bag_cannot_give_with_no_display_doubted_is_flagged():
    truth, game, status, _, _ = _a_tile_more_than_the_bag_holds(doubted=False)
    assert game.state.phase == DEAL
    assert status.alert is not None and status.alert.rule == "deal" and "white" in status.alert.reason


def test_noisy_slots_are_absorbed_not_committed():
    truth, game, rng = started(players=4, seed=12)
    tracker = MoveTracker(game)
    table = Table(tracker, truth)
    noise_rng = random.Random(99)
    for _ in range(12):
        legal = truth.legal_moves()
        m = legal[rng.randrange(len(legal))]
        truth.play(m)
        table.frames(8, noise=0.02, rng=noise_rng)
        if game.state != truth:
            table.frames(8)  # a clean look settles what noise left unsure
        assert game.state == truth
        if truth.phase != OFFER:
            break


def test_unreadable_observations_are_reported_not_raised():
    truth, game, _ = started()
    tracker = MoveTracker(game)
    assert "unreadable observation" in tracker.observe({"boards": 3}, 0.1).waiting
    assert "this game has 2 and 5" in tracker.observe({"boards": [], "factories": [], "center": {}}, 0.2).waiting


GARBAGE = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.floats(allow_nan=True) | st.sampled_from(
        [*COLOUR_NAMES, "first_player", "empty", "green"]),
    lambda children: st.lists(children, max_size=8) | st.dictionaries(
        st.sampled_from(["boards", "factories", "center", "counts", "occluded", "pattern_lines", "wall", "floor",
                         "score_marker", "probabilities", "first_player", *COLOUR_NAMES]), children, max_size=6),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(observations=st.lists(GARBAGE, min_size=1, max_size=6), seed=st.integers(0, 1000))
def test_garbage_and_contradictory_observations_never_crash_or_commit_illegal_states(observations, seed):
    truth, game, rng = started(seed=seed)
    tracker = MoveTracker(game)
    t = 0.0
    for obs in observations:
        t += 0.5
        tracker.observe(obs, t)
        # Interleave real-looking but contradictory tables (random counts, random lines).
        table = truth.to_table()
        for f in table["factories"]:
            for name in list(f):
                f[name] = rng.randint(0, 4)
        table["boards"][rng.randrange(2)]["pattern_lines"][rng.randrange(5)] = [rng.choice(COLOUR_NAMES)]
        t += 0.5
        tracker.observe(observe(table), t)
        replayed, problem = Game.from_events(game.record.events)
        assert problem is None and replayed.state == game.state
        assert game.state.tile_count() == [20] * 5


def test_a_misread_move_is_corrected_when_a_clearer_view_contradicts_it():
    truth, game, rng = started(players=2, seed=21)
    tracker = MoveTracker(game)
    table = Table(tracker, truth)
    table.frames(4)
    legal = truth.legal_moves()
    right = next(m for m in legal if m.line != FLOOR)
    wrong = next(m for m in legal if m.source == right.source and m.colour == right.colour and m.line != right.line)
    truth.play(right)
    game.play(wrong)  # what a misreading tracker would have committed
    table.frames(6)
    assert game.state == truth
    assert any("corrected the last 1 move" in c for s in table.log for c in s.committed)
    assert game.record.events[-1]["type"] == "correction"


def test_a_flickering_misread_wall_space_does_not_hold_moves_back():
    truth, game, rng = started(players=2, seed=31)
    table = Table(MoveTracker(game), truth)
    flicker = [0]

    def seen():
        t = truth.to_table()
        flicker[0] += 1
        if flicker[0] % 2:  # vision sees a tile on an empty wall space every other frame
            t["boards"][0]["wall"][4][4] = "blue"
        return t

    for _ in range(6):
        legal = truth.legal_moves()
        truth.play(legal[rng.randrange(len(legal))])
        for _ in range(6):
            table.frames(1, table=seen())
        assert game.state == truth


def test_the_deal_is_read_even_when_play_starts_as_soon_as_the_displays_are_full():
    truth = new_game(3)
    game = Game.new(3)
    rng = random.Random(41)
    table = Table(MoveTracker(game), truth)
    before = truth.to_table()
    truth.deal_random(rng)
    dealt = truth.to_table()
    # The refill, two displays at a time under the dealer's hand.
    for k in range(0, 7, 2):
        view = copy.deepcopy(dealt)
        view["factories"] = dealt["factories"][:k + 2] + before["factories"][k + 2:]
        table.frames(4, table=view, occluded={("factory", min(k + 1, 6))})
    # The first player reaches for display 7 straight away: it was never seen at rest with its tiles...
    m = next(m for m in truth.legal_moves() if m.source == 6)
    table.frames(1)
    table.frames(3, occluded={("factory", 6), ("board", truth.current_player), ("centre", 0)})
    truth.play(m)
    table.frames(6)
    # ...yet what it held is on the table now: the taken tiles on the board, the leftovers in the centre.
    assert game.state == truth
    assert any("read from the first move" in c for s in table.log for c in s.committed)


def test_a_display_flagged_covered_every_other_frame_but_read_the_same_is_at_rest():
    # Vision flags a display covered for a frame now and then (its glare, a shadow) though nothing touches it: read
    # the same before and after, it was at rest all along, and the deal must not wait for 0.3 s without a flag.
    truth = new_game(2)
    game = Game.new(2)
    truth.deal_random(random.Random(3))
    table = Table(MoveTracker(game), truth)
    for _ in range(5):
        table.frames(1, occluded={("factory", 3)})
        table.frames(1)
    assert game.state == truth


def _a_move_seen_with_a_flickering_centre(flicker_also_when_right: bool, centre_confidence: float | None = None,
                                         frames: int = 12, deal_confidence: float | None = None):
    """A move from a display; afterwards vision reads the centre with a phantom tile on every other frame (and,
    unless `flicker_also_when_right`, correctly in between), never flagging it covered; with `centre_confidence`,
    vision's confidence in each of the centre's counts. With `deal_confidence`, the deal is read by the tracker
    from 8 frames, vision as sure as that of each display's counts (else it is logged unseen)."""
    if deal_confidence is None:
        truth, game, rng = started(seed=4)
        tracker = MoveTracker(game)
    else:
        truth, game = new_game(2), Game.new(2)
        truth.deal_random(random.Random(4))
        tracker = MoveTracker(game)
        for k in range(8):
            obs = observe(truth.to_table())
            obs["details"] = {"factories": [{"count_confidence": {name: deal_confidence for name in COLOUR_NAMES}}
                                            for _ in obs["factories"]]}
            tracker.observe(obs, k / FPS)
        assert game.state == truth
    t = 1.0
    for _ in range(4):
        t += 1 / FPS
        tracker.observe(observe(truth.to_table()), t)
    m = next(m for m in truth.legal_moves() if m.source != CENTRE and m.line != FLOOR)
    hidden = regions_of(truth, m, truth.current_player)
    truth.play(m)
    for _ in range(3):
        t += 1 / FPS
        tracker.observe(observe(truth.to_table(), occluded=hidden), t)
    statuses = []
    for k in range(frames):
        seen = truth.to_table()
        centre = dict(seen["center"])
        if k % 2 or not flicker_also_when_right:
            centre["yellow"] = centre.get("yellow", 0) + 1 + k % 3
        seen["center"] = centre
        obs = observe(seen)
        if centre_confidence is not None:
            obs["details"] = {"center": {"count_confidence": {name: centre_confidence for name in COLOUR_NAMES}}}
        t += 1 / FPS
        statuses.append(tracker.observe(obs, t))
    return truth, game, statuses


def test_a_move_is_committed_though_vision_cannot_settle_on_the_centre_count():
    # The centre is in view and no hand is over it, but a phantom tile comes and goes: it never rests. The board
    # and the display decide the move, and the centre was read as the move leaves it on some frames.
    truth, game, statuses = _a_move_seen_with_a_flickering_centre(flicker_also_when_right=True)
    assert game.state == truth
    assert next(k for k, s in enumerate(statuses) if s.committed) <= 4  # 0.3 s after the board came to rest


def test_an_unsteady_centre_never_read_as_the_move_leaves_it_holds_the_move_back():
    truth, game, statuses = _a_move_seen_with_a_flickering_centre(flicker_also_when_right=False)
    assert game.state != truth and not any(s.committed for s in statuses)
    truth, game, statuses = _a_move_seen_with_a_flickering_centre(flicker_also_when_right=False, centre_confidence=0.9,
                                                                  frames=16, deal_confidence=0.99)
    assert game.state != truth and not any(s.committed for s in statuses)


def test_a_region_vision_keeps_doubting_is_not_waited_on_to_settle():
    # Recorded tuning game 877: a lamp over the centre washed its tiles pale, vision read their colours a different
    # way each frame (and said it was unsure of every count: no surer than 0.6), and every move that left tiles
    # there waited for the centre to come to rest. Counts so doubted weigh little however they read; doubted for a
    # second on end since the hand left, their flicker is the lamp's, not a hand's (recorded tuning game 322: a
    # count doubted for 0.2 s as a tile was still being taken, and a false move when it was not waited on).
    truth, game, statuses = _a_move_seen_with_a_flickering_centre(flicker_also_when_right=False, centre_confidence=0.6,
                                                                  frames=16, deal_confidence=0.99)
    assert game.state == truth
    assert next(k for k, s in enumerate(statuses) if s.committed) == 10  # 1 s after the centre came into view


def test_a_doubted_centre_is_waited_on_for_a_move_from_a_display_never_read_legibly():
    # Recorded tuning game 749: black tiles read white surely on display 2 and on the board alike, display 2 never
    # read better than 0.23 (its deal settled by votes). The centre, where the leftovers went, was the one witness:
    # doubted and not waited on, the move was committed as white. Here the tracker never read the display at all
    # (the deal was logged before it looked).
    truth, game, statuses = _a_move_seen_with_a_flickering_centre(flicker_also_when_right=False, centre_confidence=0.6,
                                                                  frames=16)
    assert game.state != truth and not any(s.committed for s in statuses)
    assert statuses[-1].waiting == "waiting for the centre to be in view and still"


def _part_left_seen_only_in_the_centre(centre_confidence: float):
    """The centre read at `centre_confidence` in every count from the deal on; then a player takes 2 of a display's
    3 tiles of a colour and sweeps the third into the centre with the leftovers (a rule broken that only the centre
    shows), a hand over the display and the board only. -> the tracker and its last status, 1.6 s later."""
    truth, game = new_game(2), Game.new(2)
    truth.deal_random(random.Random(2))  # display 1 holds 3 blue tiles and a red one
    tracker = MoveTracker(game)

    def seen_so(table: dict, **kwargs) -> dict:
        obs = observe(table, **kwargs)
        obs["details"] = {"center": {"count_confidence": {name: centre_confidence for name in COLOUR_NAMES}}}
        return obs

    t = 0.0
    for _ in range(20):
        t += 1 / FPS
        tracker.observe(seen_so(truth.to_table()), t)
    assert game.state == truth
    seen = truth.to_table()
    j, colour = next((j, c) for j, f in enumerate(seen["factories"]) for c, n in f.items() if n >= 3)
    for c, n in seen["factories"][j].items():
        seen["center"][c] = seen["center"].get(c, 0) + (1 if c == colour else n)
    seen["factories"][j] = {}
    seen["boards"][truth.current_player]["pattern_lines"][2] = [colour] * 2
    for _ in range(3):
        t += 1 / FPS
        tracker.observe(seen_so(truth.to_table(), occluded={("factory", j), ("board", truth.current_player)}), t)
    status = None
    for _ in range(16):
        t += 1 / FPS
        status = tracker.observe(seen_so(seen), t)
    return tracker, status


def test_no_alert_rests_on_a_region_vision_has_doubted_in_every_count_for_a_second():
    # Recorded tuning game 877: the centre under a lamp, every count doubted all along, one black tile read there
    # after a player took them all, and "Player 1 left 1 black tile on the centre" was alerted though none was left.
    tracker, status = _part_left_seen_only_in_the_centre(0.99)
    assert tracker.alert is not None and tracker.alert.rule == "part_left"
    tracker, status = _part_left_seen_only_in_the_centre(0.6)
    assert tracker.alert is None and status.waiting == "waiting for the centre to be in view"


def _misread_deal(doubted_confidence: float | None):
    """A fresh 2-player deal seen with one tile missing from a display; vision's per-colour confidence given."""
    truth = new_game(2)
    game = Game.new(2)
    truth.deal_random(random.Random(7))
    seen = truth.to_table()
    j, colour = next((j, c) for j, f in enumerate(seen["factories"]) for c in f if c != "white")
    seen["factories"][j] = dict(seen["factories"][j])
    seen["factories"][j][colour] -= 1
    obs = observe(seen)
    if doubted_confidence is not None:
        sure = {name: 0.99 for name in COLOUR_NAMES}
        sure[colour] = doubted_confidence
        details = [{"count_confidence": dict(sure) if k == j else {n: 0.99 for n in COLOUR_NAMES}}
                   for k in range(len(seen["factories"]))]
        obs["details"] = {"factories": details}
    tracker = MoveTracker(game)
    status = None
    for k in range(6):
        status = tracker.observe(copy.deepcopy(obs), (k + 1) / FPS)
    return truth, game, status, j


def test_a_display_misread_by_one_tile_is_dealt_4_when_vision_says_which_colour_it_doubts():
    truth, game, status, _ = _misread_deal(0.5)
    assert game.state.phase == OFFER and game.state == truth


def test_a_display_misread_without_a_doubted_colour_waits():
    truth, game, status, j = _misread_deal(None)
    assert game.state.phase == DEAL
    assert status.waiting == f"waiting for a clearer view of factory display {j + 1}"


def test_malformed_count_confidence_is_reported_not_raised():
    truth = new_game(2)
    truth.deal_random(random.Random(3))
    obs = observe(truth.to_table())
    obs["details"] = {"factories": [{"count_confidence": {"blue": 7}}] * 5}
    status = MoveTracker(Game.new(2)).observe(obs, 0.1)
    assert status.waiting and "count_confidence" in status.waiting


def test_a_deal_is_not_made_from_an_unsure_reading_but_from_the_clearest_one():
    truth = new_game(2)
    game = Game.new(2)
    truth.deal_random(random.Random(11))
    right = observe(truth.to_table())
    wrong = copy.deepcopy(right)
    first = wrong["factories"][0]["counts"]
    colour = next(iter(first))
    other = next(c for c in COLOUR_NAMES if c != colour)
    first[colour] -= 1
    first[other] = first.get(other, 0) + 1  # one tile misread as another colour: still 4 tiles
    wrong["factories"][0]["confidence"] = 0.6
    tracker = MoveTracker(game)
    t = 0.0
    for _ in range(6):
        t += 1 / FPS
        status = tracker.observe(copy.deepcopy(wrong), t)
    assert game.state.phase == DEAL and status.waiting == "waiting for a clearer view of factory display 1"
    right["factories"][0]["confidence"] = 0.97
    for _ in range(6):
        t += 1 / FPS
        tracker.observe(copy.deepcopy(right), t)
    assert game.state == truth


def _move_then_views(pick, seen, frames: int):
    """A 2-player game: 5 still frames, the move `pick(truth)` made under a hand (3 frames), then `frames` views of
    the table after it, each one changed by `seen(observation, frame index, player, move)` as real vision read it.
    -> (game, truth)"""
    truth, game, _ = started(2, seed=5)
    table = Table(MoveTracker(game), truth)
    table.frames(5)
    player = truth.current_player
    m = pick(truth)
    table.frames(3, occluded=regions_of(truth, m, player))
    truth.play(m)
    for n in range(frames):
        obs = observe(truth.to_table())
        seen(obs, n, player, m)
        table.t += 1 / FPS
        table.log.append(table.tracker.observe(obs, table.t))
    return game, truth


def test_a_slot_vision_reads_two_ways_frame_after_frame_does_not_keep_its_board_from_counting():
    # Real vision (tuning seed 4): an empty slot of pattern line 5 read as white one frame and empty the next, for
    # seconds. The board never looked the same for 0.3 s, and the move onto its pattern line 1 was never committed.
    def seen(obs, n, player, _move):
        lines = obs["boards"][player]["pattern_lines"]
        probs = [[{lines[r][j] if j < len(lines[r]) else "empty": 1.0} for j in range(r + 1)] for r in range(5)]
        probs[4][0] = {"white": 0.9, "empty": 0.1} if n % 2 else {"empty": 1.0}
        obs["boards"][player]["probabilities"] = {"pattern_lines": probs}

    game, truth = _move_then_views(lambda truth: next(m for m in truth.legal_moves() if m.line == 0), seen, 10)
    assert game.state == truth


def test_a_tile_vision_reads_one_colour_then_another_frame_after_frame_counts_as_a_tile():
    # Recorded tuning game 704 (3 players, gray): the white tile just laid on pattern line 1 read white, then blue,
    # each at 1.00, frame after frame for 5 s. The slot never rested, and the move that filled it was never
    # committed. It has rested as a tile all along: the display and the centre tell which colour was taken.
    def seen(obs, n, player, move):
        lines = obs["boards"][player]["pattern_lines"]
        probs = [[{lines[r][j] if j < len(lines[r]) else "empty": 1.0} for j in range(r + 1)] for r in range(5)]
        other = next(c for c in COLOUR_NAMES if c != COLOUR_NAMES[move.colour])
        probs[0][0] = {other if n % 2 else COLOUR_NAMES[move.colour]: 1.0}
        obs["boards"][player]["probabilities"] = {"pattern_lines": probs}

    game, truth = _move_then_views(lambda truth: next(m for m in truth.legal_moves() if m.line == 0), seen, 10)
    assert game.state == truth


def test_a_pattern_line_whose_colour_vision_reads_as_another_is_one_misread_not_three():
    # Real vision (tuning seed 10): three blue tiles on a pattern line read as white in every frame (vision votes
    # one colour for a line's tiles). The display and the centre say blue was taken; the line's colour is one
    # misread, which a commit tolerates, not three.
    def pick(truth):
        return next(m for m in truth.legal_moves()
                    if m.line != FLOOR and m.source != CENTRE and 2 <= truth.factories[m.source][m.colour] <= m.line + 1)

    def seen(obs, _n, player, move):
        seen_as = next(c for c in COLOUR_NAMES if c != COLOUR_NAMES[move.colour])
        line = obs["boards"][player]["pattern_lines"][move.line]
        obs["boards"][player]["pattern_lines"][move.line] = [seen_as] * len(line)

    game, truth = _move_then_views(pick, seen, 8)
    assert game.state == truth


def test_a_colour_vision_reads_as_another_on_two_pattern_lines_of_a_board_is_one_misread():
    # Real vision (tuning seed 10, 3 players, gray): a board's blue tiles read as white in every frame (the board's
    # light), on pattern line 4 and then on pattern line 3. The second move was never committed: two lines read
    # so were two misfits. It is one misread of the board's blue.
    deal = [["blue", "blue", "red", "red"], ["yellow"] * 4, ["blue", "blue", "black", "black"], ["white"] * 4,
            ["red"] * 4]
    truth = new_game(2)
    truth.deal(deal)
    game = Game.new(2)
    game.deal(deal)
    table = Table(MoveTracker(game), truth)

    def seen(frames: int, occluded=()):
        for _ in range(frames):
            view = truth.to_table()
            lines = view["boards"][0]["pattern_lines"]
            view["boards"][0]["pattern_lines"] = [["white" if c == "blue" else c for c in line] for line in lines]
            table.frames(1, table=view, occluded=occluded)

    seen(4)
    for m in (move(0, BLUE, 1), move(1, YELLOW, 3), move(2, BLUE, 2)):
        played_under_a_hand(truth, seen, m)
        seen(8)
    assert game.state == truth


def test_a_count_vision_says_it_is_unsure_of_is_no_contradiction():
    # Real vision (tuning seed 10): the centre read with 2 yellow tiles too many, in every frame, and vision said so:
    # its count of yellow at confidence 0.5-0.67, of every other colour 0.997. That is no reading the move's
    # prediction contradicts, and the move was never committed.
    def seen(obs, _n, _player, _move):
        counts = obs["center"]["counts"]
        extra = next(c for c in COLOUR_NAMES if not counts.get(c))
        counts[extra] = 2
        obs["details"] = {"center": {"count_confidence": {c: 0.6 if c == extra else 0.997 for c in COLOUR_NAMES}}}

    game, truth = _move_then_views(
        lambda truth: next(m for m in truth.legal_moves() if m.source != CENTRE and len(truth.factories[m.source]) > 1),
        seen, 8)
    assert game.state == truth


def test_a_misplacement_is_flagged_though_the_centre_still_reads_the_marker_its_player_took():
    # Recorded tuning game 986 (3 players, gray), round 4: red taken first from the centre onto a line whose wall row
    # holds red, the marker onto the player's floor line, read there at 0.9999; the centre went on reading the marker
    # at 0.8 (a pale tile's shape). The centre was a region the misplacement changed, and its marker a misfit there:
    # no alert. The one marker read surely where the move put it outweighs the centre's reading of it.
    truth, game = _illegal_setup()
    for m in (move(0, RED, 1), move(1, BLUE, 3)):
        truth.play(m)
        game.play(m)
    table = Table(MoveTracker(game), truth)
    table.frames(4)
    # Ana takes the yellow from the centre, the marker with it, and lays the yellow on line 3, which holds blue.
    wrong = _mutated(truth, lambda t: (t["boards"][0]["pattern_lines"].__setitem__(2, ["blue", "yellow"]),
                                       t["boards"][0]["floor"].append("first_player"), t["center"].pop("yellow"),
                                       t.__setitem__("first_player", False)))
    status = None
    for _ in range(6):
        obs = observe(wrong)
        obs["boards"][0]["confidence"] = 0.9999
        obs["center"].update(first_player=True, confidence=0.8)
        table.t += 1 / FPS
        status = table.tracker.observe(obs, table.t)
    assert status.alert is not None and status.alert.rule == "line_other_colour", status
    assert "Ana" in status.alert.reason
    assert len([e for e in game.record.events_in_force() if e["type"] == "move"]) == 2, "nothing more is committed"


def test_a_lone_tile_in_the_centre_read_unsurely_as_the_marker_does_not_hold_the_move_back():
    # Recorded tuning game 747 (4 players, gray): red taken from the centre, its one yellow tile left there long after
    # the first-player marker had gone; vision read that tile as the marker, at confidence 0.5, in every frame, and
    # the move waited 1.9 s for the next one ("the centre does not look as it would after it": no yellow, at 0.88,
    # and the marker). A marker read so unsurely is no contradiction, as an unsure count is not.
    deal = [["red", "red", "yellow", "black"], ["blue", "blue", "white", "white"], ["white"] * 4, ["yellow"] * 4,
            ["black"] * 4]
    truth, game = new_game(2, names=["Ana", "Ben"]), Game.new(2, names=["Ana", "Ben"])
    truth.deal(deal)
    game.deal(deal)
    table = Table(MoveTracker(game), truth)
    table.frames(5)
    for m in (move(0, RED, 1), move(CENTRE, BLACK, 0), move(1, BLUE, 2)):  # Ben takes the marker with the black
        table.frames(3, occluded=regions_of(truth, m, truth.current_player))
        truth.play(m)
        table.frames(5)
    assert game.state == truth
    m = move(CENTRE, WHITE, 2)
    table.frames(3, occluded=regions_of(truth, m, truth.current_player))
    truth.play(m)
    assert truth.to_table()["center"] == {"yellow": 1} and not truth.to_table()["first_player"]
    for _ in range(6):
        obs = observe(truth.to_table())
        obs["center"] = {"counts": {}, "first_player": True, "occluded": False, "confidence": 0.5}
        obs["details"] = {"center": {"count_confidence": {c: 0.88 if c == "yellow" else 0.999 for c in COLOUR_NAMES}}}
        table.t += 1 / FPS
        table.tracker.observe(obs, table.t)
    assert game.state == truth


def test_a_centre_count_flickering_on_a_colour_the_move_leaves_alone_does_not_hold_the_move_back():
    # Real vision (tuning seed 10, 3 players, gray): the centre's yellow read 2, 5, 3, 4... for seconds, where it held
    # 1, and never as the move leaves it; the other colours read right. The centre never rested as a whole, so no
    # move was committed. A move that leaves the centre's yellow alone is decided by the colours read steadily.
    def pick(truth):
        return next(m for m in truth.legal_moves() if m.source != CENTRE and m.line != FLOOR
                    and YELLOW not in truth.factories[m.source] and len(truth.factories[m.source]) > 1)

    def seen(obs, n, _player, _move):
        counts = obs["center"]["counts"]
        counts["yellow"] = counts.get("yellow", 0) + 1 + n % 3

    game, truth = _move_then_views(pick, seen, 10)
    assert game.state == truth


def _undecided(monkeypatch):
    """A tracker whose last search of the table after one move, 0.05 s before t = 1.05, could not decide (from an
    earlier view), counting its searches from now on. -> (tracker, searches, the table after the move, game, truth)"""
    import tracker.inference as inference

    truth, game, _ = started(players=4, seed=5)
    tracker = MoveTracker(game)
    searches = []
    real_search = inference.legal_hypotheses
    monkeypatch.setattr(inference, "legal_hypotheses", lambda *a, **k: searches.append(1) or real_search(*a, **k))
    truth.play(truth.legal_moves()[0])
    moved = truth.to_table()
    view = inference.table_evidence(observe(moved))
    tracker._last_offer_key = (len(game.record.events), inference._in_view(view), "an earlier view")
    tracker._last_offer_at, tracker._last_offer_waiting = 1.0, "not sure yet: 'a' or 'b'"
    tracker._watch.clear()
    return tracker, searches, moved, game, truth


def test_an_undecided_view_is_not_searched_again_on_every_noisy_frame(monkeypatch):
    from tracker.inference import table_evidence

    tracker, searches, moved, game, truth = _undecided(monkeypatch)
    # The camera's next view differs by noise only.
    status = tracker._offer(table_evidence(observe(moved)), 1.05)
    assert status == ([], "not sure yet: 'a' or 'b'") and not searches
    committed, _ = tracker._offer(table_evidence(observe(moved)), 1.05 + tracker.settings.search_interval)
    assert searches and committed and game.state == truth  # searched again, and this view decides


def test_an_undecided_view_is_not_searched_again_when_a_region_only_drops_out_of_view(monkeypatch):
    # Vision flags a display covered one frame in two (real vision, tuning seed 24): each frame had other regions in
    # view, and a stalled game was searched on every one (0.2 s a frame). Seeing less is no news.
    from tracker.inference import table_evidence

    tracker, searches, moved, _, _ = _undecided(monkeypatch)
    less = table_evidence(observe(moved, occluded={("factory", 8)}))
    assert tracker._offer(less, 1.05) == ([], "not sure yet: 'a' or 'b'") and not searches


@pytest.mark.parametrize("board_hidden_frames", [3, 4])
def test_a_board_coming_to_rest_is_searched_at_once_even_just_after_an_undecided_search(board_hidden_frames):
    # The display and the centre are in view at once, the hand still over the board: every search is undecided
    # (which line?). The board's first 0.3 s at rest must commit on that frame, not wait out the search interval.
    truth, game, rng = started(seed=2)
    tracker = MoveTracker(game)
    frame = 0

    def view(occluded=(), hand_over=None):
        # A camera's noise: the displays' confidence differs a little on every frame, so every view is new.
        nonlocal frame
        frame += 1
        obs = observe(truth.to_table(), occluded)
        for display in obs["factories"]:
            display["confidence"] = 0.95 + 0.001 * (frame % 7)
        if hand_over is not None:  # what is read under the hand is the board as it was
            obs["boards"][hand_over[0]] = {**hand_over[1], "occluded": True}
        return tracker.observe(obs, frame / FPS)

    for _ in range(4):
        view()
    player = truth.current_player
    before = truth.to_table()["boards"][player]
    m = next(m for m in truth.legal_moves() if m.source != CENTRE)
    truth.play(m)
    for _ in range(board_hidden_frames):
        view({("board", player)}, hand_over=(player, before))
    statuses = [view() for _ in range(4)]  # the first frame at rest and three more: 0.3 s
    assert [bool(s.committed) for s in statuses] == [False, False, False, True] and game.state == truth


def test_a_stalled_view_is_not_searched_again_each_time_a_flag_comes_back(monkeypatch):
    # Real vision (recorded tuning game 600, 2 players, colored): a board flagged covered for seconds, its move
    # undecided, while displays far from it were flagged covered for a frame now and then. Each display coming
    # back into view was news, and the same view was searched again (about 1 s of tracker time a frame on a loaded
    # machine). A view read as one already searched since the log last changed is searched again only after a
    # while.
    import tracker.inference as inference

    truth, game, _ = started(players=4, seed=5)
    table = Table(MoveTracker(game), truth)
    table.frames(5)
    player = truth.current_player
    m = next(m for m in truth.legal_moves() if m.source != CENTRE and m.line == 0)
    truth.play(m)
    covered = {("board", player)}

    def frame(far_covered: bool) -> TrackerStatus:
        # Every place of the covered board reads otherwise every other frame: a hand moving over it.
        obs = observe(truth.to_table(), occluded=covered | ({("factory", far)} if far_covered else set()))
        if len(table.log) % 2:
            obs["boards"][player].update(pattern_lines=[["white"] * (r + 1) for r in range(5)], floor=["black"] * 7)
        table.t += 1 / FPS
        table.log.append(table.tracker.observe(obs, table.t))
        return table.log[-1]

    far = next(j for j in range(len(truth.factories)) if j != m.source)
    status = [frame(False) for _ in range(6)][-1]
    assert status.waiting.startswith("not sure yet")
    searches = []
    real_search = inference.legal_hypotheses
    monkeypatch.setattr(inference, "legal_hypotheses",
                        lambda *a, **k: searches.append(round(table.t, 3)) or real_search(*a, **k))
    for n in range(8):  # 0.8 s: the far display flagged covered every other frame
        status = frame(n % 2 == 0)
    # The view without the display is searched once at most; neither it nor the view with it again after that.
    assert len(set(searches)) <= 1 and status.waiting.startswith("not sure yet"), searches
    table.frames(5)
    assert game.state == truth


def test_a_stalled_view_re_checks_the_last_moves_once_a_second_not_on_every_frame(monkeypatch):
    # Recorded tuning games 702 and 710, stalled (a board vision lost after a nudge; a guessed deal no view fitted):
    # each frame with a region newly in view re-checked the last moves, two searches 2 and 3 moves deep, half the
    # tracker's time. The same view is re-checked once a second, and at once when something comes into view.
    import tracker.inference as inference

    truth, game, _ = started(players=2, seed=5)
    tracker = MoveTracker(game)
    m = truth.legal_moves()[0]
    truth.play(m)
    game.play(m)
    view = inference.table_evidence(observe(truth.to_table(), occluded={("factory", 2)}))
    searches = []
    real_search = inference.legal_hypotheses
    monkeypatch.setattr(inference, "legal_hypotheses", lambda *a, **k: searches.append(1) or real_search(*a, **k))

    def recheck(evidence, now):
        tracker._recheck(evidence, inference.Scorer(evidence), 0.0, frozenset(), now)
        return len(searches)

    first = recheck(view, 1.0)
    assert first and recheck(view, 1.5) == first
    second = recheck(view, 2.0)
    assert second > first and recheck(view, 2.05) == second
    assert recheck(inference.table_evidence(observe(truth.to_table())), 2.1) > second  # display 3 came into view


def test_a_board_flagged_covered_with_no_hand_over_it_counts_once_it_has_read_the_same_for_a_while():
    # Real vision (recorded tuning game 600, 2 players, colored): board 1 flagged covered with no hand over it from
    # the round's fifth move to its tiling, read right all along. No move onto it was ever seen: the game stalled.
    truth, game, _ = started(2, seed=5)
    table = Table(MoveTracker(game), truth)
    table.frames(5)
    player = truth.current_player
    m = next(m for m in truth.legal_moves() if m.source != CENTRE and m.line == 1)
    table.frames(3, occluded=regions_of(truth, m, player))
    truth.play(m)
    board = {("board", player)}
    status = table.frames(8, occluded=board)  # 0.8 s: it may still be a hand
    assert not status.committed and game.state != truth
    table.frames(4, occluded=board)
    assert game.state == truth


def _a_move_then_a_frame_in_view_then_flagged(in_view_reads_the_move: bool) -> tuple:
    """A move onto a board of a 2-player game; after the hand, the board in view for one frame (reading the move, or
    the board as before it), then flagged covered with no hand over it, reading the move. Returns the truth, the
    tracked game, the table (1 frame after the hand left) and the board as a region."""
    truth, game, _ = started(2, seed=5)
    table = Table(MoveTracker(game), truth)
    table.frames(5)
    player = truth.current_player
    m = next(m for m in truth.legal_moves() if m.source != CENTRE and m.line == 1)
    before = truth.to_table()
    table.frames(3, occluded=regions_of(truth, m, player))
    truth.play(m)
    table.frames(1, table=None if in_view_reads_the_move else {**truth.to_table(), "boards": before["boards"]})
    return truth, game, table, {("board", player)}


def test_a_board_flagged_covered_again_after_a_frame_in_view_counts_once_its_places_have_rested():
    # Recorded tuning game 701 (3 players, colored), 44.8 s: white laid on board 3's pattern line 2; the board, flagged
    # covered under the hand, was in view in the next frame, then flagged again with no hand for 0.8 s, read the same
    # in every frame. Its places then counted only after 1 s (COVER_STEADY_SECONDS): committed 0.9 s after the hand.
    truth, game, table, board = _a_move_then_a_frame_in_view_then_flagged(in_view_reads_the_move=True)
    table.frames(2, occluded=board)
    assert game.state != truth  # 0.2 s since the hand left: not at rest yet
    table.frames(1, occluded=board)
    assert game.state == truth  # at rest, read so in view: 0.3 s after the hand left


def test_a_board_flagged_covered_after_a_frame_in_view_that_read_it_otherwise_waits_for_its_places_to_hold():
    # The frame in view read the board as before the move: what is read under the flag since was never seen in view,
    # and counts only once it has read the same for COVER_STEADY_SECONDS.
    truth, game, table, board = _a_move_then_a_frame_in_view_then_flagged(in_view_reads_the_move=False)
    table.frames(8, occluded=board)
    assert game.state != truth
    table.frames(3, occluded=board)
    assert game.state == truth


def test_a_board_flagged_covered_that_reads_otherwise_frame_after_frame_does_not_count():
    truth, game, _ = started(2, seed=5)
    table = Table(MoveTracker(game), truth)
    table.frames(5)
    player = truth.current_player
    m = next(m for m in truth.legal_moves() if m.source != CENTRE and m.line == 1)
    before = truth.to_table()["boards"][player]
    truth.play(m)
    for n in range(20):  # a hand over it: what is read under it changes from frame to frame
        obs = observe(truth.to_table(), occluded={("board", player)})
        if n % 2:
            obs["boards"][player] = {**before, "occluded": True}
        table.t += 1 / FPS
        table.tracker.observe(obs, table.t)
    assert game.state != truth and len(game.state.boards[player].pattern_count) == 5
    table.frames(5)
    assert game.state == truth


def test_a_display_flagged_covered_that_reads_the_same_tiles_for_a_while_tells_which_display_was_taken_from():
    # Real vision (recorded tuning game 604, 3 players, gray): displays 1 and 2 flagged covered with no hand over
    # them in most frames. Display 2 was taken from and display 6 held the same four tiles: which one was emptied
    # was never seen, and the game stalled at its second move.
    same = ["blue", "blue", "red", "yellow"]
    deal = [same, ["black", "white", "white", "red"], same, ["yellow", "black", "red", "white"],
            ["white", "white", "black", "black"]]
    truth, game = new_game(2), Game.new(2)
    truth.deal(deal)
    game.deal(deal)
    table = Table(MoveTracker(game), truth)
    covered = {("factory", 0), ("factory", 2)}
    table.frames(12, occluded=covered)
    m = move(0, BLUE, 1)
    table.frames(3, occluded=covered | regions_of(truth, m, truth.current_player))
    truth.play(m)
    table.frames(8, occluded=covered)  # the display taken from still reads empty under its flag: it may be a hand
    assert game.state != truth
    table.frames(4, occluded=covered)
    assert game.state == truth


def test_the_centre_flagged_covered_counts_by_its_tiles_when_its_first_player_marker_flickers():
    # Recorded tuning game 711 (4 players, gray): vision flagged the centre covered all game with no hand over it,
    # read its tiles the same for seconds, and the first-player marker there now and then not. The centre never
    # read the same for 1 s, so no move sending tiles to it was committed. The flickering marker is no evidence.
    truth, game, rng = started(seed=3)
    tracker = MoveTracker(game)
    t = 0.0

    def feed(frames: int, occluded=()):
        nonlocal t
        for n in range(frames):
            t += 1 / FPS
            obs = observe(truth.to_table(), {*occluded, ("centre", 0)})
            obs["center"]["first_player"] = n % 3 != 0
            tracker.observe(obs, t)

    feed(12)
    m = next(m for m in truth.legal_moves() if m.source != CENTRE and truth.factories[m.source][m.colour] < 4)
    played_under_a_hand(truth, feed, m)
    feed(5)
    assert game.state != truth  # the centre's new tiles have not read the same for 1 s yet
    feed(10)
    assert game.state == truth


def test_the_centre_flagged_covered_is_in_view_as_soon_as_it_has_read_the_same_for_a_second():
    # Recorded tuning game 711 (4 players, gray), round 1: a move every 1.6 s, the centre flagged covered all game.
    # Read the same for 1 s it counted, then had to rest 0.3 s more, and the next move's hand came first: the first
    # move's leftovers there never told that play had begun, nor what the display taken from unseen had held. Read
    # the same for that second, it has rested.
    truth, game = new_game(2), Game.new(2)
    truth.deal_random(random.Random(5))
    tracker = MoveTracker(game)
    t = 0.0

    def frame():
        nonlocal t
        t += 1 / FPS
        obs = observe(truth.to_table(), {("centre", 0), ("factory", 0)})
        obs["factories"][0]["counts"] = {"red": round(t * FPS) % 2}  # a hand over it: the deal waits
        return tracker.observe(obs, t)

    for _ in range(10):
        assert ("centre", 0) in frame().occluded
    assert ("centre", 0) not in frame().occluded


def _centre_flagged_for_seconds(truth, game):
    """A table whose centre vision has flagged covered in every frame for 5 s (CHRONIC_COVER_SECONDS), no hand
    anywhere. -> (table, the flag)"""
    table = Table(MoveTracker(game), truth)
    flag = {("centre", 0)}
    table.frames(50, occluded=flag)
    return table, flag


def _move_made_while_the_centre_is_flagged():
    """A move from a display, its hand over the display and the player's board, on a table whose centre has been
    flagged for seconds. -> (truth, game, table, the flag, the move)"""
    truth, game, rng = started(seed=3)
    table, flag = _centre_flagged_for_seconds(truth, game)
    m = next(m for m in truth.legal_moves() if m.source != CENTRE and truth.factories[m.source][m.colour] < 4)
    table.frames(3, occluded=flag | regions_of(truth, m, truth.current_player))
    truth.play(m)
    return truth, game, table, flag, m


def test_a_move_is_committed_the_rest_time_after_the_hand_though_vision_has_flagged_the_centre_for_seconds():
    # Recorded tuning game 707 re-scored with the centre flagged covered in every frame (as vision did all game in
    # recorded tuning game 711): each move's leftovers in the centre counted only once read the same for 1 s, and
    # 67 of 73 commits came 0.6-0.8 s after the table came to rest (0 with vision's own flags).
    truth, game, table, flag, m = _move_made_while_the_centre_is_flagged()
    status = table.frames(4, occluded=flag)  # the first frame at rest and three more: 0.3 s
    assert status.committed and game.state == truth


def test_a_move_is_committed_though_vision_has_flagged_the_centre_for_seconds_and_cannot_settle_on_a_count_there():
    # Recorded tuning game 701 re-scored with the centre flagged covered in every frame: in round 1 vision read a
    # black tile there now once, now twice; counted through the flag the centre never read the same for 1 s, and the
    # game stalled. In view, the colours it reads steadily count (see the unsteady centre tests).
    truth, game, table, flag, m = _move_made_while_the_centre_is_flagged()
    committed = []
    for n in range(6):
        seen = truth.to_table()
        if n % 2:
            seen["center"][m.colour] = seen["center"].get(m.colour, 0) + 1  # a phantom tile every other frame
        committed += table.frames(1, table=seen, occluded=flag).committed
    assert committed and game.state == truth


def test_a_centre_flagged_for_seconds_waits_its_second_while_vision_flags_anything_else():
    # A hand is about while anything else is flagged: counted at the rest time with the hand still over a board
    # (recorded tuning game 707, the centre's flag on in every frame), the centre let places forgotten under the
    # hand take the tiles, and black went to the floor line for pattern line 5.
    truth, game, table, flag, m = _move_made_while_the_centre_is_flagged()
    other = next(j for j, f in enumerate(truth.factories) if j != m.source)
    assert not table.frames(4, occluded=flag | {("factory", other)}).committed
    table.frames(7, occluded=flag | {("factory", other)})  # the centre has read the same for 1 s
    assert game.state == truth


def test_an_illegal_placement_is_flagged_though_vision_has_flagged_the_centre_it_sends_leftovers_to_for_seconds():
    # Recorded tuning game 707 re-scored with the centre flagged covered in every frame: none of its 3 misplaced
    # tiles was flagged (all 3 with vision's own flags), an alert needing what the action changed in view.
    truth, game = _illegal_setup()
    table, flag = _centre_flagged_for_seconds(truth, game)
    wrong = _mutated(truth, ILLEGAL["line_other_colour"])
    table.frames(3, table=wrong, occluded={("board", 0), ("factory", 0), ("centre", 0)})
    status = table.frames(4, table=wrong, occluded=flag)  # at rest from the first clear frame: 0.3 s
    assert status.alert is not None and status.alert.rule == "line_other_colour", status
    assert not [e for e in game.record.events_in_force() if e["type"] == "move"], "nothing is committed"


def test_a_table_at_rest_for_the_rest_time_counts_even_when_timestamps_are_frame_numbers():
    # 1207 / 10 - 1204 / 10 is a hair under 0.3: a camera's clock in frames must not need a fifth still frame.
    truth, game, rng = started(seed=2)
    tracker = MoveTracker(game)
    frame = 1200
    for _ in range(3):
        frame += 1
        tracker.observe(observe(truth.to_table()), frame / FPS)
    m = truth.legal_moves()[0]
    hidden = regions_of(truth, m, truth.current_player)
    truth.play(m)
    frame += 1
    tracker.observe(observe(truth.to_table(), occluded=hidden), frame / FPS)
    statuses = []
    for _ in range(4):  # the first frame at rest and three more: 0.3 s
        frame += 1
        statuses.append(tracker.observe(observe(truth.to_table()), frame / FPS))
    assert statuses[-1].committed and game.state == truth


def _misread_display_and_a_move_from_it(seed: int = 5):
    """2 players: the tracker dealt one display with a tile of the wrong colour (vision misread it, surely); the
    player takes the colour the tracker does not know is there. No legal move from the tracker's state explains the
    table. Returns the truth, the tracked game and the move."""
    truth = new_game(2)
    deal = truth.deal_random(random.Random(seed))
    j, colour, other = next((j, c, o) for j, f in enumerate(deal) for c in set(f) if f.count(c) == 1
                            for o in set(f) if o != c)
    believed = [list(f) for f in deal]
    believed[j][believed[j].index(colour)] = other
    game = Game.new(2)
    game.deal(believed)
    m = next(m for m in truth.legal_moves() if m.source == j and m.colour == colour)
    return truth, game, m


def test_a_deal_a_move_contradicts_is_reopened_at_that_display():
    # Real vision (tuning seed 35): a display read with one tile of the wrong colour in all 30 readings, some of them
    # sure. No legal move from the logged deal explains the view once a player takes the colour the log does not
    # have there (the likeliest, another colour from that display, is wrong): the deal is corrected at that display
    # and the move committed, both in the log, once the board has read the move's tile for a second.
    truth, game, m = _misread_display_and_a_move_from_it()
    table = Table(MoveTracker(game), truth)
    table.frames(4)
    hidden = regions_of(truth, m, truth.current_player)
    table.frames(3, occluded=hidden)
    truth.play(m)
    table.frames(12)
    assert game.state == truth and table.log[-1].alert is None
    [correction] = [e for e in game.record.events if e["type"] == "correction"]
    assert correction["reason"].startswith(f"factory display {m.source + 1} held ")


def test_a_deal_misread_at_every_tile_of_a_display_is_reopened_by_the_move_that_takes_from_it():
    # Recorded tuning game 889: under a lamp's glare a display holding 2 blue and 2 black tiles read as 1 black and
    # 3 white, the blue tiles gleaming white; the move that took its blue tiles was never explained. Every other
    # content of the display is tried, each weighed by how sure vision was of its colours.
    truth = new_game(2)
    deal = truth.deal_random(random.Random(5))
    j = next(j for j, f in enumerate(deal) if len(set(f)) >= 2)
    colour = deal[j][0]
    believed = [list(f) for f in deal]
    believed[j] = [next(c for c in range(len(COLOUR_NAMES)) if c not in deal[j])] * 4
    game = Game.new(2)
    game.deal(believed)
    m = next(m for m in truth.legal_moves() if m.source == j and m.colour == colour)
    table = Table(MoveTracker(game), truth)
    table.frames(4)
    table.frames(3, occluded=regions_of(truth, m, truth.current_player))
    truth.play(m)
    table.frames(15)
    assert game.state == truth and table.log[-1].alert is None
    [correction] = [e for e in game.record.events if e["type"] == "correction"]
    assert correction["reason"].startswith(f"factory display {j + 1} held ")


def test_a_board_read_one_colour_then_another_does_not_correct_a_deal_read_clearly():
    # Recorded tuning game 711: display 9 read holding a white tile in 90 frames; the white tile taken to pattern
    # line 1 read blue at 0.98 for 0.3 s, then white, then blue again, for 6 s. The deal was corrected to a blue
    # tile there and the move committed false. A corrected deal overrules every reading of the display: the board
    # that tells must have read the same for a second.
    truth = new_game(2)
    deal = truth.deal_random(random.Random(5))
    j, colour = next((j, c) for j, f in enumerate(deal) for c in set(f) if f.count(c) == 1)
    game = Game.new(2)
    game.deal([list(f) for f in deal])  # read rightly
    m = next(m for m in truth.legal_moves() if m.source == j and m.colour == colour)
    misread = next(c for c in range(len(COLOUR_NAMES)) if c not in deal[j])
    table = Table(MoveTracker(game), truth)
    table.frames(4)
    player = truth.current_player
    table.frames(3, occluded=regions_of(truth, m, player))
    truth.play(m)
    flicker = truth.to_table()
    line = flicker["boards"][player]["pattern_lines"][m.line]
    line[line.index(COLOUR_NAMES[colour])] = COLOUR_NAMES[misread]
    for _ in range(4):
        table.frames(5, flicker)
        table.frames(1)
    table.frames(12)
    assert not [e for e in game.record.events if e["type"] == "correction"]
    assert game.state == truth


def test_a_display_read_only_unsurely_before_it_was_taken_is_dealt_from_the_first_move():
    truth = new_game(2)
    game = Game.new(2)
    truth.deal_random(random.Random(23))
    tracker = MoveTracker(game)
    table = Table(tracker, truth)
    unsure = copy.deepcopy(truth.to_table())
    first = unsure["factories"][0]
    colour = next(iter(first))
    first[colour] -= 1  # one tile missed...
    obs = observe(unsure)
    obs["factories"][0]["confidence"] = 0.6  # ...and vision says it is unsure
    for _ in range(5):
        table.t += 1 / FPS
        table.log.append(tracker.observe(copy.deepcopy(obs), table.t))
    assert game.state.phase == DEAL and table.log[-1].waiting == "waiting for a clearer view of factory display 1"
    # The first player takes from display 1 before vision ever reads it clearly.
    m = next(m for m in truth.legal_moves() if m.source == 0)
    played_under_a_hand(truth, table.frames, m)
    table.frames(6)
    assert game.state == truth


def _flip_colour(counts: dict, n: int) -> dict:
    """Display 2 read one way for half a second, then another (one tile's colour)."""
    if not n // 5 % 2 or not any(counts.values()):
        return counts
    colour = next(c for c, k in counts.items() if k)
    other = next(c for c in COLOUR_NAMES if c != colour)
    return {**counts, colour: counts[colour] - 1, other: counts.get(other, 0) + 1}


def _miss_a_tile(every: int):
    """Display 2 read with one of its tiles missed every `every` frames (every=1: always)."""
    def misread(counts: dict, n: int) -> dict:
        if n % every or not any(counts.values()):
            return counts
        colour = max(counts, key=lambda c: (counts[c], c))
        return {**counts, colour: counts[colour] - 1}
    return misread


def _unsure_display_game(misread=None, seen_at_rest_first: bool = True, rounds_before: int = 0,
                         confidence: float = 0.6, colour_confidence: dict | None = None):
    """A 2-player deal where vision reads display 2 but never surely (`misread` changes the reading of frame n; at
    `confidence`, and per colour at `colour_confidence`); the first player then takes from display 1. Without
    `seen_at_rest_first`, play begins at once; with `rounds_before`, the deal is that many rounds of random legal
    moves into the game (logged, not watched).
    Returns the true game, the tracked one, the last status and a function that feeds the tracker more frames (of
    the true table, or of `table`)."""
    truth = new_game(2)
    game = Game.new(2)
    rng = random.Random(31)
    for _ in range(rounds_before):
        game.deal(truth.deal_random(rng))
        while truth.phase == OFFER:
            m = rng.choice(truth.legal_moves())
            truth.play(m)
            game.play(m)
        truth.tile_walls()
        game.tile_walls()
    truth.deal_random(rng)
    tracker = MoveTracker(game)
    clock = {"t": 0.0, "n": 0}

    def feed(frames: int, occluded=(), table: dict | None = None):
        status = None
        for _ in range(frames):
            clock["t"] += 1 / FPS
            clock["n"] += 1
            obs = observe(table or truth.to_table(), occluded)
            shown = obs["factories"][1]
            if misread is not None:
                shown["counts"] = misread(shown["counts"], clock["n"])
            shown["confidence"] = confidence
            if colour_confidence is not None:
                obs["details"] = {"factories": [{"count_confidence": colour_confidence if j == 1 else {}}
                                                for j in range(len(obs["factories"]))]}
            status = tracker.observe(obs, clock["t"])
        return status

    if seen_at_rest_first:
        status = feed(12)
        assert game.state.phase == DEAL and status.waiting == "waiting for a clearer view of factory display 2"
    m = next(m for m in truth.legal_moves() if m.source == 0)
    played_under_a_hand(truth, feed, m)
    return truth, game, feed(14), feed


def test_an_unsure_display_read_the_same_every_time_is_dealt_once_play_begins():
    # Waiting for a surer view once tiles are being taken would stall the round (the demo stalled 30 s).
    truth, game, _, _ = _unsure_display_game()
    assert game.state == truth


def test_an_unsure_display_read_two_ways_is_dealt_as_a_guess_that_the_move_from_it_settles_once_play_begins():
    # Waiting would stall the round (recorded tuning game 711, round 2: a display read with a red tile in 60
    # readings, a yellow one in 39, all round long). The deal's `unseen` tile says which colours it may be.
    truth, game, _, feed = _unsure_display_game(_flip_colour)
    deal = next(e for e in game.record.events_in_force() if e["type"] == "deal")
    read = _flip_colour(truth.to_table()["factories"][1], 5)
    held = {c: n for c, n in truth.to_table()["factories"][1].items() if n}
    assert game.state.phase == OFFER and deal["unseen"]["factory"] == 1
    assert sorted(deal["unseen"]["colors"]) == sorted(c for c in COLOUR_NAMES if read.get(c, 0) != held.get(c, 0))
    m = next(m for m in truth.legal_moves() if m.source == 1)
    played_under_a_hand(truth, feed, m)
    feed(10)
    assert game.state == truth


def test_an_unsure_display_read_the_same_for_half_a_second_is_dealt_when_it_is_taken_from_first():
    # Real vision (tuning seed 22): a display read right in every frame but below 1/3 confidence, and taken from
    # by the first move after 7 readings at rest; the centre, where its leftovers went, read right but as unsurely.
    # The first move cannot tell what the display held, and its readings at rest were all there would ever be.
    truth = new_game(2)
    game = Game.new(2)
    truth.deal_random(random.Random(31))
    tracker = MoveTracker(game)
    t = 0.0

    def feed(frames: int, occluded=()):
        nonlocal t
        status = None
        for _ in range(frames):
            t += 1 / FPS
            obs = observe(truth.to_table(), occluded)
            obs["factories"][1]["confidence"] = 0.3
            obs["center"]["confidence"] = 0.3
            status = tracker.observe(obs, t)
        return status

    status = feed(8)
    assert game.state.phase == DEAL and status.waiting == "waiting for a clearer view of factory display 2"
    assert len(truth.factories[1]) > 1  # leftovers go to the centre
    m = next(m for m in truth.legal_moves() if m.source == 1)
    played_under_a_hand(truth, feed, m)
    feed(10)
    assert game.state == truth


def test_a_display_flagged_covered_all_round_is_dealt_from_the_frames_it_read_the_same():
    # Recorded tuning game 701 (3 players, colored): vision flagged display 4 covered with no hand over it from the
    # deal until it was taken from, read right but at confidence 0.2 (what it gives a covered region). A hand
    # reaching past it for the round's first move broke its steady reading; it counted again 1 s later, was at rest
    # and read so in 4 frames, and was taken from: never 5 votes, and the first move (another display) could not say what it held.
    # The round's deal was never made. A reading that counts through a cover flag has held in every frame of that
    # second: each is a vote.
    truth = new_game(2)
    game = Game.new(2)
    truth.deal_random(random.Random(31))
    tracker = MoveTracker(game)
    t = 0.0

    def feed(frames: int, occluded=(), garbled: bool = False):
        nonlocal t
        for _ in range(frames):
            t += 1 / FPS
            obs = observe(truth.to_table(), {*occluded, ("factory", 1)})
            shown = obs["factories"][1]
            shown["confidence"] = 0.2
            if garbled:
                shown["counts"] = {c: n + 1 for c, n in shown["counts"].items()}
            tracker.observe(obs, t)

    feed(8)
    first = next(m for m in truth.legal_moves() if m.source == 0)
    played_under_a_hand(truth, feed, first, garbled=True)
    feed(16)
    assert game.state.phase == OFFER
    second = next(m for m in truth.legal_moves() if m.source == 1)
    played_under_a_hand(truth, feed, second)
    feed(12)
    assert game.state == truth


def test_a_display_flagged_covered_every_other_frame_and_read_a_tile_short_now_and_then_is_dealt_once_play_begins():
    # Recorded tuning game 710 (3 players, gray): vision flagged display 5 covered every other frame with no hand
    # over it, and read it whole or a tile short in the frames between: it never rested, so it was never read at
    # rest, nor unsteady (uncovered for the rest time), and its readings were no votes. The round's deal was never
    # made. Every uncovered reading of a display is a vote, at rest or not.
    truth = new_game(2)
    game = Game.new(2)
    truth.deal_random(random.Random(31))

    def misread(obs, n, occluded):
        shown = obs["factories"][1]
        if n % 4 == 2:
            shown["counts"] = _miss_a_tile(every=1)(shown["counts"], n)
        shown["confidence"] = 0.2 if n % 2 else 0.6

    feed = misread_feed(truth, MoveTracker(game), lambda n: {("factory", 1)} if n % 2 else set(), misread)
    feed(12)
    first = next(m for m in truth.legal_moves() if m.source == 0)
    played_under_a_hand(truth, feed, first)
    feed(12)
    assert game.state == truth


@pytest.mark.parametrize("next_at_once", [False, True])
def test_a_display_taken_from_unseen_while_another_is_read_two_ways_is_dealt_from_the_first_move(next_at_once):
    # Recorded tuning game 711 (4 players, gray), round 1: display 5 flagged covered from the deal until it was taken
    # from first (never read), and display 3 read with a red tile in 3 frames of 5, a yellow one in the others. Two
    # unclear displays, and the first move could tell what only one of them held: the deal was never made. Display
    # 3 is dealt as its readings most agree with, its tile a guess (`unseen`) that the move from it settles. A move
    # came every 1.6 s: the first move's view may be seen at rest only once the next one is made.
    truth = new_game(2)
    game = Game.new(2)
    truth.deal([["blue", "blue", "black", "white"], ["blue", "red", "blue", "black"], ["yellow", "yellow", "red", "white"],
                ["black", "white", "white", "yellow"], ["red", "red", "yellow", "black"]])

    def misread(obs, n, occluded):
        shown = obs["factories"][1]
        if shown["counts"] and n % 5 < 2:
            shown["counts"] = {**shown["counts"], "red": 0, "yellow": 1}
        shown["confidence"] = 0.2
        if ("factory", 0) in occluded:
            obs["factories"][0]["counts"] = {}  # the hand taking from it

    feed = misread_feed(truth, MoveTracker(game), lambda n: {("factory", 0)} if truth.factories[0] else set(),
                        misread)
    feed(8)  # display 1 read the same under its cover flag, but not for the second that would count
    first = move(0, BLACK, 2)
    played_under_a_hand(truth, feed, first)
    if next_at_once:
        feed(2)
        at_once = move(3, WHITE, 1)
        played_under_a_hand(truth, feed, at_once)
    feed(15)
    assert game.state == truth
    deal = next(e for e in game.record.events_in_force() if e["type"] == "deal")
    assert deal["unseen"] == {"factory": 1, "colors": ["red", "yellow"]}
    second = move(1, RED, 0)
    played_under_a_hand(truth, feed, second)
    feed(8)
    assert game.state == truth


def test_a_display_flagged_covered_in_every_frame_and_never_read_the_same_for_a_second_is_dealt_once_play_begins():
    # Recorded tuning game 711 (4 players, gray), round 2: vision flagged display 9 covered with no hand over it from
    # the deal until it was taken from, and read it right but for one tile missed every few frames: never the same
    # for the second that counts it through the flag, never read in view, no vote. The deal was never made. Its
    # covered readings are its votes; then the move from it (read empty under the flag) is committed as any other.
    truth = new_game(2)
    game = Game.new(2)
    truth.deal_random(random.Random(31))

    def misread(obs, n, occluded):
        shown = obs["factories"][1]
        if n % 4 == 0:
            shown["counts"] = _miss_a_tile(every=1)(shown["counts"], n)
        shown["confidence"] = 0.2

    feed = misread_feed(truth, MoveTracker(game), lambda n: {("factory", 1)}, misread)

    feed(12)
    first = next(m for m in truth.legal_moves() if m.source == 0)
    played_under_a_hand(truth, feed, first)
    feed(10)
    assert game.state == truth
    second = next(m for m in truth.legal_moves() if m.source == 1)
    played_under_a_hand(truth, feed, second)
    feed(15)
    assert game.state == truth


@pytest.mark.parametrize("whole_now_and_then", [True, False])
def test_a_display_flagged_covered_all_round_and_read_a_different_tile_short_each_time_is_dealt_by_its_covered_readings(
        whole_now_and_then):
    # Recorded tuning game 714 (4 players, colored), round 2: vision flagged display 8 covered with no hand over it
    # all round and read it a tile short, now its white tile missed, now its black one (82 and 66 frames, whole in 8):
    # its only votes were the frames of one reading held a second under the flag, a tile short, and they settled
    # nothing; with display 7 read a tile short at rest, two displays were unclear and the deal was never made. A
    # display never read in view is settled by its covered readings, all of them; read whole or not, the one content
    # they are all a tile short of.
    truth = new_game(2)
    game = Game.new(2)
    truth.deal([["blue", "blue", "black", "white"], ["black", "black", "white", "white"], ["yellow"] * 4,
                ["red"] * 4, ["red", "red", "yellow", "black"]])

    def misread(obs, n, occluded):
        shown = obs["factories"][0]
        if shown["counts"]:
            # The same for over a second, then now one missed, now the other, now and then none.
            missed = "white" if n < 12 or n % 3 else "black"
            if whole_now_and_then and n >= 12 and n % 7 == 0:
                missed = None
            if missed:
                shown["counts"] = {**shown["counts"], missed: shown["counts"][missed] - 1}
            shown["confidence"] = 0.2
        short = obs["factories"][1]
        if short["counts"]:
            short["counts"] = {**short["counts"], "white": short["counts"]["white"] - 1}  # at rest, surely

    feed = misread_feed(truth, MoveTracker(game), lambda n: {("factory", 0)} if truth.factories[0] else set(),
                        misread)

    feed(20)
    first = move(1, BLACK, 1)
    played_under_a_hand(truth, feed, first)
    feed(15)
    assert game.state == truth
    second = move(0, BLUE, 1)
    played_under_a_hand(truth, feed, second)
    feed(15)
    assert game.state == truth


@pytest.mark.parametrize("other_way_round", [False, True])
def test_the_views_before_a_late_deal_tell_two_moves_ending_at_the_same_table_apart(other_way_round):
    # Recorded tuning game 711 (4 players, gray), round 3: the deal was read only after the first two moves, red
    # from displays 3 and 8, two each, to pattern lines 2 and 5: either order ends at the same table, and the view
    # between, seen before the deal was made, was forgotten once it was. The round stalled.
    truth, game, (first, second) = _blue_twice()
    game = Game.new(2)
    if other_way_round:
        first, second = second, first
    table = Table(MoveTracker(game), truth)
    garbled = truth.to_table()
    garbled["factories"][2] = {"white": 2}  # a hand over display 3 all the while
    hand = {("factory", 2)}
    table.frames(4, garbled, occluded=hand)
    truth.play(first)
    # Player 1's hand is still over the board and the centre, but display 1 is seen empty and display 2 still full.
    garbled = truth.to_table()
    garbled["factories"][2] = {"white": 1}
    table.frames(6, garbled, occluded={*hand, ("board", 0), ("centre", 0)})
    truth.play(second)
    garbled = truth.to_table()
    garbled["factories"][2] = {"white": 3}
    table.frames(4, garbled, occluded=hand)
    assert game.state.phase == DEAL
    table.frames(8)
    moves = [(e["player"], e["factory"]) for e in game.record.events_in_force() if e["type"] == "move"]
    assert game.state == truth and moves == [(0, first.source), (1, second.source)]


def test_a_display_read_a_tile_short_now_and_then_is_dealt_whole_once_play_begins():
    # A real look: a white tile on the display's rosette seen one frame in two, the display never at rest. The
    # readings agree with one 4-tile content only; and tiles in the centre say play has begun, although the
    # display taken from first was read at rest only once.
    truth, game, _, _ = _unsure_display_game(_miss_a_tile(every=2), seen_at_rest_first=False)
    assert game.state == truth


def test_a_display_always_read_a_tile_short_is_dealt_with_a_guess_that_the_move_from_it_corrects():
    # No reading tells the fourth tile's colour. Once play has begun, waiting would stall the round: the display is
    # dealt with the colour the bag most likely gave (here wrongly: not the yellow missed), and the view after the
    # move that takes from it corrects the deal, in the log.
    truth, game, _, feed = _unsure_display_game(_miss_a_tile(every=1))
    held = sorted(COLOUR_NAMES[c] for c, n in truth.factories[1].items() for _ in range(n))
    deal = next(e for e in game.record.events_in_force() if e["type"] == "deal")
    assert game.state.phase == OFFER and sorted(deal["factories"][1]) != held
    # The log says which tile was guessed and what else it may be (a restarted tracker reads it there).
    assert deal["unseen"]["factory"] == 1 and "yellow" in deal["unseen"]["colors"][1:]
    m = next(m for m in truth.legal_moves() if m.source == 1)
    played_under_a_hand(truth, feed, m)
    feed(10)
    assert game.state == truth
    assert [e["reason"] for e in game.record.events if e["type"] == "correction"] == [
        "factory display 2 held 1 blue, 2 yellow, 1 white, as the move that took from it shows"]



def test_a_guessed_deal_is_corrected_though_vision_misses_the_first_player_marker_beside_the_leftovers():
    # Recorded tuning game 360 (4 players, colored), round 1, under a lamp: display 1's yellow tile read as no colour
    # in every reading, and the display was dealt as a guess holding a black tile for it. The view after the move
    # from it (white to a line, blue, blue and yellow to the centre) fitted the corrected deal 14 nats better than
    # the logged one and 10 better than any other content, but vision missed the first-player marker among the
    # leftovers in the centre: a misread both deals share. The correction waited for a view without it, which never
    # came, and no move of the game was committed. A correction fits the view as a move must (_misfit).
    truth, game, _, feed = _unsure_display_game(_miss_a_tile(every=1))
    m = next(m for m in truth.legal_moves() if m.source == 1)
    played_under_a_hand(truth, feed, m)
    seen = truth.to_table()
    assert seen["first_player"]
    seen["first_player"] = False
    feed(10, table=seen)
    assert game.state == truth
    assert [e["reason"] for e in game.record.events if e["type"] == "correction"] == [
        "factory display 2 held 1 blue, 2 yellow, 1 white, as the move that took from it shows"]


def test_what_vision_read_surely_on_a_guessed_display_weighs_in_the_deal_correction():
    # Recorded tuning game 360 again: the white tile taken from display 1 lay on a pattern line under the lamp, read
    # white at 0.77 and every other colour at 0.06, no more telling than that: black taken instead, the leftovers
    # the same, fitted the view 2.6 nats worse, short of the margin. But vision had read a white tile on the display
    # at 0.998 in its readings: the guess overruled that reading, and so did every content that put a black tile in
    # its place. The readings of a guessed display weigh in its correction as any display's do (_read_as).
    sure = {c: 0.3 if c == "yellow" else 0.99 for c in COLOUR_NAMES}
    truth, game, _, feed = _unsure_display_game(_miss_a_tile(every=1), colour_confidence=sure)
    deal = next(e for e in game.record.events_in_force() if e["type"] == "deal")
    assert deal["unseen"]["factory"] == 1 and truth.factories[1][WHITE] == 1
    m = next(m for m in truth.legal_moves() if m.source == 1 and m.colour == WHITE and m.line == 0)
    player = truth.current_player
    played_under_a_hand(truth, feed, m)
    seen = truth.to_table()
    doubted = {c: 0.0575 for c in [*COLOUR_NAMES, "empty"]}
    lines = seen["boards"][player]["pattern_lines"]
    seen["boards"][player]["probabilities"] = {"pattern_lines": [
        [{**doubted, "empty": 0.0, "white": 0.77} if r == 0 else
         {**{c: 0.0 for c in doubted}, (lines[r][k] if k < len(lines[r]) else "empty"): 1.0} for k in range(r + 1)]
        for r in range(5)]}
    feed(10, table=seen)
    assert game.state == truth
    assert [e["reason"] for e in game.record.events if e["type"] == "correction"] == [
        "factory display 2 held 1 blue, 2 yellow, 1 white, as the move that took from it shows"]


def test_a_move_from_a_display_dealt_with_a_guess_waits_until_what_it_changed_fits_exactly():
    # Recorded check game 728 (3 players, gray), round 1: display 4 dealt with a black tile guessed for a white one;
    # white taken to a pattern line read holding 2 whites (1 as guessed) was committed from the guess, one
    # difference allowed, while the centre read the guess's extra black: the deal was never corrected. Here the
    # yellow the readings always missed is taken while the centre reads as the guessed deal leaves it.
    truth, game, _, feed = _unsure_display_game(_miss_a_tile(every=1))
    m = next(m for m in truth.legal_moves() if m.source == 1 and COLOUR_NAMES[m.colour] == "yellow" and m.line == 2)
    assert truth.factories[1][m.colour] == 2
    guessed = game.state.copy()
    guessed.play(m)
    logged = len(game.record.events_in_force())
    played_under_a_hand(truth, feed, m)
    seen = truth.to_table()
    seen["center"] = guessed.to_table()["center"]
    feed(10, table=seen)
    assert len(game.record.events_in_force()) == logged, "committed from the guessed deal"
    feed(20)  # a view searched is searched again after STALE_SEARCH_INTERVAL however like the last it reads
    assert game.state == truth

def _glare(counts: dict, n: int) -> dict:
    """Display 2 read as 1 or 2 black tiles while it holds any (a lamp's glare washes it out), empty when empty."""
    return {"black": 1 + n % 2} if any(counts.values()) else counts


def test_a_display_washed_out_by_glare_is_dealt_as_a_guess_that_the_move_from_it_corrects():
    # Recorded tuning game 703 (2 players, gray): a lamp's glare washed display 2 out in every round; vision read
    # it as 1 or 2 black tiles at confidence below 0.1 while it held its 4 tiles (and empty, surely, once taken),
    # so the first deal was never made and no move of the game was committed. Once play has begun, the display is
    # dealt with a guess, all 4 tiles of it, and the view after the move that takes from it tells what it held.
    truth, game, _, feed = _unsure_display_game(_glare, confidence=0.05)
    deal = next(e for e in game.record.events_in_force() if e["type"] == "deal")
    assert game.state.phase == OFFER and deal["unseen"] == {"factory": 1, "tiles": 4}
    held = sorted(COLOUR_NAMES[c] for c, n in truth.factories[1].items() for _ in range(n))
    while truth.phase == OFFER and truth.factories[1]:
        m = next((m for m in truth.legal_moves() if m.source == 1), None) if truth.current_player == 0 else None
        m = m or next(m for m in truth.legal_moves() if m.source != 1)
        played_under_a_hand(truth, feed, m)
        feed(10)
        assert game.state.to_table()["boards"] == truth.to_table()["boards"]  # the guess lies where no move looked yet
    assert game.state == truth
    deal = next(e for e in game.record.events_in_force() if e["type"] == "deal")
    assert sorted(deal["factories"][1]) == held and "unseen" not in deal
    assert [e["reason"] for e in game.record.events if e["type"] == "correction"][0].startswith(
        "factory display 2 held")


def test_a_display_never_read_surely_is_reopened_after_it_was_taken_from_when_its_leftovers_tell():
    # Recorded tuning game 961 (2 players, gray), round 1: under a lamp's glare display 5's blue tiles read as white
    # in every reading (confidence 0.05-0.46), and the deal settled on those readings. The move that took its
    # yellow was committed; the blue it left in the centre was then taken to a line read blue, which nothing from
    # the logged deal explained, and the round stalled at its fourth move: only a display the log still held tiles
    # on was re-checked. Here vision reads display 2's blue tile as white, on the display and in the centre alike,
    # white at 0.75 (as there): fairly sure, so the correction waits for the board that tells to read the same a
    # while, but no longer than the rest time: the next hand came a second after the table rested.
    def white_for_blue(counts: dict, n: int) -> dict:
        return {**{c: k for c, k in counts.items() if c != "blue"}, "white": counts.get("white", 0) + 1} \
            if counts.get("blue") else counts

    truth, game, _, feed = _unsure_display_game(white_for_blue, confidence=0.3,
                                                colour_confidence={c: 0.75 if c in ("blue", "white") else 0.99
                                                                   for c in COLOUR_NAMES})
    deal = next(e for e in game.record.events_in_force() if e["type"] == "deal")
    assert sorted(deal["factories"][1]) == ["white", "white", "yellow", "yellow"] and "unseen" not in deal

    def misread_centre() -> dict:
        table = truth.to_table()
        table["center"] = white_for_blue(table["center"], 0)
        return table

    m = move(1, YELLOW, 1)
    feed(3, occluded=regions_of(truth, m, truth.current_player))
    truth.play(m)
    feed(10, table=misread_centre())
    assert [e["color"] for e in game.record.events_in_force() if e["type"] == "move"][1:] == ["yellow"]
    played_under_a_hand(truth, feed, move(CENTRE, BLUE, 2))
    frames = 0
    while game.state != truth and frames < 20:
        feed(1)
        frames += 1
    assert game.state == truth and frames <= 6  # within 0.6 s of the table coming to rest
    assert [e["reason"] for e in game.record.events if e["type"] == "correction"] == [
        "factory display 2 held 1 blue, 2 yellow, 1 white, as the move that took from it shows"]


def test_a_deal_correction_waiting_on_its_board_is_not_lost_when_the_next_hand_comes():
    # Recorded tuning game 988 (2 players, colored), round 1, as vision read it: display 3 read surely with a white
    # tile for one of its 2 blacks. The blacks taken read on their line at once; the deal's correction, overruling
    # that sure reading, waited for the line to read the same a second, and then display 4 came into view 0.1 s
    # after a re-check (searched again only a second later), and the next hand came first; later re-checks searched
    # that display one move deep, the move since included. The round stalled at its fourth move.
    recorded = json.loads(gzip.decompress((DATA / "deal_988.json.gz").read_bytes()))
    game = Game.new(recorded["players"], recorded["variant"], start_player=recorded["start_player"])
    tracker = MoveTracker(game)
    for observation in recorded["observations"]:
        tracker.observe(observation, observation["timestamp"])
    moves = _logged_moves(game)
    assert moves == recorded["true_moves"][:5]
    assert [e["reason"] for e in game.record.events if e["type"] == "correction"] == [
        "factory display 3 held 1 red, 2 black, 1 white, as the move that took from it shows"]


def test_a_display_read_empty_at_rest_is_not_guessed_from_a_hand_over_it():
    # Recorded tuning game 720 (4 players, colored), round 4: display 4 never read at better than even odds and
    # display 2 always read a tile short, both unclear, so no guess; display 4 was taken from and read empty for
    # 3 s; then, a hand holding tiles over it (read as on it), display 2 was read whole once: display 4 was guessed
    # whole from the hand's frames, wrongly. Taken from, the moves say what it held. (Here display 3 is not read
    # at all until then: two unclear displays are dealt as guesses, see the next test.)
    truth = new_game(2)
    game = Game.new(2)
    truth.deal_random(random.Random(5))
    tracker = MoveTracker(game)
    view = {"hand": None, "whole": False}

    def misread(obs, n, occluded):
        washed, short = obs["factories"][1], obs["factories"][2]
        if any(washed["counts"].values()):
            washed["counts"] = {"black": 1, "red": 1}
        elif view["hand"]:
            washed["counts"] = view["hand"]  # a hand's tiles over the empty display, not flagged
        washed["confidence"], short["confidence"] = 0.05, 0.6
        if not view["whole"]:
            short["counts"], short["occluded"] = {}, True  # flagged covered, read nothing

    feed = misread_feed(truth, tracker, lambda n: (), misread)
    feed(12)
    for source in (0, 1):
        played_under_a_hand(truth, feed, next(m for m in truth.legal_moves() if m.source == source))
        feed(14)
    view["hand"] = {"blue": 2, "white": 1}
    feed(5)
    view["whole"] = True
    feed(8)
    view["hand"] = None
    feed(14)
    deal = next(e for e in game.record.events_in_force() if e["type"] == "deal")
    assert "unseen" not in deal
    assert game.state == truth


@pytest.mark.parametrize("seed", [3, 5])
def test_two_unclear_displays_are_dealt_as_guesses_that_the_moves_from_them_correct(seed):
    # Recorded tuning game 720 (4 players, colored), round 4: display 2 always read a tile short and display 4 never
    # read at better than even odds; a guess was made only for one unclear display, so the round waited, was dealt 6 s
    # and 4 moves late, and never followed. Both are dealt as guesses once play begins (the log's `unseen` lists
    # them), and the move from each corrects its own, never through a move from the other's guess.
    truth = new_game(2)
    game = Game.new(2)
    truth.deal_random(random.Random(seed))
    tracker = MoveTracker(game)

    def misread(obs, n, occluded):
        washed, short = obs["factories"][1], obs["factories"][2]
        washed["counts"], washed["confidence"] = _glare(washed["counts"], n), 0.05
        if any(short["counts"].values()):
            colour = next(c for c, k in short["counts"].items() if k)
            short["counts"] = {**short["counts"], colour: short["counts"][colour] - 1}

    feed = misread_feed(truth, tracker, lambda n: (), misread)
    played, play = recording_moves(truth, feed)
    feed(12)
    play(next(m for m in truth.legal_moves() if m.source == 0))
    feed(14)
    deal = next(e for e in game.record.events if e["type"] == "deal")
    assert [g["factory"] for g in deal["unseen"]] == [2, 1] and deal["unseen"][1]["tiles"] == 4
    while truth.factories[1] or truth.factories[2]:
        play(next(m for m in truth.legal_moves() if m.source in (1, 2)))
        feed(12)
    assert game.state == truth
    moves = [e for e in game.record.events_in_force() if e["type"] == "move"]
    assert [(e["player"], e["factory"], e["color"]) for e in moves] == played


def test_three_unclear_displays_are_dealt_as_guesses_once_play_has_gone_on_a_while():
    # Recorded tuning game 801 (4 players, gray), round 1: under a lamp's glare three displays' black tiles read as
    # white or not at all in nearly every frame (one display read two tiles short, one a tile short and one tile off,
    # one taken from within a second); no guess covered three unclear displays and the round, and so the game, was
    # never dealt. Once play has gone on a while, every unclear display is dealt whole as a guess, and the move
    # from each tells what it held.
    truth = new_game(2)
    game = Game.new(2)
    truth.deal_random(random.Random(7))
    tracker = MoveTracker(game)

    def misread(obs, n, occluded):
        for j in (1, 3):
            washed = obs["factories"][j]
            washed["counts"], washed["confidence"] = _glare(washed["counts"], n + j), 0.05
        short = obs["factories"][2]
        if sum(short["counts"].values()) == 4:
            kept = sorted(c for c, k in short["counts"].items() for _ in range(k))[2:]
            short["counts"] = {c: kept.count(c) for c in set(kept)}
            short["confidence"] = 0.6

    feed = misread_feed(truth, tracker, lambda n: (), misread)
    played, play = recording_moves(truth, feed, then=14)
    feed(12)
    play(next(m for m in truth.legal_moves() if m.source == 0))
    assert game.state.phase == DEAL  # not yet: the displays may still be read clearly
    play(next(m for m in truth.legal_moves() if m.source == 4))
    deal = next((e for e in game.record.events if e["type"] == "deal"), None)
    assert deal is not None, "never dealt"
    assert sorted(g["factory"] for g in deal["unseen"]) == [1, 2, 3]
    while truth.phase == OFFER and any(truth.factories[j] for j in (1, 2, 3)):
        play(next(m for m in truth.legal_moves() if m.source in (1, 2, 3)))
    assert game.state == truth
    moves = [e for e in game.record.events_in_force() if e["type"] == "move"]
    assert [(e["player"], e["factory"], e["color"]) for e in moves] == played


def _a_display_read_with_a_white_tile_for_its_black():
    """A 2-player deal whose display 2 is read surely with 2 white tiles for its black and white ones, logged so,
    vision doubting its black and whites (as in recorded tuning game 720), and the red taken from it to
    pattern line 2 under a hand. -> (truth after the move, game, the state before it, feed(frames, black_sure):
    views of the table, the centre's black read surely or not)."""
    truth = new_game(2)
    game = Game.new(2)
    deal = [["blue", "yellow", "red", "black"], ["black", "white", "red", "red"], ["blue", "blue", "yellow", "white"],
            ["yellow", "red", "black", "white"], ["blue", "yellow", "yellow", "black"]]
    truth.deal([[COLOUR_NAMES.index(c) for c in f] for f in deal])
    tracker = MoveTracker(game)
    clock = {"t": 0.0}

    def feed(frames: int, occluded=(), black_sure: bool = True):
        for _ in range(frames):
            clock["t"] += 1 / FPS
            obs = observe(truth.to_table(), occluded)
            obs["details"] = {}
            if obs["factories"][1]["counts"]:
                obs["factories"][1]["counts"] = {"white": 2, "red": 2}  # its black read as white, surely
                doubts = {"black": 0.1, "white": 0.9}  # its black, and so its whites' count, doubted
                obs["details"]["factories"] = [{"count_confidence": doubts if j == 1 else {}} for j in range(5)]
            if not black_sure:
                obs["details"]["center"] = {"count_confidence": {"black": 0.3}}
            tracker.observe(obs, clock["t"])

    feed(12)
    logged = next(e for e in game.record.events if e["type"] == "deal")
    assert sorted(logged["factories"][1]) == ["red", "red", "white", "white"]
    m = next(m for m in truth.legal_moves() if m.source == 1 and COLOUR_NAMES[m.colour] == "red" and m.line == 1)
    before = game.state.copy()
    played_under_a_hand(truth, feed, m)
    return truth, game, before, feed


def test_a_move_from_a_display_read_wrong_waits_while_its_other_content_fits_better():
    # Recorded tuning game 720 (4 players, colored), round 4: display 5 read surely with 2 white tiles for a black
    # and a white one. Red taken from it was committed with the centre's white one too few, one difference allowed,
    # while the centre's black was not yet read surely; the log's centre then held a white tile for the black one
    # and a false alert followed. Here the same: nothing is committed while the display's other content fits
    # better, and once the centre is read surely the deal is corrected and the move committed.
    truth, game, before, feed = _a_display_read_with_a_white_tile_for_its_black()
    feed(15, black_sure=False)
    assert game.state in (before, truth), "committed from the misread deal"
    feed(25)
    assert game.state == truth


def test_a_deal_correction_does_not_wait_on_a_place_either_deal_fills_alike():
    # Recorded tuning game 720, round 4: the centre read display 5's black tile at once, but the correction waited
    # a second for the board place the red tiles filled, which either content of the display fills alike; the next
    # hand came first, and the round was never followed. The place tells nothing between the two deals.
    truth, game, _, feed = _a_display_read_with_a_white_tile_for_its_black()
    frames = 0
    while game.state != truth and frames < 12:
        feed(1)
        frames += 1
    assert game.state == truth and frames <= 6  # within 0.6 s of the table coming to rest


def _one_tile_misread(confidence: float):
    """A 2-player deal whose display j holds one tile of `colour`, read in every view as `other` (a colour the
    display does not hold), vision `confidence` sure of those two colours' counts. Returns truth, game, feed, j and
    colour (feed as misread_feed's)."""
    truth = new_game(2)
    deal = truth.deal_random(random.Random(5))
    j, colour, other = next((j, c, o) for j, f in enumerate(deal) for c in set(f) if f.count(c) == 1
                            for o in range(len(COLOUR_NAMES)) if o not in f)
    read = {name: n for name, n in truth.to_table()["factories"][j].items() if name != COLOUR_NAMES[colour]}
    read[COLOUR_NAMES[other]] = 1
    sure = {name: confidence if name in (COLOUR_NAMES[colour], COLOUR_NAMES[other]) else 0.99 for name in COLOUR_NAMES}
    game = Game.new(2)

    def misread(obs, n, occluded) -> None:
        if truth.factories[j]:
            obs["factories"][j]["counts"] = read
        obs["details"] = {"factories": [{"count_confidence": sure if k == j else {}} for k in range(len(deal))]}

    feed = misread_feed(truth, MoveTracker(game), lambda n: (), misread)
    feed(6)
    assert game.state.phase == OFFER and game.state.factories[j][other] == 1  # dealt as read
    return truth, game, feed, j, colour


def test_a_deal_read_unsurely_is_corrected_as_soon_as_the_table_rests():
    # Recorded tuning game 951 (4 players, gray), round 1: display 8 read 2 yellow and 1 red, each at times below
    # 0.1, for 1 yellow and 2 red. The red tiles taken from it, the correction fitted all in view at once, but waited
    # for board 3 to read the same for a second, as one overruling a sure reading must (recorded tuning game 711,
    # test_a_board_read_one_colour_then_another_does_not_correct_a_deal_read_clearly); the next hand came 0.9 s
    # after the table rested, and the round was never followed. Readings that unsure overrule nothing.
    truth, game, feed, j, colour = _one_tile_misread(0.3)
    played_under_a_hand(truth, feed, next(m for m in truth.legal_moves() if m.source == j and m.colour == colour))
    frames = 0
    while game.state != truth and frames < 20:
        feed(1)
        frames += 1
    assert game.state == truth and frames <= 6  # within 0.6 s of the table coming to rest


def test_the_tile_misread_taken_commits_nothing_and_the_next_move_does_not_lose_the_correction():
    # Recorded tuning game 951 (4 players, gray), round 1: display 1 read a red tile as yellow, yellow at 0.8 at
    # best. With the misread tile the one taken, the move from the logged deal (the other colour to the same line)
    # differs from the view in one board place, which a commit allows: it was committed the moment the table
    # rested. And the correction, overruling that fair reading, waits for the board to read the same a second; the
    # next hand came first, and the re-check's beam kept only the 6 best first moves: the one from the emptied
    # display, its few tiles, scored below moves from the display emptied after it, and was never continued.
    truth, game, feed, j, colour = _one_tile_misread(0.8)
    dealt = game.state.copy()
    played_under_a_hand(truth, feed, next(m for m in truth.legal_moves() if m.source == j and m.colour == colour))
    feed(5)  # half a second at rest: the correction waits, and no move is committed from the misread deal
    assert game.state == dealt
    played_under_a_hand(truth, feed, next(m for m in truth.legal_moves() if m.source not in (j, CENTRE)))
    frames = 0
    while game.state != truth and frames < 40:
        feed(1)
        frames += 1
    assert game.state == truth


def test_a_deal_read_surely_is_not_corrected_by_a_tile_vision_only_misses_elsewhere():
    # Recorded tuning game 745 (2 players, gray), round 4: display 3 read 3 blue and a yellow, every colour at 0.999,
    # in 30 readings. Blue was taken from it; the yellow sent to the centre lay beside the first-player marker, and
    # vision read the two as the marker alone, no yellow at 0.999 and a black only doubted (0.24). The deal was
    # corrected to a black tile on display 3, which the view then explained to the last tile: the log's centre held
    # a black tile for the yellow one, and the round stalled 21 moves from its end. A correction overrules the
    # display's readings, which weigh as evidence too: one tile the view only misses does not outweigh them.
    truth = new_game(2)
    game = Game.new(2)
    truth.deal([["blue", "yellow", "red", "black"], ["blue", "blue", "blue", "yellow"], ["red", "red", "black", "white"],
                ["yellow", "red", "black", "white"], ["blue", "white", "white", "black"]])
    tracker = MoveTracker(game)
    clock = {"t": 0.0}

    def feed(frames: int, occluded=(), misread: bool = False):
        for _ in range(frames):
            clock["t"] += 1 / FPS
            obs = observe(truth.to_table(), occluded)
            obs["details"] = {"factories": [{"count_confidence": {c: 0.999 for c in COLOUR_NAMES}}] * 5}
            if misread:  # the yellow beside the marker read as the marker alone
                obs["center"] = {"counts": {}, "first_player": True, "occluded": False, "confidence": 0.2}
                obs["details"]["center"] = {"count_confidence": {**{c: 0.999 for c in COLOUR_NAMES}, "black": 0.24}}
            tracker.observe(obs, clock["t"])

    feed(12)
    assert game.state.phase == OFFER
    before = game.state.copy()
    played_under_a_hand(truth, feed, move(1, BLUE, 3))
    feed(20, misread=True)
    assert not [e for e in game.record.events if e["type"] == "correction"]
    assert game.state in (before, truth), "committed from a corrected, false deal"
    feed(10)
    assert game.state == truth


def test_a_tile_misplaced_from_a_display_washed_out_by_glare_is_flagged():
    # Recorded tuning game 703, round 2: the first move from the washed-out display put its white tile on a line
    # holding blue. No alert: the illegal action, played from the guessed deal, left the wrong leftovers in the
    # centre, and the deal was re-checked against legal moves only.
    truth, game, _, feed = _unsure_display_game(_glare, confidence=0.05)
    assert game.state.phase == OFFER and truth.factories[1] == {BLUE: 1, YELLOW: 2, WHITE: 1}
    for m in (move(3, BLUE, 2), move(4, RED, 1)):  # Ben's blue on line 3 (room for one more), then Ana's red
        played_under_a_hand(truth, feed, m)
        feed(10)
    m = move(1, WHITE, 0)
    played_under_a_hand(truth, feed, m)
    wrong = truth.to_table()
    wrong["boards"][1]["pattern_lines"][0], wrong["boards"][1]["pattern_lines"][2] = [], ["blue", "blue", "white"]
    status = feed(10, table=wrong)
    assert status.alert is not None and status.alert.rule == "line_other_colour", status
    status = feed(10)  # put right
    assert status.alert is None and game.state == truth


def test_the_tile_guessed_on_a_display_always_read_a_tile_short_is_one_the_bag_still_holds():
    # Recorded tuning game 710 (3 players, gray), round 5: the tile was guessed from the bag and the lid together,
    # but the bag held enough for the whole deal and its last black tiles lay on the other displays; the deal with
    # a black tile more, which the rules reject, was tried for the rest of the game. Round 5 of a 2-player game
    # deals the bag's last 20 tiles: the tile never seen can only be the one the bag has left.
    truth, game, _, _ = _unsure_display_game(_miss_a_tile(every=1), rounds_before=4)
    assert truth.round == 5 and sum(truth.bag) == 0 and sum(truth.lid)
    assert game.state == truth


def test_a_display_read_a_tile_short_surely_and_taken_from_first_is_read_from_the_move():
    # Recorded tuning game 714 (4 players, colored), round 3: display 2 (2 black, blue, red) was read without one of
    # its black tiles at 0.88 in the 7 frames before the first move took its black: sure enough to be kept, too few
    # readings to guess the tile, and, being sure, never taken for a display the first move must tell. The round
    # waited for a clearer view of an empty display for good.
    truth = new_game(2)
    game = Game.new(2)
    truth.deal([["blue", "blue", "black", "white"], ["black", "blue", "black", "red"],
                ["yellow", "yellow", "red", "white"], ["black", "white", "white", "yellow"], ["red", "red", "yellow", "black"]])

    def misread(obs, n, occluded):
        shown = obs["factories"][1]
        if shown["counts"].get("black"):
            shown["counts"] = {**shown["counts"], "black": shown["counts"]["black"] - 1}

    feed = misread_feed(truth, MoveTracker(game), lambda n: set(), misread)
    feed(6)
    assert game.state.phase == DEAL
    first = move(1, BLACK, 1)
    played_under_a_hand(truth, feed, first)
    feed(10)
    assert game.state == truth


SHORT_DEAL = [["blue", "blue", "yellow", "red"], ["yellow", "yellow", "black", "white"],
              ["blue", "red", "black", "white"], ["blue", "yellow", "red", "black"], ["white"]]


@pytest.mark.parametrize("seen", ["two read unsurely", "one flagged covered", "one flagged covered, a hand on 5"])
def test_a_deal_the_bag_and_lid_run_short_of_is_settled_by_readings_as_a_full_one_is(seen):
    # Recorded tuning games 717 (4 players, gray) and 702 (4 players, colored), round 5: the bag and lid held 33 and
    # 30 tiles, the last displays were dealt short, and displays read unsurely were never settled by their readings
    # (only a full deal's were): 717's displays 7 and 8, read right at 0.2 confidence (a white tile missed now and
    # then) all round, stalled the game for good; 702's display 5, flagged covered all round with no hand over it,
    # was counted through only 4 moves into the round, too late to follow them. Display 5 is dealt one tile here, or
    # none while a hand over it is read as 4 yellow tiles under its cover flag: they settle nothing.
    hand = seen.endswith("hand on 5")
    deal = [*SHORT_DEAL[:4], [] if hand else SHORT_DEAL[4]]
    truth = new_game(2)
    game = Game.new(2)
    for state in (truth, game.state):
        state.bag, state.lid = [4, 4, 3, 3, 2 if hand else 3], [0] * 5
    truth.deal(deal)
    unsure = [1, 2] if seen == "two read unsurely" else [3]

    def misread(obs, n, occluded):
        for j in unsure:
            shown = obs["factories"][j]
            if shown["counts"] and n % 4 == 0:
                shown["counts"] = {**shown["counts"], "white" if j < 3 else "red": 0}
            shown["confidence"] = 0.2
        if hand and n % 5:
            obs["factories"][4]["counts"] = {"yellow": 4}

    flagged = set() if seen == "two read unsurely" else {("factory", 3)}
    if hand:
        flagged.add(("factory", 4))
    feed = misread_feed(truth, MoveTracker(game), lambda n: flagged, misread)
    feed(12)
    assert game.state.phase == DEAL
    first = move(0, BLUE, 1)
    played_under_a_hand(truth, feed, first)
    feed(12)
    assert game.state == truth
    logged = next(e for e in game.record.events_in_force() if e["type"] == "deal")
    assert logged["factories"] == [sorted(f, key=COLOUR_NAMES.index) for f in deal] and "unseen" not in logged


def test_a_display_taken_from_before_it_was_seen_is_read_from_the_move_though_the_marker_is_missed():
    # Display 1 was covered from the deal until a player had taken from it; vision also misses the first-player
    # marker in the centre (a cream marker on a pale table). The first move still says what the display held:
    # one misread element is within what any commit tolerates.
    truth = new_game(2)
    game = Game.new(2)
    truth.deal_random(random.Random(31))
    table = Table(MoveTracker(game), truth)
    m = next(m for m in truth.legal_moves() if m.source == 0)
    table.frames(8, occluded={("factory", 0)})
    played_under_a_hand(truth, table.frames, m)
    seen = truth.to_table()
    seen["first_player"] = False
    table.frames(10, seen)
    assert game.state == truth


def test_a_refill_seen_after_a_whole_round_went_by_unseen_is_not_taken_for_the_missed_deal():
    # The tracker saw round 1 tiled, then nothing (stopped, or the camera blind) until round 3's refill: those
    # displays are no round 2 deal. The walls, which change only at a tiling, say that a round went by.
    rng = random.Random(7)
    truth, game = new_game(2), Game.new(2)
    game.deal(truth.deal_random(rng))

    def play_out_round(record: bool) -> None:
        while truth.phase == OFFER:
            m = rng.choice(truth.legal_moves())
            if record:
                game.play(m)
            truth.play(m)
        truth.tile_walls()

    play_out_round(record=True)
    game.tile_walls()
    truth.deal_random(rng)
    play_out_round(record=False)
    truth.deal_random(rng)
    table = Table(MoveTracker(game), truth)
    status = table.frames(20)
    assert game.state.phase == DEAL and game.state.round == 1
    assert "a round went by unseen" in status.waiting


def test_two_wall_tiles_misread_for_a_moment_do_not_hold_the_deal_back_for_good():
    # A board's wall read with two tiles the game has not placed, at rest for half a second during the deal (a
    # misread: glare on the printed wall), then read right: the deal goes on. It waited for a person before.
    truth, game = new_game(2), Game.new(2)
    truth.deal_random(random.Random(3))
    table = Table(MoveTracker(game), truth)
    misread = truth.to_table()
    misread["boards"][0]["wall"][0][0] = misread["boards"][0]["wall"][1][1] = "blue"
    displays = {("factory", j) for j in range(len(truth.factories))}
    status = table.frames(6, misread, occluded=displays)
    assert game.state.phase == DEAL and "checking the walls" in status.waiting
    table.frames(10)
    assert game.state == truth


def _blue_twice():
    """Player 1 takes the one blue of factory display 1 and Player 2 the one blue of display 2, both into pattern
    line 1: the other way round (Player 1 from display 2, Player 2 from display 1) ends at the very same table."""
    deal = [["blue", "red", "red", "yellow"], ["blue", "black", "black", "white"], ["white"] * 4, ["yellow"] * 4,
            ["red"] * 4]
    truth = new_game(2)
    truth.deal(deal)
    game = Game.new(2)
    game.deal(deal)
    return truth, game, (move(0, BLUE, 0), move(1, BLUE, 0))


def test_two_histories_like_the_same_table_are_both_found():
    from tracker.hypotheses import histories_like
    from tracker.table_model import table_model

    truth, _, moves = _blue_twice()
    start = truth.copy()
    for m in moves:
        truth.play(m)
    found = histories_like(start, table_model(truth))
    assert {h.moves for h in found} == {moves, moves[::-1]}


@pytest.mark.parametrize("other_way_round", [False, True])
def test_a_view_on_the_way_tells_two_histories_like_the_same_table_apart(other_way_round):
    truth, game, (first, second) = _blue_twice()
    if other_way_round:
        first, second = second, first
    table = Table(MoveTracker(game), truth)
    table.frames(4)
    # Player 1's hand is still over the board and the centre, but display 1 is seen empty and display 2 still full.
    truth.play(first)
    status = table.frames(6, occluded={("board", 0), ("centre", 0)})
    assert game.state.current_player == 0 and not status.committed
    truth.play(second)
    table.frames(6)
    moves = [(e["player"], e["factory"]) for e in game.record.events_in_force() if e["type"] == "move"]
    assert game.state == truth and moves == [(0, first.source), (1, second.source)]


def test_two_histories_like_the_same_table_with_nothing_seen_between_wait_for_a_person():
    truth, game, (first, second) = _blue_twice()
    tracker = MoveTracker(game)
    table = Table(tracker, truth)
    table.frames(4)
    truth.play(first)
    truth.play(second)  # both while the camera was blind
    status = table.frames(8)
    assert len(game.record.events_in_force()) == 1, "a guess was committed"
    assert status.waiting.startswith("not sure yet:")
    assert "Player 1: blue from factory display 1" in status.waiting
    assert "Player 1: blue from factory display 2" in status.waiting
    # A person says which: the tracker follows on from there.
    tracker.correct(0, [{"type": "move", "player": p, **m.to_json()} for p, m in ((0, first), (1, second))])
    truth.play(next(m for m in truth.legal_moves() if m.source == 2))
    table.frames(6)
    assert game.state == truth


@pytest.mark.parametrize("seen_on_the_way", [False, True])
@pytest.mark.parametrize("other_way_round", [False, True])
def test_a_misread_move_is_corrected_only_to_a_history_the_views_tell_apart(other_way_round, seen_on_the_way):
    truth, game, (first, second) = _blue_twice()
    if other_way_round:
        first, second = second, first
    tracker = MoveTracker(game)
    # The tracker committed Player 1's move from the right display but misread it (the other colour there).
    misread = RED if first.source == 0 else BLACK
    game.play(move(first.source, misread, 1))
    table = Table(tracker, truth)
    truth.play(first)
    if seen_on_the_way:
        table.frames(6, occluded={("board", 0), ("centre", 0)})
    truth.play(second)
    status = table.frames(8)
    moves = [(e["player"], e["factory"], e["color"]) for e in game.record.events_in_force() if e["type"] == "move"]
    if seen_on_the_way:
        assert game.state == truth and moves == [(0, first.source, "blue"), (1, second.source, "blue")]
    else:
        assert moves == [(0, first.source, COLOUR_NAMES[misread])], "a correction guessed"
        assert status.waiting.startswith("not sure yet:") and "in place of the last 1 move(s)" in status.waiting


def test_histories_to_the_same_boards_and_displays_are_told_apart_by_the_centre():
    # Player 1 takes the black of display 5 and Player 2 the blue of the centre onto a full floor line, or
    # Player 1 the black of the centre and Player 2 the blue of display 5: the boards and displays end the same,
    # only the centre (where the leftovers went) tells them apart.
    from tracker.hypotheses import histories_like
    from tracker.table_model import table_model

    truth, game, rng = started(seed=21)
    for _ in range(6):
        m = truth.legal_moves()[rng.randrange(len(truth.legal_moves()))]
        truth.play(m)
        game.play(m)
    played = (move(4, BLACK, 1), move(CENTRE, BLUE, FLOOR))
    other = (move(CENTRE, BLACK, 1), move(4, BLUE, FLOOR))
    start = truth.copy()
    for m in played:
        truth.play(m)
    assert {h.moves for h in histories_like(start, table_model(truth))} == {played, other}
    Table(MoveTracker(game), truth).frames(6)
    assert [(e["factory"], e["color"]) for e in game.record.events_in_force()[-2:]] == [(4, "black"), (None, "blue")]
    assert game.state == truth
