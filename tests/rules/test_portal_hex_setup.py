"""Portal rule book, "Przygotowanie do gry" (set-up) and "Przebieg rozgrywki" (turn order).

Each test names the sentence it checks; docs/rules/portal-hex.md has the readings.
"""

from __future__ import annotations

import pytest

from companion.rules.errors import PositionError, VariantError
from companion.rules.portal_hex import (
    CENTRUM,
    DIRECTIONS,
    Colour,
    Kind,
    Position,
    Variant,
    distance,
    geometry,
    legal_moves,
    play,
)


@pytest.mark.parametrize("radius", range(2, 9))
def test_board_is_a_hexagon_with_centrum_in_the_middle(radius: int) -> None:
    """"należy złożyć planszę w kształt sześciokąta, pole oznaczone gwiazdą umieszczając w samym
    jej środku" (assemble the board as a hexagon, the star field in its very middle)."""
    geo = geometry(radius)
    assert len(geo.cells) == 3 * radius * (radius + 1) + 1
    assert all(distance(c) <= radius for c in geo.cells)
    assert geo.cells[geo.centre] == CENTRUM
    p = Position.start(Variant(radius=radius))
    assert p.kind(CENTRUM) is Kind.CENTRUM
    assert all(len(n) in (3, 4, 6) for n in geo.neighbours)


@pytest.mark.parametrize("bad", [1, 9, 0, "4", True, None])
def test_radius_out_of_range_is_refused(bad: object) -> None:
    with pytest.raises(VariantError, match=repr(bad).replace("(", r"\(")):
        Variant(radius=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", range(2, 7))
def test_start_platforms_on_the_rim_equidistant_from_centrum(players: int) -> None:
    """"Plaformy startowe należy umieścić na obrzeżach planszy, w polach równoodległych od jej
    środka (CENTRUM)." (START platforms go on the rim, on fields equidistant from CENTRUM.)"""
    for radius in (2, 4, 7):
        v = Variant(radius=radius, players=players)
        p = Position.start(v)
        starts = [v.start_cell(c) for c in v.colours]
        assert len(set(starts)) == players
        assert {distance(s) for s in starts} == {radius}
        assert all(p.kind(s) is Kind.START for s in starts)
        # corners of the hexagon: R times one of the six directions
        assert all((s[0] // radius, s[1] // radius) in DIRECTIONS for s in starts)
        assert not any(p.pawns)  # no pawns at the start


def test_start_corners_spread_evenly() -> None:
    """Two players face each other; three use every other corner; six use all."""
    def corners(players: int) -> list[int]:
        v = Variant(players=players)
        return [DIRECTIONS.index((v.start_cell(c)[0] // 4, v.start_cell(c)[1] // 4))
                for c in v.colours]

    assert corners(2) == [0, 3]
    assert corners(3) == [0, 2, 4]
    assert corners(4) == [0, 1, 3, 4]
    assert corners(5) == [0, 1, 2, 3, 4]
    assert corners(6) == [0, 1, 2, 3, 4, 5]


def test_turn_passes_clockwise() -> None:
    """"Po zakończeniu tury przez bieżącego gracza następuje tura kolejnego z graczy (zgodnie z
    ruchem wskazówek zegara)." (Then the next player's turn, clockwise.)

    DIRECTIONS run clockwise seen from above (east, south-east, ...), and the colours take
    the corners in that order, so the next colour is the next player clockwise."""
    v = Variant(players=6)
    p = Position.start(v)
    seen = []
    for _ in range(7):
        seen.append(p.to_move)
        p = play(p, legal_moves(p)[0])
    assert seen == [*v.colours, v.colours[0]]
    # clockwise on screen (y down): east (1,0) is followed by south-east (0,1)
    assert v.start_cell(Colour.RED) == (4, 0) and v.start_cell(Colour.BLUE) == (0, 4)


def test_who_starts_is_given() -> None:
    """"Grę rozpoczyna gracz, który uzyskał najwyższy wynik rzutu kością." (The highest roll
    starts.) The roll happens at the table; the position says who moves."""
    v = Variant(players=3)
    assert Position.start(v).to_move is Colour.RED
    assert Position.start(v, first=Colour.GREEN).to_move is Colour.GREEN
    with pytest.raises(PositionError, match="yellow"):
        Position.start(v, first=Colour.YELLOW)


def test_players_out_of_range_and_unknown_flags() -> None:
    with pytest.raises(VariantError, match="7"):
        Variant(players=7)
    with pytest.raises(VariantError, match="colour"):
        Variant.from_json({"colour": "red"})
    with pytest.raises(VariantError, match="'yes'"):
        Variant.from_json({"demons": "yes"})
    with pytest.raises(VariantError, match="-1"):
        Variant(per_platform=-1)


def test_variant_json_lists_only_non_default_flags() -> None:
    assert Variant().to_json() == {}
    v = Variant(radius=5, players=3, demons=True, per_platform=0, dice=True, pawns=4)
    assert v.to_json() == {"radius": 5, "players": 3, "pawns": 4, "demons": True,
                           "per_platform": 0, "dice": True}
    assert Variant.from_json(v.to_json()) == v
    assert Variant.from_json(None) == Variant()


def test_pool_is_pawns_minus_pawns_on_board() -> None:
    """The book leaves the number of pawns open: variant ``pawns`` (default 6)."""
    p = Position.start()
    assert p.pool(Colour.RED) == 6
    p = play(p, legal_moves(p)[0])  # red: start
    assert p.pool(Colour.RED) == 5 and p.on_board(Colour.RED) == 1
    assert Position.start(Variant(pawns=2)).pool(Colour.BLUE) == 2
