"""``explain(turn_start, observed)``: which legal moves of one turn lead to what the camera sees.

The search is an iterative-deepening depth-first search over the turn's at most four moves,
made small by three facts of the rules (docs/rules/teleporters.md, "How explain searches"):

* a piece moves at most once on its own, so every moved piece must end where the observed
  position has a piece of its kind, unless a Teleport can still carry it (generation filter
  and :func:`_marks_consistent`);
* a move fixes at most one Pole, one Port plus one opponent piece, or a Teleport's two Ports
  plus its Pole, which gives a lower bound on the moves still needed (:func:`_lower_bound`);
* positions reached by the same moves in another order are the same node (memo).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules.common import (
    Clause,
    Judgement,
    describe_illegal,
    in_order_once,
    violation_json,
)
from companion.rules.teleporters.board import (
    EDGES,
    NEIGHBOURS,
    Corner,
    Edge,
    Side,
    Square,
    in_telepad_row,
    square_file,
    square_name,
    square_rank,
    wrap_square,
)
from companion.rules.teleporters.movegen import (
    MoveFilter,
    _apply_unchecked,
    _next_turn,
    blockaded,
    exit_blockers,
    legal_moves,
    successors,
    surrounded,
)
from companion.rules.teleporters.moves import (
    Marker,
    Move,
    PoleMove,
    PortMove,
    TeleportMove,
    TeleportMoveKind,
    TurnState,
)
from companion.rules.teleporters.position import Placement, Position

MAX_ALTERNATIVES = 3  # distinct move sets kept per search node


class Rule(Clause):
    """The rule-book clause a change breaks, as ``(id, clause heading)``."""

    PIECE_COUNT = ("piece-count", "Game pieces")
    PORT_IN_TELEPAD_ROW = ("ports-stay-off-telepad-rows", "Port movements")
    ONLY_MOVER_MOVES = ("only-the-side-to-move-moves", "Taking turns")
    REPEL_NOT_DONE = ("repel", "Repel")
    VAULT_NOT_DONE = ("pole-vault", "The Pole Vault")
    POLE_WALK_DISTANCE = ("walk-one-or-two-spaces", "Walking")
    POLE_BLOCKED_BY_POLE = ("walk-no-pole-passed-or-shared", "Walking")
    POLE_BLOCKED_BY_WALL = ("walk-not-through-walls", "Walking")
    WRAP_BLOCKED = ("wrap-around-reentry-free", "Wrap-around")
    TELEPORT_TO_GOAL = ("never-teleport-to-goal", "Teleporting")
    NO_TELEPORT_ROUTE = ("teleport-routes", "Teleporting")
    NOT_BLOCKADED = ("blockade-escape", "Blockade escape")
    PORT_SPIN = ("port-spin", "Spin")
    PORT_GLIDE_STRAIGHT = ("glide-straight", "Glide")
    PORT_GLIDE_BLOCKED = ("glide-unobstructed", "Glide")
    PORT_GLIDE_ORIENTATION = ("glide-keeps-orientation", "Glide and Spin")
    PORT_LANDING = ("glide-landing", "Glide")
    TELEPORT_GLIDE = ("teleport-glide", "Teleport movements")
    POLE_MARKERS = ("two-pole-markers", "Taking turns")
    PORT_MARKERS = ("two-port-markers", "Taking turns")
    MOVED_TWICE = ("no-piece-moves-twice", "Taking turns")
    UNEXPLAINED = ("no-legal-sequence", "Taking turns")


@dataclass(frozen=True, slots=True)
class Violation:
    """One change no legal move explains: the rule it breaks, where, in plain words."""

    rule: Rule
    squares: tuple[Square, ...]
    message: str

    def to_json(self) -> dict[str, Any]:
        return violation_json(self, "squares", self.squares, square_name)


@dataclass(frozen=True, slots=True)
class Explanation(Judgement):
    legal: bool
    moves: tuple[Move, ...] = ()
    turn: TurnState = field(default_factory=TurnState)
    alternatives: tuple[tuple[Move, ...], ...] = ()  # other shortest move sets
    violations: tuple[Violation, ...] = ()
    winner: Side | None = None



    @property
    def squares(self) -> tuple[Square, ...]:
        """The spaces to light: offending ones when illegal, touched ones when legal."""
        return in_order_once((v.squares for v in self.violations) if not self.legal
                             else (m.squares() for m in self.moves))

    def markers(self) -> dict[str, int]:
        return {"pole_used": len(self.turn.pole_marks),
                "port_used": len(self.turn.port_marks) + len(self.turn.teleport_marks)}

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"legal": self.legal}
        if self.legal:
            doc["moves"] = [m.notation() for m in self.moves]
            doc["markers"] = self.markers()
            doc["turn"] = self.turn.to_json()
            doc["ambiguous"] = self.ambiguous
            doc["alternatives"] = [[m.notation() for m in alt] for alt in self.alternatives]
            doc["winner"] = self.winner.value if self.winner else None
        else:
            doc["reason"] = self.violations[0].to_json()
            doc["violations"] = [v.to_json() for v in self.violations]
            doc["squares"] = [square_name(s) for s in self.squares]
        return doc

    def describe(self) -> str:
        if not self.legal:
            return describe_illegal(self.violations)
        if not self.moves:
            return "legal: no change since the turn started"
        mk = self.markers()
        lines = [f"legal: {' '.join(m.notation() for m in self.moves)}",
                 f"  markers used: {mk['pole_used']}/2 Pole, {mk['port_used']}/2 Port"]
        for alt in self.alternatives:
            lines.append(f"  or: {' '.join(m.notation() for m in alt)}")
        if self.winner:
            lines.append(f"  {self.winner.value} wins: all four Poles on their Goal Telepads")
        return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# Search


class _Target:
    __slots__ = ("board", "flt", "mover", "o_poles_fixable", "o_ports_fixable")

    def __init__(self, observed: Position, mover: Side) -> None:
        self.board = observed.board_key()
        self.mover = mover
        other = mover.opponent
        self.flt = MoveFilter(
            observed.pole_squares(mover),
            frozenset((p.square, p.corner) for p in observed.placements(mover)),
            observed.pole_squares(other),
            frozenset((p.square, p.corner) for p in observed.placements(other)),
        )
        variant = observed.variant
        # The opponent's pieces only ever move home: a vaulted Pole, a repelled Port.
        self.o_poles_fixable = frozenset(variant.home(other))
        self.o_ports_fixable = frozenset((p.square, p.corner) for p in variant.portpads_of(other))


def _pieces(pos: Position, side: Side) -> tuple[set[Square], set[tuple[Square, Corner]]]:
    poles = {sq for sq, s in enumerate(pos.poles) if s is side}
    ports = {(sq, c) for sq, here in enumerate(pos.ports) for c, s in here if s is side}
    return poles, ports


_DEAD = 99


def _lower_bound(pos: Position, turn: TurnState, tgt: _Target) -> int:
    mover, other = tgt.mover, tgt.mover.opponent
    m_poles, m_ports = _pieces(pos, mover)
    o_poles, o_ports = _pieces(pos, other)
    flt = tgt.flt
    pole_miss = len(flt.mover_poles - m_poles)
    port_miss = len(flt.mover_ports - m_ports)
    o_pole_miss = flt.other_poles - o_poles
    o_port_miss = flt.other_ports - o_ports
    if not o_pole_miss <= tgt.o_poles_fixable or not o_port_miss <= tgt.o_ports_fixable:
        return _DEAD
    need_port = max((port_miss + 1) // 2, len(o_pole_miss) + len(o_port_miss))
    port_left = turn.port_markers_left
    if need_port > port_left or pole_miss > turn.pole_markers_left + port_left:
        return _DEAD
    return max(need_port, pole_miss)


def _marks_consistent(pos: Position, turn: TurnState, tgt: _Target) -> bool:
    """Every piece that used a marker is where the observed position wants it, or can still be
    carried there by a Teleport that has not moved (it cannot move on its own again)."""
    mover = tgt.mover
    flt = tgt.flt
    port_left = turn.port_markers_left
    for sq in turn.pole_marks:
        if sq in flt.mover_poles:
            continue
        if pos.teleport_at(sq) is mover and sq not in turn.teleport_marks and port_left >= 1:
            continue
        if any(s is mover for _, s in pos.ports[sq]) and port_left >= 2:
            continue  # a second Port may close a Teleport round it, which then glides
        return False
    for sq, corner in turn.port_marks:
        if (sq, corner) in flt.mover_ports:
            continue
        if pos.teleport_at(sq) is mover and sq not in turn.teleport_marks and port_left >= 1:
            continue
        return False
    for sq in turn.teleport_marks:
        off = [c for c, s in pos.ports[sq] if s is mover and (sq, c) not in flt.mover_ports]
        if len(off) > min(port_left, 1):
            return False  # only one of its Ports can still leave, and only with a marker
    return True


def _search(pos: Position, turn: TurnState, depth: int, tgt: _Target,
            memo: dict[Any, list[tuple[Move, ...]]]) -> list[tuple[Move, ...]]:
    if pos.board_key() == tgt.board:
        return [()]
    if depth == 0:
        return []
    key = (pos.board_key(), turn.key(), depth)
    hit = memo.get(key)
    if hit is not None:
        return hit
    found: dict[frozenset[Move], tuple[Move, ...]] = {}
    if _lower_bound(pos, turn, tgt) <= depth:
        for move, npos, nturn in successors(pos, turn, tgt.flt):
            if not _marks_consistent(npos, nturn, tgt):
                continue
            for suffix in _search(npos, nturn, depth - 1, tgt, memo):
                seq = (move, *suffix)
                found.setdefault(frozenset(seq), seq)
            if len(found) > MAX_ALTERNATIVES:
                break
    result = list(found.values())
    memo[key] = result
    return result


def explain(turn_start: Position, observed: Position, turn: TurnState | None = None,
            *, full_set: bool = True) -> Explanation:
    """A shortest legal explanation of ``observed`` from ``turn_start`` within one turn.

    ``turn_start.to_move`` is the side whose turn it is; ``turn`` the markers it had already
    used at ``turn_start`` (default: none, the start of the turn). Same-colour Poles (and
    Ports) are interchangeable: only where pieces stand counts. With ``full_set`` (a real
    game), a turn that starts without each side's four Poles and four Ports is illegal
    whatever happens next; rule exercises on a sparse board turn it off.
    """
    turn = turn or TurnState()
    mover = turn_start.to_move
    observed = observed.replace(to_move=mover, variant=turn_start.variant)
    if full_set:
        short = _short_set(turn_start)
        if short:
            return Explanation(False, violations=tuple(short))
    if turn_start.same_board(observed):
        return Explanation(True, (), turn, winner=observed.winner())
    static = _static_violations(turn_start, observed)
    if static:
        return Explanation(False, violations=tuple(static))
    tgt = _Target(observed, mover)
    memo: dict[Any, list[tuple[Move, ...]]] = {}
    budget = turn.pole_markers_left + turn.port_markers_left
    for depth in range(1, budget + 1):
        found = _search(turn_start, turn, depth, tgt, memo)
        if found:
            best = min(found, key=_canonical_order)
            end_turn, pos = turn, turn_start
            for move in best:  # legal already: the search found them
                pos, end_turn = _apply_unchecked(pos, move), _next_turn(pos, move, end_turn)
            alts = tuple(seq for seq in found if frozenset(seq) != frozenset(best))
            return Explanation(True, best, end_turn, alts, winner=observed.winner())
    return Explanation(False, violations=tuple(_diagnose(turn_start, observed, turn, tgt)))


def _canonical_order(seq: tuple[Move, ...]) -> tuple[str, ...]:
    return tuple(m.notation() for m in seq)


# ----------------------------------------------------------------------------------------------
# Diagnosis of an illegal change


PIECES_PER_SIDE = 4  # "Game pieces": 4 Poles and 4 Ports of each colour


def _short_set(start: Position) -> list[Violation]:
    out = []
    for side in Side:
        for kind, n in (("Pole", len(start.pole_squares(side))),
                        ("Port", len(start.placements(side)))):
            if n != PIECES_PER_SIDE:
                out.append(Violation(
                    Rule.PIECE_COUNT, (),
                    f"the turn started with {n} {side.value} {kind}s on the mat, not "
                    f"{PIECES_PER_SIDE}: a piece was knocked off or added before this turn; "
                    "set the board right (or accept it as a correction)"))
    return out


def _count_violations(start: Position, observed: Position) -> list[Violation]:
    out = []
    for side in Side:
        for kind, was, now in (
            ("Pole", list(start.pole_squares(side)), list(observed.pole_squares(side))),
            ("Port", [p.square for p in start.placements(side)],
             [p.square for p in observed.placements(side)]),
        ):
            n_before, n_after = len(was), len(now)  # two Ports may share a square
            before, after = set(was), set(now)
            if n_after < n_before:
                gone = tuple(sorted(before - after))
                where = ", ".join(square_name(s) for s in gone)
                out.append(Violation(Rule.PIECE_COUNT, gone,
                                     f"{n_before - n_after} {side.value} {kind}(s) missing "
                                     f"(seen {n_after}, {n_before} at the start of the turn; "
                                     f"last seen on {where or '?'}): put it back"))
            elif n_after > n_before:
                new = tuple(sorted(after - before))
                where = ", ".join(square_name(s) for s in new)
                out.append(Violation(Rule.PIECE_COUNT, new,
                                     f"{n_after - n_before} extra {side.value} {kind}(s) on "
                                     f"{where or '?'} (seen {n_after}, {n_before} at the start "
                                     "of the turn): pieces never enter play"))
    return out


def _static_violations(start: Position, observed: Position) -> list[Violation]:
    out = _count_violations(start, observed)
    if out:
        return out
    mover, other = start.to_move, start.to_move.opponent
    for sq, here in enumerate(observed.ports):
        if here and in_telepad_row(sq) and here != start.ports[sq]:
            out.append(Violation(Rule.PORT_IN_TELEPAD_ROW, (sq,),
                                 f"a Port on {square_name(sq)}: Ports never enter the Telepad "
                                 "rows (1 and 8)"))
        if len(here) == 2 and here[0][1] is not here[1][1] and here != start.ports[sq]:
            out.append(Violation(Rule.REPEL_NOT_DONE, (sq,),
                                 f"two colours of Port share {square_name(sq)}: the incoming "
                                 "Port repels the other one to its Portpad (or bounces home)"))
        if ((observed.teleport_at(sq) is mover and observed.poles[sq] is other
                and start.poles[sq] is not other) or (
                    observed.teleport_at(sq) is mover and observed.poles[sq] is other
                    and start.teleport_at(sq) is not mover)):
            out.append(Violation(Rule.VAULT_NOT_DONE, (sq,),
                                 f"{other.value}'s Pole is boxed in {mover.value}'s Teleport on "
                                 f"{square_name(sq)}: it vaults at once to a {other.value} Home "
                                 "Telepad"))
    # The opponent's pieces move only home, as side effects of the mover's Port moves.
    o_before, o_after = start.pole_squares(other), observed.pole_squares(other)
    home = set(start.variant.home(other))
    strays = sorted((o_after - o_before) - home)
    if strays:
        gone = sorted(o_before - o_after)
        out.append(Violation(Rule.ONLY_MOVER_MOVES, tuple(gone + strays),
                             f"{other.value}'s Pole moved from "
                             f"{', '.join(square_name(s) for s in gone) or '?'} to "
                             f"{', '.join(square_name(s) for s in strays)} during "
                             f"{mover.value}'s turn: only {mover.value} moves now"))
    p_before = {(p.square, p.corner) for p in start.placements(other)}
    p_after = {(p.square, p.corner) for p in observed.placements(other)}
    pads = {(p.square, p.corner) for p in start.variant.portpads_of(other)}
    stray_ports = sorted((p_after - p_before) - pads, key=lambda x: (x[0], x[1].value))
    if stray_ports:
        gone_ports = sorted(p_before - p_after, key=lambda x: (x[0], x[1].value))
        squares = tuple(dict.fromkeys([s for s, _ in gone_ports] + [s for s, _ in stray_ports]))
        out.append(Violation(Rule.ONLY_MOVER_MOVES, squares,
                             f"{other.value}'s Port moved to "
                             f"{', '.join(square_name(s) + c.value for s, c in stray_ports)} "
                             f"during {mover.value}'s turn: only {mover.value} moves now "
                             "(a repelled Port goes to its start corner on a Portpad)"))
    return out


def _mismatch(a: Position, b: Position) -> int:
    return sum(1 for sq in range(64)
               if a.poles[sq] is not b.poles[sq] or a.ports[sq] != b.ports[sq])


def _best_partial(start: Position, turn: TurnState, tgt: _Target, observed: Position
                  ) -> tuple[Position, TurnState]:
    """The position closest to ``observed`` that legal moves within the budget reach.

    Closeness counts the spaces still different plus one for every move that touches a space
    the player did not change: a detour through untouched pieces that only shifts the
    difference elsewhere explains less than leaving the offending piece as the residue.
    """
    changed = {sq for sq in range(64) if start.poles[sq] is not observed.poles[sq]
               or start.ports[sq] != observed.ports[sq]}

    def cost(pos: Position, detours: int) -> int:
        return _mismatch(pos, observed) + detours

    best = (cost(start, 0), 0, start, turn)
    seen: set[Any] = set()
    stack = [(start, turn, 0)]
    while stack:
        pos, tn, detours = stack.pop()
        key = (pos.board_key(), tn.key())
        if key in seen:
            continue
        seen.add(key)
        score = (cost(pos, detours), len(tn.moves))
        if score < best[:2]:
            best = (score[0], score[1], pos, tn)
        if len(seen) > 20000:
            break
        for move, npos, nturn in successors(pos, tn, tgt.flt):
            detour = any(sq not in changed for sq in move.squares())
            stack.append((npos, nturn, detours + detour))
    return best[2], best[3]


def _diagnose(start: Position, observed: Position, turn: TurnState, tgt: _Target
              ) -> list[Violation]:
    mover = start.to_move
    reached, rturn = _best_partial(start, turn, tgt, observed)
    out: list[Violation] = []
    m_src, m_dst = reached.pole_squares(mover), observed.pole_squares(mover)
    for a, b in _pair(sorted(m_src - m_dst), sorted(m_dst - m_src)):
        out.append(_diagnose_pole(reached, rturn, a, b))
    r_ports = {(p.square, p.corner) for p in reached.placements(mover)}
    o_ports = {(p.square, p.corner) for p in observed.placements(mover)}
    src_ports = sorted(r_ports - o_ports, key=lambda x: (x[0], x[1].value))
    dst_ports = sorted(o_ports - r_ports, key=lambda x: (x[0], x[1].value))
    out.extend(_diagnose_ports(reached, rturn, src_ports, dst_ports))
    if not out:
        changed = tuple(sq for sq in range(64) if reached.poles[sq] is not observed.poles[sq]
                        or reached.ports[sq] != observed.ports[sq])
        out.append(Violation(Rule.UNEXPLAINED, changed,
                             "no legal sequence of at most 2 Pole and 2 Port/Teleport moves "
                             f"leads here; spaces that differ: "
                             f"{', '.join(square_name(s) for s in changed)}"))
    return out


def _distance(a: Square, b: Square) -> int:
    return abs(square_file(a) - square_file(b)) + abs(square_rank(a) - square_rank(b))


def _pair(src: list[Any], dst: list[Any]) -> list[tuple[Any, Any]]:
    """Greedy nearest pairing of where pieces vanished with where pieces appeared."""
    def sq(x: Any) -> Square:
        return x if isinstance(x, int) else x[0]

    pairs = []
    dst = list(dst)
    for a in src:
        if not dst:
            break
        b = min(dst, key=lambda d: _distance(sq(a), sq(d)))
        dst.remove(b)
        pairs.append((a, b))
    return pairs


def _walk_distance(pos: Position, a: Square, b: Square) -> int:
    """Steps from a to b on an empty mat (wrap-around included where the variant allows)."""
    frontier, seen = {a}, {a}
    for d in range(1, 16):
        nxt = set()
        for s in frontier:
            for e in EDGES:
                t = NEIGHBOURS[s][e]
                if t is None and pos.variant.may_wrap(s):
                    t = wrap_square(s, e)
                if t is not None and t not in seen:
                    nxt.add(t)
        if b in nxt:
            return d
        seen |= nxt
        frontier = nxt
    return 99


def _budget_violation(pos: Position, turn: TurnState, move_ok: bool, moved_here: bool,
                      marker: Marker, squares: tuple[Square, ...], what: str
                      ) -> Violation | None:
    if not move_ok:
        return None
    if moved_here:
        return Violation(Rule.MOVED_TWICE, squares,
                         f"{what}: that piece already moved this turn (no piece moves twice)")
    left = turn.pole_markers_left if marker is Marker.POLE else turn.port_markers_left
    if left <= 0:
        rule = Rule.POLE_MARKERS if marker is Marker.POLE else Rule.PORT_MARKERS
        kind = "Pole" if marker is Marker.POLE else "Port"
        return Violation(rule, squares,
                         f"{what}: both {kind} markers are already used (a turn has two "
                         f"{kind} moves)")
    return None


def _diagnose_pole(pos: Position, turn: TurnState, a: Square, b: Square) -> Violation:
    side = pos.to_move
    variant = pos.variant
    what = f"{side.value} Pole {square_name(a)} to {square_name(b)}"
    # Legal on a fresh turn: then only the markers (or moving twice) stand in the way.
    for m in legal_moves(pos):
        if isinstance(m, PoleMove) and (m.frm, m.to) == (a, b):
            budget = _budget_violation(pos, turn, True, a in turn.pole_marks, Marker.POLE,
                                       (a, b), what)
        elif (isinstance(m, TeleportMove) and m.kind is TeleportMoveKind.SEND
              and (m.frm, m.to) == (a, b)):
            budget = _budget_violation(pos, turn, True, a in turn.teleport_marks,
                                       Marker.PORT, (a, b), what + " (sent by its Teleport)")
        else:
            continue
        if budget:
            return budget
    dist = _walk_distance(pos, a, b)
    if dist <= 2:
        blocker = _walk_blocker(pos, a, b)
        if blocker is not None:
            return blocker
    home, goal = variant.home(side), variant.goal(side)
    if b in goal and a not in goal:
        return Violation(Rule.TELEPORT_TO_GOAL, (a, b),
                         f"{what}: too far to walk, and a Pole may never teleport to a Goal "
                         "Telepad (it must walk in, or teleport from another Goal Telepad)")
    in_teleport = pos.teleport_at(a) is side
    if pos.teleport_at(b) is side.opponent:
        return Violation(Rule.NO_TELEPORT_ROUTE, (a, b),
                         f"{what}: a Pole teleports only into a Teleport of its own colour, "
                         f"and the one on {square_name(b)} is {side.opponent.value}'s")
    if b in home or pos.teleport_at(b) is side:
        if pos.poles[b] is not None:
            return Violation(Rule.POLE_BLOCKED_BY_POLE, (a, b),
                             f"{what}: {square_name(b)} is taken")
        if a not in home and a not in goal and not in_teleport:
            if surrounded(pos, a) and not blockaded(pos, a):
                return Violation(Rule.NOT_BLOCKADED, (a, b),
                                 f"{what}: the Pole is surrounded but not truly blockaded (a "
                                 f"{side.value} Port move could repel or vault a blocker away)")
            return Violation(Rule.NO_TELEPORT_ROUTE, (a, b),
                             f"{what}: a Pole teleports only from a Telepad or its own Teleport"
                             " (or out of a blockade), and this one is on neither")
    return Violation(Rule.POLE_WALK_DISTANCE, (a, b),
                     f"{what}: a Pole walks one or two spaces, this is {dist}, and no "
                     "teleport route joins them")


def _walk_blocker(pos: Position, a: Square, b: Square) -> Violation | None:
    """Why no one- or two-step path from a to b is free (None if one is)."""
    side = pos.to_move
    what = f"{side.value} Pole {square_name(a)} to {square_name(b)}"
    reasons: list[Violation] = []
    for e1 in EDGES:
        step = exit_blockers(pos, a, e1)
        if step is None:
            continue
        mid, blockers = step
        if mid == b:
            if not blockers:
                return None
            reasons.append(_step_violation(pos, a, e1, mid, what))
            continue
        for e2 in EDGES:
            step2 = exit_blockers(pos, mid, e2)
            if step2 is None or step2[0] != b:
                continue
            if blockers:
                reasons.append(_step_violation(pos, a, e1, mid, what))
            elif step2[1]:
                reasons.append(_step_violation(pos, mid, e2, b, what))
            else:
                return None
    if not reasons:
        return None
    reasons.sort(key=lambda v: v.rule is not Rule.POLE_BLOCKED_BY_POLE)
    return reasons[0]


def _step_violation(pos: Position, sq: Square, edge: Edge, nxt: Square, what: str
                    ) -> Violation:
    wrapped = NEIGHBOURS[sq][edge] is None
    if wrapped:
        return Violation(Rule.WRAP_BLOCKED, (sq, nxt),
                         f"{what}: wrap-around needs the re-entry space {square_name(nxt)} free "
                         "of every piece (and no wall on the edge stepped off)")
    if pos.poles[nxt] is not None:
        return Violation(Rule.POLE_BLOCKED_BY_POLE, (sq, nxt),
                         f"{what}: the Pole on {square_name(nxt)} is in the way (a Pole may not "
                         "walk through, jump over or share a space with another Pole)")
    for here, e in ((sq, edge), (nxt, edge.opposite)):
        for corner, owner in pos.ports[here]:
            if e in corner.walls:
                return Violation(Rule.POLE_BLOCKED_BY_WALL, (sq, nxt),
                                 f"{what}: the wall of the {owner.value} Port on "
                                 f"{square_name(here)}{corner.value} blocks the step "
                                 f"{square_name(sq)}-{square_name(nxt)} (Poles enter and leave "
                                 "a Port only through its open sides)")
    return Violation(Rule.UNEXPLAINED, (sq, nxt), f"{what}: blocked")


def _diagnose_ports(pos: Position, turn: TurnState, src: list[tuple[Square, Corner]],
                    dst: list[tuple[Square, Corner]]) -> list[Violation]:
    side = pos.to_move
    out: list[Violation] = []
    # A Teleport that moved shows as two Ports leaving one space for one other space.
    src_sq = [s for s, _ in src]
    dst_sq = [s for s, _ in dst]
    for s in sorted(set(src_sq)):
        if src_sq.count(s) == 2 and pos.teleport_at(s) is side:
            targets = [d for d in set(dst_sq) if dst_sq.count(d) == 2]
            if targets:
                t = min(targets, key=lambda d: _distance(s, d))
                out.append(_diagnose_teleport(pos, turn, s, t))
                src = [x for x in src if x[0] != s]
                dst = [x for x in dst if x[0] != t]
    for (a, ca), (b, cb) in _pair(src, dst):
        out.append(_diagnose_port(pos, turn, a, ca, b, cb))
    return out


def _glide_path_blocker(pos: Position, a: Square, b: Square) -> Square | None:
    fa, ra, fb, rb = square_file(a), square_rank(a), square_file(b), square_rank(b)
    df = (fb > fa) - (fb < fa)
    dr = (rb > ra) - (rb < ra)
    s = a
    while True:
        s = s + df + 8 * dr
        if s == b:
            return None
        if pos.poles[s] is not None or pos.ports[s]:
            return s


def _diagnose_port(pos: Position, turn: TurnState, a: Square, ca: Corner, b: Square,
                   cb: Corner) -> Violation:
    side = pos.to_move
    what = f"{side.value} Port {square_name(a)}{ca.value} to {square_name(b)}{cb.value}"
    fresh = [m for m in legal_moves(pos) if isinstance(m, PortMove) and m.frm == a
             and m.corner is ca and (m.to, m.to_corner) == (b, cb)]
    budget = _budget_violation(pos, turn, bool(fresh), (a, ca) in turn.port_marks,
                               Marker.PORT, (a, b), what)
    if budget:
        return budget
    if in_telepad_row(b):
        return Violation(Rule.PORT_IN_TELEPAD_ROW, (a, b),
                         f"{what}: Ports never enter the Telepad rows (1 and 8)")
    if a == b:
        return Violation(Rule.PORT_SPIN, (a,),
                         f"{what}: a Port spins only when alone in its space (a Port of a "
                         "Teleport cannot turn without hitting the other)")
    if square_file(a) != square_file(b) and square_rank(a) != square_rank(b):
        return Violation(Rule.PORT_GLIDE_STRAIGHT, (a, b),
                         f"{what}: a Port glides in a straight line along a row or a column")
    blocker = _glide_path_blocker(pos, a, b)
    if blocker is not None:
        return Violation(Rule.PORT_GLIDE_BLOCKED, (a, blocker, b),
                         f"{what}: {square_name(blocker)} is in the way (a glide passes only "
                         "over empty spaces)")
    if pos.teleport_at(b) is not None:
        return Violation(Rule.PORT_LANDING, (a, b),
                         f"{what}: a Port never lands on a Teleport")
    if cb is not ca and pos.poles[b] is None:
        return Violation(Rule.PORT_GLIDE_ORIENTATION, (a, b),
                         f"{what}: a gliding Port keeps its orientation; it spins for free only "
                         "when it lands with a Pole")
    return Violation(Rule.PORT_LANDING, (a, b),
                     f"{what}: it cannot end there (walls would overlap, or a repel/Teleport "
                     "rule stops it)")


def _diagnose_teleport(pos: Position, turn: TurnState, a: Square, b: Square) -> Violation:
    side = pos.to_move
    what = f"{side.value} Teleport {square_name(a)} to {square_name(b)}"
    fresh = [m for m in legal_moves(pos) if isinstance(m, TeleportMove) and m.frm == a
             and m.to == b]
    budget = _budget_violation(pos, turn, bool(fresh), a in turn.teleport_marks, Marker.PORT,
                               (a, b), what)
    if budget:
        return budget
    if in_telepad_row(b):
        return Violation(Rule.PORT_IN_TELEPAD_ROW, (a, b),
                         f"{what}: Teleports never enter the Telepad rows (1 and 8)")
    if square_file(a) != square_file(b) and square_rank(a) != square_rank(b):
        return Violation(Rule.PORT_GLIDE_STRAIGHT, (a, b),
                         f"{what}: a Teleport glides in a straight line along a row or a column")
    blocker = _glide_path_blocker(pos, a, b)
    if blocker is not None:
        return Violation(Rule.PORT_GLIDE_BLOCKED, (a, blocker, b),
                         f"{what}: {square_name(blocker)} is in the way")
    return Violation(Rule.TELEPORT_GLIDE, (a, b),
                     f"{what}: a Teleport glides only to an empty space, keeps its orientation, "
                     "and carries at most its own side's Pole")


__all__ = ["Explanation", "Placement", "Rule", "Violation", "explain"]
