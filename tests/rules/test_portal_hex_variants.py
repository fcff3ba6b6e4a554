"""Portal rule book, "Reguły alternatywne": demons, more pawns per platform, the K8 die.

Each test names the sentence it checks; docs/rules/portal-hex.md has the readings.
"""

from __future__ import annotations

import pytest

from companion.rules.errors import PositionError, RulesError
from companion.rules.portal_hex import Colour, Rule, Variant, explain, legal_moves
from tests.rules.test_portal_hex_helpers import (
    assert_legal,
    assert_not_legal,
    assert_rejected,
    board,
    edit,
    moves,
    road,
)

DEMONS = Variant(demons=True)

# -- Demony ------------------------------------------------------------------------------------


def test_portal_without_entrances_brings_demons() -> None:
    """"Uruchomienie portalu, który nie posiada platform wejściowych, powoduje pojawienie się na
    jego wyjściach demonów (pionków koloru czarnego)." (A portal without entrances puts demons,
    black pawns, on its exits.)"""
    p = board({"1,0": "portal", "2,0": "platform"}, ["1,0>0,0", "1,0>2,0"], variant=DEMONS)
    after = assert_legal(p, "fire 1,0")
    assert after.stack((0, 0)) == (Colour.DEMON, 1) and after.stack((2, 0)) == (Colour.DEMON, 1)
    assert after.pool(Colour.RED) == 6  # the demons' supply is not the player's pool
    with pytest.raises(PositionError, match="without demons"):
        board({"1,0": "portal"}, ["1,0>0,0"], {"0,0": "demon"})


def test_anyone_treats_demons_as_their_own_pawns() -> None:
    """"każdy z graczy w ramach swojej tury może traktować demony tak jak swoje własne pionki"
    (in their turn every player may treat demons as their own pawns)."""
    cells = {"1,0": "portal", "2,0": "platform", "3,0": "portal"}
    arrows = ["2,0>1,0", "1,0>0,0", "4,0>3,0", "3,0>2,0"]
    for who in ("red", "blue"):
        p = board(cells, arrows, {"2,0": "demon"}, to_move=who, variant=DEMONS)
        after = assert_legal(p, "fire 1,0")
        assert after.stack((0, 0)) == (Colour.DEMON, 1)  # the demon goes through, first


def test_demons_take_the_exits_first_and_the_player_chooses_which() -> None:
    """"demony zajmują miejsca na platformach wyjściowych w pierwszej kolejności, zaś pionki
    gracza są umieszczane na pozostałych wyjściach (o ile takie są). Decyzja, który pionek
    znajdzie się na której platformie, należy do gracza." (Demons take exits first, the
    player's pawns the rest; the player decides which goes where.)"""
    cells = {"1,0": "portal", "2,0": "platform", "1,1": "platform", "1,-1": "platform",
             "2,1": "portal", "2,-1": "portal"}
    arrows = ["2,0>1,0", "1,1>1,0", "1,0>0,0", "1,0>1,-1", "2,1>1,1", "2,-1>1,-1"]
    p = board(cells, arrows, {"2,0": "demon", "1,1": "red"}, variant=DEMONS)
    assert {"fire 1,0 demons 0,0", "fire 1,0 demons 1,-1"} <= moves(p)
    after = assert_legal(p, "fire 1,0 demons 1,-1")
    assert after.stack((1, -1)) == (Colour.DEMON, 1) and after.stack((0, 0)) == (Colour.RED, 1)
    assert_not_legal(p, "fire 1,0", Rule.DEMONS_EXIT_FIRST)
    assert_not_legal(p, "fire 1,0 demons 0,0 1,-1", Rule.DEMONS_EXIT_FIRST)
    ex = explain(p, edit(p, pawns={"2,0": None, "1,1": None, "0,0": "demon",
                                   "1,-1": "red"}))
    assert ex.legal and ex.move.notation() == "fire 1,0 demons 0,0"  # type: ignore[union-attr]


def test_players_pawns_without_an_exit_go_back_to_the_pool() -> None:
    """"Pionki gracza, dla których nie starczyło wolnych miejsc na platformach wyjściowych,
    trafiają z powrotem do puli." (The player's pawns with no exit left go back to the pool.)"""
    cells = {"1,0": "portal", "2,0": "platform", "1,1": "platform", "2,1": "portal"}
    arrows = ["2,0>1,0", "1,1>1,0", "1,0>0,0", "2,1>1,1"]
    p = board(cells, arrows, {"2,0": "demon", "1,1": "red"}, variant=DEMONS)
    after = assert_legal(p, "fire 1,0")
    assert after.stack((0, 0)) == (Colour.DEMON, 1) and after.on_board(Colour.RED) == 0


def test_a_demon_leaves_the_board_only_through_an_exitless_portal() -> None:
    """"Demon może opuścić planszę jedynie przez portal bez wyjść." (A demon leaves the board
    only through a portal without exits.)"""
    p = board({"1,0": "portal"}, ["0,0>1,0"], {"0,0": "demon"}, variant=DEMONS)
    after = assert_legal(p, "fire 1,0")
    assert after.stack((0, 0)) is None
    # two demons in, one exit: the second demon would have to leave: not possible
    cells = {"1,0": "portal", "2,0": "platform", "1,1": "platform", "2,1": "portal"}
    arrows = ["2,0>1,0", "1,1>1,0", "1,0>0,0", "2,1>1,1"]
    q = board(cells, arrows, {"2,0": "demon", "1,1": "demon"}, variant=DEMONS)
    assert_not_legal(q, "fire 1,0", Rule.DEMONS_LEAVE_EXITLESS, cells=["1,0"])
    assert_rejected(q, edit(q, pawns={"2,0": None, "1,1": None, "0,0": "demon"}),
                    Rule.DEMONS_LEAVE_EXITLESS, ["1,0"])


def test_demons_are_never_taken_off_centrum() -> None:
    """"czarne pionki nie mogą zostać zdjęte z CENTRUM wskutek rzutu 8" (black pawns cannot be
    taken off CENTRUM, by a roll of 8)."""
    p = road({"0,0": "demon", "4,0": "red"}, variant=DEMONS)
    assert "centrum" not in moves(p)
    assert_not_legal(p, "centrum", Rule.DEMONS_STAY)
    assert_rejected(p, edit(p, pawns={"0,0": None}), Rule.DEMONS_STAY, ["0,0"])
    dice = road({"0,0": "demon", "4,0": "red"}, variant=Variant(demons=True, dice=True))
    assert_rejected(dice, edit(dice, pawns={"0,0": None}), Rule.DEMONS_STAY, roll=8)


def test_demon_on_an_exit_blocks() -> None:
    """"wszystkie platformy wyjściowe są wolne (nie stoi na nich żaden pionek)" (exits free,
    no pawn at all on them): a demon is a pawn too."""
    p = road({"4,0": "red", "2,0": "demon"}, variant=DEMONS)
    assert_not_legal(p, "fire 3,0", Rule.PORTAL_NOT_ACTIVE, cells=["2,0"])


# -- Więcej niż jeden pionek na platformie -------------------------------------------------------


def test_more_pawns_per_platform() -> None:
    """"ruch gracza nie będzie blokowany, jeśli: na platformach wyjściowych znajdują się pionki
    tegoż gracza oraz ustalone ograniczenie pozwala na umieszczenie jeszcze jednego pionka."
    (An exit holding the player's own pawns does not block while the limit allows one more.)"""
    two = Variant(per_platform=2)
    p = road({"4,0": "red", "2,0": "red"}, variant=two)
    after = assert_legal(p, "fire 3,0")
    assert after.stack((2, 0)) == (Colour.RED, 2)
    full = road({"4,0": "red", "2,0": ["red", "red"]}, variant=two)
    assert_not_legal(full, "fire 3,0", Rule.PORTAL_NOT_ACTIVE, cells=["2,0"])
    unlimited = road({"4,0": "red", "2,0": ["red"] * 5}, variant=Variant(per_platform=0))
    assert assert_legal(unlimited, "fire 3,0").stack((2, 0)) == (Colour.RED, 6)
    with pytest.raises(PositionError, match="at most 2"):
        road({"2,0": ["red"] * 3}, variant=two)


def test_different_players_still_block_each_other() -> None:
    """"pionki różnych graczy blokują sobie wzajemnie dostęp do platformy" (pawns of different
    players block each other)."""
    p = road({"4,0": "red", "2,0": "blue"}, variant=Variant(per_platform=0))
    assert_not_legal(p, "fire 3,0", Rule.PORTAL_NOT_ACTIVE)
    with pytest.raises(PositionError, match="different owners"):
        road({"2,0": ["red", "blue"]}, variant=Variant(per_platform=0))


def test_activation_takes_one_pawn_from_each_entrance() -> None:
    """"uruchomienie portalu powoduje zabranie jednego pionka z platformy" (activation takes
    one pawn from the platform)."""
    p = road({"4,0": ["red", "red"]}, variant=Variant(per_platform=2))
    after = assert_legal(p, "fire 3,0")
    assert after.stack((4, 0)) == (Colour.RED, 1) and after.stack((2, 0)) == (Colour.RED, 1)


def test_start_takes_another_own_pawn_under_the_limit() -> None:
    """"gdy jest ona wolna" (when START is free) read with the raised limit: room for one more
    of the player's pawns (docs/rules/portal-hex.md)."""
    p = road({"4,0": "red"}, variant=Variant(per_platform=2))
    assert_legal(p, "start")
    assert_not_legal(road({"4,0": ["red", "red"]}, variant=Variant(per_platform=2)), "start",
                     Rule.START_MUST_BE_FREE)


# -- Gra sterowana rzutem kością ------------------------------------------------------------------

DICE = Variant(dice=True)


def test_roll_needs_the_dice_variant_and_shows_1_to_8() -> None:
    """"rzutu kością K8" (a roll of an eight-sided die): only in that variant, 1 to 8."""
    with pytest.raises(RulesError, match="without the K8"):
        legal_moves(board(), 3)
    with pytest.raises(RulesError, match="9"):
        legal_moves(board(variant=DICE), 9)
    with pytest.raises(RulesError, match="0"):
        explain(board(variant=DICE), board(variant=DICE), 0)


def test_roll_1_to_3_builds() -> None:
    """"1-3 - budowanie drogi" """
    p = road({"4,0": "red"}, variant=DICE)
    assert all(m.action.is_build for m in legal_moves(p, 2))
    assert_legal(p, "portal 3,1 in 4,0", roll=1)
    assert_not_legal(p, "fire 3,0", Rule.ROLL_BUILD, roll=3)
    assert_rejected(p, edit(p, pawns={"4,0": None, "2,0": "red"}), Rule.ROLL_BUILD, roll=2)


def test_roll_4_to_6_fires() -> None:
    """"4-6 - ruch pionkami (uruchomienie portalu)" """
    p = road({"4,0": "red"}, variant=DICE)
    assert moves(p, 5) == {"fire 3,0"}
    assert_legal(p, "fire 3,0", roll=4)
    assert_rejected(p, edit(p, {"3,1": "portal"}, ["4,0>3,1"]), Rule.ROLL_FIRE, roll=6)
    nothing = board(variant=DICE)
    assert moves(nothing, 4) == {"pass"}
    assert_legal(nothing, "pass", roll=6)


def test_roll_7_puts_a_pawn_on_start() -> None:
    """"7-8 - wprowadzenie nowego pionka na START" """
    p = road(variant=DICE)
    assert moves(p, 7) == {"start"}
    assert_rejected(p, edit(p, {"3,1": "portal"}, ["4,0>3,1"]), Rule.ROLL_START, roll=7)
    assert moves(road({"4,0": "red"}, variant=DICE), 7) == {"pass"}


def test_roll_8_takes_off_centrum_first_else_start() -> None:
    """"8 - zdjęcie pionka z CENTRUM" / "zdjęcie pionka z CENTRUM ma pierwszeństwo względem
    wprowadzania na START" (8: off CENTRUM, which comes before START)."""
    on = road({"0,0": "red"}, variant=DICE)
    assert moves(on, 8) == {"centrum"}
    assert_rejected(on, edit(on, pawns={"4,0": "red"}), Rule.CENTRUM_FIRST, roll=8)
    off = road(variant=DICE)
    assert moves(off, 8) == {"start"}
    assert_rejected(off, edit(off, {"3,1": "portal"}, ["4,0>3,1"]), Rule.ROLL_CENTRUM, roll=8)


def test_centrum_compulsion_only_on_an_8() -> None:
    """With the die, the pawn on CENTRUM comes off only on an 8; other rolls do their action."""
    p = road({"0,0": "red", "4,0": "red"}, variant=DICE)
    assert_legal(p, "portal 3,1 in 4,0", roll=1)
    assert_legal(p, "fire 3,0", roll=5)
    assert_not_legal(p, "centrum", Rule.ROLL_BUILD, roll=2)


def test_unknown_roll_accepts_what_some_roll_allows() -> None:
    p = road({"0,0": "red", "4,0": "red"}, variant=DICE)
    for notation in ("centrum", "fire 3,0", "portal 3,1 in 4,0"):
        assert_legal(p, notation)
    assert "pass" in moves(p)  # a 7 would leave nothing to do: START is taken
    q = road(variant=DICE)
    assert "pass" in moves(q)  # a 4-6 finds no active portal
    assert_legal(q, "pass")
