"""Portal rule book, "Budowanie drogi" (building a road): elements, arrows, connections.

Each test names the sentence it checks; docs/rules/portal-hex.md has the readings. Red's START
is 4,0, blue's -4,0 (radius 4, two players).
"""

from __future__ import annotations

import pytest

from companion.rules.errors import MoveError, PositionError
from companion.rules.portal_hex import Rule, explain, parse_move
from tests.rules.test_portal_hex_helpers import (
    assert_legal,
    assert_not_legal,
    assert_rejected,
    board,
    edit,
    moves,
    road,
)


def test_build_one_portal_with_its_arrows() -> None:
    """"Pojedynczy ruch budowania drogi polega na umieszczeniu na planszy platformy lub portalu
    oraz połączeniu go odpowiednio z wybranymi, sąsiadującymi portalami lub platformami."
    (A build places one platform or portal and joins it to chosen neighbouring elements.)"""
    p = board()
    after = assert_legal(p, "portal 3,0 in 4,0")
    assert after.entrances((3, 0)) == ((4, 0),) and after.exits((3, 0)) == ()
    after = assert_legal(p, "portal 1,0 in 0,0")
    assert_legal(p, "portal 1,0 out 0,0")
    q = board({"3,0": "portal"}, ["4,0>3,0"], to_move="blue")
    assert_legal(q, "platform 2,0 from 3,0")
    both = board({"1,0": "portal", "0,1": "portal"}, ["1,0>0,0", "0,0>0,1"])
    after = assert_legal(both, "platform 1,1 to 1,0 from 0,1")
    assert after.entrances((1, 0)) == ((1, 1),) and after.exits((0, 1)) == ((1, 1),)


def test_one_element_per_build() -> None:
    """"Pojedynczy ruch budowania drogi polega na umieszczeniu na planszy platformy lub
    portalu" (a single build places one platform or portal): two new elements are two
    actions."""
    p = board()
    observed = edit(p, {"3,0": "portal", "1,0": "portal"}, ["4,0>3,0", "1,0>0,0"])
    assert_rejected(p, observed, Rule.ONE_ACTION, ["3,0", "1,0"])


def test_portal_joins_one_to_six_neighbouring_platforms() -> None:
    """"Portal może być połączony z co najmniej 1 i co najwyżej 6 platformami, bezpośrednio z
    nim sąsiadującymi" (a portal joins at least 1 and at most 6 directly neighbouring
    platforms)."""
    p = board()
    assert_not_legal(p, "portal 1,0", Rule.PORTAL_NEEDS_PLATFORM, cells=["1,0"])
    assert_rejected(p, edit(p, {"1,0": "portal"}), Rule.PORTAL_NEEDS_PLATFORM, ["1,0"])
    # a neighbour only: 2,0 is two steps from CENTRUM
    assert_not_legal(p, "portal 2,0 in 0,0", Rule.ARROW_NEIGHBOURS, cells=["2,0", "0,0"])
    # six platforms around a portal
    ring = {c: "platform" for c in ("2,0", "1,1", "0,1", "1,-1", "2,-1")}
    portals = {"2,1": "portal", "-1,1": "portal", "2,-2": "portal"}
    arrows = ["2,0>2,1", "1,1>2,1", "0,1>-1,1", "1,-1>2,-2", "2,-1>2,-2"]
    q = board({**ring, **portals}, arrows)
    after = assert_legal(q, "portal 1,0 in 2,0 1,1 0,1 out 0,0 1,-1 2,-1")
    assert len(after.entrances((1, 0)) + after.exits((1, 0))) == 6
    with pytest.raises(PositionError, match="not neighbours"):
        board({"2,0": "portal"}, ["0,0>2,0"])


def test_every_platform_joined_to_a_portal() -> None:
    """"Każda z platform na planszy - z wyjątkiem platform startowych oraz CENTRUM - musi być
    połączona z przynajmniej jednym portalem." (Every platform but START and CENTRUM is joined
    to at least one portal.)"""
    p = board({"3,0": "portal"}, ["4,0>3,0"])
    assert_not_legal(p, "platform 2,0", Rule.PLATFORM_NEEDS_PORTAL)
    assert_rejected(p, edit(p, {"2,0": "platform"}), Rule.PLATFORM_NEEDS_PORTAL, ["2,0"])
    with pytest.raises(PositionError, match="2,0 is joined to no portal"):
        board({"2,0": "platform"})


def test_no_portal_to_portal_nor_platform_to_platform() -> None:
    """"niedozwolone jest połączenie portalu bezpośrednio z portalem lub platformy z
    platformą" (a portal may not be joined directly to a portal, nor a platform to a
    platform)."""
    p = board({"3,0": "portal"}, ["4,0>3,0"])
    assert_not_legal(p, "portal 2,0 in 3,0", Rule.NO_PORTAL_TO_PORTAL, cells=["2,0", "3,0"])
    assert_rejected(p, edit(p, {"2,0": "portal"}, ["3,0>2,0"]), Rule.NO_PORTAL_TO_PORTAL,
                    ["2,0", "3,0"])
    assert_not_legal(p, "platform 1,0 to 0,0", Rule.NO_PLATFORM_TO_PLATFORM)
    q = board({"1,0": "portal"}, ["0,0>1,0"])
    assert_rejected(q, edit(q, {"1,-1": "platform"}, ["1,0>1,-1", "1,-1>0,0"]),
                    Rule.NO_PLATFORM_TO_PLATFORM, ["1,-1", "0,0"])
    with pytest.raises(PositionError, match="joins the portals"):
        board({"3,0": "portal", "2,0": "portal"}, ["4,0>3,0", "3,0>2,0"])
    with pytest.raises(PositionError, match="joins the platforms"):
        board({"1,0": "portal", "1,-1": "platform"}, ["0,0>1,0", "1,0>1,-1", "1,-1>0,0"])


def test_one_arrow_between_a_platform_and_a_portal() -> None:
    """"Platforma z portalem może być połączona co najwyżej jednym łącznikiem (platformy będące
    jednocześnie wejściami i wyjściami tego samego portalu są niedozwolone)." (At most one
    connector between a platform and a portal: no platform is both entrance and exit.)"""
    p = board()
    with pytest.raises(MoveError, match="both ways"):
        parse_move("portal 1,0 in 0,0 out 0,0")
    assert_rejected(p, edit(p, {"1,0": "portal"}, ["0,0>1,0", "1,0>0,0"]),
                    Rule.ONE_ARROW_PER_PAIR, ["1,0", "0,0"])
    with pytest.raises(PositionError, match="both ways"):
        board({"1,0": "portal"}, ["0,0>1,0", "1,0>0,0"])


def test_start_joined_to_a_portal_only_by_its_owner() -> None:
    """"Wyjątek stanowi platforma startowa, do której portal może bezpośrednio przyłączyć
    jedynie jej właściciel." (Only a START's owner may join a portal directly to it.)"""
    red = board()
    assert "portal 3,0 in 4,0" in moves(red)
    blue = board(to_move="blue")
    assert_not_legal(blue, "portal 3,0 in 4,0", Rule.START_OWNER_ONLY, cells=["3,0", "4,0"])
    assert_not_legal(blue, "portal 3,0 out 4,0", Rule.START_OWNER_ONLY)
    assert_rejected(blue, edit(blue, {"3,0": "portal"}, ["4,0>3,0"]), Rule.START_OWNER_ONLY,
                    ["4,0"])
    assert_legal(blue, "portal -3,0 in -4,0")


def test_any_player_joins_a_platform_to_anyones_portal() -> None:
    """"dozwolone jest połączenie stawianej właśnie przez siebie platformy z portalem
    postawionym przez przeciwnika" (one may join one's new platform to an opponent's
    portal)."""
    p = board({"3,0": "portal"}, ["4,0>3,0"], to_move="blue")
    assert_legal(p, "platform 2,0 from 3,0")
    assert_legal(p, "platform 2,0 to 3,0")


def test_new_elements_go_on_empty_cells_and_elements_never_move() -> None:
    """"umieszczeniu na planszy platformy lub portalu" (placing a platform or portal on the
    board): on an empty cell; what is built stays (the book has no move that removes it)."""
    p = road()
    assert_not_legal(p, "portal 2,0 in 0,0", Rule.BUILD_ON_EMPTY)
    assert_not_legal(p, "portal 0,0 in 1,1", Rule.BUILD_ON_EMPTY)
    observed = edit(p, remove_cells=["2,0"], remove_arrows=["3,0>2,0", "2,0>1,0"])
    assert_rejected(p, observed, Rule.ELEMENTS_NEVER_MOVE, ["2,0"])
    observed = edit(p, {"2,0": "portal"}, remove_arrows=["3,0>2,0", "2,0>1,0"])
    assert_rejected(p, observed, Rule.ELEMENTS_NEVER_MOVE, ["2,0"])


def test_arrows_only_with_the_new_element() -> None:
    """Arrows are laid in the same action as the element they join (the build "umieszczenie
    ... oraz połączenie go"): no arrow is added later."""
    p = board({"3,0": "portal", "2,0": "platform", "1,0": "portal"},
              ["4,0>3,0", "3,0>2,0", "1,0>0,0"])
    assert_rejected(p, edit(p, arrows=["2,0>1,0"]), Rule.ARROWS_WITH_NEW_ELEMENT,
                    ["2,0", "1,0"])
    assert_rejected(p, edit(p, {"1,1": "platform"}, ["1,0>1,1", "2,0>1,0"]),
                    Rule.ARROWS_WITH_NEW_ELEMENT)
    assert_rejected(p, edit(p, remove_arrows=["3,0>2,0"], arrows=["2,0>3,0"]),
                    Rule.ELEMENTS_NEVER_MOVE, ["3,0", "2,0"])


def test_building_and_moving_pawns_in_one_turn_is_two_actions() -> None:
    """"Każda tura składa się z jednej z poniższych ruchów" (each turn is one of the moves)."""
    p = road({"4,0": "red"})
    observed = edit(p, {"3,1": "portal"}, ["4,0>3,1"], pawns={"4,0": None, "2,0": "red"})
    assert_rejected(p, observed, Rule.ONE_ACTION, ["3,1", "4,0", "2,0"])


def test_explain_build_does_not_enumerate() -> None:
    """The explained build is the one the board shows, with its arrows in the notation."""
    p = board({"3,0": "portal"}, ["4,0>3,0"])
    observed = edit(p, {"2,0": "platform"}, ["3,0>2,0"])
    ex = explain(p, observed)
    assert ex.legal and [m.notation() for m in ex.moves] == ["platform 2,0 from 3,0"]
    assert ex.to_json()["moves"] == ["platform 2,0 from 3,0"]
    assert (2, 0) in ex.squares
