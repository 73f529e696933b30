"""`azul-companion lens PHOTO... --calibration FILE [--pattern charuco|chessboard] [--save-calibration OUT]`.

The camera's intrinsics and lens distortion from photographs of the printed ChArUco sheet (`azul-companion
markers --lens`) or of a chessboard, saved in the calibration's `camera` field. Sample points near a board's
edges then land where the bowed image puts them.
"""

from __future__ import annotations

import argparse

from web_dashboard.errors import UserError

RMS_WARNING_PX = 1.0  # a sound calibration reprojects its corners well under a pixel


def register(subparsers) -> None:
    parser = subparsers.add_parser("lens", help="calibrate the camera's lens from photos of a printed sheet")
    parser.add_argument("photos", nargs="+", help="photographs of the sheet (at least 3; 6-10, tilted differently)")
    parser.add_argument("--calibration", required=True, help="the calibration file (JSON) of this camera")
    parser.add_argument("--pattern", choices=("charuco", "chessboard"), default="charuco",
                        help="the printed sheet: charuco (`azul-companion markers --lens`, default) or a chessboard")
    parser.add_argument("--inner-corners", default="9x6",
                        help="chessboard only: inner corners per row x per column (default 9x6)")
    parser.add_argument("--save-calibration", default=None, help="write the calibration with the lens model")
    parser.set_defaults(func=run)


def _inner_corners(text: str) -> tuple[int, int]:
    try:
        cols, rows = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"--inner-corners {text!r}: write it as COLSxROWS, e.g. 9x6") from None
    if cols < 3 or rows < 3:
        raise UserError(f"--inner-corners {text!r}: a chessboard needs at least 3x3 inner corners")
    return cols, rows


def run(args: argparse.Namespace) -> int:
    import dataclasses

    from calibration.lens import LensError, calibrate_lens
    from calibration.profile import CalibrationError, load, save
    from web_dashboard.commands.recognize import read_image

    try:
        profile = load(args.calibration)
    except CalibrationError as err:
        raise UserError(str(err)) from None
    corners = _inner_corners(args.inner_corners)
    photos = [read_image(path) for path in args.photos]
    try:
        result = calibrate_lens(photos, args.pattern, corners)
    except LensError as err:
        raise UserError(str(err)) from None
    if profile.image_size is not None and tuple(profile.image_size) != result.image_size:
        raise UserError(f"the photos are {result.image_size[0]}x{result.image_size[1]} but {args.calibration} is for "
                        f"{profile.image_size[0]}x{profile.image_size[1]} frames: photograph the sheet at the "
                        "resolution you play at")
    (fx, _, cx), (_, fy, cy), _ = result.camera.matrix
    print(f"lens from {result.used} of {len(photos)} photos: reprojection error {result.rms_px:.2f} px, "
          f"focal length {fx:.0f}x{fy:.0f} px, centre ({cx:.0f}, {cy:.0f}), "
          f"distortion {', '.join(f'{k:.3f}' for k in result.camera.distortion)}")
    if result.rms_px > RMS_WARNING_PX:
        print(f"warning: an error over {RMS_WARNING_PX:.0f} px usually means blurred photos or a sheet that was not "
              "flat; consider taking them again")
    if args.save_calibration:
        # What setup learned was sampled without this lens model; it no longer lines up and must be learned anew.
        dropped = sorted(profile.learned)
        profile = dataclasses.replace(profile, camera=result.camera, image_size=result.image_size, learned={})
        try:
            save(profile, args.save_calibration)
        except OSError as err:
            raise UserError(f"{args.save_calibration}: {err.strerror or err}") from None
        print(f"wrote {args.save_calibration}")
        if dropped:
            print(f"dropped what setup had learned ({', '.join(dropped)}): learn it again with this lens model "
                  "(the dashboard's calibration page, or `azul-companion recognize --setup`)")
    return 0
