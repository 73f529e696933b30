"""Every worked example of the Azul Duel rulebook (seeds/003_8d1875b33a65efe4.txt), as a test.

The rulebook's pictures are not in the text, so where an example depends on one, the position is rebuilt from
what the text says and the comment says what was assumed. Dome-tile faces are the tests' own.
"""

from __future__ import annotations

import pytest

from tracker.duel import (
    BROKEN,
    DRAW,
    LARGE,
    SPECIAL_TILE,
    DomeChoices,
    KeepDomeTile,
    TakeBonus,
    TakeMoons,
    TakeSun,
)
from tracker.duel.components import TURQUOISE
from tracker.duel.state import DOME_TILING
from tracker.explain import IllegalMove
from tracker.tiles import BLACK, BLUE, EMPTY, RED, YELLOW

MICHAEL, INA = 0, 1


def lay_dome_tile(state, player, space, tile, rotation=0):
    """A dome tile already on a player's dome (taken in an earlier round)."""
    for pile in (state.dome_display, state.dome_stack):
        if tile in pile:
            pile.remove(tile)
    state.boards[player].place_dome_tile(space, tile, state.components.dome_tiles[tile], rotation)


# ---- A) "O Michael decide retirar uma peça de cúpula ... retira uma da pilha" --------------------------------
def test_michael_draws_two_dome_tiles_from_the_stack_paying_two_points(position):
    state = position(scores=(10, 10))
    state.dome_stack = [10, 11, 12]
    state.suns[0] = [1, 1, 1, 1, 0]  # something left to do, so the round goes on
    state.tower[BLUE] -= 1
    state.tower[YELLOW] -= 1
    state.tower[RED] -= 1
    state.tower[BLACK] -= 1
    display = list(state.dome_display)

    # "colocando a sua peça de jogador ... paga 1 ponto, retira a peça de cúpula do topo da pilha (sem a revelar)
    # e repete uma segunda vez (pagando outro ponto)"
    state.play(DRAW, player=MICHAEL, revealed=11)
    assert state.boards[MICHAEL].pieces == 1, "the first draw places a player piece"
    assert state.boards[MICHAEL].score == 9
    assert state.current_player == MICHAEL, "drawing goes on until a tile is kept"
    state.play(DRAW, player=MICHAEL, revealed=12)
    assert state.boards[MICHAEL].score == 8, "2 draws cost 2 points"
    assert state.boards[MICHAEL].pieces == 1, "only one player piece for the whole draw"
    assert {type(a) for a in state.legal_actions()} <= {type(DRAW), KeepDomeTile}

    # "vê as 2 peças e escolhe 1. Depois de a colocar num dos seus espaços de cúpula vazios devolve a outra peça
    # ao fundo da pilha"
    state.play(KeepDomeTile(12, 4, 1), player=MICHAEL)
    board = state.boards[MICHAEL]
    assert board.dome_tiles[4] == (12, 1)
    assert state.dome_stack_bottom == [11]
    assert state.drawn == []
    assert state.dome_display == display, "the face-up dome tiles are not touched"
    assert state.current_player == INA
    # The returned tile comes up again only after the unseen ones: tile 10 is next, then 11.
    with pytest.raises(IllegalMove) as err:
        state.play(DRAW, player=INA, revealed=11)
    assert err.value.rule == "not_in_stack"
    state.play(DRAW, player=INA, revealed=10)
    assert state.stack_candidates() == [11]


def test_dome_tiles_go_in_any_orientation_and_never_move(position, components):
    comps = components(dome_tiles=[{"spaces": [["red", "black"], ["blue", "joker"]]}])
    state = position(comps=comps)
    state.suns[0] = [0, 0, 4, 0, 0]
    state.tower[RED] -= 4
    legal = state.legal_actions()
    rotations = {
        a.rotation for a in legal if getattr(a, "tile", None) == 0 and getattr(a, "space", None) == 0
    }
    assert rotations == {0, 1, 2, 3}
    from tracker.duel import TakeDomeTile

    state.play(TakeDomeTile(0, 0, 1))  # a quarter-turn clockwise: the bottom-left space goes to the top-left
    face = state.boards[MICHAEL].face
    assert [face[0][:2], face[1][:2]] == [[BLUE, RED], [6, BLACK]]
    state.play(TakeSun(0, RED, BROKEN, ()))
    with pytest.raises(IllegalMove) as err:
        state.play(TakeDomeTile(1, 0, 0))
    assert err.value.rule == "space_taken"


# ---- B/C) the moon stacking example -----------------------------------------------------------------------
def test_moon_stacking_example(position, tower_take):
    state = position()
    state.current_player = INA
    # Ina's small factory: 2 turquoise, 1 black, 1 yellow. The large factory: 2 turquoise, 1 red, 2 black (the
    # picture is not in the text: these make the choices the text lists). Another small moon already shows a
    # yellow tile on top (from an earlier turn).
    state.suns[0] = [0, 1, 0, 1, 2]
    state.suns[LARGE] = [0, 0, 1, 2, 2]
    state.moons[1] = [BLUE, YELLOW]
    tower_take(
        state, [YELLOW, BLACK, TURQUOISE, TURQUOISE, RED, BLACK, BLACK, TURQUOISE, TURQUOISE, BLUE, YELLOW]
    )

    # "A Ina retira 2 azulejos turquesa e empilha os azulejos restantes em cima da peça de bónus (com o azulejo
    # preto por baixo e o amarelo por cima)"
    stacks = {
        a.stack
        for a in state.legal_actions()
        if isinstance(a, TakeSun) and a.factory == 0 and a.colour == TURQUOISE
    }
    assert stacks == {(BLACK, YELLOW), (YELLOW, BLACK)}, "the player chooses the order of the stack"
    state.play(TakeSun(0, TURQUOISE, 1, (BLACK, YELLOW)), player=INA)
    assert state.moons[0] == [BLACK, YELLOW]
    assert not state.bonus_revealed[0], "the bonus tile is covered by the stack"

    # "o Michael retira os 2 azulejos turquesa da fábrica grande e coloca os 3 azulejos restantes separadamente
    # na lua da fábrica grande"
    state.play(TakeSun(LARGE, TURQUOISE, 1, ()), player=MICHAEL)
    assert state.large_moon == [0, 0, 1, 2, 0]
    assert state.suns[LARGE] == [0] * 5

    # "A Ina decide retirar azulejos das luas, tendo a escolha entre 1 vermelho, 2 pretos ou 2 amarelos."
    moon_colours = {a.colour for a in state.legal_actions() if isinstance(a, TakeMoons)}
    assert moon_colours == {RED, BLACK, YELLOW}
    black = state.copy()
    red = state.copy()

    # "Se ela escolher os azulejos amarelos, não tem de retirar a peça de jogador inicial"
    state.play(TakeMoons(YELLOW, 2), player=INA)
    assert state.boards[INA].pattern_count[2] == 2
    assert state.start_piece_on_factory and not state.boards[INA].holds_start_piece
    assert state.moons[0] == [BLACK] and state.moons[1] == [BLUE], "only the top tile of each stack is taken"

    # "apenas tem de o fazer se retirar pelo menos 1 azulejo da lua da fábrica grande"
    black.play(TakeMoons(BLACK, 2), player=INA)
    assert black.boards[INA].pattern_count[2] == 2, (
        "the 2 black tiles of the large moon; Ina's black is covered"
    )
    assert black.boards[INA].holds_start_piece and not black.start_piece_on_factory
    red.play(TakeMoons(RED, 0), player=INA)
    assert red.boards[INA].holds_start_piece
    # The piece goes only to the first player to take from the large moon.
    red.play(TakeMoons(BLACK, 3), player=MICHAEL)
    assert not red.boards[MICHAEL].holds_start_piece and red.boards[INA].holds_start_piece


def test_four_tiles_of_one_colour_reveal_the_bonus_tile_at_once_and_michael_takes_a_revealed_one(
    position, tower_take
):
    state = position()
    state.suns[0] = [0, 0, 4, 0, 0]
    state.suns[1] = [1, 1, 0, 0, 0]
    tower_take(state, [RED] * 4 + [BLUE, YELLOW])
    # "Se existirem 4 azulejos da mesma cor numa fábrica pequena, a peça de bónus associada é revelada assim que
    # um jogador retirar esses 4 azulejos"
    with pytest.raises(IllegalMove) as err:
        state.play(TakeBonus(0))
    assert err.value.rule == "bonus_face_down"
    state.play(TakeSun(0, RED, 3, ()), player=MICHAEL)
    assert state.bonus_revealed[0]
    # "A Ina revelou esta peça de bónus depois de retirar o último azulejo. No seu turno, o Michael usa a sua
    # ação para retirar essa peça de bónus."
    state.play(TakeSun(1, BLUE, 0, (YELLOW,)), player=INA)
    assert state.moons[1] == [YELLOW] and not state.bonus_revealed[1]
    state.play(TakeBonus(0), player=MICHAEL)
    state.play(TakeMoons(YELLOW, 1), player=INA)  # the last tile of small factory 2
    assert state.bonus_revealed[1]
    state.play(TakeBonus(1), player=MICHAEL)
    assert state.boards[MICHAEL].bonus_reserve == [0, 1]
    assert state.bonus_on[:2] == [None, None]


# ---- "O Michael retirou estes 2 azulejos. Ele agora tem 4 opções" ------------------------------------------
def test_michael_has_four_options_for_two_tiles(position, tower_take, line_setter):
    state = position()
    state.suns[0] = [0, 0, 2, 2, 0]
    tower_take(state, [RED, RED, BLACK, BLACK])
    # The picture is not in the text; a board with exactly four options for 2 red tiles: line 1 (empty: 1 fits,
    # 1 breaks), line 2 (holds 1 red: 1 fits, 1 breaks), line 3 (empty: both fit), or the broken tiles.
    line_setter(state, MICHAEL, 1, RED, 1)
    line_setter(state, MICHAEL, 3, BLACK, 1)
    line_setter(state, MICHAEL, 4, YELLOW, 2)
    line_setter(state, MICHAEL, 5, BLUE, 3)
    options = {
        a.line
        for a in state.legal_actions()
        if isinstance(a, TakeSun) and a.colour == RED and a.stack == (BLACK, BLACK)
    }
    assert options == {0, 1, 2, BROKEN}

    outcomes = {}
    for line in (0, 1, 2, BROKEN):
        trial = state.copy()
        trial.play(TakeSun(0, RED, line, (BLACK, BLACK)))
        board = trial.boards[MICHAEL]
        outcomes[line] = (board.pattern_count[line] if line != BROKEN else None, len(board.broken))
    # "O Michael pode empilhar azulejos que não consegue ou não quer colocar no seu espaço para azulejos partidos"
    assert outcomes == {0: (1, 1), 1: (2, 1), 2: (2, 0), BROKEN: (None, 2)}

    with pytest.raises(IllegalMove) as err:
        state.play(TakeSun(0, RED, 3, (BLACK, BLACK)))
    assert err.value.rule == "line_other_colour"
    assert "pattern line 4 already holds black" in str(err.value)


# ---- Phase 2: "O Michael tem estes azulejos nas suas linhas de padrões" ------------------------------------
def dome_tiling_example(position, components, line_setter):
    comps = components(
        dome_tiles=[
            {
                "spaces": [["blue", "yellow"], ["black", "joker"]]
            },  # 0..2: row 1 of the dome has no red, no joker
            {"spaces": [["blue", "yellow"], ["black", "joker"]]},
            {"spaces": [["blue", "yellow"], ["black", "joker"]]},
            {"spaces": [["red", "black"], ["joker", "yellow"]]},  # 3: row 4 starts with a joker space
        ]
    )
    state = position(comps=comps, scores=(10, 10))
    for space, tile in ((0, 0), (1, 1), (2, 2), (3, 3)):
        lay_dome_tile(state, MICHAEL, space, tile)
    line_setter(state, MICHAEL, 0, RED, 1)  # 1st line: red, and no red or joker space left in dome row 1
    line_setter(state, MICHAEL, 1, BLACK, 2)  # complete
    line_setter(state, MICHAEL, 2, YELLOW, 1)  # incomplete
    line_setter(state, MICHAEL, 3, BLUE, 4)  # complete
    line_setter(state, MICHAEL, 4, RED, 2)  # incomplete
    state.phase = DOME_TILING
    return state


def test_dome_tiling_example_with_the_illegal_first_line(position, components, line_setter):
    state = dome_tiling_example(position, components, line_setter)
    tower = list(state.tower)
    reports = state.tile_domes([DomeChoices(columns=(None, 0, None, None, None, None)), DomeChoices()])
    report = reports[MICHAEL]
    board = state.boards[MICHAEL]
    # "1.ª linha: O azulejo é ilegal, por isso ele empilha-o no seu espaço para azulejos partidos."
    assert report.illegal_lines == (0,)
    assert report.broken_tiles == 1 and report.broken_penalty == 1
    # "2.ª linha: ... move o azulejo preto mais à direita para o espaço preto e ganha 1 ponto. Os outros azulejos
    # pretos são descartados para a torre."
    # "4.ª linha: ... move o azulejo azul mais à direita para o espaço com todas as cores e ganha 1 ponto."
    assert [(p.row, p.column, p.colour, p.points) for p in report.placements] == [
        (1, 0, BLACK, 1),
        (3, 0, BLUE, 1),
    ]
    assert board.dome[1][0] == BLACK and board.dome[3][0] == BLUE and board.face[3][0] == 6
    # "Como a 3.ª e 5.ª linhas estão incompletas, os azulejos permanecem no seu tabuleiro."
    assert (board.pattern_colour[2], board.pattern_count[2]) == (YELLOW, 1)
    assert (board.pattern_colour[4], board.pattern_count[4]) == (RED, 2)
    assert board.pattern_count[0] == board.pattern_count[1] == board.pattern_count[3] == 0
    # Tower: 1 black, 3 blue, and the broken red after scoring.
    assert [state.tower[c] - tower[c] for c in (BLUE, YELLOW, RED, BLACK)] == [3, 0, 1, 1]
    assert board.broken == []
    assert report.score_after == 10 + 1 + 1 - 1


def test_a_line_waits_while_its_dome_row_still_has_room_for_a_dome_tile(position, components, line_setter):
    state = dome_tiling_example(position, components, line_setter)
    board = state.boards[MICHAEL]
    board.dome_tiles[2] = None  # only 2 dome tiles in the top band: the red tile may yet get a space
    for r in (0, 1):
        for c in (4, 5):
            board.face[r][c] = EMPTY
    state.dome_display.append(2)
    report = state.tile_domes()[MICHAEL]
    assert report.illegal_lines == ()
    assert (state.boards[MICHAEL].pattern_colour[0], state.boards[MICHAEL].pattern_count[0]) == (RED, 1)


# ---- Scoring: "O azulejo amarelo que o Michael colocou dá-lhe 2 pontos ... e 2 pontos ..." ----------------
def test_yellow_scores_two_plus_two_then_the_special_tile_then_blue_scores_three(
    position, components, line_setter, dome_filler
):
    comps = components(
        dome_tiles=[
            {"spaces": [["red", "black"], ["special", "yellow"]]},  # the special dome tile
            {"spaces": [["blue", "yellow"], ["red", "joker"]]},
            {"spaces": [["blue", "red"], ["joker", "black"]]},
        ],
        # The only printed special-row value the rulebook gives: "ganha 2 pontos (por estar na 2.ª linha)".
        special_row_points=[0, 2, 0, 0, 0, 0],
    )
    state = position(comps=comps, scores=(10, 10))
    lay_dome_tile(state, MICHAEL, 0, 0)
    lay_dome_tile(state, MICHAEL, 1, 1)
    lay_dome_tile(state, MICHAEL, 3, 2)
    dome_filler(state, MICHAEL, {(0, 0): RED, (0, 1): BLACK, (1, 2): RED})
    line_setter(state, MICHAEL, 1, YELLOW, 2)
    line_setter(state, MICHAEL, 2, BLUE, 3)
    state.phase = DOME_TILING
    specials = state.special_reserve
    report = state.tile_domes()[MICHAEL]
    yellow, blue = report.placements
    # Yellow at row 2, column 2: joined to the red at its right (2) and the black above it (2).
    assert (yellow.row, yellow.column, yellow.colour, yellow.points) == (1, 1, YELLOW, 4)
    # "Isto completa a peça especial. Ele coloca um azulejo especial e ganha 2 pontos (por estar na 2.ª linha)."
    assert (yellow.special_row, yellow.special_points) == (1, 2)
    assert state.boards[MICHAEL].dome[1][0] == SPECIAL_TILE
    assert state.special_reserve == specials - 1
    # "o azulejo azul dá-lhe 3 pontos pelos azulejos ligados verticalmente, que inclui o azulejo especial"
    assert (blue.row, blue.column, blue.colour, blue.points) == (2, 0, BLUE, 3)
    assert report.dome_points == 4 + 2 + 3
    assert report.score_after == 10 + 9


# ---- "o Michael perde um total de 8 pontos: 6 pontos pelos seus 3 azulejos partidos e 2 pela peça" --------
@pytest.mark.parametrize("score_before, score_after", [(20, 12), (5, 0)])
def test_three_broken_tiles_and_the_start_player_piece_cost_eight(
    position, tower_take, score_before, score_after
):
    state = position(scores=(score_before, 10))
    board = state.boards[MICHAEL]
    board.broken = [RED, RED, BLUE]
    tower_take(state, board.broken)
    board.holds_start_piece = True
    state.start_piece_on_factory = False
    state.phase = DOME_TILING
    tower = list(state.tower)
    report = state.tile_domes()[MICHAEL]
    assert (report.broken_penalty, report.start_piece_penalty) == (6, 2)
    assert report.score_after == score_after, "never below 0"
    # "Depois, ele descarta os azulejos partidos para a torre."
    assert state.tower[RED] - tower[RED] == 2 and state.tower[BLUE] - tower[BLUE] == 1
    assert state.boards[MICHAEL].broken == []
    assert state.start_player == MICHAEL, "the piece's holder starts the next round"
