"""The hand replayer in a real headless Chromium: a hand played at a bot table, opened
from its replay link and stepped to the river and to the end, shows the board and the
final stacks of the table's own PHH download; a PHH file chosen in the page replays to
the stacks the file records. Screenshots at desktop and phone size go to
out/screenshots/; on a 390 px phone nothing sticks out sideways.

Needs Debian's chromium and chromium-driver and selenium (as test_web_tables_browser.py,
whose server fixture and helpers this reuses).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("selenium")
pytest.importorskip("uvicorn")

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
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
    wait,
)

from cardlab.table import phh
from cardlab.table.history import replay
from cardlab.table.phh_actions import split_cards

__all__ = ["base_url"]  # the server fixture, shared with the table's browser test

pytestmark = pytest.mark.slow
DATA = Path(__file__).resolve().parents[1] / "data" / "phh"

# join the table as "dana" and call (or show) whenever it is her turn, over a WebSocket
# opened by the page itself: same origin, the page's cookie (table.js plays no part)
PLAY = """
const [tableId, done] = [arguments[0], arguments[arguments.length - 1]];
fetch(`/api/tables/${tableId}/join`, {method: "POST",
    headers: {"content-type": "application/json"}, body: JSON.stringify({name: "dana"})})
  .then((r) => r.json()).then((seat) => {
    const ws = new WebSocket(`ws://${location.host}/api/tables/${tableId}/ws`);
    window.__table = ws;
    ws.onmessage = (m) => {
      const v = JSON.parse(m.data);
      if (v.type !== "state") return;
      if (v.last && v.last.hand >= 1) { window.__last = v.last; }
      if (!v.legal) return;
      const action = v.legal.phase === "bet" ? "c" : v.legal.default;
      ws.send(JSON.stringify({type: "action", action, turn: v.turn}));
    };
    done(seat);
  });
"""


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    made, profile = _browser()
    try:
        yield made
    finally:
        made.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _state(driver: WebDriver) -> str:
    return str(driver.execute_script("return document.getElementById('rp-player').dataset.state"))


def _frame(driver: WebDriver) -> dict[str, Any]:
    """What the page shows now: street, board, each seat's name and stack, the step."""
    return dict(
        driver.execute_script(
            "const q = (s) => [...document.querySelectorAll(s)];"
            "return {street: document.getElementById('rp-street').textContent,"
            " board: q('#rp-board .card').map((c) => c.dataset.card),"
            " names: q('#rp-seats .rp-name').map((e) => e.textContent),"
            " stacks: q('#rp-seats .rp-seat').map((e) => e.dataset.stack),"
            " step: Number(document.getElementById('rp-player').dataset.step),"
            " frames: Number(document.getElementById('rp-player').dataset.frames),"
            " log: document.getElementById('rp-log').innerText}"
        )
    )


def _board(history: phh.HandHistory) -> list[str]:
    cards = []
    for action in history.actions:
        words = str(action).split()
        if words[:2] == ["d", "db"]:
            cards += [str(c) for c in split_cards(words[2], history.deck)]
    return cards


def test_a_table_hand_replays_to_the_board_and_stacks_of_its_download(
    base_url: str, driver: WebDriver
) -> None:
    import httpx

    config = {
        "game": "fesca78-holdem",
        "seats": 3,
        "bots": {"2": "station", "3": "station"},
        "clock": 0,
        "bot_delay": 0,
        "pause": 30,
    }
    created = httpx.post(base_url + "/api/tables", json=config).json()
    tid = created["id"]
    size(driver, DESKTOP)
    driver.get(base_url + "/replay")
    driver.execute_async_script(PLAY, tid)
    last = wait(driver, lambda: driver.execute_script("return window.__last || null"), "a hand")
    link = last["replay"]
    assert link == f"/tables/{tid}/hands/{last['hand']}/replay"
    # the download, as dana may see it: the same hand, its board and stacks
    download = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"fetch('/api/tables/{tid}/hands.phhs').then(r => r.text()).then(done);"
    )
    history = next(h for h in phh.loads_all(download) if h.hand == last["hand"])
    board = _board(history)
    names = list(history.players or ())
    finishing = [str(s) for s in replay(history).finishing_stacks]
    assert len(board) == 5  # everybody calls: the hand goes to the river
    driver.execute_script("window.__table.close()")

    driver.get(base_url + link)
    wait(driver, lambda: _state(driver) == "ready", "the replay")
    first = _frame(driver)
    assert first["step"] == 0 and first["board"] == [] and first["names"] == names
    assert "posts" in first["log"] and first["street"] == "pre-flop"
    # forward with the keyboard and the button until the river's card is out
    body = driver.find_element(By.TAG_NAME, "body")
    for _ in range(first["frames"]):
        now = _frame(driver)
        if now["street"] == "river" and len(now["board"]) == 5:
            break
        if now["step"] % 2:
            body.send_keys(Keys.ARROW_RIGHT)
        else:
            driver.find_element(By.ID, "rp-next").click()
    river = _frame(driver)
    assert river["street"] == "river" and river["board"] == board
    assert f"river: {board[4]}" in river["log"] and f"flop: {' '.join(board[:3])}" in river["log"]
    screenshot(driver, "replay-river")
    # the end: the final stacks of the download, the winnings, the result
    body.send_keys(Keys.END)
    end = _frame(driver)
    assert end["step"] == end["frames"] - 1 and end["street"] == "result"
    assert end["stacks"] == finishing and end["board"] == board
    assert driver.find_element(By.ID, "rp-result").is_displayed()
    assert text(driver, ".rp-seat.you .rp-name") == "dana"
    # Home, the street menu and the slider move too; the address names the step
    body.send_keys(Keys.HOME)
    assert _frame(driver)["step"] == 0
    driver.execute_script(
        "const s = document.getElementById('rp-streets');"
        "s.value = [...s.options].find((o) => o.text === 'flop').value;"
        "s.dispatchEvent(new Event('change'));"
    )
    flop = _frame(driver)
    assert flop["street"] == "flop" and flop["board"] == board[:3]
    assert driver.current_url.endswith(f"#step={flop['step'] + 1}")
    # a shared link opens at its step
    driver.get(driver.current_url)
    driver.refresh()
    wait(driver, lambda: _state(driver) == "ready", "the replay again")
    assert _frame(driver)["step"] == flop["step"]
    # a phone: everything fits in 390 px
    size(driver, PHONE)
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.END)
    assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0], (
        driver.execute_script(WIDE)
    )
    screenshot(driver, "replay-end")
    size(driver, DESKTOP)


def test_a_chosen_phh_file_replays_in_the_page(
    base_url: str, driver: WebDriver, tmp_path: Path
) -> None:
    path = DATA / "pluribus-100-0.phh"
    history = phh.load(path)
    size(driver, PHONE)
    driver.get(base_url + "/replay")
    assert driver.find_element(By.ID, "rp-source").is_displayed()
    driver.find_element(By.ID, "rp-file").send_keys(str(path))
    wait(driver, lambda: _state(driver) == "ready", "the file's replay")
    start = _frame(driver)
    assert start["names"] == list(history.players or ())
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    end = _frame(driver)
    assert [Decimal(s) for s in end["stacks"]] == list(history.finishing_stacks or ())
    assert end["board"] == ["7d", "5h", "9d", "7c", "Qh"]
    assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0], (
        driver.execute_script(WIDE)
    )
    screenshot(driver, "replay-file")
    # a .phhs file: a menu of its hands; the fourth replays to its own stacks
    many = DATA / "abs-nlh-handhq-1-first10.phhs"
    fourth = phh.load_all(many)[3]
    driver.find_element(By.ID, "rp-file").send_keys(str(many))
    wait(driver, lambda: "of 10" in text(driver, "#rp-title"), "the first of ten hands")
    driver.execute_script(
        "const s = document.getElementById('rp-hand'); s.value = '4';"
        "s.dispatchEvent(new Event('change'));"
    )
    wait(driver, lambda: "hand 4 of 10" in text(driver, "#rp-title"), "the fourth hand")
    wait(driver, lambda: _state(driver) == "ready", "the fourth hand's replay")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    end = _frame(driver)
    assert end["names"] == list(fourth.players or ())
    assert [Decimal(s) for s in end["stacks"]] == replay(fourth).finishing_stacks
    # a file that is not PHH: the server's reason, on the page
    bad = tmp_path / "not-a-hand.phh"
    bad.write_text("variant = 'NT", encoding="utf-8")
    driver.find_element(By.ID, "rp-file").send_keys(str(bad))
    wait(driver, lambda: "not valid TOML" in text(driver, "#rp-error"), "the error")
    size(driver, DESKTOP)
