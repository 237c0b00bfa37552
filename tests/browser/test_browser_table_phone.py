"""The table page in a real Chromium: on a phone (390 x 844) the action buttons are on
screen without scrolling when it is your turn, and the host's bot menu offers every bot
the server runs."""

from __future__ import annotations

from typing import Any

import pytest
from _browser import PHONE, SCREENSHOTS, Page

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


# every box on a phone at your turn: the panel and its controls, each seat and the text
# that makes it readable (its number, name and stack)
PHONE_BOXES = """
const box = (e) => { const r = e.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
const px = (e) => parseFloat(getComputedStyle(e).fontSize);
const seats = [...document.querySelectorAll('#pt-seats .pt-seat')].map((s) => ({
  box: box(s.querySelector('.pt-plate')),
  cards: box(s.querySelector('.pt-cards')),
  number: s.querySelector('.no').offsetWidth > 0 ? s.querySelector('.no').textContent : '',
  font: Math.min(px(s.querySelector('.nm')), px(s.querySelector('.meta'))),
  name: box(s.querySelector('.nm')),
  clipped: s.querySelector('.nm').scrollHeight > s.querySelector('.nm').clientHeight + 1,
  stack: s.querySelector('.stk') ? box(s.querySelector('.stk')) : null,
}));
const controls = [...document.querySelectorAll(
  '#pt-actions button, #pt-actions input, #pt-hole .card')]
  .filter((e) => e.offsetParent !== null).map((e) => ({id: e.id || e.textContent, ...box(e)}));
return {seats, controls, panel: box(document.getElementById('pt-actions')),
        felt: box(document.getElementById('pt-felt')),
        view: [window.innerWidth, window.innerHeight],
        scroll: [document.documentElement.scrollWidth, window.scrollY]};
"""


@pytest.mark.parametrize("seats", [7, 10])
def test_seven_to_ten_seats_and_the_action_panel_on_one_phone_screen(
    page: Page, seats: int
) -> None:
    """A full ring game on a 390 x 844 phone, at your turn, without scrolling: every seat
    on screen, apart from the others and above the action panel, its number, its whole
    name (an avatar does not squeeze it) and its stack in letters of 11 px or more; the
    whole panel (your cards, every button, the raise slider and its presets) on screen
    too."""
    bots = {str(k): "station" for k in range(2, seats + 1)}
    _my_table(page, PHONE, seats=seats, bots=bots, bot_delay=0)
    page.wait(
        lambda: page.js(
            "const a = document.getElementById('pt-actions');"
            "return !a.hidden && document.querySelectorAll('#pt-buttons button').length > 0"
            " && !document.getElementById('pt-raise').hidden"
        ),
        what="your turn",
    )
    page.js("window.scrollTo(0, 0)")
    b = page.js(PHONE_BOXES)
    width, height = b["view"]
    assert (width, height) == PHONE and b["scroll"] == [width, 0], b["scroll"]
    assert len(b["seats"]) == seats
    for k, seat in enumerate(b["seats"]):
        for r in (seat["box"], seat["cards"]):
            assert r["top"] >= 0 and r["left"] >= 0 and r["right"] <= width, (k, r)
            assert r["bottom"] <= b["panel"]["top"] + 0.5, (k, r, b["panel"])
        assert seat["font"] >= 11 and seat["number"] == f"{k + 1}. ", (k, seat)
        plate = seat["box"]["right"] - seat["box"]["left"]  # the name has the plate's width
        assert seat["name"]["right"] - seat["name"]["left"] >= 0.8 * plate - 12, (k, seat)
        assert not seat["clipped"], (k, seat)  # "station bot 10" whole, on two lines
        assert seat["stack"] is None or seat["stack"]["right"] <= seat["box"]["right"], seat
        for other in b["seats"][k + 1 :]:
            assert not _overlap(seat["box"], other["box"]), (seat, other)
    assert b["panel"]["bottom"] <= height + 0.5, (b["panel"], height)
    assert len(b["controls"]) >= 5, b["controls"]  # cards, fold, call, the raise and presets
    for c in b["controls"]:
        assert c["top"] >= 0 and c["bottom"] <= height and c["left"] >= 0 and c["right"] <= width, c
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)  # the one screen a player sees
    page.driver.save_screenshot(str(SCREENSHOTS / f"table-{seats}-seats-phone-screen.png"))
    page.screenshot(f"table-{seats}-seats")
    page.resize((1280, 800))
    page.screenshot(f"table-{seats}-seats")


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"] - 0.5
        and b["left"] < a["right"] - 0.5
        and a["top"] < b["bottom"] - 0.5
        and b["top"] < a["bottom"] - 0.5
    )
