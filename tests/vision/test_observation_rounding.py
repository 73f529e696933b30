"""The observation's probabilities are rounded a board at a time (_rounded): the same floats as round(p, 4)."""

import math

import numpy as np

from vision.observation import _r, _rounded


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


def test_rounded_equals_round_near_half_way_points():
    # p * 10**4 rounds to exactly n + 0.5 for many of these though p lies above or below it (5e-05: round gives
    # 0.0001, np.rint(p * 1e4) / 1e4 gives 0.0): round decides them.
    halves = [(n + 0.5) / 1e4 for n in range(0, 10000, 7)]
    values = [float(v) for h in halves for v in (h, np.nextafter(h, 0), np.nextafter(h, 1), -h)]
    assert any(float(np.rint(v * 1e4) / 1e4) != round(v, 4) for v in values)  # the case the slack is for
    out = _rounded(values)
    assert all(_same(a, _r(v)) for a, v in zip(out, values))


def test_rounded_equals_round_anywhere():
    rng = np.random.default_rng(3)
    values = [*rng.random(5000).tolist(), *(rng.random(500) * 1e12).tolist(), *(-rng.random(500)).tolist(),
              0.0, -0.0, 1.0, 0.03125, 1e-300, 3e9, float("inf"), float("-inf"), float("nan"), *np.float32(rng.random(50))]
    out = _rounded(values)
    assert len(out) == len(values)
    assert all(_same(a, _r(v)) for a, v in zip(out, values))
    assert all(type(a) is float for a in out)
