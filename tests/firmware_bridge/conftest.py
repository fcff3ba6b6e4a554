"""Shared fixtures: a virtual board on a pty and a bridge with short, test-friendly timeouts."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.bridge import Bridge, Timing
from firmware_bridge.errors import BridgeError
from firmware_bridge.simavr import ToolchainMissing, build
from firmware_bridge.virtual_device import VirtualDevice

FAST = Timing(ack_timeout=0.08, retries=5, silence=0.8, reconnect=0.05)
ROOT = Path(__file__).resolve().parents[2]


def simulate_bridge(*args: str) -> subprocess.Popen[str]:
    """`companion bridge simulate ARGS` in a process of its own, its streams piped (only the
    bridge's own commands registered: quick to start)."""
    return subprocess.Popen(
        [sys.executable, "-c", "import argparse,sys;from firmware_bridge.cli import register;"
         "p=argparse.ArgumentParser();register(p.add_subparsers());a=p.parse_args(sys.argv[1:]);"
         "sys.exit(a.func(a))", "bridge", "simulate", *args],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)


def wait_for(pred, timeout: float = 3.0) -> bool:  # type: ignore[no-untyped-def]
    """Poll ``pred`` until it holds (True) or ``timeout`` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.01)
    return False


@pytest.fixture
def device() -> Iterator[VirtualDevice]:
    with VirtualDevice(seed=2026, heartbeat_s=0.1) as dev:
        yield dev


@pytest.fixture
def bridge(device: VirtualDevice) -> Iterator[Bridge]:
    with Bridge.open(device.port, timing=FAST) as b:
        assert b.wait_connected(3.0), b.status()
        yield b


def _build_root(factory: pytest.TempPathFactory) -> Path:
    """Where the session's firmware builds go. Under pytest-xdist, the run's folder that all
    workers share (each worker's basetemp is inside it), so the builds are made once per run,
    not once per worker; otherwise the session's own basetemp."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def fw_host(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The firmware's protocol core built for this machine (needs make and cc)."""
    return _build_or_skip("host", _build_root(tmp_path_factory) / "fw-host")


@pytest.fixture(scope="session")
def fw_avr(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The AVR firmware ELF and the simavr harness (needs gcc-avr, avr-libc, libsimavr-dev)."""
    out = _build_root(tmp_path_factory) / "fw-avr"
    _build_or_skip("all", out)
    return _build_or_skip("harness", out)


@pytest.fixture(scope="session")
def fw_host_v1(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The protocol core built to speak only protocol version 1, as firmware 1.0 did."""
    return _build_or_skip("host", _build_root(tmp_path_factory) / "fw-host-v1", protocol=1)


@pytest.fixture(scope="session")
def fw_avr_v1(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A board that speaks only protocol version 1 (``make PROTOCOL=1``) and the harness."""
    out = _build_root(tmp_path_factory) / "fw-avr-v1"
    _build_or_skip("all", out, protocol=1)
    return _build_or_skip("harness", out)


def _build_or_skip(target: str, out: Path, protocol: int | None = None) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    # One worker builds while the others wait; make then finds their targets up to date.
    with open(out / ".build-lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build(target, out, protocol)


def _build(target: str, out: Path, protocol: int | None) -> Path:
    try:
        return build(target, out, protocol=protocol)
    except ToolchainMissing as exc:
        pytest.skip(str(exc))
    except BridgeError as exc:          # the toolchain is there and the build broke: a failure
        pytest.fail(str(exc))
