"""Speed of ``companion referee`` over a recording: frames processed per second.

    python3 benchmarks/bench_recorded.py [--sizes 1280x720,1920x1080] [--fps 30] [--runs 3]
                                         [--cache DIR]

The sample match of ``companion clip`` (5 turns, hands between every move, an illegal move put
right, a repel and a Pole Vault) is recorded once per size on the simulated table as an mp4 at
``--fps`` (kept in ``--cache``, default the system's temp folder, so reruns skip rendering),
plus a profile calibrated from its first frame. Each run referees the whole clip exactly as
``companion referee --source CLIP --profile P`` does: decoding, detection, the stability gate,
the referee, the match log (a file on disk), the text log (to a null stream). Reported per
size: the median of ``--runs`` runs of frames per second (wall clock), and that as a multiple
of real time at the clip's frame rate. Target: >= 3x real time at 30 fps (>= 90 frames/s) at
1280x720. Each run also checks that all five turns were recovered. Exit status 0 whatever
the timings (1 if a run missed a turn).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.commands.opening import calibrate_from
from companion.commands.referee import referee_recording
from companion.progress import Progress
from companion.sim.clips import make_clip, sample_scene, sample_script, write_video
from vision.sources import VideoSource


def clip_for(size: tuple[int, int], fps: float, cache: Path) -> tuple[Path, Path, int]:
    """The clip and its profile at ``size``, made once."""
    w, h = size
    path = cache / f"tabletop-sample-{w}x{h}-{fps:g}fps.mp4"
    profile = cache / f"tabletop-sample-{w}x{h}.profile.json"
    clip = make_clip(sample_script(), sample_scene(w, h, 10.0, 0.0, seed=5), fps)
    if not path.exists():
        t0 = time.perf_counter()
        with Progress(f"recording {path.name}", clip.frame_count) as bar:
            write_video(bar.track(clip.frames()), path, fps)
        print(f"  recorded {path.name}: {clip.frame_count} frames in "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
    if not profile.exists():  # as `companion referee` without --profile does it
        source = VideoSource(path)
        try:
            with Progress("calibrating the mat") as bar:
                calibrate_from(source, progress=bar)[0].save(profile)
        finally:
            source.close()
    return path, profile, len(clip.turns)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1280x720,1920x1080")
    ap.add_argument("--fps", type=float, default=30.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cache", default=tempfile.gettempdir())
    args = ap.parse_args(argv)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    rows = []
    missed = False
    for spec in args.sizes.split(","):
        w, h = (int(v) for v in spec.lower().split("x"))
        path, profile, turns = clip_for((w, h), args.fps, cache)
        rates = []
        # A step after each run, outside the timed refereeing (whose own bar is off: its
        # err is a StringIO).
        bar = Progress(f"refereeing {spec}", args.runs, unit="run")
        for _ in bar.track(range(args.runs)):
            with tempfile.TemporaryDirectory() as tmp:
                summary = referee_recording(str(path), profile=str(profile),
                                            db=str(Path(tmp) / "m.sqlite"),
                                            out=io.StringIO(), err=io.StringIO())
            if len(summary.turns) != turns:
                with bar.above():
                    print(f"  {spec}: {len(summary.turns)} of {turns} turns recovered")
                missed = True
            rates.append(summary.fps)
        bar.close()
        med = statistics.median(rates)
        rows.append((spec, summary.frames, summary.seconds, med, med / args.fps,
                     min(rates), max(rates)))
    print()
    print(f"| Clip ({args.fps:g} fps) | Frames | Recording | Frames/s (median of {args.runs}) "
          "| x real time | Range |")
    print("|---|---|---|---|---|---|")
    for spec, frames, seconds, med, ratio, lo, hi in rows:
        print(f"| {spec} | {frames} | {seconds:.1f} s | {med:.0f} | {ratio:.1f}x | "
              f"{lo:.0f}-{hi:.0f} |")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
