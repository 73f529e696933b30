"""The ground patches' per-channel medians, counted in histograms (_channel_medians), are the values a sort of their
pixels gives (_quantiles: the two middle values interpolated)."""

import numpy as np
import pytest

from vision.board_reader import _channel_medians, _quantiles


@pytest.mark.parametrize("pixels", [5120, 333, 2, 1])
def test_channel_medians_are_the_sorted_pixels_medians(pixels):
    rng = np.random.default_rng(pixels)
    images = [rng.integers(low, 256, (pixels, 3), dtype=np.uint8) for low in (0, 100, 250)]
    images.append(np.full((pixels, 3), 7, np.uint8))
    sorted_median = _quantiles(np.stack(images).transpose(0, 2, 1).reshape(-1, pixels).astype(np.float32), (50,))[0]
    assert np.array_equal(_channel_medians(images), sorted_median.reshape(len(images), 3))
