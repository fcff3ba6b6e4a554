"""Portals rule book, "The Equipment" and "The Movement": clause by clause, legal and illegal.

Each test names the rule-book sentence it checks; docs/rules/portals.md has the readings.
"""

from __future__ import annotations

from companion.rules.portals import (
    CENTER,
    SIZE,
    Kind,
    Position,
    Rule,
    Side,
    explain,
    legal_moves,
    parse_square,
    play,
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

# -- The Equipment ----------------------------------------------------------------------------


def test_equipment_board_portals_pieces_and_portable_portal_on_the_centre() -> None:
    """"an 11x11 grid ... 4 ... Portals ... one Prince and 15 Guards ... one "Portable Portal"
    which begins the game on the center space." """
    p = Position.start()
    assert SIZE == 11 and len(p.pieces) == 121
    assert len(p.portals) == 4
    assert p.portable == CENTER and square_name(CENTER) == "f6"
    for side in Side:
        assert p.prince(side) is not None
        assert len(p.guards(side)) == 15
    assert p.winner() is None
    assert p.to_move is Side.SOUTH


def test_equipment_game_without_the_portable_portal() -> None:
    """"The game may be played without the Portable Portal for a faster version." """
    from companion.rules.portals import NO_PORTABLE_PORTAL
    p = Position.start(NO_PORTABLE_PORTAL)
    assert p.portable is None
    assert len(p.active_portals()) == 4


def test_equipment_portal_squares_are_data() -> None:
    """The set-up picture is missing: the Portal squares come from the position JSON."""
    p = pos(portals=["a5", "k7"])
    assert {square_name(s) for s in p.active_portals()} == {"a5", "k7", "f6"}


# -- Princes ----------------------------------------------------------------------------------


def test_prince_moves_one_space_in_any_direction() -> None:
    """"The Princes move one space in any direction" (all eight neighbours)."""
    p = pos("Kf3 Gk1", "kf11 gk11")
    assert targets(p, "f3") == {"e2", "f2", "g2", "e3", "g3", "e4", "f4", "g4"}
    assert_legal(p, "Kf3-g4")
    assert_legal(p, "Kf3-e2")


def test_prince_cannot_move_two_spaces() -> None:
    """"The Princes move one space" - not two."""
    p = pos("Kf3 Gk1", "kf11 gk11")
    assert_not_legal(p, "Kf3-f5")
    assert_rejected(p, edit(p, {"f3": "f5"}), Rule.PRINCE_ONE_SPACE, squares=["f3", "f5"])


def test_prince_in_a_corner_stays_on_the_board() -> None:
    p = pos("Ka1 Gk1", "kf11 gk11")
    assert targets(p, "a1") == {"a2", "b1", "b2"}


# -- Guards -----------------------------------------------------------------------------------


def test_guard_moves_rank_and_file_any_distance_to_the_edge() -> None:
    """"the Guards move rank-and-file any distance unless they encounter ... the edge." """
    p = pos("Kk1 Gb2", "kk11 gk10", pp="k6", portals=["j9"])
    assert targets(p, "b2") == ({f"b{r}" for r in (1, *range(3, 12))}
                                | {f"{f}2" for f in "acdefghijk"})
    assert_legal(p, "Gb2-b11")
    assert_legal(p, "Gb2-k2")


def test_guard_cannot_move_diagonally() -> None:
    """"rank-and-file" - a diagonal or knight-like move is illegal."""
    p = pos("Kk1 Gb2", "kk11 gk10", pp="k6")
    assert_not_legal(p, "Gb2-e5")
    assert_rejected(p, edit(p, {"b2": "e5"}), Rule.GUARD_RANK_AND_FILE, squares=["b2", "e5"])


def test_guard_stops_at_a_piece_and_cannot_pass_over_it() -> None:
    """"Pieces cannot pass over other pieces." """
    p = pos("Kk1 Gb2 Gb5", "kk11 gb9", pp="k6", portals=["j9"])
    assert "b4" in targets(p, "b2") and "b5" not in targets(p, "b2")
    assert "b6" not in targets(p, "b2")
    assert_rejected(p, edit(p, {"b2": "b7"}), Rule.NO_PASSING_OVER, squares=["b2", "b5", "b7"])
    # over an opposing piece too
    assert_rejected(p, edit(p, {"b5": "b11"}), Rule.NO_PASSING_OVER, squares=["b9"])


# -- Capture ----------------------------------------------------------------------------------


def test_capture_by_displacement() -> None:
    """"If a piece lands on the same space as an opposing piece, the opposing piece is
    captured, removed from the board, and the moving piece takes its place." """
    p = pos("Kk1 Gb2", "kk11 gb7 ga1", pp="k6")
    after = assert_legal(p, "Gb2xb7")
    assert after.pieces[parse_square("b7")] == (Side.SOUTH, Kind.GUARD)
    assert len(after.guards(Side.NORTH)) == 1
    assert_legal(pos("Kb1 Gk1", "kk11 ga1 gc5", pp="k6"), "Kb1xa1")


def test_no_capture_of_own_pieces() -> None:
    """"an opposing piece" is captured; a piece never lands on its own side's piece."""
    p = pos("Kb1 Gb2 Gb7", "kk11 gk10", pp="k6")
    assert_not_legal(p, "Gb2xb7")
    assert_not_legal(p, "Kb1xb2")


def test_capture_removes_only_the_piece_landed_on() -> None:
    """Capture is by displacement "as in Chess": a piece removed elsewhere is illegal."""
    p = pos("Kk1 Gb2", "kk11 gb7 gd4", pp="k6", portals=["j9"])
    assert_rejected(p, edit(p, {"b2": "b7"}, remove=["d4"]), Rule.CAPTURE_BY_DISPLACEMENT,
                    squares=["d4"])
    assert_rejected(p, edit(p, remove=["d4"]), Rule.CAPTURE_BY_DISPLACEMENT, squares=["d4"])


# -- Turns ------------------------------------------------------------------------------------


def test_one_piece_moves_per_turn() -> None:
    """One move per turn (the rule book's turns are single moves, as in Chess)."""
    p = pos("Kk1 Gb2 Gc2", "kk11 gk10", pp="k6")
    assert_rejected(p, edit(p, {"b2": "b5", "c2": "c5"}), Rule.ONE_PIECE, squares=["b2", "c2"])


def test_only_the_side_to_move_moves() -> None:
    p = pos("Kk1 Gb2", "kk11 gc9", pp="k6")
    assert_rejected(p, edit(p, {"c9": "c5"}), Rule.ONLY_MOVER_MOVES, squares=["c9", "c5"])


def test_a_turn_is_not_a_pass() -> None:
    p = pos("Kk1 Gb2", "kk11 gc9", pp="k6")
    assert_rejected(p, edit(p), Rule.NO_MOVE)


def test_pieces_do_not_appear() -> None:
    p = pos("Kk1 Gb2", "kk11 gc9", pp="k6")
    q = p.replace(pieces=tuple((Side.SOUTH, Kind.GUARD) if i == parse_square("e5") else x
                               for i, x in enumerate(edit(p, {"b2": "b3"}).pieces)))
    assert_rejected(p, q, Rule.PIECE_COUNT, squares=["e5"])


def test_play_refuses_an_illegal_move() -> None:
    import pytest

    from companion.rules.errors import MoveError
    from companion.rules.portals import parse_move
    p = pos("Kk1 Gb2", "kk11 gk10", pp="k6")
    with pytest.raises(MoveError, match="Gb2-c3"):
        play(p, parse_move("Gb2-c3"))


def test_start_position_has_moves_and_explains_each() -> None:
    p = Position.start()
    moves = legal_moves(p)
    assert len({m.src for m in moves}) == 12  # all but the four Guards behind b2 d2 h2 j2
    for m in moves[:40]:
        ex = explain(p, play(p, m))
        assert ex.legal and m in ex.moves + ex.alternatives
