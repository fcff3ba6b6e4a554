"""Rule book, "Pole movements": Teleporting, Blockade escape (p. 9) and The Pole Vault (p. 10).

South (``P``, upper-case Ports) is to move unless said otherwise. South's Home Telepads are
c1-f1 (north's Goal), north's are c8-f8 (south's Goal). Diagrams show only what matters.
"""

from __future__ import annotations

import pytest

from companion.rules.teleporters import (
    PoleMove,
    PoleMoveKind,
    Rule,
    Side,
    blockaded,
    explain,
    parse_move,
    surrounded,
)
from tests.rules.helpers import (
    assert_legal,
    assert_not_legal,
    assert_rejected,
    moves,
    pos,
    relocate,
    sq,
    turn_after,
)


def pole_moves_of(position, square):
    """The legal moves of the Pole on ``square``, as notations."""
    return {m for m in moves(position) if m.startswith(f"P{square}")}


# ----------------------------------------------------------------------------------------------
# Teleporting: "Instead of taking a walking move, a Pole may make an instantaneous switch from
# one place to another on the board, under certain conditions."


def test_teleporting_between_two_home_telepads():
    """"Between any two of the player's Home Telepads": c1 -> f1 (too far to walk)."""
    start = pos("8/8/8/8/8/8/8/2P5")
    after, _ = assert_legal(start, "Pc1*f1")
    assert after.poles[sq("f1")] is Side.SOUTH
    assert explain(start, after, full_set=False).moves == (parse_move("Pc1*f1"),)


def test_teleporting_between_home_telepads_for_north_too():
    """"Between any two of the player's Home Telepads": north's are c8-f8."""
    start = pos("2p5/8/8/8/8/8/8/8 north")
    assert_legal(start, "Pc8*f8")


def test_teleporting_only_to_an_unoccupied_home_telepad():
    """"Between any two of the player's Home Telepads": a Pole never shares f1."""
    start = pos("8/8/8/8/8/8/8/2P2P2")
    assert_not_legal(start, "Pc1*f1")


def test_teleporting_costs_a_pole_marker():
    """A teleport is a Pole move ("Instead of taking a walking move"): one round marker."""
    _, turn = turn_after(pos("8/8/8/8/8/8/8/2P5"), "Pc1*f1")
    assert (turn.pole_markers_left, turn.port_markers_left) == (1, 2)


def test_teleporting_from_a_home_telepad_into_its_own_teleport():
    """"From a Home Telepad into its own color Teleport"."""
    start = pos("8/8/8/8/3[SWNE]4/8/8/2P5")  # south Teleport on d4, empty
    after, _ = assert_legal(start, "Pc1*d4")
    assert after.poles[sq("d4")] is Side.SOUTH


def test_teleporting_not_into_an_own_teleport_holding_a_pole():
    """"From a Home Telepad into its own color Teleport": not one already holding a Pole."""
    start = pos("8/8/8/8/3[PSWNE]4/8/8/2P5")
    assert_not_legal(start, "Pc1*d4")


def test_teleporting_not_into_an_opponent_teleport():
    """"... into its own color Teleport": a north Teleport is no destination."""
    start = pos("8/8/8/8/3[swne]4/8/8/2P5")
    assert_not_legal(start, "Pc1*d4")
    assert_rejected(start, relocate(start, "c1", "d4"), Rule.NO_TELEPORT_ROUTE, ["c1", "d4"])


def test_teleporting_between_its_two_teleports():
    """"Between its two Teleports": d4 -> b5."""
    start = pos("8/8/8/1[SWNE]6/3[PSWNE]4/8/8/8")
    assert_legal(start, "Pd4*b5")


def test_teleporting_not_into_an_own_teleport_that_is_occupied():
    """"Between its two Teleports": not when the other one holds a Pole."""
    start = pos("8/8/8/1[pSWNE]6/3[PSWNE]4/8/8/8")
    assert_not_legal(start, "Pd4*b5")


@pytest.mark.parametrize("home", ["c1", "d1", "e1", "f1"])
def test_teleporting_from_its_teleport_back_to_any_available_home_telepad(home):
    """"From its Teleport back to any available Home Telepad"."""
    start = pos("8/8/8/8/3[PSWNE]4/8/8/8")
    assert_legal(start, f"Pd4*{home}")


def test_teleporting_from_its_teleport_not_to_an_occupied_home_telepad():
    """"... back to any available Home Telepad": c1 is taken."""
    start = pos("8/8/8/8/3[PSWNE]4/8/8/2P5")
    assert_not_legal(start, "Pd4*c1")
    assert_legal(start, "Pd4*f1")


def test_teleporting_between_two_goal_telepads():
    """"Between any two Goal Telepads": c8 -> f8."""
    start = pos("2P5/8/8/8/8/8/8/8")
    assert_legal(start, "Pc8*f8")


@pytest.mark.parametrize("home", ["c1", "f1"])
def test_teleporting_from_a_goal_telepad_back_to_a_home_telepad(home):
    """"From a Goal Telepad back to a Home Telepad"."""
    start = pos("2P5/8/8/8/8/8/8/8")
    assert_legal(start, f"Pc8*{home}")


def test_teleporting_from_a_goal_telepad_into_its_own_teleport():
    """"From a Goal Telepad into its own Teleport"."""
    start = pos("2P5/8/8/1[SWNE]6/8/8/8/8")
    assert_legal(start, "Pc8*b5")


def test_teleporting_not_from_an_ordinary_space():
    """Teleporting starts only on a Telepad, in an own Teleport, or from a Blockade: a Pole on
    the open board cannot jump home."""
    start = pos("8/8/8/8/3P4/8/8/8")
    assert_not_legal(start, "Pd4*c1")
    assert_rejected(start, relocate(start, "d4", "c1"), Rule.NO_TELEPORT_ROUTE, ["d4", "c1"])


def test_teleporting_never_from_a_home_telepad_to_a_goal_telepad():
    """"Note that a Pole may never teleport to a Goal Telepad. To reach a Goal, the Pole must
    walk into it directly.\""""
    start = pos("8/8/8/8/8/8/8/2P5")
    assert_not_legal(start, "Pc1*c8")
    assert_rejected(start, relocate(start, "c1", "c8"), Rule.TELEPORT_TO_GOAL, ["c1", "c8"])


def test_teleporting_never_from_a_teleport_to_a_goal_telepad():
    """"Note that a Pole may never teleport to a Goal Telepad" (not even from its Teleport)."""
    start = pos("8/8/8/8/3[PSWNE]4/8/8/8")
    assert_not_legal(start, "Pd4*c8")
    assert_rejected(start, relocate(start, "d4", "c8"), Rule.TELEPORT_TO_GOAL, ["d4", "c8"])


def test_teleporting_never_to_a_goal_telepad_from_the_open_board():
    """"To reach a Goal, the Pole must walk into it directly": d6 -> c8 is three steps."""
    start = pos("8/8/3P4/8/8/8/8/8")
    assert_not_legal(start, "Pd6*c8")
    assert_rejected(start, relocate(start, "d6", "c8"), Rule.TELEPORT_TO_GOAL, ["d6", "c8"])


def test_teleporting_a_goal_telepad_is_reached_by_walking_in():
    """"To reach a Goal, the Pole must walk into it directly": c6 -> c7 -> c8."""
    assert_legal(pos("8/8/2P5/8/8/8/8/8"), "Pc6-c8")


# ----------------------------------------------------------------------------------------------
# Blockade escape: "If a Pole becomes totally surrounded by the other player's game pieces,
# with any combination of Poles, Ports and Teleports, the blockaded Pole can instantly teleport
# back to one of its unoccupied Home Telepads."

# South Pole on d4 boxed in by four north Poles; south has no Port to help.
#   5  . p .
#   4  p P p
#   3  . p .
#      c d e
BOXED_D4 = pos("8/8/8/3p4/2pPp3/3p4/8/8")


def test_blockade_escape_to_any_unoccupied_home_telepad():
    """"... the blockaded Pole can instantly teleport back to one of its unoccupied Home
    Telepads" (the player chooses which)."""
    assert surrounded(BOXED_D4, sq("d4")) and blockaded(BOXED_D4, sq("d4"))
    assert pole_moves_of(BOXED_D4, "d4") == {"Pd4!c1", "Pd4!d1", "Pd4!e1", "Pd4!f1"}
    after, turn = assert_legal(BOXED_D4, "Pd4!e1")
    escape = PoleMove(PoleMoveKind.ESCAPE, sq("d4"), sq("e1"))
    assert explain(BOXED_D4, after, full_set=False).moves == (escape,)
    assert turn.pole_markers_left == 1  # the escape is a Pole move


def test_blockade_escape_only_to_unoccupied_home_telepads():
    """"... one of its unoccupied Home Telepads": c1 and d1 are taken."""
    start = pos("8/8/8/3p4/2pPp3/3p4/8/2PP4")
    assert pole_moves_of(start, "d4") == {"Pd4!e1", "Pd4!f1"}


def test_blockade_escape_impossible_with_no_unoccupied_home_telepad():
    """"... one of its unoccupied Home Telepads": none left, no escape."""
    start = pos("8/8/8/3p4/2pPp3/3p4/8/2PPPP2")
    assert blockaded(start, sq("d4"))
    assert pole_moves_of(start, "d4") == set()


def test_blockade_by_any_combination_of_poles_ports_and_teleports():
    """"... with any combination of Poles, Ports and Teleports".

        5  .    p    .       d5 north Pole
        4  swne P    sw      c4 north Teleport, e4 north Port walling e4's west edge
        3  .    p    .       d3 north Pole
           c    d    e
    """
    start = pos("8/8/8/3p4/2[swne]P[sw]3/3p4/8/8")
    assert blockaded(start, sq("d4"))
    assert_legal(start, "Pd4!c1")


def test_blockade_needs_every_step_blocked():
    """"If a Pole becomes totally surrounded": one free step (e4) and there is no escape."""
    start = pos("8/8/8/3p4/2pP4/3p4/8/8")
    assert not surrounded(start, sq("d4"))
    assert_not_legal(start, "Pd4!c1")
    assert_rejected(start, relocate(start, "d4", "c1"), Rule.NO_TELEPORT_ROUTE, ["d4", "c1"])


def test_blockade_only_by_the_other_players_pieces():
    """"... totally surrounded by the other player's game pieces": a step blocked only by the
    player's own Pole (e4) does not count."""
    start = pos("8/8/8/3p4/2pPP3/3p4/8/8")
    assert not surrounded(start, sq("d4"))
    assert_not_legal(start, "Pd4!c1")


def test_blockade_own_port_walls_do_not_count():
    """"... surrounded by the other player's game pieces": the Pole's own Port walls d4's
    south and west edges, so those steps are blocked by its own piece only."""
    start = pos("8/8/8/3p4/2p[PSW]p3/8/8/8")
    assert not surrounded(start, sq("d4"))
    assert not {m for m in pole_moves_of(start, "d4") if "!" in m}


def test_blockade_board_ends_north_and_south_are_not_steps():
    """At the north end of the board there is no step to block: b8 is surrounded by a8, c8
    and b7 alone (b8 is no Telepad, so only the escape takes it home).

        8  p P p
        7  . p .
           a b c
    """
    start = pos("pPp5/1p6/8/8/8/8/8/8")
    assert surrounded(start, sq("b8"))
    assert_legal(start, "Pb8!d1")


def test_blockade_the_wrap_around_step_is_a_step_out():
    """Wrap-around is a step: a5 with a6, a4 and b5 blocked still steps out to h5."""
    open_wrap = pos("8/8/p7/Pp6/p7/8/8/8")
    assert not surrounded(open_wrap, sq("a5"))
    assert_not_legal(open_wrap, "Pa5!c1")
    closed = pos("8/8/p7/Pp5p/p7/8/8/8")  # h5 taken too
    assert blockaded(closed, sq("a5"))
    assert_legal(closed, "Pa5!c1")


def test_blockade_without_wrap_on_rank_8_in_the_quadrants_variant():
    """With wrap_rows=quadrants there is no wrap step off a8, so a7 and b8 close it in; by
    default a8 still wraps to h8."""
    assert not surrounded(pos("Pp6/p7/8/8/8/8/8/8"), sq("a8"))
    boxed = pos("Pp6/p7/8/8/8/8/8/8 south wrap_rows=quadrants")
    assert blockaded(boxed, sq("a8"))
    assert_legal(boxed, "Pa8!c1")


# "However, if a player can move some of the opponent's blocking pieces out of the way by
# teleporting or repelling them away, then that Pole is not considered blockaded and cannot use
# the escape move."

# d4 surrounded: d5, c4, d3 north Poles, and a north Port in e4's south-west corner walls the
# east step. South's Port on e2 can glide up to e4 and repel that Port: not truly blocked.
#   5  .  p  .
#   4  p  P  sw
#   3  .  p  .
#   2  .  .  NE
#      c  d  e
REPEL_RESCUE = pos("8/8/8/3p4/2pP[sw]3/3p4/4[NE]3/8")


def test_blockade_not_truly_blocked_when_a_blocking_port_can_be_repelled():
    """"... if a player can move some of the opponent's blocking pieces out of the way by ...
    repelling them away, then that Pole is not considered blockaded\""""
    assert surrounded(REPEL_RESCUE, sq("d4"))
    assert not blockaded(REPEL_RESCUE, sq("d4"))
    assert "Ve2ne-e4xb7" in moves(REPEL_RESCUE)  # the rescue itself
    assert pole_moves_of(REPEL_RESCUE, "d4") == set()


def test_blockade_not_truly_blocked_escape_is_explained_as_such():
    """"... that Pole is not considered blockaded and cannot use the escape move\""""
    assert_not_legal(REPEL_RESCUE, "Pd4!c1")
    assert_rejected(REPEL_RESCUE, relocate(REPEL_RESCUE, "d4", "c1"), Rule.NOT_BLOCKADED,
                    ["d4", "c1"])


def test_blockade_same_box_without_the_rescuing_port_is_a_blockade():
    """Control for the case above: without south's Port on e2 the Pole is blockaded."""
    start = pos("8/8/8/3p4/2pP[sw]3/3p4/8/8")
    assert blockaded(start, sq("d4"))
    assert_legal(start, "Pd4!c1")


# d4 surrounded by d5, c4, e4, d3 north Poles; d5's Pole stands inside a south Port (north-east
# corner). South's Port on a5 can glide to d5 and close a Teleport round that Pole, which then
# vaults home: the blocker is teleported away.
#   5  SW .  .  p+NE
#   4  .  .  p  P  p
#   3  .  .  .  p
#      a  b  c  d  e
VAULT_RESCUE = pos("8/8/8/[SW]2[pNE]4/2pPp3/3p4/8/8")


def test_blockade_not_truly_blocked_when_a_blocking_pole_can_be_vaulted():
    """"... by teleporting ... them away" (the book's drawing: "teleporting a blocking Pole
    (see "Pole Vault" below)")."""
    assert surrounded(VAULT_RESCUE, sq("d4"))
    assert not blockaded(VAULT_RESCUE, sq("d4"))
    assert "Va5sw-d5>c8" in moves(VAULT_RESCUE)  # the rescue itself
    assert_not_legal(VAULT_RESCUE, "Pd4!c1")
    assert_rejected(VAULT_RESCUE, relocate(VAULT_RESCUE, "d4", "c1"), Rule.NOT_BLOCKADED,
                    ["d4", "c1"])


def test_blockade_an_anti_repel_is_no_rescue():
    """Only a real repel moves a blocker: c6 is north's own Portpad, so a south Port gliding
    there bounces home (anti-repel) and the north Port walling c5's north edge stays.

        6  SW .  sw      a6 south Port, c6 north Port on its Portpad
        5  .  p  P  p
        4  .  .  p
           a  b  c  d
    """
    start = pos("8/8/[SW]1[sw]5/1pPp4/2p5/8/8/8")
    assert "Va6sw-c6!b2" in moves(start)  # the only thing that Port can do there
    assert blockaded(start, sq("c5"))
    assert_legal(start, "Pc5!c1")


def test_blockade_rescue_counts_even_when_port_markers_are_spent():
    """"... if a player can move some of the opponent's blocking pieces": the rescue is looked
    for among the player's Port moves, markers aside; spending both Port markers elsewhere
    does not turn the Pole into a blockaded one."""
    start = pos("8/8/8/3p4/2pP[sw]3/3p4/[SW]3[NE]2[SE]/8")  # REPEL_RESCUE + a2, h2 Ports
    after, turn = turn_after(start, "Va2sw@ne", "Vh2se@nw")
    assert turn.port_markers_left == 0
    assert not blockaded(after, sq("d4"))
    assert_not_legal(after, "Pd4!c1", turn)


# ----------------------------------------------------------------------------------------------
# The Pole Vault: "When a Pole is enclosed by an opponent's Teleport, the enclosed Pole is
# immediately teleported to one of its Home Telepads as a free move. It is handed to its owner
# to choose the Telepad on which to place it. No Pole Marker is used up in teleporting this
# Pole"

# South Port on a4 glides to d4, where a north Pole stands in a south Port's north-east corner.
#   4  SW . . p+NE
#      a  b c d
VAULT = pos("8/8/8/8/[SW]2[pNE]4/8/8/8")


def test_pole_vault_enclosed_pole_goes_to_a_home_telepad_of_its_owners_choice():
    """"... the enclosed Pole is immediately teleported to one of its Home Telepads ... It is
    handed to its owner to choose the Telepad": every north Home Telepad is offered."""
    closing = {m for m in moves(VAULT) if m.startswith("Va4sw-d4")}
    assert closing == {"Va4sw-d4>c8", "Va4sw-d4>d8", "Va4sw-d4>e8", "Va4sw-d4>f8"}
    after, _ = assert_legal(VAULT, "Va4sw-d4>e8")
    assert after.poles[sq("e8")] is Side.NORTH and after.poles[sq("d4")] is None
    assert after.teleport_at(sq("d4")) is Side.SOUTH


def test_pole_vault_is_a_free_move():
    """"No Pole Marker is used up in teleporting this Pole": only the Port's marker."""
    _, turn = turn_after(VAULT, "Va4sw-d4>d8")
    assert (turn.pole_markers_left, turn.port_markers_left) == (2, 1)


def test_pole_vault_only_to_an_unoccupied_home_telepad():
    """"... teleported to one of its Home Telepads": c8 and d8 are taken."""
    start = pos("2pp4/8/8/8/[SW]2[pNE]4/8/8/8")
    closing = {m for m in moves(start) if m.startswith("Va4sw-d4")}
    assert closing == {"Va4sw-d4>e8", "Va4sw-d4>f8"}
    assert_not_legal(start, "Va4sw-d4>c8")


def test_pole_vault_with_no_free_home_telepad_the_teleport_cannot_close():
    """The enclosed Pole must go home at once; with all four north Home Telepads taken it
    cannot, so the Teleport cannot be closed round it."""
    start = pos("2pppp2/8/8/8/[SW]2[pNE]4/8/8/8")
    assert not {m for m in moves(start) if m.startswith("Va4sw-d4")}
    assert_not_legal(start, "Va4sw-d4")


def test_pole_vault_is_immediate_a_pole_left_inside_is_illegal():
    """"... the enclosed Pole is immediately teleported": a Teleport seen closed round a north
    Pole is not a legal outcome."""
    observed = relocate(VAULT, "a4sw", "d4sw")
    assert_rejected(VAULT, observed, Rule.VAULT_NOT_DONE, ["d4"])


def test_pole_vault_goes_to_a_home_telepad_not_elsewhere():
    """"... teleported to one of its Home Telepads": not to d7 (nor to south's d1)."""
    closed = relocate(VAULT, "a4sw", "d4sw")
    for elsewhere in ("d7", "d1"):
        assert_rejected(VAULT, relocate(closed, "d4", elsewhere), Rule.ONLY_MOVER_MOVES,
                        [elsewhere])


def test_pole_vault_not_for_the_teleports_own_colour():
    """"When a Pole is enclosed by an opponent's Teleport": a south Teleport closing round a
    south Pole leaves it inside."""
    start = pos("8/8/8/8/[SW]2[PNE]4/8/8/8")
    after, _ = assert_legal(start, "Va4sw-d4")
    assert after.poles[sq("d4")] is Side.SOUTH
