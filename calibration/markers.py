"""Printed ArUco markers beside each board, and finding the boards from them every frame.

Each board gets 4 markers (ArUco 4x4 dictionary, ids 4·b .. 4·b+3), one diagonally outside each corner, as the
board is read: top-left, top-right, bottom-right, bottom-left. Their centres sit `MARKER_OFFSET` board widths
beyond the corner in both directions, so a marker never covers the board and a hand on a corner hides at most
one. From the detected marker centres (board coordinates known) a homography gives the board's corners; with
fewer than 3 markers seen the board keeps its last good pose (hands cover them during a move).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_OFFSET = 0.06  # marker centre beyond the board corner, board widths, along both edges
MARKER_SIDE = 0.08  # printed side, board widths (about 21 mm on a 26.5 cm board)
BOARD_MM = 265.0  # a classic board's side, for printing at true size
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


def marker_position(corner: int) -> tuple[float, float]:
    """Centre of the marker for corner k, in board coordinates (u right, v down as the board is read)."""
    u = (-MARKER_OFFSET, 1 + MARKER_OFFSET)[corner in (1, 2)]
    v = (-MARKER_OFFSET, 1 + MARKER_OFFSET)[corner in (2, 3)]
    return (u, v)


def marker_id(board: int, corner: int) -> int:
    return 4 * board + corner


def detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)


def detect(frame: np.ndarray, det=None) -> dict[int, np.ndarray]:
    """Marker id -> its centre in image pixels."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    corners, ids, _ = (det or detector()).detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).mean(axis=0) for i, c in zip(ids.ravel(), corners)}


def board_corners_from_markers(found: dict[int, np.ndarray], board: int,
                               last: np.ndarray | None = None) -> np.ndarray | None:
    """The board's 4 corners (TL, TR, BR, BL) from its markers; None if fewer than 3 are visible."""
    src, dst = [], []
    for k in range(4):
        mid = marker_id(board, k)
        if mid in found:
            src.append(marker_position(k))
            dst.append(found[mid])
    if len(src) < 3:
        return None
    src_a, dst_a = np.array(src, np.float32), np.array(dst, np.float32)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32).reshape(-1, 1, 2)
    if len(src) == 4:
        h = cv2.getPerspectiveTransform(src_a, dst_a)
        return cv2.perspectiveTransform(unit, h).reshape(4, 2)
    if last is not None:
        # 3 markers and a known last pose: the board moved from there, so move the last pose by the affine map
        # of its 3 markers' old places to their new ones (exact for a board slid or turned on the table).
        h_last = cv2.getPerspectiveTransform(unit.reshape(4, 2), np.asarray(last, np.float32))
        before = cv2.perspectiveTransform(src_a.reshape(-1, 1, 2), h_last).reshape(-1, 2)
        a = cv2.getAffineTransform(before.astype(np.float32), dst_a)
        return cv2.transform(np.asarray(last, np.float32).reshape(-1, 1, 2), a).reshape(4, 2)
    a = cv2.getAffineTransform(src_a, dst_a)  # 3 markers, no earlier pose: affine, fine for an overhead view
    return cv2.transform(unit, a).reshape(4, 2)


@dataclass
class MarkerLocaliser:
    """Per frame: every board's corners from its markers, or its last good pose while they are hidden."""

    boards: int
    last: list[np.ndarray | None] = field(default_factory=list)
    _detector: object = None

    def __post_init__(self) -> None:
        self.last = list(self.last) or [None] * self.boards
        self._detector = detector()

    def locate(self, frame: np.ndarray) -> tuple[list[np.ndarray | None], list[bool]]:
        """(corners per board, whether each was seen this frame)."""
        found = detect(frame, self._detector)
        seen = []
        for b in range(self.boards):
            corners = board_corners_from_markers(found, b, self.last[b])
            seen.append(corners is not None)
            if corners is not None:
                self.last[b] = corners
        return list(self.last), seen


# ---- the printable sheet ------------------------------------------------------------------------------------
def sheet_image(boards: int, dpi: int = 200) -> np.ndarray:
    """An A4 page (portrait) of all markers at true size, each labelled with its board and corner."""
    mm = dpi / 25.4
    page = np.full((int(297 * mm), int(210 * mm)), 255, np.uint8)
    side = int(round(MARKER_SIDE * BOARD_MM * mm))
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    margin, gap = int(15 * mm), int(12 * mm)
    cols = max(1, (page.shape[1] - 2 * margin + gap) // (side + gap))
    for b in range(boards):
        for k in range(4):
            n = b * 4 + k
            row, col = divmod(n, cols)
            x = margin + col * (side + gap)
            y = margin + row * (side + gap + int(6 * mm))
            if y + side + int(6 * mm) > page.shape[0]:
                raise ValueError("too many markers for one page")
            page[y : y + side, x : x + side] = cv2.aruco.generateImageMarker(dictionary, marker_id(b, k), side)
            cv2.putText(page, f"board {b + 1} {CORNER_NAMES[k]}", (x, y + side + int(4 * mm)),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.09 * mm, 0, max(1, int(0.25 * mm)), cv2.LINE_AA)
    return page


def placement_text(boards: int) -> str:
    off = MARKER_OFFSET * BOARD_MM
    side = MARKER_SIDE * BOARD_MM
    return (
        f"Print at 100 % (no 'fit to page'): each marker is {side:.0f} mm square.\n"
        f"Per board, put each marker diagonally outside its corner (as the board is read, score track at the "
        f"top): its centre {off:.0f} mm beyond the board's edge in both directions, printed side up, flat.\n"
        + "\n".join(f"  board {b + 1}: markers {4 * b}..{4 * b + 3} = "
                    + ", ".join(f"{CORNER_NAMES[k]} #{marker_id(b, k)}" for k in range(4)) for b in range(boards))
    )


def write_pdf(image: np.ndarray, path: str, dpi: int) -> None:
    """A one-page PDF holding the sheet as a JPEG at its true size (no PDF library needed)."""
    ok, jpg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    if not ok:
        raise ValueError("could not encode the sheet")
    data = jpg.tobytes()
    h, w = image.shape[:2]
    pw, ph = w * 72.0 / dpi, h * 72.0 / dpi
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    colour = "/DeviceGray" if image.ndim == 2 else "/DeviceRGB"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] /Resources << /XObject << /Im0 4 0 R >> >>"
        f" /Contents 5 0 R >>".encode(),
        f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace {colour} /BitsPerComponent 8"
        f" /Filter /DCTDecode /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    with open(path, "wb") as fh:
        fh.write(out)
