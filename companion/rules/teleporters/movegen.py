"""Legal moves of the side to move, and what each move does to the position and the turn.

Every rule of the book's "Pole movements", "Port movements" and "Teleport movements" lives
here; docs/rules/teleporters.md gives the sentence each one reads and the choices made.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import compress

from companion.rules.errors import MoveError
from companion.rules.teleporters.board import (
    CORNERS,
    EDGES,
    NEIGHBOURS,
    SQUARES,
    Carry,
    Corner,
    Diagonal,
    Edge,
    SendMarker,
    Side,
    Square,
    Variant,
    WrapRows,
    in_telepad_row,
    wrap_square,
)
from companion.rules.teleporters.moves import (
    Move,
    PoleMove,
    PoleMoveKind,
    PortMove,
    TeleportMove,
    TeleportMoveKind,
    TurnState,
)
from companion.rules.teleporters.position import PortsInSpace, Position

# ----------------------------------------------------------------------------------------------
# Walking geometry


def exit_blockers(pos: Position, sq: Square, edge: Edge) -> tuple[Square, set[Side]] | None:
    """Where a Pole on ``sq`` steps through ``edge``, and whose pieces stop it.

    None when there is no step that way (the north or south end of the board, or a
    wrap-around the variant does not allow). An empty set means the step is free: no Pole on
    the next space, no wall on the edge crossed (a wall of a Port in either space), and for a
    wrap-around a re-entry space with no piece at all.
    """
    blockers: set[Side] = set()
    for corner, side in pos.ports[sq]:
        if edge in corner.walls:
            blockers.add(side)
    nxt = NEIGHBOURS[sq][edge]
    if nxt is None:
        if not pos.variant.may_wrap(sq):
            return None
        nxt = wrap_square(sq, edge)
        if nxt is None:
            return None
        occupant = pos.poles[nxt]
        if occupant is not None:
            blockers.add(occupant)
        blockers.update(side for _, side in pos.ports[nxt])
        return nxt, blockers
    occupant = pos.poles[nxt]
    if occupant is not None:
        blockers.add(occupant)
    back = edge.opposite
    for corner, side in pos.ports[nxt]:
        if back in corner.walls:
            blockers.add(side)
    return nxt, blockers


def _free_step(pos: Position, sq: Square, edge: Edge) -> Square | None:
    step = exit_blockers(pos, sq, edge)
    if step is None or step[1]:
        return None
    return step[0]


def walk_targets(pos: Position, sq: Square) -> set[Square]:
    """Spaces the Pole on ``sq`` can walk to: one or two free orthogonal steps."""
    out: set[Square] = set()
    for e1 in EDGES:
        mid = _free_step(pos, sq, e1)
        if mid is None:
            continue
        out.add(mid)
        # The first step leaves ``sq`` empty, so the second may not come back to it anyway.
        for e2 in EDGES:
            end = _free_step(pos, mid, e2)
            if end is not None and end != sq:
                out.add(end)
    return out


# ----------------------------------------------------------------------------------------------
# Blockade


def surrounded(pos: Position, sq: Square) -> bool:
    """Every step out of ``sq`` is blocked, each by at least one of the opponent's pieces.

    A step blocked only by the Pole owner's own pieces (or a board end) does not count: the
    Pole is then not "totally surrounded by the other player's game pieces".
    """
    side = pos.poles[sq]
    if side is None:
        return False
    opponent = side.opponent
    exits = 0
    for edge in EDGES:
        step = exit_blockers(pos, sq, edge)
        if step is None:
            continue
        exits += 1
        if opponent not in step[1]:
            return False
    return exits > 0


def blockaded(pos: Position, sq: Square) -> bool:
    """Surrounded, and no Port move of the owner could repel or vault a blocker away.

    The rescue is looked for among the owner's Port moves as at the start of a turn (markers
    are not counted: the book asks whether the player *can* move the blockers away).
    """
    if not surrounded(pos, sq):
        return False
    side = pos.poles[sq]
    assert side is not None
    moves: list[Move] = []
    _port_moves(pos, _Board(pos, side), _layout(pos.variant), side, TurnState(), None, moves)
    for move in moves:
        if not isinstance(move, PortMove) or (move.repel_to is None and move.vault_to is None):
            continue
        if not surrounded(_apply_port(pos, move, side), sq):
            return False
    return True



# ----------------------------------------------------------------------------------------------
# Pruning filter used by explain(): a necessary condition on where moved pieces end up.


def _port_codes(placements: frozenset[tuple[Square, Corner]]) -> frozenset[int]:
    return frozenset(sq << 2 | CORNERS.index(c) for sq, c in placements)


@dataclass(frozen=True, slots=True)
class MoveFilter:
    """Squares and placements of the position a search is heading for."""

    mover_poles: frozenset[Square]
    mover_ports: frozenset[tuple[Square, Corner]]
    other_poles: frozenset[Square]
    other_ports: frozenset[tuple[Square, Corner]]
    # The placements as ``square << 2 | corner index`` ints: hashing a Corner enum is slow.
    mover_port_codes: frozenset[int] = field(init=False, repr=False, compare=False)
    other_port_codes: frozenset[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mover_port_codes", _port_codes(self.mover_ports))
        object.__setattr__(self, "other_port_codes", _port_codes(self.other_ports))


# ----------------------------------------------------------------------------------------------
# Precomputed geometry. Generation works on bitboards (bit ``sq`` for square ``sq``), corner and
# edge indices (the orders of CORNERS and EDGES) and per-square tables, and it hands out shared
# Move values (they are frozen) instead of building each one afresh: comparing and hashing
# Edge and Corner enums, and constructing frozen dataclasses, is where the time went.

assert EDGES == (Edge.NORTH, Edge.SOUTH, Edge.EAST, Edge.WEST)
assert CORNERS == (Corner.SW, Corner.SE, Corner.NW, Corner.NE)  # opposite corner: 3 - index

_SQUARE_RANGE = range(64)
_BOARD = (1 << 64) - 1
_FILE_A = sum(1 << sq for sq in SQUARES if sq & 7 == 0)
_FILE_H = _FILE_A << 7
_RANK_1 = 0xFF
_RANK_8 = 0xFF << 56

# Where a step through each edge leads, the a/h wrap-around included. Read only where the
# step's bit is set (see _Board.free_steps), so the off-board entries are never used.
_STEP_TO: tuple[tuple[Square, ...], ...] = (
    tuple(s + 8 for s in SQUARES),
    tuple(s - 8 for s in SQUARES),
    tuple(s + 1 if s & 7 != 7 else s - 7 for s in SQUARES),
    tuple(s - 1 if s & 7 else s + 7 for s in SQUARES),
)

# Per square and set of free edges (a bit per edge, in EDGES order): where the free steps lead.
_NEXT: tuple[tuple[Square, ...], ...] = tuple(
    tuple(_STEP_TO[ei][sq] for ei in range(4) if free >> ei & 1)
    for sq in SQUARES for free in range(16))

_ON_BOARD = tuple((sq < 56) | (sq >= 8) << 1 | 12 for sq in SQUARES)  # steps that exist at all


def _ray(sq: Square, edge: Edge) -> tuple[Square, ...]:
    """The spaces a Port or Teleport on ``sq`` may glide to through ``edge``, nearest first,
    up to the board end or the first Telepad row (never entered)."""
    out: list[Square] = []
    t = NEIGHBOURS[sq][edge]
    while t is not None and not in_telepad_row(t):
        out.append(t)
        t = NEIGHBOURS[t][edge]
    return tuple(out)


_RAYS: tuple[tuple[tuple[Square, ...], ...], ...] = tuple(
    tuple(_ray(sq, e) for e in EDGES) for sq in SQUARES)
# Per square, per edge: (the ray as a bitboard, whether it runs up the square numbers (north,
# east: its nearest occupied space is then the lowest bit set, else the highest), the ray, the
# edge index).
_RAY_BITS: tuple[tuple[tuple[int, bool, tuple[Square, ...], int], ...], ...] = tuple(
    tuple((sum(1 << t for t in ray), ei in (0, 2), ray, ei) for ei, ray in enumerate(rays))
    for rays in _RAYS)

# Shared Move values.
_POLE_KINDS = (PoleMoveKind.WALK, PoleMoveKind.TELEPORT, PoleMoveKind.ESCAPE)
_TELEPORT, _ESCAPE = 1, 2  # indices into _POLE_KINDS (walks come from _WALKS)
# A Port's spins (``sq << 2 | corner``), and its glides through each edge, corner kept, to each
# space of the ray (``(sq << 2 | corner) << 2 | edge``).
_PORT_SPINS: tuple[tuple[PortMove, ...], ...] = tuple(
    tuple(PortMove(sq, CORNERS[ci], sq, c) for c in CORNERS if c is not CORNERS[ci])
    for sq in SQUARES for ci in range(4))
_PORT_GLIDES: tuple[tuple[PortMove, ...], ...] = tuple(
    tuple(PortMove(sq, CORNERS[ci], t, CORNERS[ci]) for t in _RAYS[sq][ei])
    for sq in SQUARES for ci in range(4) for ei in range(4))
_POLE_CACHE: dict[int, PoleMove] = {}
_ONTO_CACHE: dict[int, tuple[PortMove, ...]] = {}
# Per square: its Pole's walk to each space one or two steps away (wrap-arounds included).
_WALKS: tuple[dict[Square, PoleMove], ...] = tuple(
    {t: PoleMove(PoleMoveKind.WALK, sq, t)
     for mid in _NEXT[sq << 4 | _ON_BOARD[sq]] for t in (mid, *_NEXT[mid << 4 | _ON_BOARD[mid]])
     if t != sq}
    for sq in SQUARES)
_PORT_CACHE: dict[int, PortMove] = {}
_TELEPORT_CACHE: dict[int, TeleportMove] = {}
_TELEPORT_GLIDE_CACHE: dict[int, tuple[TeleportMove, ...]] = {}
_NO_PAD, _REPEL, _BOUNCE, _VAULT = 0, 1, 2, 3


def _pole_move(kind: int, frm: Square, to: Square) -> PoleMove:
    key = (frm << 6 | to) << 2 | kind
    move = _POLE_CACHE.get(key)
    if move is None:
        move = _POLE_CACHE[key] = PoleMove(_POLE_KINDS[kind], frm, to)
    return move


def _port_move(frm: Square, ci: int, to: Square, fi: int, effect: int = _NO_PAD,
               where: Square = 0) -> PortMove:
    """PortMove(frm, CORNERS[ci], to, CORNERS[fi]) with ``effect`` (repel, bounce, vault)
    sending a piece to ``where``."""
    key = ((((frm << 2 | ci) << 6 | to) << 2 | fi) << 2 | effect) << 6 | where
    move = _PORT_CACHE.get(key)
    if move is None:
        move = _PORT_CACHE[key] = PortMove(
            frm, CORNERS[ci], to, CORNERS[fi],
            repel_to=where if effect == _REPEL else None,
            bounce_to=where if effect == _BOUNCE else None,
            vault_to=where if effect == _VAULT else None)
    return move


def _port_onto(key: int, to: Square) -> tuple[PortMove, ...]:
    """The Port ``key`` (``sq << 2 | corner``) glided to ``to``, ending in each corner."""
    moves = _ONTO_CACHE.get(key << 6 | to)
    if moves is None:
        moves = _ONTO_CACHE[key << 6 | to] = tuple(
            _port_move(key >> 2, key & 3, to, fi) for fi in range(4))
    return moves


def _teleport_move(kind: TeleportMoveKind, frm: Square, to: Square,
                   diagonal: Diagonal | None = None) -> TeleportMove:
    """A Teleport's spin (to ``diagonal``) or the sending of its Pole."""
    key = (frm << 6 | to) << 2 | (kind is TeleportMoveKind.SEND) << 1 | (
        diagonal is Diagonal.SWNE)
    move = _TELEPORT_CACHE.get(key)
    if move is None:
        move = _TELEPORT_CACHE[key] = TeleportMove(kind, frm, to, diagonal)
    return move


_CARRY_OPTIONS: tuple[tuple[bool, ...], ...] = ((False,), (True, False), (True,))


def _teleport_glides(sq: Square, ei: int, option: int) -> tuple[TeleportMove, ...]:
    """The Teleport's glides to each space of a ray, nearest first; per space one move for
    each choice in ``_CARRY_OPTIONS[option]`` (alone, or carrying its Pole)."""
    key = (sq << 2 | ei) << 2 | option
    moves = _TELEPORT_GLIDE_CACHE.get(key)
    if moves is None:
        moves = _TELEPORT_GLIDE_CACHE[key] = tuple(
            TeleportMove(TeleportMoveKind.GLIDE, sq, t, passenger=carry)
            for t in _RAYS[sq][ei] for carry in _CARRY_OPTIONS[option])
    return moves


@dataclass(frozen=True, slots=True)
class _Layout:
    """A variant's mat as ints, per side index (0 south, 1 north)."""

    home: tuple[tuple[Square, ...], tuple[Square, ...]]
    pads: tuple[tuple[tuple[Square, int], ...], tuple[tuple[Square, int], ...]]  # square, corner
    pad_side: dict[Square, int]
    wrap: int  # squares a Pole may wrap around from


_LAYOUTS: dict[int, tuple[Variant, _Layout]] = {}


def _layout(variant: Variant) -> _Layout:
    # Keyed by identity, holding the variant so the id stays its own: Variant hashes slowly.
    hit = _LAYOUTS.get(id(variant))
    if hit is not None and hit[0] is variant:
        return hit[1]
    if len(_LAYOUTS) > 64:
        _LAYOUTS.clear()
    sides = (Side.SOUTH, Side.NORTH)
    layout = _Layout(
        (variant.home(Side.SOUTH), variant.home(Side.NORTH)),
        (tuple((p.square, CORNERS.index(p.corner)) for p in variant.portpads_of(Side.SOUTH)),
         tuple((p.square, CORNERS.index(p.corner)) for p in variant.portpads_of(Side.NORTH))),
        {p.square: sides.index(p.side) for p in variant.portpads},
        _BOARD if variant.wrap_rows is WrapRows.ALL else _BOARD & ~(_RANK_1 | _RANK_8))
    _LAYOUTS[id(variant)] = (variant, layout)
    return layout


class _Board:
    """What generation reads of a position, worked out once per call."""

    __slots__ = ("occupied", "own_poles", "own_port_bits", "own_teleports", "pole_bits",
                 "port_squares", "walls")

    def __init__(self, pos: Position, side: Side) -> None:
        poles, ports = pos.poles, pos.ports
        pole_bits = 0
        own_poles: list[Square] = []
        for sq in compress(_SQUARE_RANGE, poles):
            pole_bits |= 1 << sq
            if poles[sq] is side:
                own_poles.append(sq)
        port_squares = list(compress(_SQUARE_RANGE, ports))
        wall_n = wall_s = wall_e = wall_w = port_bits = own_port_bits = 0
        own_teleports: list[Square] = []
        for sq in port_squares:
            bit = 1 << sq
            port_bits |= bit
            here = ports[sq]
            for corner, owner in here:
                if corner is Corner.SW:
                    wall_s |= bit
                    wall_w |= bit
                elif corner is Corner.SE:
                    wall_s |= bit
                    wall_e |= bit
                elif corner is Corner.NW:
                    wall_n |= bit
                    wall_w |= bit
                else:
                    wall_n |= bit
                    wall_e |= bit
                if owner is side:
                    own_port_bits |= bit
            if len(here) == 2 and here[0][1] is side and here[1][1] is side:
                own_teleports.append(sq)
        self.pole_bits = pole_bits
        self.occupied = pole_bits | port_bits
        self.own_poles = own_poles
        self.port_squares = port_squares
        self.own_port_bits = own_port_bits
        self.own_teleports = own_teleports
        self.walls = (wall_n, wall_s, wall_e, wall_w)

    def free_steps(self, wrap: int) -> tuple[int, int, int, int]:
        """Per edge, the squares a Pole can step out of through it, as exit_blockers judges:
        no wall on the edge crossed, no Pole on the next space, and for a wrap-around (from
        the squares in ``wrap``) no piece at all on the re-entry space."""
        wall_n, wall_s, wall_e, wall_w = self.walls
        poles, occupied = self.pole_bits, self.occupied
        north = _BOARD & ~_RANK_8 & ~(wall_n | (poles | wall_s) >> 8)
        south = _BOARD & ~_RANK_1 & ~(wall_s | (poles | wall_n) << 8)
        east = (_BOARD & ~_FILE_H & ~(wall_e | (poles | wall_w) >> 1)) | (
            _FILE_H & wrap & ~(wall_e | occupied << 7))
        west = (_BOARD & ~_FILE_A & ~(wall_w | (poles | wall_e) << 1)) | (
            _FILE_A & wrap & ~(wall_w | occupied >> 7))
        return north, south, east, west


# ----------------------------------------------------------------------------------------------
# Generation


def legal_moves(position: Position, turn: TurnState | None = None) -> list[Move]:
    """Every legal move of ``position.to_move`` given the markers already used this turn."""
    return _moves(position, turn or TurnState(), None)


def _moves(pos: Position, turn: TurnState, flt: MoveFilter | None) -> list[Move]:
    """Pole moves, then Port moves, then Teleport moves, each by square: seeded random play
    (and so every seeded test and benchmark position) depends on this order."""
    side = pos.to_move
    board = _Board(pos, side)
    layout = _layout(pos.variant)
    out: list[Move] = []
    if turn.pole_markers_left > 0:
        _pole_moves(pos, board, layout, side, turn, flt, out)
    if turn.port_markers_left > 0:
        _port_moves(pos, board, layout, side, turn, flt, out)
        _teleport_moves(pos, board, side, turn, flt, out)
    return out


def _pole_moves(pos: Position, board: _Board, layout: _Layout, side: Side, turn: TurnState,
                flt: MoveFilter | None, out: list[Move]) -> None:
    si = 0 if side is Side.SOUTH else 1
    home, goal = layout.home[si], layout.home[1 - si]
    poles = pos.poles
    free_home = [t for t in home if poles[t] is None]
    free_goal = [t for t in goal if poles[t] is None]
    open_teleports = [t for t in board.own_teleports if poles[t] is None]
    pole_sends = pos.variant.send_marker is not SendMarker.PORT
    north, south, east, west = board.free_steps(layout.wrap)
    pole_marks = turn.pole_marks
    own_ports = board.own_port_bits

    def keep(t: Square) -> bool:  # the filter: on target, or onto an own Port that may carry it
        return flt is not None and (t in flt.mover_poles or bool(own_ports >> t & 1))

    for sq in board.own_poles:
        if sq in pole_marks:
            continue
        # The same adds as walk_targets, in the same order, so the set iterates the same. No
        # second step comes back to ``sq``: the Pole still stands there and blocks it.
        walk: set[Square] = set()
        for mid in _NEXT[sq << 4 | (north >> sq & 1) | (south >> sq & 1) << 1
                         | (east >> sq & 1) << 2 | (west >> sq & 1) << 3]:
            walk.add(mid)
            walk.update(_NEXT[mid << 4 | (north >> mid & 1) | (south >> mid & 1) << 1
                              | (east >> mid & 1) << 2 | (west >> mid & 1) << 3])
        stuck = not walk  # no free first step: only then can the Pole be blockaded
        walks = _WALKS[sq]
        if flt is None:
            out.extend(map(walks.__getitem__, walk))
        else:
            out.extend(walks[t] for t in walk if keep(t))
        teleports: list[Square] = []
        if sq in home:
            teleports += free_home + open_teleports
        if sq in goal:
            teleports += free_goal + free_home + open_teleports
        if pole_sends and sq in board.own_teleports:
            teleports += open_teleports + free_home
        if stuck and free_home and blockaded(pos, sq):
            teleports += [-1, *free_home]  # -1: the escapes follow
        kind = _TELEPORT
        for t in teleports:
            if t < 0:
                kind = _ESCAPE
            elif t != sq and t not in walk:
                walk.add(t)
                if flt is None or keep(t):
                    out.append(_pole_move(kind, sq, t))


def _port_moves(pos: Position, board: _Board, layout: _Layout, side: Side, turn: TurnState,
                flt: MoveFilter | None, out: list[Move]) -> None:
    ports, poles = pos.ports, pos.poles
    occupied = board.occupied
    port_marks = turn.port_marks
    codes = flt.mover_port_codes if flt is not None else frozenset()
    si = 0 if side is Side.SOUTH else 1
    for sq in board.port_squares:
        here = ports[sq]
        for corner, owner in here:
            if owner is not side or (port_marks and (sq, corner) in port_marks):
                continue
            ci = CORNERS.index(corner)
            key = sq << 2 | ci
            if len(here) == 1:
                if flt is None:
                    out.extend(_PORT_SPINS[key])
                else:
                    out.extend(m for m in _PORT_SPINS[key]
                               if (sq << 2 | CORNERS.index(m.to_corner)) in codes)
            for ray_bits, up, ray, ei in _RAY_BITS[sq]:
                glides = _PORT_GLIDES[key << 2 | ei]
                hit = occupied & ray_bits
                if not hit:
                    stop = -1
                else:
                    # A glide passes only over empty spaces: it ends on the nearest occupied one.
                    stop = (hit & -hit).bit_length() - 1 if up else hit.bit_length() - 1
                    glides = glides[:ray.index(stop)]
                if flt is None:
                    out.extend(glides)
                else:
                    out.extend(g for g in glides if (g.to << 2 | ci) in codes)
                if stop < 0:
                    continue
                there = ports[stop]
                if not there:  # glide-and-spin onto a lone Pole: any final corner
                    onto = _port_onto(key, stop)
                    if flt is None:
                        out.extend(onto)
                    else:
                        out.extend(m for fi, m in enumerate(onto) if (stop << 2 | fi) in codes)
                elif len(there) == 1:
                    _onto_port(pos, layout, side, si, sq, ci, stop, poles[stop], flt, out)


def _onto_port(pos: Position, layout: _Layout, side: Side, si: int, frm: Square, ci: int,
               to: Square, pole: Side | None, flt: MoveFilter | None, out: list[Move]) -> None:
    """A glide onto a space with one Port (never onto a Teleport or a crowded space)."""
    ports = pos.ports
    other_corner, other_side = ports[to][0]
    if other_side is side:
        # Teleport creation: only the opposite corner leaves the walls apart.
        fi = 3 - CORNERS.index(other_corner)
        if pole is None and ci != fi:
            return
        # Kept even when off target: the new Teleport may glide on (explain checks that).
        if pole is side.opponent:
            for home in pos.free_home_telepads(pole):
                if flt is None or home in flt.other_poles:
                    out.append(_port_move(frm, ci, to, fi, _VAULT, home))
            return  # no free Home Telepad: the Teleport cannot close round that Pole
        out.append(_port_move(frm, ci, to, fi))
        return
    # Repel, or anti-repel when the other Port cannot or need not go home. A Portpad is free
    # when no Port stands on it once the gliding Port has left ``frm``.
    oi = 1 - si
    on_home = layout.pad_side.get(to) == oi
    free_other = [(p, pc) for p, pc in layout.pads[oi] if len(ports[p]) <= (p == frm)]
    if on_home or not free_other:
        for p, pc in layout.pads[si]:
            if len(ports[p]) <= (p == frm) and (
                flt is None or (p << 2 | pc) in flt.mover_port_codes
            ):
                out.append(_port_move(frm, ci, to, ci, _BOUNCE, p))
        return
    finals = range(4) if pole is not None else (ci,)
    for p, pc in free_other:
        if flt is not None and (p << 2 | pc) not in flt.other_port_codes:
            continue
        for fi in finals:
            if flt is None or (to << 2 | fi) in flt.mover_port_codes:
                out.append(_port_move(frm, ci, to, fi, _REPEL, p))


def _teleport_moves(pos: Position, board: _Board, side: Side, turn: TurnState,
                    flt: MoveFilter | None, out: list[Move]) -> None:
    poles, ports = pos.poles, pos.ports
    variant = pos.variant
    sends = variant.send_marker is not SendMarker.POLE
    always = variant.carry is Carry.ALWAYS
    occupied = board.occupied
    codes = flt.mover_port_codes if flt is not None else frozenset()
    for sq in board.own_teleports:
        if sq in turn.teleport_marks:
            continue
        diagonal = Diagonal.of(ports[sq][0][0])
        spun = diagonal.other
        if flt is None or any((sq << 2 | CORNERS.index(c)) in codes for c in spun.corners):
            out.append(_teleport_move(TeleportMoveKind.SPIN, sq, sq, spun))
        rider = poles[sq] is side
        option = (2 if always else 1) if rider else 0
        per_space = len(_CARRY_OPTIONS[option])
        walls = [CORNERS.index(c) for c in diagonal.corners]
        for ray_bits, up, ray, ei in _RAY_BITS[sq]:
            glides = _teleport_glides(sq, ei, option)
            hit = occupied & ray_bits
            if hit:  # a Teleport glides only to (and over) empty spaces
                stop = (hit & -hit).bit_length() - 1 if up else hit.bit_length() - 1
                glides = glides[:ray.index(stop) * per_space]
            if flt is None:
                out.extend(glides)
            else:
                out.extend(g for g in glides if any((g.to << 2 | c) in codes for c in walls))
        if sends and rider:
            targets = list(pos.free_home_telepads(side)) + [
                t for t in board.own_teleports if t != sq and poles[t] is None
            ]
            for t in targets:
                if flt is None or t in flt.mover_poles or pos.teleport_at(t) is side:
                    out.append(_teleport_move(TeleportMoveKind.SEND, sq, t))


# ----------------------------------------------------------------------------------------------
# Effects


def _with(here: PortsInSpace, add: tuple[Corner, Side] | None = None,
          remove: tuple[Corner, Side] | None = None) -> PortsInSpace:
    items = [cs for cs in here if cs != remove] if remove is not None else list(here)
    if add is not None:
        items.append(add)
    order = {c: i for i, c in enumerate(CORNERS)}
    return tuple(sorted(items, key=lambda cs: order[cs[0]]))


def _apply_port(pos: Position, move: PortMove, side: Side) -> Position:
    ports = list(pos.ports)
    poles = pos.poles
    variant = pos.variant
    ports[move.frm] = _with(ports[move.frm], remove=(move.corner, side))
    if move.bounce_to is not None:
        pad = variant.portpad_at(move.bounce_to)
        assert pad is not None
        ports[pad.square] = _with(ports[pad.square], add=(pad.corner, side))
        return pos.replace(ports=tuple(ports))
    if move.repel_to is not None:
        victim = next(cs for cs in ports[move.to] if cs[1] is not side)
        ports[move.to] = _with(ports[move.to], remove=victim)
        pad = variant.portpad_at(move.repel_to)
        assert pad is not None
        ports[pad.square] = _with(ports[pad.square], add=(pad.corner, victim[1]))
    ports[move.to] = _with(ports[move.to], add=(move.to_corner, side))
    if move.vault_to is not None:
        pole_list = list(poles)
        pole_list[move.vault_to] = pole_list[move.to]
        pole_list[move.to] = None
        poles = tuple(pole_list)
    return pos.replace(ports=tuple(ports), poles=poles)


def _apply_unchecked(pos: Position, move: Move) -> Position:
    side = pos.to_move
    if isinstance(move, PoleMove):
        poles = list(pos.poles)
        poles[move.to], poles[move.frm] = poles[move.frm], None
        return pos.replace(poles=tuple(poles))
    if isinstance(move, PortMove):
        return _apply_port(pos, move, side)
    if move.kind is TeleportMoveKind.SPIN:
        assert move.diagonal is not None
        ports = list(pos.ports)
        ports[move.frm] = tuple((c, side) for c in move.diagonal.corners)
        ports[move.frm] = _with(ports[move.frm])
        return pos.replace(ports=tuple(ports))
    poles = list(pos.poles)
    if move.kind is TeleportMoveKind.SEND:
        poles[move.to], poles[move.frm] = side, None
        return pos.replace(poles=tuple(poles))
    ports = list(pos.ports)
    ports[move.to], ports[move.frm] = ports[move.frm], ()
    if move.passenger:
        poles[move.to], poles[move.frm] = poles[move.frm], None
    return pos.replace(ports=tuple(ports), poles=tuple(poles))


_SPIN_MAP = {Corner.SW: Corner.NW, Corner.NW: Corner.NE, Corner.NE: Corner.SE,
             Corner.SE: Corner.SW}


def _next_turn(pos: Position, move: Move, turn: TurnState) -> TurnState:
    moves = (*turn.moves, move)
    if isinstance(move, PoleMove):
        return TurnState((*turn.pole_marks, move.to), turn.port_marks, turn.teleport_marks,
                         moves)
    if isinstance(move, PortMove):
        if move.bounce_to is not None:
            pad = pos.variant.portpad_at(move.bounce_to)
            assert pad is not None
            mark = (pad.square, pad.corner)
        else:
            mark = (move.to, move.to_corner)
        return TurnState(turn.pole_marks, (*turn.port_marks, mark), turn.teleport_marks, moves)
    sq = move.frm
    pole_marks, port_marks = turn.pole_marks, turn.port_marks
    if move.kind is TeleportMoveKind.SPIN:
        # Which Port went where is invisible; with two Port markers it never matters again.
        port_marks = tuple((s, _SPIN_MAP[c]) if s == sq else (s, c) for s, c in port_marks)
        return TurnState(pole_marks, port_marks, (*turn.teleport_marks, sq), moves)
    if move.kind is TeleportMoveKind.SEND or move.passenger:
        pole_marks = tuple(move.to if s == sq else s for s in pole_marks)
    if move.kind is TeleportMoveKind.SEND:
        return TurnState(pole_marks, port_marks, (*turn.teleport_marks, sq), moves)
    port_marks = tuple((move.to, c) if s == sq else (s, c) for s, c in port_marks)
    return TurnState(pole_marks, port_marks, (*turn.teleport_marks, move.to), moves)


def successors(
    pos: Position, turn: TurnState, flt: MoveFilter | None = None
) -> Iterator[tuple[Move, Position, TurnState]]:
    """Each legal move with the position and turn state it leads to."""
    for move in _moves(pos, turn, flt):
        yield move, _apply_unchecked(pos, move), _next_turn(pos, move, turn)


def play(position: Position, move: Move, turn: TurnState | None = None
         ) -> tuple[Position, TurnState]:
    """Make ``move`` if it is legal now; raise :class:`MoveError` naming it if not."""
    turn = turn or TurnState()
    if move not in set(_moves(position, turn, None)):
        raise MoveError(f"{move.notation()} is not legal for {position.to_move.value} here")
    return _apply_unchecked(position, move), _next_turn(position, move, turn)


def apply(position: Position, move: Move, turn: TurnState | None = None) -> Position:
    """The position after a legal ``move`` (checked against ``turn``'s markers)."""
    return play(position, move, turn)[0]


def end_turn(position: Position) -> Position:
    """Hand the move to the other side."""
    return position.replace(to_move=position.to_move.opponent)
