"""The ``companion`` command line: one parser, each command added by its own module's
``register(subparsers)``. Exit codes: 0 ok/legal, 1 illegal, 2 bad input, 130 interrupted."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Sequence

from companion.commands import ai, clip, demo, look, mat, matches, quest, referee, rules, run
from companion.commands.common import EXIT_BAD_INPUT, EXIT_FAULT, EXIT_INTERRUPTED, EXIT_OK
from companion.errors import UserError
from companion.rules import RulesError
from companion.rules.common import quoted
from firmware_bridge.cli import register as register_bridge


class _VersionAction(argparse.Action):
    """``--version``: as argparse's own, but the version is looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None
                 ) -> None:
        super().__init__(option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                         nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from companion.version import package_version

        print(f"{parser.prog} {package_version()}")
        parser.exit(EXIT_OK)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="tabletop-companion: a referee for physical board games.",
    )
    parser.add_argument("--version", action=_VersionAction,
                        help="print the version of tabletop-companion and exit")
    parser.add_argument("--debug", action="store_true",
                        help="show the Python traceback of an unexpected error (to report it)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    # in the order `companion --help` lists them
    rules.register(sub)  # setup, judge
    mat.register(sub)  # mat, calibrate, detect
    look.register(sub)
    register_bridge(sub)
    matches.register(sub)
    demo.register(sub)
    quest.register(sub)
    run.register(sub)
    referee.register(sub)
    clip.register(sub)
    ai.register(sub)
    return parser


def _stop_on_sigterm() -> None:
    """SIGTERM (a service manager, ``kill``) ends a command as Ctrl-C does: through its
    cleanup (the match log closed, the virtual board's temp folder removed), not mid-write."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        def stop(signum: int, frame: object) -> None:
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, stop)


# FFmpeg's own level (libavutil's AV_LOG_FATAL): its errors are the reasons a file or
# stream did not open, which the command says itself in its one line.
FFMPEG_LOG_FATAL = "8"


def quiet_opencv(debug: bool) -> None:
    """OpenCV logs errors only, and FFmpeg (inside OpenCV) nothing short of a crash: no
    "can't open camera by index" or libavdevice warnings, no "[tcp @ 0x...] Connection
    refused" over the command's own one-line error. Left as it is with ``--debug``, and
    where the user set the level in the environment (``OPENCV_LOG_LEVEL``,
    ``OPENCV_FFMPEG_LOGLEVEL``) to see more."""
    if debug:
        return
    # Read by OpenCV when its FFmpeg backend first starts, which is after this: no command
    # opens a video before main() has run.
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", FFMPEG_LOG_FATAL)
    if "OPENCV_LOG_LEVEL" not in os.environ:
        import cv2

        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)


def main(argv: Sequence[str] | None = None) -> int:
    _stop_on_sigterm()
    parser = build_parser()
    args = parser.parse_args(argv)
    quiet_opencv(args.debug)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    from companion.matchlog import MatchLogError
    from vision.errors import VisionError

    try:
        return int(args.func(args))
    # The one way a command fails on bad input: one line naming it, exit 2. The packages'
    # own errors (a rule broken by the input, a profile or store that cannot be used) name
    # the offending value too.
    except (UserError, RulesError, VisionError, MatchLogError) as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM where the command has no answer of its own
        print(f"\ncompanion {args.command}: stopped", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:  # a bug: one line, unless the user asked for the trace
        if args.debug:
            raise
        print(f"companion {args.command}: unexpected error ({type(exc).__name__}: "
              f"{quoted(str(exc))[1:-1]}); this is a bug: run it again with "
              "`companion --debug ...` and report what it prints", file=sys.stderr)
        return EXIT_FAULT


if __name__ == "__main__":
    sys.exit(main())
