"""Issue 21: "There is no LICENSE file, though pyproject says MIT": the file, and the two
agreeing."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_license_file_is_mit_as_pyproject_says() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    with (ROOT / "pyproject.toml").open("rb") as f:
        declared = tomllib.load(f)["project"]["license"]
    assert declared == {"text": "MIT"}
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 tabletop-companion contributors" in text
    # the two operative sentences of the MIT text, so a truncated file fails
    assert "Permission is hereby granted, free of charge, to any person" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text
    assert "[LICENSE](LICENSE)" in (ROOT / "README.md").read_text(encoding="utf-8")
