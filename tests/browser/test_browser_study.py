"""The study page in headless Chromium: fill the standard example, solve, watch the
progress, browse the tree (an action, a card), and the phone width."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from _browser import PHONE, Page
from selenium.webdriver.common.by import By

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/cardlab-study-shots")

# every text the status line shows, so the progress can be checked after the solve
WATCH = """
window.stSeen = [];
const status = document.getElementById('st-status');
new MutationObserver(() => window.stSeen.push(status.textContent))
  .observe(status, {childList: true, characterData: true, subtree: true});
"""


def solve_example(page: Page, example: str) -> None:
    page.driver.find_element(By.ID, f"st-ex-{example}").click()
    page.js(WATCH)
    page.driver.find_element(By.ID, "st-solve").click()
    page.wait(
        lambda: page.js("return !document.getElementById('st-result').hidden"),
        timeout=240,
        what="the solve did not finish",
    )
    page.wait_idle()


def keep(path: Path) -> None:
    SHOTS.mkdir(exist_ok=True)
    shutil.copy(path, SHOTS / path.name)


def grid_cells(page: Page) -> list[dict[str, object]]:
    return list(
        page.js(
            "return [...document.querySelectorAll('#st-grid .st-cell')].map(c => "
            "({name: c.textContent, played: c.classList.contains('played'), "
            "bg: c.style.background}))"
        )
    )


def test_the_standard_example_solves_and_its_tree_is_walked(page: Page) -> None:
    page.open("/study")
    assert page.js("return document.getElementById('st-game').value") == "standard52-holdem"
    solve_example(page, "standard")
    seen = page.js("return window.stSeen")
    # progress is shown while it solves: the page's states in order (a fast solve may end
    # between two polls, before any iteration is shown)
    assert seen and seen[-1].startswith("solved:"), seen
    assert any("iteration" in s and "of at most" in s for s in seen) or any(
        s.startswith(("waiting", "building")) for s in seen[:-1]
    ), seen
    assert page.text("st-status").startswith("solved:")
    cells = grid_cells(page)
    assert len(cells) == 169
    played = {c["name"] for c in cells if c["played"]}
    # the example's OOP range: AA, KK, QQ, AK, 98s, 87s, T9s (QQ blocked? no: Qc leaves 3)
    assert played == {"AA", "KK", "QQ", "AKs", "AKo", "98s", "87s", "T9s"}
    assert all("linear-gradient" in str(c["bg"]) for c in cells if c["played"])
    actions = page.js(
        "return [...document.querySelectorAll('.st-action')].map(b => b.dataset.action)"
    )
    assert actions[0] == "k" and len(actions) >= 2
    rows = page.js("return document.querySelectorAll('#st-hands tbody tr').length")
    assert rows > 10
    evs = page.js(
        "return [...document.querySelectorAll('#st-hands tbody tr')].map("
        "r => parseFloat(r.children[r.children.length - 2].textContent))"
    )
    assert evs == sorted(evs, reverse=True)  # sorted by EV
    keep(page.screenshot("study-root"))

    # OOP checks: IP's decision; then IP checks: a card comes
    page.driver.find_element(By.CSS_SELECTOR, ".st-action[data-action='k']").click()
    page.wait_idle()
    assert page.text("st-where").startswith("IP to act")
    assert "k" in page.text("st-crumbs")
    page.driver.find_element(By.CSS_SELECTOR, ".st-action[data-action='k']").click()
    page.wait_idle()
    assert page.text("st-where").startswith("a card comes")
    cards = page.js("return document.querySelectorAll('#st-cards button').length")
    assert cards == 48  # 52 less the 4 on the board
    page.driver.find_element(By.CSS_SELECTOR, "#st-cards button[title='deal 2c']").click()
    page.wait_idle()
    assert page.text("st-where").startswith("OOP to act")
    assert page.js("return document.querySelectorAll('#st-board-cards .card').length") == 5
    keep(page.screenshot("study-river"))
    # back to the root by the breadcrumb
    page.driver.find_element(By.CSS_SELECTOR, "#st-crumbs button").click()
    page.wait_idle()
    assert page.js("return document.querySelectorAll('#st-board-cards .card').length") == 4

    # the phone: nothing scrolls sideways, the actions and the grid are on screen
    page.resize(PHONE)
    page.wait(lambda: page.js("return window.innerWidth") == PHONE[0])
    assert page.js("return document.documentElement.scrollWidth") <= PHONE[0]
    for selector in ("#st-grid", ".st-action", "#st-form", "#st-solve"):
        box = page.js(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
            "return [r.left, r.right, r.width]",
            selector,
        )
        assert box[0] >= 0 and box[1] <= PHONE[0] and box[2] > 0, (selector, box)
    keep(page.screenshot("study-root"))


def test_the_fesca78_example_draws_its_grid(page: Page) -> None:
    page.open("/study")
    solve_example(page, "fesca78")
    cells = grid_cells(page)
    assert len(cells) == 13 * 13
    assert {"12-12", "10-10", "12-11s", "10-8s"} <= {c["name"] for c in cells if c["played"]}
    keep(page.screenshot("study-fesca78"))
    page.resize(PHONE)
    page.wait(lambda: page.js("return window.innerWidth") == PHONE[0])
    assert page.js("return document.documentElement.scrollWidth") <= PHONE[0]
    keep(page.screenshot("study-fesca78"))


def test_a_bad_spot_is_one_line_under_the_form(page: Page) -> None:
    page.open("/study")
    board = page.driver.find_element(By.ID, "st-board")
    board.clear()
    board.send_keys("Ks Ks 7c")
    page.driver.find_element(By.ID, "st-solve").click()
    page.wait(lambda: page.js("return !document.getElementById('st-error').hidden"))
    assert page.text("st-error") == "card Ks is given twice"
    assert page.js("return document.getElementById('st-result').hidden")


def test_the_cancel_button_stops_a_solve_and_keeps_what_it_did(page: Page) -> None:
    page.open("/study")
    for field, value in (("st-iterations", "2000"), ("st-target", "")):
        box = page.driver.find_element(By.ID, field)
        box.clear()
        if value:
            box.send_keys(value)
    page.driver.find_element(By.ID, "st-solve").click()
    page.wait(lambda: "iteration" in page.text("st-status"), timeout=120)
    page.driver.find_element(By.ID, "st-cancel").click()
    page.wait(lambda: page.text("st-status").startswith("stopped:"), timeout=60)
    done = int(page.text("st-status").split(":")[1].split()[0])
    assert 0 < done < 2000
    page.wait_idle()
    assert page.js("return !document.getElementById('st-result').hidden")
    assert page.js("return document.getElementById('st-cancel').hidden")
