"""Every page in a real browser at desktop and phone size: screenshots (kept in
``out/screenshots/``), no sideways scroll, no "null" or "undefined" on the page, the
language declared and a CJK font named for the kanji."""

from __future__ import annotations

import re

import pytest
from _browser import DESKTOP, PHONE, Page

PAGES = {
    "home": "/",
    "openseven": "/openseven?cards=13&seed=4&moves=5,left&hints=1",
    "openseven-over": "/openseven?cards=7&seed=3&moves=1,left,left,left,left,left,left",
    "hands": "/hands",
    "showdown": "/showdown?game=fesca78-holdem&opponents=3&seed=8&streets=0",
    "showdown-river": "/showdown?game=fesca60-omaha&opponents=2&seed=8&streets=3",
    "showdown-over": "/showdown?game=fesca78-holdem&opponents=3&seed=8&streets=4",
    "rules": "/rules",
    "tables": "/tables",
    "study": "/study",
}


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("name", PAGES)
def test_page(page: Page, name: str, size: tuple[int, int]) -> None:
    page.open(PAGES[name], size)
    page.screenshot(name)
    if name != "openseven-over":  # the scripted game ends early: the last moves are refused
        assert page.toast() == ""
    # nothing wider than the screen: no sideways scroll
    assert page.js("return document.documentElement.scrollWidth") <= size[0]
    text = page.js("return document.body.innerText")
    assert not re.search(r"\b(null|undefined|NaN)\b", text), text
    assert page.js("return document.documentElement.lang") == "en"
    assert "Noto Sans CJK JP" in page.js("return getComputedStyle(document.body).fontFamily")
    # every page links every other, the rules included
    links = page.js("return [...document.querySelectorAll('header nav a')].map(a => a.pathname)")
    assert links == ["/openseven", "/hands", "/showdown", "/rules", "/study", "/tables"]


def test_japanese_text_is_marked_ja(page: Page) -> None:
    page.open("/hands")
    marked = page.js("return [...document.querySelectorAll('[lang=ja]')].map(e => e.innerText)")
    assert "ミクスウェル" in marked  # the category of the example hand
    assert all(not re.search(r"[A-Za-z]{3}", t) for t in marked)
    font = page.js("return getComputedStyle(document.querySelector('[lang=ja]')).fontFamily")
    assert font.startswith('"Noto Sans CJK JP"')
