"""`azul-companion recognize IMAGE --calibration FILE [--setup SETUP_IMAGE [--empty EMPTY_IMAGE]]
[--save-calibration OUT] [--json]`.

One frame -> one observation. With `--setup`, the empty-board references and the colour model are first learned
from a photograph of the same table at setup (empty boards, 4 tiles per display, marker in the centre);
`--empty` adds a photograph of the bare table before the first deal (boards, displays and centre empty), against
which tiles on the displays are counted and coloured more reliably. `--save-calibration` keeps what was learned,
so later calls need only `--calibration`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from web_dashboard.errors import UserError


def register(subparsers) -> None:
    parser = subparsers.add_parser("recognize", help="read one photograph of the table into an observation")
    parser.add_argument("image", help="a photograph (PNG, JPEG...) of the table")
    parser.add_argument("--calibration", required=True, help="the calibration file (JSON)")
    parser.add_argument("--setup", default=None, help="a photograph of the same table at setup, to learn from")
    parser.add_argument("--empty", default=None,
                        help="with --setup: a photograph of the bare table before the first deal, to learn from")
    parser.add_argument("--save-calibration", default=None, help="write the calibration with what was learned")
    parser.add_argument("--json", action="store_true", help="print the observation as one JSON object")
    parser.set_defaults(func=run)


def read_image(path: str):
    import cv2

    if not Path(path).is_file():
        raise UserError(f"{path}: no such image file")
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise UserError(f"{path}: not an image OpenCV can read (PNG, JPEG, BMP, TIFF, WebP...)")
    return image


def _same_size(path: str, image_path: str, size: tuple[int, int]):
    """The image at `path`, refused unless it is the size of the photograph being read (one camera, one mode)."""
    image = read_image(path)
    if (image.shape[1], image.shape[0]) != size:
        raise UserError(f"{path} is {image.shape[1]}x{image.shape[0]} but {image_path} is {size[0]}x{size[1]}: "
                        "both must come from the same camera at the same resolution")
    return image


def run(args: argparse.Namespace) -> int:
    from calibration.profile import CalibrationError, load, save
    from vision.recognizer import FrameError, TableRecognizer
    from vision.setup import SetupError, learn_setup

    try:
        profile = load(args.calibration)
    except CalibrationError as err:
        raise UserError(str(err)) from None
    if args.empty and not args.setup:
        raise UserError("--empty needs --setup: the bare table is learned together with the table at setup")
    image = read_image(args.image)
    size = (image.shape[1], image.shape[0])
    if profile.image_size is not None and tuple(profile.image_size) != size:
        raise UserError(
            f"{args.image} is {size[0]}x{size[1]} but {args.calibration} was made for "
            f"{profile.image_size[0]}x{profile.image_size[1]} frames: use a calibration of this camera and resolution"
        )
    try:
        if args.setup:
            setup = _same_size(args.setup, args.image, size)
            empty = _same_size(args.empty, args.image, size) if args.empty else None
            profile = learn_setup(profile, setup, empty=empty)
            if args.save_calibration:
                save(profile, args.save_calibration)
        observation = TableRecognizer(profile, size).recognize(image)
    except (FrameError, SetupError, ValueError) as err:
        raise UserError(str(err)) from None
    if args.json:
        print(json.dumps(observation))
    else:
        _print_summary(observation)
    return 0


def _print_summary(obs: dict) -> None:
    for i, board in enumerate(obs["boards"]):
        state = "OCCLUDED" if board["occluded"] else f"confidence {board['confidence']:.2f}"
        print(f"board {i + 1} ({state}): score {board['score_marker']}")
        for r, line in enumerate(board["pattern_lines"]):
            wall = " ".join((c or "-")[:2] for c in board["wall"][r])
            print(f"  line {r + 1}: {' '.join(line) or '-':<40} wall: {wall}")
        print(f"  floor: {' '.join(board['floor']) or '-'}")
    for j, f in enumerate(obs["factories"]):
        counts = {k: v for k, v in f.items() if k not in ("occluded", "confidence")}
        flag = " OCCLUDED" if f["occluded"] else ""
        print(f"factory {j + 1}: {counts or 'empty'} (confidence {f['confidence']:.2f}){flag}")
    c = obs["center"]
    counts = {k: v for k, v in c.items() if k not in ("occluded", "confidence", "first_player")}
    print(f"centre: {counts or 'empty'}, first-player marker: {'yes' if c['first_player'] else 'no'}"
          f" (confidence {c['confidence']:.2f}){' OCCLUDED' if c['occluded'] else ''}")
