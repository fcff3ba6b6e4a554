"""Random legal play: test beds for property tests, benchmarks and smoke runs.

Uniform random play wanders for ever on an ever-growing road network, so
:func:`guided_move` is a random player that only plays legal moves but prefers progress:
it builds a road from its pawns towards CENTRUM, fires portals that bring its pawns closer,
and once it has reached CENTRUM builds and fires exit-less portals to clear its pawns.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.rules.portal_hex.board import MAX_ROLL, Colour, Kind, Variant, distance
from companion.rules.portal_hex.movegen import apply_unchecked, legal_moves, start_cells
from companion.rules.portal_hex.moves import START, TAKE_OFF, Action, Move
from companion.rules.portal_hex.position import Position

MAX_PLIES = 4000
History = list[tuple[Position, Move, int | None]]


def roll_for(pos: Position, rng: random.Random) -> int | None:
    return rng.randint(1, MAX_ROLL) if pos.variant.dice else None


def uniform_move(pos: Position, rng: random.Random, roll: int | None = None) -> Move | None:
    moves = legal_moves(pos, roll)
    return rng.choice(moves) if moves else None


def _mine(pos: Position, me: Colour) -> list[int]:
    return [i for i, s in enumerate(pos.pawns) if s is not None and s[0] is me]


def _free_ways(pos: Position, i: int) -> bool:
    """Whether a pawn on platform ``i`` can ever leave: it is CENTRUM, already an entrance of a
    portal, or has an empty neighbour where such a portal can still be built."""
    if i == pos.geometry.centre or pos.links().outs[i]:
        return True
    return any(pos.kinds[j] is None for j in pos.geometry.neighbours[i])


def _safe(pos: Position, me: Colour) -> bool:
    return all(_free_ways(pos, i) for i in _mine(pos, me))


def guided_move(pos: Position, rng: random.Random, roll: int | None = None) -> Move | None:
    """A legal move chosen at random among those that make the most progress.

    Not yet at CENTRUM: bring the front pawn (the one nearest CENTRUM) closer, by firing or by
    building the next piece of its road (portals on odd rings, platforms on even rings, so a
    road always ends in a portal next to CENTRUM); clear other pawns through exit-less
    portals. After CENTRUM: clear every pawn. Never leave a pawn of one's own where it can
    never leave, and build spare elements away from STARTs, pawns and CENTRUM.
    """
    moves = legal_moves(pos, roll)
    if len(moves) <= 1:
        return moves[0] if moves else None
    if TAKE_OFF in moves:
        return TAKE_OFF
    me, geo = pos.to_move, pos.geometry
    cells, centre = geo.cells, geo.centre
    dist = [distance(c) for c in cells]
    mine = _mine(pos, me)
    done = me in pos.reached
    links = pos.links()

    def pick(options: list[Move]) -> Move | None:
        return rng.choice(options) if options else None

    def best(scored: Sequence[tuple[float, Move]]) -> Move | None:
        if not scored:
            return None
        low = min(s for s, _ in scored)
        return pick([m for s, m in scored if s == low])

    def front(p: Position) -> int:
        return min((dist[i] for i in _mine(p, me)), default=99)

    here = 0 if done else front(pos)
    lead = [i for i in mine if dist[i] == here][:1]  # the front pawn's platform
    extras = set(mine) - set(lead)
    # -- fires ---------------------------------------------------------------------------------
    fires = {m: apply_unchecked(pos, m) for m in moves if m.action is Action.FIRE}
    fires = {m: a for m, a in fires.items() if _safe(a, me)}
    if not done:
        onto = [m for m, a in fires.items() if (s := a.pawns[centre]) is not None
                and s[0] is me]
        choice = pick(onto) or best([(front(a), m) for m, a in fires.items()
                                     if front(a) < here])
        if choice:
            return choice
    own_start = geo.index[pos.variant.start_cell(me)]

    lid_clearable = any(pos.kinds[j] is None for j in geo.neighbours[own_start]) or any(
        not links.outs[q] for q in links.outs[own_start])

    def guard_lost(a: Position) -> bool:
        # With the die a 7 forces a new pawn onto a free START: keep one of mine on it as a
        # lid until it is the last pawn on the board (if it can be cleared from there).
        held = (s := a.pawns[own_start]) is not None and s[0] is me
        return (pos.variant.dice and not held and bool(_mine(a, me))
                and (lid_clearable or not done))

    fewer = [(len(_mine(a, me)) + 100 * guard_lost(a), m) for m, a in fires.items()
             if len(_mine(a, me)) < len(mine) and (done or front(a) <= here)]
    choice = best(fewer)
    if choice:
        return choice
    stack = pos.pawns[centre]
    if not done and stack is not None and stack[0] is Colour.DEMON:
        # A demon squats on CENTRUM: let it out through an exit-less portal.
        choice = pick([m for m, a in fires.items() if a.pawns[centre] != stack])
        if choice:
            return choice
    if not mine and START in moves:
        return START
    # -- builds --------------------------------------------------------------------------------
    reserved: dict[int, int] = {}  # the last empty neighbour of a pawn with no way out
    # Everyone's pawns, not just mine: a trapped pawn can never leave, and its owner can
    # then never win, which only makes the test games longer.
    for i, stack in enumerate(pos.pawns):
        if stack is not None and i != centre and not links.outs[i]:
            empty = [j for j in geo.neighbours[i] if pos.kinds[j] is None]
            if len(empty) == 1:
                reserved[empty[0]] = i
    for start in start_cells(pos.variant):
        # Keep a cell by every START for the exit-less portal that will clear its last pawn
        # (only the owner may build it).
        if not any(not links.outs[q] for q in links.outs[start]):
            empty = [j for j in geo.neighbours[start] if pos.kinds[j] is None]
            if len(empty) == 1:
                reserved[empty[0]] = start
    builds = []
    for m in moves:
        if m.action.is_build:
            c = geo.index[m.cell]  # type: ignore[index]
            keep = reserved.get(c)
            if cells[centre] in m.ins and not (stack is not None and stack[0] is Colour.DEMON):
                continue  # a way out of CENTRUM: with the die a forced fire could use it
            if keep is None or (m.action is Action.PORTAL and cells[keep] in m.ins
                                and (pos.kinds[keep] is not Kind.START or not m.outs)):
                builds.append((m, c, [geo.index[x] for x in m.ins],
                               [geo.index[x] for x in m.outs]))

    def tidy(m: Move, c: int) -> bool:
        return (dist[c] % 2 == 1) == (m.action is Action.PORTAL) or dist[c] == geo.radius

    mine_set = set(mine)
    road: list[tuple[float, Move]] = []
    clear: list[Move] = []
    demon_way: list[Move] = []
    for m, c, ins, outs in builds:
        if m.action is Action.PORTAL and ins and not outs:
            if set(ins) <= extras or (done and set(ins) <= mine_set):
                clear.append(m)
            if ins == [centre] and stack is not None and stack[0] is Colour.DEMON:
                demon_way.append(m)
        if done or not tidy(m, c):
            continue
        if m.action is Action.PORTAL:
            if not ins or not set(ins) <= mine_set or len(outs) > 1:
                continue
            if any(pos.pawns[o] is not None for o in outs):
                continue
            near = min(dist[i] for i in ins)
            score = dist[outs[0]] if outs else dist[c] - 0.5
            if score <= near + 1:  # sideways and back steps too, ranked after forward ones
                road.append((score + (0 if set(ins) <= set(lead) else 10)
                             + (20 if score > near else 0), m))
        elif not outs and len(ins) == 1:
            entrances = links.ins[ins[0]]
            if not entrances or not set(entrances) <= mine_set or links.outs[ins[0]]:
                continue  # one exit per road portal: more would need pawns from the pool
            if dist[c] <= min(dist[e] for e in entrances):
                road.append((dist[c] + (0 if set(entrances) <= set(lead) else 10), m))
    choice = best(road) or pick(clear) or pick(demon_way)
    if choice:
        return choice
    sideways = [m for m, a in fires.items() if (done or front(a) <= here)
                and len(_mine(a, me)) <= len(mine) and not guard_lost(a)]
    if sideways and rng.random() < (0.4 if done else 0.7):
        return pick(sideways)
    if START in moves and not done and rng.random() < 0.2:
        return START
    # Nothing useful: a spare element out of everyone's way if possible.
    busy = {j for j, k in enumerate(pos.kinds) if k is Kind.START
            or pos.pawns[j] is not None}
    # Only exit-less portals are spare: a new platform would add an entrance or an exit to
    # someone's road portal and could block it, a portal without entrances makes pawns.
    spare = [m for m, c, ins, outs in builds if m.action is Action.PORTAL and ins and not outs
             and tidy(m, c) and dist[c] >= 2 and not busy.intersection(geo.neighbours[c])]
    # Then, least harmful first: exit-less portals, portals with entrances, platforms off
    # ring 1; a portal without entrances (it makes pawns for whoever fires it) comes last.
    choice = (pick(spare)
              or pick([m for m, c, _, outs in builds if m.action is Action.PORTAL and not outs
                       and dist[c] >= 2])
              or pick([m for m, c, ins, _ in builds if m.action is Action.PORTAL and ins
                       and dist[c] >= 2])
              or pick([m for m, c, _, _ in builds if m.action is Action.PLATFORM
                       and dist[c] >= 2])
              or pick([m for m, _, _, _ in builds]))
    if choice:
        return choice
    # A fire is compulsory (the die said so): the one that harms least.
    forced = [(100 * (0 if done else front(a)) + 10 * (not _safe(a, me)) + len(_mine(a, me)), m)
              for m in moves if m.action is Action.FIRE for a in (apply_unchecked(pos, m),)]
    return best(forced) or pick([m for m in moves if m is not START]) or moves[0]


def random_variant(rng: random.Random) -> Variant:
    """A random mix of the variant flags, 2-6 players, on a board roomy enough for them: on a
    crowded board the road network can fill every cell and lock every portal, and then all
    players pass for ever (the book has no rule for that; see docs/rules/portal-hex.md)."""
    players = rng.randint(2, 6)
    dice = rng.random() < 0.3
    radius = rng.randint(max(5, players), 8) if dice else rng.randint(max(3, players - 1), 7)
    return Variant(radius=radius, players=players, pawns=rng.randint(2, 4 if dice else 6),
                   demons=rng.random() < 0.3, per_platform=rng.choice((1, 1, 1, 2, 0)),
                   dice=dice)


def random_game(rng: random.Random, position: Position | None = None,
                max_plies: int = MAX_PLIES, guided: bool = True) -> tuple[History, Position]:
    """A game from ``position`` (default the start of the default variant) until a win or
    ``max_plies``. Returns the ``(before, move, roll)`` history and the final position."""
    pos = position or Position.start()
    history: History = []
    choose = guided_move if guided else uniform_move
    for _ in range(max_plies):
        if pos.winner() is not None:
            break
        roll = roll_for(pos, rng)
        move = choose(pos, rng, roll)
        if move is None:
            break
        history.append((pos, move, roll))
        pos = apply_unchecked(pos, move)
    return history, pos


def random_midgame(rng: random.Random, plies: int, position: Position | None = None,
                   guided: bool = True) -> Position:
    """The position after up to ``plies`` moves, stopping before a win."""
    pos = position or Position.start()
    choose = guided_move if guided else uniform_move
    for _ in range(plies):
        move = choose(pos, rng, roll_for(pos, rng))
        if move is None:
            break
        after = apply_unchecked(pos, move)
        if after.winner() is not None:
            break
        pos = after
    return pos


__all__ = ["MAX_PLIES", "guided_move", "random_game", "random_midgame", "random_variant",
           "roll_for", "uniform_move"]
