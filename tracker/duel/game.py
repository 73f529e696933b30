"""An Azul Duel game as players and the camera drive it: every action becomes a logged event.

The same machinery as classic Azul (`tracker.record.GameRecord`): each event is checked by the rules, appended
to the fsynced game log, and only then becomes the game's state; undo and corrections replay through the log.
The setup event carries the component data, so a log replays the same game even if the user's file changes.

Events: setup, deal, dome_tile, dome_draw, dome_keep, take_sun, take_moons, take_bonus, dome_tiling, end.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tracker.duel.actions import ACTION_EVENTS, DuelAction, action_from_json
from tracker.duel.components import DuelComponents, parse_components, parse_scoring_tiles
from tracker.duel.state import (
    DEFAULT_START_SCORE,
    OVER,
    DomeChoices,
    DomeReport,
    DuelDeal,
    DuelState,
)
from tracker.record import RecordedGame


class DuelRules:
    """How Azul Duel's events change a DuelState (the GameRecord's rules)."""

    game_events = frozenset({"deal", "dome_tiling", *ACTION_EVENTS})

    def setup(self, event: dict) -> DuelState:
        if event.get("game") != "azul-duel":
            raise ValueError(f"setup 'game' must be \"azul-duel\", not {event.get('game')!r}")
        components = parse_components(event.get("components"))
        names = event.get("names") or ()
        if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
            raise ValueError("setup 'names' must be a list of 2 player names")
        scoring = event.get("scoring_tiles")
        if scoring is not None:
            scoring = parse_scoring_tiles(scoring)
        return DuelState.new(
            components,
            names,
            event.get("start_player", 0),
            event.get("start_score", DEFAULT_START_SCORE),
            scoring,
        )

    def apply(self, state: DuelState, event: dict) -> None:
        kind = event["type"]
        if kind == "deal":
            state.deal(DuelDeal.from_json(event))
        elif kind == "dome_tiling":
            players = event.get("players")
            if players is None:
                choices = None
            elif isinstance(players, list) and len(players) == 2:
                choices = [DomeChoices.from_json(p) for p in players]
            else:
                raise ValueError("dome tiling 'players' must hold 2 sets of choices")
            state.tile_domes(choices)
            expected = event.get("scores_after")
            if expected is not None and expected != [b.score for b in state.boards]:
                raise ValueError(
                    f"the recorded scores {expected} differ from the rules' {[b.score for b in state.boards]}"
                )
        else:
            player = event.get("player")
            if player is not None and player not in (0, 1):
                raise ValueError(f"field 'player' must be 0 or 1, not {player!r}")
            revealed = event.get("revealed")
            if revealed is not None and (not isinstance(revealed, int) or isinstance(revealed, bool)):
                raise ValueError(f"field 'revealed' must be a dome tile number, not {revealed!r}")
            state.play(action_from_json(event), player=player, revealed=revealed)

    def check_end(self, state: DuelState, event: dict) -> None:
        if state.phase != OVER:
            raise ValueError("an end event before the game is over")
        expected = event.get("final_scores")
        if expected is not None and expected != [b.score for b in state.boards]:
            raise ValueError(
                f"the recorded final scores {expected} differ from {[b.score for b in state.boards]}"
            )


class DuelGame(RecordedGame):
    rules = DuelRules

    @classmethod
    def new(
        cls,
        components: DuelComponents,
        names: Sequence[str] = (),
        start_player: int = 0,
        start_score: int = DEFAULT_START_SCORE,
        scoring_tiles: Sequence[str] | None = None,
        log_path=None,
    ) -> DuelGame:
        setup = {
            "type": "setup",
            "game": "azul-duel",
            "version": 1,
            "components": components.to_json(),
            "names": list(names),
            "start_player": start_player,
            "start_score": start_score,
        }
        if scoring_tiles is not None:
            setup["scoring_tiles"] = list(scoring_tiles)
        return cls._start(setup, log_path)

    @property
    def state(self) -> DuelState:
        return self.record.state

    @property
    def events(self) -> list[dict]:
        return self.record.events

    def deal(self, deal: DuelDeal) -> None:
        self.record.submit(deal.to_json())

    def deal_random(self, rng: random.Random) -> DuelDeal:
        deal = self.state.draw_deal(rng)
        self.deal(deal)
        return deal

    def play(self, action: DuelAction, player: int | None = None, revealed: int | None = None) -> None:
        who = self.state.current_player if player is None else player
        event = {**action.to_json(), "player": who}
        if revealed is not None:
            event["revealed"] = revealed
        self.record.submit(event)

    def tile_domes(self, choices: Sequence[DomeChoices] | None = None) -> list[DomeReport]:
        trial = self.state.copy()
        reports = trial.tile_domes(choices)
        event: dict = {"type": "dome_tiling", "scores_after": [b.score for b in trial.boards]}
        if choices is not None:
            event["players"] = [c.to_json() for c in choices]
        self.record.submit(event)
        if self.state.phase == OVER:
            self.record.submit(
                {
                    "type": "end",
                    "final_scores": [b.score for b in self.state.boards],
                    "winners": self.state.winners(),
                }
            )
        return reports
