"""PatchSampler lays its points in remap rows as even as can be (OpenCV remaps a padding point off the frame as it
does any other: a board's 67 patches of 16x16 in rows of 8192 remapped 7,424 points for nothing), and the patches
are the same whatever the rows."""

import cv2
import numpy as np
import pytest

from calibration.sampling import ROW, PatchSampler


@pytest.mark.parametrize("count", [1, 31, 67, 200])
def test_patches_are_laid_in_even_rows(count):
    rng = np.random.default_rng(count)
    frame = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
    grid = rng.uniform(-3.0, 162.0, (count, 16, 16, 2))  # some points off the frame
    sampler = PatchSampler(grid, (160, 120))
    rows, width = sampler._map1.shape[:2]
    assert rows == -(-count * 256 // ROW) and rows * width - count * 256 < rows
    # each patch alone (one short row) reads the same pixels
    alone = np.stack([PatchSampler(g[None], (160, 120)).sample(frame)[0] for g in grid])
    assert np.array_equal(sampler.sample(frame), alone)
    # and the patches stacked as they are (narrow rows) too
    stacked = grid.reshape(-1, 16, 2).astype(np.float32)
    maps = cv2.convertMaps(stacked[..., 0], stacked[..., 1], cv2.CV_16SC2)
    one = cv2.remap(frame, *maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    assert np.array_equal(alone.reshape(-1, 16, 3), one)
