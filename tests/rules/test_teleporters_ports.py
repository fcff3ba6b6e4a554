"""Rule book, "Port movements" (pp. 10-13): Spin, Glide, Glide and Spin, Repel, Anti-Repel,
Teleport creation, and "They may never enter the Telepad rows".

South (``P``, upper-case Ports) is to move. Portpads and their start corners: south b2 sw,
c3 sw, f3 se, g2 se; north b7 nw, c6 nw, f6 ne, g7 ne. A Port in a corner walls that corner's
two edges, so two Ports share a space only in opposite corners.
"""

from __future__ import annotations

import json

import pytest

from companion.rules.errors import MoveError, PositionError
from companion.rules.teleporters import (
    Corner,
    Placement,
    Position,
    Rule,
    Side,
    explain,
    parse_move,
)
from tests.rules.helpers import (
    assert_explained,
    assert_legal,
    assert_not_legal,
    assert_rejected,
    board,
    moves,
    pos,
    relocate,
    sq,
    turn_after,
)


def port_moves_of(position, port):
    """The legal moves of the Port ``port`` (e.g. "d4sw"), as notations."""
    return {m for m in moves(position) if m.startswith(f"V{port}")}


def glides_to(position, port, target):
    """The legal moves of ``port`` that end on (or bounce from) ``target``."""
    return {m for m in port_moves_of(position, port) if m.startswith(f"V{port}-{target}")}


# A lone south Port in d4's south-west corner.
LONE_PORT = pos("8/8/8/8/3[SW]4/8/8/8")


# ----------------------------------------------------------------------------------------------
# Spin: "A Port may rotate within the quadrant it occupies, to line itself up with the lines on
# the board in any of the four directions it can have."


@pytest.mark.parametrize("corner", ["nw", "ne", "se"])
def test_port_spin_to_any_of_its_other_corners(corner):
    """"... in any of the four directions it can have" (Four possible positions of a Port)."""
    after, _ = assert_legal(LONE_PORT, f"Vd4sw@{corner}")
    assert after.ports[sq("d4")] == ((Corner(corner), Side.SOUTH),)


def test_port_spin_offers_exactly_the_three_other_corners():
    """"Four possible positions of a Port in a quadrant": a spin goes to one of the other
    three."""
    spins = {m for m in port_moves_of(LONE_PORT, "d4sw") if "@" in m}
    assert spins == {"Vd4sw@nw", "Vd4sw@ne", "Vd4sw@se"}


def test_port_spin_must_change_the_corner():
    """A spin is a rotation: "spinning" to the corner it already has is no move."""
    with pytest.raises(MoveError):
        parse_move("Vd4sw@sw")


def test_port_spin_with_a_pole_in_its_space():
    """"A Port may rotate within the quadrant it occupies": a Pole in the centre square does
    not stop it ("A Quad may thus hold up to three pieces")."""
    assert_legal(pos("8/8/8/8/3[PSW]4/8/8/8"), "Vd4sw@ne")


def test_port_spin_not_when_part_of_a_teleport():
    """A Port of a Teleport cannot rotate alone: either way it turns it would stand on its
    partner's walls (the Teleport spins as a whole, see Teleport movements)."""
    start = pos("8/8/8/8/3[SWNE]4/8/8/8")
    assert not {m for m in moves(start) if m.startswith("Vd4") and "@" in m}
    assert_not_legal(start, "Vd4sw@nw")
    assert_not_legal(start, "Vd4ne@se")


def test_port_spin_costs_one_port_marker():
    """"Ports have several options. Each costs one Port Marker": spin."""
    _, turn = turn_after(LONE_PORT, "Vd4sw@ne")
    assert (turn.pole_markers_left, turn.port_markers_left) == (2, 1)


def test_port_spin_only_own_ports():
    """Taking turns: the player moves their own pieces; the north Port is not south's."""
    start = pos("8/8/8/8/3[sw]4/8/8/8")
    assert_not_legal(start, "Vd4sw@ne")
    assert_rejected(start, relocate(start, "d4sw", "d4ne"), Rule.ONLY_MOVER_MOVES, ["d4"])


# ----------------------------------------------------------------------------------------------
# Glide: "A Port may travel across the board any number of spaces, as long as its path is in
# either a horizontal or vertical direction and there is nothing blocking it along the way. It
# may not change orientation during this move."


def test_port_glide_any_number_of_spaces_horizontally_or_vertically():
    """"... any number of spaces, as long as its path is in either a horizontal or vertical
    direction" (and short of rows 1 and 8)."""
    glides = {m.split("-")[1] for m in port_moves_of(LONE_PORT, "d4sw") if "-" in m}
    assert glides == {"a4", "b4", "c4", "e4", "f4", "g4", "h4", "d2", "d3", "d5", "d6", "d7"}


@pytest.mark.parametrize("target", ["h4", "a4", "d7", "d2"])
def test_port_glide_is_legal_and_keeps_orientation(target):
    """"It may not change orientation during this move": the Port lands south-west."""
    after, _ = assert_legal(LONE_PORT, f"Vd4sw-{target}")
    assert after.ports[sq(target)] == ((Corner.SW, Side.SOUTH),)


def test_port_glide_may_not_change_orientation():
    """"It may not change orientation during this move" (no Pole where it lands)."""
    assert_not_legal(LONE_PORT, "Vd4sw-d6ne")
    assert_rejected(LONE_PORT, relocate(LONE_PORT, "d4sw", "d6ne"),
                    Rule.PORT_GLIDE_ORIENTATION, ["d4", "d6"])


def test_port_glide_only_horizontal_or_vertical():
    """"... as long as its path is in either a horizontal or vertical direction"."""
    assert_not_legal(LONE_PORT, "Vd4sw-f6")
    assert_rejected(LONE_PORT, relocate(LONE_PORT, "d4sw", "f6sw"), Rule.PORT_GLIDE_STRAIGHT,
                    ["d4", "f6"])


@pytest.mark.parametrize("blocker", ["p", "P", "[ne]", "[NE]"])
def test_port_glide_nothing_blocking_along_the_way(blocker):
    """"... there is nothing blocking it along the way": a Pole or a Port on c4 stops the
    glide a4 -> d4 (a glide passes only over empty spaces).

        4  SW . x .       x on c4: the blocker
           a  b c d
    """
    start = pos(f"8/8/8/8/[SW]1{blocker}5/8/8/8")
    assert_not_legal(start, "Va4sw-d4")
    assert_not_legal(start, "Va4sw-h4")
    assert glides_to(start, "a4sw", "b4") == {"Va4sw-b4"}


def test_port_glide_blocked_is_explained():
    """"... there is nothing blocking it along the way": explain names the blocking space."""
    start = pos("8/8/8/8/[SW]1p5/8/8/8")
    assert_rejected(start, relocate(start, "a4sw", "d4sw"), Rule.PORT_GLIDE_BLOCKED,
                    ["a4", "c4", "d4"])


def test_port_glide_costs_one_port_marker():
    """"Ports have several options. Each costs one Port Marker": glide."""
    _, turn = turn_after(LONE_PORT, "Vd4sw-h4")
    assert (turn.pole_markers_left, turn.port_markers_left) == (2, 1)


# "Ports move only within the quadrant portion of the board. They may never enter the Telepad
# rows."


@pytest.mark.parametrize("target", ["d1", "d8"])
def test_ports_never_enter_the_telepad_rows(target):
    """"They may never enter the Telepad rows": a glide stops at row 2 or row 7."""
    assert_not_legal(LONE_PORT, f"Vd4sw-{target}")
    assert_rejected(LONE_PORT, relocate(LONE_PORT, "d4sw", f"{target}sw"),
                    Rule.PORT_IN_TELEPAD_ROW, [target])


def test_ports_never_enter_the_telepad_rows_from_their_start_portpads():
    """"They may never enter the Telepad rows": from the start, south's b2 and g2 Ports
    glide sideways and north but never south into row 1."""
    start = Position.start()
    assert not {m for m in moves(start) if m.startswith("V") and m[-1] == "1"}
    assert_not_legal(start, "Vb2sw-b1")


def test_ports_on_a_telepad_row_is_a_position_explain_rejects():
    """A Port on a Telepad row can stand on the mat (so it is a valid position), but no move
    puts it there: explain judges it illegal instead of raising."""
    observed = relocate(Position.start(), "b2sw", "a1sw")
    assert observed.ports[sq("a1")]
    assert_rejected(Position.start(), observed, Rule.PORT_IN_TELEPAD_ROW, ["a1"])


# ----------------------------------------------------------------------------------------------
# Glide and Spin: "If a Port moves any distance across the board and lands in a quadrant
# containing a Pole of either color, then that Port gets a free spin. As part of the same move,
# it can rotate around the Pole to any of its four possible positions"


@pytest.mark.parametrize("pole", ["p", "P"])
def test_glide_and_spin_onto_a_pole_of_either_colour_any_of_four_corners(pole):
    """"... lands in a quadrant containing a Pole of either color, then that Port gets a free
    spin ... to any of its four possible positions".

        6  x       d6: a Pole (x = p or P)
        5  .
        4  SW
    """
    start = pos(f"8/8/3{pole}4/8/3[SW]4/8/8/8")
    assert glides_to(start, "d4sw", "d6") == {"Vd4sw-d6", "Vd4sw-d6nw", "Vd4sw-d6ne",
                                              "Vd4sw-d6se"}
    after, turn = assert_legal(start, "Vd4sw-d6ne")
    assert after.ports[sq("d6")] == ((Corner.NE, Side.SOUTH),)
    assert turn.port_markers_left == 1  # "As part of the same move": one marker


def test_glide_and_spin_stops_at_the_pole():
    """"... lands in a quadrant containing a Pole": the Pole's space ends the glide (nothing
    may block the way, and the Pole does)."""
    start = pos("8/8/3p4/8/3[SW]4/8/8/8")
    assert_not_legal(start, "Vd4sw-d7")


def test_glide_and_spin_only_when_landing_with_a_pole():
    """The free spin comes only with a Pole: landing on an empty d6 keeps the orientation."""
    start = pos("8/8/8/8/3[SW]4/8/8/8")
    assert glides_to(start, "d4sw", "d6") == {"Vd4sw-d6"}


# ----------------------------------------------------------------------------------------------
# Repel: "When a Port of one color lands in the same quadrant with the Port of another color,
# the incoming Port "repels" the other Port out of that quadrant. The repelled Port is given to
# its owner to place in its start position on any available Portpad of its color."

# South's Port a4 glides onto c4, where a lone north Port stands north-east (off its Portpads).
#   4  SW . ne
#      a  b c
REPEL = pos("8/8/8/8/[SW]1[ne]5/8/8/8")


def test_repel_the_owner_chooses_any_available_portpad():
    """"The repelled Port is given to its owner to place ... on any available Portpad of its
    color": one move per free north Portpad."""
    assert glides_to(REPEL, "a4sw", "c4") == {
        "Va4sw-c4xb7", "Va4sw-c4xc6", "Va4sw-c4xf6", "Va4sw-c4xg7"}


@pytest.mark.parametrize(("pad", "corner"), [("b7", "nw"), ("c6", "nw"), ("f6", "ne"),
                                             ("g7", "ne")])
def test_repel_places_the_port_in_its_start_position(pad, corner):
    """"... to place in its start position": on the Portpad's striped start corner."""
    after, turn = assert_legal(REPEL, f"Va4sw-c4x{pad}")
    assert after.ports[sq(pad)] == ((Corner(corner), Side.NORTH),)
    assert after.ports[sq("c4")] == ((Corner.SW, Side.SOUTH),)
    assert turn.port_markers_left == 1  # the repelled Port's trip home is free


def test_repel_in_another_corner_of_the_portpad_is_illegal():
    """"... in its start position": b7's start corner is north-west, not north-east."""
    observed = relocate(relocate(REPEL, "a4sw", "c4sw"), "c4ne", "b7ne")
    assert_rejected(REPEL, observed, Rule.ONLY_MOVER_MOVES, ["b7"])


def test_repel_only_to_an_available_portpad():
    """"... on any available Portpad": b7 holds a (south) Port, so it is not available."""
    start = pos("8/1[SE]6/8/8/[SW]1[ne]5/8/8/8")
    assert glides_to(start, "a4sw", "c4") == {"Va4sw-c4xc6", "Va4sw-c4xf6", "Va4sw-c4xg7"}
    assert_not_legal(start, "Va4sw-c4xb7")


def test_repel_is_not_optional():
    """"... the incoming Port "repels" the other Port out of that quadrant": both colours left
    in c4 is not a legal outcome."""
    assert_rejected(REPEL, relocate(REPEL, "a4sw", "c4sw"), Rule.REPEL_NOT_DONE, ["c4"])


def test_repel_with_a_pole_there_the_pole_stays_and_the_port_may_spin():
    """"Any Poles in the quadrants where Repels happen are not affected. They simply stay."
    And landing with a Pole still gives the free spin (Glide and Spin)."""
    start = pos("8/8/8/8/[SW]1[Pne]5/8/8/8")
    assert "Va4sw-c4nexb7" in moves(start)
    after, _ = assert_legal(start, "Va4sw-c4sexf6")
    assert after.poles[sq("c4")] is Side.SOUTH
    assert after.ports[sq("c4")] == ((Corner.SE, Side.SOUTH),)
    assert after.ports[sq("f6")] == ((Corner.NE, Side.NORTH),)


def test_repel_of_a_south_port_by_north():
    """The Repel rule holds for either colour: north repels south's Port to a south Portpad."""
    start = pos("8/8/8/8/[sw]1[NE]5/8/8/8 north")
    assert glides_to(start, "a4sw", "c4") == {
        "Va4sw-c4xb2", "Va4sw-c4xc3", "Va4sw-c4xf3", "Va4sw-c4xg2"}
    after, _ = assert_legal(start, "Va4sw-c4xg2")
    assert after.ports[sq("g2")] == ((Corner.SE, Side.SOUTH),)


def test_repel_to_the_portpad_the_attacker_just_left():
    """"... on any available Portpad of its color": south's Port stood on north's Portpad b7;
    once it glides off, b7 is available (c6, f6, g7 are full).

        7  . SE . . . . ne      b7: south Port on north's Portpad; g7 north at home
        6  . .  nw . . ne .     c6, f6 north at home
        3  . ne                 b3: north Port, off its Portpads
    """
    start = pos("8/1[SE]4[ne]1/2[nw]2[ne]2/8/8/1[ne]6/8/8")
    assert glides_to(start, "b7se", "b3") == {"Vb7se-b3xb7"}
    after, _ = assert_legal(start, "Vb7se-b3xb7")
    assert after.ports[sq("b7")] == ((Corner.NW, Side.NORTH),)


def test_repel_a_portpad_with_only_a_pole_on_it_is_available():
    """"... any available Portpad": a Pole on b7 takes no Port's place (a Port and a Pole
    share a space)."""
    start = pos("8/1p6/8/8/[SW]1[ne]5/8/8/8")
    assert "Va4sw-c4xb7" in moves(start)
    after, _ = assert_legal(start, "Va4sw-c4xb7")
    assert after.poles[sq("b7")] is Side.NORTH


def test_repel_a_port_standing_on_the_attackers_portpad():
    """Only a Port on one of *its own* home Portpads resists (Anti-Repel): north's Port on
    south's Portpad c3 is repelled as usual."""
    start = pos("8/8/8/8/8/[SW]1[ne]5/8/8")
    assert glides_to(start, "a3sw", "c3") == {
        "Va3sw-c3xb7", "Va3sw-c3xc6", "Va3sw-c3xf6", "Va3sw-c3xg7"}


# ----------------------------------------------------------------------------------------------
# Anti-Repel: "Under certain circumstances, a Repel move can backfire: - When a repelled Port
# can't go back to any of its four home Portpads because all are occupied or partially blocked
# by other Ports. - When a Port piece happens already to be on one of its home Portpads when the
# Repel attempt occurs. In such cases the repelled Port gets to remain in the quadrant from which
# it was to be repelled and, instead, the Port that attempted the Repel will itself bounce and be
# repelled back to one of *its* home Portpads, of its owner's choice."


@pytest.mark.parametrize("victim", ["nw", "se"])
def test_anti_repel_when_the_port_is_already_on_one_of_its_home_portpads(victim):
    """"When a Port piece happens already to be on one of its home Portpads": north's Port on
    its Portpad c6 (in any corner) stays; south's Port bounces to a south Portpad of its
    choice.

        6  SW . x        a6 south Port; c6 north's Portpad with a north Port (x)
           a  b c
    """
    start = pos(f"8/8/[SW]1[{victim}]5/8/8/8/8/8")
    assert glides_to(start, "a6sw", "c6") == {"Va6sw-c6!b2", "Va6sw-c6!c3", "Va6sw-c6!f3",
                                              "Va6sw-c6!g2"}
    after, turn = assert_legal(start, "Va6sw-c6!c3")
    assert after.ports[sq("c6")] == ((Corner(victim), Side.NORTH),)  # "gets to remain"
    assert after.ports[sq("c3")] == ((Corner.SW, Side.SOUTH),)  # c3's start corner
    assert after.ports[sq("a6")] == ()
    assert turn.port_markers_left == 1


def test_anti_repel_when_all_home_portpads_are_occupied_or_partially_blocked():
    """"When a repelled Port can't go back to any of its four home Portpads because all are
    occupied or partially blocked by other Ports": b7 and c6 hold north Ports, f6 and g7
    south Ports in other corners than the stripes; north's Port on d4 stays.

        7  . nw . . . . SW .
        6  . .  nw . . SW . .
        4  SW . . ne          a4 south Port; d4 north Port, off its Portpads
    """
    start = pos("8/1[nw]4[SW]1/2[nw]2[SW]2/8/[SW]2[ne]4/8/8/8")
    assert glides_to(start, "a4sw", "d4") == {"Va4sw-d4!b2", "Va4sw-d4!c3", "Va4sw-d4!f3",
                                              "Va4sw-d4!g2"}
    after, _ = assert_legal(start, "Va4sw-d4!g2")
    assert after.ports[sq("d4")] == ((Corner.NE, Side.NORTH),)
    assert after.ports[sq("g2")] == ((Corner.SE, Side.SOUTH),)


def test_anti_repel_bounces_only_to_an_available_portpad_of_its_own():
    """"... repelled back to one of *its* home Portpads, of its owner's choice": c3 and f3 are
    taken, so b2 or g2."""
    start = pos("8/8/[SW]1[nw]5/8/8/2[SW]2[SE]2/8/8")
    assert glides_to(start, "a6sw", "c6") == {"Va6sw-c6!b2", "Va6sw-c6!g2"}
    assert_not_legal(start, "Va6sw-c6!c3")


def test_anti_repel_impossible_when_the_attacker_has_no_free_portpad():
    """With every south Portpad taken the attacking Port has nowhere to bounce: the move onto
    north's Port cannot be made at all."""
    start = pos("8/8/[SW]1[nw]5/8/8/2[SW]2[SE]2/1[SW]4[SE]1/8")
    assert glides_to(start, "a6sw", "c6") == set()
    assert_not_legal(start, "Va6sw-c6!b2")


def test_anti_repel_the_attackers_own_start_portpad_counts_as_free():
    """The attacking Port has left its Portpad, so it may bounce back there: b2 -> b7 (north's
    Port at home on b7) -> back to b2."""
    start = Position.start()
    assert "Vb2sw-b7!b2" in moves(start)


def test_anti_repel_the_port_on_its_home_portpad_is_not_repelled():
    """"... the repelled Port gets to remain in the quadrant": repelling north's Port off its
    own Portpad c6 is illegal."""
    start = pos("8/8/[SW]1[nw]5/8/8/8/8/8")
    assert_not_legal(start, "Va6sw-c6xb7")
    observed = relocate(relocate(start, "c6nw", "b7nw"), "a6sw", "c6sw")
    assert_rejected(start, observed, Rule.PORT_LANDING, ["a6", "c6"])


def test_anti_repel_poles_are_not_affected():
    """"Any Poles in the quadrants where Repels happen are not affected. They simply stay.\""""
    start = pos("8/8/[SW]1[pnw]5/8/8/8/8/8")
    after, _ = assert_legal(start, "Va6sw-c6!b2")
    assert after.poles[sq("c6")] is Side.NORTH


def test_anti_repel_the_bounced_port_has_moved():
    """The bounce is the attacker's move: that Port may not move again this turn."""
    start = pos("8/8/[SW]1[nw]5/8/8/8/8/8")
    after, turn = turn_after(start, "Va6sw-c6!b2")
    assert turn.port_markers_left == 1
    assert not {m for m in moves(after, turn) if m.startswith("Vb2sw")}


# ----------------------------------------------------------------------------------------------
# Teleport creation: "When two Ports of the same color come together in the same quadrant, edge
# to edge, forming a box, a new type of piece, called a Teleport, is created."


def test_teleport_creation_two_same_colour_ports_edge_to_edge():
    """"When two Ports of the same color come together in the same quadrant, edge to edge,
    forming a box ... a Teleport, is created": NE from a4 meets SW on d4."""
    start = pos("8/8/8/8/[NE]2[SW]4/8/8/8")
    after, turn = assert_legal(start, "Va4ne-d4")
    assert after.teleport_at(sq("d4")) is Side.SOUTH
    assert turn.port_markers_left == 1


def test_teleport_creation_only_in_the_opposite_corner():
    """"... edge to edge, forming a box": a second Port in the same orientation would stand on
    the first one's walls, so SW onto SW (no Pole to spin round) is no move."""
    start = pos("8/8/8/8/[SW]2[SW]4/8/8/8")
    assert glides_to(start, "a4sw", "d4") == set()
    assert_not_legal(start, "Va4sw-d4")


def test_teleport_creation_wrong_orientation_is_explained():
    """With one Port marker already spent (h4's spin), the box on d4 cannot come from a4's
    south-west Port: it would have had to change orientation while gliding."""
    start = pos("8/8/8/8/[SW]2[SW]3[SE]/8/8/8")
    mid, turn = turn_after(start, "Vh4se@sw")
    observed = pos("8/8/8/8/3[SWNE]3[SW]/8/8/8")
    assert_rejected(mid, observed, Rule.PORT_GLIDE_ORIENTATION, ["a4", "d4"], turn=turn)


def test_teleport_creation_with_a_pole_the_free_spin_makes_the_box():
    """Glide and Spin with Teleport creation: landing with a Pole, the SW Port may spin to NE
    and close the box round its own Pole."""
    start = pos("8/8/8/8/[SW]2[PSW]4/8/8/8")
    assert glides_to(start, "a4sw", "d4") == {"Va4sw-d4ne"}
    after, _ = assert_legal(start, "Va4sw-d4ne")
    assert after.teleport_at(sq("d4")) is Side.SOUTH
    assert after.poles[sq("d4")] is Side.SOUTH


def test_teleport_creation_round_an_opponent_pole_vaults_it():
    """"A Teleport formed around an opponent's Pole instantly sends it back to its Home
    Telepad (Pole Vault move)" (see test_teleporters_teleporting for the vault itself)."""
    start = pos("8/8/8/8/[NE]2[pSW]4/8/8/8")
    assert glides_to(start, "a4ne", "d4") == {"Va4ne-d4>c8", "Va4ne-d4>d8", "Va4ne-d4>e8",
                                              "Va4ne-d4>f8"}


@pytest.mark.parametrize("teleport", ["SWNE", "swne", "NWSE"])
def test_a_port_never_lands_on_a_teleport(teleport):
    """A Teleport's space is full ("A Quad may thus hold up to three pieces": two Ports and a
    Pole): no third Port lands there, to repel or otherwise."""
    start = pos(f"8/8/8/8/[SE]2[{teleport}]4/8/8/8")
    assert glides_to(start, "a4se", "d4") == set()
    assert_not_legal(start, "Va4se-d4")
    assert_not_legal(start, "Va4se-d4xb7")


def test_two_colours_of_port_never_form_a_teleport():
    """"When two Ports of the same color come together": a south Port meeting a north one
    repels it instead."""
    start = pos("8/8/8/8/[NE]2[sw]4/8/8/8")
    assert "Va4ne-d4" not in moves(start)
    assert all("x" in m for m in glides_to(start, "a4ne", "d4"))


# ----------------------------------------------------------------------------------------------
# Setting up: "Players place the four Ports of their own color on the striped parts of the four
# Portpads of matching color in their second and third rows"


def test_setting_up_ports_on_the_striped_corners_of_their_portpads():
    """Start positions of Ports: south b2 sw, c3 sw, f3 se, g2 se; north b7 nw, c6 nw, f6 ne,
    g7 ne."""
    start = Position.start()
    assert start.placements() == {
        Placement(sq(name), Corner(corner), side)
        for name, corner, side in (
            ("b2", "sw", Side.SOUTH), ("c3", "sw", Side.SOUTH), ("f3", "se", Side.SOUTH),
            ("g2", "se", Side.SOUTH), ("b7", "nw", Side.NORTH), ("c6", "nw", Side.NORTH),
            ("f6", "ne", Side.NORTH), ("g7", "ne", Side.NORTH),
        )
    }
    assert start == pos("2pppp2/1[nw]4[ne]1/2[nw]2[ne]2/8/8/2[SW]2[SE]2/1[SW]4[SE]1/2PPPP2")


# ----------------------------------------------------------------------------------------------
# What cannot stand on a real mat is bad input (PositionError, a ValueError), not a move.


@pytest.mark.parametrize("ports", ["SWSE", "SWnw", "NEne"])
def test_two_ports_with_overlapping_walls_cannot_stand_in_one_space(ports):
    """"Four possible positions of a Port in a quadrant": two Ports in one space must stand
    in opposite corners, or their walls would lie on top of each other."""
    with pytest.raises(PositionError) as err:
        pos(f"8/8/8/8/3[{ports}]4/8/8/8")
    assert isinstance(err.value, ValueError)
    assert "d4" in str(err.value)


def test_bad_input_unknown_corner_square_and_side():
    """Unknown squares, sides and corners are refused, naming the value."""
    with pytest.raises(PositionError, match="up"):
        Position.from_json({"ports": [{"square": "d4", "side": "south", "corner": "up"}]})
    with pytest.raises(PositionError, match="i9"):
        Position.from_json({"poles": {"i9": "south"}})
    with pytest.raises(PositionError, match="west"):
        Position.from_json({"poles": {"d4": "west"}})
    with pytest.raises(PositionError):
        board(ports={"d4": "XX"})


def test_bad_input_duplicate_json_keys():
    """Two Poles listed on one square (a duplicate JSON key) cannot stand on the mat."""
    with pytest.raises(PositionError, match="d4"):
        Position.from_json('{"poles": {"d4": "south", "d4": "north"}}')


def test_json_and_text_forms_agree():
    """The same Ports from the text form and from JSON make the same position."""
    text = pos("8/8/8/8/3[SWne]4/8/8/8")
    doc = {"to_move": "south", "ports": [
        {"square": "d4", "side": "south", "corner": "sw"},
        {"square": "d4", "side": "north", "corner": "ne"}]}
    assert Position.from_json(json.dumps(doc)) == text
    assert Position.from_pieces({}, [Placement(sq("d4"), Corner.SW, Side.SOUTH),
                                     Placement(sq("d4"), Corner.NE, Side.NORTH)]) == text
    assert_explained(text, text)
    assert explain(text, text, full_set=False).moves == ()
