"""The real firmware, off the board: built with make, run in simavr on a pty, or its protocol
core loaded into Python with ctypes. For tests and benchmarks; stdlib only.

Every helper raises BridgeError with the reason (no avr-gcc, no simavr headers, ...) so that
callers can skip with that reason.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import threading
import time
from pathlib import Path

from firmware_bridge.errors import BridgeError

FIRMWARE_DIR = Path(__file__).resolve().parent / "firmware"
# What each make target needs, checked up front so a skip names the missing piece.
_NEEDS = {
    "all": (["make", "avr-gcc", "avr-objcopy"], []),
    "host": (["make", "cc"], []),
    "harness": (["make", "cc"], ["/usr/include/simavr/sim_avr.h",
                                 "/usr/include/simavr/parts/uart_pty.h"]),
}
_build_lock = threading.Lock()


class ToolchainMissing(BridgeError):
    """A compiler, make or the simavr headers are not installed (callers skip on this)."""


def build(target: str, build_dir: Path, *, protocol: int | None = None) -> Path:
    """``make -C firmware_bridge/firmware TARGET BUILD=build_dir``; returns build_dir.

    ``protocol=1`` builds a board that speaks only protocol version 1, as firmware 1.0 did
    (``make PROTOCOL=1``); give it a build_dir of its own.
    """
    tools, headers = _NEEDS[target]
    missing = [t for t in tools if shutil.which(t) is None]
    missing += [h for h in headers if not Path(h).exists()]
    if missing:
        raise ToolchainMissing(f"cannot build '{target}': missing {', '.join(missing)} "
                          "(apt-get install gcc-avr avr-libc binutils-avr simavr "
                          "libsimavr-dev libsimavrparts1)")
    build_dir.mkdir(parents=True, exist_ok=True)
    with _build_lock:
        proc = subprocess.run(["make", "-s", "-C", str(FIRMWARE_DIR), target,
                               f"BUILD={build_dir.resolve()}",
                               *([f"PROTOCOL={protocol}"] if protocol is not None else [])],
                              capture_output=True, text=True, check=False)
    if proc.returncode:
        raise BridgeError(f"make {target} failed: {(proc.stderr or proc.stdout).strip()[-800:]}")
    return build_dir


class FirmwareHost:
    """The firmware's proto.c and rng.c, compiled for this machine, through ctypes."""

    STATE_SIZE = 2 + 128 + 128 + 48 + 4

    def __init__(self, build_dir: Path) -> None:
        lib = ctypes.CDLL(str(build_dir / "libfwhost.so"))
        u8p = ctypes.c_char_p
        lib.host_init.argtypes = [ctypes.c_uint16]
        lib.host_feed.argtypes = [u8p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        lib.host_push_event.argtypes = [ctypes.c_uint8] * 3 + [ctypes.c_char_p, ctypes.c_int]
        lib.host_state.argtypes = [ctypes.c_char_p]
        lib.host_crc16.argtypes = [u8p, ctypes.c_uint8]
        lib.host_crc16.restype = ctypes.c_uint16
        lib.host_rng_seed.argtypes = [ctypes.c_uint32]
        lib.host_rng_stir.argtypes = [ctypes.c_uint32]
        lib.host_rng_below.argtypes = [ctypes.c_uint8]
        lib.host_rng_below.restype = ctypes.c_uint8
        lib.host_rng_roll.argtypes = [ctypes.c_uint8]
        lib.host_rng_roll.restype = ctypes.c_uint8
        self._lib = lib
        self._out = ctypes.create_string_buffer(1 << 16)

    def init(self, boot_id: int) -> None:
        self._lib.host_init(boot_id)

    def feed(self, data: bytes) -> bytes:
        n = self._lib.host_feed(data, len(data), self._out, len(self._out))
        if n > len(self._out):
            raise BridgeError(f"firmware output over {len(self._out)} bytes")
        return self._out.raw[:n]

    def push_event(self, kind: int, a: int, b: int) -> bytes:
        n = self._lib.host_push_event(kind, a, b, self._out, len(self._out))
        return self._out.raw[:n]

    def state(self) -> bytes:
        buf = ctypes.create_string_buffer(self.STATE_SIZE)
        self._lib.host_state(buf)
        return buf.raw

    def crc16(self, data: bytes) -> int:
        return int(self._lib.host_crc16(data, len(data)))

    def rng_seed(self, seed: int) -> None:
        self._lib.host_rng_seed(seed & 0xFFFFFFFF)

    def rng_stir(self, entropy: int) -> None:
        self._lib.host_rng_stir(entropy & 0xFFFFFFFF)

    def rng_below(self, n: int) -> int:
        return int(self._lib.host_rng_below(n))

    def rng_roll(self, mode: int) -> int:
        """A roll as the board makes it in die mode ``mode`` (0..5 piecepack, else 1..mode)."""
        return int(self._lib.host_rng_roll(mode))


class SimulatedBoard:
    """The built firmware ELF running in the simavr harness, its UART on a pty (``port``)."""

    def __init__(self, build_dir: Path, *, realtime: bool = True, seed: int | None = None
                 ) -> None:
        harness, elf = build_dir / "simharness", build_dir / "board.elf"
        args = [str(harness), str(elf)] + ([] if realtime else ["--fast"])
        if seed is not None:
            args += ["--seed", str(seed)]
        self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, bufsize=1)
        self._leds = b""
        self._led_frames = 0
        self._changed = threading.Condition()
        self.port = self._read_port()
        threading.Thread(target=self._read_leds, name="simavr-out", daemon=True).start()

    def _read_port(self) -> str:
        assert self._proc.stdout is not None
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            line = self._proc.stdout.readline()
            if not line:
                err = self._proc.stderr.read() if self._proc.stderr else ""
                raise BridgeError(f"simavr harness exited: {err.strip()[-400:]}")
            if line.startswith("PORT "):
                return line.split(" ", 1)[1].strip()
        raise BridgeError("simavr harness did not report its port")

    def _read_leds(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            if line.startswith("LEDS "):
                with self._changed:
                    self._leds = bytes.fromhex(line[5:].strip())
                    self._led_frames += 1
                    self._changed.notify_all()

    def leds(self) -> bytes:
        """The G, R, B bytes the strip last received (decoded from the data pin)."""
        with self._changed:
            return self._leds

    def wait_leds(self, want: bytes, timeout: float = 3.0) -> bool:
        """Wait until the strip shows exactly ``want``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._leds != want:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def _send(self, command: str) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.write(command + "\n")
        self._proc.stdin.flush()

    def press_button(self, hold_ms: int = 30) -> None:
        """Press the roll button for ``hold_ms`` of simulated time (debounce: 10 ms)."""
        self._send(f"press {hold_ms}")

    def press_many(self, count: int, hold_ms: int = 11) -> None:
        """``count`` presses back to back in simulated time, each held ``hold_ms`` and released
        as long (just over the 10 ms debounce by default): thousands of rolls in seconds."""
        self._send(f"rolls {count} {hold_ms}")

    def bounce(self, edges: int = 6) -> None:
        """A chattering contact (1 ms edges, under the debounce time), then a 30 ms press."""
        self._send(f"bounce {edges}")

    def reset(self) -> None:
        self._send("reset")

    def stop(self) -> None:
        if self._proc.poll() is None:
            try:
                self._send("quit")
                self._proc.wait(timeout=3)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
        for stream in (self._proc.stdin, self._proc.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> SimulatedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
