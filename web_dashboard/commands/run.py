"""`azul-companion run --camera SRC`: watch a real table with a camera or a phone stream.

SRC is a device index (0), a video file, an image folder, or an http/rtsp URL (phone camera apps). Without a
calibration file yet, the dashboard's calibration wizard (/calibrate) writes one to `--calibration`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from web_dashboard.commands.serving import add_server_arguments, serve
from web_dashboard.display import add_display_argument
from web_dashboard.errors import UserError


def register(subparsers) -> None:
    parser = subparsers.add_parser("run", help="watch a real table with a camera and serve the dashboard")
    parser.add_argument("--camera", required=True, metavar="SRC",
                        help="device index, video file, image folder, or http/rtsp URL")
    parser.add_argument("--calibration", default="calibration.json", metavar="FILE",
                        help="calibration profile to use, and where the wizard saves one (default calibration.json)")
    parser.add_argument("--players", type=int, default=None, choices=(2, 3, 4),
                        help="players (default: as many boards as the calibration has, else 4)")
    parser.add_argument("--variant", choices=("colored", "gray"), default="colored")
    parser.add_argument("--names", default="", help="player names, comma-separated")
    parser.add_argument("--fps", type=float, default=5.0, help="frames per second for an image folder (default 5)")
    parser.add_argument("--log-dir", default="azul-games", help="where game logs are written (default azul-games/)")
    add_display_argument(parser)
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from calibration.profile import CalibrationError, load
    from web_dashboard.recognition import load_recognizer
    from web_dashboard.runtime import camera_runtime
    from web_dashboard.sources import source_from_spec
    from web_dashboard.wizard import overlay_painter

    calibration_path = Path(args.calibration)
    profile = None
    if calibration_path.exists():
        try:
            profile = load(calibration_path)
        except CalibrationError as err:
            raise UserError(str(err)) from None
    players = args.players or (profile.players if profile is not None else 4)
    if profile is not None and profile.players != players:
        raise UserError(f"{calibration_path} has {profile.players} boards but --players is {players}")
    names = tuple(n.strip() for n in args.names.split(",") if n.strip())
    if len(names) > players:
        raise UserError(f"--names lists {len(names)} names for {players} players")
    names += tuple(f"Player {i + 1}" for i in range(len(names), players))
    if args.fps <= 0:
        raise UserError("--fps must be positive")
    recognizer, label = load_recognizer(profile)
    runtime = camera_runtime(
        source_from_spec(args.camera, args.fps), players, args.variant, names, calibration_path,
        Path(args.log_dir), recognizer=recognizer, recognition_label=label,
        overlay=overlay_painter(profile) if profile is not None else None,
    )
    if args.display is not None:
        runtime.drive_display(args.display)
    print(f"Camera: {args.camera}; recognition {label}")
    if profile is None:
        print(f"No calibration at {calibration_path} yet: open /calibrate on the dashboard to make one, then "
              "restart.")
    return serve(runtime, args)
