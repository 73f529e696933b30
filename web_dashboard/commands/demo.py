"""`azul-companion demo`: the embedded default — a simulated 4-player game, live on the dashboard.

Simulated players play through the same session interface the camera pipeline uses (and now and then try an
illegal placement, which the dashboard flags and then clears); a simulated table camera feeds the camera view.
Serves http://127.0.0.1:8000 until Ctrl-C, or for `--max-seconds` (tests, scripts).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from web_dashboard.commands.serving import add_server_arguments, serve
from web_dashboard.errors import UserError


def register(subparsers) -> None:
    parser = subparsers.add_parser("demo", help="a simulated game played live on the dashboard")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--variant", choices=("colored", "gray"), default="colored")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the simulated players")
    parser.add_argument("--move-seconds", type=float, default=1.5, help="seconds between moves (default 1.5)")
    parser.add_argument("--illegal-chance", type=float, default=0.12,
                        help="chance per turn that a simulated player tries an illegal placement (default 0.12)")
    parser.add_argument("--camera-fps", type=float, default=12.0, help="simulated camera frame rate (default 12)")
    parser.add_argument("--camera-view", choices=("rendered", "schematic"), default="rendered",
                        help="the simulated camera: photographs from the synthetic renderer, or a schematic drawing")
    parser.add_argument("--log-dir", default=None, help="where game logs are written (default: a temporary folder)")
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from web_dashboard.runtime import demo_runtime
    from web_dashboard.simplayers import SimulationSettings

    if args.move_seconds < 0:
        raise UserError("--move-seconds cannot be negative")
    if not 0 < args.camera_fps <= 120:
        raise UserError("--camera-fps must be in (0, 120]")
    if not 0 <= args.illegal_chance <= 1:
        raise UserError("--illegal-chance must be between 0 and 1")
    log_dir = Path(args.log_dir) if args.log_dir else Path(tempfile.mkdtemp(prefix="azul-demo-"))
    simulation = SimulationSettings(move_seconds=args.move_seconds, illegal_chance=args.illegal_chance,
                                    alert_seconds=max(2.5, args.move_seconds), seed=args.seed)
    runtime = demo_runtime(args.players, args.variant, simulation, log_dir=log_dir,
                           calibration_path=log_dir / "calibration.json", camera_fps=args.camera_fps,
                           camera=args.camera_view)
    print(f"Demo: simulated players, {args.players} players, {args.variant} wall; game logs in {log_dir}")
    return serve(runtime, args)
