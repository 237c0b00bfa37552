"""Three people in three separate headless Chromiums, plus two bots, play one hand of
hold'em: a fold, an all-in that leaves a side pot, and a showdown. Screenshots at desktop
and phone size go to out/screenshots/ (gitignored).

Needs Debian's chromium and chromium-driver and selenium (the README's test command
installs them).
"""

from __future__ import annotations

import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("selenium")
pytest.importorskip("uvicorn")

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
DESKTOP = (1280, 900)
PHONE = (390, 844)
WAIT = 60.0

pytestmark = pytest.mark.slow
WIDE = (  # what sticks out on a phone, if anything
    "return [...document.querySelectorAll('body *')]"
    ".filter(e => e.scrollWidth > e.clientWidth + 1)"
    ".map(e => e.tagName + '#' + e.id + ' ' + e.clientWidth + '/' + e.scrollWidth)"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    import uvicorn

    from cardlab.store import Store
    from cardlab.web import create_app

    port = _free_port()
    app = create_app(table_store=Store.in_memory())
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def _browser() -> tuple[WebDriver, str]:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists():
            pytest.fail(f"{path} is missing (apt-get install -y chromium chromium-driver)")
    profile = tempfile.mkdtemp(prefix="cardlab-table-")
    options = Options()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    return driver, profile


@pytest.fixture(scope="module")
def players() -> Iterator[list[WebDriver]]:
    """Three browsers: three separate profiles, so three separate cookie jars."""
    made = [_browser() for _ in range(3)]
    try:
        yield [d for d, _ in made]
    finally:
        for driver, profile in made:
            driver.quit()
            shutil.rmtree(profile, ignore_errors=True)


def wait(driver: WebDriver, condition: Callable[[], Any], what: str) -> Any:
    return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(
        lambda _: condition(), message=what
    )


# check or call when it is the player's turn, show when asked at a showdown
CALL_OR_SHOW = (
    "const b = document.getElementById('pt-act-call') || document.getElementById('pt-act-show');"
    " if (b) b.click();"
)


# the page redraws on every change: read and click in one script, never a stale element
def visible(driver: WebDriver, element_id: str) -> bool:
    script = "const e = document.getElementById(arguments[0]); return !!e && !!e.offsetParent"
    return bool(driver.execute_script(script, element_id))


def text(driver: WebDriver, selector: str) -> str:
    script = "const e = document.querySelector(arguments[0]); return e ? e.innerText : ''"
    return str(driver.execute_script(script, selector))


def click(driver: WebDriver, selector: str) -> None:
    driver.execute_script("document.querySelector(arguments[0]).click()", selector)


def click_when_ready(driver: WebDriver, element_id: str, what: str) -> None:
    wait(driver, lambda: visible(driver, element_id), what)
    click(driver, "#" + element_id)


def size(driver: WebDriver, dims: tuple[int, int]) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": dims[0], "height": dims[1], "deviceScaleFactor": 1, "mobile": dims[0] < 600},
    )


def screenshot(driver: WebDriver, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    width = int(driver.execute_script("return window.innerWidth"))
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    size(driver, (width, min(height, 5000)))
    path = SCREENSHOTS / f"{name}-{'phone' if width < 600 else 'desktop'}.png"
    driver.save_screenshot(str(path))
    return path


def test_three_people_and_two_bots_play_a_hand(base_url: str, players: list[WebDriver]) -> None:
    import httpx

    # seats 1-3 people, 4-5 station bots (always call); the button starts at seat 5, so
    # ann posts the small blind, bob the big blind and cy (50 chips) acts first
    config = {
        "game": "fesca78-holdem",
        "seats": 5,
        "stacks": [200, 200, 50, 200, 200],
        "bots": {"4": "station", "5": "station"},
        "clock": 0,
        "bot_delay": 0.3,
        "pause": 60,
        "name": "browser test",
        "public": True,
    }
    created = httpx.post(base_url + "/api/tables", json=config).json()
    url = base_url + created["url"]
    ann, bob, cy = players
    for driver, name in ((ann, "ann"), (bob, "bob"), (cy, "cy")):
        size(driver, DESKTOP)
        driver.get(url)
        wait(driver, lambda d=driver: visible(d, "pt-join"), "the join form")
        driver.find_element(By.ID, "pt-name").send_keys(name)
        driver.find_element(By.ID, "pt-join-btn").click()
        wait(
            driver,
            lambda d=driver, n=name: f"you are {n}" in text(d, "#pt-status"),
            f"{name} seated",
        )
    # cy: all-in with the preset, then the raise button
    wait(cy, lambda: visible(cy, "pt-raise"), "cy's bet controls")
    click(cy, "#pt-presets button[aria-label^='all-in']")
    assert cy.execute_script("return document.getElementById('pt-amount-n').value") == "50"
    click(cy, "#pt-raise-btn")
    # the bots call; ann folds her small blind
    click_when_ready(ann, "pt-act-fold", "ann's fold button")
    # bob raises to 100: the bots call, cy's 50 is the main pot, the rest a side pot
    wait(bob, lambda: visible(bob, "pt-raise"), "bob's raise controls")
    bob.execute_script(
        "const n = document.getElementById('pt-amount-n'); n.value = 100;"
        "n.dispatchEvent(new Event('input'));"
    )
    assert "100" in text(bob, "#pt-raise-btn")
    screenshot(bob, "table-bob-to-act")
    size(bob, DESKTOP)
    click(bob, "#pt-raise-btn")
    # flop, turn, river: bob checks, the bots check behind
    for street in ("flop", "turn", "river"):
        wait(
            bob,
            lambda s=street: (
                f"{s}: bob to act" in text(bob, "#pt-status")
                and text(bob, "#pt-act-call") == "Check"
            ),
            f"bob's check on the {street}",
        )
        click(bob, "#pt-act-call")
    # the showdown, as all three see it
    for driver in players:
        wait(driver, lambda d=driver: visible(d, "pt-last-hands"), "the showdown")
    pots = text(ann, "#pt-last-pots") + " ".join(
        ann.execute_script(
            "return [...document.querySelectorAll('#pt-last-pots [data-decided-by]')]"
            ".map(e => e.dataset.decidedBy)"
        )
    )
    assert "main pot 201" in pots  # 4 x 50 and ann's small blind
    assert "side pot 1 150" in pots  # 3 x 50 more from bob and the bots
    assert any(step in pots for step in ("category", "secondary", "ranks", "suits", "tie"))
    shown = text(ann, "#pt-last-hands")
    for name in ("bob", "cy", "station bot 4", "station bot 5"):
        assert name in shown
    assert "ann" not in shown.split("\n", 1)[1]  # she folded: her cards stay hidden
    log = text(ann, "#pt-log")
    assert "ann folds" in log and "cy bets/raises to 50" in log
    # every chip is still on the table
    stacks = ann.execute_script(
        "return [...document.querySelectorAll('.pt-seat .meta')].map(e => e.textContent)"
    )
    assert sum(int(t.split()[1]) for t in stacks) == 850
    # the histories download, as ann may see them: her cards, nobody's folded ones
    ann_cookie = ann.get_cookies()
    assert ann_cookie and all(c["httpOnly"] for c in ann_cookie)
    screenshot(ann, "table-showdown")
    size(cy, PHONE)
    cy.refresh()  # a reload keeps the seat
    wait(cy, lambda: "you are cy" in text(cy, "#pt-status"), "cy back")
    wait(cy, lambda: visible(cy, "pt-last-hands"), "the showdown on a phone")
    scroll_width = cy.execute_script("return document.documentElement.scrollWidth")
    wide = cy.execute_script(WIDE)
    assert scroll_width <= PHONE[0], wide
    screenshot(cy, "table-showdown")
    size(ann, PHONE)
    ann.get(base_url + "/tables")
    wait(ann, lambda: "browser test" in text(ann, "#t-list"), "the lobby")
    scroll_width = ann.execute_script("return document.documentElement.scrollWidth")
    assert scroll_width <= PHONE[0], ann.execute_script(WIDE)
    screenshot(ann, "tables-lobby")
    # the hand's replay, linked from each viewer's page, shows it as that viewer may see it
    link = cy.execute_script(
        "const a = document.getElementById('pt-last-replay');"
        " return a ? a.getAttribute('href') : ''"
    )
    assert link == created["url"] + "/hands/1/replay"
    assert "Replay hand 1" in text(cy, "#pt-last-replay")
    click(cy, "#pt-last-replay")
    state = "return (document.getElementById('rp-player') || {dataset: {}}).dataset.state"
    wait(cy, lambda: cy.execute_script(state) == "ready", "cy's replay")
    assert cy.current_url.split("#")[0] == base_url + link
    assert text(cy, ".rp-seat.you .rp-name") == "cy"
    scroll_width = cy.execute_script("return document.documentElement.scrollWidth")
    assert scroll_width <= PHONE[0], cy.execute_script(WIDE)
    # ann's link opens the same hand as she may see it: her seat is "you"
    ann.get(base_url + link)
    wait(ann, lambda: ann.execute_script(state) == "ready", "ann's replay")
    assert text(ann, ".rp-seat.you .rp-name") == "ann"


def test_the_page_deals_with_its_seeds_reveals_and_verifies(
    base_url: str, players: list[WebDriver], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One person and two bots: the page sends a client seed for every deal, which the
    hand uses; after "Reveal the seed" the page's own check (WebCrypto, no server call)
    says the same as `cardlab verify` on the same download, hand by hand."""
    import httpx

    from cardlab.cli import main
    from cardlab.table import phh
    from cardlab.table.dealing import verify_deal

    config = {
        "game": "fesca78-holdem",
        "seats": 3,
        "bots": {"2": "station", "3": "station"},
        "clock": 0,
        "bot_delay": 0,
        "pause": 0.3,
    }
    created = httpx.post(base_url + "/api/tables", json=config).json()
    driver = players[0]
    size(driver, DESKTOP)
    driver.get(base_url + created["url"])
    wait(driver, lambda: visible(driver, "pt-join"), "the join form")
    driver.find_element(By.ID, "pt-name").send_keys("dana")
    driver.find_element(By.ID, "pt-join-btn").click()
    wait(driver, lambda: visible(driver, "pt-leave"), "the seat")
    played = "return (window.__hands = document.getElementById('pt-stakes').innerText)"
    for _ in range(3000):  # call or check whenever it is dana's turn, for three hands
        if "hand 4" in str(driver.execute_script(played)):
            break
        driver.execute_script(CALL_OR_SHOW)
        time.sleep(0.02)
    click_when_ready(driver, "pt-reveal", "the reveal button")
    for _ in range(3000):  # the seed is revealed when the hand in play ends
        if "revealed" in text(driver, "#pt-revealed"):
            break
        driver.execute_script(CALL_OR_SHOW)
        time.sleep(0.02)
    assert "revealed" in text(driver, "#pt-revealed")
    download = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"fetch('/api/tables/{created['id']}/hands.phhs').then(r => r.text()).then(done);"
    )
    hands = phh.loads_all(download)
    assert len(hands) >= 3
    python = [verify_deal(h).status for h in hands]
    assert python.count("verified") >= 3  # the hands dealt before the reveal
    # the page's seeds are in the hands: dana's position holds 32 hex digits
    for h in hands:
        seeds = h.user_fields["_client_seeds"]
        dana = list(h.players or ()).index("dana")
        assert len(seeds[dana]) == 32 and all(s == "" for i, s in enumerate(seeds) if i != dana)
    click(driver, "#pt-verify")
    wait(
        driver,
        lambda: (
            driver.execute_script(
                "return document.getElementById('pt-verify-results').dataset.state"
            )
            == "done"
        ),
        "the browser's check",
    )
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#pt-verify-rows tr')]"
        ".map(r => [r.dataset.status, r.innerText])"
    )
    # the page fetched the download again: the same hands, maybe one more
    assert [status for status, _ in rows][: len(python)] == python
    assert all("your client seed is in it" in line for _, line in rows[: len(python)])
    path = tmp_path / "table.phhs"
    path.write_text(download, encoding="utf-8")
    capsys.readouterr()
    try:
        main(["verify", str(path), "--format", "json"])
        code: object = 0
    except SystemExit as ended:
        code = ended.code
    import json

    cli = json.loads(capsys.readouterr().out)
    assert code == 0 and cli["failed"] == 0
    assert [h["status"] for h in cli["hands"]] == python
    screenshot(driver, "table-fair-dealing")


def test_the_host_panel_seats_and_ledger(base_url: str, players: list[WebDriver]) -> None:
    """The creator's browser is the host: pause, new blinds from the next hand, remove a
    bot and seat another; the seat's sit-out and top-up; the ledger says it balances.
    Screenshots at desktop and phone width."""
    import httpx

    driver = players[1]
    size(driver, DESKTOP)
    driver.get(base_url + "/tables")
    config = {
        "game": "fesca78-holdem",
        "seats": 3,
        "bots": {"2": "station", "3": "station"},
        "clock": 0,
        "bot_delay": 0.05,
        "pause": 0.5,
        "max_buy_in": 300,
    }
    created = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},"
        " body: JSON.stringify(arguments[0])}).then(r => r.json()).then(done);",
        config,
    )
    tid = created["id"]
    driver.get(base_url + created["url"])
    wait(driver, lambda: visible(driver, "pt-join"), "the join form")
    driver.find_element(By.ID, "pt-name").send_keys("hana")
    driver.find_element(By.ID, "pt-join-btn").click()
    wait(driver, lambda: visible(driver, "pt-host"), "the host panel")
    state = lambda: httpx.get(f"{base_url}/api/tables/{tid}").json()  # noqa: E731
    # new blinds from the next hand
    driver.find_element(By.ID, "pt-set-blinds").send_keys("5/10")
    click(driver, "#pt-set-btn")
    wait(
        driver,
        lambda: (
            "from the next hand" in text(driver, "#pt-notices")
            or "changed the settings" in text(driver, "#pt-notices")
        ),
        "the settings notice",
    )
    for _ in range(2000):  # hana calls until a hand with the new blinds is dealt
        if "blinds 5/10" in state()["table"]["stakes"]:
            break
        driver.execute_script(CALL_OR_SHOW)
        time.sleep(0.02)
    assert "blinds 5/10" in state()["table"]["stakes"]
    # pause, then remove a bot and seat a random bot while paused
    click(driver, "#pt-pause")
    for _ in range(2000):
        if state()["table"]["status"] == "paused by the host":
            break
        driver.execute_script(CALL_OR_SHOW)
        time.sleep(0.02)
    assert state()["table"]["status"] == "paused by the host"
    click(driver, "[data-remove='3']")  # asked first: a dismissed question removes nobody
    driver.switch_to.alert.dismiss()
    time.sleep(0.3)
    assert state()["seats"][2]["kind"] == "bot"
    click(driver, "[data-remove='3']")
    assert "Remove" in driver.switch_to.alert.text
    driver.switch_to.alert.accept()
    wait(driver, lambda: state()["seats"][2]["kind"] == "open", "the bot removed")
    wait(driver, lambda: "Seat a bot" in text(driver, "#pt-host-seats"), "the open seat")
    driver.execute_script(
        "[...document.querySelectorAll('#pt-host-seats button')]"
        ".find(b => b.textContent === 'Seat a bot').click()"
    )
    wait(driver, lambda: state()["seats"][2]["kind"] == "bot", "a bot seated")
    # a top-up within the cap, and the ledger balances
    wait(driver, lambda: visible(driver, "pt-chips"), "the add-chips form")
    driver.find_element(By.ID, "pt-chips-n").send_keys("50")
    click(driver, "#pt-chips-btn")
    wait(driver, lambda: "added 50 chips" in text(driver, "#pt-notices"), "the top-up")
    wait(driver, lambda: "it balances" in text(driver, "#pt-ledger-check"), "the ledger")
    ledger = httpx.get(f"{base_url}/api/tables/{tid}/ledger").json()
    # hana, two station bots, the bot seated later, and the top-up
    assert ledger["balanced"] and ledger["chips_brought"] == 4 * 200 + 50
    # sit out from the next hand, shown on the seat
    click(driver, "#pt-sit")
    wait(driver, lambda: "sitting out" in text(driver, "#pt-seats"), "the sit-out badge")
    screenshot(driver, "table-host")
    size(driver, PHONE)
    time.sleep(0.3)
    wide = [w for w in driver.execute_script(WIDE) if not w.startswith("INPUT#")]
    assert (
        wide == []
        and driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    ), wide
    screenshot(driver, "table-host")


def _serve_in_thread(store: Any, port: int) -> tuple[Any, threading.Thread]:
    import uvicorn

    from cardlab.web import create_app

    app = create_app(table_store=store, limiter=None)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    return server, thread


def test_after_a_restart_the_page_sends_its_seed_again(
    players: list[WebDriver], tmp_path: Path
) -> None:
    """The page sends each deal's client seed once per connection: a server restarted
    between the seed and the deal has forgotten it, so the reconnected page sends it again
    and the next hand is dealt with it (not with an empty seed after the wait)."""
    import httpx

    from cardlab.store import Store
    from cardlab.table import phh

    path = tmp_path / "tables.sqlite3"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    store = Store.open(path)
    server, thread = _serve_in_thread(store, port)
    config = {
        "game": "fesca78-holdem",
        "seats": 3,
        "bots": {"2": "station", "3": "station"},
        "clock": 0,
        "bot_delay": 0,
        "pause": 0.3,
    }
    try:
        created = httpx.post(base + "/api/tables", json=config).json()
        driver = players[2]
        size(driver, DESKTOP)
        driver.get(base + created["url"])
        wait(driver, lambda: visible(driver, "pt-join"), "the join form")
        driver.find_element(By.ID, "pt-name").send_keys("eve")
        driver.find_element(By.ID, "pt-join-btn").click()
        # eve's turn in the first hand: the page has sent the seed of the next deal
        wait(driver, lambda: visible(driver, "pt-act-call"), "eve's first decision")
        kept = f"JSON.parse(localStorage.getItem('cardlab-seeds-{created['id']}') || '{{}}')"
        wait(
            driver,
            lambda: driver.execute_script(f"return Object.keys({kept}).length") >= 2,
            "the next deal's seed",
        )
        time.sleep(0.3)  # the message is on its way to the server
    finally:
        server.should_exit = True
        thread.join(20)
        store.close()
    assert not thread.is_alive()
    wait(driver, lambda: "Reconnecting" in text(driver, "#pt-status"), "the page offline")
    store = Store.open(path)
    server, thread = _serve_in_thread(store, port)
    try:
        wait(driver, lambda: "you are eve" in text(driver, "#pt-status"), "eve reconnected")
        played = "return document.getElementById('pt-stakes').innerText"
        for _ in range(3000):  # eve calls or checks until the next hand is dealt
            if "hand 3" in str(driver.execute_script(played)):
                break
            driver.execute_script(CALL_OR_SHOW)
            time.sleep(0.02)
        assert "hand 3" in str(driver.execute_script(played))
        download = httpx.get(f"{base}/api/tables/{created['id']}/hands.phhs").text
    finally:
        server.should_exit = True
        thread.join(20)
        store.close()
    mine = set(driver.execute_script(f"return Object.values({kept})"))
    hands = phh.loads_all(download)
    assert [h.hand for h in hands][:2] == [1, 2]
    for h in hands[:2]:  # the hand in play at the restart, and the one dealt after it
        seeds = h.user_fields["_client_seeds"]
        eve = list(h.players or ()).index("eve")
        assert seeds[eve] in mine, (h.hand, seeds)
