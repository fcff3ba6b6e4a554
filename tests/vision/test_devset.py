"""Issue 16: vision on photographs our own drawing never made. The public development set
(``../shared/vision-devset/``: six scenes from an independent path tracer, two mat prints) is
read through the public CLI exactly as its own ``score.py`` does: ``companion calibrate``
(with ``--empty``, and without) then ``companion detect --json``. Skipped where the set is not
beside the checkout. Nothing here is tuned to these images; the figures per scene are in the
README and the issue's closing note."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from companion.commands.main import main

DEVSET = Path(__file__).resolve().parents[3] / "shared" / "vision-devset"
SCENES = sorted(d for d in DEVSET.glob("d*") if (d / "start.jpg").is_file()) \
    if DEVSET.is_dir() else []
FILES = "abcdefgh"

pytestmark = pytest.mark.skipif(not SCENES, reason="the vision development set is not here")


def south_at(scene: Path) -> str:
    """The image edge nearest south's Home row, from the camera's yaw (as score.py)."""
    yaw = math.radians(float(json.loads((scene / "scene.json").read_text())["camera"]["yaw_deg"]))
    up, right = -math.cos(yaw), -math.sin(yaw)
    if abs(up) >= abs(right):
        return "top" if up > 0 else "bottom"
    return "right" if right > 0 else "left"


def spaces(pos: dict) -> dict[str, tuple]:
    poles = {sq: side for sq, side in pos.get("poles", {}).items()}
    ports: dict[str, set] = {}
    for p in pos.get("ports", []):
        ports.setdefault(p["square"], set()).add((p["side"], p["corner"]))
    return {f"{f}{r}": (poles.get(f"{f}{r}"), frozenset(ports.get(f"{f}{r}", ())))
            for r in range(1, 9) for f in FILES}


def read_scene(scene: Path, tmp: Path, capsys: pytest.CaptureFixture[str],
               empty: bool) -> tuple[int, str, list[dict]]:
    profile = tmp / f"{scene.name}.json"
    args = ["calibrate", "--image", str(scene / "start.jpg"), "--out", str(profile),
            "--south-at", south_at(scene)]
    if empty:
        args += ["--empty", str(scene / "empty.jpg")]
    rc = main(args)
    err = capsys.readouterr().err
    if rc != 0:
        return rc, err, []
    images = [*sorted(scene.glob("pos_*.jpg")), scene / "hand_01.jpg"]
    assert main(["detect", "--profile", str(profile), "--json", *map(str, images)]) == 0
    docs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return rc, err, docs


def test_every_devset_scene_calibrates_with_the_empty_mat_and_flags_every_hand(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16, Done when (devset, with --empty): every scene calibrates and every hand
    frame is reported occluded. Spaces read right are counted too; this test holds the
    ground gained (at least 99% of all spaces, and every Teleport read as one read on its
    right diagonal: "Teleport diagonals must be read right from the walls' geometry"), the
    README states the figures."""
    right = total = 0
    diagonals: list[tuple[str, str]] = []
    for scene in SCENES:
        rc, err, docs = read_scene(scene, tmp_path, capsys, empty=True)
        assert rc == 0, (scene.name, err)
        *positions, hand = docs
        assert hand["status"] == "occluded", scene.name
        for doc in positions:
            truth = json.loads(Path(doc["path"]).with_suffix(".json").read_text())
            want, have = spaces(truth), spaces(doc.get("position") or {})
            right += sum(want[sq] == have[sq] for sq in want)
            total += 64
            diagonals += [(Path(doc["path"]).name, sq) for sq in want
                          if len(want[sq][1]) == len(have[sq][1]) == 2
                          and {s for s, _ in want[sq][1]} == {s for s, _ in have[sq][1]}
                          and want[sq][1] != have[sq][1]]
    assert right / total >= 0.99, f"{right}/{total} spaces read right"
    assert not diagonals, f"Teleports on the wrong diagonal: {diagonals}"


def test_without_the_empty_mat_a_scene_reads_well_or_asks_for_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16, Done when (devset, without --empty): each scene either calibrates and reads
    at least 99% of spaces, or fails with exit 2 and one line that names --empty."""
    for scene in SCENES:
        rc, err, docs = read_scene(scene, tmp_path, capsys, empty=False)
        if rc != 0:
            assert rc == 2 and "--empty" in err and err.count("\n") == 1, (scene.name, err)
            continue
        right = total = 0
        for doc in docs[:-1]:
            truth = json.loads(Path(doc["path"]).with_suffix(".json").read_text())
            want, have = spaces(truth), spaces(doc.get("position") or {})
            right += sum(want[sq] == have[sq] for sq in want)
            total += 64
        assert right / total >= 0.99, (scene.name, f"{right}/{total}")
