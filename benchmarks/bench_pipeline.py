"""End-to-end latency of the live pipeline: from the frame that completes the
stability window to the LED command leaving the host.

    python3 benchmarks/bench_pipeline.py [--changes N] [--size WxH] [--fps F] [--seed S]

The simulated table plays random legal turns from the start position, one board change (a
move) at a time, with no hand (so every change costs only the stability window). Each frame
goes through ``companion.live.session.Session.process``: detection, the stability gate, the
referee, the match log (a file on disk), the LED picture, subscribers. The board is the virtual
LED/die board on a pseudo-terminal behind the real ``firmware_bridge.Bridge``, its bytes
paced to 115200 baud like a real board's.

For the frame at which the gate reports the new board (the stability window is complete), it
measures, from the moment ``process`` is called with that frame:

1. ``Bridge.show`` called (the LED picture handed to the bridge),
2. the first byte of the LED command read by the virtual board (it has left the host),
3. the whole picture acknowledged by the board (``Bridge.sync``),

and the share of (1) spent in detection + gate. The stability window itself (``still_s``,
0.3 s by default, plus up to one frame interval) comes on top by design and is not counted.
Target: under 50 ms beyond the stability window. Frames are rendered before the timing
starts (each change: one render, new sensor noise per frame). Exit status 0 whatever the
timings.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.profile import calibrate
from companion.live.session import Session
from companion.live.sighting import Vision
from companion.matchlog import MatchStore
from companion.progress import Progress
from companion.referee import IllegalChange, TentativeMoves, TurnCommitted, VisionState
from companion.rules.teleporters import Position, TurnState, end_turn, successors
from companion.sim.demo import SCENE, expose
from firmware_bridge import BAUD, Bridge, Color
from firmware_bridge.virtual_device import VirtualDevice
from vision.simtable import CameraPose, render


class TimedBridge:
    """The real bridge, noting when each LED picture is handed to it."""

    def __init__(self, bridge: Bridge) -> None:
        self.bridge = bridge
        self.shown: list[float] = []

    def show(self, board_colors: Mapping[str, Color]) -> None:
        self.shown.append(time.perf_counter())
        self.bridge.show(board_colors)

    def set_status(self, name: str, color: Color) -> None:
        self.bridge.set_status(name, color)

    def __getattr__(self, name: str):  # on_event, status, close, sync
        return getattr(self.bridge, name)


class TimedVision(Vision):
    def __init__(self, vision: Vision) -> None:
        super().__init__(vision.detector, vision.gate)
        self.last_s = 0.0

    def see(self, image, t):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        try:
            return super().see(image, t)
        finally:
            self.last_s = time.perf_counter() - t0


def summary(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return (f"  {name:<52} median {statistics.median(ms):6.2f} ms   p99 {p99:6.2f} ms   "
            f"worst {ms[-1]:6.2f} ms")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--changes", type=int, default=120, help="board changes to time")
    ap.add_argument("--size", default="1280x720", help="frame size (default 1280x720)")
    ap.add_argument("--fps", type=float, default=15.0, help="simulated camera frame rate")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    scene = SCENE.with_(pose=CameraPose(tilt_deg=SCENE.pose.tilt_deg, width=width,
                                        height=height))
    rng = random.Random(args.seed)

    print(f"calibrating at {width}x{height}, camera {scene.pose.tilt_deg:g} degrees off "
          "vertical ...", file=sys.stderr)
    profile = calibrate(render(Position.start().to_json(), scene).image)

    # The changes: random legal turns, a move at a time, rendered before timing starts.
    plan: list[tuple[Position, object]] = []  # (board after the move, image) / end of turn
    pos, turn = Position.start(), TurnState()
    # the bar only on a terminal: a redirected run's stderr stays clean
    rendering = Progress("rendering the changes", args.changes, unit="change")
    while sum(1 for _, img in plan if img is not None) < args.changes:
        options = list(successors(pos, turn))
        if not options or len(turn.moves) >= rng.choice((1, 2, 3, 4)):
            if len(turn.moves) == 0 and not options:
                break
            pos, turn = end_turn(pos), TurnState()
            plan.append((pos, None))
            continue
        _, pos, turn = rng.choice(options)
        if pos.winner() is not None:
            break
        frame = render(pos.to_json(), scene.with_(seed=len(plan)))
        plan.append((pos, frame.image))
        rendering.update()
    rendering.close()

    received: list[float] = []
    with VirtualDevice(seed=1, baud=BAUD) as device, tempfile.TemporaryDirectory() as tmp:
        device.mangle_rx = lambda data: (received.append(time.perf_counter()), data)[1]
        bridge = Bridge.open(device.port)
        if not bridge.wait_connected(5.0):
            print("the virtual board did not answer", file=sys.stderr)
            return 1
        board = TimedBridge(bridge)
        vision = TimedVision(Vision.from_profile(profile))
        store = MatchStore(Path(tmp) / "bench.sqlite3")

        def new_session(start: Position) -> Session:
            s = Session(vision=vision, board=board, store=store,  # type: ignore[arg-type]
                        start=start)
            s.on_update(lambda u: None)  # the app's subscriber hands updates on: a no-op
            return s

        session = new_session(Position.start())
        dt = 1 / args.fps
        t = 0.0
        start_image = render(Position.start().to_json(), scene.with_(seed=99999)).image
        for k in range(round(0.6 * args.fps)):
            session.process(expose(start_image, scene.sensor, k), t)
            t += dt
        bridge.sync(2.0)
        to_show: list[float] = []
        to_wire: list[float] = []
        to_ack: list[float] = []
        detect: list[float] = []
        wrong = resynced = 0
        stills: list[int] = []
        for i, (truth, image) in enumerate(plan):
            if image is None:  # the mover presses End turn
                number = session.state.turn_number
                session.end_turn()
                st = session.state
                if st.turn_number == number or not st.turn_start.same_board(truth):
                    # Vision misread the board: start the referee afresh from the truth, as
                    # the players would put it right (a fresh session, the same pipeline).
                    resynced += 1
                    session = new_session(truth)
                continue
            n = 0
            while n < round(3 * args.fps):  # at most 3 s for the gate to report
                frame = expose(image, scene.sensor, 1000 * i + n)
                shown_before, rx_before = len(board.shown), len(received)
                t0 = time.perf_counter()
                events = session.process(frame, t)
                t += dt
                n += 1
                if not any(isinstance(e, TentativeMoves | IllegalChange | TurnCommitted)
                           for e in events):
                    continue
                stills.append(n)
                if len(board.shown) > shown_before:  # the picture changed: time it
                    bridge.sync(2.0)
                    to_show.append((board.shown[shown_before] - t0) * 1000)
                    to_ack.append((time.perf_counter() - t0) * 1000)
                    wire = [r for r in received[rx_before:] if r >= board.shown[shown_before]]
                    if wire:
                        to_wire.append((wire[0] - t0) * 1000)
                    detect.append(vision.last_s * 1000)
                st = session.state
                if not (st.seen is not None and st.seen.same_board(truth)
                        and st.vision is VisionState.CLEAR):
                    wrong += 1
                break
        session.close()

    print(f"Pipeline latency, {len(to_show)} board changes timed ({width}x{height} frames, "
          f"{args.fps:g} fps of simulated time, seed {args.seed}; "
          f"{wrong} changes misread by vision, {resynced} turns restarted for it)")
    print(f"  stability window: {session.vision.gate.still_s if session.vision else 0:g} s; "
          f"the gate reported after a median {statistics.median(stills):g} frames")
    print(summary("frame in -> Bridge.show() (LED command to the bridge)", to_show))
    print(summary("frame in -> first byte read by the virtual board", to_wire))
    print(summary("frame in -> whole picture acknowledged by the board", to_ack))
    print(summary("  of which detection + stability gate", detect))
    rest = [a - b for a, b in zip(to_show, detect, strict=True)]
    print(summary("  of which referee + match log + LED picture", rest))
    print("  target: under 50 ms beyond the stability window (frame in -> LED command)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
