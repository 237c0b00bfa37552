"""docs/index.md is the map of every page of docs/: each page is listed, each link leads
to a page that exists, and the README links the map."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_every_page_is_on_the_map_and_every_link_leads_somewhere() -> None:
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    links = LINK.findall(text)
    missing = [link for link in links if not (DOCS / link).resolve().exists()]
    assert not missing, f"docs/index.md links pages that do not exist: {missing}"
    pages = {p.name for p in DOCS.glob("*.md")} - {"index.md"}
    unlisted = sorted(pages - set(links))
    assert not unlisted, f"pages missing from docs/index.md: {unlisted}"
    groups = re.findall(r"^## (\w+)", text, flags=re.MULTILINE)
    assert groups == ["Players", "Designers", "Programmers", "Operators"]


def test_the_readme_links_the_map() -> None:
    assert "(docs/index.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
