"""Rule book, "Teleport movements" (pp. 13-14), "Taking turns" and the Markers (pp. 5-6), the
sample move sequence of p. 14, passing, and the Goal of the game.

South (``P``, upper-case Ports) is to move unless said otherwise. A Teleport is two same-colour
Ports in opposite corners of one space, written ``[SWNE]`` or ``[NWSE]`` (``[PSWNE]`` with a
south Pole inside).
"""

from __future__ import annotations

import pytest

from companion.rules.teleporters import (
    Diagonal,
    PoleMove,
    Position,
    Rule,
    Side,
    TeleportMove,
    TeleportMoveKind,
    end_turn,
    explain,
    parse_move,
)
from tests.rules.helpers import (
    assert_explained,
    assert_legal,
    assert_not_legal,
    assert_rejected,
    moves,
    pos,
    relocate,
    sq,
    turn_after,
)


def teleport_moves(position, turn=None):
    return {m for m in moves(position, turn) if m.startswith("T")}


# An empty south Teleport on d4, and one holding a south Pole.
TELEPORT = pos("8/8/8/8/3[SWNE]4/8/8/8")
LOADED = pos("8/8/8/8/3[PSWNE]4/8/8/8")


# ----------------------------------------------------------------------------------------------
# "To move a Teleport, hold its two Ports together tightly and slide them in unison, as one
# piece ... Moving an entire Teleport costs only one Port Marker, the same as for a Port."
# Spin: "A Teleport can rotate to any orientation within its quadrant."


def test_teleport_spin_to_the_other_diagonal():
    """"A Teleport can rotate to any orientation within its quadrant": SW+NE becomes NW+SE."""
    after, turn = assert_legal(TELEPORT, "Td4@nwse")
    assert after.teleport_at(sq("d4")) is Side.SOUTH
    assert dict(after.teleports(Side.SOUTH)) == {sq("d4"): Diagonal.NWSE}
    assert (turn.pole_markers_left, turn.port_markers_left) == (2, 1)


def test_teleport_spin_offers_only_the_other_diagonal():
    """A Teleport has two orientations; spinning to the one it has is no move."""
    spins = {m for m in teleport_moves(TELEPORT) if "@" in m}
    assert spins == {"Td4@nwse"}
    assert_not_legal(TELEPORT, "Td4@swne")


def test_teleport_spin_with_its_pole_inside():
    """"Rotating a Teleport helps reposition the two Ports": the Pole inside stays put."""
    after, _ = assert_legal(LOADED, "Td4@nwse")
    assert after.poles[sq("d4")] is Side.SOUTH


def test_teleport_spin_only_own_teleports():
    """The player moves only their own pieces: north's Teleport is not south's to spin."""
    start = pos("8/8/8/8/3[swne]4/8/8/8")
    assert_not_legal(start, "Td4@nwse")
    assert_rejected(start, pos("8/8/8/8/3[nwse]4/8/8/8"), Rule.ONLY_MOVER_MOVES, ["d4"])


# Glide: "A Teleport, just like a Port, may travel across the board any number of unobstructed
# spaces, either horizontally or vertically. It may not change orientation or direction during
# this move."


def test_teleport_glide_any_number_of_unobstructed_spaces_straight():
    """"... any number of unobstructed spaces, either horizontally or vertically\""""
    glides = {m.split("-")[1] for m in teleport_moves(TELEPORT) if "-" in m}
    assert glides == {"a4", "b4", "c4", "e4", "f4", "g4", "h4", "d2", "d3", "d5", "d6", "d7"}
    after, turn = assert_legal(TELEPORT, "Td4-h4")
    assert after.teleport_at(sq("h4")) is Side.SOUTH
    assert turn.port_markers_left == 1  # "Moving an entire Teleport costs only one Port Marker"


def test_teleport_glide_keeps_its_orientation():
    """"It may not change orientation or direction during this move\""""
    after, _ = assert_legal(TELEPORT, "Td4-d6")
    assert dict(after.teleports(Side.SOUTH)) == {sq("d6"): Diagonal.SWNE}
    spun_and_moved = pos("8/8/3[NWSE]4/8/8/8/8/8")
    assert_rejected(TELEPORT, spun_and_moved, Rule.TELEPORT_GLIDE, ["d4", "d6"])


def test_teleport_glide_only_horizontally_or_vertically():
    """"... either horizontally or vertically\""""
    assert_not_legal(TELEPORT, "Td4-f6")
    assert_rejected(TELEPORT, pos("8/8/5[SWNE]2/8/8/8/8/8"), Rule.PORT_GLIDE_STRAIGHT,
                    ["d4", "f6"])


@pytest.mark.parametrize("blocker", ["p", "P", "[ne]", "[NW]"])
def test_teleport_glide_over_unobstructed_spaces_only(blocker):
    """"... any number of unobstructed spaces": a Pole or Port on d5 stops d4 -> d6."""
    start = pos(f"8/8/8/3{blocker}4/3[SWNE]4/8/8/8")
    assert_not_legal(start, "Td4-d6")
    assert_not_legal(start, "Td4-d7")


def test_teleport_glide_blocked_is_explained():
    """"... any number of unobstructed spaces": explain names the blocking space."""
    start = pos("8/8/8/3p4/3[SWNE]4/8/8/8")
    observed = pos("8/8/3[SWNE]4/3p4/8/8/8/8")
    assert_rejected(start, observed, Rule.PORT_GLIDE_BLOCKED, ["d4", "d5", "d6"])


@pytest.mark.parametrize("occupant", ["p", "P", "[ne]", "[NE]"])
def test_teleport_glide_only_onto_an_empty_space(occupant):
    """A Teleport fills a whole space (two Ports and a centre Pole): it lands only on an
    empty one, never on a Pole or a Port."""
    start = pos(f"8/8/3{occupant}4/8/3[SWNE]4/8/8/8")
    assert_not_legal(start, "Td4-d6")
    assert {m.split("-")[1] for m in teleport_moves(start) if "-" in m} >= {"d5"}


def test_teleport_glide_onto_a_pole_is_explained():
    """A Teleport lands only on an empty space: with one Port marker already spent (h3's
    spin), the box seen round the Pole on d6 cannot be explained."""
    start = pos("8/8/3P4/8/3[SWNE]4/7[SE]/8/8")
    mid, turn = turn_after(start, "Vh3se@sw")
    observed = pos("8/8/3[PSWNE]4/8/8/7[SW]/8/8")
    assert_rejected(mid, observed, Rule.TELEPORT_GLIDE, ["d4", "d6"], turn=turn)


@pytest.mark.parametrize("target", ["d1", "d8"])
def test_teleports_never_enter_the_telepad_rows(target):
    """"Teleports move only within the quadrant portion of the board. They may never enter the
    Telepad rows.\""""
    assert_not_legal(TELEPORT, f"Td4-{target}")
    observed = relocate(relocate(TELEPORT, "d4sw", f"{target}sw"), "d4ne", f"{target}ne")
    assert_rejected(TELEPORT, observed, Rule.PORT_IN_TELEPAD_ROW, [target])


# ----------------------------------------------------------------------------------------------
# Transporting Poles: "A Teleport can give any one of its own color Poles a free ride across the
# board by having the Pole travel in its center area as a passenger. Then that Pole can move with
# the Teleport any number of spaces across the board without costing a Pole Marker."


def test_transporting_a_pole_is_a_free_ride():
    """"... that Pole can move with the Teleport any number of spaces across the board without
    costing a Pole Marker\""""
    after, turn = assert_legal(LOADED, "Td4-d7P")
    assert after.poles[sq("d7")] is Side.SOUTH and after.poles[sq("d4")] is None
    assert after.teleport_at(sq("d7")) is Side.SOUTH
    assert (turn.pole_markers_left, turn.port_markers_left) == (2, 1)
    assert explain(LOADED, after, full_set=False).moves == (parse_move("Td4-d7P"),)


def test_transporting_is_optional_by_default():
    """"A Teleport can give ... a free ride" (can, not must): the Teleport may leave its Pole
    behind, out in the open."""
    after, _ = assert_legal(LOADED, "Td4-d6")
    assert after.poles[sq("d4")] is Side.SOUTH and after.poles[sq("d6")] is None


def test_transporting_variant_carry_always():
    """Variant carry=always (sliding the box pushes its Pole along): only the passenger glide
    exists; the Teleport leaving its Pole behind is illegal."""
    start = pos("8/8/8/8/3[PSWNE]4/7[SE]/8/8 south carry=always")
    assert "Td4-d6P" in moves(start)
    assert_not_legal(start, "Td4-d6")
    # With one Port marker spent, two separate Port glides cannot rebuild the box either.
    mid, turn = turn_after(start, "Vh3se@sw")
    observed = pos("8/8/3[SWNE]4/8/3P4/7[SW]/8/8 south carry=always")
    assert_rejected(mid, observed, Rule.TELEPORT_GLIDE, ["d4", "d6"], turn=turn)


def test_transporting_a_pole_that_used_its_own_move_before_the_teleport_closed():
    """"Then that Pole can move with the Teleport ... without costing a Pole Marker": the Pole
    walks into the open side of a Port (its own move), a second Port closes the Teleport round
    it, and the Teleport carries it off. The ride is the Teleport's move, not the Pole's.

        4  SW . . NE     a4, d4: south Ports
        3  .  . . P      d3: south Pole, walks into d4 through its open south side
    """
    start = pos("8/8/8/8/[SW]2[NE]4/3P4/8/8")
    after, turn = turn_after(start, "Pd3-d4", "Va4sw-d4", "Td4-d6P")
    assert after == pos("8/8/3[PSWNE]4/8/8/8/8/8")
    assert (turn.pole_markers_left, turn.port_markers_left) == (1, 0)
    assert len(assert_explained(start, after).moves) == 3


def test_transporting_a_pole_not_possible_without_a_pole_inside():
    """"... by having the Pole travel in its center area": no Pole, no passenger."""
    assert_not_legal(TELEPORT, "Td4-d6P")


# ----------------------------------------------------------------------------------------------
# Teleporting same-color Poles: "A Teleport can send a Pole of its own color instantly from its
# center area to any Home Telepad or to another Teleport of the same color."
# Default reading (send_marker=pole): it is the Pole's teleport "From its Teleport back to any
# available Home Telepad" / "Between its two Teleports", costing a Pole marker.

TWO_TELEPORTS = "8/8/8/1[SWNE]6/3[PSWNE]4/8/8/8"


def test_teleporting_same_colour_pole_default_costs_a_pole_marker():
    """Default send_marker=pole: the send is a Pole move (``Pd4*c1``), one round marker."""
    start = pos(f"{TWO_TELEPORTS} south")
    after, turn = assert_legal(start, "Pd4*c1")
    assert after.poles[sq("c1")] is Side.SOUTH
    assert (turn.pole_markers_left, turn.port_markers_left) == (1, 2)
    assert isinstance(explain(start, after, full_set=False).moves[0], PoleMove)
    assert not {m for m in teleport_moves(start) if "*" in m}


def test_teleporting_same_colour_pole_to_another_teleport():
    """"... or to another Teleport of the same color": d4 -> b5."""
    assert_legal(pos(f"{TWO_TELEPORTS} south"), "Pd4*b5")
    assert_legal(pos(f"{TWO_TELEPORTS} south send_marker=port"), "Td4*b5")


def test_teleporting_same_colour_pole_variant_port_marker():
    """Variant send_marker=port ("all but the Pole Vault cost one Port Marker"): the send is a
    Teleport move ``Td4*c1`` costing a Port marker; the Pole-move form does not exist."""
    start = pos(f"{TWO_TELEPORTS} south send_marker=port")
    after, turn = assert_legal(start, "Td4*c1")
    assert (turn.pole_markers_left, turn.port_markers_left) == (2, 1)
    assert explain(start, after, full_set=False).moves == (
        TeleportMove(TeleportMoveKind.SEND, sq("d4"), sq("c1")),)
    assert_not_legal(start, "Pd4*c1")


def test_teleporting_same_colour_pole_variant_either_marker():
    """Variant send_marker=either: both forms are legal; explain reports the other as an
    alternative."""
    start = pos(f"{TWO_TELEPORTS} south send_marker=either")
    assert {"Pd4*c1", "Td4*c1"} <= moves(start)
    after, _ = assert_legal(start, "Td4*c1")
    result = explain(start, after, full_set=False)
    found = {result.moves, *result.alternatives}
    assert found == {(parse_move("Pd4*c1"),), (parse_move("Td4*c1"),)}


@pytest.mark.parametrize("variant", ["", "send_marker=port"])
def test_teleporting_same_colour_pole_never_to_a_goal_telepad(variant):
    """"... to any Home Telepad or to another Teleport": never to a Goal Telepad."""
    start = pos(f"{TWO_TELEPORTS} south {variant}".strip())
    assert not {m for m in moves(start) if m[-2:] in ("c8", "d8", "e8", "f8")}
    assert_rejected(start, relocate(start, "d4", "c8"), Rule.TELEPORT_TO_GOAL, ["c8"])


def test_teleporting_same_colour_pole_only_to_a_free_home_telepad():
    """"... to any Home Telepad": a Pole never shares one (c1 is taken)."""
    start = pos("8/8/8/8/3[PSWNE]4/8/8/2P5 south send_marker=port")
    assert_not_legal(start, "Td4*c1")
    assert_legal(start, "Td4*d1")


def test_teleporting_same_colour_pole_needs_a_pole_inside():
    """"... send a Pole of its own color ... from its center area": an empty Teleport has
    nothing to send."""
    start = pos("8/8/8/8/3[SWNE]4/8/8/8 south send_marker=port")
    assert not {m for m in moves(start) if "*" in m}
    assert_not_legal(start, "Td4*c1")


def test_teleporting_same_colour_pole_variant_port_works_with_pole_markers_spent():
    """send_marker=port: with both Pole markers used, the Teleport can still send its Pole."""
    start = pos("8/8/8/8/P2[PSWNE]3P/8/8/8 south send_marker=port")
    mid, turn = turn_after(start, "Pa4-a5", "Ph4-h5")
    assert turn.pole_markers_left == 0
    assert_legal(mid, "Td4*c1", turn)


def test_teleporting_same_colour_pole_default_needs_a_pole_marker():
    """Default send_marker=pole: with both Pole markers used, the Pole cannot be sent."""
    start = pos("8/8/8/8/P2[PSWNE]3P/8/8/8")
    mid, turn = turn_after(start, "Pa4-a5", "Ph4-h5")
    assert_not_legal(mid, "Pd4*c1", turn)
    assert_rejected(mid, relocate(mid, "d4", "c1"), Rule.POLE_MARKERS, ["d4", "c1"], turn=turn)


def test_teleporting_same_colour_pole_variant_port_needs_a_port_marker():
    """send_marker=port: with both Port markers used, the Teleport cannot send its Pole."""
    start = pos("8/8/8/8/[SW]2[PSWNE]3[SE]/8/8/8 south send_marker=port")
    mid, turn = turn_after(start, "Va4sw@ne", "Vh4se@nw")
    assert turn.port_markers_left == 0
    assert_not_legal(mid, "Td4*c1", turn)
    assert_rejected(mid, relocate(mid, "d4", "c1"), Rule.PORT_MARKERS, ["d4", "c1"], turn=turn)


# ----------------------------------------------------------------------------------------------
# Taking turns: "A player's turn consists of moving four different pieces--any two Poles, or any
# two Ports or Teleports-- to make up a total of four moves per turn that correspond to the two
# round and two angled Markers. These moves may be taken in any order."

# Three south Poles and three south Ports.
#   4  P  .  .  P  .  .  .  P
#   3  SW .  .  .  .  .  .  SE        (a3, h3)
#   2  .  .  .  SW .  .  .  .         (d2)
THREE_AND_THREE = pos("8/8/8/8/P2P3P/[SW]6[SE]/3[SW]4/8")


def test_turn_at_most_two_pole_moves():
    """"... any two Poles ... correspond to the two round ... Markers": no third Pole move."""
    mid, turn = turn_after(THREE_AND_THREE, "Pa4-a5", "Pd4-d5")
    assert turn.pole_markers_left == 0
    assert not {m for m in moves(mid, turn) if m.startswith("P")}
    observed = relocate(relocate(relocate(THREE_AND_THREE, "a4", "a5"), "d4", "d5"), "h4", "h5")
    assert_rejected(THREE_AND_THREE, observed, Rule.POLE_MARKERS)


def test_turn_at_most_two_port_moves():
    """"... any two Ports or Teleports ... correspond to the ... two angled Markers\""""
    mid, turn = turn_after(THREE_AND_THREE, "Va3sw@ne", "Vh3se@nw")
    assert turn.port_markers_left == 0
    assert not {m for m in moves(mid, turn) if m[0] in "VT"}
    observed = relocate(relocate(relocate(THREE_AND_THREE, "a3sw", "a3ne"), "h3se", "h3nw"),
                        "d2sw", "d2nw")
    assert_rejected(THREE_AND_THREE, observed, Rule.PORT_MARKERS)


def test_turn_ports_and_teleports_share_the_two_angled_markers():
    """"... any two Ports or Teleports": a Port move and a Teleport move use both markers."""
    start = pos("8/8/8/8/[SW]2[SWNE]3[SE]/8/8/8")
    mid, turn = turn_after(start, "Va4sw@ne", "Td4-d6")
    assert turn.port_markers_left == 0
    assert not {m for m in moves(mid, turn) if m[0] in "VT"}
    assert_not_legal(mid, "Vh4se@nw", turn)


def test_turn_four_moves_in_any_order():
    """"These moves may be taken in any order": two Pole and two Port moves, interleaved one
    way or another, all legal and explained as one turn."""
    seq = ("Pa4-a6", "Va3sw@ne", "Pd4-e5", "Vd2sw-g2")
    for order in (seq, seq[::-1], (seq[1], seq[0], seq[3], seq[2])):
        after, turn = turn_after(THREE_AND_THREE, *order)
        assert (turn.pole_markers_left, turn.port_markers_left) == (0, 0)
    result = assert_explained(THREE_AND_THREE, after)
    assert set(result.moves) == {parse_move(m) for m in seq}
    assert result.markers() == {"pole_used": 2, "port_used": 2}


def test_turn_no_pole_moves_twice():
    """"Important: No Pole or Port or Teleport may move more than once during the same turn.\""""
    mid, turn = turn_after(THREE_AND_THREE, "Pa4-a6")
    assert not {m for m in moves(mid, turn) if m.startswith("Pa6")}
    assert_not_legal(mid, "Pa6-a7", turn)
    assert_rejected(mid, relocate(mid, "a6", "a7"), Rule.MOVED_TWICE, ["a6", "a7"], turn=turn)


def test_turn_no_port_moves_twice():
    """"No Pole or Port or Teleport may move more than once during the same turn.\""""
    mid, turn = turn_after(THREE_AND_THREE, "Vd2sw-d3")
    assert not {m for m in moves(mid, turn) if m.startswith("Vd3")}
    assert_not_legal(mid, "Vd3sw@ne", turn)
    assert_rejected(mid, relocate(mid, "d3sw", "d3ne"), Rule.MOVED_TWICE, ["d3"], turn=turn)


def test_turn_no_teleport_moves_twice():
    """"No Pole or Port or Teleport may move more than once during the same turn": a Teleport
    that spun may not glide."""
    mid, turn = turn_after(TELEPORT, "Td4@nwse")
    assert teleport_moves(mid, turn) == set()
    observed = pos("8/8/8/3[NWSE]4/8/8/8/8")
    assert_rejected(mid, observed, Rule.MOVED_TWICE, ["d4", "d5"], turn=turn)


def test_turn_book_teleport_exception_creating_port_moves_again_with_the_teleport():
    """"Although one of the Ports in the Teleport may have already moved during that turn to
    help create the new Teleport, that Port will not be counted as making a second move in the
    same turn if it moves again as part of a Teleport move.\""""
    start = pos("8/8/8/8/[SW]2[NE]4/8/8/8")
    mid, turn = turn_after(start, "Va4sw-d4")
    assert mid.teleport_at(sq("d4")) is Side.SOUTH
    after, turn = assert_legal(mid, "Td4-d6", turn)
    assert turn.port_markers_left == 0
    assert_explained(start, after)


def test_turn_book_teleport_exception_does_not_let_that_port_move_alone_again():
    """The exception covers moving "as part of a Teleport move" only: the Port that created
    the Teleport may not leave it on its own, its partner may."""
    start = pos("8/8/8/8/[SW]2[NE]4/8/8/8")
    mid, turn = turn_after(start, "Va4sw-d4")
    assert not {m for m in moves(mid, turn) if m.startswith("Vd4sw")}
    assert {m for m in moves(mid, turn) if m.startswith("Vd4ne")}
    assert_not_legal(mid, "Vd4sw-d2", turn)


# "A sample move sequence" (p. 14): "First move: Pole moves 2 spaces, spends first Pole Marker.
# Second move: Teleport moves across board, carrying its Pole with it. Uses one Port Marker.
# Third move: A Port moves away from being part of the Teleport, thus breaking up its unity and
# power. Uses the second Port Marker. Fourth move: The Pole moves out of its former Teleport,
# making two steps and using the last Pole Marker."
#
#   6  .  .  .  .  .  .  .  .          after:  6  P  .  .  SW .  .  .  NE
#   4  P  .  .  P+SWNE                          7  .  .  .  .  P  ...
#      a  b  c  d                                 (a4 -> a6; Teleport d4 -> d6 with its
#                                                 Pole; NE Port d6 -> h6; Pole d6 -> e7)
SAMPLE = pos("8/8/8/8/P2[PSWNE]4/8/8/8")
SAMPLE_MOVES = ("Pa4-a6", "Td4-d6P", "Vd6ne-h6", "Pd6-e7")


def test_sample_move_sequence_of_page_14_is_legal_in_that_order():
    """"A sample move sequence": each of the four moves is legal where it is made."""
    position, turn = SAMPLE, None
    expected_markers = [(1, 2), (1, 1), (1, 0), (0, 0)]
    for notation, markers in zip(SAMPLE_MOVES, expected_markers, strict=True):
        position, turn = assert_legal(position, notation, turn)
        assert (turn.pole_markers_left, turn.port_markers_left) == markers, notation
    assert position == pos("8/4P3/P2[SW]3[NE]/8/8/8/8/8")


def test_sample_move_sequence_of_page_14_is_explained_as_one_turn():
    """"Follow along as we illustrate the four parts of a player's turn": explain finds the
    four moves from the start and end positions alone."""
    after, _ = turn_after(SAMPLE, *SAMPLE_MOVES)
    result = assert_explained(SAMPLE, after)
    assert len(result.moves) == 4
    assert result.markers() == {"pole_used": 2, "port_used": 2}


def test_sample_move_sequence_a_ride_is_not_the_poles_own_move():
    """In the sample the carried Pole is not the one that walked first: the ride cost it no
    marker, so it may still walk. A Pole that used its own move to get into the Teleport
    (here by teleporting from c1) may ride, but not walk out afterwards."""
    start = pos("8/8/8/8/3[SWNE]4/8/8/2P5")
    mid, turn = turn_after(start, "Pc1*d4", "Td4-d6P", "Vd6ne-h6")
    assert turn.pole_markers_left == 1
    assert not {m for m in moves(mid, turn) if m.startswith("Pd6")}
    assert_not_legal(mid, "Pd6-e7", turn)
    assert_rejected(mid, relocate(mid, "d6", "e7"), Rule.MOVED_TWICE, ["d6", "e7"], turn=turn)


def test_free_moves_cost_no_marker():
    """Free moves: a repel sends the other Port home, a Teleport carries its Pole, a closing
    Teleport vaults the opponent's Pole; none of these uses a marker of its own, so two Pole
    markers are still there after two Port moves.

        4  SW . ne .  .  .  .  .       a4 south Port; c4 north Port (off its Portpads)
        2  .  .  .  P+SWNE .  .  .     d2 south Teleport with its Pole
    """
    start = pos("8/8/8/8/[SW]1[ne]5/8/3[PSWNE]4/8")
    mid, turn = turn_after(start, "Va4sw-c4xb7", "Td2-h2P")
    assert (turn.pole_markers_left, turn.port_markers_left) == (2, 0)
    assert {m for m in moves(mid, turn) if m.startswith("P")}  # Pole moves remain


# ----------------------------------------------------------------------------------------------
# Passes: "Players may "pass" any of their four moves. Simply slide the Marker piece to the other
# player to signal you're done."


def test_pass_all_four_moves():
    """"Players may "pass" any of their four moves": no change at all is a legal turn."""
    start = Position.start()
    result = assert_explained(start, start)
    assert result.moves == ()
    assert result.markers() == {"pole_used": 0, "port_used": 0}
    assert end_turn(start).to_move is Side.NORTH
    assert end_turn(start).same_board(start)


def test_pass_some_moves():
    """"Players may "pass" any of their four moves": one Pole move and nothing else."""
    start = Position.start()
    after, _ = turn_after(start, "Pd1-d3")
    result = assert_explained(start, after)
    assert result.moves == (parse_move("Pd1-d3"),)
    assert result.markers() == {"pole_used": 1, "port_used": 0}


# ----------------------------------------------------------------------------------------------
# Goal of the game: "To be the first player to get all four Pole pieces from their starting
# spaces into the other player's starting spaces on the opposite side of the board"


def test_setting_up_poles_on_the_four_central_home_telepads():
    """"Setting up: ... places the four Poles of that color on the four central Telepads of
    matching color": south c1-f1, north c8-f8; each side's Goal is the other's Home."""
    start = Position.start()
    assert start.pole_squares(Side.SOUTH) == {sq(n) for n in ("c1", "d1", "e1", "f1")}
    assert start.pole_squares(Side.NORTH) == {sq(n) for n in ("c8", "d8", "e8", "f8")}
    assert start.free_home_telepads(Side.SOUTH) == ()


def test_win_all_four_poles_on_the_goal_telepads():
    """"... get all four Pole pieces ... into the other player's starting spaces\""""
    assert pos("2PPPP2/8/8/8/8/8/8/8").winner() is Side.SOUTH
    assert pos("8/8/8/8/8/8/8/2pppp2 north").winner() is Side.NORTH
    assert Position.start().winner() is None


def test_win_not_with_three_of_four():
    """"... all four Pole pieces": three on the Goal is no win."""
    assert pos("2PPP3/5P2/8/8/8/8/8/8").winner() is None


def test_win_reported_by_explain_when_the_last_pole_walks_in():
    """The move that puts the fourth Pole on the Goal wins: explain says so."""
    start = pos("2PPP3/5P2/8/8/8/8/8/8")
    after, _ = assert_legal(start, "Pf7-f8")
    assert assert_explained(start, after).winner is Side.SOUTH


# ----------------------------------------------------------------------------------------------
# Physically possible but illegal observations are judged, not errors.


def test_a_missing_piece_is_an_illegal_observation():
    """"Game pieces": each player has four Poles and four Ports; one gone from the mat is
    reported by explain (put it back), not raised."""
    start = Position.start()
    poles = list(start.poles)
    poles[sq("d1")] = None
    assert_rejected(start, start.replace(poles=tuple(poles)), Rule.PIECE_COUNT, ["d1"])


def test_only_the_side_to_move_moves():
    """"Taking turns": during south's turn a north Pole may not move."""
    start = pos("8/8/8/8/3Pp3/8/8/8")
    assert_rejected(start, relocate(start, "e4", "f4"), Rule.ONLY_MOVER_MOVES, ["e4", "f4"])
