"""Telic, "Movement Of Pyramids And Stacks Already On The Board", Stacking, Bumping, the
Center Zone and "End Of Game And Winning", clause by clause."""

from __future__ import annotations

from companion.rules.telic import Pass, Rule, Side, explain, legal_moves, parse_space
from tests.rules.test_telic_support import illegal, legal, notations, pos, rejected


def at(p, name):  # type: ignore[no-untyped-def]
    return p.board[parse_space(name)]


# -- one space per turn, orthogonally ------------------------------------------------------------

def test_move_one_space_orthogonally_to_a_vacant_space() -> None:
    """'one space per turn, orthogonally'."""
    p = pos("b2:B5 k5:R4")
    assert {m for m in notations(p) if m.startswith("b2")} == {"b2-r5", "b2-ka", "b2-k2"}
    after = legal(p, "b2-ka")
    assert at(after, "b2") is None and at(after, "ka").sizes == (5,)


def test_move_no_diagonal_and_no_two_space_moves() -> None:
    """'No diagonal moves are allowed'; one space per turn."""
    p = pos("b2:B5 k5:R4")
    ex = illegal(p, "b2-k4", None, Rule.ONE_STEP)
    assert set(ex.spaces) == {parse_space("b2"), parse_space("k4")}
    illegal(p, "b2-r3", None, Rule.ONE_STEP)  # over k2: two spaces


def test_move_opposite_corners_are_virtually_adjacent() -> None:
    """'a piece may move from the red 5 tile directly to the blue 5 tile (or vice versa)'."""
    legal(pos("r5:B5 k5:R4"), "r5-b5")
    legal(pos("b5:B5 k5:R4"), "b5-r5")
    legal(pos("r4:B21 k5:R4"), "r4-b4")
    legal(pos("b4:B5 k5:R4"), "b4-r4")
    illegal(pos("r5:B5 k5:R4"), "r5-r4", None, Rule.ONE_STEP)
    illegal(pos("r5:B5 k5:R4"), "r5-b4", None, Rule.ONE_STEP)


def test_move_only_own_pieces_and_only_one() -> None:
    """A player moves one of *their* pyramids or Stacks per turn."""
    p = pos("b2:B5 k5:R4")
    rejected(p, pos("b2:B5 kn:R4"), None, Rule.OWN_PIECES)
    p = pos("b2:B5 k4:B3 k5:R4")
    rejected(p, pos("ka:B5 b3:B3 k5:R4"), None, Rule.ONE_PIECE)
    rejected(p, p, None, Rule.MUST_MOVE)  # no roll, nothing moved


# -- Stacking ------------------------------------------------------------------------------------

def test_stacking_on_the_board_smaller_onto_larger() -> None:
    """Stacking: a piece moved onto a friendly one forms one Stack (rules of stacking)."""
    after = legal(pos("b2:B3 ka:B5 k5:R4"), "b2-ka")
    assert at(after, "ka").sizes == (5, 3)
    after = legal(pos("b2:B21 ka:B53 k5:R4"), "b2-ka")
    assert at(after, "ka").sizes == (5, 3, 2, 1)


def test_stacking_on_the_board_larger_onto_smaller_is_illegal() -> None:
    """Rules of stacking: 'Pyramids may only be stacked onto larger pyramids'."""
    illegal(pos("b2:B5 ka:B3 k5:R4"), "b2-ka", None, Rule.STACK_SMALLER)
    illegal(pos("b2:B31 ka:B53 k5:R4"), "b2-ka", None, Rule.STACK_SMALLER)  # 3 on 3
    illegal(pos("b2:B3 ka:B3 k5:R4"), "b2-ka", None, Rule.STACK_SMALLER)  # equal sizes


def test_stacking_the_moving_piece_goes_on_top() -> None:
    """Interpretation: the moving piece is put on top of the one already there."""
    p = pos("b2:B5 ka:B3 k5:R4")  # 3 under 5 is not allowed even though 5/3 would be
    rejected(p, pos("ka:B53 k5:R4"), None, Rule.STACK_SMALLER)


def test_stacking_never_unstacked() -> None:
    """'Once stacked, a pyramid may never be unstacked'."""
    p = pos("b2:B53 k5:R4")
    rejected(p, pos("b2:B5 ka:B3 k5:R4"), None, Rule.NEVER_UNSTACKED)
    rejected(p, pos("b2:B5 k5:R4"), None, Rule.NEVER_UNSTACKED)


def test_stacking_up_to_six() -> None:
    """Stacks may be built up to six high: a Hex from a Triple onto a Triple."""
    after = legal(pos("b2:B321 ka:B654 k5:R4"), "b2-ka")
    assert at(after, "ka").height == 6


# -- Bumping -------------------------------------------------------------------------------------

def test_bumping_equal_or_lesser_single() -> None:
    """Bumping: equal or lesser power is bumped; a bigger Single beats a smaller one."""
    after = legal(pos("b2:B4 ka:R4 k5:R2"), "b2xka")
    assert at(after, "ka").side is Side.BLUE
    assert after.stash(Side.RED)[3] == 2  # the red 4 is back in red's stash
    legal(pos("b2:B5 ka:R4 k5:R2"), "b2xka")
    illegal(pos("b2:B3 ka:R4 k5:R2"), "b2xka", None, Rule.BUMP_POWER)


def test_bumping_any_stack_beats_any_single() -> None:
    """Power: 'Any Stack is more powerful than any Single'."""
    legal(pos("b2:B21 ka:R6 k5:R2"), "b2xka")
    illegal(pos("b2:B6 ka:R21 k5:R2"), "b2xka", None, Rule.BUMP_POWER)


def test_bumping_stacks_by_pyramid_count_not_size() -> None:
    """Power: 'a stack of three small pyramids is more powerful than a stack of two big'."""
    after = legal(pos("b2:B321 ka:R65 k5:R2"), "b2xka")
    assert after.stash(Side.RED)[4] == 2 and after.stash(Side.RED)[5] == 2  # individuals
    illegal(pos("b2:B65 ka:R321 k5:R4"), "b2xka", None, Rule.BUMP_POWER)
    legal(pos("b2:B21 ka:R65 k5:R4"), "b2xka")  # equal count: equal power bumps


def test_bumping_never_stacks_onto_the_other_colour() -> None:
    """Rules of stacking: only onto the player's own pyramids; onto an opponent it bumps."""
    p = pos("b2:B2 ka:R4 k5:R2")
    assert not any(m.startswith("b2") and "ka" in m for m in notations(p))


# -- Center Zone ---------------------------------------------------------------------------------

def test_center_zone_entered_from_black_2_and_black_3() -> None:
    """'Movement of a piece into the Center Zone may only occur from the black 2 tile or the
    black 3 tile'; the piece leaves the board for good."""
    after = legal(pos("k2:B5 k5:R4"), "k2-cz")
    assert at(after, "k2") is None and after.in_center(Side.BLUE) == 1
    after = legal(pos("k3:B542 k5:R4"), "k3-cz")
    assert after.in_center(Side.BLUE) == 3


def test_center_zone_not_from_other_black_tiles() -> None:
    """'The Center Zone may not be entered from the black ace, 4, 5, or null tiles.'"""
    for name in ("ka", "k4", "k5", "kn"):
        p = pos(f"{name}:B5 r3:R4")
        assert f"{name}-cz" not in notations(p)
        illegal(p, f"{name}-cz", None, Rule.CENTER_ENTRANCES)


# -- End of game --------------------------------------------------------------------------------

def test_winning_all_twelve_in_the_center_zone() -> None:
    """'The first player to move all of their pyramids into the Center Zone wins'."""
    p = pos("k2:B3 k5:R4", stash={"blue": [], "red": [1]})
    assert p.in_center(Side.BLUE) == 11 and p.winner() is None
    after = legal(p, "k2-cz")
    assert after.winner() is Side.BLUE
    assert explain(p, after).winner is Side.BLUE
    assert legal_moves(after) == [] and legal_moves(after, "3") == []
    rejected(after, pos("k2:B3 kn:R4"), None, Rule.GAME_OVER)


def test_pass_when_no_legal_move_at_all() -> None:
    """Interpretation: empty stash and every piece blocked: the turn passes."""
    p = pos("r5:B1 bn:R21 b2:R31 b5:R32", stash={"blue": [], "red": []})
    assert legal_moves(p) == [Pass()]
    assert explain(p, p).legal
    assert legal_moves(pos("r5:B1 bn:R21 k5:R2")) != [Pass()]
