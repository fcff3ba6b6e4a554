"""docs/rules/: the pages cite files that are in the repository, and name the rule books,
which are not, by title and by where the project keeps their text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs" / "rules").glob("*.md"))
SEED = re.compile(r"\b00[0-9]_[0-9a-f]{16}\.txt\b")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_cited_file_is_in_the_repository(page: Path) -> None:
    """Issue 21: "rule pages cite source files that are not in the repository": every path
    a rule page quotes (`companion/...`, `tests/...py`, `benchmarks/...`) is there (a glob
    matching at least one file), and no page names a machine's own folder."""
    text = page.read_text(encoding="utf-8")
    assert "/work/" not in text
    for path in re.findall(r"`((?:companion|tests|benchmarks|vision|docs)/[^`\s]+)`", text):
        assert list(ROOT.glob(path.rstrip("/"))), f"{page.name} cites {path}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_rule_book_is_named_with_where_its_text_is_kept(page: Path) -> None:
    """Issue 21: a rule book's text file is named only with the words saying it is not in
    the repository and where the shared rule-book folder (with its README) is."""
    text = " ".join(page.read_text(encoding="utf-8").split())
    assert SEED.search(text), f"{page.name} names no rule book"
    assert "not part of this repository" in text
    assert "`../shared/seeds/` (listed in that folder's README)" in text
