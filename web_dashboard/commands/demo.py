"""`azul-companion demo`: the embedded default — a simulated 4-player game played live through the real pipeline.

By default a whole game is rendered frame by frame by vision's synthetic table (hands, misplacements, wall
tiling) and the dashboard's game comes from reading those frames: camera loop -> recogniser -> move tracker,
as with a real camera. `--no-vision` is the light mode for machines too slow to render and read frames live:
simulated players play through the session directly (now and then trying an illegal placement, which the
dashboard flags and then clears) and a simulated camera only photographs their table. The dashboard labels
which mode runs. Serves http://127.0.0.1:8000 until Ctrl-C, or for `--max-seconds` (tests, scripts).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from web_dashboard.commands.serving import add_server_arguments, serve
from web_dashboard.display import add_display_argument
from web_dashboard.errors import UserError


def register(subparsers) -> None:
    parser = subparsers.add_parser("demo", help="a simulated game played live on the dashboard")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--variant", choices=("colored", "gray"), default="colored")
    parser.add_argument("--no-vision", action="store_true",
                        help="simulated players make the moves directly; the camera view is only a picture "
                             "(for machines too slow to render and recognise frames live)")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the simulated game")
    parser.add_argument("--move-seconds", type=float, default=1.5, help="seconds per move (default 1.5)")
    parser.add_argument("--illegal-chance", type=float, default=0.12,
                        help="chance per turn that a player makes an illegal placement (default 0.12)")
    parser.add_argument("--camera-fps", type=float, default=None,
                        help="simulated camera frame rate (default: 10, the renderer's; 12 with --no-vision)")
    parser.add_argument("--camera-view", choices=("rendered", "schematic"), default="rendered",
                        help="with --no-vision, the picture of the table: rendered photographs or a schematic "
                             "drawing")
    parser.add_argument("--log-dir", default=None, help="where game logs are written (default: a temporary folder)")
    add_display_argument(parser)
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from web_dashboard.runtime import players_demo_runtime, vision_demo_runtime
    from web_dashboard.simplayers import SimulationSettings

    if args.move_seconds < 0:
        raise UserError("--move-seconds cannot be negative")
    if args.camera_fps is not None and not 0 < args.camera_fps <= 120:
        raise UserError("--camera-fps must be in (0, 120]")
    if not 0 <= args.illegal_chance <= 1:
        raise UserError("--illegal-chance must be between 0 and 1")
    if args.camera_view == "schematic" and not args.no_vision:
        raise UserError("--camera-view schematic needs --no-vision: vision reads rendered photographs")
    log_dir = Path(args.log_dir) if args.log_dir else Path(tempfile.mkdtemp(prefix="azul-demo-"))
    simulation = SimulationSettings(move_seconds=args.move_seconds, illegal_chance=args.illegal_chance,
                                    alert_seconds=max(2.5, args.move_seconds), seed=args.seed)
    calibration_path = log_dir / "calibration.json"
    if args.no_vision:
        runtime = players_demo_runtime(args.players, args.variant, simulation, log_dir=log_dir,
                                       calibration_path=calibration_path, camera_fps=args.camera_fps or 12.0,
                                       camera=args.camera_view)
        mode = "simulated players (no vision)"
    else:
        runtime = vision_demo_runtime(args.players, args.variant, simulation, log_dir=log_dir,
                                      calibration_path=calibration_path, camera_fps=args.camera_fps)
        mode = "a rendered table read by vision"
    if args.display is not None:
        runtime.drive_display(args.display)
    print(f"Demo: {mode}, {args.players} players, {args.variant} wall; game logs in {log_dir}")
    return serve(runtime, args)
