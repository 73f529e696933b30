"""Writing a rendered game to a folder: the video (and/or frame images), the per-frame ground truth, the true
move log and the calibration file.

    DIR/video.mp4         the frames (MPEG-4 Part 2; Motion-JPEG .avi where that codec is unavailable)
    DIR/frames/NNNNNN.png every frame as an image, when asked for
    DIR/truth.jsonl       one JSON object per frame: frame, time, table view, occlusion, event
    DIR/moves.jsonl       the true game log (tracker format: setup, deal, move, wall_tiling, end)
    DIR/calibration.json  what a person would write for this table (docs/calibration-format.md)
    DIR/look.json         the dials the frames were rendered with (camera, light, styles), for benchmarks
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path

import cv2

from calibration.profile import save
from vision.synthetic.animate import GameAnimation


@dataclass
class SimulationSummary:
    frames: int
    seconds_of_play: float
    render_seconds: float
    video: str | None
    moves: int
    final_scores: list[int]


def open_video(path_stem: Path, fps: float, size: tuple[int, int]) -> tuple[cv2.VideoWriter, Path]:
    """An mp4v .mp4 writer, or MJPG .avi where this OpenCV build cannot write MPEG-4."""
    for fourcc, suffix in (("mp4v", ".mp4"), ("MJPG", ".avi")):
        path = path_stem.with_suffix(suffix)
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), fps, size)
        if writer.isOpened():
            return writer, path
        writer.release()
    raise OSError("this OpenCV build can write neither MPEG-4 nor Motion-JPEG video")


def write_simulation(animation: GameAnimation, out: Path, video: bool = True, frame_format: str | None = None,
                     max_frames: int | None = None) -> SimulationSummary:
    out.mkdir(parents=True, exist_ok=True)
    save(animation.renderer.calibration(), out / "calibration.json")
    (out / "look.json").write_text(json.dumps(dataclasses.asdict(animation.look), indent=2) + "\n")
    writer, video_path = (open_video(out / "video", animation.fps, animation.look.size) if video else (None, None))
    frames_dir = out / "frames"
    if frame_format:
        frames_dir.mkdir(exist_ok=True)
    start = time.perf_counter()
    count = 0
    try:
        with open(out / "truth.jsonl", "w", encoding="utf-8") as truth:
            for frame in animation.frames():
                if max_frames is not None and count >= max_frames:
                    break
                if writer is not None:
                    writer.write(frame.image)
                if frame_format:
                    cv2.imwrite(str(frames_dir / f"{frame.index:06d}.{frame_format}"), frame.image)
                truth.write(json.dumps(frame.truth, separators=(",", ":")) + "\n")
                count += 1
    finally:
        if writer is not None:
            writer.release()
    elapsed = time.perf_counter() - start
    with open(out / "moves.jsonl", "w", encoding="utf-8") as moves:
        for event in animation.log:
            moves.write(json.dumps(event) + "\n")
    end = next((e for e in reversed(animation.log) if e["type"] == "end"), None)
    return SimulationSummary(
        frames=count,
        seconds_of_play=count / animation.fps,
        render_seconds=elapsed,
        video=str(video_path) if video_path else None,
        moves=sum(e["type"] == "move" for e in animation.log),
        final_scores=end["final_scores"] if end else [],
    )
