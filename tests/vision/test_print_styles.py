"""Mat print styles on the simulated table (the simulated table "stops being one drawing": a
random print per scene, our own print unchanged by default, piece gloss, patterned tables)."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from types import ModuleType

import numpy as np
import pytest

from tests.benchmarks import load_benchmark
from vision.errors import VisionError
from vision.mat import (
    BORDER_WIDTHS,
    LINE_WIDTHS,
    MatColours,
    MatModel,
    MatPrint,
    PortpadMark,
    QuadrantMark,
    TelepadMark,
    draw_mat,
    random_print,
    square_name,
)
from vision.simtable import CameraPose, Lighting, PieceStyle, Scene, Sensor, render, vary_look

PX = 48  # pixels per space in these drawings: small enough to be fast, big enough to measure
CLEAN = Sensor(noise=0, blur=0, jpeg_quality=None)
SMALL = CameraPose(tilt_deg=20, width=320, height=180)
START = {"poles": {"c1": "south", "d1": "south", "e1": "south", "f1": "south",
                   "c8": "north", "d8": "north", "e8": "north", "f8": "north"},
         "ports": [{"square": "b2", "side": "south", "corner": "sw"},
                   {"square": "g7", "side": "north", "corner": "ne"}]}
# Colours far apart, so every printed element can be told from the others by colour alone.
LIGHT = MatColours(base=(230, 230, 230), line=(40, 40, 40), centre=(150, 150, 150),
                   trapezoid=(205, 205, 205), border=(90, 90, 90),
                   side={"south": (0, 0, 255), "north": (255, 0, 0)})
DARK = MatColours(base=(30, 60, 20), line=(220, 220, 220), centre=(120, 140, 110),
                  trapezoid=(50, 80, 40), border=(30, 60, 20),
                  side={"south": (0, 200, 255), "north": (255, 0, 255)})
INK_NEAR = 60  # a pixel this close (BGR distance) to an ink counts as that ink

# sha256 of draw_mat(MatModel(), px) taken before print styles existed (OpenCV 4.x drawing).
DEFAULT_MAT_SHA256 = {
    40: "c87a1da1142cf9fe515d4eb81d6195b8c9b3e6b4c3529bf75ed2085b5fd623c7",
    48: "73b98cb47648c5f9d4e6ab1af294660232588e9d5c4f70bb9b9d722b3ce17180",
}


def at(model: MatModel, img: np.ndarray, x: float, y: float) -> np.ndarray:
    """The drawing's pixel at mat point (x, y), as int BGR."""
    s = img.shape[0] / model.extent
    return img[int((8 + model.border - y) * s), int((x + model.border) * s)].astype(int)


def near(pixel: np.ndarray, colour: tuple[int, int, int], tol: float = 25) -> bool:
    return float(np.linalg.norm(pixel - np.array(colour))) < tol


def ink_spaces(model: MatModel, img: np.ndarray, ink: tuple[int, int, int]) -> set[str]:
    """The spaces in which some pixels are printed in ``ink``."""
    s = img.shape[0] / model.extent
    off = round(model.border * s)
    hit = np.linalg.norm(img.astype(float) - np.array(ink, float), axis=2) < INK_NEAR
    grid = hit[off:off + round(8 * s), off:off + round(8 * s)]
    out = set()
    for file in range(8):
        for rank in range(8):
            r0, c0 = round((7 - rank) * s), round(file * s)
            if grid[r0:r0 + round(s), c0:c0 + round(s)].sum() > 3:
                out.add(square_name(file, rank))
    return out


def styled(colours: MatColours = LIGHT, **marks: object) -> MatModel:
    return MatModel(colours=colours, line_width=0.05, border=0.5,
                    print=MatPrint(**marks))  # type: ignore[arg-type]


def test_default_mat_drawing_is_unchanged() -> None:
    """Requirement: MatModel's default print is exactly today's drawing (`companion mat`)."""
    assert MatModel().print == MatPrint()
    for px, digest in DEFAULT_MAT_SHA256.items():
        assert hashlib.sha256(draw_mat(MatModel(), px).tobytes()).hexdigest() == digest


@pytest.mark.parametrize("colours", [LIGHT, DARK], ids=["light", "dark"])
def test_grid_lines_lie_on_the_grid_with_the_grounds_polarity(colours: MatColours) -> None:
    """Requirement: grid lines where the grid is; dark lines on a light ground and light lines
    on a dark one; the border in its own colour round the grid."""
    model = styled(colours, quadrant=QuadrantMark.NONE)
    img = draw_mat(model, PX)
    assert model.ground == ("light" if colours is LIGHT else "dark")
    for i in range(9):
        assert near(at(model, img, i, 4.5), colours.line)  # a vertical line
        assert near(at(model, img, 4.5, i), colours.line)  # a horizontal line
    ground = at(model, img, 3.5, 3.5)
    assert near(ground, colours.base)
    luma = np.array([0.114, 0.587, 0.299])
    line = at(model, img, 4.0, 3.5)
    assert (luma @ line < luma @ ground) == (colours is LIGHT)
    assert near(at(model, img, -0.3, 4.5), colours.border)


@pytest.mark.parametrize("mark", list(TelepadMark))
def test_telepad_marks_are_printed_on_the_home_telepads_only(mark: TelepadMark) -> None:
    """Requirement: each Telepad style draws its side's ink on c1-f1 (south) and c8-f8 (north)
    and nowhere else, and in the shape it names."""
    model = styled(telepad=mark, portpad=PortpadMark.NONE)
    img = draw_mat(model, PX)
    assert ink_spaces(model, img, LIGHT.side["south"]) == {"c1", "d1", "e1", "f1"}
    assert ink_spaces(model, img, LIGHT.side["north"]) == {"c8", "d8", "e8", "f8"}
    south = LIGHT.side["south"]
    centre, corner = at(model, img, 2.5, 0.5), at(model, img, 2.15, 0.15)
    ring = at(model, img, 2.5 + 0.33, 0.5)
    expect = {TelepadMark.HOLED_SQUARE: (False, True, True),  # centre, corner, ring radius
              TelepadMark.RING: (False, False, True),
              TelepadMark.DISC: (True, False, True),
              TelepadMark.OUTLINE: (False, True, False),
              TelepadMark.BLOCK: (True, True, True)}[mark]
    got = tuple(near(p, south, INK_NEAR) for p in (centre, corner, ring))
    assert got == expect


@pytest.mark.parametrize("mark", list(PortpadMark))
def test_portpad_marks_are_printed_on_the_portpads_only(mark: PortpadMark) -> None:
    """Requirement: each Portpad style marks b2, c3, f3, g2 (south) and b7, c6, f6, g7 (north)
    in the start corner of MatModel.portpads, and no other space; "unmarked" marks none."""
    model = styled(telepad=TelepadMark.RING, portpad=mark)
    img = draw_mat(model, PX)
    pads = {"south": {"b2", "c3", "f3", "g2"}, "north": {"b7", "c6", "f6", "g7"}}
    for side, squares in pads.items():
        telepads = set(model.home_telepads[side])
        want = telepads if mark is PortpadMark.NONE else telepads | squares
        assert ink_spaces(model, img, LIGHT.side[side]) == want
    if mark is not PortpadMark.NONE:
        south = LIGHT.side["south"]
        # b2's corner is sw: its mark lies by the south-west corner, not the north-east one.
        u, v = {PortpadMark.STRIPES: (0.08, 0.5), PortpadMark.TRIANGLE: (0.1, 0.1),
                PortpadMark.DOT: (0.2, 0.2)}[mark]
        assert near(at(model, img, 1 + u, 1 + v), south, INK_NEAR)
        assert not near(at(model, img, 2 - u, 2 - v), south, INK_NEAR)


@pytest.mark.parametrize("mark", list(QuadrantMark))
def test_quadrant_patterns_are_printed_in_ranks_2_to_7(mark: QuadrantMark) -> None:
    """Requirement: each Quadrant pattern (none, centre square, four dots, diagonals) is drawn
    in the spaces of ranks 2-7 where it belongs; back-row spaces off the Telepads stay plain."""
    model = styled(quadrant=mark, portpad=PortpadMark.NONE)
    img = draw_mat(model, PX)
    pattern_at = {QuadrantMark.NONE: None, QuadrantMark.SQUARE: (0.5, 0.5),
                  QuadrantMark.DOTS: (0.25, 0.25), QuadrantMark.DIAGONALS: (0.35, 0.35)}[mark]
    for square in ("d4", "a2", "h7", "b2"):
        x0, y0 = "abcdefgh".index(square[0]), int(square[1]) - 1
        assert near(at(model, img, x0 + 0.5, y0 + 0.12), LIGHT.base, 60)  # between marks
        if pattern_at is None:
            assert near(at(model, img, x0 + 0.5, y0 + 0.5), LIGHT.base)
        else:
            p = at(model, img, x0 + pattern_at[0], y0 + pattern_at[1])
            assert np.linalg.norm(p - np.array(LIGHT.base)) > 30
    for square in ("a1", "h8"):  # plain back-row corners
        x0, y0 = "abcdefgh".index(square[0]), int(square[1]) - 1
        for u, v in ((0.25, 0.25), (0.35, 0.35), (0.5, 0.5)):
            assert near(at(model, img, x0 + u, y0 + v), LIGHT.base)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_random_print_is_deterministic_and_in_range(seed: int) -> None:
    """Requirement: random_print is deterministic for a seed (random.Random or a numpy
    Generator), with line width 0.012-0.05 and border 0-0.8 of a space, and a style name."""
    a, b = random_print(random.Random(seed)), random_print(random.Random(seed))
    assert a == b and a.style_name == b.style_name
    g1 = random_print(np.random.default_rng(seed))
    assert g1 == random_print(np.random.default_rng(seed))
    assert LINE_WIDTHS[0] <= a.line_width <= LINE_WIDTHS[1]
    assert BORDER_WIDTHS[0] <= a.border <= BORDER_WIDTHS[1]
    assert a.ground in a.style_name and a.print.quadrant.value in a.style_name
    assert a.colours.side["south"] != a.colours.side["north"]


def test_random_prints_vary() -> None:
    """Requirement: prints are randomisable per scene: grounds light and dark, every pattern
    and mark, inks sometimes the pieces' colours and sometimes not."""
    pieces = PieceStyle().colours
    prints = [random_print(random.Random(s), pieces) for s in range(120)]
    assert {p.ground for p in prints} == {"light", "dark"}
    assert {p.print.quadrant for p in prints} == set(QuadrantMark)
    assert {p.print.telepad for p in prints} == set(TelepadMark)
    assert {p.print.portpad for p in prints} == set(PortpadMark)
    own = [p.colours.side == pieces for p in prints]
    assert any(own) and not all(own)
    assert any(p.colours.border == p.colours.base for p in prints)  # "no border"


def test_render_with_a_random_print_is_deterministic_for_a_seed() -> None:
    """Requirement: everything random comes from the scene's seed: the same seed gives the
    same look and the same image, another seed another."""
    scene = vary_look(Scene(pose=SMALL, seed=5))
    assert scene == vary_look(Scene(pose=SMALL, seed=5))
    assert scene.mat != MatModel()
    a, b = render(START, scene), render(START, vary_look(Scene(pose=SMALL, seed=5)))
    assert np.array_equal(a.image, b.image)
    other = vary_look(Scene(pose=SMALL, seed=6))
    assert not np.array_equal(a.image, render(START, other).image)


def test_the_mat_in_a_render_follows_its_print() -> None:
    """Requirement: the simulated table draws the scene's mat with its print (Scene.mat)."""
    dark = replace(styled(DARK, quadrant=QuadrantMark.NONE), border=0.3)
    pose = CameraPose(width=320, height=320)
    scene = Scene(pose=pose, sensor=CLEAN, lighting=Lighting(gradient=0), mat=dark)
    f = render({"poles": {}, "ports": []}, scene)
    h = f.homography
    uv = h @ np.array([3.5, 3.5, 1.0])
    pixel = f.image[int(uv[1] / uv[2]), int(uv[0] / uv[2])].astype(int)
    assert near(pixel, DARK.base, 30)


def test_gloss_brightens_the_pieces_only() -> None:
    """Requirement: piece gloss (PieceStyle.gloss, default 0 = as before) adds a highlight on
    Pole sides and wall tops and changes nothing else."""
    assert PieceStyle().gloss == 0
    pos = {"poles": {"d4": "south"}, "ports": [{"square": "e5", "side": "north",
                                                 "corner": "sw"}]}
    scene = Scene(pose=CameraPose(tilt_deg=30, width=320, height=180), sensor=CLEAN)
    matt = render(pos, scene).image.astype(int)
    glossy = render(pos, scene.with_(style=PieceStyle(gloss=0.8))).image.astype(int)
    diff = glossy - matt
    assert diff.min() >= -2 and diff.max() > 60  # brighter, never darker (anti-aliasing aside)
    changed = np.argwhere(np.abs(diff).max(axis=2) > 2)
    span = changed.max(axis=0) - changed.min(axis=0)
    assert span[0] < 60 and span[1] < 60  # only round the two pieces


def test_a_check_tablecloth_and_unknown_tables() -> None:
    """Requirement: a patterned table option ("check", a gingham cloth), seeded."""
    scene = Scene(pose=SMALL, table="check", seed=3)
    a = render(START, scene).image
    assert np.array_equal(a, render(START, scene).image)
    corner = a[:20, :20].reshape(-1, 3).astype(int)
    assert np.ptp(corner.sum(axis=1)) > 30  # the checks show in the table round the mat
    with pytest.raises(VisionError, match="check"):
        render(START, Scene(pose=SMALL, table="marble"))


def _bench() -> ModuleType:
    return load_benchmark("bench_vision")


def test_bench_scores_devset_output_like_the_sets_scorer() -> None:
    """Requirement: bench_vision --devset scores as the set's score.py does: south_at from the
    camera's yaw; a space is right when its Pole side and its (side, corner) Ports match;
    `companion detect --json` lines are matched to images by file name."""
    bench = _bench()
    south = {0: "bottom", 180: "top", 90: "left", 270: "right"}
    for yaw, edge in south.items():
        assert bench.south_at_of({"camera": {"yaw_deg": yaw}}) == edge
    truth = {"poles": {"a1": "south"}, "ports": [{"square": "b2", "side": "south",
                                                  "corner": "sw"}]}
    same = bench.spaces_of(truth)
    assert same == bench.spaces_of(json.loads(json.dumps(truth)))
    moved = bench.spaces_of({"poles": {"a1": "south"}, "ports": [
        {"square": "b2", "side": "south", "corner": "se"}]})
    assert sum(same[q] != moved[q] for q in same) == 1
    out = "\n".join([json.dumps({"path": "/x/pos_01.jpg", "status": "ok", "position": truth}),
                     "noise", json.dumps({"path": "/x/hand_01.jpg", "status": "occluded"})])
    items = bench.detect_items(out)
    assert bench.position_of(items["pos_01.jpg"]) == truth
    assert bench.position_of(items["hand_01.jpg"]) is None
