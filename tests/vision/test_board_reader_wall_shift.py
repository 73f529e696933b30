"""Wall tiles on their own print are told by the mean change every clear tile of that printed colour shows on the
table's boards (seeds < 1000; the bench measures on others)."""

from web_dashboard.vision_bench import run_game


def test_wall_tiles_under_a_strong_lamp_read_right():
    # Tuning seed 576 (1920x1080, bright tiles, glare 0.84): a blue and a black wall tile on their own prints, among
    # tiles, read as empty spaces in frame 0 before; none after.
    score, _ = run_game(576, 4, 4, size=None)
    assert [e for e in score.errors if e[0] == "board" and e[2] == "wall"] == []
