"""Telic, "Beginning The Game" and "Moving Pyramids Onto The Board", clause by clause."""

from __future__ import annotations

from companion.rules.telic import Position, Rule, Side, apply, explain, legal_moves, parse_move
from tests.rules.test_telic_support import illegal, legal, notations, pos, rejected

# -- Beginning The Game -----------------------------------------------------------------------

def test_beginning_blue_goes_first_and_must_roll() -> None:
    """Blue goes first; to start, blue rolls her die and moves one pyramid onto the space."""
    p = Position.start()
    assert legal_moves(p) == []  # no roll: nothing legal on the first turn
    assert notations(p, "3") == {f"+{s}b3" for s in range(1, 7)}
    after = legal(p, "+6b3", "3")
    assert after.to_move is Side.RED and after.first_turn  # red's first turn comes next


def test_beginning_red_first_turn_in_the_same_way_then_the_choice() -> None:
    """Red then takes his first turn the same way; after the first two turns, the choice."""
    p = legal(Position.start(), "+6b3", "3")
    assert legal_moves(p) == []
    p = legal(p, "+2ra", "a")
    assert p.to_move is Side.BLUE and not p.first_turn
    assert "b3-k4" in notations(p)  # may forgo rolling and move
    assert "+5bn" in notations(p, "n")  # or roll


def test_beginning_first_turn_without_roll_is_explained_as_illegal() -> None:
    """Beginning: a first turn that does not roll is refused, naming the clause."""
    p = legal(Position.start(), "+6b3", "3")
    observed = apply(p, parse_move("+4ra"))
    rejected(p, observed, None, Rule.FIRST_TURN_ROLLS)


# -- 1. vacant ----------------------------------------------------------------------------------

def test_enter_1_vacant_any_size_from_the_stash() -> None:
    """1. Vacant: a pyramid must be moved onto it; the player chooses the size."""
    p = pos("k5:R4", stash={"blue": [1, 3, 3], "red": [1]})
    assert notations(p, "2") == {"+1b2", "+3b2"}
    legal(p, "+3b2", "2")


def test_enter_1_vacant_may_not_forfeit() -> None:
    """1. Vacant: 'a pyramid must be moved onto that space' - no forfeit, no standing still."""
    p = pos("k5:R4")
    assert "~b2" not in notations(p, "2")
    ex = rejected(p, p, "2", Rule.VACANT_MUST_ENTER)
    assert "b2" in ex.reason.message  # type: ignore[union-attr]


def test_enter_1_vacant_size_must_be_in_the_stash() -> None:
    """1. Vacant: the pyramid comes from his remaining stock (the stash)."""
    p = pos("k5:R4", stash={"blue": [1, 3], "red": [1]})
    assert "+5b2" not in notations(p, "2")
    rejected(p, pos("k5:R4 b2:B5"), "2", Rule.NOT_IN_STASH)


def test_enter_a_roll_moves_exactly_one_pyramid_onto_the_named_space() -> None:
    """Moving onto the board: the die indicates which space; one pyramid moves."""
    p = pos("k5:R4")
    illegal(p, "+5b3", "2", Rule.ROLL_THEN_ENTER)  # b3 is not the space rolled
    rejected(p, pos("k5:R4 b2:B53"), "2", Rule.ONE_PYRAMID_ENTERS)
    rejected(p, pos("k5:R4 b2:R3"), "2", Rule.ROLL_THEN_ENTER)  # not blue's pyramid


def test_enter_after_rolling_no_board_move() -> None:
    """Either roll and try to enter, or forgo rolling and move: not both."""
    p = pos("b2:B5 k5:R4")
    illegal(p, "b2-ka", "3", Rule.ROLL_THEN_ENTER)


# -- 2. friendly --------------------------------------------------------------------------------

def test_enter_2_friendly_stack_smaller_or_forfeit() -> None:
    """2. Friendly piece: stack a smaller pyramid on top, or the turn is forfeit."""
    p = pos("b2:B53 k5:R4")
    assert notations(p, "2") == {"+1b2", "+2b2", "~b2"}
    after = legal(p, "+2b2", "2")
    assert after.board[parse_move("+2b2").to].sizes == (5, 3, 2)  # type: ignore[union-attr]
    legal(p, "~b2", "2")


def test_enter_2_friendly_bigger_or_equal_is_illegal() -> None:
    """2. 'the new pyramid must be smaller than the one it is being stacked onto'."""
    p = pos("b2:B53 k5:R4")
    illegal(p, "+3b2", "2", Rule.STACK_SMALLER)  # equal size
    rejected(p, pos("b2:B5 k5:R4"), "2", Rule.NEVER_UNSTACKED)
    illegal(p, "+4b2", "2", Rule.STACK_SMALLER)


def test_enter_2_friendly_no_smaller_pyramid_forfeit_only() -> None:
    """2. No pyramid that satisfies the requirement: the turn is forfeit."""
    p = pos("b2:B1 k5:R4")
    assert notations(p, "2") == {"~b2"}


def test_enter_2_stacks_up_to_six_high() -> None:
    """2. Stacks may be built up to six high (sizes 6..1)."""
    p = pos("b2:B65432 k5:R4")
    after = legal(p, "+1b2", "2")
    assert after.board[parse_move("+1b2").to].height == 6  # type: ignore[union-attr]


# -- 3. opposing Single --------------------------------------------------------------------------

def test_enter_3_bump_a_smaller_single_with_a_bigger_pyramid() -> None:
    """3. Opposing Single: a bigger pyramid from the stash bumps it back to its owner."""
    p = pos("b2:R3 k5:R4")
    assert notations(p, "2") == {"+4xb2", "+5xb2", "+6xb2", "~b2"}
    after = legal(p, "+4xb2", "2")
    assert after.stash(Side.RED)[2] == 2  # the bumped size 3 is back in red's stash


def test_enter_3_equal_or_smaller_cannot_bump() -> None:
    """3. 'If the player ... has a bigger pyramid' - equal size does not bump on entry."""
    p = pos("b2:R3 k5:R4")
    illegal(p, "+3xb2", "2", Rule.ENTER_BUMP_BIGGER)
    illegal(p, "+1xb2", "2", Rule.ENTER_BUMP_BIGGER)


def test_enter_3_no_bigger_pyramid_forfeit() -> None:
    """3. No bigger pyramid, or he chooses not to: the turn is forfeit."""
    p = pos("b2:R6 k5:R4")
    assert notations(p, "2") == {"~b2"}
    legal(pos("b2:R3 k5:R4"), "~b2", "2")


# -- 4. opposing Stack ---------------------------------------------------------------------------

def test_enter_4_opposing_stack_forfeit() -> None:
    """4. A Stack of the other player's: the turn is forfeit, whatever the sizes."""
    p = pos("b2:R21 k5:R4")
    assert notations(p, "2") == {"~b2"}
    legal(p, "~b2", "2")
    illegal(p, "+6xb2", "2", Rule.ENTER_ONTO_STACK)


def test_enter_empty_stash_cannot_roll() -> None:
    """'When a player no longer has any pyramids remaining in his stash, his turn must
    consist of moving a pyramid or Stack already on the board.'"""
    p = pos("b2:B654321 k4:B654321 k5:R4")
    assert p.stash_count(Side.BLUE) == 0
    assert legal_moves(p, "3") == []
    assert "b2-k2" in notations(p)
    rejected(p, p, "3", Rule.EMPTY_STASH_MOVES)


def test_enter_forfeit_explained_when_nothing_changes() -> None:
    """A forfeit leaves the board unchanged and is explained as the forfeit."""
    p = pos("b2:R21 k5:R4")
    ex = explain(p, p, "2")
    assert ex.legal and [m.notation() for m in ex.moves] == ["~b2"]
