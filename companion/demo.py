"""``companion demo``: a scripted late-game Teleporters match, refereed move by move.

Each step is what an overhead camera would report once the board is still: the referee asks
the rules core to explain it from the turn's start position, so a move tried and put back
simply disappears, and an illegal change is flagged (with the spaces to light red) until it
is put right. The match shows a take-back, a Pole Vault, an illegal move and its correction,
and a win. Vision and the tablet app plug in front of and behind this same loop (issues 3, 5).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from companion.rules.teleporters import (
    Position,
    TurnState,
    end_turn,
    explain,
    parse_move,
    parse_square,
    play,
    square_name,
)

DEMO_START = ("2P5/1[nw]1P2P1/[SE]3P2[nw]/1[SE]3[pSW]2/4[SW][sw]1p/2[ne]5/2p5/4p3 south")


@dataclass(frozen=True, slots=True)
class Step:
    """One thing that happens at the table: a move, a take-back, a stray change, End turn."""

    kind: str  # "move" | "take-back" | "knock" | "commit"
    text: str = ""  # move notation, or "from-to" for a knocked Pole
    note: str = ""


SCRIPT: tuple[Step, ...] = (
    Step("move", "Pe6-e8", "south tries walking a Pole into e8..."),
    Step("take-back", note="...and puts it back (a move is not final until its marker)"),
    Step("move", "Vb5se-f5ne>e8", "a Port glides onto f5 and boxes north's Pole: Pole Vault"),
    Step("move", "Pd7-d8"),
    Step("move", "Pg7-f8"),
    Step("commit", note="south presses End turn"),
    Step("move", "Pe8-f7", "north clears its Home Telepad"),
    Step("knock", "h4-h1", "north slides a Pole three spaces"),
    Step("take-back", note="north puts it back"),
    Step("move", "Ph4-h2"),
    Step("commit"),
    Step("move", "Pe6-e8", "south walks its last Pole in"),
    Step("commit"),
)


def _knock(position: Position, text: str) -> Position:
    frm, to = (parse_square(s) for s in text.split("-"))
    poles = list(position.poles)
    poles[to], poles[frm] = poles[frm], None
    return position.replace(poles=tuple(poles))


def run_demo(delay: float = 0.0, out: TextIO | None = None,
             sleep: Callable[[float], None] = time.sleep) -> int:
    """Referee the scripted match, printing each event. Returns the exit status (0)."""
    out = out or sys.stdout

    def say(line: str) -> None:
        print(line, file=out, flush=True)
        if delay:
            sleep(delay)

    turn_start = Position.from_text(DEMO_START)
    # What the table showed this turn, newest last, with the markers used: a take-back pops.
    seen: list[tuple[Position, TurnState]] = [(turn_start, TurnState())]
    turn_no = 1
    say("tabletop-companion demo: a scripted Teleporters match, refereed by the rules core")
    say("(each line is a still board as the camera reports it)\n")
    say(turn_start.diagram())
    say(f"\nturn {turn_no}: {turn_start.to_move.value} to move")
    for step in SCRIPT:
        if step.note:
            say(f"  # {step.note}")
        if step.kind == "move":
            seen.append(play(seen[-1][0], parse_move(step.text), seen[-1][1]))
        elif step.kind == "knock":
            seen.append((_knock(seen[-1][0], step.text), seen[-1][1]))
        elif step.kind == "take-back":
            seen.pop()
        elif step.kind == "commit":
            result = explain(turn_start, seen[-1][0])
            say(f"  committed: {' '.join(m.notation() for m in result.moves) or 'pass'}")
            if result.winner is not None:
                say(f"\n{seen[-1][0].diagram()}\n")
                say(f"game over: {result.winner.value} wins with all four Poles on its Goal "
                    "Telepads")
                return 0
            turn_start = end_turn(seen[-1][0])
            seen = [(turn_start, TurnState())]
            turn_no += 1
            say(f"\nturn {turn_no}: {turn_start.to_move.value} to move")
            continue
        result = explain(turn_start, seen[-1][0])
        if result.legal:
            mk = result.markers()
            moves = " ".join(m.notation() for m in result.moves) or "no change"
            say(f"  seen: {moves}   [markers used: Pole {mk['pole_used']}/2, "
                f"Port {mk['port_used']}/2]")
            if result.winner is not None:
                say(f"  {result.winner.value} has all four Poles home: press End turn")
        else:
            reason = result.violations[0]
            spaces = " ".join(square_name(s) for s in reason.squares)
            say(f"  ILLEGAL ({reason.rule.clause}): {reason.message}")
            say(f"  light red: {spaces}")
    return 0
