"""Keys at the terminal for ``companion run`` without the app: the tablet's buttons, typed.

A reader thread reads the terminal (or whatever stdin is) and calls the session's actions, as
the app's buttons and the board's button do: the frame loop never waits for a key, and no
rule is decided here (the referee refuses what cannot be done, with its reason, in the event
lines). At a terminal each key acts at once (cbreak mode, restored when the reader stops);
from a pipe or a file each line is read as words ("e", "end turn", "resign north").

What throws a game away asks first: undo, new game and an agreed draw want ``y``; resign asks
which side resigns. Any other key cancels.
"""

from __future__ import annotations

import enum
import os
import select
import threading
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from companion.referee import CommitBy
from companion.rules import GAMES, TableGame

POLL_S = 0.1  # how often the reader looks whether it should stop


class Command(enum.Enum):
    """What a key asks for; its value is the key."""

    END_TURN = "e"
    UNDO = "u"
    TAKE_BACK = "t"  # 'show me what to restore': the pieces to put back after a wrong move
    ACCEPT = "a"  # 'accept the board as seen' (a warning the players agree to)
    RESIGN = "r"
    DRAW = "d"
    NEW_GAME = "n"
    QUIT = "q"
    HELP = "?"


HELP = ("keys: e end turn · u undo last turn · t take back (what to put back) · a accept the "
        "board as seen · r resign · d draw (agreed) · n new game · q quit · ? help")

# whole words a line may use instead of the key
_WORDS = {"end": "e", "endturn": "e", "undo": "u", "takeback": "t", "take": "t", "back": "",
          "turn": "", "accept": "a", "resign": "r", "resigns": "r", "draw": "d", "new": "n",
          "newgame": "n", "game": "", "quit": "q", "help": "?", "h": "?", "yes": "y",
          "no": "x", "south": "s", "north": "n"}
_PHRASES = {"end turn": "endturn", "take back": "takeback", "new game": "newgame"}


class KeyActions(Protocol):
    """The session's actions the keys call (``companion.live.session.Session`` has them)."""

    def end_turn(self, source: CommitBy | str = ...) -> None: ...

    def undo_last_commit(self) -> None: ...

    def show_restore(self) -> None: ...

    def accept_board(self) -> None: ...

    def resign(self, side: Any) -> None: ...

    def agree_draw(self) -> None: ...

    def new_game(self) -> None: ...

    def stop(self) -> None: ...


def line_keys(line: str) -> list[str]:
    """The keys a typed line stands for: ``"resign north"`` -> ``["r", "n"]``, ``"e"`` ->
    ``["e"]``; an unknown word is kept whole (and answered with the help)."""
    text = " ".join(line.lower().split())
    for phrase, word in _PHRASES.items():
        text = text.replace(phrase, word)
    keys = []
    for word in text.split():
        key = _WORDS.get(word, word)
        if key:
            keys.append(key)
    return keys


class KeyPad:
    """The keys' state machine, fed one key at a time (:meth:`press`); no threads here."""

    def __init__(self, actions: KeyActions, say: Callable[[str], None],
                 players: Mapping[str, str] | None = None,
                 game: TableGame | None = None) -> None:
        self.actions = actions
        self.say = say
        self.players = dict(players or {})
        # a side is answered by its name's first letter: s = south, n = north
        self._sides = {side.value[0]: side for side in (game or GAMES.table()).sides}
        self.quit = False
        self._asking: Command | None = None  # a command waiting for its answer

    def _who(self, side: Any) -> str:
        name = self.players.get(side.value)
        return f"{side.value} ({name})" if name else side.value

    def press(self, key: str) -> None:
        asking, self._asking = self._asking, None
        if asking is not None:
            self._answer(asking, key)
            return
        try:
            command = Command(key)
        except ValueError:
            self.say(f"key {key!r} does nothing; {HELP}")
            return
        if command is Command.END_TURN:
            self.actions.end_turn(CommitBy.KEYBOARD)
        elif command is Command.TAKE_BACK:
            self.actions.show_restore()
        elif command is Command.ACCEPT:
            self.actions.accept_board()
        elif command is Command.QUIT:
            self.quit = True
            self.say("quitting: every committed turn is in the match log")
            self.actions.stop()
        elif command is Command.HELP:
            self.say(HELP)
        elif command is Command.RESIGN:
            self._asking = command
            sides = ", ".join(f"{key} = {self._who(side)}" for key, side in self._sides.items())
            self.say(f"who resigns? {sides}; any other key cancels")
        else:
            self._asking = command
            what = {Command.UNDO: "undo the last committed turn",
                    Command.DRAW: "end the game as a draw both players agree to",
                    Command.NEW_GAME: "abandon this game and start a new one"}[command]
            self.say(f"{what}? y = yes, any other key cancels")

    def _answer(self, asking: Command, key: str) -> None:
        if asking is Command.RESIGN and key in self._sides:
            self.actions.resign(self._sides[key])
        elif asking is not Command.RESIGN and key == "y":
            {Command.UNDO: self.actions.undo_last_commit, Command.DRAW: self.actions.agree_draw,
             Command.NEW_GAME: self.actions.new_game}[asking]()
        else:
            self.say(f"{asking.name.lower().replace('_', ' ')}: cancelled")


class KeyReader:
    """Reads keys from the file descriptor ``fd`` in a thread and presses them on ``pad``.

    A terminal is put in cbreak mode (keys come one at a time, unechoed; Ctrl-C still stops)
    until :meth:`stop`; anything else is read as lines. The end of the input ends the reading,
    not the game."""

    def __init__(self, pad: KeyPad, fd: int) -> None:
        self.pad = pad
        self.fd = fd
        self.terminal = os.isatty(fd)
        self._stop = threading.Event()
        self._saved: list[Any] | None = None  # termios attributes, as tcgetattr gives them
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.terminal:
            import termios
            import tty

            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        self._thread = threading.Thread(target=self._loop, name="terminal-keys", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop reading and give the terminal back as it was."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def _loop(self) -> None:
        pending = b""
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self.fd], [], [], POLL_S)
                if not ready:
                    continue
                chunk = os.read(self.fd, 1 if self.terminal else 4096)
            except (OSError, ValueError):  # stdin closed under us: no more keys
                return
            if not chunk:  # the end of a pipe or file
                if pending.strip():
                    self._line(pending)
                return
            if self.terminal:
                self._press(chunk.decode("utf-8", "replace").lower())
                continue
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                self._line(line)

    def _line(self, raw: bytes) -> None:
        for key in line_keys(raw.decode("utf-8", "replace")):
            self._press(key)

    def _press(self, key: str) -> None:
        if key.isspace() or self._stop.is_set():
            return
        try:
            self.pad.press(key)
        except Exception as exc:  # a bad key must not end the reader: say it, go on
            self.pad.say(f"key {key!r} failed: {exc}")


__all__ = ["HELP", "Command", "KeyActions", "KeyPad", "KeyReader", "line_keys"]
