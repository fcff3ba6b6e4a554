"""Legal moves of Portal, checking one move, applying it, and the winner.

A turn is exactly one action (build, fire, start, centrum) or, when none is possible, a
pass. In the ``dice`` variant the K8 roll is an input (never rolled here) that chooses the
kind of action; ``roll=None`` there means "unknown": anything some roll allows.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator

from companion.rules.errors import MoveError, PositionError
from companion.rules.portal_hex.board import Cell, Colour, Kind, Variant, check_roll
from companion.rules.portal_hex.clauses import Rule, Violation
from companion.rules.portal_hex.moves import PASS, START, TAKE_OFF, Action, Move
from companion.rules.portal_hex.position import Position, Stack

BUILDS = frozenset({Action.PORTAL, Action.PLATFORM})
_ROLL_RULE = {1: Rule.ROLL_BUILD, 2: Rule.ROLL_BUILD, 3: Rule.ROLL_BUILD, 4: Rule.ROLL_FIRE,
              5: Rule.ROLL_FIRE, 6: Rule.ROLL_FIRE, 7: Rule.ROLL_START, 8: Rule.ROLL_CENTRUM}


@functools.cache
def start_cells(variant: Variant) -> dict[int, Colour]:
    """START cell number -> its owner."""
    geo = variant.geometry
    return {geo.index[variant.start_cell(c)]: c for c in variant.colours}


@functools.cache
def _assignments(n: int) -> tuple[tuple[int, ...], ...]:
    """Every way to give n neighbours no arrow (0), an arrow in (1) or out (2), not all 0."""
    return tuple(a for a in itertools.product((0, 1, 2), repeat=n) if any(a))


def own_on_centrum(pos: Position) -> bool:
    stack = pos.pawns[pos.geometry.centre]
    return stack is not None and stack[0] is pos.to_move


def centrum_compulsory(pos: Position, roll: int | None) -> bool:
    """A pawn of the player to move on CENTRUM must come off first (with dice: on an 8)."""
    return own_on_centrum(pos) and (not pos.variant.dice or roll == 8)


def allowed_actions(pos: Position, roll: int | None) -> frozenset[Action]:
    """The kinds of action the player may take this turn (before looking at the board)."""
    centrum = own_on_centrum(pos)
    if not pos.variant.dice:
        return frozenset({Action.CENTRUM}) if centrum else BUILDS | {Action.FIRE, Action.START}
    if roll is None:
        return BUILDS | {Action.FIRE, Action.START} | ({Action.CENTRUM} if centrum else set())
    if roll <= 3:
        return BUILDS
    if roll <= 6:
        return frozenset({Action.FIRE})
    if roll == 8 and centrum:
        return frozenset({Action.CENTRUM})
    return frozenset({Action.START})


# -- activation --------------------------------------------------------------------------------


def _v(pos: Position, rule: Rule, cells: tuple[int, ...], message: str) -> Violation:
    geo = pos.geometry
    return Violation(rule, tuple(geo.cells[i] for i in cells), message)


def _who(stack: Stack) -> str:
    return "a demon" if stack[0] is Colour.DEMON else stack[0].value


def fire_plan(pos: Position, i: int) -> Violation | tuple[list[tuple[int, ...]], bool]:
    """Why the portal on cell ``i`` cannot be fired by the player to move, or the possible
    sets of exits that receive demons and whether the move must name them."""
    geo, v, me = pos.geometry, pos.variant, pos.to_move
    name = geo.name(i)
    held = pos.kinds[i]
    if held is not Kind.PORTAL:
        what = "nothing" if held is None else f"a {held.value}"
        return _v(pos, Rule.NOT_A_PORTAL, (i,), f"only a portal can be activated, and {name} "
                  f"holds {what}")
    links = pos.links()
    ins, outs = links.ins[i], links.outs[i]
    mine = demons_in = 0
    head = f"the portal at {name} is not active:"
    for e in ins:
        s = pos.pawns[e]
        if s is None:
            return _v(pos, Rule.PORTAL_NOT_ACTIVE, (i, e),
                      f"{head} its entrance {geo.name(e)} is empty (every entrance needs a "
                      f"{me.value} pawn)")
        if s[0] is me:
            mine += 1
        elif s[0] is Colour.DEMON:
            demons_in += 1  # demons pass for anyone's pawns
        else:
            return _v(pos, Rule.PORTAL_NOT_ACTIVE, (i, e),
                      f"{head} its entrance {geo.name(e)} holds {_who(s)}'s pawn, and every "
                      f"entrance needs a {me.value} pawn")
    spawn = not ins and v.demons
    for x in outs:
        s = pos.pawns[x]
        if s is None:
            continue
        if s[0] is me and not spawn:
            if v.limit_allows(s[1]):
                continue
            return _v(pos, Rule.PORTAL_NOT_ACTIVE, (i, x),
                      f"{head} its exit {geo.name(x)} is full ({s[1]} {me.value} pawns, at "
                      f"most {v.per_platform} per platform)")
        return _v(pos, Rule.PORTAL_NOT_ACTIVE, (i, x),
                  f"{head} its exit {geo.name(x)} is occupied by {_who(s)}"
                  + (" (demons need free exits)" if spawn else ""))
    n = len(outs)
    if spawn:
        return [tuple(outs)], False
    if n and demons_in > n:
        return _v(pos, Rule.DEMONS_LEAVE_EXITLESS, (i, *ins),
                  f"the portal at {name} takes in {demons_in} demons but has {n} exit(s): a "
                  "demon leaves the board only through a portal with no exits")
    k = min(demons_in, n)
    need = n - k - mine
    pool = pos.pool(me)
    if need > pool:
        return _v(pos, Rule.POOL_TOO_SMALL, (i, *outs),
                  f"the portal at {name} needs {need} more {me.value} pawn(s) from the pool "
                  f"for its {n} exits, but {me.value}'s pool holds {pool}")
    if k == 0:
        return [()], False
    free = tuple(x for x in outs if pos.pawns[x] is None)
    choices = list(itertools.combinations(free, k))
    if not choices:
        return _v(pos, Rule.DEMONS_EXIT_FIRST, (i, *outs),
                  f"the portal at {name} takes in {k} demon(s), but only {len(free)} of its "
                  "exits are empty; demons come out first, on empty platforms")
    return choices, k < n


def fire_moves(pos: Position, i: int) -> list[Move]:
    plan = fire_plan(pos, i)
    if isinstance(plan, Violation):
        return []
    choices, named = plan
    cells = pos.geometry.cells
    if not named:
        return [Move(Action.FIRE, cells[i])]
    return [Move(Action.FIRE, cells[i], demons=tuple(cells[x] for x in c)) for c in choices]


def _demon_exits(pos: Position, i: int, move: Move) -> tuple[int, ...]:
    plan = fire_plan(pos, i)
    assert not isinstance(plan, Violation), plan
    choices, named = plan
    if not named:
        return choices[0]
    index = pos.geometry.index
    return tuple(index[c] for c in move.demons)


# -- building ----------------------------------------------------------------------------------


def _build_sites(pos: Position) -> Iterator[tuple[int, list[Cell], list[Cell]]]:
    """Each empty cell with the neighbours a new element there could join: (cell, platforms a
    new portal may join, portals a new platform may join), both sorted."""
    geo, kinds, me = pos.geometry, pos.kinds, pos.to_move
    starts = start_cells(pos.variant)
    cells = geo.cells
    for c, kind in enumerate(kinds):
        if kind is not None:
            continue
        plats: list[Cell] = []
        portals: list[Cell] = []
        for j in geo.neighbours[c]:
            k = kinds[j]
            if k is None:
                continue
            if k is Kind.PORTAL:
                portals.append(cells[j])
            elif k is not Kind.START or starts[j] is me:
                plats.append(cells[j])
        if plats or portals:
            yield c, sorted(plats), sorted(portals)


def build_moves(pos: Position) -> list[Move]:
    """Every new portal and platform the player to move may build, with its arrows."""
    cells = pos.geometry.cells
    out: list[Move] = []
    for c, plats, portals in _build_sites(pos):
        for action, others in ((Action.PORTAL, plats), (Action.PLATFORM, portals)):
            for assign in _assignments(len(others)):
                ins = tuple(o for o, a in zip(others, assign, strict=True) if a == 1)
                outs = tuple(o for o, a in zip(others, assign, strict=True) if a == 2)
                out.append(_build(action, cells[c], ins, outs))
    return out


def _first_build(pos: Position) -> Move | None:
    """One build the player to move may make, found without listing them all (a board can
    allow thousands)."""
    for c, plats, portals in _build_sites(pos):
        action, others = (Action.PORTAL, plats) if plats else (Action.PLATFORM, portals)
        return _build(action, pos.geometry.cells[c], (others[0],), ())
    return None


def _first_fire(pos: Position) -> Move | None:
    for i, kind in enumerate(pos.kinds):
        if kind is Kind.PORTAL:
            found = fire_moves(pos, i)
            if found:
                return found[0]
    return None


def pass_allowed(pos: Position, roll: int | None = None) -> tuple[bool, Move | None]:
    """Whether ``pass`` is a legal turn (``pass in legal_moves(pos, roll)``), and when it is
    not an action that could be taken instead; without listing every build."""
    check_roll(pos.variant, roll)
    if pos.winner() is not None:
        return False, None
    allowed = allowed_actions(pos, roll)
    take_off = TAKE_OFF if Action.CENTRUM in allowed else None
    start = START if Action.START in allowed and start_violation(pos) is None else None
    fire = _first_fire(pos) if Action.FIRE in allowed else None
    build = _first_build(pos) if Action.PORTAL in allowed else None
    example = take_off or start or fire or build
    if pos.variant.dice and roll is None:  # some roll may leave nothing to do
        return not (build and fire and start), example
    return example is None, example


def _build(action: Action, cell: Cell, ins: tuple[Cell, ...], outs: tuple[Cell, ...]) -> Move:
    """A build move from sorted, distinct lists: skip the constructor's checks (hot path)."""
    move = object.__new__(Move)
    for name, value in (("action", action), ("cell", cell), ("ins", ins), ("outs", outs),
                        ("demons", ())):
        object.__setattr__(move, name, value)
    return move


def check_build(pos: Position, move: Move) -> Violation | None:
    geo, me = pos.geometry, pos.to_move
    cell = move.cell
    assert cell is not None
    name = f"{cell[0]},{cell[1]}"
    if cell not in geo.index:
        return Violation(Rule.BUILD_ON_EMPTY, (cell,), f"cell {name} is off the board")
    c = geo.index[cell]
    portal = move.action is Action.PORTAL
    if (there := pos.kinds[c]) is not None:
        return _v(pos, Rule.BUILD_ON_EMPTY, (c,), f"cell {name} already holds a "
                  f"{there.value}: new elements go on empty cells")
    if not move.ins and not move.outs:
        if portal:
            return _v(pos, Rule.PORTAL_NEEDS_PLATFORM, (c,), f"the new portal on {name} is "
                      "joined to no platform: a portal is joined to 1 to 6 neighbouring "
                      "platforms")
        return _v(pos, Rule.PLATFORM_NEEDS_PORTAL, (c,), f"the new platform on {name} is "
                  "joined to no portal: every platform but START and CENTRUM needs a portal")
    starts = start_cells(pos.variant)
    for other in move.ins + move.outs:
        oname = f"{other[0]},{other[1]}"
        j = geo.index.get(other)
        if j is None or j not in geo.neighbours[c]:
            return Violation(Rule.ARROW_NEIGHBOURS, (cell, other),
                             f"an arrow from {name} to {oname}: arrows join an element to "
                             "its neighbours only")
        k = pos.kinds[j]
        if k is None:
            return Violation(Rule.ARROW_NEIGHBOURS, (cell, other),
                             f"an arrow from {name} to the empty cell {oname}: arrows join "
                             "elements already on the board")
        if portal and k is Kind.PORTAL:
            return Violation(Rule.NO_PORTAL_TO_PORTAL, (cell, other),
                             f"the new portal on {name} is joined to the portal on {oname}: a "
                             "portal is never joined directly to a portal")
        if not portal and k.is_platform:
            return Violation(Rule.NO_PLATFORM_TO_PLATFORM, (cell, other),
                             f"the new platform on {name} is joined to the {k.value} on "
                             f"{oname}: pawns go from platform to platform only through a "
                             "portal")
        if portal and k is Kind.START and starts[j] is not me:
            return Violation(Rule.START_OWNER_ONLY, (cell, other),
                             f"the new portal on {name} is joined to {starts[j].value}'s START "
                             f"on {oname}: only the START's owner may join a portal to it")
    return None


# -- the whole turn ----------------------------------------------------------------------------


def start_violation(pos: Position) -> Violation | None:
    me = pos.to_move
    s = pos.geometry.index[pos.variant.start_cell(me)]
    if pos.pool(me) < 1:
        return _v(pos, Rule.POOL_TOO_SMALL, (s,), f"{me.value}'s pool is empty: all "
                  f"{pos.variant.pawns} pawns are on the board")
    stack = pos.pawns[s]
    if stack is not None and not (stack[0] is me and pos.variant.limit_allows(stack[1])):
        return _v(pos, Rule.START_MUST_BE_FREE, (s,), f"{me.value}'s START "
                  f"{pos.geometry.name(s)} is not free: {_who(stack)} stands on it")
    return None


def legal_moves(pos: Position, roll: int | None = None) -> list[Move]:
    """Every legal turn of the player to move: actions, or ``pass`` when there is none
    (with an unknown roll in the dice game: ``pass`` when some roll would leave none)."""
    check_roll(pos.variant, roll)
    if pos.winner() is not None:
        return []
    allowed = allowed_actions(pos, roll)
    out: list[Move] = []
    if Action.CENTRUM in allowed:
        out.append(TAKE_OFF)
    has_start = Action.START in allowed and start_violation(pos) is None
    if has_start:
        out.append(START)
    has_fire = False
    if Action.FIRE in allowed:
        for i, kind in enumerate(pos.kinds):
            if kind is Kind.PORTAL:
                found = fire_moves(pos, i)
                has_fire = has_fire or bool(found)
                out.extend(found)
    builds = build_moves(pos) if Action.PORTAL in allowed else []
    out.extend(builds)
    if pos.variant.dice and roll is None:
        if not builds or not has_fire or not has_start:
            out.append(PASS)
    elif not out:
        out.append(PASS)
    return out


def check_move(pos: Position, move: Move, roll: int | None = None) -> Violation | None:
    """None when ``move`` is a legal turn here, else the clause it breaks."""
    check_roll(pos.variant, roll)
    me = pos.to_move
    geo = pos.geometry
    won = pos.winner()
    if won is not None:
        return Violation(Rule.GAME_OVER, (), f"the game is over: {won.value} has already won")
    action = move.action
    if action is Action.PASS:
        may, example = pass_allowed(pos, roll)
        if may:
            return None
        assert example is not None
        return Violation(Rule.MUST_MOVE, example.cells(),
                         f"{me.value} cannot pass: an action is possible, e.g. "
                         f"'{example.notation()}', and a possible action must be taken")
    centre = geo.centre
    if action is Action.CENTRUM and not own_on_centrum(pos):
        stack = pos.pawns[centre]
        if stack is not None and stack[0] is Colour.DEMON:
            return _v(pos, Rule.DEMONS_STAY, (centre,), "a demon is never taken off CENTRUM: "
                      "it leaves only through a portal with no exits")
        return _v(pos, Rule.CENTRUM_OWN_PAWN, (centre,), f"{me.value} has no pawn on "
                  "CENTRUM to take off")
    if action is not Action.CENTRUM and centrum_compulsory(pos, roll):
        return _v(pos, Rule.CENTRUM_FIRST, (centre,), f"{me.value} has a pawn on CENTRUM: "
                  "taking it off is compulsory and comes before any other action")
    allowed = allowed_actions(pos, roll)
    if action not in allowed:
        assert roll is not None
        rule = _ROLL_RULE[roll]
        says = {Rule.ROLL_BUILD: "1-3: build a road", Rule.ROLL_FIRE: "4-6: activate a portal",
                Rule.ROLL_START: "7: put a pawn on START",
                Rule.ROLL_CENTRUM: "8: take a pawn off CENTRUM, or else put one on START"}
        return Violation(rule, move.cells(), f"the K8 die shows {roll}, and {says[rule]}; "
                         f"'{move.notation()}' is not that")
    if action is Action.START:
        return start_violation(pos)
    if action is Action.CENTRUM:
        return None
    if action is Action.FIRE:
        assert move.cell is not None
        i = geo.index.get(move.cell)
        if i is None:
            return Violation(Rule.NOT_A_PORTAL, (move.cell,), f"cell {move.notation()[5:]} is "
                             "off the board")
        plan = fire_plan(pos, i)
        if isinstance(plan, Violation):
            return plan
        choices, named = plan
        got = tuple(geo.index.get(c, -1) for c in move.demons)
        if (got not in choices) if named else bool(move.demons):
            options = " or ".join(
                "demons on " + ", ".join(geo.name(x) for x in c) for c in choices)
            return _v(pos, Rule.DEMONS_EXIT_FIRST, (i,), f"the portal at {geo.name(i)}: "
                      "demons come out first, the player chooses on which exits: "
                      + (options if named else "here there is no choice to name"))
        return None
    return check_build(pos, move)


# -- applying ----------------------------------------------------------------------------------


def _make(pos: Position, **changes: object) -> Position:
    """A position after a legal move: skip the constructor's checks (hot path)."""
    out = object.__new__(Position)
    for name in ("variant", "kinds", "arrows", "pawns", "to_move", "reached"):
        object.__setattr__(out, name, changes.get(name, getattr(pos, name)))
    object.__setattr__(out, "_links", None)
    return out


def apply_unchecked(pos: Position, move: Move) -> Position:
    """The position after ``move`` (assumed legal), the next player clockwise to move."""
    geo, me = pos.geometry, pos.to_move
    nxt = pos.variant.next_player(me)
    action = move.action
    if action is Action.PASS:
        return _make(pos, to_move=nxt)
    if action.is_build:
        assert move.cell is not None
        c = geo.index[move.cell]
        kinds = list(pos.kinds)
        kinds[c] = Kind.PORTAL if action is Action.PORTAL else Kind.PLATFORM
        arrows = sorted(pos.arrows + tuple((geo.index[x], c) for x in move.ins)
                        + tuple((c, geo.index[x]) for x in move.outs))
        return _make(pos, kinds=tuple(kinds), arrows=tuple(arrows), to_move=nxt)
    pawns: list[Stack | None] = list(pos.pawns)
    reached = pos.reached
    if action is Action.START:
        s = geo.index[pos.variant.start_cell(me)]
        _add(pawns, s, me)
    elif action is Action.CENTRUM:
        _take(pawns, geo.centre)
        reached = reached | {me}
    else:
        assert move.cell is not None
        i = geo.index[move.cell]
        links = pos.links()
        demons = _demon_exits(pos, i, move)
        for e in links.ins[i]:
            _take(pawns, e)
        for x in links.outs[i]:
            _add(pawns, x, Colour.DEMON if x in demons else me)
    return _make(pos, pawns=tuple(pawns), reached=reached, to_move=nxt)


def _add(pawns: list[Stack | None], i: int, owner: Colour) -> None:
    s = pawns[i]
    pawns[i] = (owner, 1) if s is None else (owner, s[1] + 1)


def _take(pawns: list[Stack | None], i: int) -> None:
    s = pawns[i]
    assert s is not None
    pawns[i] = None if s[1] == 1 else (s[0], s[1] - 1)


def play(pos: Position, move: Move, roll: int | None = None) -> Position:
    """The position after a legal ``move``. Raises :class:`MoveError` naming the move and the
    clause when it is not legal here."""
    try:
        problem = check_move(pos, move, roll)
    except PositionError as exc:
        raise MoveError(f"{move.notation()}: {exc}") from None
    if problem is not None:
        raise MoveError(f"{move.notation()} is not a legal {pos.to_move.value} move here: "
                        f"{problem.message} [{problem.rule.id}]")
    return apply_unchecked(pos, move)


def apply(pos: Position, move: Move, roll: int | None = None) -> Position:
    """Alias of :func:`play` (checked)."""
    return play(pos, move, roll)


def winner(pos: Position) -> Colour | None:
    return pos.winner()
