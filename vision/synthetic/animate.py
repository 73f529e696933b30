"""Whole rendered games: bots play a legal game through the rules tracker, and the table is animated as people
play it.

For each move a hand reaches over the source, carries the tiles across (the leftovers of a factory display
sliding to the centre meanwhile) and covers the board while it lays them; then the table is still. Now and then
a player lays tiles on a line the rules forbid, leaves them a moment, and fixes them. At round end each board is
tiled one tile at a time under a hand, its score cube advancing, then the floor is cleared; the start player
refills the factory displays a few at a time.

Every frame comes with its ground truth: the table view of what physically lies on the table (tiles in a hand
or sliding are listed separately), which regions are occluded, and the event under way. The true move log is
written in the tracker's game-log format, so `tracker.game.Game.from_events` replays it.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from tracker import CENTRE, DEAL, FLOOR, GRAY, OFFER, OVER, WALL_TILING, GameState, Move, new_game
from tracker import move as make_move
from tracker.tiles import COLOUR_NAMES
from vision.synthetic.bots import choose_move, gray_column_chooser, tiles_taken
from vision.synthetic.hands import SKIN_TONES, SLEEVES, Hand
from vision.synthetic.layout import BoardPlace, Piece
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer


@dataclass(frozen=True)
class Pace:
    """Frames per stage of the animation (at 10 fps, one frame is 0.1 s of play)."""

    reach: int = 1  # the hand over the source, before the tiles go
    carry: int = 1  # the hand on its way, holding the tiles; leftovers sliding to the centre
    place: int = 1  # the hand over the board, tiles laid
    still: int = 1  # the table at rest after a move
    misplaced_still: int = 2  # an illegal placement left on the table before it is fixed
    factories_per_deal_frame: int = 3
    deal_still: int = 1  # the dealt table at rest before the first player reaches (people look before choosing)
    setup_frames: int = 3  # the empty table at the start (for references of the empty boards)
    end_frames: int = 3
    misplace_probability: float = 0.06
    nudge_probability: float = 0.0  # per move: the placing hand bumps the player's board
    nudge_max_mm: float = 15.0  # how far a nudge slides a board (and how far from its set-up place it gets)
    nudge_max_deg: float = 4.0  # how far a nudge turns it (likewise)


# People at a real table: a hand over each move for ~0.6 s, then the table still ~1 s while the next player looks
# it over; the new deal looked at for ~1 s; a misplacement left for ~0.8 s before it is fixed; one move in ten
# bumps the board; the final table looked over for ~2 s (the winner read off the score track). (Pace() packs a
# 4-player game into ~40 s: quick to render, too quick to follow.)
PEOPLE_PACE = Pace(reach=2, carry=2, place=2, still=10, misplaced_still=8, deal_still=10, end_frames=20,
                   misplace_probability=0.06, nudge_probability=0.1)


@dataclass
class Shot:
    """One frame to render: what lies on the table, hands, pieces in motion, and what is happening."""

    view: dict
    event: dict
    hands: tuple[Hand, ...] = ()
    moving: tuple[Piece, ...] = ()
    in_hand: dict | None = None  # colour -> count held, not on the table
    marker_holder: int | None = None  # the first-player marker lies in front of this player
    boards: tuple[BoardPlace, ...] = ()  # where the boards lie (stamped by `shots`)


@dataclass
class SimFrame:
    index: int
    time: float
    image: np.ndarray
    truth: dict


@dataclass
class _Player:
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]


class GameAnimation:
    """A seeded, rendered game. Iterate `frames()`; `log` holds the true move log (filled as frames go)."""

    def __init__(self, players: int, seed: int, variant: str = "colored", look: Look | None = None,
                 fps: float = 10.0, pace: Pace = Pace()) -> None:
        if players not in (2, 3, 4):
            raise ValueError(f"classic Azul is for 2, 3 or 4 players, not {players}")
        self.players = players
        self.seed = seed
        self.variant = variant
        self.fps = fps
        self.pace = pace
        self.look = look or Look.random(seed, 1280, 720)
        self.renderer = Renderer(players, variant, self.look, seed)
        self.rng = random.Random(seed)
        self.log: list[dict] = []
        self._people = [_Player(self.rng.choice(SKIN_TONES), self.rng.choice(SLEEVES)) for _ in range(players)]
        # Nudges draw from their own stream: turning them on does not change the game or the hands.
        self._nudge_rng = random.Random(f"nudge {seed}")
        self._offsets = [(0.0, 0.0, 0.0)] * players  # each board's slide (mm) and turn (rad) from its set-up place
        self.boards: list[BoardPlace] = list(self.renderer.home.boards)  # where the boards lie now

    # ---- rendering --------------------------------------------------------------------------------------
    def frames(self) -> Iterator[SimFrame]:
        renderer = self.renderer
        for index, shot in enumerate(self.shots()):
            renderer.move_boards(shot.boards)
            salt = shot.event.get("round", 0)
            pieces = renderer.pieces(shot.view, shot.marker_holder, salt) + list(shot.moving)
            rendered = renderer.render(pieces, shot.hands)
            truth = {
                "frame": index,
                "time": round(index / self.fps, 4),
                "table": shot.view,
                "occluded": rendered.occluded,
                "occluded_fraction": {k: (round(v, 4) if isinstance(v, float) else [round(x, 4) for x in v])
                                      for k, v in rendered.occluded_fraction.items()},
                "in_hand": shot.in_hand,
                "moving": [p.kind for p in shot.moving],
                "first_player_held_by": shot.marker_holder,
                "board_corners": [np.round(c, 3).tolist() for c in renderer.board_corners()],
                "event": shot.event,
            }
            yield SimFrame(index, index / self.fps, rendered.image, truth)

    # ---- the script -------------------------------------------------------------------------------------
    def shots(self) -> Iterator[Shot]:
        """The whole game as frames to render (playing the game as it goes), each with the boards' poses."""
        for shot in self._script():
            shot.boards = tuple(self.boards)
            yield shot

    def _script(self) -> Iterator[Shot]:
        rng = self.rng
        pace = self.pace
        state = new_game(self.players, self.variant, start_player=rng.randrange(self.players))
        self.log.append({"type": "setup", "game": "azul", "version": 1, "players": self.players,
                         "variant": self.variant, "names": [], "start_player": state.start_player})
        holder: int | None = None
        for _ in range(pace.setup_frames):
            yield Shot(state.to_table(), {"type": "setup", "round": 0}, marker_holder=state.start_player)
        holder = state.start_player
        while state.phase != OVER:
            if state.phase == DEAL:
                yield from self._deal(state, holder)
                holder = None
            elif state.phase == OFFER:
                yield from self._move(state)
            elif state.phase == WALL_TILING:
                holder = yield from self._tiling(state)
        final = state.to_table()
        end = {"type": "end", "round": state.round, "final_scores": [b.score for b in state.boards],
               "winners": state.winners()}
        self.log.append({**end})
        for _ in range(pace.end_frames):
            yield Shot(final, end, marker_holder=holder)

    def _hand(self, player: int, target, holding: bool = False, motion=(0.0, 0.0)) -> Hand:
        person = self._people[player]
        return Hand((float(target[0]), float(target[1])), self.renderer.table.seats[player], person.skin,
                    person.sleeve, lift_mm=self.rng.uniform(40, 75), spread=self.rng.random() * 0.6,
                    motion_px=motion, holding=holding)

    def _line_target(self, player: int, line: int):
        layout = self.renderer.placer.layout
        board = self.boards[player]
        if line == FLOOR:
            return board.at(0.35, layout.floor_y)
        u = layout.pattern_x0 - layout.step_x * line / 2
        return board.at(u, layout.wall(line, 0)[1])

    def _wall_target(self, player: int, row: int, column: int):
        return self.boards[player].at(*self.renderer.placer.layout.wall(row, column))

    def _source_target(self, state: GameState, move: Move):
        if move.source != CENTRE:
            return self.renderer.table.factories[move.source]
        tiles = [p for p in self.renderer.placer.centre_pieces(state.to_table()["center"], state.centre_has_marker)
                 if p.kind == COLOUR_NAMES[move.colour]]
        if not tiles:
            return (0.0, 0.0)
        return (float(np.mean([p.x for p in tiles])), float(np.mean([p.y for p in tiles])))

    def _motion(self, a, b, share: float = 0.25):
        pa, pb = self.renderer.camera.project(np.array([[a[0], a[1], -60.0], [b[0], b[1], -60.0]]))
        return tuple(float(v) for v in (pb - pa) * share)

    def _deal(self, state: GameState, holder: int | None) -> Iterator[Shot]:
        dealer = state.start_player
        before = state.to_table()
        deal = state.deal_random(self.rng)
        self.log.append({"type": "deal", "factories": [[COLOUR_NAMES[c] for c in f] for f in deal]})
        after = state.to_table()
        event = {"type": "deal", "round": state.round, "player": dealer}
        per = max(1, self.pace.factories_per_deal_frame)
        count = len(after["factories"])
        for done in range(per, count + per, per):
            view = copy.deepcopy(after)
            view["factories"] = after["factories"][: min(done, count)] + before["factories"][min(done, count):]
            target = self.renderer.table.factories[min(done, count) - 1]
            yield Shot(view, {**event, "factories_dealt": min(done, count)}, (self._hand(dealer, target),))
        for _ in range(max(1, self.pace.deal_still)):
            yield Shot(after, {**event, "factories_dealt": count})

    def _move(self, state: GameState) -> Iterator[Shot]:
        pace = self.pace
        player = state.current_player
        chosen = choose_move(state, self.rng)
        before = state.to_table()
        colour = COLOUR_NAMES[chosen.colour]
        count = tiles_taken(state, chosen)
        source_xy = self._source_target(state, chosen)
        wrong_line = self._misplacement(state, chosen)
        state_before = state.copy()
        state.play(chosen)
        self.log.append({"type": "move", "player": player, **chosen.to_json()})
        after = state.to_table()
        event = {"type": "move", "round": state.round, "player": player, "move": chosen.to_json(),
                 "description": str(chosen)}
        took_marker = before["first_player"] and not after["first_player"]
        in_hand = {colour: count, **({"first_player": 1} if took_marker else {})}

        for _ in range(pace.reach):
            yield Shot(before, {**event, "stage": "reach"}, (self._hand(player, source_xy),))

        # Carrying: the source is emptied; a factory's leftovers slide towards their places in the pile.
        mid = copy.deepcopy(before)
        mid["factories"] = after["factories"]
        mid["first_player"] = after["first_player"]
        if chosen.source == CENTRE:
            mid["center"] = after["center"]
        moving: list[Piece] = []
        if chosen.source != CENTRE:
            leftovers = [c for c, n in before["factories"][chosen.source].items() if c != colour for _ in range(n)]
            if leftovers:
                starts = [p for p in self.renderer.placer.factory_pieces(chosen.source, before["factories"][chosen.source],
                                                                          state.round) if p.kind != colour]
                ends = self.renderer.placer.preview_new_centre_tiles(after["center"])
                for start in starts:
                    end = next((e for e in ends if e.kind == start.kind), None)
                    if end is None:
                        continue
                    ends.remove(end)
                    moving.append(Piece(start.kind, (start.x + end.x) / 2, (start.y + end.y) / 2,
                                        (start.angle + end.angle) / 2, start.size, start.height, 0.8))
        destination = self._line_target(player, wrong_line if wrong_line is not None else chosen.line)
        for k in range(pace.carry):
            share = (k + 1) / (pace.carry + 1)
            at = (source_xy[0] + (destination[0] - source_xy[0]) * share,
                  source_xy[1] + (destination[1] - source_xy[1]) * share)
            hand = self._hand(player, at, holding=True, motion=self._motion(source_xy, destination))
            yield Shot(mid, {**event, "stage": "carry"}, (hand,), tuple(moving), in_hand)

        nudge = self._nudge(player)
        if nudge:  # the hand bumps the board as it lays the tiles
            event = {**event, "nudge": nudge}
            destination = self._line_target(player, wrong_line if wrong_line is not None else chosen.line)

        if wrong_line is None:
            for _ in range(pace.place):
                yield Shot(after, {**event, "stage": "place"}, (self._hand(player, destination),))
            for _ in range(pace.still):
                yield Shot(after, {**event, "stage": "done"})
            return

        # An illegal placement, left a moment, then fixed.
        wrong = copy.deepcopy(after)
        wrong["boards"][player] = _place(before["boards"][player], colour, count, wrong_line, took_marker)
        problem = state_before.explain_illegal(make_move(chosen.source, chosen.colour, wrong_line))
        illegal = {**event, "stage": "misplaced", "illegal_line": wrong_line,
                   "rule": getattr(problem, "rule", None), "explanation": str(problem) if problem else None}
        for _ in range(pace.place):
            yield Shot(wrong, illegal, (self._hand(player, destination),))
        for _ in range(pace.misplaced_still):
            yield Shot(wrong, illegal)
        fixed_at = self._line_target(player, chosen.line)
        yield Shot(after, {**event, "stage": "fix"}, (self._hand(player, fixed_at),))
        for _ in range(pace.still):
            yield Shot(after, {**event, "stage": "done"})

    def _nudge(self, player: int) -> dict | None:
        """Sometimes the placing hand bumps the board: it slides and turns a little, within `nudge_max_*` of
        its set-up place (half the old offset plus a fresh push, so no nudge and no drift exceeds the limits);
        never onto another board or a factory display."""
        pace, rng = self.pace, self._nudge_rng
        if pace.nudge_probability <= 0 or rng.random() >= pace.nudge_probability:
            return None
        ox, oy, oturn = self._offsets[player]
        table_now = dataclasses.replace(self.renderer.home, boards=tuple(self.boards))
        for _ in range(5):
            direction = rng.uniform(0, 2 * math.pi)
            push = rng.uniform(0.2, 0.5) * pace.nudge_max_mm
            turn = math.radians(rng.choice((-1, 1)) * rng.uniform(0.1, 0.5) * pace.nudge_max_deg)
            offset = (ox / 2 + push * math.cos(direction), oy / 2 + push * math.sin(direction), oturn / 2 + turn)
            place = self.renderer.home.boards[player].moved(*offset)
            if table_now.room_for(player, place):
                self._offsets[player] = offset
                self.boards[player] = place
                return {"board": player, "offset_mm": [round(offset[0], 3), round(offset[1], 3)],
                        "turn_deg": round(math.degrees(offset[2]), 3)}
        return None

    def _misplacement(self, state: GameState, chosen: Move) -> int | None:
        """Sometimes a player lays tiles on a line the rules forbid: a line of another colour or one whose wall
        row already has the colour (the mistakes players make)."""
        if self.rng.random() >= self.pace.misplace_probability:
            return None
        board = state.boards[state.current_player]
        candidates = [
            line for line in range(5)
            if line != chosen.line and board.pattern_count[line] < line + 1
            and state.explain_illegal(make_move(chosen.source, chosen.colour, line)) is not None
        ]
        return self.rng.choice(candidates) if candidates else None

    def _tiling(self, state: GameState) -> Iterator[Shot]:
        """Wall tiling board by board, a tile at a time; returns who holds the first-player marker after it."""
        view = state.to_table()
        held_marker = [("first_player" in b["floor"]) for b in view["boards"]]
        marker_in_centre = view["first_player"]
        chooser = gray_column_chooser(self.rng) if self.variant == GRAY else None
        columns: list[list[int | None]] = [[None] * 5 for _ in range(self.players)]
        start_player = state.start_player
        reports = state.tile_walls(chooser)
        holder = next((p for p, h in enumerate(held_marker) if h), None)
        if holder is None and marker_in_centre:
            holder = start_player  # nobody took it: it stays with the start player
        round_no = state.round
        for report in reports:
            p = report.player
            board = view["boards"][p]
            for placement in report.placements:
                columns[p][placement.row] = placement.column
                line = board["pattern_lines"][placement.row]
                board["pattern_lines"][placement.row] = []
                event = {"type": "wall_tiling", "round": round_no, "player": p, "row": placement.row,
                         "colour": COLOUR_NAMES[placement.colour], "column": placement.column,
                         "points": placement.points}
                if placement.column is None:
                    room = 7 - len(board["floor"])
                    board["floor"] += line[:room]
                    target = self._line_target(p, FLOOR)
                else:
                    board["wall"][placement.row][placement.column] = COLOUR_NAMES[placement.colour]
                    board["score_marker"] += placement.points
                    target = self._wall_target(p, placement.row, placement.column)
                yield Shot(copy.deepcopy(view), event, (self._hand(p, target),), marker_holder=None)
            marker_here = "first_player" in board["floor"]
            board["floor"] = []
            board["score_marker"] = report.score_after
            event = {"type": "wall_tiling", "round": round_no, "player": p, "stage": "floor",
                     "floor_penalty": report.floor_penalty, "score": report.score_after}
            shown_holder = p if marker_here else None
            yield Shot(copy.deepcopy(view), event, (self._hand(p, self._line_target(p, FLOOR)),),
                       marker_holder=shown_holder)
        if marker_in_centre:
            view["first_player"] = False
        # As the tracker logs it: scores after the round, with the end-of-game bonuses if the game ended.
        self.log.append({"type": "wall_tiling", "columns": columns, "scores_after": [b.score for b in state.boards]})
        truth = state.to_table()
        for b in truth["boards"]:
            b["score_marker"] = None
        mine = copy.deepcopy(view)
        for b in mine["boards"]:
            b["score_marker"] = None
        if mine != truth:
            raise AssertionError("the animated wall tiling does not reach the rules' state")  # a bug here, not input
        if state.phase == OVER:
            view = state.to_table()  # end-of-game bonuses move the score cubes
        yield Shot(copy.deepcopy(view), {"type": "wall_tiling", "round": round_no, "stage": "done",
                                         "scores": [b.score for b in state.boards]}, marker_holder=holder)
        return holder


def _place(board: dict, colour: str, count: int, line: int, took_marker: bool) -> dict:
    """A board after laying `count` tiles on `line` whatever the rules say (what a mistaken player does)."""
    out = copy.deepcopy(board)
    if took_marker:
        out["floor"].append("first_player")
    free = line + 1 - len(out["pattern_lines"][line])
    fit = max(0, min(count, free))
    out["pattern_lines"][line] = out["pattern_lines"][line] + [colour] * fit
    out["floor"] = (out["floor"] + [colour] * (count - fit))[:7]
    return out

