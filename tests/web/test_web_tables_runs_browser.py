"""Two people in two headless Chromiums run it twice: one goes all in, the other calls,
both choose "Run it twice"; both pages show the two runs, each pot's share per run, and
the exact all-in odds of every street of both runs. Screenshots at 1280 and 390 px go
to out/screenshots/ (gitignored)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

pytest.importorskip("selenium")
pytest.importorskip("uvicorn")

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from test_web_tables_browser import (
    DESKTOP,
    PHONE,
    WIDE,
    _browser,
    base_url,
    screenshot,
    size,
    text,
    visible,
    wait,
)

pytestmark = pytest.mark.slow
__all__ = ["base_url"]  # the module's server, shared

# all in when it is this page's turn to bet, call an all-in, run it twice when asked
PLAY = (
    "const q = (s) => document.querySelector(s);"
    "const runs = q('#pt-act-runs-2'); if (runs) { runs.click(); return 'runs'; }"
    "const allin = q(\"#pt-presets button[aria-label^='all-in']\");"
    "if (allin && q('#pt-raise') && !q('#pt-raise').hidden) {"
    "  allin.click(); q('#pt-raise-btn').click(); return 'all-in'; }"
    "const call = q('#pt-act-call'); if (call) { call.click(); return 'call'; }"
    "return '';"
)


@pytest.fixture(scope="module")
def players() -> Iterator[list[WebDriver]]:
    made = [_browser() for _ in range(2)]
    try:
        yield [d for d, _ in made]
    finally:
        for driver, profile in made:
            driver.quit()
            shutil.rmtree(profile, ignore_errors=True)


RUNS = (  # the runs of the odds table's rows
    "return [...document.querySelectorAll('#pt-odds-table tr[data-run]')].map(e => e.dataset.run)"
)


def test_two_people_run_it_twice(base_url: str, players: list[WebDriver]) -> None:
    import httpx

    config = {
        "game": "standard52-holdem",
        "seats": 2,
        "stack": 100,
        "clock": 0,
        "pause": 60,
        "runout_pause": 0.5,  # the runout street by street, quickly
        "run_it": 2,
        "name": "run it twice",
    }
    created = httpx.post(base_url + "/api/tables", json=config).json()
    url = base_url + created["url"]
    for driver, name in zip(players, ("ann", "bob"), strict=True):
        size(driver, DESKTOP)
        driver.get(url)
        wait(driver, lambda d=driver: visible(d, "pt-join"), "the join form")
        driver.find_element(By.ID, "pt-name").send_keys(name)
        driver.find_element(By.ID, "pt-join-btn").click()
        wait(driver, lambda d=driver, n=name: f"you are {n}" in text(d, "#pt-status"), "seated")
    done: list[str] = []

    def step() -> bool:
        for driver in players:
            did = driver.execute_script(PLAY)
            if did:
                done.append(str(did))
        return all(
            visible(d, "pt-last") and text(d, "#pt-last").count("Run ") >= 2 for d in players
        )

    wait(players[0], step, "the hand run twice on both pages")
    assert done.count("runs") >= 2 and "all-in" in done  # a click may repeat before the redraw
    for driver in players:
        last = text(driver, "#pt-last")
        assert "Run 1:" in last and "Run 2:" in last
        assert "run 1, main pot" in last and "run 2, main pot" in last
        # the exact odds of both runs (counted off the event loop, then pushed)
        # (each street's as it is counted: wait for both runs')
        wait(
            driver,
            lambda d=driver: set(d.execute_script(RUNS) or []) == {"1", "2"},
            "the all-in odds of both runs",
        )
    ann, bob = players
    screenshot(ann, "table-run-it-twice")
    size(ann, DESKTOP)
    size(bob, PHONE)
    bob.refresh()
    wait(bob, lambda: visible(bob, "pt-odds-table"), "the odds on a phone")
    assert bob.execute_script("return document.documentElement.scrollWidth") <= PHONE[0], (
        bob.execute_script(WIDE)
    )
    screenshot(bob, "table-run-it-twice")


# the page's board cards and odds rows: [cards on the board, odds rows, the hand is over]
WATCH = (
    "const rows = document.querySelectorAll('#pt-odds-table tbody tr').length;"
    "const cards = document.getElementById('pt-board').children.length;"
    "return [cards, rows, !document.getElementById('pt-last').hidden];"
)


def test_the_odds_come_street_by_street_on_a_phone(base_url: str, players: list[WebDriver]) -> None:
    """All in before the flop: the board comes a street at a time (``runout_pause``), and
    the phone's odds table gains each street's row while the next street waits."""
    import time

    import httpx

    config = {
        "game": "standard52-holdem", "seats": 2, "stack": 100, "clock": 0, "pause": 60,
        "runout_pause": 3, "name": "street by street",
    }  # fmt: skip
    created = httpx.post(base_url + "/api/tables", json=config).json()
    url = base_url + created["url"]
    ann, bob = players
    size(ann, DESKTOP)
    size(bob, PHONE)
    for driver, name in ((ann, "ann"), (bob, "bob")):
        driver.get(url)
        wait(driver, lambda d=driver: visible(d, "pt-join"), "the join form")
        driver.find_element(By.ID, "pt-name").send_keys(name)
        driver.find_element(By.ID, "pt-join-btn").click()
        wait(driver, lambda d=driver, n=name: f"you are {n}" in text(d, "#pt-status"), "seated")
    seen: list[tuple[int, int, bool]] = []
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        for driver in players:
            driver.execute_script(PLAY)
        cards, rows, over = bob.execute_script(WATCH)
        seen.append((cards, rows, over))
        if over and rows == 3:
            break
        time.sleep(0.1)
    assert seen and seen[-1] == (5, 3, True), seen[-5:]
    # while the turn waited, the flop's odds were on the page (and before them the odds
    # before the flop); while the river waited, the turn's: never a street not dealt yet
    waiting = {(cards, rows) for cards, rows, over in seen if not over}
    expected = {0: 1, 3: 2, 4: 3}  # rows once each street's odds are counted
    assert (3, 2) in waiting and (4, 3) in waiting, sorted(waiting)
    assert all(rows <= expected[cards] for cards, rows in waiting), sorted(waiting)
    assert bob.execute_script("return document.documentElement.scrollWidth") <= PHONE[0], (
        bob.execute_script(WIDE)
    )
    screenshot(bob, "table-odds-street-by-street")
