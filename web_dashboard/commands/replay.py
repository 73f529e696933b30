"""`azul-companion replay VIDEO --calibration FILE --players N [--variant colored|gray] [--json]`.

A recorded game (a video file or a folder of frames) -> the committed move log and the final scores.
"""

from __future__ import annotations

import argparse
import itertools
import json

from web_dashboard.errors import UserError


def register(subparsers) -> None:
    parser = subparsers.add_parser("replay", help="follow a recorded game and print its move log and scores")
    parser.add_argument("video", help="a video file, or a folder of frames in name order")
    parser.add_argument("--calibration", required=True, help="the calibration file (JSON)")
    parser.add_argument("--players", type=int, required=True, choices=(2, 3, 4))
    parser.add_argument("--variant", choices=("colored", "gray"), default="colored")
    parser.add_argument("--fps", type=float, default=None, help="frame rate of an image folder (default 10)")
    parser.add_argument("--log", default=None, help="also write the game log to this file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from calibration.profile import CalibrationError, load
    from tracker.game import Game
    from tracker.gamelog import LogError
    from tracker.record import RecordError
    from vision.recognizer import FrameError, TableRecognizer
    from vision.recording import RecordingError, frames
    from vision.setup import SetupError, learn_setup
    from web_dashboard.replay import replay_frames

    if args.fps is not None and args.fps <= 0:
        raise UserError("--fps must be positive")
    try:
        profile = load(args.calibration)
    except CalibrationError as err:
        raise UserError(str(err)) from None
    if len(profile.boards) != args.players:
        raise UserError(f"{args.calibration} has {len(profile.boards)} boards, not {args.players}")
    try:
        stream = frames(args.video, args.fps)
        first = next(stream)
        size = (first[1].shape[1], first[1].shape[0])
        if profile.image_size is not None and tuple(profile.image_size) != size:
            raise UserError(f"the video is {size[0]}x{size[1]}; {args.calibration} is for "
                            f"{profile.image_size[0]}x{profile.image_size[1]} frames")
        if not (profile.learned or {}).get("setup"):
            profile = learn_setup(profile, first[1])
        recognizer = TableRecognizer(profile, size)
        game = Game.new(args.players, args.variant, log_path=args.log)
        report = replay_frames(itertools.chain([first], stream), recognizer.recognize, game)
    except StopIteration:
        raise UserError(f"{args.video}: no frames") from None
    except (RecordingError, FrameError, SetupError, RecordError, LogError) as err:
        raise UserError(str(err)) from None
    result = report.to_json(game)
    game.close()
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['frames']} frames, {result['seconds']:.1f} s, round {result['rounds']}, "
              f"{len(result['moves'])} moves")
        for commit in result["commits"]:
            print(f"  {commit['t']:8.2f}s  {commit['what']}")
        for alert in result["alerts"]:
            print(f"  {alert['t']:8.2f}s  ALERT {alert['rule']}: {alert['reason']}")
        print("final scores: " + (", ".join(map(str, result["final_scores"])) if result["final_scores"]
                                  else "game not finished: " + ", ".join(map(str, result["scores"]))))
    return 0
