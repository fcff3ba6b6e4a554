"""What every ``companion`` command shares: the exit codes, and the options of the commands
that keep a match log (``--db``) or calibrate from a camera or a recording."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.commands.options import path_text, player_name
from companion.matchlog.store import ENV_VAR, default_db_path

EXIT_OK, EXIT_ILLEGAL, EXIT_BAD_INPUT = 0, 1, 2  # 1: a verdict (illegal, not solved)
EXIT_FAULT = 1  # ... or a fault that left the work part-done (said in one line)
EXIT_INTERRUPTED = 130  # Ctrl-C, as a shell reports it


def add_calibration_source(parser: argparse.ArgumentParser, first: str) -> None:
    """--profile, or --empty and --south-at to calibrate from ``first`` (which must show the
    start position): for `run` and `referee`."""
    parser.add_argument("--profile", metavar="PATH",
                        help=f"mat profile from `companion calibrate` (default: calibrate "
                        f"from {first}, which must show the start position)")
    parser.add_argument("--empty", metavar="PATH",
                        help="without --profile: a photo of the empty mat from the same "
                        "camera in the same light, to calibrate with (see `calibrate --empty`)")
    parser.add_argument("--south-at", choices=["bottom", "top", "left", "right"],
                        default="bottom", help="without --profile: the image edge nearest "
                        "south's Home row (default bottom)")


def add_sides(parser: argparse.ArgumentParser) -> None:
    """--first (the side that moves first), --south and --north (the players' names), as
    every command that referees a game takes them (``run``, ``referee``)."""
    parser.add_argument("--first", choices=["south", "north"],
                        help="the side that moves first (default south, or the start "
                        "position's; the referee also notices when the other side does)")
    parser.add_argument("--south", type=player_name, metavar="NAME",
                        help="the name of the player of south (kept in the match log)")
    parser.add_argument("--north", type=player_name, metavar="NAME",
                        help="the name of the player of north")


def players_of(args: argparse.Namespace) -> dict[str, str]:
    """Side -> player name, of the sides --south and --north named."""
    return {side: name for side in ("south", "north")
            if (name := getattr(args, side, None)) is not None}


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    """``--db PATH`` as every command that reads or writes the match store takes it
    (``matches``, ``run``, ``demo``, ``quest``, ``referee``)."""
    parser.add_argument("--db", metavar="PATH", default=None, type=path_text,
                        help=f"match store (default: ${ENV_VAR}, else {default_db_path()})")


def db_path(args: argparse.Namespace) -> Path:
    return Path(args.db).expanduser() if getattr(args, "db", None) else default_db_path()
