"""`azul-companion replay VIDEO --calibration FILE --players N [--variant colored|gray] [--start-player K] [--json]`.

A recorded game (a video file or a folder of frames) -> the committed move log and the final scores. Unless the
calibration already holds what was learned at setup, the recording must start at the empty table: the setup is
found in it (`vision.autosetup`) and the move tracker follows the game from there.
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections.abc import Callable, Iterator

from web_dashboard.errors import UserError


def register(subparsers) -> None:
    parser = subparsers.add_parser("replay", help="follow a recorded game and print its move log and scores")
    parser.add_argument("video", help="a video file, or a folder of frames in name order")
    parser.add_argument("--calibration", required=True, help="the calibration file (JSON)")
    parser.add_argument("--players", type=int, required=True, choices=(2, 3, 4))
    parser.add_argument("--variant", choices=("colored", "gray"), default="colored")
    parser.add_argument("--start-player", type=int, default=1,
                        help="who takes the first turn, 1 to N in the calibration's board order (default 1): "
                             "the camera cannot see who was chosen to start")
    parser.add_argument("--fps", type=float, default=None, help="frame rate of an image folder (default 10)")
    parser.add_argument("--log", default=None, help="also write the game log to this file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from calibration.profile import CalibrationError, load
    from tracker.game import Game
    from tracker.gamelog import LogError
    from tracker.record import RecordError
    from vision.autosetup import SetupNotFound
    from vision.recognizer import FrameError
    from vision.recording import RecordingError, frames
    from vision.setup import SetupError
    from web_dashboard.replay import replay_frames

    if args.fps is not None and args.fps <= 0:
        raise UserError("--fps must be positive")
    if not 1 <= args.start_player <= args.players:
        raise UserError(f"--start-player must be 1 to {args.players}")
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
        tracked, recognize, setup = _from_setup(profile, size, itertools.chain([first], stream))
        game = Game.new(args.players, args.variant, start_player=args.start_player - 1, log_path=args.log)
        report = replay_frames(tracked, recognize, game, setup=setup)
    except StopIteration:
        raise UserError(f"{args.video}: no frames") from None
    except (RecordingError, FrameError, SetupError, SetupNotFound, RecordError, LogError) as err:
        raise UserError(str(err)) from None
    result = report.to_json(game)
    game.close()
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['frames']} frames, {result['seconds']:.1f} s, round {result['rounds']}, "
              f"{len(result['moves'])} moves")
        if setup is not None:
            print(f"  {setup['t']:8.2f}s  setup found (frame {setup['frame']}, after {setup['empty_frames']} "
                  "frames of the empty table)")
        for commit in result["commits"]:
            print(f"  {commit['t']:8.2f}s  {commit['what']}")
        for alert in result["alerts"]:
            print(f"  {alert['t']:8.2f}s  ALERT {alert['rule']}: {alert['reason']}")
        print("final scores: " + (", ".join(map(str, result["final_scores"])) if result["final_scores"]
                                  else "game not finished: " + ", ".join(map(str, result["scores"]))))
    return 0


def _from_setup(profile, size, stream) -> tuple[Iterator, Callable, dict | None]:
    """The frames for the tracker, the recogniser, and where the setup was found (None: it was learned before)."""
    from vision.autosetup import find_setup
    from vision.recognizer import TableRecognizer

    if (profile.learned or {}).get("setup"):
        return stream, TableRecognizer(profile, size).recognize, None
    found = find_setup(stream, profile, size)
    # The frames before the setup (empty table, the dealer's hand) are not evidence of the game.
    where = {"frame": found.index, "t": round(found.timestamp, 3), "empty_frames": found.empty_frames,
             "setup_frames": found.setup_frames}
    return itertools.chain(found.frames, stream), found.recognizer.recognize, where
