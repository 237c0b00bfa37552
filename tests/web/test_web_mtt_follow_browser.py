"""A player moved to another table of a multi-table tournament: their page (a phone,
390x844) follows them there by itself. The server side of the move is web/mtt.py's
(the balancing rules are tests/table/test_mtt.py's): here the move is made while both
tables are between hands, as a balancing move would be, and the test watches the page
and the API answers the page reads (the old table no longer seats the player, the
lobby and the new table do)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from test_web_tables_browser import (  # the shared headless-Chromium helpers
    CALL_OR_SHOW,
    PHONE,
    WIDE,
    _browser,
    _free_port,
    _serve_in_thread,
    click,
    screenshot,
    size,
    text,
    visible,
    wait,
)

pytestmark = pytest.mark.slow


def _on_loop(server: Any, fn: Any) -> Any:
    """Run ``fn()`` on the server's event loop (the tables' own thread) and return it."""
    loop = server.servers[0].get_loop()

    async def call() -> Any:
        return fn()

    return asyncio.run_coroutine_threadsafe(call(), loop).result(timeout=30)


def test_a_moved_players_page_follows_to_the_new_table() -> None:
    import shutil

    import httpx
    from selenium.webdriver.common.by import By

    from cardlab.store import Store

    port = _free_port()
    server, thread = _serve_in_thread(Store.in_memory(), port)
    base = f"http://127.0.0.1:{port}"
    driver, profile = _browser()
    try:
        host = httpx.Client(base_url=base)
        body = {
            "name": "Follow", "game": "standard52-holdem", "table_size": 4, "stack": 200,
            "levels": "1/2", "level_hands": 100, "clock": 30, "pause": 30, "bot_delay": 0,
        }  # fmt: skip
        r = host.post("/api/mtts", json=body)
        assert r.status_code == 201, r.text
        mid = r.json()["id"]
        size(driver, PHONE)
        driver.get(f"{base}/tournaments/{mid}")
        ready = "return document.querySelectorAll('#m-bot option').length > 0"
        wait(driver, lambda: driver.execute_script(ready), "the lobby, ready")
        driver.find_element(By.ID, "m-player").send_keys("ann")
        click(driver, "#m-register-btn")
        wait(driver, lambda: "registered as ann" in text(driver, "#m-you"), "ann registered")
        for i in range(5):  # calling stations: nobody goes out
            r = host.post(f"/api/mtts/{mid}/register", json={"bot": "station", "name": f"s{i}"})
            assert r.status_code == 200, r.text
        started = host.post(f"/api/mtts/{mid}/start", json={}).json()
        assert sorted(t["players"] for t in started["tables"]) == [3, 3]
        wait(driver, lambda: visible(driver, "m-your-table"), "the link to ann's table")
        click(driver, "#m-your-table")
        wait(driver, lambda: "/tables/" in driver.current_url, "ann's table")
        old = driver.current_url.rsplit("/", 1)[1]
        new = next(t["url"].rsplit("/", 1)[1] for t in started["tables"] if old not in t["url"])
        rooms = server.config.app.state.tables.rooms
        # ann calls her first hand down; then both tables wait out their pause
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            driver.execute_script(CALL_OR_SHOW)
            if all(rooms[t].session.hands_played >= 1 and not rooms[t].live() for t in (old, new)):
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the tables did not reach the end of a hand")

        def move_ann() -> None:
            run = rooms[old].director.link.run
            source, seat = run.mtt.table_of("ann")
            target = next(k for k in run.mtt.tables if k != source)
            move = run.mtt._move("ann", source, seat, target)  # as balancing moves her
            run._save_all(run._apply([move]))

        _on_loop(server, move_ann)
        # the page follows: it finds itself unseated, asks the lobby, and goes there
        wait(driver, lambda: driver.current_url.endswith(f"/tables/{new}"), "the new table")
        wait(driver, lambda: "joins from table" in text(driver, "body"), "the new table's page")
        assert "ann" in text(driver, "body")
        # nothing sticks out of the phone's width (the page does not scroll sideways)
        scroll_width = driver.execute_script("return document.documentElement.scrollWidth")
        assert scroll_width <= PHONE[0], driver.execute_script(WIDE)
        screenshot(driver, "mtt-moved")
        # what the page read: the old table seats ann no more, the lobby and the new do
        cookies = {c["name"]: c["value"] for c in driver.get_cookies()}
        ann = httpx.Client(base_url=base, cookies=cookies)
        assert ann.get(f"/api/tables/{old}").json()["you"] is None
        assert ann.get(f"/api/mtts/{mid}").json()["you"]["table_url"] == f"/tables/{new}"
        assert ann.get(f"/api/tables/{new}").json()["you"]["name"] == "ann"
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
        server.should_exit = True
        thread.join(10)
