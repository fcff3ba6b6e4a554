"""What the tablet shows, computed from the session's updates (pure Python, no Kivy).

``ScreenModel.apply(update)`` turns one :class:`~companion.live.api.Update` into a
:class:`Screen`: the board to draw and its highlighted spaces, the four turn markers, the
banner in plain words, the move list, links and die. It holds no rules logic: everything comes
from :class:`~companion.referee.RefereeState` and the referee's events; the rules core is only
read (the position drawn, its ``winner``, marker squares from the explanation's turn state).

Events matter only for what a state snapshot cannot say: the committed turns (the move list),
and one-off notices (a refused button, the first mover chosen, a correction accepted).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from companion.live.api import Link, Links, Update
from companion.referee import (
    CommitBy,
    CommitUndone,
    CorrectionAccepted,
    DieRolled,
    DrawAgreed,
    Ending,
    Event,
    FirstMoverChosen,
    GameResigned,
    GameStarted,
    GameWon,
    RefereeState,
    Refused,
    RestoreShown,
    TurnCommitted,
    VisionState,
)
from companion.rules.teleporters import Marker, Move, Position, Side, TurnState, square_name

POLE_MARKERS = TurnState.POLE_MARKERS
PORT_MARKERS = TurnState.PORT_MARKERS


class BannerKind(enum.Enum):
    NONE = "none"
    ILLEGAL = "illegal"
    HAND = "hand"
    UNSURE = "unsure"
    WIN = "win"
    INFO = "info"


class Action(enum.Enum):
    """What a banner button asks of the session."""

    ACCEPT_BOARD = "accept_board"
    SHOW_RESTORE = "show_restore"

    @property
    def label(self) -> str:
        return {Action.ACCEPT_BOARD: "Accept the board as seen",
                Action.SHOW_RESTORE: "Show me what to restore"}[self]


@dataclass(frozen=True, slots=True)
class MarkerView:
    """One of the four turn markers. ``on`` names the marked piece where it stands now."""

    kind: Marker
    used: bool
    on: str = ""

    @property
    def label(self) -> str:
        if not self.used:
            return "free"
        return f"used: {self.on}" if self.on else "used"


@dataclass(frozen=True, slots=True)
class Highlights:
    """Spaces to colour on the board, by meaning (square names)."""

    move_from: tuple[str, ...] = ()
    move_to: tuple[str, ...] = ()
    last_turn: tuple[str, ...] = ()
    illegal: tuple[str, ...] = ()  # flashing
    restore: tuple[str, ...] = ()
    unsure: tuple[str, ...] = ()
    win: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Banner:
    kind: BannerKind = BannerKind.NONE
    title: str = ""
    body: str = ""
    actions: tuple[Action, ...] = ()

    @property
    def shown(self) -> bool:
        return self.kind is not BannerKind.NONE


@dataclass(frozen=True, slots=True)
class TurnLine:
    """One line of the move list: a committed turn, or the turn in play (``tentative``)."""

    number: int
    side: Side
    moves: tuple[str, ...]
    tentative: bool = False
    by: CommitBy | None = None

    @property
    def text(self) -> str:
        who = self.side.value.capitalize()
        if self.tentative:
            return f"{self.number}. {who} so far: {' '.join(self.moves) or '(no move yet)'}"
        return f"{self.number}. {who}: {' '.join(self.moves) or 'pass'}"


@dataclass(frozen=True, slots=True)
class Screen:
    position: Position  # the board to draw: the last one seen clearly, else the expected one
    to_move: Side
    turn_number: int
    markers: tuple[MarkerView, ...]  # two round Pole markers, then two angled Port markers
    highlights: Highlights
    banner: Banner
    notice: str  # a one-off message (a refused button, ...); "" for none
    notice_serial: int  # grows with every new notice, so a repeated one shows again
    turns: tuple[TurnLine, ...]  # committed turns, then the turn in play
    links: Links
    die: int | None
    die_sides: int
    vision: VisionState
    can_undo: bool
    winner: Side | None
    over: bool = False  # won, resigned or drawn (a draw has no winner)

    @property
    def headline(self) -> str:
        if self.over and self.winner is None:
            return "Drawn by agreement"
        if self.winner is not None:
            return f"{self.winner.value.capitalize()} won"
        return f"{self.to_move.value.capitalize()} to move · turn {self.turn_number}"

    @property
    def move_list_text(self) -> str:
        return "\n".join(t.text for t in self.turns)


LINK_WORDS: dict[Link, str] = {
    Link.NONE: "not used",
    Link.CONNECTING: "connecting…",
    Link.OK: "connected",
    Link.LOST: "lost, reconnecting",
    Link.SIMULATED: "simulated",
}

_REFUSED_WHAT = {
    "end_turn": "Can't end the turn",
    "undo": "Can't undo",
    "accept_board": "Can't accept the board",
    "show_restore": "Nothing to restore",
    "resign": "Can't resign",
    "draw": "Can't agree a draw",
}


def _names(squares: tuple[int, ...] | list[int]) -> tuple[str, ...]:
    return tuple(square_name(s) for s in squares)


def _touched(moves: tuple[Move, ...]) -> tuple[str, ...]:
    out: list[str] = []
    for move in moves:
        out += [n for n in _names(move.squares()) if n not in out]
    return tuple(out)


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] if text else text


def _listed(names: tuple[str, ...]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


@dataclass
class ScreenModel:
    """Folds updates into screens. Keeps only what a state snapshot lacks (see module doc)."""

    committed: list[TurnLine] = field(default_factory=list)
    die: int | None = None
    die_sides: int = 6
    notice: str = ""
    notice_serial: int = 0
    last_turn: tuple[str, ...] = ()  # the spaces of the last committed turn's moves
    _marks: tuple[tuple[Move, ...], TurnState] | None = None  # last legal turn's markers

    def apply(self, update: Update) -> Screen:
        state = update.state
        for event in update.events:
            self._event(event, state)
        if update.last_die is not None:
            self.die = update.last_die
        return Screen(
            position=state.seen if state.seen is not None else state.expected,
            to_move=state.to_move, turn_number=state.turn_number,
            markers=self._markers(state), highlights=self._highlights(state),
            banner=self._banner(state), notice=self.notice, notice_serial=self.notice_serial,
            turns=tuple(self.committed) + (() if state.over else (self._tentative_line(state),)),
            links=update.links,
            die=self.die, die_sides=self.die_sides, vision=state.vision,
            can_undo=state.can_undo, winner=state.winner, over=state.over)

    # --- events ----------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """A one-off notice from the app itself (a session call that failed)."""
        self._say(text)

    def _say(self, text: str) -> None:
        self.notice, self.notice_serial = text, self.notice_serial + 1

    def _told(self, event: Event) -> None:
        """A referee event as a notice, in its own words: the same the text log and the
        match log use."""
        self._say(_sentence(event.describe()) + ".")

    def _event(self, event: Event, state: RefereeState) -> None:
        match event:
            case GameStarted():
                self.committed.clear()
                self._marks, self.last_turn = None, ()
                self._told(event)
            case TurnCommitted():
                self.committed = [t for t in self.committed if t.number < event.number]
                self.committed.append(TurnLine(
                    event.number, event.side, tuple(m.notation() for m in event.moves),
                    by=event.by))
                self.last_turn = _touched(event.moves)
                if event.by in (CommitBy.OPPONENT, CommitBy.BRIDGE):  # not the app's button
                    self._told(event)
            case CommitUndone():
                self.committed = [t for t in self.committed if t.number < event.number]
                self.last_turn = ()
                self._told(event)
            case FirstMoverChosen() | CorrectionAccepted():
                self._told(event)
            case Refused():
                what = _REFUSED_WHAT.get(event.action, f"Can't {event.action}")
                self._say(f"{what}: {event.reason}.")
            case DieRolled():
                self.die, self.die_sides = event.value, event.sides
            case RestoreShown() if not event.fixes:
                self._say("Nothing to restore: the board matches.")
            case GameWon() | GameResigned() | DrawAgreed():
                pass  # the state's winner drives the banner
            case _:
                pass  # TentativeMoves, IllegalChange, ...: the state says it all

    # --- derived from the state ------------------------------------------------------------

    def _turn_state(self, state: RefereeState) -> TurnState | None:
        """The markers' pieces: the legal verdict's turn state, or the last legal one while
        the board is illegal (the referee keeps its expected turn private)."""
        verdict = state.verdict
        if verdict is not None and verdict.legal:
            self._marks = (state.tentative, verdict.turn)
            return verdict.turn
        if self._marks is not None and self._marks[0] == state.tentative:
            return self._marks[1]
        return None

    def _markers(self, state: RefereeState) -> tuple[MarkerView, ...]:
        turn = self._turn_state(state)
        poles: list[str] = []
        ports: list[str] = []
        if turn is not None and turn.pole_markers_left == state.pole_markers_left \
                and turn.port_markers_left == state.port_markers_left:
            poles = [square_name(sq) for sq in turn.pole_marks]
            ports = [f"{square_name(sq)} {corner.value}" for sq, corner in turn.port_marks]
            ports += [f"Teleport {square_name(sq)}" for sq in turn.teleport_marks]
        pole_used = POLE_MARKERS - state.pole_markers_left
        port_used = PORT_MARKERS - state.port_markers_left
        out = [MarkerView(Marker.POLE, i < pole_used, poles[i] if i < len(poles) else "")
               for i in range(POLE_MARKERS)]
        out += [MarkerView(Marker.PORT, i < port_used, ports[i] if i < len(ports) else "")
                for i in range(PORT_MARKERS)]
        return tuple(out)

    def _highlights(self, state: RefereeState) -> Highlights:
        if state.over:
            return Highlights(win=() if state.winner is None
                              else _names(state.expected.variant.goal(state.winner)))
        unsure = state.uncertain if state.vision is VisionState.UNCERTAIN else ()
        verdict = state.verdict
        if verdict is not None and not verdict.legal:
            return Highlights(illegal=_names(verdict.squares),
                              restore=tuple(f.square for f in state.restore), unsure=unsure)
        move_from: list[str] = []
        move_to: list[str] = []
        for move in state.tentative:
            frm, *rest = _names(move.squares())
            if frm not in move_to:  # a later move's origin may be an earlier one's landing
                move_from.append(frm)
            move_to += [n for n in rest if n not in move_to]
        move_from = [n for n in move_from if n not in move_to]
        last = () if state.tentative else self.last_turn  # what the opponent just did
        return Highlights(move_from=tuple(move_from), move_to=tuple(move_to), last_turn=last,
                          unsure=unsure)

    def _banner(self, state: RefereeState) -> Banner:
        if state.ending is Ending.AGREEMENT:
            return Banner(BannerKind.WIN, "Drawn by agreement",
                          "Press New game to play again.")
        if state.ending is Ending.RESIGNATION and state.winner is not None:
            return Banner(BannerKind.WIN, f"{state.winner.value.capitalize()} wins!",
                          f"{state.winner.opponent.value.capitalize()} resigned. "
                          "Press New game to play again.")
        if state.winner is not None:
            return Banner(BannerKind.WIN, f"{state.winner.value.capitalize()} wins!",
                          f"All four {state.winner.value} Poles stand on their Goal Telepads. "
                          "Press New game to play again.")
        hand = state.vision is VisionState.OCCLUDED
        unsure = state.vision is VisionState.UNCERTAIN
        verdict = state.verdict
        if verdict is not None and not verdict.legal:
            reason = verdict.violations[0]
            body = [f"Rule: {reason.rule.clause}."]
            if state.restore:
                body.append("To restore: " + "; ".join(
                    f"{f.square} should hold {f.want} (now {f.seen})" for f in state.restore)
                    + ".")
            elif not state.recovery_offered:
                body.append("Put the pieces back as they were, or make a legal move.")
            if hand:
                body.append("Hand over the board: waiting for a clear view.")
            elif unsure:
                body.append(f"Look again: the camera is unsure about {_listed(state.uncertain)}.")
            actions: tuple[Action, ...] = ()
            if state.recovery_offered:
                body.append("The board and the referee have disagreed for a while.")
                actions = (Action.ACCEPT_BOARD,) if state.restore else (
                    Action.ACCEPT_BOARD, Action.SHOW_RESTORE)
            return Banner(BannerKind.ILLEGAL, _sentence(reason.message), " ".join(body), actions)
        if hand:
            return Banner(BannerKind.HAND, "Hand over the board",
                          "The referee judges again once the mat is clear.")
        if unsure:
            return Banner(BannerKind.UNSURE,
                          f"Look again: the camera is unsure about {_listed(state.uncertain)}",
                          "Straighten the pieces on those spaces, or move what blocks the view.")
        if state.tentative and state.expected.winner() is state.to_move:
            return Banner(BannerKind.INFO, "End the turn to win",
                          f"All four {state.to_move.value} Poles are on their Goal Telepads.")
        return Banner()

    @staticmethod
    def _tentative_line(state: RefereeState) -> TurnLine:
        return TurnLine(state.turn_number, state.to_move,
                        tuple(m.notation() for m in state.tentative), tentative=True)


__all__ = ["LINK_WORDS", "Action", "Banner", "BannerKind", "Highlights", "MarkerView",
           "Screen", "ScreenModel", "TurnLine"]
