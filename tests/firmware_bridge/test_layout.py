"""Issue 4, LED layout as data: serpentine strips, rotation, status LEDs, the test pattern."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.colors import Color
from firmware_bridge.errors import BridgeError
from firmware_bridge.layout import DEFAULT_STATUS, LedLayout, Rotation
from firmware_bridge.layout import test_pattern as pattern_of


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({}, {"a1": 0, "h1": 7, "h2": 8, "a2": 15, "a3": 16, "h8": 56, "a8": 63}),
    ({"serpentine": False}, {"a1": 0, "h1": 7, "a2": 8, "h2": 15, "a8": 56, "h8": 63}),
    ({"rotation": Rotation.R180}, {"h8": 0, "a8": 7, "a7": 8, "a1": 56}),
    ({"rotation": Rotation.R90}, {"a8": 0, "a1": 7, "b1": 8, "h1": 56}),
    ({"rotation": Rotation.R270}, {"h1": 0, "h8": 7, "g8": 8, "a8": 56}),
])
def test_grid_maps_spaces_to_strip_indices(kwargs: dict, expected: dict[str, int]) -> None:
    layout = LedLayout.grid(**kwargs)
    assert {s: layout.index_of(s) for s in expected} == expected


def test_status_leds_follow_the_board_on_the_strip() -> None:
    layout = LedLayout.grid()
    assert layout.status_base == 64 and layout.led_count == 64 + len(DEFAULT_STATUS)
    assert layout.index_of("turn_1") == 64 and layout.index_of("marker_4") == 70


@settings(derandomize=True, max_examples=60)
@given(st.integers(1, 11), st.booleans(), st.sampled_from(Rotation))
def test_every_grid_is_a_permutation_of_its_spaces(size: int, serp: bool, rot: Rotation) -> None:
    layout = LedLayout.grid(size, size, serpentine=serp, rotation=rot, status=())
    files = "abcdefghijk"[:size]
    assert sorted(layout.spaces) == sorted(f"{f}{r}" for f in files for r in range(1, size + 1))


@pytest.mark.parametrize(("make", "match"), [
    (lambda: LedLayout.grid().index_of("z9"), "z9"),
    (lambda: LedLayout(("a1", "a1")), "a1"),
    (lambda: LedLayout(tuple(f"s{i}" for i in range(130))), "137"),
    (lambda: LedLayout.grid(8, 6, rotation=Rotation.R90), "8x6"),
    (lambda: LedLayout.from_json("{"), "layout"),
    (lambda: LedLayout.from_json('{"spaces": [1]}'), "strings"),
])
def test_bad_layouts_name_the_problem(make: object, match: str) -> None:
    with pytest.raises(BridgeError, match=match):
        make()  # type: ignore[operator]


def test_a_hex_board_is_just_a_list_of_names_and_round_trips_json() -> None:
    hexes = LedLayout(tuple(f"h{i}" for i in range(37)), ("turn",))
    assert LedLayout.from_json(hexes.to_json()) == hexes
    assert hexes.index_of("turn") == 37


def test_test_pattern_lights_everything_and_chases_the_strip_order() -> None:
    layout = LedLayout.grid()
    steps = pattern_of(layout)
    assert [set(s.colors) for s in steps[:3]] == [set(range(layout.led_count))] * 3
    assert steps[3].colors[0] is Color.WHITE
    chase = [next(iter(s.colors)) for s in steps if len(s.colors) == 1 and s.seconds < 0.5]
    assert chase == list(range(64))
    assert steps[-1].colors == {}
