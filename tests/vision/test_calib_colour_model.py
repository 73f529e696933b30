import numpy as np
import pytest

from calibration.colour_model import COLOURS, ColourModel


def _samples(model: ColourModel, shift, n=40, seed=0):
    rng = np.random.default_rng(seed)
    pts = [model.means[c] + np.array(shift) + rng.normal(0, 2, (n, 3)) for c in range(len(COLOURS))]
    return np.concatenate(pts).astype(np.float32)


def test_fitting_follows_a_colour_cast_and_keeps_the_names():
    model = ColourModel.default()
    fitted = model.fitted(_samples(model, (-6.0, 4.0, 7.0)))
    assert np.allclose(fitted.means[: len(COLOURS)], model.means[: len(COLOURS)] + [-6, 4, 7], atol=1.5)
    # The marker and the non-tile colours move with the cast too.
    assert np.allclose(fitted.background - model.background, [-6, 4, 7], atol=1.5)
    probs = fitted.probabilities(fitted.means[:5] + 0.5, 5)
    assert list(probs.argmax(axis=1)) == [0, 1, 2, 3, 4]


def test_a_colour_missing_at_setup_keeps_its_cast_default():
    model = ColourModel.default()
    samples = _samples(model, (3.0, 0.0, 0.0))
    samples = samples[40:]  # no blue tile on the displays
    fitted = model.fitted(samples)
    assert np.allclose(fitted.means[0], model.means[0] + [3, 0, 0], atol=1.5)


def test_json_round_trip_and_malformed_model():
    model = ColourModel.default().fitted(_samples(ColourModel.default(), (1.0, 1.0, 1.0)))
    again = ColourModel.from_json(model.to_json())
    assert np.allclose(again.means, model.means, atol=0.01)
    with pytest.raises(ValueError):
        ColourModel.from_json({"means": [[1, 2]], "sigmas": []})
