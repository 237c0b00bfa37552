"""The coach's panel and the HUD from one's own hand histories in a headless Chromium:
heads-up against a bot at 10 big blinds, the viewer turns the coach on and folds the
small blind; the panel reviews each push/fold decision with the EV it lost (equal to
the push/fold equilibrium's values for the hand's class) and sums them. The viewer then
uploads a hand-history file in which the bot played, and the bot's seat shows its
figures from that file beside the table's. Screenshots at 390 px go to out/screenshots/."""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_web_tables_browser import (  # the shared headless-Chromium helpers
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

from cardlab.poker.games import get_game
from cardlab.solve.pushfold import solve_pushfold
from cardlab.solve.pushfold_matrix import shipped_matrix
from cardlab.solve.pushfold_review import move_values

pytestmark = pytest.mark.slow
__all__ = ["base_url"]  # the module's fixture, used by name

DATA = Path(__file__).parents[1] / "data"
# fold the small blind (facing a call), check as the big blind and after, show when asked
FOLD_OR_CHECK = (
    "const c = document.getElementById('pt-act-call');"
    " const f = document.getElementById('pt-act-fold');"
    " const s = document.getElementById('pt-act-show');"
    " if (c && c.textContent.startsWith('Check')) c.click();"
    " else if (f) f.click(); else if (c) c.click(); else if (s) s.click();"
)


@pytest.fixture(scope="module")
def viewer() -> Iterator:  # type: ignore[type-arg]
    driver, profile = _browser()
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_the_coach_panel_and_ones_own_hud(base_url: str, viewer, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    ann = viewer
    size(ann, PHONE)
    ann.get(base_url + "/tables")
    config = {"game": "standard52-holdem", "seats": 2, "stack": 20, "blinds": [1, 2],
              "bots": {"2": "station"}, "hud": True, "bot_delay": 0.1,
              "pause": 0.3, "seed": 11, "name": "coached"}  # fmt: skip
    created = ann.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},"
        " body: JSON.stringify(arguments[0])}).then(r => r.json()).then(done);",
        config,
    )
    assert "url" in created, created
    ann.get(base_url + created["url"])
    wait(ann, lambda: visible(ann, "pt-join"), "the join form")
    ann.find_element(By.ID, "pt-name").send_keys("ann")
    ann.find_element(By.ID, "pt-join-btn").click()
    wait(ann, lambda: "you are ann" in text(ann, "#pt-status"), "ann seated")
    wait(ann, lambda: visible(ann, "px-coach-box"), "the coach's switch")
    click(ann, "#px-coach-on")
    wait(ann, lambda: visible(ann, "px-coach"), "the coach's panel")
    # play until the coach has reviewed a small blind's fold that lost EV
    lost = "#px-coach-reviews li[data-lost='1']:not(.px-coach-river)"  # a push/fold line
    end = time.monotonic() + 150
    while time.monotonic() < end and not text(ann, lost):
        ann.execute_script(FOLD_OR_CHECK)
        time.sleep(0.15)
    line = text(ann, lost)
    assert line, text(ann, "#px-coach")
    # "Hand 3, small blind, 10 bb, K9o: you folded; equilibrium pushes 62% — lost 0.420 bb
    # (push was worth more)"
    found = re.search(
        r"small blind, ([\d.]+) bb, (\S+): you folded; "
        r"equilibrium pushes (\d+)% — lost ([\d.]+) bb",
        line,
    )
    assert found, line
    stack, name, pushes, drawn = float(found[1]), found[2], int(found[3]), float(found[4])
    assert 1 < stack <= 10  # ann's stack or the bot's, whichever is shorter
    # the same figures from the push/fold equilibrium at that stack, worked out here
    game = get_game("standard52-holdem")
    matrix = shipped_matrix(game)
    assert matrix is not None
    solution = solve_pushfold(matrix, round(stack, 3), 0.0, target=1e-4)
    index = matrix.names.index(name)
    values = move_values(matrix, solution, index, "small blind")
    assert drawn == pytest.approx(values["push"] - values["fold"], abs=0.0006)
    assert pushes == round(float(solution.push[index]) * 100)
    summary = text(ann, "#px-coach-summary")
    assert re.search(r"\d+ hands reviewed, \d+ push/fold decisions, [1-9]\d* lost EV", summary)
    scroll_width = ann.execute_script("return document.documentElement.scrollWidth")
    assert scroll_width <= PHONE[0], ann.execute_script(WIDE)
    ann.execute_script("document.getElementById('px-coach').scrollIntoView()")
    screenshot(ann, "table-coach")
    # the HUD from ann's own histories: a file in which the bot played as "chen"
    bot = ann.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"fetch('/api/tables/{created['id']}')"
        ".then(r => r.json()).then(s => done(s.seats[1].name));"
    )
    source = (DATA / "sites" / "stars-cash.txt").read_text("utf-8")
    mine = tmp_path / "my-hands.txt"
    mine.write_text(re.sub(r"\bchen\b", bot, source), "utf-8")
    assert visible(ann, "px-mine")
    ann.find_element(By.ID, "px-mine-file").send_keys(str(mine))
    cell = ".px-hud-mine[data-hud-mine='2']"
    wait(ann, lambda: text(ann, cell) != "", "the bot's figures from ann's file")
    own = ann.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/hud/mine').then(r => r.json()).then(done);"
    )
    figures = next(p for p in own["players"].values() if p["name"] == bot)
    drawn_own = text(ann, cell)
    assert drawn_own.startswith(f"yours {figures['hands']}h "), drawn_own
    assert "kept for the HUD" in text(ann, "#px-mine-status") or "in all" in text(
        ann, "#px-mine-status"
    )
    assert text(ann, ".px-hud[data-hud='2']") != ""  # the table's own figures beside
    scroll_width = ann.execute_script("return document.documentElement.scrollWidth")
    assert scroll_width <= PHONE[0], ann.execute_script(WIDE)
    ann.execute_script("document.querySelector(arguments[0]).scrollIntoView()", cell)
    screenshot(ann, "table-hud-mine")


# check or call every bet, show when asked: the hands reach the river
CHECK_OR_CALL = (
    "const c = document.getElementById('pt-act-call');"
    " const s = document.getElementById('pt-act-show');"
    " if (c) c.click(); else if (s) s.click();"
)


def test_the_coach_reviews_the_river(base_url: str, viewer) -> None:  # type: ignore[no-untyped-def]
    """100 big blinds deep against a calling station: the viewer checks and calls to the
    river, and the panel shows the postflop solver's strategy for the viewer's hand with
    the range model it assumes."""
    from selenium.webdriver.common.by import By

    ann = viewer
    size(ann, PHONE)
    ann.get(base_url + "/tables")
    config = {"game": "standard52-holdem", "seats": 2, "stack": 200, "blinds": [1, 2],
              "bots": {"2": "station"}, "bot_delay": 0.1, "pause": 0.3, "seed": 4,
              "name": "river coached"}  # fmt: skip
    created = ann.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},"
        " body: JSON.stringify(arguments[0])}).then(r => r.json()).then(done);",
        config,
    )
    assert "url" in created, created
    ann.get(base_url + created["url"])
    wait(ann, lambda: visible(ann, "pt-join"), "the join form")
    ann.find_element(By.ID, "pt-name").send_keys("ann")
    ann.find_element(By.ID, "pt-join-btn").click()
    wait(ann, lambda: "you are ann" in text(ann, "#pt-status"), "ann seated")
    wait(ann, lambda: visible(ann, "px-coach-box"), "the coach's switch")
    click(ann, "#px-coach-on")
    wait(ann, lambda: visible(ann, "px-coach"), "the coach's panel")
    river = "#px-coach-reviews li.px-coach-river"
    end = time.monotonic() + 150
    while time.monotonic() < end and not text(ann, river):
        ann.execute_script(CHECK_OR_CALL)
        time.sleep(0.15)
    line = text(ann, river)
    assert line, text(ann, "#px-coach")
    # "Hand 1, river 8d 2d Kh Ts 8c, OOP, first to act, 5h Th: you played k; the solver
    # plays k 6%, b1 79%, b3 15% — lost 0.103 bb (b1 was worth more) (assuming ...)"
    found = re.search(
        r"river (?:\S\S ){4}\S\S, (OOP|IP), (?:after [^,]+|first to act), "
        r"\S\S \S\S: you played (k|c); "
        r"the solver plays ((?:\w+ \d+%(?:, )?)+) — ",
        line,
    )
    assert found, line
    shares = [int(x) for x in re.findall(r"(\d+)%", found[3])]
    assert 98 <= sum(shares) <= 102
    assert "assuming both players could hold any two cards" in line
    assert re.search(r"River: [1-9]\d* decisions", text(ann, "#px-coach-summary"))
    scroll_width = ann.execute_script("return document.documentElement.scrollWidth")
    assert scroll_width <= PHONE[0], ann.execute_script(WIDE)
    ann.execute_script("document.querySelector(arguments[0]).scrollIntoView()", river)
    screenshot(ann, "table-coach-river")
