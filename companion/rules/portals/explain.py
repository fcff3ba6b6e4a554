"""``explain(turn_start, observed, roll=None)``: which legal turn leads to what the camera sees,
or, when none does, the rule-book clause the change breaks and the squares involved.

``roll`` is the d4 roll when the player rolled the die (only after a capture, to move the
Portable Portal); None means the die was not rolled *or* its value is unknown, in which case
any Portable Portal move of 1 to 4 spaces after a capture is accepted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.common import (
    Clause,
    OneMoveJudgement,
    in_order_once,
    violation_json,
)
from companion.rules.portals.board import (
    MAX_ROLL,
    Kind,
    Side,
    Square,
    between,
    king_distance,
    same_line,
    square_file,
    square_name,
    square_rank,
)
from companion.rules.portals.movegen import apply_unchecked, check_roll, legal_moves
from companion.rules.portals.moves import Move
from companion.rules.portals.position import Position


class Rule(Clause):
    """The rule-book clause a change breaks, as ``(id, clause heading)``."""

    GAME_OVER = ("game-over", "The winner")
    SETUP_FIXED = ("portals-are-fixed", "The Equipment")
    PIECE_COUNT = ("pieces-only-leave-by-capture", "The Movement")
    NO_MOVE = ("one-move-per-turn", "The Movement")
    ONLY_MOVER_MOVES = ("only-the-side-to-move-moves", "The Movement")
    ONE_PIECE = ("one-piece-per-turn", "The Movement")
    CAPTURE_BY_DISPLACEMENT = ("capture-by-displacement", "The Movement")
    PRINCE_ONE_SPACE = ("prince-moves-one-space", "The Movement")
    GUARD_RANK_AND_FILE = ("guard-moves-rank-and-file", "The Movement")
    NO_PASSING_OVER = ("no-passing-over-pieces", "The Movement")
    STOP_ON_PORTAL = ("stop-on-entering-a-portal", "The Movement (Portals)")
    JUMP_NEEDS_PORTAL = ("jump-only-portal-to-portal", "The Movement (Portals)")
    PP_ONLY_AFTER_CAPTURE = ("portable-portal-only-after-capture", "The Portable Portal")
    PP_STRAIGHT = ("portable-portal-rank-and-file", "The Portable Portal")
    PP_ROLL = ("portable-portal-full-roll", "The Portable Portal")
    PP_MUST_MOVE = ("portable-portal-must-move-after-roll", "The Portable Portal")
    UNEXPLAINED = ("no-legal-move", "The Movement")


@dataclass(frozen=True, slots=True)
class Violation:
    """A change no legal move explains: the rule it breaks, where, in plain words."""

    rule: Rule
    squares: tuple[Square, ...]
    message: str

    def to_json(self) -> dict[str, Any]:
        return violation_json(self, "squares", self.squares, square_name)


@dataclass(frozen=True, slots=True)
class Explanation(OneMoveJudgement):
    legal: bool
    moves: tuple[Move, ...] = ()  # the turn (one move) when legal
    alternatives: tuple[Move, ...] = ()  # other moves with the same result
    violations: tuple[Violation, ...] = ()
    winner: Side | None = None




    @property
    def squares(self) -> tuple[Square, ...]:
        return in_order_once([v.squares for v in self.violations] if not self.legal
                             else [m.squares() for m in self.moves])

    def to_json(self) -> dict[str, Any]:
        return self.one_move_json("squares", self.squares, square_name)


def _illegal(rule: Rule, squares: tuple[Square, ...], message: str) -> Explanation:
    return Explanation(False, violations=(Violation(rule, squares, message),))


def _side_on(pos: Position, sq: Square) -> Side | None:
    piece = pos.pieces[sq]
    return None if piece is None else piece[0]


def explain(turn_start: Position, observed: Position, roll: int | None = None) -> Explanation:
    """The legal turn (one move) of ``turn_start.to_move`` that turns ``turn_start`` into the
    board seen in ``observed`` (its ``to_move`` is ignored), or why there is none."""
    check_roll(roll)
    start = turn_start
    winner = start.winner()
    if winner is not None:
        return _illegal(Rule.GAME_OVER, (), f"the game is over: {winner.value} "
                        "has already won, so no more moves are made")
    if observed.portals != start.portals:
        moved = tuple(sorted(set(observed.portals) ^ set(start.portals)))
        return _illegal(Rule.SETUP_FIXED, moved,
                        "the four permanent Portal squares never move; changed: "
                        + ", ".join(map(square_name, moved)))
    if (observed.portable is None) != (start.portable is None):
        where = tuple(s for s in (start.portable, observed.portable) if s is not None)
        return _illegal(Rule.SETUP_FIXED, where,
                        "the Portable Portal " + ("disappeared from " if observed.portable is None
                                                  else "appeared on ") + _names(where)
                        + ": it stays in the game (or out of it, in the faster variant)")
    changed = {sq for sq in range(len(start.pieces)) if start.pieces[sq] != observed.pieces[sq]}
    matches = []
    if changed:
        for move in legal_moves(start, roll):
            if move.src in changed and move.dst in changed:
                after = apply_unchecked(start, move)
                if after.same_board(observed):
                    matches.append(move)
    if matches:
        matches.sort(key=lambda m: (m.jump, m.notation()))
        after = apply_unchecked(start, matches[0])
        return Explanation(True, (matches[0],), tuple(matches[1:]), winner=after.winner())
    return _diagnose(start, observed, roll, changed)


def _names(squares: tuple[Square, ...] | list[Square] | set[Square]) -> str:
    return ", ".join(square_name(s) for s in sorted(squares))


def _diagnose(start: Position, observed: Position, roll: int | None,
              changed: set[Square]) -> Explanation:
    me = start.to_move
    opp = me.opponent
    for side in Side:
        for kind in Kind:
            before = sum(1 for p in start.pieces if p == (side, kind))
            now = sum(1 for p in observed.pieces if p == (side, kind))
            if now > before:
                extra = tuple(sq for sq in sorted(changed) if observed.pieces[sq] == (side, kind))
                return _illegal(Rule.PIECE_COUNT, extra,
                                f"{now - before} {side.value} {kind.value}(s) appeared on "
                                f"{_names(extra)}: pieces never come back once captured")
    gone = sorted(sq for sq in changed if _side_on(start, sq) is me)
    arrived = sorted(sq for sq in changed if _side_on(observed, sq) is me)
    opp_gone = sorted(sq for sq in changed if _side_on(start, sq) is opp)
    opp_arrived = sorted(sq for sq in changed if _side_on(observed, sq) is opp)
    pp_from, pp_to = start.portable, observed.portable
    if opp_arrived:
        return _illegal(Rule.ONLY_MOVER_MOVES, tuple(opp_arrived + opp_gone),
                        f"it is {me.value}'s turn, but a {opp.value} piece moved "
                        f"({_names(opp_gone)} -> {_names(opp_arrived)})")
    if not gone and not arrived:
        if opp_gone:
            return _illegal(Rule.CAPTURE_BY_DISPLACEMENT, tuple(opp_gone),
                            f"{opp.value} piece(s) on {_names(opp_gone)} were removed, but a "
                            "piece is captured only by a piece moving onto its square")
        if pp_from != pp_to:
            squares = tuple(s for s in (pp_from, pp_to) if s is not None)
            return _illegal(Rule.PP_ONLY_AFTER_CAPTURE, squares,
                            "the Portable Portal moved "
                            f"{_names(squares)} but no piece was moved and nothing captured: "
                            "it may move only after a capture")
        return _illegal(Rule.NO_MOVE, (), f"nothing moved: {me.value} must move one piece")
    if len(gone) > len(arrived):
        lost = tuple(gone)
        return _illegal(Rule.PIECE_COUNT, lost,
                        f"{me.value} piece(s) left the board from {_names(lost)}: a piece "
                        "leaves the board only when the opponent captures it")
    if len(gone) > 1:
        return _illegal(Rule.ONE_PIECE, tuple(gone + arrived),
                        f"{len(gone)} {me.value} pieces moved ({_names(gone)} -> "
                        f"{_names(arrived)}): a turn is one move of one piece")
    a, b = gone[0], arrived[0]
    piece = start.pieces[a]
    assert piece is not None
    kind = piece[1]
    there = observed.pieces[b]
    if there != piece:
        became = "nothing" if there is None else f"a {there[1].value}"
        return _illegal(Rule.PIECE_COUNT, (a, b), f"the {kind.value} from {square_name(a)} "
                        f"became {became} on {square_name(b)}")
    stray = [s for s in opp_gone if s != b]
    if stray:
        return _illegal(Rule.CAPTURE_BY_DISPLACEMENT, (a, b, *stray),
                        f"the {opp.value} piece(s) on {_names(stray)} were removed, but the "
                        f"{kind.value} moved {square_name(a)} -> {square_name(b)}: capture is "
                        "by displacement, only the piece on the landing square is captured")
    active = start.active_portals()
    both_portals = a in active and b in active
    what = f"{me.value} {kind.value} {square_name(a)} -> {square_name(b)}"
    if not both_portals:
        if kind is Kind.PRINCE and king_distance(a, b) > 1:
            why = ("" if a in active else f" (only a piece standing on a Portal may jump, "
                     f"and {square_name(a)} is not a Portal)") if b in active else ""
            return _illegal(Rule.PRINCE_ONE_SPACE, (a, b),
                            f"{what}: the Prince moves one space in any direction{why}")
        if kind is Kind.GUARD:
            if not same_line(a, b):
                if b in active:
                    return _illegal(Rule.JUMP_NEEDS_PORTAL, (a, b),
                                    f"{what}: {square_name(b)} is a Portal, but only a piece "
                                    f"standing on a Portal may jump, and {square_name(a)} is "
                                    "not one")
                return _illegal(Rule.GUARD_RANK_AND_FILE, (a, b),
                                f"{what}: Guards move rank-and-file (along one rank or file)")
            for sq in between(a, b):
                if start.pieces[sq] is not None:
                    return _illegal(Rule.NO_PASSING_OVER, (a, sq, b),
                                    f"{what}: it would pass over the piece on "
                                    f"{square_name(sq)}; pieces cannot pass over pieces")
                if sq in active:
                    return _illegal(Rule.STOP_ON_PORTAL, (a, sq, b),
                                    f"{what}: it passes into the Portal on {square_name(sq)} "
                                    "and must stop there")
    captured = b in opp_gone
    if pp_from != pp_to:
        assert pp_from is not None and pp_to is not None
        squares = (a, b, pp_from, pp_to)
        if not captured:
            return _illegal(Rule.PP_ONLY_AFTER_CAPTURE, squares,
                            f"the Portable Portal moved {square_name(pp_from)} -> "
                            f"{square_name(pp_to)}, but {what} captured nothing: it may move "
                            "only after a capture")
        after = start.replace(pieces=observed.pieces)
        if after.winner() is not None:
            return _illegal(Rule.GAME_OVER, squares,
                            f"{what} won the game, so the Portable Portal does not move "
                            f"({square_name(pp_from)} -> {square_name(pp_to)})")
        pp_what = f"the Portable Portal {square_name(pp_from)} -> {square_name(pp_to)}"
        if not same_line(pp_from, pp_to):
            return _illegal(Rule.PP_STRAIGHT, (pp_from, pp_to),
                            f"{pp_what}: it moves left, right, forward or backward in a "
                            "straight line, no diagonals")
        dist = abs(square_file(pp_to) - square_file(pp_from)) + abs(
            square_rank(pp_to) - square_rank(pp_from))
        if dist > MAX_ROLL:
            return _illegal(Rule.PP_ROLL, (pp_from, pp_to),
                            f"{pp_what}: {dist} spaces, but the four-sided die shows at most "
                            f"{MAX_ROLL}")
        if roll is not None and dist != roll:
            return _illegal(Rule.PP_ROLL, (pp_from, pp_to),
                            f"{pp_what}: {dist} spaces, but the die showed {roll}; it moves "
                            "exactly the full roll")
    elif roll is not None:
        if not captured:
            return _illegal(Rule.PP_ONLY_AFTER_CAPTURE, (a, b),
                            f"the die was rolled ({roll}) but {what} captured nothing: the "
                            "die is rolled only to move the Portable Portal after a capture")
        if start.portable is not None:
            return _illegal(Rule.PP_MUST_MOVE, (a, b, start.portable),
                            f"the die was rolled ({roll}) after {what}, so the Portable Portal"
                            f" on {square_name(start.portable)} must move {roll} spaces")
    return _illegal(Rule.UNEXPLAINED, (a, b), f"{what} is not a legal move here")
