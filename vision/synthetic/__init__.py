"""The synthetic table camera: photographs of an Azul table rendered from any game state.

- `render.Renderer`: table view (DESIGN.md's observation shape) + `look.Look` -> BGR frame, occlusion truth,
  and the calibration file a person would write for that table.
- `animate` plays bot games through the rules tracker and animates them as people play (hands, sliding tiles,
  tile-by-tile wall tiling, a misplacement now and then), with per-frame ground truth.
- `source.SyntheticTable`: a camera source like any other (`read()`, `close()`).

Recognition must never import this package nor read its ground truth (tests/vision_synthetic enforces it).
"""
