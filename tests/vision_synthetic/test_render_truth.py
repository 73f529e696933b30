"""The rendering agrees with its ground truth: what the table view says is where, is drawn there."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.profile import DEFAULT_LAYOUT, from_json
from vision.synthetic.hands import Hand
from vision.synthetic.layout import BOARD_THICKNESS_MM, TILE_HEIGHT_MM
from vision.synthetic.look import Look
from vision.synthetic.render import Renderer
from vision.synthetic.styles import TILE_STYLES

# A clean camera: the checks are about geometry, so no noise, glare or compression to blur the verdict.
CLEAN = dict(width=960, height=540, noise_sigma=0.0, jpeg_quality=None, glare=0.0, shake_probability=0.0,
             vignette=0.0, light_gradient=0.0, colour_temp_k=5000.0, brightness=1.0, clutter=0, defocus_px=0.0)
LOOKS = {
    "overhead": Look(**CLEAN),
    "oblique, turned, barrel lens": Look(**CLEAN, tilt_deg=35.0, yaw_deg=60.0, roll_deg=8.0, distortion_k1=-0.2),
}


def empty_board() -> dict:
    return {"pattern_lines": [[], [], [], [], []], "wall": [[None] * 5 for _ in range(5)], "floor": [],
            "score_marker": 0}


def table(players: int = 2) -> dict:
    return {"boards": [empty_board() for _ in range(players)], "factories": [{} for _ in range(2 * players + 1)],
            "center": {}, "first_player": False}


def sample(image: np.ndarray, point, radius: int = 2) -> np.ndarray:
    x, y = int(round(point[0])), int(round(point[1]))
    return image[y - radius : y + radius + 1, x - radius : x + radius + 1].reshape(-1, 3).mean(0)


def dominant_colour(image: np.ndarray, point, radius: int = 3) -> str:
    """The tile colour nearest to the median round a point (motifs make any single pixel unreliable)."""
    x, y = int(round(point[0])), int(round(point[1]))
    pixels = image[y - radius : y + radius + 1, x - radius : x + radius + 1].reshape(-1, 3)
    return nearest_tile_colour(np.median(pixels, axis=0).astype(np.uint8))


def nearest_tile_colour(bgr: np.ndarray) -> str:
    lab = cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2Lab)[0, 0].astype(float)
    refs = {}
    for name, (lum, a, b) in TILE_STYLES["classic"].tile.items():
        refs[name] = np.array([lum * 255 / 100, a + 128, b + 128])
    return min(refs, key=lambda n: np.linalg.norm(refs[n][1:] - lab[1:]) + 0.5 * abs(refs[n][0] - lab[0]))


@pytest.mark.parametrize("name", list(LOOKS))
def test_projected_space_centres_land_on_the_drawn_tiles(name):
    look = LOOKS[name]
    renderer = Renderer(2, "gray", look, seed=5)  # gray wall: a tile's colour stands out from its space
    empty = renderer.render(renderer.pieces(table())).image
    view = table()
    filled = {(0, 0, 0): "red", (0, 2, 3): "blue", (0, 4, 1): "yellow", (1, 1, 4): "black", (1, 3, 2): "white"}
    for (p, r, c), colour in filled.items():
        view["boards"][p]["wall"][r][c] = colour
    view["boards"][0]["pattern_lines"][3] = ["white", "white"]
    frame = renderer.render(renderer.pieces(view)).image
    top = BOARD_THICKNESS_MM + TILE_HEIGHT_MM
    for p in range(2):
        for r in range(5):
            for c in range(5):
                point = renderer.project_board_point(p, *DEFAULT_LAYOUT.wall(r, c), height_mm=top)
                change = np.abs(sample(frame, point) - sample(empty, point)).max()
                if (p, r, c) in filled:
                    assert change > 25, f"no tile drawn at board {p} wall ({r},{c})"
                    assert dominant_colour(frame, point) == filled[(p, r, c)]
                else:
                    # An empty space is seen on the board's surface (a neighbour's shadow may touch it).
                    point = renderer.project_board_point(p, *DEFAULT_LAYOUT.wall(r, c))
                    change = np.abs(sample(frame, point) - sample(empty, point)).max()
                    assert change < 15, f"something drawn at empty board {p} wall ({r},{c})"
    for j in range(4):
        point = renderer.project_board_point(0, *DEFAULT_LAYOUT.pattern_line(3, j), height_mm=top)
        if j >= 2:
            point = renderer.project_board_point(0, *DEFAULT_LAYOUT.pattern_line(3, j))
        change = np.abs(sample(frame, point) - sample(empty, point)).max()
        assert (change > 25) == (j < 2), f"pattern line 4 slot {j}"
        if j < 2:
            assert dominant_colour(frame, point) == "white"


def test_colored_wall_tiles_differ_from_their_printed_spaces_by_relief_not_colour():
    look = LOOKS["oblique, turned, barrel lens"]
    renderer = Renderer(2, "colored", look, seed=9)
    empty = renderer.render(renderer.pieces(table())).image
    view = table()
    view["boards"][1]["wall"][2][2] = "blue"  # row 2 column 2 is printed blue
    frame = renderer.render(renderer.pieces(view)).image
    point = renderer.project_board_point(1, *DEFAULT_LAYOUT.wall(2, 2), height_mm=BOARD_THICKNESS_MM + TILE_HEIGHT_MM)
    assert dominant_colour(empty, point) == "blue"  # the print alone already reads as blue
    assert dominant_colour(frame, point) == "blue"
    # ...but the tile is drawn: its pixels (bevel, gloss, side faces, shadow) are not the print's.
    x, y = map(int, np.round(point))
    patch = (slice(y - 8, y + 9), slice(x - 8, x + 9))
    assert np.abs(frame[patch].astype(int) - empty[patch].astype(int)).mean() > 6


def test_factory_tiles_centre_pile_and_score_cube_are_where_the_view_puts_them():
    renderer = Renderer(2, "colored", LOOKS["overhead"], seed=3)
    base = renderer.render(renderer.pieces(table())).image
    view = table()
    view["factories"][1] = {"red": 4}
    view["center"] = {"black": 3}
    view["boards"][0]["score_marker"] = 37
    frame = renderer.render(renderer.pieces(view)).image
    cam = renderer.camera
    fx, fy = renderer.table.factories[1]
    # The four tiles are a touching 2x2 cluster round the disc's middle: its quarter-points are on tiles.
    centre_px = cam.project(np.array([[fx, fy, -8.0]]))[0]
    region = frame[int(centre_px[1]) - 12 : int(centre_px[1]) + 13, int(centre_px[0]) - 12 : int(centre_px[0]) + 13]
    reds = sum(nearest_tile_colour(px) == "red" for px in region.reshape(-1, 3))
    assert reds > region.shape[0] * region.shape[1] * 0.5
    for i, (x, y) in enumerate(renderer.table.factories):
        if i != 1:
            p = cam.project(np.array([[x, y, -1.5]]))[0]
            assert np.abs(sample(frame, p, 4) - sample(base, p, 4)).max() < 10
    pile = [pc for pc in renderer.pieces(view) if pc.base == 0.0]
    assert [pc.kind for pc in pile] == ["black"] * 3
    for pc in pile:
        p = cam.project(np.array([[pc.x, pc.y, -TILE_HEIGHT_MM]]))[0]
        assert dominant_colour(frame, p) == "black"
    cube = renderer.project_board_point(0, *DEFAULT_LAYOUT.score(37), height_mm=BOARD_THICKNESS_MM + 9)
    assert sample(frame, cube).mean() < 70 < sample(base, cube).mean()


def test_the_same_seed_renders_the_same_frame_and_another_seed_does_not():
    look = Look.random(21, 640, 480, clutter=2)
    view = table(3)
    view["factories"][0] = {"blue": 2, "white": 2}
    view["center"] = {"red": 2}
    first = Renderer(3, "colored", look, 21)
    second = Renderer(3, "colored", look, 21)
    a = first.render(first.pieces(view), shake=False).image
    b = second.render(second.pieces(view), shake=False).image
    assert np.array_equal(a, b)
    other = Renderer(3, "colored", look, 22)
    assert not np.array_equal(a, other.render(other.pieces(view), shake=False).image)


def test_a_hand_over_a_factory_display_is_reported_as_occluding_it_and_not_far_regions():
    renderer = Renderer(4, "colored", LOOKS["overhead"], seed=2)
    target = renderer.table.factories[4]
    frame = renderer.render(renderer.pieces(table(4)), (Hand(target, renderer.table.seats[0]),))
    assert frame.occluded["factories"][4]
    assert frame.occluded_fraction["factories"][4] > 0.5
    # The seat opposite the arm is never under it.
    assert not frame.occluded["boards"][2]
    clear = renderer.render(renderer.pieces(table(4)))
    assert not any(clear.occluded["factories"]) and not clear.occluded["center"]


def test_the_renderers_calibration_is_a_valid_profile_that_frames_the_boards():
    renderer = Renderer(3, "colored", LOOKS["oblique, turned, barrel lens"], seed=4)
    profile = from_json(renderer.calibration().to_json())
    assert len(profile.boards) == 3 and len(profile.factories) == 7
    for p, board in enumerate(profile.boards):
        # The projected middle of the wall lies inside the board's corners.
        mid = renderer.project_board_point(p, *DEFAULT_LAYOUT.wall(2, 2))
        quad = np.array(board.corners, np.float32)
        assert cv2.pointPolygonTest(quad, (float(mid[0]), float(mid[1])), False) > 0
        # TL (as read) is nearer the score track's "0" space than the other corners.
        zero = renderer.project_board_point(p, DEFAULT_LAYOUT.score_zero_x, DEFAULT_LAYOUT.score_zero_y)
        assert int(np.argmin(np.linalg.norm(quad - zero, axis=1))) == 0


def test_an_arm_reaching_past_a_low_camera_is_cut_at_the_lens_not_wrapped_around():
    """A camera low over a player's side has the player's shoulder behind it. Projected as they are, points behind
    the lens land on the wrong side of the image (a stray sleeve edge across the frame) and overflow the
    rasteriser's fixed-point coordinates."""
    import warnings

    from vision.synthetic.camera import posed_camera
    from vision.synthetic.hands import draw_hand, hand_shapes

    camera = posed_camera((640, 360), np.zeros(3), np.array([[-400, -300, 0], [400, 300, 0.0]]), 700, 50, 0, 0,
                          0.9, 0)
    hand = Hand(target=(0, 250), seat=(0, 1))
    skin, sleeve = hand_shapes(hand)
    assert camera.to_camera(np.vstack(skin + sleeve))[:, 2].min() < 0  # the shoulder is behind the camera

    img = np.full((360, 640, 3), 128, np.uint8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mask = draw_hand(img, camera, hand, np.array([0.1, 0.1]), 0.5, np.random.default_rng(0))
    ys, xs = np.nonzero(mask)
    assert len(xs) > 2000
    # One arm, coming in from the player's (bottom) edge: nothing drawn far to the side of it.
    changed = np.any(img != 128, axis=2)
    assert not changed[:, : 640 // 4].any() and not changed[:, 3 * 640 // 4:].any()
    assert ys.max() == 359
