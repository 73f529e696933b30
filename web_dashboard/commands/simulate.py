"""`azul-companion simulate --players N --seed S --out DIR`: a rendered game with its ground truth.

Bots play a legal game; the synthetic table camera films it as people play it. DIR receives the video (and, if
asked, the frames as images), truth.jsonl (per frame: the table view, occluded regions, the event), moves.jsonl
(the true game log) and calibration.json. The same arguments always produce the same game and frames.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from web_dashboard.errors import UserError


def register(subparsers) -> None:
    parser = subparsers.add_parser("simulate", help="render a simulated game: video, ground truth, calibration")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=0, help="the game, the table and the camera (default 0)")
    parser.add_argument("--out", required=True, help="folder to write into (created if missing)")
    parser.add_argument("--variant", choices=("colored", "gray"), default="colored", help="wall side")
    parser.add_argument(
        "--style", default=None,
        help="art style TILES[/BOARD[/TABLE]], e.g. classic/cool/walnut (default: chosen by the seed); "
             "tiles: classic, bright, matte; boards: classic, cool, warm; tables: oak, walnut, white, green_felt, "
             "grey_linen",
    )
    parser.add_argument("--size", default="1280x720", help="frame size WxH, 640x480 to 3840x2160 (default 1280x720)")
    parser.add_argument("--fps", type=float, default=10.0, help="frames per second of play (default 10)")
    parser.add_argument("--pace", choices=("people", "quick"), default="people",
                        help="people: hands, pauses and nudged boards as at a real table (default); quick: one "
                             "frame per stage, a 4-player game in ~40 s of video")
    parser.add_argument("--frames", choices=("png", "jpg"), default=None, help="also write every frame as an image")
    parser.add_argument("--no-video", action="store_true", help="do not write the video file")
    parser.add_argument("--max-frames", type=int, default=None, help="stop after this many frames")
    parser.set_defaults(func=run)


def _size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)[xX](\d+)", text.strip())
    if not match:
        raise UserError(f"--size must look like 1280x720, not {text!r}")
    w, h = int(match.group(1)), int(match.group(2))
    if not (160 <= w <= 7680 and 120 <= h <= 4320):
        raise UserError(f"--size {w}x{h} is out of range (160x120 to 7680x4320)")
    return w, h


def _style(text: str | None) -> dict:
    if text is None:
        return {}
    from vision.synthetic.styles import BOARD_STYLES, TABLE_STYLES, TILE_STYLES

    parts = text.split("/")
    if len(parts) > 3:
        raise UserError("--style is TILES[/BOARD[/TABLE]]")
    chosen = {}
    for part, (key, known) in zip(parts, (("tile_style", TILE_STYLES), ("board_style", BOARD_STYLES),
                                          ("table_style", TABLE_STYLES))):
        if part not in known:
            raise UserError(f"unknown {key.replace('_', ' ')} {part!r} in --style; known: {', '.join(known)}")
        chosen[key] = part
    return chosen


def run(args: argparse.Namespace) -> int:
    width, height = _size(args.size)
    style = _style(args.style)
    if args.fps <= 0:
        raise UserError("--fps must be positive")
    if args.no_video and not args.frames:
        raise UserError("--no-video needs --frames png|jpg, or there would be no pictures at all")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a folder")

    from vision.synthetic.animate import PEOPLE_PACE, GameAnimation, Pace
    from vision.synthetic.look import Look
    from vision.synthetic.output import write_simulation

    look = Look.random(args.seed, width, height, **style)
    pace = PEOPLE_PACE if args.pace == "people" else Pace()
    animation = GameAnimation(args.players, args.seed, args.variant, look, fps=args.fps, pace=pace)
    try:
        summary = write_simulation(animation, out, video=not args.no_video, frame_format=args.frames,
                                   max_frames=args.max_frames)
    except OSError as err:
        raise UserError(f"cannot write to {out}: {err}") from None
    print(f"{summary.frames} frames ({summary.seconds_of_play:.1f} s of play at {args.fps:g} fps, "
          f"{width}x{height}) rendered in {summary.render_seconds:.1f} s")
    print(f"{summary.moves} moves; final scores {summary.final_scores}")
    print(f"written to {out}/: {Path(summary.video).name + ', ' if summary.video else ''}"
          f"{'frames/, ' if args.frames else ''}truth.jsonl, moves.jsonl, calibration.json, look.json")
    return 0
