"""The straightforward Teleporters move generator, kept as the reference for the fast one.

This is the generation part of ``companion/rules/teleporters/movegen.py`` as it was before it
moved to bitboards and precomputed tables: every rule sentence as a plain loop over squares
and edges.
``test_teleporters_movegen.py`` checks the fast generator yields the same moves, in the same
order, on random positions. The walking geometry (``walk_targets``, ``surrounded``) and the
effects (``_apply_port``) are shared: they did not change.
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.rules.teleporters.board import (
    CORNERS,
    EDGES,
    NEIGHBOURS,
    Carry,
    Corner,
    SendMarker,
    Side,
    Square,
    in_telepad_row,
)
from companion.rules.teleporters.movegen import (
    MoveFilter,
    _apply_port,
    surrounded,
    walk_targets,
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
# Blockade


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
