"""Rule book, "Pole movements": Walking (p. 7) and Wrap-around (p. 8), clause by clause.

Diagrams in the comments show only what matters, rank 8 on top; ``.`` is an empty space, ``P``
a south Pole (the side to move), ``p`` a north Pole, ``sw``/``NE``... a Port in that corner
(upper case south, lower case north).
"""

from __future__ import annotations

import pytest

from companion.rules.teleporters import Rule, walk_targets
from tests.rules.helpers import (
    assert_legal,
    assert_not_legal,
    assert_rejected,
    moves,
    names,
    pos,
    relocate,
    sq,
    turn_after,
)

# A lone south Pole on d4.
LONE_D4 = pos("8/8/8/8/3P4/8/8/8")


# ----------------------------------------------------------------------------------------------
# Walking: "A Pole may move one or two spaces either horizontally or vertically or any
# combination of horizontal and vertical directions, on any spaces of the board."


def test_walking_one_or_two_orthogonal_steps_reach_exactly_the_diamond():
    """"A Pole may move one or two spaces either horizontally or vertically or any combination
    of horizontal and vertical directions": on an empty board, every space 1 or 2 steps away."""
    assert names(walk_targets(LONE_D4, sq("d4"))) == {
        "d5", "d3", "c4", "e4",  # one step
        "d6", "d2", "b4", "f4",  # two steps straight
        "c5", "e5", "c3", "e3",  # two steps, one horizontal and one vertical
    }


@pytest.mark.parametrize("notation", ["Pd4-d5", "Pd4-c4", "Pd4-d3", "Pd4-e4"])
def test_walking_one_space_in_each_orthogonal_direction(notation):
    """"A Pole may move one ... space[s] either horizontally or vertically"."""
    assert_legal(LONE_D4, notation)


@pytest.mark.parametrize("notation", ["Pd4-d6", "Pd4-b4", "Pd4-d2", "Pd4-f4"])
def test_walking_two_spaces_in_a_straight_line(notation):
    """"A Pole may move ... two spaces either horizontally or vertically"."""
    assert_legal(LONE_D4, notation)


@pytest.mark.parametrize("notation", ["Pd4-e5", "Pd4-c5", "Pd4-e3", "Pd4-c3"])
def test_walking_combination_of_horizontal_and_vertical_steps(notation):
    """"... or any combination of horizontal and vertical directions" (an L of two steps)."""
    assert_legal(LONE_D4, notation)


@pytest.mark.parametrize("target", ["d7", "g4", "e6", "b3"])
def test_walking_no_more_than_two_spaces(target):
    """"A Pole may move one or two spaces": three or more is not a walk."""
    assert_not_legal(LONE_D4, f"Pd4-{target}")
    assert_rejected(LONE_D4, relocate(LONE_D4, "d4", target), Rule.POLE_WALK_DISTANCE,
                    ["d4", target])


def test_walking_there_are_no_diagonal_moves():
    """"There are no diagonal moves": e5 is reached only through d5 or e4; with both taken
    the Pole cannot cut across the corner, although e5 itself is empty.

        5  p .        d5 p, e5 empty
        4  P p        d4 P, e4 p
           d e
    """
    start = pos("8/8/8/3p4/3Pp3/8/8/8")
    assert_not_legal(start, "Pd4-e5")
    assert_rejected(start, relocate(start, "d4", "e5"), Rule.POLE_BLOCKED_BY_POLE, ["d4"])


def test_walking_never_returns_to_its_start_square():
    """A walk is a move: two steps out and back ("one or two spaces") is no walk at all."""
    assert sq("d4") not in walk_targets(LONE_D4, sq("d4"))
    assert_not_legal(LONE_D4, "Pd4-d4")


def test_walking_on_any_spaces_of_the_board_including_telepads():
    """"... on any spaces of the board": a Pole walks onto a Goal Telepad and back onto a Home
    Telepad. (c7 -> c8 is south's Goal; d2 -> d1 is south's Home.)"""
    start = pos("8/2P5/8/8/8/8/3P4/8")
    assert_legal(start, "Pc7-c8")
    assert_legal(start, "Pd2-d1")


def test_walking_uses_one_pole_marker():
    """"Taking turns": a walk is one of the two Pole moves (round marker); no Port marker."""
    _, turn = turn_after(LONE_D4, "Pd4-d6")
    assert (turn.pole_markers_left, turn.port_markers_left) == (1, 2)


# "A Pole may not walk through, jump over or share a space occupied by another Pole."


@pytest.mark.parametrize("blocker", ["p", "P"])
def test_walking_pole_may_not_walk_through_or_jump_over_another_pole(blocker):
    """"A Pole may not walk through, jump over ... another Pole" of either colour.

        6  .     d6 is empty but beyond
        5  x     d5: the blocking Pole (x = p or P)
        4  P
    """
    start = pos(f"8/8/8/3{blocker}4/3P4/8/8/8")
    assert_not_legal(start, "Pd4-d6")


def test_walking_pole_blocked_by_opponent_pole_is_explained():
    """"A Pole may not walk through, jump over ... another Pole": explain names the blocker."""
    start = pos("8/8/8/3p4/3P4/8/8/8")
    assert_rejected(start, relocate(start, "d4", "d6"), Rule.POLE_BLOCKED_BY_POLE,
                    ["d4", "d5"])


@pytest.mark.parametrize("blocker", ["p", "P"])
def test_walking_pole_may_not_share_a_space_with_another_pole(blocker):
    """"A Pole may not ... share a space occupied by another Pole"."""
    start = pos(f"8/8/8/3{blocker}4/3P4/8/8/8")
    assert_not_legal(start, "Pd4-d5")
    assert sq("d5") not in walk_targets(start, sq("d4"))


def test_walking_around_another_pole_is_allowed():
    """The Pole rule bars only the occupied space: d4 -> e4 -> e5 goes round the Pole on d5."""
    start = pos("8/8/8/3p4/3P4/8/8/8")
    assert_legal(start, "Pd4-e5")


# "A Pole may not jump over any Port or Teleport wall blocking its path. A Pole may, however,
# walk into a Port through the Port's open side ..."


def test_walking_not_through_a_port_wall_of_the_next_space():
    """"A Pole may not jump over any Port ... wall blocking its path": the north Port in d5's
    south-west corner walls d5's south edge.

        5  sw      (walls: south and west edges of d5)
        4  P
    """
    start = pos("8/8/8/3[sw]4/3P4/8/8/8")
    assert_not_legal(start, "Pd4-d5")
    assert_not_legal(start, "Pd4-d6")
    assert_rejected(start, relocate(start, "d4", "d5"), Rule.POLE_BLOCKED_BY_WALL,
                    ["d4", "d5"])


def test_walking_into_a_port_through_its_open_side():
    """"A Pole may, however, walk into a Port through the Port's open side": d5's Port stands
    north-east, so d5's south and west edges are open.

        5  . ne      c5 empty, d5 ne
        4  . P       d4 P
           c d
    """
    start = pos("8/8/8/3[ne]4/3P4/8/8/8")
    after, _ = assert_legal(start, "Pd4-d5")
    assert after.poles[sq("d5")] is not None


def test_walking_into_a_port_from_the_west_open_side():
    """"... walk into a Port through the Port's open side": from c5 across d5's west edge."""
    start = pos("8/8/8/2P[ne]4/8/8/8/8")
    assert_legal(start, "Pc5-d5")


def test_walking_not_into_a_port_through_its_wall_side():
    """"A Pole may not jump over any Port ... wall": e5 -> d5 crosses d5's walled east edge."""
    start = pos("8/8/8/3[ne]P3/8/8/8/8")
    assert_not_legal(start, "Pe5-d5")
    assert_rejected(start, relocate(start, "e5", "d5"), Rule.POLE_BLOCKED_BY_WALL,
                    ["d5", "e5"])


def test_walking_through_a_port_space_enters_and_leaves_by_open_sides():
    """A two-step walk through a Port's space must both enter and leave through open sides:
    d4 -> d5 -> c5 (in by the south, out by the west) is fine, d4 -> d5 -> d6 is walled.

        6  .         d6
        5  . ne      d5's walls: north and east
        4  . P
           c d
    """
    start = pos("8/8/8/3[ne]4/3P4/8/8/8")
    assert_legal(start, "Pd4-c5")
    assert_not_legal(start, "Pd4-d6")
    assert_rejected(start, relocate(start, "d4", "d6"), Rule.POLE_BLOCKED_BY_WALL,
                    ["d5", "d6"])


def test_walking_out_of_a_port_only_through_its_open_sides():
    """A Pole inside a Port leaves only through the open sides: with a north Port in d4's
    north-east corner, the Pole goes south or west, never north or east."""
    start = pos("8/8/8/8/3[Pne]4/8/8/8")
    assert_legal(start, "Pd4-d3")
    assert_legal(start, "Pd4-c4")
    assert_not_legal(start, "Pd4-d5")
    assert_not_legal(start, "Pd4-e4")
    assert_rejected(start, relocate(start, "d4", "e4"), Rule.POLE_BLOCKED_BY_WALL,
                    ["d4", "e4"])


@pytest.mark.parametrize("teleport", ["swne", "SWNE"])
def test_walking_never_through_a_teleport_wall(teleport):
    """"A Pole may not jump over any Port or Teleport wall": a Teleport walls all four sides
    of its space, so no Pole walks into it (of either colour)."""
    start = pos(f"8/8/8/3[{teleport}]4/3P4/8/8/8")
    assert_not_legal(start, "Pd4-d5")
    assert sq("d5") not in walk_targets(start, sq("d4"))


def test_walking_into_an_opponent_teleport_is_explained_as_a_wall():
    """"A Pole may not jump over any ... Teleport wall blocking its path"."""
    start = pos("8/8/8/3[swne]4/3P4/8/8/8")
    assert_rejected(start, relocate(start, "d4", "d5"), Rule.POLE_BLOCKED_BY_WALL,
                    ["d4", "d5"])


# ----------------------------------------------------------------------------------------------
# Wrap-around: "A Pole on an edge quadrant of the board, either far left or far right, may step
# off the board and come back in on the other end of that row on the opposite side of the
# board."

# A lone south Pole on a4.
LONE_A4 = pos("8/8/8/8/P7/8/8/8")


def test_wrap_around_from_the_a_file_re_enters_on_the_h_file_of_the_same_row():
    """"... step off the board and come back in on the other end of that row"."""
    _, turn = assert_legal(LONE_A4, "Pa4-h4")
    assert [m.notation() for m in turn.moves] == ["Pa4-h4"]


def test_wrap_around_from_the_h_file_re_enters_on_the_a_file():
    """"either far left or far right": h5 -> a5."""
    assert_legal(pos("8/8/8/7P/8/8/8/8"), "Ph5-a5")


@pytest.mark.parametrize("target", ["g4", "h5", "h3"])
def test_wrap_around_first_step_then_one_more_on_the_other_side(target):
    """"If a Pole starts its turn with a wrap-around step, it can move one space as its second
    step on the other side of the board" (in any direction)."""
    assert_legal(LONE_A4, f"Pa4-{target}")


def test_wrap_around_as_the_second_step_after_reaching_the_edge():
    """"If a Pole uses one space to reach the edge of the board, it can use the wrap-around as
    its second step": b4 -> a4 -> h4."""
    assert_legal(pos("8/8/8/8/1P6/8/8/8"), "Pb4-h4")


def test_wrap_around_step_counts_as_one_of_the_two_spaces():
    """"The wrap-around step counts as one of a Pole's two spaces of movement": b4 -> a4 ->
    h4 -> g4 would be three."""
    start = pos("8/8/8/8/1P6/8/8/8")
    assert_not_legal(start, "Pb4-g4")
    assert_rejected(start, relocate(start, "b4", "g4"), Rule.POLE_WALK_DISTANCE, ["b4", "g4"])


@pytest.mark.parametrize("blocker", ["p", "P"])
def test_wrap_around_re_entry_space_blocked_by_another_pole(blocker):
    """"... only if the re-entry space is not blocked by another Pole": h4 taken, so neither
    h4 nor anything beyond it through the wrap."""
    start = pos(f"8/8/8/8/P6{blocker}/8/8/8")
    assert_not_legal(start, "Pa4-h4")
    assert_not_legal(start, "Pa4-g4")


def test_wrap_around_blocked_by_an_opponent_pole_is_explained():
    """"If the space is blocked, the wrap-around move may not be made." (h4: north Pole.)"""
    start = pos("8/8/8/8/P6p/8/8/8")
    assert_rejected(start, relocate(start, "a4", "g4"), Rule.WRAP_BLOCKED, ["a4", "h4"])


@pytest.mark.parametrize("port", ["ne", "NE", "sw", "SE"])
def test_wrap_around_re_entry_space_blocked_by_any_port(port):
    """"... only if the re-entry space is not blocked by another Pole, Port or Teleport": any
    Port on h4 blocks, even one whose walls face away from the a-file side (ne)."""
    start = pos(f"8/8/8/8/P6[{port}]/8/8/8")
    assert_not_legal(start, "Pa4-h4")
    assert_not_legal(start, "Pa4-g4")
    assert_legal(start, "Pa4-h5")  # a4 -> a5 -> h5: another row's re-entry space is free


def test_wrap_around_blocked_by_a_port_with_open_side_is_explained():
    """"If the space is blocked, the wrap-around move may not be made": h4's north Port stands
    north-east (its west side is open), still the Pole may not wrap in."""
    start = pos("8/8/8/8/P6[ne]/8/8/8")
    assert_rejected(start, relocate(start, "a4", "h4"), Rule.WRAP_BLOCKED, ["a4", "h4"])


@pytest.mark.parametrize("teleport", ["swne", "SWNE"])
def test_wrap_around_re_entry_space_blocked_by_a_teleport(teleport):
    """"... not blocked by another Pole, Port or Teleport"."""
    start = pos(f"8/8/8/8/P6[{teleport}]/8/8/8")
    assert_not_legal(start, "Pa4-h4")
    assert_not_legal(start, "Pa4-g4")


def test_wrap_around_blocked_by_an_opponent_teleport_is_explained():
    """"If the space is blocked, the wrap-around move may not be made." (h4: north Teleport.)"""
    start = pos("8/8/8/8/P6[swne]/8/8/8")
    assert_rejected(start, relocate(start, "a4", "g4"), Rule.WRAP_BLOCKED, ["h4"])


def test_wrap_around_not_through_a_wall_on_the_edge_stepped_off():
    """"A Pole may not jump over any Port or Teleport wall": a north Port in a4's south-west
    corner walls a4's west edge, the one a wrap-around steps off through."""
    start = pos("8/8/8/8/[Psw]7/8/8/8")
    assert_not_legal(start, "Pa4-h4")
    assert_rejected(start, relocate(start, "a4", "h4"), Rule.WRAP_BLOCKED, ["a4", "h4"])


def test_wrap_around_may_be_made_only_by_poles():
    """"Such a "wrap-around" move may be made only by Poles": the Port on a4 cannot glide off
    the west edge to h4 (the way east is stopped by the Pole on b4).

        4  SW p . . . . . .
           a  b c d e f g h
    """
    start = pos("8/8/8/8/[SW]p6/8/8/8")
    assert not {m for m in moves(start) if m.startswith("Va4sw-h4")}
    assert_not_legal(start, "Va4sw-h4")
    assert_rejected(start, relocate(start, "a4sw", "h4sw"), Rule.PORT_GLIDE_BLOCKED,
                    ["a4", "b4"])


@pytest.mark.parametrize(("start", "notation"), [
    ("8/8/8/8/8/8/8/P7", "Pa1-h1"),
    ("7P/8/8/8/8/8/8/8", "Ph8-a8"),
])
def test_wrap_around_allowed_on_every_rank_by_default(start, notation):
    """Default reading: "on any spaces of the board" (walking) with wrap-around on the a/h
    files, so a1 (not a Telepad) wraps to h1."""
    assert_legal(pos(start), notation)


def test_wrap_around_variant_quadrants_only_ranks_2_to_7():
    """Variant wrap_rows=quadrants reads "A Pole on an edge quadrant" as ranks 2-7 only: no
    wrap on rank 1, but a1 -> a2 -> h2 still wraps on rank 2."""
    start = pos("8/8/8/8/8/8/8/P7 south wrap_rows=quadrants")
    assert_not_legal(start, "Pa1-h1")
    assert_rejected(start, relocate(start, "a1", "h1"), Rule.POLE_WALK_DISTANCE, ["a1", "h1"])
    assert_legal(start, "Pa1-h2")
