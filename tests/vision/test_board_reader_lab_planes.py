"""The board reader's L*a*b* planes (light.to_lab_planes) are to_lab's values, channel first."""

import numpy as np

from vision.light import to_lab, to_lab_planes


def test_lab_planes_are_to_lab_per_image_channel_first():
    rng = np.random.default_rng(5)
    images = rng.integers(0, 256, (3, 7, 5, 5, 3), dtype=np.uint8)
    gains = rng.uniform(0.5, 2.0, (3, 3)).astype(np.float32)  # past 1: some channels saturate at 255
    planes = to_lab_planes(images, gains)
    assert planes.shape == (3, 3, 7, 5, 5)
    for k in range(3):
        assert np.array_equal(planes[:, k], np.moveaxis(to_lab(images[k], gains[k]), -1, 0))
