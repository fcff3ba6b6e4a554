"""``explain(turn_start, observed, roll)``: which legal move of one turn gives what is seen.

A Telic turn is one move, so every legal move for the roll (or for no roll) is tried and
the boards compared (the eighteen spaces: stashes and the Center Zone follow from the move).
When none matches, the change is diagnosed clause by clause into a plain-words reason that
names the rule and the spaces involved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.common import (
    Clause,
    Judgement,
    describe_illegal,
    in_order_once,
    violation_json,
)
from companion.rules.telic.board import (
    ENTRANCES,
    Face,
    Side,
    Space,
    adjacent,
    die_space,
    space_name,
    space_words,
)
from companion.rules.telic.movegen import Roll, apply, can_bump, legal_moves, parse_roll
from companion.rules.telic.moves import Move
from companion.rules.telic.position import Piece, Position


class Rule(Clause):
    """The rule-book clause a change breaks, as ``(id, clause heading)``."""

    GAME_OVER = ("game-over", "End Of Game And Winning")
    FIRST_TURN_ROLLS = ("first-turn-rolls", "Beginning The Game")
    EMPTY_STASH_MOVES = ("empty-stash-must-move", "Moving Pyramids Onto The Board")
    ROLL_THEN_ENTER = ("roll-enters-named-space", "Moving Pyramids Onto The Board")
    VACANT_MUST_ENTER = ("vacant-must-enter", "Moving Pyramids Onto The Board (1)")
    ONE_PYRAMID_ENTERS = ("one-pyramid-enters", "Moving Pyramids Onto The Board")
    NOT_IN_STASH = ("from-the-stash", "Moving Pyramids Onto The Board")
    STACK_SMALLER = ("stack-smaller-on-larger", "The rules of stacking")
    NEVER_UNSTACKED = ("never-unstacked", "The rules of stacking")
    ENTER_BUMP_BIGGER = ("enter-bump-needs-bigger", "Moving Pyramids Onto The Board (3)")
    ENTER_ONTO_STACK = ("enter-onto-stack-forfeit", "Moving Pyramids Onto The Board (4)")
    MUST_MOVE = ("move-a-piece", "Movement Of Pyramids And Stacks Already On The Board")
    ONE_PIECE = ("one-piece-per-turn", "Movement Of Pyramids And Stacks Already On The Board")
    OWN_PIECES = ("move-own-pieces", "Movement Of Pyramids And Stacks Already On The Board")
    ONE_STEP = ("one-orthogonal-step", "Movement Of Pyramids And Stacks Already On The Board")
    BUMP_POWER = ("bump-equal-or-lesser-power", "Bumping")
    CENTER_ENTRANCES = ("center-zone-entrances", "Movement ... (the Center Zone)")
    PIECE_CHANGED = ("pieces-move-whole", "Movement Of Pyramids And Stacks Already On The Board")


@dataclass(frozen=True, slots=True)
class Violation:
    rule: Rule
    spaces: tuple[Space, ...]
    message: str

    def to_json(self) -> dict[str, Any]:
        return violation_json(self, "spaces", self.spaces, space_name)


@dataclass(frozen=True, slots=True)
class Explanation(Judgement):
    legal: bool
    moves: tuple[Move, ...] = ()  # the legal moves that give the observed board (1 unless tied)
    roll: Face | None = None
    violations: tuple[Violation, ...] = ()
    winner: Side | None = None


    @property
    def ambiguous(self) -> bool:
        return len(self.moves) > 1


    @property
    def spaces(self) -> tuple[Space, ...]:
        return in_order_once((v.spaces for v in self.violations) if not self.legal else (
            m.spaces() for m in self.moves))

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"legal": self.legal,
                               "roll": self.roll.value if self.roll else None}
        if self.legal:
            doc["moves"] = [m.notation() for m in self.moves]
            doc["winner"] = self.winner.value if self.winner else None
        else:
            doc["reason"] = self.violations[0].to_json()
            doc["violations"] = [v.to_json() for v in self.violations]
        doc["spaces"] = [space_name(s) for s in self.spaces]
        return doc

    def describe(self) -> str:
        if not self.legal:
            return describe_illegal(self.violations)
        out = f"legal: {' or '.join(m.notation() for m in self.moves)}"
        if self.winner:
            out += f"\n  {self.winner.value} wins: all twelve pyramids in the Center Zone"
        return out


def explain(turn_start: Position, observed: Position, roll: Roll = None) -> Explanation:
    """Is ``observed`` one legal turn of ``turn_start.to_move`` after rolling ``roll``?

    ``roll`` is the face the player rolled, or None if the player did not roll.
    """
    face = parse_roll(roll)
    found = tuple(m for m in legal_moves(turn_start, face)
                  if apply(turn_start, m).same_board(observed))
    if found:
        after = apply(turn_start, found[0])
        return Explanation(True, found, face, winner=after.winner())
    return Explanation(False, roll=face, violations=(_diagnose(turn_start, observed, face),))


# ----------------------------------------------------------------------------------------------
# Diagnosis


def _names(spaces: list[Space] | tuple[Space, ...]) -> str:
    return ", ".join(space_words(s) for s in spaces)


def _diagnose(pos: Position, obs: Position, face: Face | None) -> Violation:
    side = pos.to_move
    changed = [sp for sp in range(len(pos.board)) if pos.board[sp] != obs.board[sp]]
    if (won := pos.winner()) is not None:
        return Violation(Rule.GAME_OVER, tuple(changed), f"the game is over: {won.value} has won")
    if face is not None:
        return _diagnose_roll(pos, obs, face, changed)
    if pos.first_turn:
        return Violation(Rule.FIRST_TURN_ROLLS, tuple(changed),
                         f"{side.value}'s first turn: {side.value} must roll the die and move "
                         "a pyramid onto the space it names")
    return _diagnose_step(pos, obs, changed)


def _diagnose_roll(pos: Position, obs: Position, face: Face, changed: list[Space]
                   ) -> Violation:
    side = pos.to_move
    sp = die_space(side, face)
    here, seen = pos.board[sp], obs.board[sp]
    if pos.stash_count(side) == 0:
        return Violation(Rule.EMPTY_STASH_MOVES, tuple(changed),
                         f"{side.value} has no pyramids left in the stash, so may not roll: "
                         "the turn must move a piece already on the board")
    others = [c for c in changed if c != sp]
    if others:
        return Violation(Rule.ROLL_THEN_ENTER, (sp, *others),
                         f"after rolling {face.value}, {side.value} may only move a pyramid "
                         f"onto {space_words(sp)}; {_names(others)} changed too")
    if not changed:  # nothing happened: only a vacant space forbids forfeiting
        return Violation(Rule.VACANT_MUST_ENTER, (sp,),
                         f"{space_words(sp)} is vacant, so {side.value} must move a pyramid "
                         "from the stash onto it")
    if seen is None or seen.side is not side:
        return Violation(Rule.ROLL_THEN_ENTER, (sp,),
                         f"after rolling {face.value}, a {side.value} pyramid must enter "
                         f"{space_words(sp)} (or the turn is forfeit); instead it shows "
                         f"{'nothing' if seen is None else seen.describe()}")
    if here is not None and here.side is not side and here.is_stack:
        return Violation(Rule.ENTER_ONTO_STACK, (sp,),
                         f"{space_words(sp)} holds a {here.describe()}: a Stack cannot be "
                         f"bumped by an entering pyramid, so {side.value}'s turn is forfeit")
    base = here.sizes if here is not None and here.side is side else ()
    if seen.sizes[:len(base)] != base:
        return Violation(Rule.NEVER_UNSTACKED, (sp,),
                         f"the {side.value} piece on {space_words(sp)} was "
                         f"{'/'.join(map(str, base))} and is now "
                         f"{'/'.join(map(str, seen.sizes))}: once stacked a pyramid is never "
                         "unstacked, and one pyramid enters on top")
    added = seen.sizes[len(base):]
    if len(added) != 1:
        return Violation(Rule.ONE_PYRAMID_ENTERS, (sp,),
                         f"{len(added)} pyramids entered {space_words(sp)}: a roll moves "
                         "exactly one pyramid onto the board")
    size = added[0]
    if pos.stash(side)[size - 1] == 0:
        return Violation(Rule.NOT_IN_STASH, (sp,),
                         f"{side.value} has no size-{size} pyramid in the stash to move onto "
                         f"{space_words(sp)}")
    if here is not None and here.side is not side:
        return Violation(Rule.ENTER_BUMP_BIGGER, (sp,),
                         f"a size-{size} pyramid cannot bump the {here.describe()} on "
                         f"{space_words(sp)}: the entering pyramid must be bigger")
    return Violation(Rule.STACK_SMALLER, (sp,),
                     f"a size-{size} pyramid cannot be stacked on the {here.describe()} on "  # type: ignore[union-attr]
                     f"{space_words(sp)}: it must be smaller than the one below "
                     f"(size {here.top})")  # type: ignore[union-attr]


def _moved_from(pos: Position, obs: Position, changed: list[Space]) -> dict[Space, Piece]:
    """The pieces that stood on changed spaces and no longer stand there whole, by space
    (in ``changed``'s order)."""
    out = {}
    for c in changed:
        was, now = pos.board[c], obs.board[c]
        if was is not None and (now is None or now.side is not was.side
                                or now.sizes[:was.height] != was.sizes):
            out[c] = was
    return out


def _side_at(pos: Position, c: Space) -> Side | None:
    piece = pos.board[c]
    return None if piece is None else piece.side


def _diagnose_step(pos: Position, obs: Position, changed: list[Space]) -> Violation:
    side = pos.to_move
    if not changed:
        return Violation(Rule.MUST_MOVE, (),
                         f"{side.value} did not roll, so must move one of its pieces on the "
                         "board; nothing moved")
    gone = _moved_from(pos, obs, changed)
    opp = [c for c, was in gone.items()
           if was.side is not side and _side_at(obs, c) in (None, was.side)]
    if opp:
        return Violation(Rule.OWN_PIECES, tuple(opp),
                         f"{side.value} may only move its own pieces; the "
                         f"{gone[opp[0]].describe()} on {space_words(opp[0])} moved")
    mine = [c for c, was in gone.items() if was.side is side]
    emptied = [c for c in mine if obs.board[c] is None]
    if len(emptied) == 1 and len(changed) <= 2:
        mine = emptied  # the other changed space is where it went
    if len(changed) > 2 or len(mine) > 1:
        return Violation(Rule.ONE_PIECE, tuple(changed),
                         f"one piece moves one space per turn; {len(changed)} spaces changed: "
                         f"{_names(changed)}")
    if not mine:
        return Violation(Rule.PIECE_CHANGED, tuple(changed),
                         f"no {side.value} piece left its space, yet {_names(changed)} "
                         "changed: pieces move whole, one space, onto vacant, friendly or "
                         "bumped spaces")
    frm = mine[0]
    piece = gone[frm]
    left = obs.board[frm]
    if left is not None:
        return Violation(Rule.NEVER_UNSTACKED, (frm,),
                         f"the {piece.describe()} on {space_words(frm)} left part of itself "
                         f"behind ({left.describe()}): once stacked, pyramids are never "
                         "unstacked; the whole piece moves")
    if len(changed) == 1:
        if frm in ENTRANCES:  # pragma: no cover - that is the legal Center Zone move
            return Violation(Rule.PIECE_CHANGED, (frm,), "unexpected")
        return Violation(Rule.CENTER_ENTRANCES, (frm,),
                         f"the {piece.describe()} left the board from {space_words(frm)}: "
                         "the Center Zone may be entered only from the black 2 tile (k2) or "
                         "the black 3 tile (k3), where the coins are")
    to = changed[0] if changed[1] == frm else changed[1]
    there, seen = pos.board[to], obs.board[to]
    if not adjacent(frm, to):
        return Violation(Rule.ONE_STEP, (frm, to),
                         f"{space_words(frm)} and {space_words(to)} are not adjacent: a piece "
                         "moves one space orthogonally (opposite corners r5-b5 and r4-b4 "
                         "count as adjacent; no diagonal moves)")
    expect = piece.sizes if there is None or there.side is not side else (
        *there.sizes, *piece.sizes)
    if seen is None or seen.side is not side or seen.sizes != expect:
        if there is not None and there.side is side and seen is not None \
                and sorted(seen.sizes) == sorted(expect):
            pass  # falls to the stacking check below
        else:
            return Violation(Rule.PIECE_CHANGED, (frm, to),
                             f"the {piece.describe()} moving from {space_words(frm)} to "
                             f"{space_words(to)} should make "
                             f"{'/'.join(map(str, expect))} there, but "
                             f"{'nothing' if seen is None else seen.describe()} is seen")
    if there is not None and there.side is side:
        return Violation(Rule.STACK_SMALLER, (frm, to),
                         f"the {piece.describe()} from {space_words(frm)} cannot stack on the "
                         f"{there.describe()} on {space_words(to)}: each pyramid must be "
                         f"smaller than the one below (bottom {piece.bottom} on top "
                         f"{there.top}), and the moving piece goes on top")
    if there is not None and not can_bump(piece, there):
        return Violation(Rule.BUMP_POWER, (frm, to),
                         f"the {piece.describe()} from {space_words(frm)} cannot bump the "
                         f"more powerful {there.describe()} on {space_words(to)}: only "
                         "pieces of equal or lesser power are bumped (any Stack beats any "
                         "Single, Stacks by pyramid count, Singles by size)")
    return Violation(Rule.PIECE_CHANGED, (frm, to),  # pragma: no cover
                     f"no legal move takes {space_words(frm)} to {space_words(to)}")
