"""A display's colours where the lamp's glare clips some of a pixel's channels: read as bright as they may be."""

from calibration.colour_model import COLOURS


def test_rendered_blue_tiles_under_glare_read_blue():
    # Tuning seed 16 (classic tiles, glare 0.44, gray walls), frame 0, display 7: one blue tile, its blue channel
    # clipped by the lamp, read as black.
    from web_dashboard.vision_bench import bench_frames

    ((rec, view, frame),) = bench_frames(16, 1, variant="gray")
    seen = rec.recognize(frame.image)["factories"][7]
    assert {c: seen.get(c, 0) for c in COLOURS} == {c: view["factories"][7].get(c, 0) for c in COLOURS}
