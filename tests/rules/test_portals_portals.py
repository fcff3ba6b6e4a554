"""Portals rule book: Portal squares, the Portable Portal, the winner, the faster variant.

Each test names the rule-book sentence it checks; docs/rules/portals.md has the readings.
Default Portal squares here: c4, i4, c8, i8 (the default set-up), Portable Portal as given.
"""

from __future__ import annotations

import pytest

from companion.rules.errors import MoveError, PositionError
from companion.rules.portals import (
    Position,
    Rule,
    Side,
    explain,
    legal_moves,
    parse_move,
    parse_square,
    play,
    portal_shifts,
    square_name,
)
from tests.rules.test_portals_helpers import (
    assert_legal,
    assert_not_legal,
    assert_rejected,
    edit,
    pos,
    targets,
)

# -- "Anytime a piece passes into a Portal square, IT MUST STOP there." -----------------------


def test_guard_must_stop_on_entering_a_portal() -> None:
    p = pos("Kk1 Gc2", "kk11 gk10", pp="k6")
    assert "c4" in targets(p, "c2")
    assert "c5" not in targets(p, "c2") and "c7" not in targets(p, "c2")
    assert_legal(p, "Gc2-c4")
    assert_not_legal(p, "Gc2-c6")
    assert_rejected(p, edit(p, {"c2": "c6"}), Rule.STOP_ON_PORTAL, squares=["c2", "c4", "c6"])


def test_the_portable_portal_is_a_portal_too() -> None:
    """The Portable Portal "opening a portal": pieces stop on it like on any Portal."""
    p = pos("Kk1 Gf2", "kk11 gk10", pp="f6")
    assert "f6" in targets(p, "f2") and "f7" not in targets(p, "f2")
    assert_rejected(p, edit(p, {"f2": "f9"}), Rule.STOP_ON_PORTAL, squares=["f6"])


def test_capture_on_a_portal() -> None:
    """"Pieces can be captured on a Portal space, just like on any other space." """
    p = pos("Kk1 Gc2", "kk11 gc4", pp="k6")
    assert_legal(p, "Gc2xc4")


# -- "On the subsequent turn, that piece can either be left standing on the Portal, moved from
# -- the Portal in a normal way, or move to any other Portal square." ------------------------


def test_piece_on_a_portal_may_stay() -> None:
    p = pos("Kk1 Gc4 Ga2", "kk11 gk10", pp="k6")
    assert_legal(p, "Ga2-a3")  # another piece moves, the Guard on c4 stays


def test_piece_leaves_a_portal_in_a_normal_way() -> None:
    """Leaving is "in a normal way": the Portal it starts on does not stop it."""
    p = pos("Kk1 Gc4", "kk11 gk10", pp="k6")
    assert {"c5", "c6", "c7", "c8", "c3", "c2", "c1", "a4", "b4", "h4", "i4"} <= targets(p, "c4")
    assert "c9" not in targets(p, "c4")  # c8 is a Portal: it stops there
    assert_legal(p, "Gc4-h4")
    assert_legal(p, "Gc4-c1")


def test_piece_on_a_portal_jumps_to_any_other_portal() -> None:
    p = pos("Kk1 Gc4", "kk11 gk10", pp="k6")
    assert_legal(p, "Gc4@i8")
    assert_legal(p, "Gc4@i4")  # also reachable by a slide: explain lists both
    assert_legal(p, "Gc4@k6")  # the Portable Portal's square is a Portal


def test_prince_on_a_portal_jumps_too() -> None:
    """"that piece" - any piece, Princes included."""
    p = pos("Kc4 Gk1", "kk11 gk10", pp="k6")
    assert_legal(p, "Kc4@i8")


def test_jump_capture() -> None:
    """"That includes pieces moving from one Portal to another": a jump may capture."""
    p = pos("Kk1 Gc4", "kk11 gi8 gk10", pp="k6")
    assert_legal(p, "Gc4@xi8")


def test_no_jump_onto_own_piece() -> None:
    p = pos("Kk1 Gc4 Gi8", "kk11 gk10", pp="k6")
    assert_not_legal(p, "Gc4@i8")
    assert_not_legal(p, "Gc4@xi8")


def test_only_a_piece_on_a_portal_may_jump() -> None:
    p = pos("Kk1 Gd5", "kk11 gk10", pp="k6")
    assert_not_legal(p, "Gd5@i8")
    assert_rejected(p, edit(p, {"d5": "i8"}), Rule.JUMP_NEEDS_PORTAL, squares=["d5", "i8"])
    q = pos("Kd5 Gk1", "kk11 gk10", pp="k6")
    assert_rejected(q, edit(q, {"d5": "i8"}), Rule.PRINCE_ONE_SPACE, squares=["d5", "i8"])


# -- "After a player has made a capture, and only after a capture, the player may choose to
# -- move the Portable Portal." ---------------------------------------------------------------


def test_portable_portal_moves_after_a_capture() -> None:
    p = pos("Kk1 Gb2", "kk11 gb7 gk10", pp="f6")
    after = assert_legal(p, "Gb2xb7+Pf6-f9", roll=3)
    assert after.portable == parse_square("f9")
    assert_legal(p, "Gb2xb7")  # the choice: not moving it is legal too
    assert_legal(p, "Gb2xb7+Pf6-d6")  # roll unknown to explain: any 1-4


def test_portable_portal_never_moves_without_a_capture() -> None:
    p = pos("Kk1 Gb2", "kk11 gb7 gk10", pp="f6")
    with pytest.raises(MoveError, match="only after a capture"):
        parse_move("Gb2-b5+Pf6-f9")
    assert_rejected(p, edit(p, {"b2": "b5"}, pp="f9"), Rule.PP_ONLY_AFTER_CAPTURE,
                    squares=["f6", "f9"])
    assert_rejected(p, edit(p, pp="f9"), Rule.PP_ONLY_AFTER_CAPTURE, squares=["f6", "f9"])
    assert_rejected(p, edit(p, {"b2": "b5"}), Rule.PP_ONLY_AFTER_CAPTURE, roll=2)


def test_die_is_rolled_only_after_the_choice_so_a_roll_means_it_must_move() -> None:
    """"once the die has been rolled, the player must move the Portable Portal that full
    number of spaces" """
    p = pos("Kk1 Gb2", "kk11 gb7 gk10", pp="f6")
    assert all(m.shift is not None and m.roll == 2 for m in legal_moves(p, 2))
    assert_rejected(p, edit(p, {"b2": "b7"}), Rule.PP_MUST_MOVE, roll=2, squares=["f6"])


def test_portable_portal_moves_exactly_the_roll() -> None:
    p = pos("Kk1 Gb2", "kk11 gb7 gk10", pp="f6")
    assert_not_legal(p, "Gb2xb7+Pf6-f8", roll=3)
    assert_rejected(p, edit(p, {"b2": "b7"}, pp="f8"), Rule.PP_ROLL, roll=3, squares=["f8"])
    assert_rejected(p, edit(p, {"b2": "b7"}, pp="f11"), Rule.PP_ROLL, squares=["f11"])


def test_portable_portal_moves_rank_and_file_only() -> None:
    """"left, right, forward or backward (no diagonals) ... in a straight line" """
    p = pos("Kk1 Gb2", "kk11 gb7 gk10", pp="f6")
    assert {square_name(s.to) for s in portal_shifts(p, 2)} == {"f8", "f4", "d6", "h6"}
    with pytest.raises(MoveError):
        parse_move("Gb2xb7+Pf6-g7")
    assert_rejected(p, edit(p, {"b2": "b7"}, pp="g7"), Rule.PP_STRAIGHT, squares=["f6", "g7"])


def test_portable_portal_cannot_move_off_the_board() -> None:
    """"If this would move the Portable Portal off the board, the move cannot be made." """
    p = pos("Kk1 Gb2", "kk11 gb7 gk10", pp="b6")
    assert {square_name(s.to) for s in portal_shifts(p, 3)} == {"b9", "b3", "e6"}
    assert_not_legal(p, "Gb2xb7+Pb6-a6", roll=3)


def test_portable_portal_under_a_piece_opens_a_portal_for_it() -> None:
    """"moved into a position under a piece ... thus opening a portal under that piece which
    can be used in a subsequent turn" """
    p = pos("Kk1 Gb2 Gf9", "kk11 gb7 gk10", pp="f6")
    after = assert_legal(p, "Gb2xb7+Pf6-f9", roll=3)
    after = assert_legal(after, "Kk11-j11")
    assert_legal(after, "Gf9@c4")


def test_portable_portal_moved_away_leaves_a_normal_space() -> None:
    """"or moved away from under a piece, leaving the piece in a "normal" space." """
    p = pos("Kk1 Gb2 Gf6", "kk11 gb7 gk10", pp="f6")
    assert_legal(p, "Gf6@c4")
    after = play(p, parse_move("Gb2xb7+Pf6-h6"))
    after = play(after, parse_move("Kk11-j11"))
    assert_not_legal(after, "Gf6@c4")
    assert_legal(after, "Gf6-f10")  # f6 is normal now; nothing stops it


def test_portable_portal_on_a_permanent_portal_flips_it_to_normal() -> None:
    """"If the Portable Portal comes to rest on a permanent portal space ... making that space
    a "normal" space. Once the Portable Portal is moved off that space, it once again become a
    Portal." """
    p = pos("Kk1 Gi2 Ga2", "kk11 ga7 gk10", pp="i6")
    after = play(p, parse_move("Ga2xa7+Pi6-i8"))
    assert parse_square("i8") not in after.active_portals()
    assert parse_square("i6") not in after.active_portals()
    after = play(after, parse_move("Kk11-j11"))
    assert_legal(after, "Gi2-i4")
    assert_not_legal(after, "Gi2-i8")  # i4 still stops it
    q = pos("Kk1 Gi5", "kk11 gk10", pp="i8")
    assert "i11" in targets(q, "i5")  # i8 flipped: the Guard passes over it
    assert "i8" not in {square_name(m.dst) for m in legal_moves(q) if m.jump}
    # moved off again, i8 is a Portal again
    r = pos("Kk1 Gi5 Ga2", "kk11 ga7 gk10", pp="i8")
    r = play(r, parse_move("Ga2xa7+Pi8-i10"))
    assert {"i8", "i10"} <= {square_name(s) for s in r.active_portals()}


def test_portable_portal_slides_under_pieces_and_over_portals() -> None:
    """It "may be moved into a position under a piece": pieces do not block it."""
    q = pos("Kk1 Gd3 Gf7 Gf8", "kk11 gd5 gk10", pp="f6")
    after = assert_legal(q, "Gd3xd5+Pf6-f9", roll=3)  # under f7, f8, lands on the empty f9
    assert after.portable == parse_square("f9")
    r = pos("Kk1 Gd3", "kk11 gd5 gk10", pp="i5")
    assert_legal(r, "Gd3xd5+Pi5-i9", roll=4)  # over the permanent Portal i8


# -- "The winner is the player who has captured the opponent's Prince or all of the opponent's
# -- Guards." ----------------------------------------------------------------------------------


def test_capturing_the_prince_wins() -> None:
    p = pos("Kk1 Gb2", "kb9 gk10", pp="f6")
    after = assert_legal(p, "Gb2xb9")
    assert after.winner() is Side.SOUTH
    assert explain(p, after).winner is Side.SOUTH
    assert legal_moves(after) == []
    with pytest.raises(MoveError, match="over"):
        play(after, parse_move("Kk1-k2"))


def test_capturing_all_guards_wins() -> None:
    p = pos("Kk1 Gb2", "kk11 gb9", pp="f6")
    after = assert_legal(p, "Gb2xb9")
    assert after.winner() is Side.SOUTH


def test_no_portable_portal_move_after_the_winning_capture() -> None:
    p = pos("Kk1 Gb2", "kk11 gb9", pp="f6")
    assert_not_legal(p, "Gb2xb9+Pf6-f8")
    assert_rejected(p, edit(p, {"b2": "b9"}, pp="f8"), Rule.GAME_OVER)


def test_explain_after_the_game_is_over() -> None:
    p = pos("Kk1 Gb2", "kk11", pp="f6")
    assert_rejected(p, edit(p, {"b2": "b3"}), Rule.GAME_OVER)


# -- "The game may be played without the Portable Portal for a faster version." ---------------


def test_variant_without_the_portable_portal() -> None:
    p = pos("Kk1 Gb2", "kk11 gb7 gk10", variant=False)
    assert p.portable is None
    assert all(m.shift is None for m in legal_moves(p))
    assert legal_moves(p, 3) == []
    assert_legal(p, "Gb2xb7")
    assert "f11" not in targets(pos("Kk1 Gf2", "kk11 gk10"), "f2")
    assert "f10" in targets(pos("Kk1 Gf2", "kk11 gk10", variant=False), "f2")
    with pytest.raises(PositionError, match="variant without"):
        Position.from_json({"variant": {"portable_portal": False}, "portable_portal": "f6"})


def test_die_roll_is_an_input_in_range() -> None:
    p = pos("Kk1 Gb2", "kk11 gb7 gk10")
    for bad in (0, 5, "3", True):
        with pytest.raises(MoveError, match="die"):
            legal_moves(p, bad)  # type: ignore[arg-type]
        with pytest.raises(MoveError, match="die"):
            explain(p, p, bad)  # type: ignore[arg-type]
