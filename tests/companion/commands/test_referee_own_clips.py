"""``companion referee`` over recordings each test makes for itself (issues 8, 16, 18, 21): a
recording that does not start on the set-up, a winning turn, ``companion clip``, a randomised
print, and sources that are not recordings.

Apart from ``test_referee.py`` (the shared sample-match clips and their runs), so that
``--dist loadfile`` can run these on another worker while those clips are rendered.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.commands.main import main
from companion.commands.referee import (
    UserError,
    clock,
    open_recording,
    referee_recording,
)
from companion.matchlog import MatchStore
from companion.rules.teleporters import Position, TurnState, parse_move, play
from companion.rules.teleporters.random_play import random_midgame
from companion.sim.clips import (
    ClipScript,
    make_clip,
    sample_scene,
    sample_script,
    write_folder,
)
from vision.sources import FolderSource

EMPTY_MAT = {"game": "teleporters", "to_move": "south", "poles": {}, "ports": []}


def test_a_recording_that_does_not_start_on_the_set_up_says_so(tmp_path: Path) -> None:
    """Issue 8: without --profile the first still frame must show the start position; say so
    clearly when it does not."""
    import random

    mid = random_midgame(random.Random(3), 4)
    clip = make_clip(ClipScript(turns=(), start=mid), sample_scene(seed=2))
    write_folder(clip.frames(), tmp_path / "frames")
    with pytest.raises(UserError, match="does not show the start position"):
        referee_recording(str(tmp_path / "frames"), db=str(tmp_path / "m.sqlite"),
                          out=io.StringIO(), err=io.StringIO())


def test_clock() -> None:
    assert clock(62.5) == "1:02.5"
    assert clock(0) == "0:00.0"


def test_a_winning_turn_ends_the_match_with_a_win_event(tmp_path: Path) -> None:
    """Issue 8, Output: {"event": "game_won", "side": ...} when a turn wins; with --profile and
    --start the recording need not begin on the set-up (here: the demo's match, south's
    winning move)."""
    from calibration.profile import calibrate
    from companion.rules.teleporters import end_turn
    from companion.sim.demo import DEMO_START
    from vision.simtable import render

    pos = Position.from_text(DEMO_START)
    for turn in (("Pd7-d8", "Pg7-f8", "Vb5se-f5ne>e8"), ("Pe8-f7", "Ph4-h2")):
        state = TurnState()
        for text in turn:
            pos, state = play(pos, parse_move(text), state)
        pos = end_turn(pos)
    scene = sample_scene(seed=9)
    clip = make_clip(ClipScript(turns=(("Pe6-e8",),), start=pos), scene)
    write_folder(clip.frames(), tmp_path / "frames")
    profile = tmp_path / "profile.json"
    calibrate(render(Position.start().to_json(), scene).image).save(profile)
    out = io.StringIO()
    summary = referee_recording(str(tmp_path / "frames"), profile=str(profile), start=pos,
                                db=str(tmp_path / "m.sqlite"), as_json=True, out=out,
                                err=io.StringIO())
    docs = [json.loads(line) for line in out.getvalue().splitlines()]
    (win,) = [d for d in docs if d["event"] == "game_won"]
    assert win["side"] == "south" and summary.winner is not None
    (turn,) = [d for d in docs if d["event"] == "turn_committed"]
    assert turn["moves"] == ["Pe6-e8"] and turn["by"] == "recording_ended"
    with MatchStore(tmp_path / "m.sqlite") as store:
        (item,) = store.list_matches()
        assert store.get_match(item.id).result.value == "south"


def test_companion_clip_writes_a_sample_recording(tmp_path: Path, capsys) -> None:
    """`companion clip` records the sample match to try `referee` on; bad sizes exit 2."""
    out = tmp_path / "frames"
    assert main(["clip", "--out", str(out), "--size", "320x180", "--fps", "4"]) == 0
    text = capsys.readouterr().out
    files = list(out.glob("frame_*.jpg"))
    assert f"{len(files)} frames" in text and "slip f8-f5" in text
    assert "turn 5 south: Vc3se-c7nwxb7" in text
    assert main(["clip", "--out", str(tmp_path / "x.gif")]) == 2
    assert ".mp4, .avi, .mkv or .mov" in capsys.readouterr().err
    assert main(["clip", "--out", str(out), "--size", "big"]) == 2
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_a_randomised_print_is_refereed_turn_by_turn_with_no_phantom(tmp_path: Path) -> None:
    """Issue 16, Done when: `companion referee` over a clip of the simulated table with a
    randomised print (here a light print whose Teleports and Ports stand back to back, seen
    by a webcam) recovers every turn, with no phantom moves."""
    import cv2

    from vision.simtable import render, vary_look

    clip = make_clip(sample_script(), vary_look(sample_scene(960, 540, 15.0, 20.0, seed=3)))
    path = tmp_path / "frames"
    write_folder(clip.frames(), path)
    empty = tmp_path / "empty.jpg"
    cv2.imwrite(str(empty), render(EMPTY_MAT, clip.scene.with_(seed=3 * 1000 + 999)).image)
    text = io.StringIO()
    summary = referee_recording(str(path), db=str(tmp_path / "m.sqlite"), fps=clip.fps,
                                empty=str(empty), out=text, err=io.StringIO())
    assert len(summary.turns) == len(clip.turns), text.getvalue()
    for got, want in zip(summary.turns, clip.turns, strict=True):
        assert got.side.value == want.side and got.position.same_board(want.position), (
            got.number, text.getvalue())
    assert not summary.corrections and not summary.unfinished, text.getvalue()
    assert "moved first" not in text.getvalue()


def test_a_number_given_as_source_is_no_camera(tmp_path: Path, capsys) -> None:
    """Issue 18, silent wrong answers: "`--source 2024` opens camera 2024 instead of saying
    the file is missing". A recording is a file or a folder; a camera is `companion run`'s."""
    assert main(["referee", "--source", "2024", "--db", str(tmp_path / "m.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "to referee from camera 2024 use companion run" in err


def test_a_recording_named_like_a_camera_index_is_the_recording(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21 (cameras: an index, a device or a URL): `referee --source 0` where a folder
    of frames is named 0 reads that folder; a camera is never opened for a recording."""
    (tmp_path / "0").mkdir()
    cv2.imwrite(str(tmp_path / "0" / "frame_0001.png"), np.zeros((8, 8, 3), np.uint8))
    monkeypatch.chdir(tmp_path)
    source = open_recording("0", 10.0)
    try:
        assert isinstance(source, FolderSource)
    finally:
        source.close()
