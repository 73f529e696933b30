"""Azul Duel (2 players, 5 rounds) in the rules tracker, beside classic Azul.

Shared with classic Azul: the colour ints, the adjacency scoring rule (`tracker.scoring.placement_points`),
the score clamp, IllegalMove, and the game record / game log machinery. Duel's own: its state, actions,
dome, bonus tiles, special tiles, scoring tiles, and the component data that describes printed faces.
"""

from tracker.duel.actions import (
    BROKEN,
    DRAW,
    LARGE,
    DrawDomeTile,
    KeepDomeTile,
    TakeBonus,
    TakeDomeTile,
    TakeMoons,
    TakeSun,
)
from tracker.duel.components import (
    DUEL_COLOUR_NAMES,
    JOKER,
    SCORING_TILES,
    SPECIAL_SPACE,
    SPECIAL_TILE,
    TURQUOISE,
    BonusTileFace,
    ComponentError,
    DomeTileFace,
    DuelComponents,
    load_components,
    parse_components,
    placeholder_components,
)
from tracker.duel.game import DuelGame, DuelRules
from tracker.duel.state import (
    ACQUISITION,
    DEAL,
    DOME_TILING,
    OPENING,
    OVER,
    BonusUse,
    DomeChoices,
    DomeReport,
    DuelDeal,
    DuelState,
    random_dome_choices,
)

__all__ = [
    "ACQUISITION", "BROKEN", "DEAL", "DOME_TILING", "DRAW", "DUEL_COLOUR_NAMES", "JOKER", "LARGE", "OPENING", "OVER",
    "SCORING_TILES", "SPECIAL_SPACE", "SPECIAL_TILE", "TURQUOISE", "BonusTileFace", "BonusUse", "ComponentError",
    "DomeChoices", "DomeReport", "DomeTileFace", "DrawDomeTile", "DuelComponents", "DuelDeal", "DuelGame",
    "DuelRules", "DuelState", "KeepDomeTile", "TakeBonus", "TakeDomeTile", "TakeMoons", "TakeSun",
    "load_components", "parse_components", "placeholder_components", "random_dome_choices",
]
