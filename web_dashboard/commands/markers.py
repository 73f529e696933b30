"""`azul-companion markers --players N --out FILE.pdf|FILE.png`: the printable ArUco sheet and where to put it;
with `--lens`, the ChArUco sheet that `azul-companion lens` calibrates the camera's lens from."""

from __future__ import annotations

import argparse
from pathlib import Path

from web_dashboard.errors import UserError

DPI = 200
LENS_TEXT = ("Print at 100 % (no 'fit to page') and lay the sheet flat. From the camera's place at the table, take "
             "6-10 photos at the resolution you play at, tilting the sheet differently each time and moving it "
             "over the whole frame (corners too); then run `azul-companion lens PHOTO... --calibration FILE "
             "--save-calibration OUT`.")


def register(subparsers) -> None:
    parser = subparsers.add_parser("markers", help="write a printable sheet of board markers (PDF or PNG)")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--out", default=None,
                        help="output file, .pdf or .png (default azul-markers.pdf, or azul-lens-sheet.pdf with --lens)")
    parser.add_argument("--lens", action="store_true",
                        help="write the ChArUco sheet for lens calibration (`azul-companion lens`) instead")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from calibration.lens import charuco_sheet
    from calibration.markers import placement_text, sheet_image, write_pdf

    out = Path(args.out or ("azul-lens-sheet.pdf" if args.lens else "azul-markers.pdf"))
    suffix = out.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise UserError(f"{out}: the sheet is written as .pdf or .png")
    if not out.parent.exists():
        raise UserError(f"{out.parent}: no such directory")
    sheet = charuco_sheet(DPI) if args.lens else sheet_image(args.players, DPI)
    try:
        if suffix == ".pdf":
            write_pdf(sheet, str(out), DPI)
        elif not cv2.imwrite(str(out), sheet):
            raise UserError(f"{out}: could not write the image")
    except OSError as err:
        raise UserError(f"{out}: {err.strerror or err}") from None
    print(f"wrote {out} (A4, {DPI} dpi)")
    print(LENS_TEXT if args.lens else placement_text(args.players))
    return 0
