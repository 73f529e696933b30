"""The lamp's reflection over factory displays: learned at setup, taken off before colours are judged."""

import copy

import pytest

from tests.vision.conftest import Table
from vision.recognizer import FrameError, TableRecognizer
from vision.synthetic.look import Look


@pytest.fixture(scope="module")
def glaring_table() -> Table:
    # Seed 32 puts the lamp's full reflection over the displays in the middle of the table.
    return Table(32, look=Look(glare=1.0, noise_sigma=2.0, jpeg_quality=90))


@pytest.fixture(scope="module")
def views(glaring_table) -> list:
    return [glaring_table.frame(salt=k) for k in range(4)]


def _wrong_displays(rec: TableRecognizer, views: list) -> int:
    wrong = 0
    for view, frame in views:
        obs = rec.recognize(frame.image)
        for j, seen in enumerate(obs["factories"]):
            got = {c: n for c, n in seen.items() if c not in ("occluded", "confidence") and n}
            wrong += got != {c: n for c, n in view["factories"][j].items() if n}
    return wrong


def test_glare_is_found_where_the_lamp_reflects_and_nowhere_else(glaring_table):
    glare = [f["glare"] for f in glaring_table.profile.learned["setup"]["factories"]]
    assert max(glare) >= 20
    assert sum(g <= 10 for g in glare) >= len(glare) // 2


def test_displays_under_the_lamp_read_right_once_the_glare_is_off(glaring_table, views):
    profile = glaring_table.profile
    wrong = _wrong_displays(TableRecognizer(profile), views)
    assert wrong <= 2  # of 36
    blind = copy.deepcopy(profile)
    for info in blind.learned["setup"]["factories"]:
        info["glare"] = 0.0
    # Judged without it, the whitened tiles are misread (blue as white, black as grey): 4 of 36 when measured.
    assert _wrong_displays(TableRecognizer(blind), views) > wrong


@pytest.mark.parametrize("value", ["bright", -5, 300, True])
def test_a_malformed_glare_is_refused(plain_table, value):
    profile = copy.deepcopy(plain_table.profile)
    profile.learned["setup"]["factories"][2]["glare"] = value
    with pytest.raises(FrameError, match=r"factories\[2\]\.glare"):
        TableRecognizer(profile)
