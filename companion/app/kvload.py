"""Load each widget module's .kv file (same name, same folder) exactly once."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder


def load_kv(module_file: str) -> None:
    """``load_kv(__file__)`` in ``board.py`` loads ``board.kv`` beside it. Loading a rule file
    twice would apply its rules twice (Kivy warns and duplicates canvas instructions)."""
    path = str(Path(module_file).with_suffix(".kv"))
    if path not in Builder.files:
        Builder.load_file(path)
