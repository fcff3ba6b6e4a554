"""Regenerate the README's app screenshots: ``python3 -m companion.app.screenshots OUTDIR``.

A scripted game through the real referee, shown by the real app in an offscreen window (no
display needed: SDL's ``offscreen`` driver renders through EGL). Writes ``app-landscape.png``
(a turn in play with two markers used), ``app-illegal.png`` (an illegal walk: the warning, the
flashing red spaces and, the board left so, the two recovery buttons) and
``app-portrait.png`` (a portrait tablet, the camera unsure).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from companion.app import prepare_kivy_env
from companion.app.scripted import ScriptedSession
from companion.live.api import Link, Links
from companion.rules.teleporters import Position, TurnState, parse_move, parse_square, play

LANDSCAPE = (1280, 800)  # a 10-inch tablet
PORTRAIT = (800, 1280)
SCALE = 0.75  # docs images: readable, and well under 300 KB each
LINKS = Links(Link.OK, Link.OK, "camera 0, 30 fps · board /dev/ttyUSB0")


def after(start: Position, *moves: str) -> Position:
    """The board after legal ``moves`` of one turn (the rules core checks each)."""
    pos, turn = start, TurnState()
    for text in moves:
        pos, turn = play(pos, parse_move(text), turn)
    return pos


def pole_moved(pos: Position, frm: str, to: str) -> Position:
    """A Pole picked up and put down anywhere, legal or not: what a camera may see."""
    poles = list(pos.poles)
    poles[parse_square(to)], poles[parse_square(frm)] = poles[parse_square(frm)], None
    return pos.replace(poles=tuple(poles))


def opening(session: ScriptedSession) -> Position:
    """Two committed turns and a die roll; returns the board south's turn 3 starts from."""
    start = Position.start()
    session.observe(start)
    b1 = after(start, "Pd1-d3", "Vc3sw-c5")
    session.observe(b1)
    session.end_turn()
    b2 = after(b1.replace(to_move=b1.to_move.opponent), "Pe8-e6", "Vf6ne-f4")
    session.observe(b2)
    session.end_turn()
    session.roll(5)
    return b2.replace(to_move=b2.to_move.opponent)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    args = parser.parse_args(argv)
    prepare_kivy_env(home=tempfile.mkdtemp(prefix="kivy-home-"), quiet=True, offscreen=True)
    from companion.app.driver import AppDriver

    session = ScriptedSession(links=LINKS)
    driver = AppDriver(session, size=LANDSCAPE)
    driver.start()
    written = []

    b3 = opening(session)
    session.observe(after(b3, "Pc1-c2", "Vb2sw-b4"))  # turn 3 in play: two markers used
    driver.frames(8)
    written.append(driver.save_png(args.outdir / "app-landscape.png", scale=SCALE))

    session.observe(b3)  # both taken back, then a Pole walks three spaces
    session.observe(pole_moved(b3, "f1", "f4"))
    session.wait(6.0)  # left like that: the referee offers recovery
    driver.frames(8)
    written.append(driver.save_png(args.outdir / "app-illegal.png", scale=SCALE))

    session.observe(after(b3, "Pe1-e3"))
    session.observe(after(b3, "Pe1-e3"), {"c5": 0.31, "d5": 0.42})
    driver.resize(*PORTRAIT)
    driver.frames(8)
    written.append(driver.save_png(args.outdir / "app-portrait.png", scale=SCALE))
    driver.stop()
    for path in written:
        print(f"{path} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
