"""The table page in a real Chromium: on a phone (390 x 844) the action buttons are on
screen without scrolling when it is your turn, and the host's bot menu offers every bot
the server runs."""

from __future__ import annotations

from typing import Any

from _browser import PHONE, Page

from cardlab.bots import BOTS


def _my_table(page: Page, size: tuple[int, int], **fields: Any) -> str:
    """A table created by this browser (its host), which has taken seat 1 as 'ann'."""
    page.open("/tables", size)
    body = {"game": "fesca78-holdem", "stack": 100, "clock": 0, "pause": 0} | fields
    tid = page.driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},
                              body: JSON.stringify(arguments[0]), credentials: 'same-origin'})
          .then((r) => r.json()).then((t) => done(t.id), (e) => done('error ' + e));
        """,
        body,
    )
    assert isinstance(tid, str) and not tid.startswith("error"), tid
    page.driver.get(f"{page.base_url}/tables/{tid}")
    page.wait(lambda: page.js("return !!document.getElementById('pt-name')"), what="the page")
    page.wait(
        lambda: page.js("return !document.getElementById('pt-join').hidden"), what="the join form"
    )
    page.js("document.getElementById('pt-name').value = 'ann'")
    page.js("document.getElementById('pt-join-btn').click()")
    return tid


def test_the_action_buttons_are_on_a_phone_screen_on_your_turn(page: Page) -> None:
    _my_table(page, PHONE, seats=2, bots={"2": "station"})
    page.wait(
        lambda: page.js(
            "const a = document.getElementById('pt-actions');"
            "return !a.hidden && document.querySelectorAll('#pt-buttons button').length > 0"
        ),
        what="your turn",
    )
    page.js("window.scrollTo(0, 0)")
    boxes = page.js(
        "return [...document.querySelectorAll('#pt-buttons button')].map((b) => {"
        "  const r = b.getBoundingClientRect();"
        "  return {text: b.textContent, top: r.top, bottom: r.bottom, left: r.left,"
        "          right: r.right}; })"
    )
    height, width = page.js("return [window.innerHeight, window.innerWidth]")
    assert (width, height) == PHONE
    for box in boxes:
        assert box["top"] >= 0 and box["bottom"] <= height, (box, height)
        assert box["left"] >= 0 and box["right"] <= width, (box, width)
    # and the felt's middle and every seat are in sight, the panel over none of them
    middle, panel = page.js(
        "return ['pt-middle', 'pt-actions'].map("
        "(id) => document.getElementById(id).getBoundingClientRect().toJSON())"
    )
    seats = page.js(
        "return [...document.querySelectorAll('#pt-seats .pt-seat')]"
        ".map((e) => e.getBoundingClientRect().toJSON())"
    )
    for box in [middle, *seats]:
        assert box["top"] >= 0 and box["bottom"] <= panel["top"], (box, panel)


def test_the_host_bot_menu_offers_every_bot(page: Page) -> None:
    _my_table(page, (1280, 800), seats=3, bots={"2": "station"})
    page.wait(
        lambda: page.js("return document.querySelectorAll('#pt-host-seats select').length") == 1,
        what="the host's panel with one open seat",
    )
    offered = page.js(
        "return [...document.querySelectorAll('#pt-host-seats select option')].map((o) => o.value)"
    )
    assert sorted(offered) == sorted(BOTS)
    assert {"pushfold", "nash"} <= set(offered)
