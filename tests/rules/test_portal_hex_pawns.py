"""Portal rule book: moving pawns ("Przemieszczanie pionków", "Aktywacja portalu",
"Zmniejszenie i zwiększenie liczby pionków"), START, CENTRUM, must-move, and winning.

Each test names the sentence it checks; docs/rules/portal-hex.md has the readings. Red's road
(helpers.road): START 4,0 -> portal 3,0 -> platform 2,0 -> portal 1,0 -> CENTRUM 0,0.
"""

from __future__ import annotations

import pytest

from companion.rules.errors import PositionError
from companion.rules.portal_hex import (
    Colour,
    Position,
    Rule,
    Variant,
    explain,
    legal_moves,
    play,
)
from tests.rules.test_portal_hex_helpers import (
    assert_legal,
    assert_not_legal,
    assert_rejected,
    board,
    edit,
    moves,
    road,
)

# -- "Uruchomienie portalu powoduje pochłonięcie przezeń po jednym pionku ze wszystkich
# -- platform wejściowych i umieszczeniu po jednym pionku na platformach wyjściowych" --------


def test_fire_moves_a_pawn_from_entrance_to_exit() -> None:
    """Activating a portal takes one pawn from every entrance and puts one on every exit."""
    p = road({"4,0": "red"})
    after = assert_legal(p, "fire 3,0")
    assert after.stack((4, 0)) is None and after.stack((2, 0)) == (Colour.RED, 1)
    p2 = road({"2,0": "red"})
    after = assert_legal(p2, "fire 1,0")
    assert after.stack((0, 0)) == (Colour.RED, 1)


def test_pawns_move_only_through_a_portal() -> None:
    """"Pionki mogą przemieszczać się z platformy na platformę wyłącznie poprzez portal"
    (pawns go from platform to platform only through a portal)."""
    p = road({"4,0": "red"})
    assert_rejected(p, edit(p, pawns={"4,0": None, "0,0": "red"}), Rule.THROUGH_PORTALS,
                    ["4,0", "0,0"])
    assert_rejected(p, edit(p, pawns={"4,0": None}), Rule.PORTAL_RESULT, ["3,0", "4,0"])
    q = board({"3,0": "portal", "2,0": "platform", "2,-1": "portal", "1,-1": "platform"},
              ["4,0>3,0", "3,0>2,0", "1,-1>2,-1"], {"2,0": "red"})
    assert_rejected(q, edit(q, pawns={"2,0": None, "1,-1": "red"}), Rule.THROUGH_PORTALS,
                    ["2,0", "1,-1"])


def test_only_platforms_hold_pawns() -> None:
    """"Poza turą gracza pionki mogą przebywać wyłącznie na platformach." (Between turns pawns
    stand only on platforms.)"""
    p = road({"4,0": "red"})
    assert_rejected(p, edit(p, pawns={"4,0": None, "3,0": "red"}), Rule.PAWNS_ON_PLATFORMS,
                    ["3,0"])
    assert_rejected(p, edit(p, pawns={"4,0": None, "3,1": "red"}), Rule.PAWNS_ON_PLATFORMS,
                    ["3,1"])


def test_one_pawn_per_platform() -> None:
    """"W każdym momencie gry na danej platformie może znajdować się co najwyżej jeden
    pionek." (At most one pawn on a platform at any time.)"""
    p = road({"4,0": "red", "2,0": "red"})
    assert_not_legal(p, "fire 3,0", Rule.PORTAL_NOT_ACTIVE, cells=["3,0", "2,0"])
    assert_rejected(p, edit(p, pawns={"4,0": None, "2,0": ["red", "red"]}),
                    Rule.PLATFORM_LIMIT, ["2,0"])


# -- "Aktywacja portalu" ----------------------------------------------------------------------


def test_active_needs_every_entrance_held_by_the_player() -> None:
    """"wszystkie platformy wejściowe są zajęte przez pionki bieżącego gracza" (every entrance
    holds a pawn of the player to move)."""
    cells = {"1,0": "portal", "2,0": "platform", "2,-1": "portal", "1,1": "platform",
             "2,1": "portal"}
    arrows = ["2,0>1,0", "1,1>1,0", "1,0>0,0", "2,0>2,-1", "2,1>1,1"]
    p = board(cells, arrows, {"2,0": "red"})
    assert_not_legal(p, "fire 1,0", Rule.PORTAL_NOT_ACTIVE, cells=["1,0", "1,1"])
    ex = assert_rejected(p, edit(p, pawns={"2,0": None, "0,0": "red"}),
                         Rule.PORTAL_NOT_ACTIVE, ["1,0", "1,1"])
    assert "entrance 1,1 is empty" in ex.reason.message  # type: ignore[union-attr]
    q = board(cells, arrows, {"2,0": "red", "1,1": "blue"})
    assert_not_legal(q, "fire 1,0", Rule.PORTAL_NOT_ACTIVE)
    assert "its entrance 1,1 holds blue's pawn" in explain(
        q, edit(q, pawns={"2,0": None, "0,0": "red"})).describe()
    both = board(cells, arrows, {"2,0": "red", "1,1": "red"})
    after = assert_legal(both, "fire 1,0")
    assert after.on_board(Colour.RED) == 1  # two in, one out: one back to the pool


def test_active_needs_every_exit_free() -> None:
    """"wszystkie platformy wyjściowe są wolne (nie stoi na nich żaden pionek)" (every exit is
    free)."""
    p = road({"4,0": "red", "2,0": "blue"})
    assert_not_legal(p, "fire 3,0", Rule.PORTAL_NOT_ACTIVE, cells=["2,0"])
    ex = assert_rejected(p, edit(p, pawns={"4,0": None, "2,0": "red"}),
                         Rule.PORTAL_NOT_ACTIVE, ["3,0", "2,0"])
    assert ex.reason.message == ("the portal at 3,0 is not active: its exit 2,0 is occupied "  # type: ignore[union-attr]
                                 "by blue")


def test_portal_without_entrances_is_active_when_exits_free() -> None:
    """"Portal, który nie ma wejść, jest aktywny, o ile jego wyjścia są wolne." and
    "Uruchomienie portalu, który nie posiada platform wejściowych, powoduje wprowadzenie nowych
    pionków na planszę." (No entrances: active if the exits are free; it brings new pawns.)"""
    p = board({"1,0": "portal"}, ["1,0>0,0"], to_move="blue")
    after = assert_legal(p, "fire 1,0")
    assert after.stack((0, 0)) == (Colour.BLUE, 1) and after.pool(Colour.BLUE) == 5
    blocked = board({"1,0": "portal"}, ["1,0>0,0"], {"0,0": "red"}, to_move="blue")
    assert_not_legal(blocked, "fire 1,0", Rule.PORTAL_NOT_ACTIVE)


def test_portal_without_exits_removes_pawns() -> None:
    """"Portal, który nie ma wyjść, jest aktywny, o ile wszystkie jego wejścia są zajęte przez
    pionki bieżącego gracza." / "Uruchomienie portalu, który nie posiada platform wyjściowych,
    powoduje usunięcie pionków z planszy i ich powrót do puli pionków gracza." (No exits:
    active if every entrance holds the player's pawn; the pawns go back to the pool.)"""
    p = board({"3,0": "portal"}, ["4,0>3,0"], {"4,0": "red"})
    after = assert_legal(p, "fire 3,0")
    assert after.on_board(Colour.RED) == 0 and after.pool(Colour.RED) == 6
    assert_not_legal(board({"3,0": "portal"}, ["4,0>3,0"]), "fire 3,0", Rule.PORTAL_NOT_ACTIVE)


def test_choose_among_active_portals() -> None:
    """"Możliwe jest, że w danej turze gracz ma do dyspozycji więcej niż jeden aktywny portal.
    Wówczas do wykonania ruchu wybiera jeden z nich." (Several active portals: pick one.)"""
    p = board({"3,0": "portal", "2,0": "platform", "3,1": "portal"},
              ["4,0>3,0", "3,0>2,0", "4,0>3,1"], {"4,0": "red"})
    assert {"fire 3,0", "fire 3,1"} <= moves(p)
    observed = edit(p, pawns={"4,0": None, "2,0": "red"})
    assert [m.notation() for m in explain(p, observed).moves] == ["fire 3,0"]


def test_fewer_exits_return_pawns_to_the_pool() -> None:
    """"Jeśli liczba platform wyjściowych jest mniejsza niż liczba platform wejściowych,
    nadmiarowe pionki są zdejmowane z planszy i trafiają z powrotem do puli pionków gracza."
    (Fewer exits than entrances: the surplus goes back to the pool.)"""
    cells = {"1,0": "portal", "2,0": "platform", "1,1": "platform", "2,-1": "platform",
             "2,1": "portal", "3,-1": "portal"}
    arrows = ["2,0>1,0", "1,1>1,0", "2,-1>1,0", "1,0>0,0", "2,1>2,0", "2,1>1,1",
              "3,-1>2,-1"]
    p = board(cells, arrows, {"2,0": "red", "1,1": "red", "2,-1": "red"})
    after = assert_legal(p, "fire 1,0")
    assert after.on_board(Colour.RED) == 1 and after.pool(Colour.RED) == 5


def test_more_exits_take_pawns_from_the_pool() -> None:
    """"Jeśli liczba platform wyjściowych jest większa niż liczba platform wejściowych, na
    pozostałych platformach pojawiają się nowe pionki bieżącego gracza." / "Ruch nie może
    zostać wykonany, jeśli gracz nie ma wystarczającej liczby pionków w puli by zakończyć
    przejście przez portal." (More exits: new pawns from the pool; not possible if the pool is
    short.)"""
    cells = {"3,0": "portal", "2,0": "platform", "3,1": "platform"}
    arrows = ["4,0>3,0", "3,0>2,0", "3,0>3,1"]
    p = board(cells, arrows, {"4,0": "red"})
    after = assert_legal(p, "fire 3,0")
    assert after.on_board(Colour.RED) == 2 and after.pool(Colour.RED) == 4
    short = board(cells, arrows, {"4,0": "red"}, variant=Variant(pawns=1))
    assert_not_legal(short, "fire 3,0", Rule.POOL_TOO_SMALL, cells=["3,0"])
    ex = assert_rejected(short, edit(short, pawns={"4,0": None, "2,0": "red"}),
                         Rule.POOL_TOO_SMALL, ["3,0"])
    assert "pool holds 0" in ex.reason.message  # type: ignore[union-attr]


def test_only_the_players_own_pawns_move() -> None:
    """"wszystkie platformy wejściowe są zajęte przez pionki bieżącego gracza" (entrances hold
    the current player's pawns): another player's pawn never goes through in my turn."""
    p = road({"4,0": "red", "2,0": "blue"})
    assert_rejected(p, edit(p, pawns={"2,0": None, "0,0": "blue"}), Rule.ONLY_OWN_PAWNS,
                    ["2,0"])


# -- "Wprowadzenie pionka na START" ------------------------------------------------------------


def test_put_a_pawn_on_ones_own_free_start() -> None:
    """"gracz może wprowadzić pionka jedynie na swoją platformę startową i tylko wtedy, gdy jest
    ona wolna." (Only onto one's own START, and only when it is free.)"""
    p = board()
    after = assert_legal(p, "start")
    assert after.stack((4, 0)) == (Colour.RED, 1)
    assert_not_legal(board(pawns={"4,0": "red"}), "start", Rule.START_MUST_BE_FREE)
    assert_rejected(p, edit(p, pawns={"-4,0": "red"}), Rule.OWN_START_ONLY, ["-4,0"])
    blue_on_red = board({"3,0": "portal"}, ["3,0>4,0"], {"4,0": "blue"})
    assert_not_legal(blue_on_red, "start", Rule.START_MUST_BE_FREE, cells=["4,0"])


def test_start_needs_a_pawn_in_the_pool() -> None:
    cells = {"3,0": "portal", "2,0": "platform"}
    p = board(cells, ["4,0>3,0", "3,0>2,0"], {"2,0": "red"}, variant=Variant(pawns=1))
    assert_not_legal(p, "start", Rule.POOL_TOO_SMALL, cells=["4,0"])
    with pytest.raises(PositionError, match="red has 2 pawns on the board but owns only 1"):
        edit(p, pawns={"4,0": "red"})  # a camera cannot see a pawn the player does not own


# -- "Zdjęcie pionka z CENTRUM" ----------------------------------------------------------------


def test_taking_a_pawn_off_centrum_is_compulsory_and_first() -> None:
    """"Zdjęcie pionka z CENTRUM jest obowiązkowe i ma pierwszeństwo przed innymi rodzajami
    ruchu." (Taking the pawn off CENTRUM is compulsory and comes before other moves.)"""
    p = road({"0,0": "red", "4,0": "red"})
    assert moves(p) == {"centrum"}
    after = assert_legal(p, "centrum")
    assert Colour.RED in after.reached and after.stack((0, 0)) is None
    assert after.to_json()["reached"] == ["red"]
    assert_not_legal(p, "start", Rule.CENTRUM_FIRST, cells=["0,0"])
    assert_not_legal(p, "fire 3,0", Rule.CENTRUM_FIRST)
    assert_rejected(p, edit(p, {"3,1": "portal"}, ["4,0>3,1"]), Rule.CENTRUM_FIRST, ["0,0"])
    assert_rejected(p, edit(p, pawns={"4,0": None, "2,0": "red"}), Rule.CENTRUM_FIRST)
    assert_rejected(p, p, Rule.MUST_MOVE)


def test_only_ones_own_pawn_comes_off_centrum() -> None:
    """"Gracz, który ... wprowadził pionek swojego koloru ... na pole CENTRUM, w następnej
    turze zdejmuje go" (the player who brought a pawn of their colour onto CENTRUM takes it
    off): only one's own pawn."""
    p = road({"0,0": "blue"})
    assert "centrum" not in moves(p)
    assert_not_legal(p, "centrum", Rule.CENTRUM_OWN_PAWN)
    ex = assert_rejected(p, edit(p, pawns={"0,0": None}), Rule.ONLY_OWN_PAWNS, ["0,0"])
    assert "blue on 0,0 1 -> 0" in ex.reason.message  # type: ignore[union-attr]


def test_start_and_centrum_in_one_turn_is_two_actions() -> None:
    """"Każda tura składa się z jednej z poniższych ruchów" (each turn is one of the moves)."""
    p = road({"0,0": "red"})
    assert_rejected(p, edit(p, pawns={"0,0": None, "4,0": "red"}), Rule.ONE_ACTION,
                    ["0,0", "4,0"])


# -- "Jeśli w danej turze gracz ma możliwość wykonania ruchu, ruch musi zostać wykonany. W
# -- przypadku braku możliwości wykonania ruchu tura się kończy." ------------------------------


def test_must_move_when_a_move_is_possible() -> None:
    """"Jeśli w danej turze gracz ma możliwość wykonania ruchu, ruch musi zostać wykonany."
    (If a move is possible it must be made.)"""
    p = board()
    assert_not_legal(p, "pass", Rule.MUST_MOVE)
    ex = assert_rejected(p, p, Rule.MUST_MOVE)
    assert "cannot pass" in ex.reason.message  # type: ignore[union-attr]


def test_pass_when_no_move_is_possible() -> None:
    """"W przypadku braku możliwości wykonania ruchu tura się kończy." (With no possible move
    the turn ends.) A radius-2 board filled up, red's pool empty, no active portal: pass."""
    p = full_board()
    assert moves(p) == {"pass"}
    after = assert_legal(p, "pass")
    assert after.to_move is Colour.BLUE and after.same_board(p)


def full_board(to_move: str = "red", variant: Variant | None = None) -> Position:
    """Radius 2 with every cell built: red's only pawn (pawns=1) waits on 2,-1 for portal
    1,0, whose exit 1,1 blue blocks; no other portal is active for red."""
    cells = {}
    # ring 1: portals; ring 2 (except the STARTs at 2,0 and -2,0): platforms
    ring1 = ["1,0", "0,1", "-1,1", "-1,0", "0,-1", "1,-1"]
    ring2 = ["2,-1", "1,1", "0,2", "-1,2", "-2,2", "-2,1", "-1,-1", "0,-2", "1,-2", "2,-2"]
    for c in ring1:
        cells[c] = "portal"
    for c in ring2:
        cells[c] = "platform"
    # each portal: entrance from a ring-2 neighbour, exit to CENTRUM or a platform
    arrows = ["2,-1>1,0", "1,1>0,1", "-1,2>-1,1", "-2,1>-1,0", "-1,-1>0,-1", "1,-2>1,-1",
              "1,0>1,1", "0,1>0,2", "-1,1>-2,2", "-1,0>-1,-1", "0,-1>0,-2", "1,-1>2,-2"]
    pawns = {"2,-1": "red", "1,1": "blue"}
    return board(cells, arrows, pawns, to_move=to_move,
                 variant=variant or Variant(radius=2, pawns=1))


# -- Winning ---------------------------------------------------------------------------------


def test_win_when_the_pawn_off_centrum_was_the_last() -> None:
    """"Jeśli pionek ten był ostatnim pionkiem gracza na planszy, gracz kończy grę." /
    "Zwycięzcą zostaje gracz, który zakończy grę jako pierwszy." (If it was the player's last
    pawn, the player finishes; the first to finish wins.)"""
    p = road({"0,0": "red", "-4,0": "blue"})
    after = assert_legal(p, "centrum")
    assert after.winner() is Colour.RED
    assert explain(p, after).winner is Colour.RED
    assert legal_moves(after) == []
    assert_rejected(after, edit(after, pawns={"-4,0": None}), Rule.GAME_OVER)
    assert_not_legal(after, "start", Rule.GAME_OVER)


def test_win_later_when_the_last_pawn_leaves_through_an_exitless_portal() -> None:
    """"W przeciwnym razie koniec gry dla gracza następuje w momencie zdjęcia z planszy
    ostatniego z jego pionków (w dowolny, zgodny z regułami sposób)." / "Pozostałe pionki
    gracza mogą tego dokonać przez portal." (Otherwise the player finishes when the last pawn
    leaves the board in any legal way, e.g. through a portal.)"""
    cells = {"3,0": "portal", "2,0": "platform", "1,0": "portal", "3,1": "portal"}
    arrows = ["4,0>3,0", "3,0>2,0", "2,0>1,0", "1,0>0,0", "4,0>3,1"]
    p = board(cells, arrows, {"0,0": "red", "4,0": "red"})
    after = play(p, legal_moves(p)[0])  # centrum: not the last pawn
    assert Colour.RED in after.reached and after.winner() is None
    after = play(after, legal_moves(after)[0])  # blue
    final = assert_legal(after, "fire 3,1")
    assert final.winner() is Colour.RED
    # a player who has not reached CENTRUM does not win by clearing the board
    q = board(cells, arrows, {"4,0": "red"})
    cleared = assert_legal(q, "fire 3,1")
    assert cleared.winner() is None
