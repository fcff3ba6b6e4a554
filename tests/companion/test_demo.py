"""``companion demo``: the scripted match shows a take-back, a Pole Vault, an illegal move that
is flagged and then corrected, and a win (issue 5's script, refereed by the rules core)."""

from __future__ import annotations

import io

from companion.demo import run_demo


def test_demo_match_runs_to_a_win_with_the_illegal_move_flagged() -> None:
    out = io.StringIO()
    assert run_demo(out=out) == 0
    text = out.getvalue()
    assert "ILLEGAL (Walking)" in text and "light red: h4 h1" in text
    assert "Vb5se-f5ne>e8" in text  # the Pole Vault
    assert "seen: no change" in text  # the take-back
    assert text.rstrip().endswith("south wins with all four Poles on its Goal Telepads")


def test_demo_delay_paces_the_output() -> None:
    pauses: list[float] = []
    run_demo(delay=0.25, out=io.StringIO(), sleep=pauses.append)
    assert pauses and set(pauses) == {0.25}
