"""A multi-table tournament in two headless Chromiums: the host creates it on
/tournaments, two people register in its lobby, the host adds bots and starts; each
person follows the lobby's link to their table and calls until the tournament has a
winner (a person moved to another table, their page follows them there). Screenshots
of the lobby and a table at desktop and phone size go to out/screenshots/."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator

import pytest
from test_web_tables_browser import (  # the shared headless-Chromium helpers
    CALL_OR_SHOW,
    DESKTOP,
    PHONE,
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
def pair() -> Iterator[list]:  # type: ignore[type-arg]
    made = [_browser() for _ in range(2)]
    try:
        yield [d for d, _ in made]
    finally:
        for driver, profile in made:
            driver.quit()
            shutil.rmtree(profile, ignore_errors=True)


def test_a_tournament_from_the_lobby_to_a_winner(base_url: str, pair: list) -> None:  # type: ignore[type-arg]
    from selenium.webdriver.common.by import By

    ann, bob = pair
    for d in pair:
        size(d, DESKTOP)
    ann.get(base_url + "/tournaments")
    ready = "return document.querySelectorAll(arguments[0] + ' option').length > 0"
    wait(ann, lambda: ann.execute_script(ready, "#m-game"), "the form, ready")
    fields = {"m-name": "Friday", "m-size": "3", "m-stack": "40", "m-levels": "1/2,2/4,4/8",
              "m-every": "3", "m-clock": "1", "m-pause": "0.5", "m-bot-delay": "0"}  # fmt: skip
    for element_id, value in fields.items():
        box = ann.find_element(By.ID, element_id)
        box.clear()
        box.send_keys(value)
    click(ann, "#m-create")
    wait(ann, lambda: "/tournaments/" in ann.current_url, "the lobby")
    lobby = ann.current_url
    for driver, name in ((ann, "ann"), (bob, "bob")):
        driver.get(lobby)
        wait(driver, lambda d=driver: d.execute_script(ready, "#m-bot"), "the lobby, ready")
        driver.find_element(By.ID, "m-player").send_keys(name)
        click(driver, "#m-register-btn")
        wait(driver, lambda d=driver, n=name: f"registered as {n}" in text(d, "#m-you"), name)
    wait(ann, lambda: visible(ann, "m-add-bot"), "the host's buttons")
    assert not visible(bob, "m-add-bot")  # only the host adds bots and starts
    for k in range(5):
        click(ann, "#m-add-bot")
        wait(ann, lambda k=k: f"{k + 3} registered" in text(ann, "#m-registered"), "a bot")
    screenshot(ann, "mtt-lobby")
    click(ann, "#m-start")
    # 7 entrants at tables of 3: three tables
    wait(ann, lambda: text(ann, "#m-tables").count("Table ") == 3, "three tables")
    for driver in pair:
        wait(driver, lambda d=driver: visible(d, "m-your-table"), "the link to one's table")
        click(driver, "#m-your-table")
        wait(driver, lambda d=driver: "/tables/" in d.current_url, "one's table")
    wait(ann, lambda: "tables left" in text(ann, "#pt-mtt-table"), "the table's number")
    screenshot(ann, "mtt-table")
    size(bob, PHONE)
    screenshot(bob, "mtt-table")
    size(bob, DESKTOP)
    seen_urls: dict[str, set[str]] = {"ann": set(), "bob": set()}
    end = time.monotonic() + 240
    while time.monotonic() < end:
        for driver, name in ((ann, "ann"), (bob, "bob")):
            seen_urls[name].add(driver.current_url)
            driver.execute_script(CALL_OR_SHOW)
        if any("wins" in text(d, "#pt-tournament-winner") for d in pair):
            break
        time.sleep(0.2)
    ann.get(lobby)
    wait(ann, lambda: "wins the tournament" in text(ann, "#m-winner"), "the winner in the lobby")
    rows = ann.execute_script(
        "return document.querySelectorAll('#m-standings-table tbody tr').length"
    )
    assert rows == 7
    screenshot(ann, "mtt-over")
    size(ann, PHONE)
    screenshot(ann, "mtt-over")
    # every page opened on a table of this tournament (a move, if any, followed)
    assert all("/tables/" in u or "/tournaments/" in u for s in seen_urls.values() for u in s)
