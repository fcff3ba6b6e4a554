"""``companion clip``: a sample match recorded on the simulated table, to try ``referee`` on."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.commands.common import EXIT_OK
from companion.commands.options import finite, natural, output_file_or_folder
from companion.errors import UserError
from companion.progress import Progress


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion clip`` to the ``companion`` command's subparsers."""
    clip = sub.add_parser(
        "clip", help="record a sample match on the simulated table (to try `referee` on)",
        description="Plays a short scripted match (with a repel, a Pole Vault and an illegal "
        "move put right) on the simulated table and writes it as a video or a folder of "
        "frames. Exit status: 0 written, 2 bad input.")
    clip.add_argument("--out", required=True, type=output_file_or_folder, metavar="FILE|DIR",
                      help="a .mp4/.avi/.mkv/.mov file, or a folder for frame_N.jpg images")
    clip.add_argument("--size", default="1280x720", metavar="WxH")
    clip.add_argument("--fps", type=finite, default=30.0, metavar="N")
    clip.add_argument("--tilt", type=finite, default=10.0, metavar="DEG",
                      help="camera angle off vertical (default 10)")
    clip.add_argument("--azimuth", type=finite, default=0.0, metavar="DEG",
                      help="side the camera leans from, 0 = south (default 0)")
    clip.add_argument("--robust", action="store_true", help="also bump the camera, rest a "
                      "hand on the mat's edge and let the light drift")
    clip.add_argument("--seed", type=natural, default=11)
    clip.set_defaults(func=_cmd_clip)

def _digits(text: str) -> bool:
    """ASCII digits only, a few of them ("²".isdigit() is true too)."""
    return text.isascii() and text.isdigit() and len(text) <= 5


def _cmd_clip(args: argparse.Namespace) -> int:
    from companion.sim.clips import (
        FOURCC,
        describe_truth,
        make_clip,
        sample_scene,
        sample_script,
        write_folder,
        write_video,
    )

    w, sep, h = args.size.lower().partition("x")
    if not (sep and _digits(w) and _digits(h) and 160 <= int(w) <= 4096
            and 90 <= int(h) <= 4096):
        raise UserError(f"--size is WIDTHxHEIGHT between 160x90 and 4096x4096, got "
                       f"{args.size!r}")
    if not 1 <= args.fps <= 120:
        raise UserError(f"--fps must be 1 to 120, got {args.fps:g}")
    if not 0 <= args.tilt <= 40:
        raise UserError(f"--tilt must be 0 to 40 degrees, got {args.tilt:g}")
    out = Path(args.out)
    scene = sample_scene(int(w), int(h), args.tilt, args.azimuth, args.seed)
    clip = make_clip(sample_script(args.robust), scene, args.fps)
    if out.suffix and out.suffix.lower() not in FOURCC:
        raise UserError(f"--out {out}: a video is .mp4, .avi, .mkv or .mov; a folder has "
                        "no suffix")
    try:
        with Progress(f"writing {out.name}", clip.frame_count) as bar:
            frames = bar.track(clip.frames())
            count = (write_video(frames, out, args.fps) if out.suffix
                     else write_folder(frames, out))
    except OSError as exc:
        raise UserError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"wrote {out}: {count} frames, {clip.seconds:.1f} s at {args.fps:g} fps, "
          f"{w}x{h}; what happens in it:")
    for line in describe_truth(clip):
        print(f"  {line}")
    return EXIT_OK
