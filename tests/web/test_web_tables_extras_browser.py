"""The home game's parts in two headless Chromiums: the host's HUD on every seat (the
figures the server counts, drawn on each seat and hidden by one viewer), a note with a
colour tag kept on the server for one browser only, the time bank that adds seconds to
the clock, an avatar and a reaction. Screenshots at desktop and phone size go to
out/screenshots/."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator

import pytest
from test_web_tables_browser import (  # the shared headless-Chromium helpers
    DESKTOP,
    PHONE,
    WIDE,
    _browser,
    base_url,
    click,
    screenshot,
    size,
    text,
    visible,
    wait,
)

pytestmark = pytest.mark.slow
__all__ = ["base_url"]  # the module's fixture, used by name

PLAY = (  # check or call at one's turn, show when asked (a hand moves on by itself)
    "const b = document.getElementById('pt-act-call') || document.getElementById('pt-act-show');"
    " if (b) b.click();"
)


@pytest.fixture(scope="module")
def pair() -> Iterator[list]:  # type: ignore[type-arg]
    made = [_browser() for _ in range(2)]
    try:
        yield [d for d, _ in made]
    finally:
        for driver, profile in made:
            driver.quit()
            shutil.rmtree(profile, ignore_errors=True)


def hud_of(driver, seat: int) -> str:  # type: ignore[no-untyped-def]
    return text(driver, f".px-hud[data-hud='{seat}']")


def test_hud_note_and_time_bank_in_two_browsers(base_url: str, pair: list) -> None:  # type: ignore[type-arg]
    from selenium.webdriver.common.by import By

    ann, bob = pair
    for d in pair:
        size(d, DESKTOP)
    ann.get(base_url + "/tables")
    config = {"game": "standard52-holdem", "seats": 3, "stack": 400, "blinds": [1, 2],
              "bots": {"3": "station"}, "clock": 20, "time_bank": 25, "time_bank_refill": 50,
              "hud": True, "bot_delay": 0.2, "pause": 0.5, "name": "home game"}  # fmt: skip
    created = ann.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},"
        " body: JSON.stringify(arguments[0])}).then(r => r.json()).then(done);",
        config,
    )
    url = base_url + created["url"]
    for driver, name in ((ann, "ann"), (bob, "bob")):
        driver.get(url)
        wait(driver, lambda d=driver: visible(d, "pt-join"), "the join form")
        driver.find_element(By.ID, "pt-name").send_keys(name)
        driver.find_element(By.ID, "pt-join-btn").click()
        wait(driver, lambda d=driver, n=name: f"you are {n}" in text(d, "#pt-status"), name)
    # the time bank: at ann's turn her clock gets 10 more seconds, her bank 15 left
    wait(ann, lambda: visible(ann, "px-bank"), "ann's time bank at her turn")
    assert "(25 s left)" in text(ann, "#px-bank")
    before = ann.execute_script("return document.getElementById('pt-act-call') !== null")
    assert before
    click(ann, "#px-bank")
    wait(ann, lambda: "(15 s left)" in text(ann, "#px-bank"), "the bank spent")
    wait(bob, lambda: "ann takes 10 s from the time bank" in text(bob, "#pt-notices"), "told")
    # an avatar and a reaction: bob sees both on ann's seat
    ann.execute_script(
        "const s = document.getElementById('px-avatar'); s.value = 'owl';"
        "s.dispatchEvent(new Event('change'));"
    )
    wait(bob, lambda: bob.execute_script(
        "const a = document.querySelector('.pt-seat[data-seat=\"1\"] .px-avatar');"
        "return a && a.dataset.avatar === 'owl'"), "ann's owl on bob's page")  # fmt: skip
    click(ann, ".px-emoji[data-emoji='🔥']")
    wait(bob, lambda: bob.execute_script(
        "return !!document.querySelector('.pt-seat[data-seat=\"1\"] .px-bubble')"),
        "ann's reaction over her seat")  # fmt: skip
    # play two hands: the HUD counts them on every seat
    end = time.monotonic() + 120
    while time.monotonic() < end:
        for d in pair:
            d.execute_script(PLAY)
        if hud_of(bob, 1).startswith("2h") and hud_of(bob, 2).startswith("2h"):
            break
        time.sleep(0.2)
    hud = bob.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"fetch('/api/tables/{created['id']}').then(r => r.json()).then(s => done(s.hud));"
    )
    for seat in (1, 2, 3):
        figures = hud["seats"][seat - 1]
        drawn = hud_of(bob, seat)
        assert drawn.startswith(f"{figures['hands']}h "), drawn
        vpip = figures["vpip"]["percent"]
        assert (f" {round(vpip)}/" if vpip is not None else " –/") in drawn, (drawn, figures)
    screenshot(bob, "table-hud")
    # bob hides the HUD for himself; ann still sees it
    click(bob, "#px-hud-show")
    wait(bob, lambda: hud_of(bob, 1) == "", "the HUD hidden on bob's page")
    assert hud_of(ann, 2) != ""
    # a note and a red tag on ann, kept on the server for bob's browser alone
    click(bob, ".px-note-btn[data-note='1']")
    wait(bob, lambda: visible(bob, "px-note"), "the note form")
    bob.find_element(By.ID, "px-note-text").send_keys("raises light <b>on the button</b>")
    bob.execute_script(
        "const s = document.getElementById('px-note-colour'); s.value = 'red';"
        "s.dispatchEvent(new Event('change'));"
    )
    click(bob, "#px-note-save")
    tag = "const e = document.querySelector('.pt-seat[data-seat=\"1\"]'); return e && e.dataset.tag"
    wait(bob, lambda: bob.execute_script(tag) == "red", "the red tag on ann's seat")
    bob.refresh()
    wait(bob, lambda: bob.execute_script(tag) == "red", "the tag kept after a reload")
    title = bob.execute_script("return document.querySelector('.pt-seat[data-seat=\"1\"]').title")
    assert title == "Your note: raises light <b>on the button</b>"  # text, not markup
    assert (
        ann.execute_script("return document.querySelector('.pt-seat[data-seat=\"2\"]').dataset.tag")
        == ""
    )
    screenshot(bob, "table-note")
    # on a phone nothing is wider than the screen
    size(ann, PHONE)
    ann.refresh()
    wait(ann, lambda: "you are ann" in text(ann, "#pt-status"), "ann back on a phone")
    wait(ann, lambda: hud_of(ann, 2) != "", "the HUD on a phone")
    scroll_width = ann.execute_script("return document.documentElement.scrollWidth")
    assert scroll_width <= PHONE[0], ann.execute_script(WIDE)
    screenshot(ann, "table-hud")
