"""``companion matches``: list, show, export, import, replay, rename and delete logged matches.

Every subcommand takes ``--db PATH`` (default: ``$COMPANION_DB``, else the store in the user's
data directory). Errors are one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import NoReturn, TextIO

from companion.commands.common import EXIT_BAD_INPUT, EXIT_OK, add_db_argument, db_path
from companion.commands.options import output_file, positive
from companion.commands.position_files import MAX_IMPORT_BYTES, read_text
from companion.errors import UserError
from companion.matchlog.errors import MatchLogError
from companion.matchlog.model import (
    MAX_NAME,
    NAME_TAG,
    TERMINATION_TAG,
    Correction,
    DieRoll,
    Event,
    IllegalMove,
    Match,
    MatchId,
    MatchSummary,
    Note,
    Result,
    Termination,
    TurnRecord,
    parse_iso,
    printable,
)
from companion.matchlog.store import MatchStore


def _match_id(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"match id must be a number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"match id must be 1 or more, got {value}")
    return value


class _OneLineParser(argparse.ArgumentParser):
    """Usage errors of a subcommand as one line on stderr (exit 2), like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see {self.prog} --help)\n")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion matches ...`` to the ``companion`` command's subparsers."""
    matches = sub.add_parser("matches", help="the match log: list, show, export, import, "
                             "replay, rename, delete",
                             description="Matches the referee recorded. Exit status: 0 ok, "
                             "2 bad input (one line on stderr).")
    matches.set_defaults(func=_wrap(lambda args: _help(matches)))
    cmds = matches.add_subparsers(dest="matches_command", metavar="SUBCOMMAND",
                                  parser_class=_OneLineParser)

    p = cmds.add_parser("list", help="list the matches in the store, oldest first")
    add_db_argument(p)
    p.add_argument("--unfinished", action="store_true", help="only matches still open")
    p.add_argument("--limit", type=positive, metavar="N", help="only the newest N")
    p.set_defaults(func=_wrap(_cmd_list))

    p = cmds.add_parser("show", help="one match: players, turns, events, final position")
    p.add_argument("id", type=_match_id, metavar="ID")
    add_db_argument(p)
    p.add_argument("--png", type=output_file, metavar="OUT",
                   help="draw the final position to this PNG")
    p.add_argument("--timeline", type=output_file, metavar="OUT",
                   help="plot time per turn to this PNG")
    p.set_defaults(func=_wrap(_cmd_show))

    p = cmds.add_parser("export", help="a match as text (PGN-like) or JSON")
    p.add_argument("id", type=_match_id, metavar="ID")
    add_db_argument(p)
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--out", type=output_file, metavar="FILE",
                   help="write here instead of standard output")
    p.add_argument("--snapshots", action="store_true",
                   help="JSON only: include the turns' JPEG snapshots (base64)")
    p.set_defaults(func=_wrap(_cmd_export))

    p = cmds.add_parser("import", help="add the matches of an export, checking every move; "
                        "a match the store already holds is not added again")
    p.add_argument("file", metavar="FILE", help="text or JSON export; - for standard input")
    add_db_argument(p)
    p.add_argument("--format", choices=["auto", "text", "json"], default="auto")
    p.set_defaults(func=_wrap(_cmd_import))

    p = cmds.add_parser("replay", help="step through a match turn by turn (Enter: next)")
    p.add_argument("id", type=_match_id, metavar="ID")
    add_db_argument(p)
    p.add_argument("--all", action="store_true", help="print every turn without waiting")
    p.set_defaults(func=_wrap(_cmd_replay))

    p = cmds.add_parser("rename", help="give a match a name (shown by list and show)")
    p.add_argument("id", type=_match_id, metavar="ID")
    p.add_argument("name", metavar="NAME", help=f"the name: 1 to {MAX_NAME} characters")
    add_db_argument(p)
    p.set_defaults(func=_wrap(_cmd_rename))

    p = cmds.add_parser("delete", help="delete a match for good (asks first on a terminal)",
                        description="Delete match ID with its turns, events and snapshots, "
                        "nothing else. On a terminal it shows the match and asks; --yes "
                        "deletes without asking, and is needed where no one can be asked. "
                        "Exit status: 0 deleted (or kept at the prompt), 2 bad input.")
    p.add_argument("id", type=_match_id, metavar="ID")
    add_db_argument(p)
    p.add_argument("--yes", action="store_true",
                   help="delete without asking (needed without a terminal)")
    p.set_defaults(func=_wrap(_cmd_delete))


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return EXIT_BAD_INPUT


def _wrap(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except (MatchLogError, UserError) as exc:
            name = getattr(args, "matches_command", None)
            prefix = f"companion matches {name}" if name else "companion matches"
            print(f"{prefix}: {' '.join(str(exc).split())}", file=sys.stderr)
            return EXIT_BAD_INPUT

    return run


def _open(args: argparse.Namespace, *, create: bool = False) -> MatchStore:
    return MatchStore(db_path(args), create=create)


def _local(value: datetime) -> str:
    return value.astimezone().strftime("%Y-%m-%d %H:%M")


# -- list, show --------------------------------------------------------------------------------


def _cmd_list(args: argparse.Namespace) -> int:
    path = db_path(args)
    if not path.exists():
        print(f"no matches: no store at {path} yet")
        return EXIT_OK
    with _open(args) as store:
        found = store.list_matches(unfinished=args.unfinished, limit=args.limit)
    if not found:
        print(f"no {'unfinished ' if args.unfinished else ''}matches in {path}")
        return EXIT_OK
    print(f"{'ID':>6}  {'STARTED':16}  {'TURNS':>5}  {'RESULT':9}  PLAYERS")
    out = [f"{m.id:>6}  {_local(m.started_at):16}  {m.turns:>5}  "
           f"{m.result.value if m.result else '*':9}  {m.players_text()}{_named(m)}"
           for m in found]
    print("\n".join(out))
    return EXIT_OK


def _named(summary: MatchSummary) -> str:
    return "" if summary.name is None else f'  "{printable(summary.name)}"'


def _result_text(match: Match) -> str:
    if match.result is None:
        return (f"unfinished: {len(match.turns)} turns committed, "
                f"{match.resume_position().to_move.value} to move")
    how = _HOW.get(match.tags.get(TERMINATION_TAG, ""), "")
    if match.result in (Result.SOUTH, Result.NORTH):
        return f"{match.result.value} won{how}"
    return f"{match.result.value}{how}"


# a finished match's Termination tag, as words after its result
_HOW = {Termination.RULE.value: " (all four Poles on the Goal Telepads)",
        Termination.RESIGNATION.value: " by resignation",
        Termination.AGREEMENT.value: " by agreement"}


def describe_event(event: Event) -> str:
    """One line for an event, for terminals."""
    d = event.data
    if isinstance(d, DieRoll):
        return f"die roll {d.value} ({d.source.value})"
    if isinstance(d, IllegalMove):
        how = d.resolution.value if d.resolution else "unresolved"
        where = f" [{' '.join(d.squares)}]" if d.squares else ""
        return f"illegal ({how}){where}: {d.message}"
    if isinstance(d, Correction):
        return f"correction accepted: {d.position.to_text()}" + (f" ({d.note})" if d.note
                                                                  else "")
    assert isinstance(d, Note)
    return f"note: {d.text}"


def recording_at(match: Match, at: datetime) -> str:
    """Where ``at`` falls in the recording a match was refereed from (``companion referee``
    tags it): `` [recording 0:12.3, frame 369]``; empty for a live match."""
    start = match.tags.get("RecordingStart")
    if not start:
        return ""
    try:
        seconds = (at - parse_iso(start)).total_seconds()
        fps = float(match.tags.get("RecordingFps", "0"))
    except (MatchLogError, ValueError):
        return ""
    minutes, rest = divmod(max(0.0, seconds), 60.0)
    frame = f", frame {round(seconds * fps)}" if fps > 0 else ""
    return f" [recording {int(minutes)}:{rest:04.1f}{frame}]"


def describe_turn(n: int, t: TurnRecord) -> str:
    return (f"{n:>4}. {t.side.value:5}  {' '.join(t.moves) or '-- (pass)':44}  "
            f"{t.seconds:7.1f}s  markers Pole {t.pole_markers}/2 Port {t.port_markers}/2")


def _cmd_show(args: argparse.Namespace) -> int:
    with _open(args) as store:
        match = store.get_match(MatchId(args.id))
    print(f"match {args.id}: {match.game}, {match.summary().players_text()}")
    ended = f", ended {_local(match.ended_at)}" if match.ended_at else ""
    print(f"started {_local(match.started_at)}{ended}: {_result_text(match)}")
    flags = " ".join(f"{k}={v}" for k, v in match.start.variant.to_json().items()
                     if isinstance(v, str))
    extra = " (custom mat layout)" if set(match.start.variant.to_json()) - {
        "send_marker", "wrap_rows", "carry"} else ""
    print(f"variant: {flags or 'default rules'}{extra}")
    for name, value in match.tags.items():
        if name != TERMINATION_TAG:  # said with the result
            print(f"{printable(name)}: {printable(str(value))}")
    for step in match.replay():
        if step.record is not None:
            for e in step.events:
                print(f"        {describe_event(e)}{recording_at(match, e.at)}")
            print(describe_turn(step.turn, step.record)
                  + recording_at(match, step.record.committed_at))
    for e in match.pending_events:
        print(f"        {describe_event(e)}{recording_at(match, e.at)}")
    final = match.final_position
    print(f"\nfinal position (after turn {len(match.turns)}, {final.to_move.value} to move):")
    print(final.diagram())
    print(final.to_text())
    if args.png or args.timeline:
        from companion.matchlog.draw import draw_position, draw_timeline, write_image

        if args.png:
            caption = f"match {args.id} after turn {len(match.turns)}: " + (
                f"{match.result.value}" if match.result else f"{final.to_move.value} to move")
            write_image(args.png, draw_position(final, caption=caption))
            print(f"wrote {args.png}")
        if args.timeline:
            write_image(args.timeline, draw_timeline(
                match, caption=f"match {args.id}: time per turn"))
            print(f"wrote {args.timeline}")
    return EXIT_OK


# -- export, import ----------------------------------------------------------------------------


def _cmd_export(args: argparse.Namespace) -> int:
    from companion.matchlog.export import export_json_text, export_text

    if args.snapshots and args.format != "json":
        raise MatchLogError("--snapshots needs --format json (the text form has no images)")
    with _open(args) as store:
        match = store.get_match(MatchId(args.id))
        snapshots = store.snapshots_of(MatchId(args.id)) if args.snapshots else None
    text = export_json_text(match, snapshots) if args.format == "json" else export_text(match)
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise MatchLogError(f"cannot write {args.out}: {exc.strerror or exc}") from None
        print(f"wrote {args.out}: match {args.id} as {args.format}")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _cmd_import(args: argparse.Namespace) -> int:
    from companion.matchlog.export import load_matches

    source = "<stdin>" if args.file == "-" else args.file
    text = read_text(args.file, MAX_IMPORT_BYTES, "a match export")
    loaded = load_matches(text, source, args.format)  # checks every move before storing any
    with _open(args, create=True) as store:
        done = store.import_matches(loaded)
    for outcome, (match, _) in zip(done, loaded, strict=True):
        if outcome.new:
            print(f"imported match {outcome.id} ({len(match.turns)} turns) from {source}")
            continue
        kept = ("" if not outcome.differs else f"; its {', '.join(outcome.differs)} differ "
                "from the stored match's, which are kept as they are")
        print(f"already in the store as match {outcome.id} (same moves, same times): "
              f"not imported again from {source}{kept}")
    return EXIT_OK


# -- rename, delete ----------------------------------------------------------------------------


def _cmd_rename(args: argparse.Namespace) -> int:
    with _open(args) as store:
        name = store.rename_match(MatchId(args.id), args.name)
    print(f'match {args.id} is now named "{printable(name)}"')
    return EXIT_OK


YES = ("y", "yes")


def _describe(match: Match) -> str:
    name = match.tags.get(NAME_TAG)
    named = "" if name is None else f' "{printable(name)}"'
    turns = f"{len(match.turns)} turn" + ("" if len(match.turns) == 1 else "s")
    result = "unfinished" if match.result is None else _result_text(match)
    return (f"match {match.id}{named}: {match.summary().players_text()}, started "
            f"{_local(match.started_at)}, {turns}, {result}")


def _cmd_delete(args: argparse.Namespace) -> int:
    with _open(args) as store:
        match = store.get_match(MatchId(args.id))  # a wrong id is said before anything else
        if not args.yes:
            # Checked before asking: with no one to answer, a prompt would wait or read junk.
            if not _interactive(sys.stdin):
                raise UserError(f"no terminal to ask on before deleting match {args.id}: "
                                "pass --yes to delete it")
            print(f"delete {_describe(match)}?", file=sys.stderr)
            print("It cannot be undone. Delete? [y/N] ", end="", file=sys.stderr, flush=True)
            answer = sys.stdin.readline()
            if answer.strip().lower() not in YES:
                print(f"match {args.id} kept: nothing deleted", file=sys.stderr)
                return EXIT_OK
        store.delete_match(MatchId(args.id))
    print(f"deleted {_describe(match)}")
    return EXIT_OK


# -- replay ------------------------------------------------------------------------------------


def _interactive(stdin: TextIO | None) -> bool:
    try:
        return stdin is not None and stdin.isatty()
    except (ValueError, OSError):  # closed or detached standard input
        return False


def _cmd_replay(args: argparse.Namespace) -> int:
    with _open(args) as store:
        match = store.get_match(MatchId(args.id))
    wait = not args.all and _interactive(sys.stdin)
    steps = list(match.replay())
    print(f"match {args.id}: {match.summary().players_text()}, {len(match.turns)} turns")
    for k, step in enumerate(steps):
        if step.record is None:
            print(f"\nstart: {step.position.to_move.value} to move")
        else:
            t = step.record
            for e in step.events:
                print(f"  {describe_event(e)}{recording_at(match, e.at)}")
            print(f"\nturn {step.turn}, {t.side.value}: {' '.join(t.moves) or '-- (pass)'}  "
                  f"({t.seconds:.1f}s, markers Pole {t.pole_markers}/2 Port {t.port_markers}/2)"
                  + recording_at(match, t.committed_at))
        print(step.position.diagram())
        print(step.position.to_text())
        if wait and k < len(steps) - 1:
            try:
                answer = input("[Enter] next turn, q quit: ")
            except EOFError:
                wait = False
                continue
            if answer.strip().lower() in ("q", "quit"):
                return EXIT_OK
    for e in match.pending_events:
        print(f"  {describe_event(e)}{recording_at(match, e.at)}")
    print(f"\n{_result_text(match)}")
    return EXIT_OK
