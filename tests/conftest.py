"""The order in which the test files are handed to the xdist workers.

With ``--dist loadfile`` each file runs whole on one worker, and a worker that finishes takes
the next file in the queue. pytest-xdist would queue the files with the most tests first,
which left the few-test files that take longest (the devset, the guide's commands, the
refereed and demo recordings) to the end, one worker busy with them while the other
waited. Here the files known to be long are queued first, longest first, and the rest
after them in collection order; addopts turns xdist's own reordering off. Only the order of
whole files changes: the tests within a file keep theirs (a module's fixtures and the fuzz
suite's memory test rely on that), and nothing is skipped or added.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Kivy makes its home's folders when it is imported, each after checking it is missing: two
# xdist workers importing it at once into a home not made yet (a fresh machine, or a new
# KIVY_HOME) race, and one fails collecting with FileExistsError. Each worker reads this
# file before any test module, so the folders are made here first, idempotently.
_KIVY_HOME = Path(os.environ.get("KIVY_HOME") or Path.home() / ".kivy").expanduser()
(_KIVY_HOME / "mods").mkdir(parents=True, exist_ok=True)

# Seconds of CPU each long file took in a full run on this project's 2-core machine (late
# 2026), rounded. Only their order matters; a file missing here goes after them.
LONG_FILES: dict[str, int] = {
    "tests/vision/test_calibrate_detect.py": 161,
    "tests/companion/commands/test_referee.py": 102,
    "tests/vision/test_devset.py": 85,
    "tests/vision/test_shapes.py": 53,
    "tests/firmware_bridge/test_die_fairness.py": 50,
    "tests/companion/commands/test_referee_own_clips.py": 46,
    "tests/rules/test_teleporters_movegen.py": 35,
    "tests/test_fuzz_inputs.py": 27,
    "tests/companion/commands/test_demo.py": 26,
    "tests/companion/commands/test_cli.py": 25,
    "tests/vision/test_reading.py": 24,
    "tests/vision/test_gate.py": 22,
    "tests/rules/test_portals_properties.py": 22,
    "tests/rules/test_teleporters_properties.py": 20,
    "tests/vision/test_matfind.py": 18,
    "tests/vision/test_camouflage.py": 18,
    "tests/calibration/test_intrinsics.py": 18,
    "tests/test_benchmarks_progress.py": 17,
    "tests/rules/test_portal_hex_properties.py": 16,
    "tests/vision/test_drift.py": 15,
    "tests/vision/test_shadow_tint.py": 14,
    "tests/companion/commands/test_run.py": 14,
    "tests/companion/commands/test_demo_ai.py": 13,
    "tests/docs/test_real_table.py": 12,
    "tests/companion/commands/test_progress.py": 12,
    "tests/companion/matchlog/test_crash.py": 11,
    "tests/companion/live/test_quest.py": 11,
    "tests/companion/commands/test_look.py": 11,
    "tests/rules/test_telic_properties.py": 9,
    "tests/companion/matchlog/test_cli.py": 9,
    "tests/firmware_bridge/test_firmware_host.py": 8,
    "tests/companion/matchlog/test_delete_rename_import.py": 7,
    "tests/companion/app/test_app.py": 7,
    "tests/companion/app/test_quest_app.py": 6,
    "tests/companion/ai/test_player.py": 6,
    "tests/companion/commands/test_quiet_opencv.py": 5,
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    first_seen: dict[str, int] = {}
    for i, item in enumerate(items):
        first_seen.setdefault(item.nodeid.split("::", 1)[0], i)

    def key(item: pytest.Item) -> tuple[int, int]:
        path = item.nodeid.split("::", 1)[0]
        return -LONG_FILES.get(path, 0), first_seen[path]

    items.sort(key=key)  # stable: each file's own tests keep their order
