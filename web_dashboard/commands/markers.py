"""`azul-companion markers --players N --out FILE.pdf|FILE.png`: the printable ArUco sheet and where to put it."""

from __future__ import annotations

import argparse
from pathlib import Path

from web_dashboard.errors import UserError

DPI = 200


def register(subparsers) -> None:
    parser = subparsers.add_parser("markers", help="write a printable sheet of board markers (PDF or PNG)")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--out", default="azul-markers.pdf", help="output file, .pdf or .png (default azul-markers.pdf)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from calibration.markers import placement_text, sheet_image, write_pdf

    out = Path(args.out)
    suffix = out.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise UserError(f"{out}: the sheet is written as .pdf or .png")
    if not out.parent.exists():
        raise UserError(f"{out.parent}: no such directory")
    sheet = sheet_image(args.players, DPI)
    try:
        if suffix == ".pdf":
            write_pdf(sheet, str(out), DPI)
        elif not cv2.imwrite(str(out), sheet):
            raise UserError(f"{out}: could not write the image")
    except OSError as err:
        raise UserError(f"{out}: {err.strerror or err}") from None
    print(f"wrote {out} (A4, {DPI} dpi)")
    print(placement_text(args.players))
    return 0
