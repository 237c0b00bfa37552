"""A poker night in real browsers (headless Chromium, separate profiles): a sit-and-go
made from the lobby form and played to a winner through its levels, and a cash game
with a bust, a rebuy, a sit-out and a leave whose ledger nets to zero. Screenshots at
desktop and phone width go to out/screenshots."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("selenium")
pytest.importorskip("uvicorn")

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select
from test_web_tables_browser import (  # the same server and browsers
    DESKTOP,
    PHONE,
    WIDE,
    base_url,
    click,
    players,
    screenshot,
    size,
    text,
    visible,
    wait,
)

pytestmark = pytest.mark.slow
__all__ = ["base_url", "players"]  # fixtures

ACT = (  # one click of whatever a player's page offers: show, check/call, bring in
    "for (const id of ['pt-act-show', 'pt-act-call', 'pt-act-bring-in', 'pt-act-discard']) {"
    " const b = document.getElementById(id); if (b && b.offsetParent) { b.click(); return id; } }"
    " return null;"
)


def api(base_url: str, path: str) -> Any:
    import httpx

    return httpx.get(base_url + path, timeout=10).json()


def join(driver: WebDriver, url: str, name: str) -> None:
    driver.get(url)
    wait(driver, lambda: visible(driver, "pt-join"), "the join form")
    driver.find_element(By.ID, "pt-name").send_keys(name)
    driver.find_element(By.ID, "pt-join-btn").click()
    base, tid = url.split("/tables/")
    wait(
        driver,
        lambda: any(p["name"] == name for p in api(base, f"/api/tables/{tid}")["seats"]),
        f"{name} seated",
    )
    wait(driver, lambda: not visible(driver, "pt-join"), f"{name}'s page seated")


def test_a_sit_and_go_from_the_lobby_to_a_winner(base_url: str, players: list[WebDriver]) -> None:
    host, guest, watcher = players
    for d in players:
        size(d, DESKTOP)
    host.get(base_url + "/tables")
    wait(host, lambda: visible(host, "t-form"), "the lobby form")
    Select(host.find_element(By.ID, "t-format")).select_by_value("tournament")
    wait(host, lambda: visible(host, "t-levels"), "the tournament fields")
    assert not visible(host, "t-cap")  # no rebuys in a tournament
    for field, value in (
        ("t-seats", "4"),
        ("t-stack", "40"),
        ("t-clock", "0"),
        ("t-pause", "0.5"),
        ("t-bot-delay", "0"),
        ("t-levels", "1/2,2/4,4/8+1"),
        ("t-level-every", "2"),
        ("t-sng-buy-in", "10"),
    ):
        box = host.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    host.execute_script("document.getElementById('t-seats').dispatchEvent(new Event('input'))")
    wait(host, lambda: bool(host.find_elements(By.ID, "t-bot-4")), "four bot selectors")
    Select(host.find_element(By.ID, "t-bot-2")).select_by_value("")  # seat 2 for a person
    for seat in (3, 4):
        Select(host.find_element(By.ID, f"t-bot-{seat}")).select_by_value("station")
    click(host, "#t-create")
    wait(
        host,
        lambda: "/tables/" in host.current_url or visible(host, "t-error"),
        "the new table",
    )
    assert "/tables/" in host.current_url, text(host, "#t-error")
    url = host.current_url
    tid = url.rsplit("/", 1)[1]
    config = api(base_url, f"/api/tables/{tid}")["table"]["config"]
    assert config["format"] == "tournament" and config["levels"] == "1/2,2/4,4/8+1"
    assert config["level_hands"] == 2 and config["tournament_buy_in"] == 10
    join(host, url, "hana")
    wait(host, lambda: visible(host, "pt-tournament"), "the tournament panel")
    assert "Not started yet" in text(host, "#pt-tournament")
    join(guest, url, "gus")
    watcher.get(url)  # a spectator follows it
    levels_seen: set[str] = set()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        state = api(base_url, f"/api/tables/{tid}")
        if state["tournament"]["over"]:
            break
        levels_seen.add(str(state["tournament"]["level"]))
        for d in (host, guest):
            d.execute_script(ACT)
        time.sleep(0.05)
    t = api(base_url, f"/api/tables/{tid}")["tournament"]
    assert t["over"], "the tournament did not end"
    assert {"1", "2"} <= levels_seen  # it went through level changes
    for d in (host, guest, watcher):
        wait(d, lambda d=d: visible(d, "pt-tournament-winner"), "the winner on the page")
        assert text(d, "#pt-tournament-winner") == f"{t['winner']} wins"
        rows = d.execute_script(
            "return [...document.querySelectorAll('#pt-standings tbody tr')]"
            ".map(r => [...r.cells].map(c => c.textContent))"
        )
        assert [(r[0], r[1]) for r in rows] == [
            (str(s["place"]), s["name"]) for s in t["standings"]
        ]
    # 4 entrants: 65% / 35% of 40
    assert t["prizes"] == [26, 14]
    screenshot(watcher, "night-tournament")
    size(watcher, PHONE)
    time.sleep(0.3)
    wide = [w for w in watcher.execute_script(WIDE) if not w.startswith("INPUT#")]
    assert wide == [], wide
    screenshot(watcher, "night-tournament")


def test_a_cash_game_bust_rebuy_sit_out_and_leave_net_to_zero(
    base_url: str, players: list[WebDriver]
) -> None:
    host, guest, _ = players
    for d in players:
        size(d, DESKTOP)
    host.get(base_url + "/tables")
    created = host.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},"
        " body: JSON.stringify(arguments[0])}).then(r => r.json()).then(done);",
        {
            "game": "fesca78-holdem",
            "seats": 3,
            "stack": 20,
            "betting": "no-limit",
            "bots": {"3": "station"},
            "clock": 0,
            "bot_delay": 0,
            "pause": 0.3,
            "max_buy_in": 40,
        },
    )
    tid, url = created["id"], base_url + created["url"]
    join(host, url, "hana")
    join(guest, url, "gus")
    # gus shoves every hand he can (the max preset), hana calls: somebody busts soon
    shove = (
        "const p = [...document.querySelectorAll('#pt-presets button')].pop();"
        "if (p && p.offsetParent) { p.click(); const r = document.getElementById('pt-raise-btn');"
        " if (r && r.offsetParent) { r.click(); return 'shove'; } }"
    ) + ACT
    busted = None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and busted is None:
        state = api(base_url, f"/api/tables/{tid}")
        if state["hand"] is None or state["hand"]["over"]:
            stacks = {p["name"]: p["stack"] for p in state["seats"]}
            busted = next((n for n in ("hana", "gus") if stacks.get(n) == 0), None)
        guest.execute_script(shove)
        host.execute_script(ACT)
        time.sleep(0.05)
    assert busted is not None, "nobody busted"
    loser = host if busted == "hana" else guest
    # the busted player rebuys from the page, within the cap
    wait(loser, lambda: visible(loser, "pt-chips"), "the add-chips form")
    loser.find_element(By.ID, "pt-chips-n").send_keys("30")
    click(loser, "#pt-chips-btn")
    wait(loser, lambda: "added 30 chips" in text(loser, "#pt-notices"), "the rebuy")
    # the other sits out, then leaves
    other = guest if loser is host else host
    other_name = "gus" if other is guest else "hana"
    click(other, "#pt-sit")
    wait(other, lambda: "sitting out" in text(other, "#pt-seats"), "the sit-out")

    def over_without(name: str) -> bool:
        """Both pages play on; True between hands, or in a hand ``name`` is not in."""
        for d in (host, guest):
            d.execute_script(ACT)
        state = api(base_url, f"/api/tables/{tid}")
        if state["hand"] is None or state["hand"]["over"]:
            return True
        return not any(p["name"] == name and p["in_hand"] for p in state["seats"])

    wait(other, lambda: over_without(other_name), "a hand without the one sitting out")
    kept = next(
        p["stack"] for p in api(base_url, f"/api/tables/{tid}")["seats"] if p["name"] == other_name
    )
    click(other, "#pt-leave")
    other.switch_to.alert.accept()  # "Leave your seat? Your stack goes to the ledger."
    wait(
        other,
        lambda: (
            over_without("")
            and api(base_url, f"/api/tables/{tid}")["seats"][1 if other is guest else 0]["kind"]
            == "open"
        ),
        "the seat given back",
    )
    ledger = api(base_url, f"/api/tables/{tid}/ledger")
    assert ledger["balanced"]
    rows = {r["player"]: r for r in ledger["players"]}
    assert sum(r["net"] for r in rows.values()) == 0
    loser_name = busted
    assert rows[loser_name]["bought"] == 20 + 30  # the buy-in and the rebuy
    # the leaver (sitting out, so in no hand since we looked) took away what they had
    cash_outs = [
        e for e in ledger["entries"] if e["player"] == other_name and e["kind"] == "cash-out"
    ]
    assert len(cash_outs) == 1 and rows[other_name]["cashed"] == cash_outs[0]["amount"]
    assert rows[other_name]["on_table"] == 0
    assert cash_outs[0]["amount"] == kept
    for d in (host, guest):
        wait(d, lambda d=d: "it balances" in text(d, "#pt-ledger-check"), "the ledger check")
    screenshot(loser, "night-cash")
    size(loser, PHONE)
    time.sleep(0.3)
    screenshot(loser, "night-cash")
