"""Legal moves of the side to move, and what each move does to the position and the turn.

Every rule of the book's "Pole movements", "Port movements" and "Teleport movements" lives
here; docs/rules/teleporters.md gives the sentence each one reads and the choices made.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from companion.rules.errors import MoveError
from companion.rules.teleporters.board import (
    CORNERS,
    EDGES,
    NEIGHBOURS,
    Carry,
    Corner,
    Edge,
    SendMarker,
    Side,
    Square,
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
    for move in _port_moves(pos, side, TurnState(), None):
        if move.repel_to is None and move.vault_to is None:
            continue
        if not surrounded(_apply_port(pos, move, side), sq):
            return False
    return True


# ----------------------------------------------------------------------------------------------
# Pruning filter used by explain(): a necessary condition on where moved pieces end up.


@dataclass(frozen=True, slots=True)
class MoveFilter:
    """Squares and placements of the position a search is heading for."""

    mover_poles: frozenset[Square]
    mover_ports: frozenset[tuple[Square, Corner]]
    other_poles: frozenset[Square]
    other_ports: frozenset[tuple[Square, Corner]]


# ----------------------------------------------------------------------------------------------
# Generation


def legal_moves(position: Position, turn: TurnState | None = None) -> list[Move]:
    """Every legal move of ``position.to_move`` given the markers already used this turn."""
    return list(_moves(position, turn or TurnState(), None))


def _moves(pos: Position, turn: TurnState, flt: MoveFilter | None) -> Iterator[Move]:
    side = pos.to_move
    yield from _pole_moves(pos, side, turn, flt)
    if turn.port_markers_left > 0:
        yield from _port_moves(pos, side, turn, flt)
        yield from _teleport_moves(pos, side, turn, flt)


def _own_port(here: PortsInSpace, side: Side) -> bool:
    return any(s is side for _, s in here)


def _pole_moves(
    pos: Position, side: Side, turn: TurnState, flt: MoveFilter | None
) -> Iterator[PoleMove]:
    if turn.pole_markers_left <= 0:
        return
    variant = pos.variant
    home, goal = variant.home(side), variant.goal(side)
    poles = pos.poles
    free_home = [t for t in home if poles[t] is None]
    free_goal = [t for t in goal if poles[t] is None]
    open_teleports = [t for t, _ in pos.teleports(side) if poles[t] is None]
    pole_sends = variant.send_marker is not SendMarker.PORT
    for sq in range(64):
        if poles[sq] is not side or sq in turn.pole_marks:
            continue
        dests: dict[Square, PoleMoveKind] = {}
        for t in walk_targets(pos, sq):
            dests[t] = PoleMoveKind.WALK
        teleports: list[Square] = []
        if sq in home:
            teleports += free_home + open_teleports
        if sq in goal:
            teleports += free_goal + free_home + open_teleports
        if pole_sends and pos.teleport_at(sq) is side:
            teleports += open_teleports + free_home
        for t in teleports:
            if t != sq:
                dests.setdefault(t, PoleMoveKind.TELEPORT)
        if free_home and blockaded(pos, sq):
            for t in free_home:
                dests.setdefault(t, PoleMoveKind.ESCAPE)
        for t, kind in dests.items():
            if flt is None or t in flt.mover_poles or _own_port(pos.ports[t], side):
                yield PoleMove(kind, sq, t)


def _occupied_after_lift(pos: Position, pad_sq: Square, lifted: Square) -> bool:
    """Whether a Port stands on ``pad_sq`` once the gliding Port has left ``lifted``."""
    here = pos.ports[pad_sq]
    return len(here) > (1 if pad_sq == lifted else 0)


def _port_moves(
    pos: Position, side: Side, turn: TurnState, flt: MoveFilter | None
) -> Iterator[PortMove]:
    ports, poles = pos.ports, pos.poles
    for sq in range(64):
        here = ports[sq]
        for corner, owner in here:
            if owner is not side or (sq, corner) in turn.port_marks:
                continue
            if len(here) == 1:
                for c2 in CORNERS:
                    if c2 is not corner and (flt is None or (sq, c2) in flt.mover_ports):
                        yield PortMove(sq, corner, sq, c2)
            for edge in EDGES:
                t = NEIGHBOURS[sq][edge]
                while t is not None and not in_telepad_row(t):
                    yield from _glide_outcomes(pos, side, sq, corner, t, flt)
                    if poles[t] is not None or ports[t]:
                        break  # a glide passes only over empty spaces
                    t = NEIGHBOURS[t][edge]


def _glide_outcomes(
    pos: Position, side: Side, frm: Square, corner: Corner, to: Square, flt: MoveFilter | None
) -> Iterator[PortMove]:
    pole = pos.poles[to]
    there = pos.ports[to]
    variant = pos.variant
    if not there:
        finals = CORNERS if pole is not None else (corner,)  # glide-and-spin onto a Pole
        for final in finals:
            if flt is None or (to, final) in flt.mover_ports:
                yield PortMove(frm, corner, to, final)
        return
    if len(there) == 2:
        return  # never onto a Teleport (or a crowded space)
    other_corner, other_side = there[0]
    if other_side is side:
        # Teleport creation: only the opposite corner leaves the walls apart.
        final = other_corner.opposite
        if pole is None and corner is not final:
            return
        # Kept even when off target: the new Teleport may glide on (explain checks that).
        if pole is side.opponent:
            for home in pos.free_home_telepads(pole):
                if flt is None or home in flt.other_poles:
                    yield PortMove(frm, corner, to, final, vault_to=home)
            return  # no free Home Telepad: the Teleport cannot close round that Pole
        yield PortMove(frm, corner, to, final)
        return
    # Repel, or anti-repel when the other Port cannot or need not go home.
    pad = variant.portpad_at(to)
    on_home = pad is not None and pad.side is other_side
    free_other = [p for p in variant.portpads_of(other_side)
                  if not _occupied_after_lift(pos, p.square, frm)]
    if on_home or not free_other:
        for p in variant.portpads_of(side):
            if not _occupied_after_lift(pos, p.square, frm) and (
                flt is None or (p.square, p.corner) in flt.mover_ports
            ):
                yield PortMove(frm, corner, to, corner, bounce_to=p.square)
        return
    finals = CORNERS if pole is not None else (corner,)
    for p in free_other:
        if flt is not None and (p.square, p.corner) not in flt.other_ports:
            continue
        for final in finals:
            if flt is None or (to, final) in flt.mover_ports:
                yield PortMove(frm, corner, to, final, repel_to=p.square)


def _teleport_moves(
    pos: Position, side: Side, turn: TurnState, flt: MoveFilter | None
) -> Iterator[TeleportMove]:
    poles, ports = pos.poles, pos.ports
    variant = pos.variant
    sends = variant.send_marker is not SendMarker.POLE
    for sq, diagonal in list(pos.teleports(side)):
        if sq in turn.teleport_marks:
            continue
        spun = diagonal.other
        if flt is None or any((sq, c) in flt.mover_ports for c in spun.corners):
            yield TeleportMove(TeleportMoveKind.SPIN, sq, sq, spun)
        rider = poles[sq] is side
        options = (True,) if rider and variant.carry is Carry.ALWAYS else (
            (True, False) if rider else (False,))
        for edge in EDGES:
            t = NEIGHBOURS[sq][edge]
            while t is not None and not in_telepad_row(t):
                if poles[t] is not None or ports[t]:
                    break  # a Teleport glides only to (and over) empty spaces
                if flt is None or any((t, c) in flt.mover_ports for c in diagonal.corners):
                    for carry in options:
                        yield TeleportMove(TeleportMoveKind.GLIDE, sq, t, passenger=carry)
                t = NEIGHBOURS[t][edge]
        if sends and rider:
            targets = list(pos.free_home_telepads(side)) + [
                t for t, _ in pos.teleports(side) if t != sq and poles[t] is None
            ]
            for t in targets:
                if flt is None or t in flt.mover_poles or pos.teleport_at(t) is side:
                    yield TeleportMove(TeleportMoveKind.SEND, sq, t)


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
