"""Azul Duel rules beyond the rulebook's worked examples: opening, turns and forced passes, phase ends, bonus
tiles, broken tiles, the refill, dome tiling choices, end-game scoring tiles and the tie-break."""

from __future__ import annotations

import random

import pytest

from tracker.duel import (
    BROKEN,
    DRAW,
    LARGE,
    SPECIAL_TILE,
    BonusUse,
    DomeChoices,
    DuelDeal,
    DuelState,
    TakeBonus,
    TakeDomeTile,
    TakeMoons,
    TakeSun,
)
from tracker.duel.components import JOKER, SPECIAL_SPACE, TURQUOISE
from tracker.duel.scoring import broken_penalty, scoring_tile_points
from tracker.duel.state import ACQUISITION, DEAL, DOME_TILING, OPENING, OVER
from tracker.explain import IllegalMove, InvalidDeal
from tracker.tiles import BLACK, BLUE, EMPTY, RED, YELLOW

P0, P1 = 0, 1


# ---- setup and the opening -------------------------------------------------------------------------------
def test_setup_deal_and_opening_picks(components):
    state = DuelState.new(components(), start_player=P0)
    assert state.boards[0].score == state.boards[1].score == 5, "score markers on 0 and 5"
    deal = state.draw_deal(random.Random(4))
    assert len(deal.large) == 5 and [len(f) for f in deal.small] == [4] * 4 and len(deal.dome_display) == 3
    state.deal(deal)
    assert sum(state.bag) == 65 - 21
    assert state.phase == OPENING
    # "O outro jogador pega numa das 3 peças de cúpula visíveis ... Depois, o jogador inicial faz o mesmo"
    assert state.current_player == P1
    assert all(isinstance(a, TakeDomeTile) for a in state.legal_actions())
    with pytest.raises(IllegalMove) as err:
        state.play(TakeSun(LARGE, deal.large[0], BROKEN))
    assert err.value.rule == "opening"
    first = deal.dome_display[0]
    with pytest.raises(ValueError):
        state.play(TakeDomeTile(first, 4, 0))  # the refill from the stack must be named
    refill = state.stack_candidates()[0]
    state.play(TakeDomeTile(first, 4, 0), revealed=refill)
    assert state.boards[P1].pieces == 2, "the opening pick costs no player piece"
    assert sorted(state.dome_display) == sorted([*deal.dome_display[1:], refill])
    assert state.current_player == P0
    state.play(TakeDomeTile(refill, 0, 2), revealed=state.stack_candidates()[-1])
    assert state.phase == ACQUISITION and state.current_player == P0
    assert len(state.dome_display) == 3


# ---- turns, passes and the end of phase 1 ----------------------------------------------------------------
def test_a_player_with_no_action_passes_and_the_other_plays_on(position):
    state = position()
    state.bonus_on = [None] * 4
    state.boards[P0].pieces = 0
    state.current_player = P1
    assert not state.can_act(P0) and state.can_act(P1)
    state.play(TakeDomeTile(0, 0, 0), player=P1)
    assert state.phase == ACQUISITION
    assert state.current_player == P1, "P0 cannot act, so P1 plays again"
    with pytest.raises(IllegalMove) as err:
        state.play(TakeDomeTile(1, 1, 0), player=P0)
    assert err.value.rule == "turn"
    state.play(TakeDomeTile(1, 1, 0), player=P1)
    assert state.phase == DOME_TILING, "factories empty and both pieces used"


def test_phase_one_waits_for_player_pieces_except_in_round_five(position, tower_take):
    for rnd, expected in ((3, ACQUISITION), (5, DOME_TILING)):
        state = position(round=rnd)
        state.bonus_on = [None] * 4
        state.suns[0] = [0, 0, 1, 0, 0]
        tower_take(state, [RED])
        state.play(TakeSun(0, RED, 0, ()))
        assert state.phase == expected, rnd


def test_bonus_tiles_exactly_two_per_player_per_round(position):
    state = position()
    state.bonus_revealed = [True] * 4
    state.boards[P0].pieces = state.boards[P1].pieces = 0
    state.play(TakeBonus(0), player=P0)
    state.play(TakeBonus(1), player=P1)
    state.play(TakeBonus(2), player=P0)
    state.play(TakeBonus(3), player=P1)
    assert state.phase == DOME_TILING
    state = position()
    state.bonus_revealed = [True] * 4
    state.boards[P0].bonus_taken = 2
    with pytest.raises(IllegalMove) as err:
        state.play(TakeBonus(0), player=P0)
    assert err.value.rule == "bonus_limit"


def test_a_drawn_dome_tile_must_be_kept_before_anything_else(position, tower_take):
    state = position(scores=(0, 0))
    state.suns[0] = [4, 0, 0, 0, 0]
    tower_take(state, [BLUE] * 4)
    state.play(DRAW, revealed=5)
    assert state.boards[P0].score == 0, "paying a point never takes the score below 0"
    with pytest.raises(IllegalMove) as err:
        state.play(TakeSun(0, BLUE, 3, ()))
    assert err.value.rule == "keep_drawn_tile"
    with pytest.raises(IllegalMove) as err:
        state.play(TakeDomeTile(0, 0, 0))
    assert err.value.rule == "keep_drawn_tile"


def test_no_player_piece_left(position, tower_take):
    state = position()
    state.boards[P0].pieces = 0
    state.suns[0] = [4, 0, 0, 0, 0]
    tower_take(state, [BLUE] * 4)
    for action in (TakeDomeTile(0, 0, 0), DRAW):
        with pytest.raises(IllegalMove) as err:
            state.play(action, revealed=5 if action is DRAW else None)
        assert err.value.rule == "no_player_piece"
    assert not any(isinstance(a, TakeDomeTile) or a is DRAW for a in state.legal_actions())


@pytest.mark.parametrize(
    "action, rule",
    [
        (TakeSun(0, RED, 0, ()), "colour_absent"),
        (TakeSun(1, RED, 0, ()), "sun_empty"),
        (TakeSun(0, BLUE, 0, (YELLOW,)), "bad_stack"),
        (TakeSun(0, BLUE, 0, (RED, YELLOW)), "bad_stack"),
        (TakeSun(LARGE, BLACK, 0, (RED,)), "large_moon_separate"),
        (TakeMoons(TURQUOISE, 0), "moon_colour_absent"),
        (TakeBonus(0), "bonus_face_down"),
        (TakeDomeTile(7, 0, 0), "face_up"),
        (TakeDomeTile(0, 9, 0), "no_such_space"),
        (TakeSun(0, BLUE, 2, (YELLOW, YELLOW)), "line_other_colour"),
    ],
)
def test_illegal_actions_are_explained_and_change_nothing(position, tower_take, line_setter, action, rule):
    state = position()
    state.suns[0] = [1, 2, 0, 0, 0]
    state.suns[LARGE] = [0, 0, 1, 4, 0]
    tower_take(state, [BLUE, YELLOW, YELLOW, RED, BLACK, BLACK, BLACK, BLACK])
    line_setter(state, P0, 2, RED, 1)
    assert action not in state.legal_actions()
    before = state.to_dict()
    problem = state.explain_illegal(action)
    assert problem is not None and problem.rule == rule and problem.reason
    with pytest.raises(IllegalMove) as err:
        state.play(action)
    assert err.value.rule == rule
    assert state.to_dict() == before


def test_a_full_line_of_the_same_colour_is_the_broken_tiles(position, tower_take, line_setter):
    state = position()
    state.suns[0] = [0, 0, 2, 0, 0]
    tower_take(state, [RED, RED])
    line_setter(state, P0, 1, RED, 2)
    state.play(TakeSun(0, RED, 1, ()))
    assert state.boards[P0].broken == [RED, RED]
    assert state.boards[P0].pattern_count[1] == 2


# ---- broken tiles ----------------------------------------------------------------------------------------
def test_broken_tiles_hold_four_and_the_rest_go_to_the_tower(position, tower_take):
    assert [broken_penalty(n) for n in range(7)] == [0, 1, 3, 6, 10, 10, 10]
    state = position(scores=(30, 30))
    state.suns[LARGE] = [0, 0, 5, 0, 0]  # tests may place any tiles; this sun is never drawn like this
    tower_take(state, [RED] * 5)
    tower = state.tower[RED]
    state.bonus_on = [None] * 4
    state.boards[P0].pieces = state.boards[P1].pieces = 0
    state.play(TakeSun(LARGE, RED, BROKEN, ()))
    assert state.boards[P0].broken == [RED] * 4
    assert state.tower[RED] == tower + 1
    assert state.phase == DOME_TILING
    report = state.tile_domes()[P0]
    assert report.broken_penalty == 10 and report.score_after == 20


# ---- bonus tiles in dome tiling --------------------------------------------------------------------------
def bonus_position(position, components, line_setter):
    comps = components(
        dome_tiles=[{"spaces": [["red", "red"], ["red", "joker"]]}] * 3
        + [{"spaces": [["red", "yellow"], ["blue", "joker"]]}] * 3,
        bonus_tiles=[
            {"halves": ["red", None]},  # 0: only one coloured half
            {"halves": ["blue", "red"]},  # 1
            {"halves": ["yellow", "black"]},  # 2
            {"halves": ["black", None]},  # 3
            {"halves": ["turquoise", "blue"]},  # 4
        ],
    )
    state = position(comps=comps, scores=(10, 10))
    board = state.boards[P0]
    for space in range(6):
        board.place_dome_tile(space, space, comps.dome_tiles[space], 0)
    board.bonus_reserve = [0, 1, 2, 3, 4]
    state.bonus_pool = [b for b in state.bonus_pool if b not in (4,)]
    line_setter(state, P0, 2, RED, 1)  # 1 of 3: two missing
    line_setter(state, P0, 3, YELLOW, 1)  # 1 of 4
    state.phase = DOME_TILING
    return state


def test_bonus_tiles_complete_a_line_two_of_its_colour_or_any_three(position, components, line_setter):
    state = bonus_position(position, components, line_setter)
    tower = list(state.tower)
    # Line 3 (red, 1 of 3): the pair 0+1 both show red (tile 0 has one blank half); then any 3 for the last.
    uses = (BonusUse(2, (0, 1)), BonusUse(2, (2, 3, 4)))
    report = state.tile_domes([DomeChoices(bonus=uses, columns=(None, None, 0, None, None, None)), None])[P0]
    board = state.boards[P0]
    assert [(p.row, p.column, p.colour) for p in report.placements] == [(2, 0, RED)]
    assert board.bonus_reserve == [] and sorted(board.bonus_spent) == [0, 1, 2, 3, 4]
    assert board.pattern_count[2] == 0 and board.pattern_bonus[2] == 0
    assert state.tower == tower, "the only real tile moved to the dome; bonus tiles are not tiles"


@pytest.mark.parametrize(
    "uses, rule",
    [
        ((BonusUse(2, (0, 2)),), "bonus_colour"),  # tile 2 shows yellow and black, not red
        ((BonusUse(2, (0,)),), "bonus_count"),
        ((BonusUse(0, (0, 1)),), "bonus_empty_line"),
        ((BonusUse(2, (0, 1)), BonusUse(2, (1, 3, 4))), "bonus_not_available"),
        ((BonusUse(2, (0, 1)), BonusUse(2, (2, 3, 4)), BonusUse(2, (5, 6))), "bonus_not_available"),
        ((BonusUse(4, (0, 1)),), "bonus_empty_line"),
        ((BonusUse(6, (0, 1)),), "no_such_line"),
    ],
)
def test_bad_bonus_uses_are_refused(position, components, line_setter, uses, rule):
    state = bonus_position(position, components, line_setter)
    before = state.to_dict()
    with pytest.raises(IllegalMove) as err:
        state.tile_domes([DomeChoices(bonus=uses), None])
    assert err.value.rule == rule and err.value.reason
    assert state.to_dict() == before


def test_a_line_completed_by_bonus_tiles_waits_when_no_space_fits_yet(
    position, components, line_setter, dome_filler
):
    state = bonus_position(position, components, line_setter)
    board = state.boards[P0]
    board.pattern_count[3] = 3  # yellow, 3 of 4
    state.tower[YELLOW] -= 2
    # Row 4's joker spaces are filled and no space offers yellow.
    dome_filler(state, P0, {(3, 1): RED, (3, 3): BLUE, (3, 5): BLACK})
    broken = state.copy()
    # With only 2 dome tiles in that band of the dome, the line may yet get a space: it waits, bonus and all.
    board.dome_tiles[5] = None
    for r in (2, 3):
        board.face[r][4] = board.face[r][5] = EMPTY
    board.dome[3][5] = EMPTY
    state.tower[BLACK] += 1
    state.tile_domes([DomeChoices(bonus=(BonusUse(3, (0, 1, 2)),)), None])
    board = state.boards[P0]
    assert (board.pattern_colour[3], board.pattern_count[3], board.pattern_bonus[3]) == (YELLOW, 3, 1)
    assert board.is_complete(3)
    assert sorted(board.bonus_spent) == [0, 1, 2]
    # With the band's 3 dome tiles down, the line's tiles are "ilegais": they break (the bonus tiles are spent).
    report = broken.tile_domes([DomeChoices(bonus=(BonusUse(3, (0, 1, 2)),)), None])[P0]
    assert report.illegal_lines == (3,) and report.broken_tiles == 3
    assert broken.boards[P0].pattern_colour[3] == EMPTY


# ---- dome tiling choices ---------------------------------------------------------------------------------
def test_the_player_chooses_among_several_spaces_of_the_colour(position, components, line_setter):
    comps = components(dome_tiles=[{"spaces": [["red", "joker"], ["blue", "blue"]]}] * 3)
    state = position(comps=comps)
    board = state.boards[P0]
    for space in range(3):
        board.place_dome_tile(space, space, comps.dome_tiles[space], 0)
    line_setter(state, P0, 0, RED, 1)
    state.phase = DOME_TILING
    assert state.legal_dome_columns(P0, 0) == [0, 1, 2, 3, 4, 5]
    trial = state.copy()
    trial.tile_domes([DomeChoices(columns=(3, None, None, None, None, None)), None])
    assert trial.boards[P0].dome[0][3] == RED and trial.boards[P0].face[0][3] == JOKER
    taken = state.copy()
    taken.boards[P0].dome[0][0] = RED
    taken.tower[RED] -= 1
    with pytest.raises(IllegalMove) as err:
        taken.tile_domes([DomeChoices(columns=(0, None, None, None, None, None)), None])
    assert err.value.rule == "dome_space" and "already filled" in err.value.reason
    line_setter(state, P0, 1, BLACK, 2)
    with pytest.raises(IllegalMove) as err:
        state.tile_domes([DomeChoices(columns=(None, 0, None, None, None, None)), None])
    assert err.value.rule == "no_dome_space"


# ---- the refill ------------------------------------------------------------------------------------------
def dealt_state(components):
    state = DuelState.new(components(), start_player=P0)
    return state


def test_refill_checks(components):
    state = dealt_state(components)
    good = state.draw_deal(random.Random(1))
    bad = [
        DuelDeal(good.large[:4], good.small, good.bonus, good.dome_display),
        DuelDeal(good.large, good.small[:3], good.bonus, good.dome_display),
        DuelDeal((RED,) * 5, good.small, good.bonus, good.dome_display),
        DuelDeal(good.large, good.small, (good.bonus[0],) * 4, good.dome_display),
        DuelDeal(good.large, good.small, good.bonus, good.dome_display[:2]),
        DuelDeal(good.large, good.small, (99, *good.bonus[1:]), good.dome_display),
    ]
    for deal in bad:
        with pytest.raises(InvalidDeal):
            state.deal(deal)
        assert state.phase == DEAL and sum(state.bag) == 65
    state.deal(good)
    assert state.round == 1


def test_five_tiles_of_one_colour_on_the_large_factory_only_when_nothing_else_can_come(components):
    state = dealt_state(components)
    state.bag = [0, 0, 21, 0, 0]
    state.tower = [0, 0, 0, 0, 0]
    state.boards[0].score = 0
    deal = state.draw_deal(random.Random(2))
    assert deal.large == (RED,) * 5, "a bag of red tiles can only give red"
    state.bag = [1, 0, 20, 0, 0]
    for seed in range(30):
        deal = state.draw_deal(random.Random(seed))
        assert len(set(deal.large)) == 2, "five reds go back to the bag and are drawn again"


def test_a_short_refill_leaves_the_last_factories_empty_and_reveals_their_bonus_tiles(components):
    state = dealt_state(components)
    state.bag = [2, 2, 2, 2, 2]
    state.tower = [0, 0, 0, 0, 1]
    deal = state.draw_deal(random.Random(3))
    assert len(deal.large) == 5 and [len(f) for f in deal.small] == [4, 2, 0, 0]
    state.deal(deal)
    assert state.bonus_revealed == [False, False, True, True]
    assert sum(state.bag) + sum(state.tower) == 0


# ---- rounds, the start player, the end ---------------------------------------------------------------------
def test_the_start_player_piece_decides_who_starts_next_round(position):
    state = position()
    state.phase = DOME_TILING
    state.boards[P1].holds_start_piece = True
    state.start_piece_on_factory = False
    state.tile_domes()
    assert state.phase == DEAL and state.start_player == P1 and state.current_player == P1
    assert not state.boards[P1].holds_start_piece, "the piece goes back to the large factory"
    deal = state.draw_deal(random.Random(0))
    state.deal(deal)
    assert state.start_piece_on_factory and state.current_player == P1
    assert [b.pieces for b in state.boards] == [2, 2]


def dome_with(cells=(), faces=None):
    face = [[RED] * 6 for _ in range(6)] if faces is None else faces
    dome = [[EMPTY] * 6 for _ in range(6)]
    for r, c, v in cells:
        dome[r][c] = v
    return dome, face


def test_end_game_scoring_tiles():
    full_rows = [(r, c, (r + c) % 5) for r in (0, 3) for c in range(6)]
    dome, face = dome_with(full_rows)
    assert scoring_tile_points("rows", dome, face, None) == 6
    dome, face = dome_with([(r, 2, BLUE) for r in range(6)])
    assert scoring_tile_points("columns", dome, face, None) == 7
    assert scoring_tile_points("rows", dome, face, None) == 0
    diag = [(i, i, RED) for i in range(6)] + [(i, 5 - i, BLUE) for i in range(6)]
    assert scoring_tile_points("diagonals", *dome_with(diag), None) == 20
    assert scoring_tile_points("diagonals", *dome_with(diag[:-1]), None) == 10
    faces = [[RED] * 6 for _ in range(6)]
    faces[0][1] = faces[4][4] = JOKER
    assert scoring_tile_points("jokers", *dome_with([(0, 1, RED), (4, 4, BLUE)], faces), None) == 4
    assert scoring_tile_points("jokers", *dome_with([(0, 1, RED)], faces), None) == 0
    rows = [(0, c, v) for c, v in enumerate([BLUE, YELLOW, RED, BLACK, TURQUOISE])]
    rows += [(1, c, v) for c, v in enumerate([BLUE, YELLOW, RED, BLACK, SPECIAL_TILE, BLUE])]
    rows += [(2, c, v) for c, v in enumerate([BLUE, BLUE, RED, BLACK, YELLOW, RED])]
    assert scoring_tile_points("five_colour_rows", *dome_with(rows), None) == 8
    ring = [(0, 0, RED), (0, 5, RED), (5, 3, RED), (2, 0, RED), (2, 2, RED), (3, 3, RED)]
    assert scoring_tile_points("outer_ring", *dome_with(ring), None) == 4
    corners = [(r, c, RED) for r in (0, 1) for c in (0, 1)] + [(r, c, RED) for r in (4, 5) for c in (4, 5)]
    corners += [(0, 4, RED), (0, 5, RED), (1, 4, RED)]  # the top-right dome tile is one space short
    assert scoring_tile_points("corners", *dome_with(corners), (3, 8, 8, 3)) == 6
    faces = [[RED] * 6 for _ in range(6)]
    faces[1][0] = faces[3][3] = faces[5][5] = SPECIAL_SPACE
    assert scoring_tile_points("empty_specials", *dome_with([(5, 5, SPECIAL_TILE)], faces), None) == -6


def test_round_five_ends_the_game_with_the_scoring_tiles(position, components):
    comps = components(
        scoring_tiles=["outer_ring", "empty_specials", "jokers"],
        dome_tiles=[{"spaces": [["special", "red"], ["red", "red"]]}],
    )
    state = position(comps=comps, round=5, scores=(4, 2))
    board = state.boards[P0]
    board.place_dome_tile(0, 0, comps.dome_tiles[0], 0)
    board.dome[0][1] = RED
    state.tower[RED] -= 1
    state.phase = DOME_TILING
    state.tile_domes()
    assert state.phase == OVER
    finals = {f.player: f for f in state.final_scores}
    assert dict(finals[P0].scoring_tiles) == {"outer_ring": 1, "empty_specials": -3, "jokers": 0}
    assert finals[P0].score == 4 + 1 - 3
    assert finals[P1].score == 2
    assert state.winners() == [P0, P1], "a tie with the start-player piece on the factory is shared"


def test_a_score_never_goes_below_zero_at_the_end(position, components):
    comps = components(
        scoring_tiles=["outer_ring", "empty_specials", "rows"],
        dome_tiles=[{"spaces": [["special", "red"], ["red", "red"]]}] * 2,
    )
    state = position(comps=comps, round=5, scores=(4, 0))
    for space in (0, 1):
        state.boards[P0].place_dome_tile(space, space, comps.dome_tiles[space], 0)
    state.phase = DOME_TILING
    state.tile_domes()
    assert [f.score for f in state.final_scores] == [0, 0]


def test_the_tie_goes_to_the_holder_of_the_start_player_piece(position):
    state = position(round=5, scores=(9, 9))
    state.phase = DOME_TILING
    state.boards[P1].holds_start_piece = True
    state.start_piece_on_factory = False
    state.tile_domes()
    assert state.phase == OVER
    # Both lose nothing from an empty dome with rows/columns/diagonals; P1 pays 2 for the piece.
    assert [b.score for b in state.boards] == [9, 7]
    assert state.winners() == [P0]
    state = position(round=5, scores=(9, 11))
    state.phase = DOME_TILING
    state.boards[P1].holds_start_piece = True
    state.tile_domes()
    assert [b.score for b in state.boards] == [9, 9]
    assert state.winners() == [P1]


def test_all_nine_special_tiles_used_leaves_the_space_empty(position, components, line_setter, dome_filler):
    comps = components(dome_tiles=[{"spaces": [["red", "black"], ["special", "yellow"]]}])
    state = position(comps=comps)
    state.boards[P0].place_dome_tile(0, 0, comps.dome_tiles[0], 0)
    dome_filler(state, P0, {(0, 0): RED, (0, 1): BLACK})
    line_setter(state, P0, 1, YELLOW, 2)
    state.phase = DOME_TILING
    trial = state.copy()
    trial.tile_domes()
    assert trial.boards[P0].dome[1][0] == SPECIAL_TILE
    state.special_reserve = 0
    state.tile_domes()
    assert state.boards[P0].dome[1][0] == EMPTY


# ---- face-down bonus tiles a camera has not seen -----------------------------------------------------------
def test_an_unseen_bonus_tile_is_named_when_taken(components):
    from tracker.duel import DuelGame
    from tracker.duel.state import UNSEEN

    game = DuelGame.new(components(), start_player=P0)
    deal = game.state.draw_deal(random.Random(6))
    unseen = DuelDeal(deal.large, deal.small, (None, None, deal.bonus[2], None), deal.dome_display)
    game.deal(unseen)
    state = game.state
    assert state.bonus_on[:2] == [UNSEEN, UNSEEN] and state.bonus_on[2] == deal.bonus[2]
    assert deal.bonus[2] not in state.bonus_pool and len(state.bonus_pool) == 19, (
        "3 not yet seen are still unknown"
    )
    # Empty small factory 1 (its 4 tiles to the broken tiles) so its bonus tile is revealed; then take it.
    state = game.state.copy()
    state.opening_picks = 2
    state.phase = ACQUISITION
    state.current_player = P0
    colour = next(c for c in range(5) if state.suns[0][c])
    rest = tuple(c for c in range(5) if c != colour for _ in range(state.suns[0][c]))
    state.play(TakeSun(0, colour, BROKEN, rest))
    while state.moons[0]:
        state.play(TakeMoons(state.moons[0][-1], BROKEN))
    assert state.bonus_revealed[0]
    taker = state.current_player
    assert state.needs_reveal(TakeBonus(0))
    with pytest.raises(ValueError):
        state.copy().play(TakeBonus(0))
    with pytest.raises(IllegalMove) as err:
        state.copy().play(TakeBonus(0), revealed=deal.bonus[2])
    assert err.value.rule == "bonus_already_seen"
    face = state.reveal_candidates(TakeBonus(0))[0]
    state.play(TakeBonus(0), revealed=face)
    assert state.boards[taker].bonus_reserve == [face]
    assert face not in state.bonus_pool and state.piece_counts()["bonus"] == 20
