"""The table page looks like a table: seats around an oval felt (yours at the bottom),
each bet in front of its seat, the pots and board in the middle, the winner lit up;
light animations that the reduced-motion setting turns off; sounds that are off unless
turned on; suit symbols in two or four colours; Stud's own face-down cards apart from
the face-up ones; an action panel that never covers the felt, on a desktop and on a
390 px phone. The show/muck buttons and the tournament panel are checked against the
payload contract by handing the page a state message of our own.

Screenshots go to out/screenshots/ (gitignored) like the other browser tests'.
"""

from __future__ import annotations

import math
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("selenium")
pytest.importorskip("uvicorn")

import httpx
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from test_web_tables_browser import (
    DESKTOP,
    PHONE,
    WIDE,
    _browser,
    base_url,  # noqa: F401 - the fixture: the app served on a free port
    click,
    screenshot,
    size,
    text,
    visible,
    wait,
)

pytestmark = pytest.mark.slow

# before the page's own scripts: record what the page sends and is sent over its
# WebSocket (and let a test hand it a state of its own), and stand in for WebAudio
# with a recorder of the tones played
SPY = """
(() => {
  const Real = window.WebSocket;
  window.__sent = [];
  window.__block = false;
  window.__state = null;
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new Real(url) : new Real(url, protocols);
    window.__ws = ws;
    const send = ws.send.bind(ws);
    ws.send = (data) => { window.__sent.push(JSON.parse(data)); if (!window.__block) send(data); };
    ws.addEventListener("message", (m) => {
      const d = JSON.parse(m.data);
      if (d.type === "state") window.__state = d;
    });
    return ws;
  };
  window.WebSocket.prototype = Real.prototype;
  window.WebSocket.OPEN = 1;
  window.__tones = [];
  class Recorder {
    constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
    resume() { return Promise.resolve(); }
    createOscillator() {
      const o = { type: "", frequency: { value: 0 }, connect() {}, stop() {},
                  start() { window.__tones.push(o.frequency.value); } };
      return o;
    }
    createGain() {
      return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect() {} };
    }
  }
  window.AudioContext = Recorder;
  window.webkitAudioContext = Recorder;
  window.__ghosts = 0;  // chips flying to the pot or to a winner
  new MutationObserver((changes) => {
    for (const c of changes) for (const n of c.addedNodes)
      if (n.classList && n.classList.contains("pt-ghost")) window.__ghosts += 1;
  }).observe(document, { childList: true, subtree: true });
})();
"""

# every box on the felt, relative to the felt's centre (y down)
GEOMETRY = """
const felt = document.getElementById('pt-felt').getBoundingClientRect();
const cx = felt.left + felt.width / 2, cy = felt.top + felt.height / 2;
const c = (e) => { const r = e.getBoundingClientRect();
  return {x: r.left + r.width / 2 - cx, y: r.top + r.height / 2 - cy, w: r.width, h: r.height}; };
const bySeat = (sel) => Object.fromEntries([...document.querySelectorAll(sel)]
  .map(e => [e.dataset.seat, c(e)]));
return {felt: {w: felt.width, h: felt.height},
        seats: bySeat('#pt-seats .pt-seat'), bets: bySeat('#pt-bets .pt-bet:not(.pt-ghost)'),
        amounts: Object.fromEntries([...document.querySelectorAll('#pt-bets .pt-bet[data-seat]')]
          .map(e => [e.dataset.seat, Number(e.dataset.amount)])),
        dealers: bySeat('#pt-bets .pt-dealer'),
        you: (document.querySelector('.pt-seat.you') || {dataset: {}}).dataset.seat || null};
"""

CARDS_ON_BOARD = "return document.querySelectorAll('#pt-board .card').length"

RECTS = """
const r = (e) => { const b = e.getBoundingClientRect();
  return [b.left, b.top, b.right, b.bottom, e.id || e.dataset.seat || e.className]; };
return {panel: r(document.getElementById('pt-actions')),
        board: r(document.getElementById('pt-board')),
        middle: r(document.getElementById('pt-middle')),
        felt: r(document.getElementById('pt-felt')),
        seats: [...document.querySelectorAll('#pt-seats .pt-seat')].map(r)};
"""


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    browser, profile = _browser()
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SPY})
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _table(url: str, config: dict[str, Any]) -> dict[str, Any]:
    created = httpx.post(url + "/api/tables", json=config)
    assert created.status_code == 201, created.text
    return dict(created.json())


def _join(driver: WebDriver, url: str, name: str) -> None:
    size(driver, DESKTOP)
    driver.get(url)
    wait(driver, lambda: visible(driver, "pt-join"), "the join form")
    driver.find_element(By.ID, "pt-name").send_keys(name)
    driver.find_element(By.ID, "pt-join-btn").click()
    wait(driver, lambda: f"you are {name}" in text(driver, "#pt-status"), f"{name} seated")


def _public(url: str, tid: str) -> dict[str, Any]:
    return dict(httpx.get(f"{url}/api/tables/{tid}").json())


def _overlaps(a: list[Any], b: list[Any]) -> bool:
    empty = a[2] - a[0] < 1 or a[3] - a[1] < 1 or b[2] - b[0] < 1 or b[3] - b[1] < 1
    return not empty and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _panel_clear(driver: WebDriver) -> dict[str, Any]:
    """The action panel is shown and covers neither the board nor any seat, and every
    seat is inside the felt."""
    rects = driver.execute_script(RECTS)
    panel = rects["panel"]
    assert panel[3] - panel[1] > 20, rects  # shown
    assert len(rects["seats"]) >= 2
    for other in [rects["board"], rects["middle"], *rects["seats"]]:
        assert not _overlaps(panel, other), (panel, other)
    felt = rects["felt"]
    for seat in rects["seats"]:
        assert felt[0] - 1 <= seat[0] and seat[2] <= felt[2] + 1, (seat, felt)
        assert felt[1] - 1 <= seat[1] and seat[3] <= felt[3] + 1, (seat, felt)
    return dict(rects)


def _between(chip: dict[str, float], seat: dict[str, float]) -> bool:
    """The chip's centre lies between the seat's centre and the felt's (0, 0)."""
    d_seat = math.hypot(seat["x"], seat["y"])
    d_chip = math.hypot(chip["x"], chip["y"])
    to_seat = math.hypot(seat["x"] - chip["x"], seat["y"] - chip["y"])
    along = (chip["x"] * seat["x"] + chip["y"] * seat["y"]) / (d_seat * d_seat)
    return d_chip < d_seat and to_seat < d_seat and 0.15 < along < 0.95


def _my_turn(driver: WebDriver) -> bool:
    return visible(driver, "pt-act-call") or visible(driver, "pt-act-bring-in")


def test_seats_around_an_oval_bets_in_front_and_the_panel_below(
    base_url: str,  # noqa: F811
    driver: WebDriver,
) -> None:
    """Six seats, five station bots: the seats go around the oval, evenly, yours at the
    bottom centre; each bet sits between its seat and the middle with the payload's
    amount; one dealer button; the seat to act is marked with its clock; the action
    panel leaves the board and the seats clear at 1280x900 and at 390x844."""
    config = {
        "game": "standard52-holdem",
        "seats": 6,
        "bots": {str(k): "station" for k in range(2, 7)},
        "clock": 120,
        "bot_delay": 0.05,
        "pause": 30,
    }
    created = _table(base_url, config)
    _join(driver, base_url + created["url"], "ann")
    wait(driver, lambda: _my_turn(driver), "ann's turn before the flop")
    time.sleep(0.6)  # the chips' and cards' motion is over
    g = driver.execute_script(GEOMETRY)
    public = _public(base_url, created["id"])
    seats = g["seats"]
    assert sorted(seats, key=int) == [str(k) for k in range(1, 7)]
    # yours at the bottom centre: right below the middle, lower than every other seat
    you = seats[g["you"]]
    assert g["you"] == "1"
    assert abs(you["x"]) < 2 and you["y"] > 0.3 * g["felt"]["h"]
    assert all(you["y"] > s["y"] + 1 for k, s in seats.items() if k != "1")
    # around an oval: spread both ways, on one ellipse, 60 degrees apart in seat order
    xs = [s["x"] for s in seats.values()]
    ys = [s["y"] for s in seats.values()]
    assert min(xs) < -0.25 * g["felt"]["w"] and max(xs) > 0.25 * g["felt"]["w"]
    assert min(ys) < -0.25 * g["felt"]["h"] and max(ys) > 0.25 * g["felt"]["h"]
    rx = g["felt"]["w"] / 2 - max(s["w"] for s in seats.values()) / 2
    ry = g["felt"]["h"] / 2 - max(s["h"] for s in seats.values()) / 2
    angles = []
    for k in range(1, 7):
        s = seats[str(k)]
        assert abs(math.hypot(s["x"] / rx, s["y"] / ry) - 1) < 0.03, (k, s, rx, ry)
        angles.append(math.degrees(math.atan2(s["y"] / ry, s["x"] / rx)))
    steps = [(angles[(k + 1) % 6] - angles[k]) % 360 for k in range(6)]
    assert all(abs(step - 60) < 1.5 for step in steps), steps  # clockwise, evenly
    # the bets: as many chips as seats with a bet, each with its amount, in front
    betting = {str(p["seat"]): p["bet"] for p in public["seats"] if p["bet"] > 0}
    assert len(betting) >= 2  # the blinds at least
    assert g["amounts"] == betting
    for seat, chip in g["bets"].items():
        assert _between(chip, seats[seat]), (seat, chip, seats[seat])
    # one dealer button, in front of the button's seat
    button = [str(p["seat"]) for p in public["seats"] if p["button"]]
    assert list(g["dealers"]) == button
    assert _between(g["dealers"][button[0]], seats[button[0]])
    # yours is the seat to act, with its clock running down
    marked = driver.execute_script(
        "return [...document.querySelectorAll('.pt-seat.actor')].map(e => e.dataset.seat)"
    )
    assert marked == ["1"]
    assert "to act" in text(driver, ".pt-seat.actor")
    clock = driver.execute_script(
        "return parseFloat(document.querySelector('.pt-seat.actor .pt-seat-clock i').style.width)"
    )
    assert 0 < clock <= 100
    _panel_clear(driver)
    screenshot(driver, "look-preflop")
    size(driver, PHONE)
    time.sleep(0.5)
    _panel_clear(driver)
    assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    wide = [w for w in driver.execute_script(WIDE) if not w.startswith("INPUT#")]
    assert wide == []
    g = driver.execute_script(GEOMETRY)
    for seat, chip in g["bets"].items():
        assert _between(chip, g["seats"][seat]), (seat, chip)
    screenshot(driver, "look-preflop")
    # the flop: the board in the middle, still clear of the panel at both sizes
    size(driver, DESKTOP)
    click(driver, "#pt-act-call")
    wait(driver, lambda: text(driver, "#pt-act-call") == "Check", "ann's check on the flop")
    wait(driver, lambda: driver.execute_script(CARDS_ON_BOARD) == 3, "the flop")
    time.sleep(0.6)
    rects = _panel_clear(driver)
    assert rects["board"][2] - rects["board"][0] > 100  # three cards, side by side
    screenshot(driver, "look-flop")
    size(driver, PHONE)
    time.sleep(0.5)
    _panel_clear(driver)
    assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    screenshot(driver, "look-flop")
    size(driver, DESKTOP)


# the computed motion of everything that moves on the felt
MOTION = """
return [...document.querySelectorAll(
  '#pt-felt .card, #pt-hole .card, .pt-bet, .pt-seat, .pt-plate, .pt-seat-clock i,'
  + ' .pt-clock')]
  .map(e => { const s = getComputedStyle(e);
    return [e.className, s.animationName, s.animationDuration, s.transitionDuration]; });
"""


def _inject(driver: WebDriver, change: str) -> None:
    """Hand the page the last state it was sent, changed by ``change`` (JS on ``s``)."""
    driver.execute_script(
        "const s = JSON.parse(JSON.stringify(window.__state));" + change + ";"
        "window.__ws.onmessage({data: JSON.stringify(s)});"
    )


def _colours(driver: WebDriver) -> dict[str, str]:
    return dict(
        driver.execute_script(
            "return Object.fromEntries(['s', 'h', 'd', 'c'].map(x => [x,"
            " getComputedStyle(document.querySelector('#pt-board .suit-' + x)).color]));"
        )
    )


def test_motion_sounds_the_winner_and_the_four_colour_deck(
    base_url: str,  # noqa: F811
    driver: WebDriver,
) -> None:
    """Cards and chips move, and stop moving under prefers-reduced-motion; sounds are off
    until turned on, then a click on bets and a tick on your turn; the winner's seat is
    lit at the end; the four-colour deck recolours diamonds and clubs, and is kept."""
    config = {
        "game": "standard52-holdem",
        "seats": 3,
        "bots": {"2": "station", "3": "station"},
        "clock": 0,
        "bot_delay": 0.2,
        "pause": 60,
    }
    created = _table(base_url, config)
    url = base_url + created["url"]
    size(driver, DESKTOP)
    driver.get(url)
    driver.execute_script("localStorage.clear()")
    _join(driver, url, "bea")
    assert driver.execute_script("return document.getElementById('pt-sound').checked") is False
    assert (
        driver.execute_script("return document.getElementById('pt-four-colour').checked") is False
    )
    wait(driver, lambda: _my_turn(driver), "bea's turn")
    time.sleep(0.6)
    # blinds and calls went in, silently: sounds are off by default
    assert driver.execute_script("return window.__tones") == []
    # motion: the cards have transitions, the seat to act pulses...
    moving = driver.execute_script(MOTION)
    cards = [m for m in moving if m[0].split()[:1] == ["card"]]
    assert len(cards) >= 2 and all(m[3] != "0s" for m in cards), cards
    assert any("pt-plate" in m[0] and m[1] == "pt-pulse" and m[2] != "0s" for m in moving)
    # ... and nothing moves when the system asks for less motion
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]},
    )
    assert driver.execute_script("return matchMedia('(prefers-reduced-motion: reduce)').matches")
    still = driver.execute_script(MOTION)
    assert len(still) == len(moving)
    for name, _, animation, transition in still:
        assert set(animation.split(", ")) == {"0s"}, (name, animation)
        assert set(transition.split(", ")) == {"0s"}, (name, transition)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    assert not driver.execute_script(
        "return matchMedia('(prefers-reduced-motion: reduce)').matches"
    )
    # sounds on: kept in localStorage; a click when chips go in, a tick on bea's turn
    click(driver, "#pt-sound")
    assert driver.execute_script("return localStorage.getItem('cardlab-sound')") == "1"
    driver.execute_script("window.__tones = []; window.__ghosts = 0;")
    click(driver, "#pt-raise-btn")  # a min raise: bea's chips go in
    wait(driver, lambda: 2200 in driver.execute_script("return window.__tones"), "the click")
    wait(driver, lambda: text(driver, "#pt-act-call") == "Check", "bea's check on the flop")
    wait(driver, lambda: 1320 in driver.execute_script("return window.__tones"), "the tick")
    assert driver.execute_script("return window.__ghosts") >= 1  # the bets went to the pot
    # check it down; the winner's seat lights up, and the middle says who won
    for _ in range(600):
        if text(driver, "#pt-result"):
            break
        driver.execute_script("const b = document.getElementById('pt-act-call'); if (b) b.click();")
        time.sleep(0.05)
    last = _public(base_url, created["id"])["last"]
    won = {w for p in last["pots"] for w in p["winners"]}
    lit = driver.execute_script(
        "return [...document.querySelectorAll('.pt-seat.winner')]"
        ".map(e => e.querySelector('.nm').title)"
    )
    assert won and set(lit) == won
    assert all(w in text(driver, "#pt-result") for w in won)
    for seat in driver.execute_script(
        "return [...document.querySelectorAll('.pt-seat.winner')].map(e => e.dataset.seat)"
    ):
        assert "wins " in text(driver, f".pt-seat[data-seat='{seat}'] .badge.win")
    time.sleep(0.7)  # the pot has reached the winner
    screenshot(driver, "look-showdown")
    size(driver, PHONE)
    time.sleep(0.3)
    screenshot(driver, "look-showdown")
    size(driver, DESKTOP)
    # standard52 cards: the suit symbol in two colours, then in four
    _inject(driver, "s.hand.board = ['Td', 'Ah', 'Ks', '7c', '木7']")
    faces = driver.execute_script(
        "return [...document.querySelectorAll('#pt-board .card')].map(e => e.textContent)"
    )
    assert faces == ["10♦", "A♥", "K♠", "7♣", "木7"]
    two = _colours(driver)
    assert two["d"] == two["h"] == "rgb(198, 40, 40)" and two["c"] == two["s"]
    assert (
        driver.execute_script(
            "return getComputedStyle(document.querySelector('#pt-board .card.suit-M')).color"
        )
        == "rgb(46, 125, 50)"
    )  # a FESCA card keeps its element's colour
    click(driver, "#pt-four-colour")
    four = _colours(driver)
    assert four["h"] == two["h"] and four["s"] == two["s"]
    assert four["d"] != two["d"] and four["c"] != two["c"] and four["d"] != four["c"]
    assert driver.execute_script("return localStorage.getItem('cardlab-four-colour')") == "1"
    time.sleep(0.6)  # the new cards are down
    screenshot(driver, "look-four-colour")
    # FESCA cards keep their text, in their elements' colours, whole even on a phone
    size(driver, PHONE)
    _inject(
        driver,
        "s.seats[0].cards = ['陰陽12', '金Z'];"
        "s.hand.board = ['陰陽12', '木7', '火1', '土13', '水10']",
    )
    cards = driver.execute_script(
        "return [...document.querySelectorAll('#pt-board .card, .pt-seat.you .card')]"
        ".map(e =>"
        " [e.textContent, e.className, e.scrollWidth <= e.clientWidth,"
        "  e.querySelector('.c-rank').getBoundingClientRect().bottom"
        "  <= e.getBoundingClientRect().bottom])"
    )
    texts = [c[0] for c in cards]
    assert sorted(texts) == sorted(["陰陽12", "金Z", "陰陽12", "木7", "火1", "土13", "水10"])
    assert all(fits and whole for _, _, fits, whole in cards), cards
    assert all("suit-Y" in c[1].split() for c in cards if c[0].startswith("陰陽"))
    assert all("suit-G" in c[1].split() for c in cards if c[0].startswith("金"))
    time.sleep(0.6)
    screenshot(driver, "look-fesca")
    size(driver, DESKTOP)
    driver.refresh()
    wait(driver, lambda: "you are bea" in text(driver, "#pt-status"), "bea back")
    assert driver.execute_script(
        "return document.getElementById('pt').classList.contains('four-colour')"
        " && document.getElementById('pt-four-colour').checked"
        " && document.getElementById('pt-sound').checked"
    )
    driver.execute_script("localStorage.clear()")


def test_stud_own_down_cards_differ_and_no_dealer_button(
    base_url: str,  # noqa: F811
    driver: WebDriver,
) -> None:
    """Seven-card stud: your face-down cards are drawn apart from your face-up one (in
    your seat and in your hand), the others' face-down cards are backs, and there is no
    dealer button."""
    config = {
        "game": "standard52-stud",
        "seats": 4,
        "bots": {"2": "station", "3": "station", "4": "station"},
        "clock": 0,
        "bot_delay": 0.1,
        "pause": 60,
    }
    created = _table(base_url, config)
    _join(driver, base_url + created["url"], "cal")
    wait(driver, lambda: _my_turn(driver), "cal's turn on third street")
    time.sleep(0.6)
    public = _public(base_url, created["id"])
    mine = public["seats"][0]
    assert mine["up"].count(True) == 1 and mine["up"].count(False) == 2
    for where in (".pt-seat.you", "#pt-hole"):
        down = driver.execute_script(
            f"return [...document.querySelectorAll('{where} .card.down')]"
            ".map(e => [e.dataset.card, getComputedStyle(e).backgroundImage,"
            " getComputedStyle(e).borderStyle])"
        )
        up = driver.execute_script(
            f"return [...document.querySelectorAll('{where} .card.up')]"
            ".map(e => [e.dataset.card, getComputedStyle(e).backgroundImage,"
            " getComputedStyle(e).borderStyle])"
        )
        assert len(down) == 2 and len(up) == 1, (where, down, up)
        assert "??" not in {d[0] for d in down}  # yours: you see them
        assert up[0][0] == next(c for c, u in zip(mine["cards"], mine["up"], strict=True) if u)
        assert all(d[1:] != up[0][1:] for d in down), (down, up)
    # the others: two backs and one face-up card each
    for seat in (2, 3, 4):
        backs = driver.execute_script(
            f"return document.querySelectorAll('.pt-seat[data-seat=\"{seat}\"] .card.back').length"
        )
        ups = driver.execute_script(
            f"return document.querySelectorAll('.pt-seat[data-seat=\"{seat}\"] .card.up').length"
        )
        assert (backs, ups) == (2, 1)
    assert driver.execute_script("return document.querySelectorAll('.pt-dealer').length") == 0
    assert "D" not in [
        b.strip()
        for b in driver.execute_script(
            "return [...document.querySelectorAll('#pt-felt .badge')].map(e => e.textContent)"
        )
    ]
    _panel_clear(driver)
    screenshot(driver, "look-stud")
    size(driver, PHONE)
    time.sleep(0.5)
    _panel_clear(driver)
    assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    screenshot(driver, "look-stud")
    size(driver, DESKTOP)


def test_show_muck_show_my_cards_and_the_tournament_panel(
    base_url: str,  # noqa: F811
    driver: WebDriver,
) -> None:
    """From the payload's contract (the page is handed states of our own): a showdown
    decision shows Show and Muck, which send actions s and m; can_show shows "Show my
    cards", which sends {"type": "show"}; a tournament fills its panel, names as text."""
    config = {"game": "standard52-holdem", "seats": 2, "bots": {"2": "station"}, "clock": 0}
    created = _table(base_url, config)
    _join(driver, base_url + created["url"], "dee")
    wait(driver, lambda: _my_turn(driver), "dee's turn")  # nothing moves until dee acts
    turn = driver.execute_script("return window.__state.turn")
    driver.execute_script("window.__block = true; window.__sent = [];")
    _inject(driver, "s.legal.phase = 'showdown'")
    assert text(driver, "#pt-act-show") == "Show" and text(driver, "#pt-act-muck") == "Muck"
    assert not visible(driver, "pt-act-fold") and not visible(driver, "pt-raise")
    click(driver, "#pt-act-muck")
    click(driver, "#pt-act-show")
    sent = driver.execute_script("return window.__sent")
    assert sent == [
        {"type": "action", "action": "m", "turn": turn},
        {"type": "action", "action": "s", "turn": turn},
    ]
    screenshot(driver, "look-show-muck")
    # you won uncontested: the hand is over and you may show
    _inject(driver, "s.hand.over = true; s.legal = null; s.can_show = true")
    assert visible(driver, "pt-actions")
    assert text(driver, "#pt-act-show-cards") == "Show my cards"
    click(driver, "#pt-act-show-cards")
    assert driver.execute_script("return window.__sent.at(-1)") == {"type": "show"}
    _inject(driver, "s.hand.over = true; s.legal = null; s.can_show = false")
    assert not visible(driver, "pt-act-show-cards") and not visible(driver, "pt-actions")
    # the tournament panel
    assert not visible(driver, "pt-tournament")
    standings = [
        {"place": None, "name": "dee", "chips": 4100, "prize": None, "out_hand": None},
        {"place": None, "name": "<b>eve</b>", "chips": 2900, "prize": None, "out_hand": None},
        {"place": None, "name": "fay", "chips": 2000, "prize": None, "out_hand": None},
        {"place": 4, "name": "gus", "chips": None, "prize": 0, "out_hand": 17},
    ]
    tournament = {
        "level": 3,
        "levels": 10,
        "stakes": "blinds 30/60, ante 6",
        "next": "blinds 40/80, ante 8",
        "next_in": {"seconds": 95},
        "players_left": 3,
        "entrants": 4,
        "standings": standings,
        "over": False,
        "winner": None,
    }
    driver.execute_script("window.__tournament = arguments[0]", tournament)
    _inject(driver, "s.tournament = window.__tournament")
    assert visible(driver, "pt-tournament")
    body = text(driver, "#pt-tournament-body")
    for part in ("3 of 10", "blinds 30/60, ante 6", "blinds 40/80, ante 8", "3 of 4"):
        assert part in body, (part, body)
    first = text(driver, "#pt-tournament-next-in")
    assert first in ("in 1:35", "in 1:34"), first
    wait(driver, lambda: text(driver, "#pt-tournament-next-in") not in ("in 1:35", first), "tick")
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#pt-standings tbody tr')]"
        ".map(r => [...r.cells].map(c => c.textContent))"
    )
    assert rows == [
        ["", "dee", "4100", "", ""],
        ["", "<b>eve</b>", "2900", "", ""],
        ["", "fay", "2000", "", ""],
        ["4", "gus", "", "", "hand 17"],
    ]
    assert driver.execute_script("return document.querySelectorAll('#pt-tournament b').length") == 0
    screenshot(driver, "look-tournament")
    _inject(driver, "s.tournament = {...window.__tournament, next_in: {hands: 4}}")
    assert text(driver, "#pt-tournament-next-in") == "in 4 hands"
    assert not driver.execute_script("return !!document.getElementById('pt-tournament-winner')")
    over = {**tournament, "over": True, "winner": "dee", "players_left": 1, "next": None}
    driver.execute_script("window.__tournament = arguments[0]", over)
    _inject(driver, "s.tournament = window.__tournament")
    assert text(driver, "#pt-tournament-winner") == "dee wins"
    _inject(driver, "s.tournament = null")
    assert not visible(driver, "pt-tournament")
    driver.execute_script("window.__block = false")


BOXES = """
const box = (e) => { const r = e.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom]; };
const all = (sel) => [...document.querySelectorAll(sel)].map(box);
return {felt: box(document.getElementById('pt-felt')),
        middle: box(document.getElementById('pt-middle')),
        seats: all('#pt-seats .pt-seat'),
        chips: all('#pt-bets .pt-bet[data-seat], #pt-bets .pt-dealer')};
"""


def test_ten_seats_fit_a_phone(
    base_url: str,  # noqa: F811
    driver: WebDriver,
) -> None:
    """Ten seats: on a 390 px phone as on a desktop no two seats overlap, no bet or
    button covers a seat, the middle or another chip, and nothing leaves the felt."""
    config = {
        "game": "standard52-holdem",
        "seats": 10,
        "bots": {str(k): "station" for k in range(2, 11)},
        "clock": 0,
        "bot_delay": 0.02,
        "pause": 30,
    }
    created = _table(base_url, config)
    _join(driver, base_url + created["url"], "eli")
    wait(driver, lambda: _my_turn(driver), "eli's turn")
    for dims in (PHONE, DESKTOP):
        size(driver, dims)
        time.sleep(0.6)
        b = driver.execute_script(BOXES)
        assert len(b["seats"]) == 10 and len(b["chips"]) >= 3, b
        for i, seat in enumerate(b["seats"]):
            assert not any(_overlaps(seat, other) for other in b["seats"][i + 1 :]), (dims, seat)
        for i, chip in enumerate(b["chips"]):
            assert not any(_overlaps(chip, other) for other in [*b["seats"], b["middle"]])
            assert not any(_overlaps(chip, other) for other in b["chips"][i + 1 :]), (dims, chip)
        felt = b["felt"]
        for r in b["seats"] + b["chips"]:
            assert felt[0] - 1 <= r[0] and r[2] <= felt[2] + 1 and felt[1] - 1 <= r[1], (r, felt)
            assert r[3] <= felt[3] + 1, (r, felt)
        assert driver.execute_script("return document.documentElement.scrollWidth") <= dims[0]
        screenshot(driver, "look-ten-seats")
    size(driver, DESKTOP)


def test_a_real_tournament_fills_its_panel(
    base_url: str,  # noqa: F811
    driver: WebDriver,
) -> None:
    """A sit-and-go table: the panel shows what the server says of it (level, stakes,
    the next level, players left, one standings row per entrant)."""
    config = {
        "game": "standard52-holdem",
        "seats": 3,
        "bots": {"2": "station", "3": "station"},
        "format": "tournament",
        "stack": 1500,
        "level_hands": 2,
        "clock": 0,
        "bot_delay": 0.05,
        "pause": 30,
    }
    created = _table(base_url, config)
    _join(driver, base_url + created["url"], "fay")
    wait(driver, lambda: _my_turn(driver), "fay's turn")
    t = _public(base_url, created["id"])["tournament"]
    assert t is not None and not t["over"]
    assert visible(driver, "pt-tournament")
    body = text(driver, "#pt-tournament-body")
    for part in (
        f"{t['level']} of {t['levels']}",
        t["stakes"],
        t["next"],
        f"{t['players_left']} of {t['entrants']}",
    ):
        assert part in body, (part, body)
    assert text(driver, "#pt-tournament-next-in") == f"in {t['next_in']['hands']} hands"
    names = driver.execute_script(
        "return [...document.querySelectorAll('#pt-standings tbody tr')]"
        ".map(r => r.cells[1].textContent)"
    )
    assert sorted(names) == sorted(row["name"] for row in t["standings"])
    assert len(names) == 3
    # its ledger settles by prizes (no chips column), and no rebuy is offered
    wait(driver, lambda: "Prize" in text(driver, "#pt-ledger thead"), "the prize ledger")
    assert "Table" not in text(driver, "#pt-ledger thead")
    assert "buy-in 0 each" in text(driver, "#pt-ledger-check") or "Prizes" in text(
        driver, "#pt-ledger-check"
    )
    assert not visible(driver, "pt-chips")
    screenshot(driver, "look-tournament-live")
