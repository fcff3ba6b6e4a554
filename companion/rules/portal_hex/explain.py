"""``explain(turn_start, observed, roll=None)``: the legal turn that turns ``turn_start`` into
the board the camera sees, or the rule-book clause the change breaks and the cells involved.

The change itself says which action it can be (a new element with its arrows is a build;
pawns changing is a fire, a start, or taking off CENTRUM; nothing changing is a pass), so
build moves are never enumerated: the one candidate is checked against the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.common import OneMoveJudgement, in_order_once
from companion.rules.errors import RulesError
from companion.rules.portal_hex.board import Cell, Colour, Kind, cell_name, check_roll
from companion.rules.portal_hex.clauses import Rule, Violation
from companion.rules.portal_hex.movegen import (
    apply_unchecked,
    check_move,
    fire_moves,
    fire_plan,
)
from companion.rules.portal_hex.moves import PASS, START, TAKE_OFF, Action, Move
from companion.rules.portal_hex.position import Position, board_faults


@dataclass(frozen=True, slots=True)
class Explanation(OneMoveJudgement):
    legal: bool
    moves: tuple[Move, ...] = ()  # the turn (one move) when legal
    alternatives: tuple[Move, ...] = ()  # other moves giving the same board
    violations: tuple[Violation, ...] = ()
    winner: Colour | None = None




    @property
    def cells(self) -> tuple[Cell, ...]:
        return in_order_once([v.cells for v in self.violations] if not self.legal
                             else [m.cells() for m in self.moves])

    @property
    def squares(self) -> tuple[Cell, ...]:  # the name the referee uses for every game
        return self.cells

    def to_json(self) -> dict[str, Any]:
        return self.one_move_json("cells", self.cells, cell_name)


def _illegal(rule: Rule, cells: tuple[Cell, ...] | list[Cell], message: str) -> Explanation:
    return Explanation(False, violations=(Violation(rule, tuple(cells), message),))


def _names(cells: list[Cell] | tuple[Cell, ...]) -> str:
    return ", ".join(cell_name(c) for c in cells)


def explain(turn_start: Position, observed: Position, roll: int | None = None) -> Explanation:
    """The legal turn of ``turn_start.to_move`` that gives the board in ``observed`` (its
    ``to_move`` and ``reached`` are ignored: a camera cannot see them), or why none does."""
    start = turn_start
    check_roll(start.variant, roll)
    if observed.variant != start.variant:
        raise RulesError(f"the observed board is for variant {observed.variant.to_json()!r}, "
                         f"the game for {start.variant.to_json()!r}")
    geo = start.geometry
    cells = geo.cells
    won = start.winner()
    if won is not None:
        if start.same_board(observed):
            return Explanation(True, (), winner=won)  # nothing happens after the end
        return _illegal(Rule.GAME_OVER, (), f"the game is over: {won.value} has already won, "
                        "so nothing more changes on the board")
    # -- the structure: elements and arrows ----------------------------------------------------
    gone = [(i, k) for i, k in enumerate(start.kinds)
            if k is not None and observed.kinds[i] is not k]
    if gone:
        i, was = gone[0]
        now = observed.kinds[i]
        return _illegal(Rule.ELEMENTS_NEVER_MOVE, [cells[j] for j, _ in gone],
                        f"the {was.value} on {cell_name(cells[i])} was "
                        + ("removed" if now is None else f"replaced by a {now.value}")
                        + ": elements already built are never moved or removed")
    lost = sorted(set(start.arrows) - set(observed.arrows))
    if lost:
        a, b = lost[0]
        back = (b, a) in observed.arrows
        return _illegal(Rule.ELEMENTS_NEVER_MOVE, [cells[a], cells[b]],
                        f"the arrow {geo.name(a)} -> {geo.name(b)} was "
                        + ("turned round" if back else "removed")
                        + ": arrows already built are never moved or removed")
    new = [i for i, k in enumerate(observed.kinds) if k is not None and start.kinds[i] is None]
    added = sorted(set(observed.arrows) - set(start.arrows))
    pawn_cells = [i for i in range(len(cells)) if start.pawns[i] != observed.pawns[i]]
    if len(new) > 1:
        return _illegal(Rule.ONE_ACTION, [cells[i] for i in new],
                        f"{len(new)} new elements ({_names([cells[i] for i in new])}): a "
                        "turn is one action, and a build places one platform or portal")
    stray = [(a, b) for a, b in added if not new or new[0] not in (a, b)]
    if stray:
        a, b = stray[0]
        return _illegal(Rule.ARROWS_WITH_NEW_ELEMENT, [cells[a], cells[b]],
                        f"a new arrow {geo.name(a)} -> {geo.name(b)}: arrows are only laid "
                        "with the new element they join, in the same action")
    if new:
        c = new[0]
        built = observed.kinds[c]
        assert built is not None  # a new element stands there
        if pawn_cells:
            return _illegal(Rule.ONE_ACTION, [cells[c]] + [cells[i] for i in pawn_cells],
                            f"a {built.value} was built on {geo.name(c)} and pawns "
                            f"changed on {_names([cells[i] for i in pawn_cells])}: a turn is "
                            "one action")
        return _explain_build(start, observed, roll, c, added)
    # -- pawns only ----------------------------------------------------------------------------
    if not pawn_cells:
        problem = check_move(start, PASS, roll)
        if problem is None:
            return Explanation(True, (PASS,), winner=None)
        return Explanation(False, violations=(problem,))
    return _explain_pawns(start, observed, roll, pawn_cells)


def _explain_build(start: Position, observed: Position, roll: int | None, c: int,
                   added: list[tuple[int, int]]) -> Explanation:
    geo = start.geometry
    cells = geo.cells
    kind = observed.kinds[c]
    ins = [a for a, b in added if b == c]
    outs = [b for a, b in added if a == c]
    both = sorted(set(ins) & set(outs))
    if both:
        return _illegal(Rule.ONE_ARROW_PER_PAIR, [cells[c], cells[both[0]]],
                        f"{geo.name(c)} and {geo.name(both[0])} are joined by two arrows: a "
                        "platform is joined to a portal by at most one arrow (never both an "
                        "entrance and an exit of it)")
    action = Action.PORTAL if kind is Kind.PORTAL else Action.PLATFORM
    move = Move(action, cells[c], tuple(cells[i] for i in ins), tuple(cells[i] for i in outs))
    problem = check_move(start, move, roll)
    if problem is not None:
        return Explanation(False, violations=(problem,))
    after = apply_unchecked(start, move)
    assert after.same_board(observed), (move, observed)
    return Explanation(True, (move,), winner=after.winner())


def _explain_pawns(start: Position, observed: Position, roll: int | None,
                   changed: list[int]) -> Explanation:
    geo = start.geometry
    cells = geo.cells
    me = start.to_move
    links = start.links()
    changed_set = set(changed)
    candidates: list[Move] = [START, TAKE_OFF]
    for i, kind in enumerate(start.kinds):
        if kind is Kind.PORTAL and changed_set <= set(links.ins[i]) | set(links.outs[i]):
            candidates.extend(fire_moves(start, i))
    matches = []
    for move in candidates:
        if check_move(start, move, roll) is None:
            after = apply_unchecked(start, move)
            if after.same_board(observed):
                matches.append((move, after))
    if matches:
        return Explanation(True, (matches[0][0],), tuple(m for m, _ in matches[1:]),
                           winner=matches[0][1].winner())
    # -- nothing legal gives this board: find the clause ---------------------------------------
    for rule_id, where, message in board_faults(observed, only=changed):
        return _illegal(Rule.by_id(rule_id), [cells[i] for i in where], message)

    def count(pos: Position, i: int, owner: Colour) -> int:
        s = pos.pawns[i]
        return s[1] if s is not None and s[0] is owner else 0

    centre = geo.centre
    own_start = geo.index[start.variant.start_cell(me)]
    delta = {i: (count(observed, i, me) - count(start, i, me),
                 count(observed, i, Colour.DEMON) - count(start, i, Colour.DEMON))
             for i in changed}
    others = [(i, o, count(start, i, o), count(observed, i, o)) for i in changed
              for o in sorted({s[0] for s in (start.pawns[i], observed.pawns[i])
                               if s is not None}, key=lambda c: c.value)
              if o not in (me, Colour.DEMON) and count(start, i, o) != count(observed, i, o)]
    if others and all(delta[i] == (0, 0) for i in changed):
        # only other players' pawns changed
        what = "; ".join(f"{o.value} on {geo.name(i)} {a} -> {b}" for i, o, a, b in others)
        return _illegal(Rule.ONLY_OWN_PAWNS, [cells[i] for i, _, _, _ in others],
                        f"other players' pawns changed ({what}), but it is {me.value}'s "
                        "turn: only the player's own pawns (and demons) go through a portal")
    if changed == [own_start] and delta[own_start] == (1, 0):
        problem = check_move(start, START, roll)
        if problem is not None:
            return Explanation(False, violations=(problem,))
    if changed == [centre] and delta[centre] in ((-1, 0), (0, -1)):
        problem = check_move(start, TAKE_OFF, roll)
        if problem is not None:
            return Explanation(False, violations=(problem,))
    starts = [i for i in changed if start.kinds[i] is Kind.START and delta[i] == (1, 0)]
    if changed == starts:
        return _illegal(Rule.OWN_START_ONLY, [cells[i] for i in starts],
                        f"a {me.value} pawn appeared on another player's START "
                        f"{_names([cells[i] for i in starts])}: a player puts pawns only on "
                        "their own START")
    covering = [i for i, kind in enumerate(start.kinds) if kind is Kind.PORTAL
                and changed_set <= set(links.ins[i]) | set(links.outs[i])]
    for i in covering:
        plan = fire_plan(start, i)
        if isinstance(plan, Violation):
            return Explanation(False, violations=(plan,))
    if others:
        what = "; ".join(f"{o.value} on {geo.name(i)} {a} -> {b}" for i, o, a, b in others)
        return _illegal(Rule.ONLY_OWN_PAWNS, [cells[i] for i, _, _, _ in others],
                        f"other players' pawns changed ({what}), but it is {me.value}'s "
                        "turn: only the player's own pawns (and demons) go through a portal")
    for i in covering:
        problem = check_move(start, fire_moves(start, i)[0], roll)
        if problem is not None:  # the roll or CENTRUM forbid firing
            return Explanation(False, violations=(problem,))
        return _illegal(Rule.PORTAL_RESULT, [cells[i], *(cells[j] for j in changed)],
                        f"the pawns on {_names([cells[j] for j in changed])} changed, but "
                        f"activating the portal at {geo.name(i)} takes one pawn from each of "
                        f"its entrances ({_names([cells[j] for j in links.ins[i]]) or 'none'})"
                        f" and puts one on each of its exits "
                        f"({_names([cells[j] for j in links.outs[i]]) or 'none'})")
    ups = [i for i in changed if sum(delta[i]) > 0]
    downs = [i for i in changed if sum(delta[i]) < 0]
    singles = {own_start: (1, 0), centre: (-1, 0)}
    if len(changed) > 1 and all(delta[i] == singles.get(i) for i in changed):
        return _illegal(Rule.ONE_ACTION, [cells[i] for i in changed],
                        "a pawn was put on START and one taken off CENTRUM: a turn is one "
                        "action")
    parts = ([f"more on {_names([cells[i] for i in ups])}"] if ups else []) + (
        [f"fewer on {_names([cells[i] for i in downs])}"] if downs else [])
    return _illegal(Rule.THROUGH_PORTALS, [cells[i] for i in changed],
                    f"pawns changed ({'; '.join(parts) or _names([cells[i] for i in changed])}"
                    "), but no single portal joins those platforms: pawns move only by "
                    "activating one portal, from its entrances to its exits")
