"""`azul-companion demo`: a simulated game on the built-in table.

Until the dashboard serves it, the demo plays a 4-player game with random players through the rules tracker
and narrates it in the terminal: every move, every wall tiling with its points, and the final result.
"""

from __future__ import annotations

import argparse
import random
import time

from tracker import DEAL, GRAY, OFFER, OVER
from tracker.game import Game
from tracker.gamelog import LogError
from tracker.record import RecordError
from web_dashboard.errors import UserError


def register(subparsers) -> None:
    parser = subparsers.add_parser("demo", help="play a simulated game on the built-in table")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--variant", choices=("colored", "gray"), default="colored")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: a new game each time)")
    parser.add_argument("--delay", type=float, default=0.3, help="seconds between moves (default 0.3)")
    parser.add_argument("--log", default=None, help="write the game log to this file")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.delay < 0:
        raise UserError("--delay cannot be negative")
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    names = ["Ana", "Ben", "Cleo", "Dev"][: args.players]
    try:
        game = Game.new(args.players, args.variant, names=names, log_path=args.log)
    except (RecordError, LogError) as err:
        raise UserError(str(err)) from None
    print(f"Azul, {args.players} players, {args.variant} wall, seed {seed}")
    while game.state.phase != OVER:
        state = game.state
        if state.phase == DEAL:
            game.deal_random(rng)
            print(f"\nRound {game.state.round}: factory displays refilled")
        elif state.phase == OFFER:
            legal = state.legal_moves()
            chosen = legal[rng.randrange(len(legal))]
            print(f"  {names[state.current_player]} takes {chosen}")
            game.play(chosen)
            time.sleep(args.delay)
        else:
            chooser = (lambda p, r, c, legal: rng.choice(legal)) if args.variant == GRAY else None
            for report in game.tile_walls(chooser):
                print(
                    f"  {names[report.player]}: wall +{report.wall_points}, floor -{report.floor_penalty}"
                    f" -> {report.score_after}"
                )
    print("\nFinal scores:")
    for final in game.state.final_scores:
        print(f"  {names[final.player]}: {final.score} ({final.score_before_bonus} + bonus {final.bonus})")
    print("Winner: " + " and ".join(names[i] for i in game.state.winners()))
    game.close()
    return 0
