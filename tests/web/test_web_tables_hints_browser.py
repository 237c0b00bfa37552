"""Hints on a double-board bomb pot in a headless Chromium: heads-up against a bot, the
viewer turns "Hints" on; the page says the viewer's best hand and equity on each board
and their share of the pot, the same figures the server sent (the server's figures are
checked against a brute force in tests/table/test_double_board_hints.py). Screenshots at
1280 and 390 px go to out/screenshots/ (gitignored)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("selenium")
pytest.importorskip("uvicorn")

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


@pytest.fixture(scope="module")
def viewer() -> Iterator[Any]:
    driver, profile = _browser()
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_hints_on_a_double_board(base_url: str, viewer: Any) -> None:
    import httpx
    from selenium.webdriver.common.by import By

    config = {
        "game": "standard52-holdem", "seats": 2, "stack": 100, "clock": 0, "pause": 60,
        "bots": {"2": "station"}, "bot_delay": 0.1, "bomb_pot_every": 1,
        "bomb_pot_ante": 5, "bomb_pot_boards": 2, "name": "double-board hints",
    }  # fmt: skip
    created = httpx.post(base_url + "/api/tables", json=config).json()
    ann = viewer
    size(ann, DESKTOP)
    ann.get(base_url + created["url"])
    wait(ann, lambda: visible(ann, "pt-join"), "the join form")
    ann.find_element(By.ID, "pt-name").send_keys("ann")
    ann.find_element(By.ID, "pt-join-btn").click()
    wait(ann, lambda: "you are ann" in text(ann, "#pt-status"), "ann seated")
    click(ann, "#pt-hints")
    wait(ann, lambda: "share of the pot" in text(ann, "#pt-hint"), "the double-board hint")
    shown = text(ann, "#pt-hint")
    cookie = ann.get_cookies()
    jar = {c["name"]: c["value"] for c in cookie}
    state = httpx.get(base_url + f"/api/tables/{created['id']}", cookies=jar).json()
    hint = state["hint"]
    assert hint is not None and [b["on"] for b in hint["boards"]] == [1, 2]
    for b in hint["boards"]:  # each board's hand and equity, as the server sent them
        assert f"Board {b['on']}: you have {b['hand']}, equity {100 * b['equity']:.1f}%" in shown
    assert f"share of the pot: {100 * hint['equity']:.1f}%" in shown
    screenshot(ann, "table-double-board-hints")
    size(ann, PHONE)
    ann.refresh()
    wait(ann, lambda: "share of the pot" in text(ann, "#pt-hint"), "the hint on a phone")
    assert ann.execute_script("return document.documentElement.scrollWidth") <= PHONE[0], (
        ann.execute_script(WIDE)
    )
    screenshot(ann, "table-double-board-hints")


def test_hints_against_a_range(base_url: str, viewer: Any) -> None:
    """The viewer types a range beside "Hints": the hint names it and shows the figure
    the server counted against it (checked against a brute force in
    tests/table/test_range_hints.py); the range is kept by the browser."""
    import httpx
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    config = {
        "game": "standard52-holdem", "seats": 2, "stack": 100, "clock": 0, "pause": 60,
        "bots": {"2": "station"}, "bot_delay": 0.1, "name": "range hints",
    }  # fmt: skip
    created = httpx.post(base_url + "/api/tables", json=config).json()
    bea = viewer
    size(bea, DESKTOP)
    bea.get(base_url + created["url"])
    wait(bea, lambda: visible(bea, "pt-join"), "the join form")
    bea.find_element(By.ID, "pt-name").send_keys("bea")
    bea.find_element(By.ID, "pt-join-btn").click()
    wait(bea, lambda: "you are bea" in text(bea, "#pt-status"), "bea seated")
    field = bea.find_element(By.ID, "pt-hints-against")
    assert field.get_attribute("placeholder") == "random, or QQ+,AKs"
    field.clear()
    field.send_keys("QQ+, AKs", Keys.ENTER)
    if not bea.find_element(By.ID, "pt-hints").is_selected():
        click(bea, "#pt-hints")
    wait(bea, lambda: "against QQ+, AKs" in text(bea, "#pt-hint"), "the hint against the range")
    shown = text(bea, "#pt-hint")
    jar = {c["name"]: c["value"] for c in bea.get_cookies()}
    state = httpx.get(base_url + f"/api/tables/{created['id']}", cookies=jar).json()
    hint = state["hint"]
    assert hint["against"] == "QQ+, AKs" and state["hints_against"] == "QQ+, AKs"
    assert f"Your equity: {100 * hint['equity']:.1f}% against QQ+, AKs (exact)" in shown
    screenshot(bea, "table-range-hints")
    size(bea, PHONE)
    bea.refresh()  # the range is this browser's preference
    wait(bea, lambda: "against QQ+, AKs" in text(bea, "#pt-hint"), "the hint on a phone")
    assert bea.find_element(By.ID, "pt-hints-against").get_attribute("value") == "QQ+, AKs"
    assert bea.execute_script("return document.documentElement.scrollWidth") <= PHONE[0], (
        bea.execute_script(WIDE)
    )
    screenshot(bea, "table-range-hints")
    # a range the server refuses: one error on the page, the hint as it was
    field = bea.find_element(By.ID, "pt-hints-against")  # typed over (clear() sends "")
    field.send_keys(Keys.END, Keys.BACKSPACE, "x", Keys.ENTER)
    wait(bea, lambda: "'AKx'" in text(bea, "#pt-error"), "the error")
    assert "against QQ+, AKs" in text(bea, "#pt-hint")
    # another deck writes ranges its own way: its field starts empty, with its example
    other = httpx.post(
        base_url + "/api/tables", json=config | {"game": "fesca42-holdem", "name": "fesca"}
    ).json()
    bea.get(base_url + other["url"])
    wait(
        bea,
        lambda: (
            bea.find_element(By.ID, "pt-hints-against").get_attribute("placeholder")
            == "random, or Z-Z"
        ),
        "the FESCA example",
    )
    assert bea.find_element(By.ID, "pt-hints-against").get_attribute("value") == ""
