"""What a browser test of the pages found, each shown in the browser: double clicks, stuck
and stale state, a live deal's seed, the phone layout, the keyboard and screen readers."""

from __future__ import annotations

from _browser import PHONE, Page
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from cardlab.openseven import Game
from cardlab.openseven.game import OpenSevenError, Start


def _two_lefts_seed(cards: int = 7) -> tuple[int, int]:
    """A seed and a start from which 'left' can be called twice in a row."""
    for seed in range(1000):
        state = Game(cards).deal(seed)
        for p in range(1, cards + 1):
            try:
                state.apply(Start(p)).apply("left").apply("left")
            except OpenSevenError:
                continue
            return seed, p
    raise AssertionError("no such deal")


def _turned(page: Page) -> int:
    return int(page.js("return document.querySelectorAll('#os-row .order').length"))


def test_a_double_click_plays_one_open_seven_move(page: Page) -> None:
    seed, start = _two_lefts_seed()
    page.open(f"/openseven?cards=7&seed={seed}&moves={start}")
    assert _turned(page) == 1
    # two clicks in the same moment: the second lands while the first move is in flight
    disabled = page.js(
        "const b = document.getElementById('os-left'); b.click(); const d = b.disabled; b.click();"
        "return d;"
    )
    assert disabled is True  # while the move is in flight
    page.wait_idle()
    assert _turned(page) == 2
    assert page.toast() == ""
    # the same on a face-down card (the first move)
    page.open(f"/openseven?cards=7&seed={seed}")
    page.js("const c = document.querySelector('#os-row button.card'); c.click(); c.click();")
    page.wait_idle()
    assert _turned(page) == 1
    assert page.toast() == ""


def test_a_failed_new_deal_does_not_leave_the_status_stuck(page: Page) -> None:
    page.open("/showdown")
    before = page.text("s-info")
    page.js(
        "document.getElementById('s-seed').value = '-5'; document.getElementById('s-new').click()"
    )
    page.wait_idle()
    assert "seed" in page.toast()
    assert page.text("s-info") == before
    assert page.js("return document.getElementById('s-new').disabled") is False
    # after a deal too: the deal's own status comes back
    page.open("/showdown?game=standard52-holdem&opponents=1&seed=5&streets=1")
    before = page.text("s-info")
    assert before.endswith("flop")
    page.js(
        "document.getElementById('s-seed').value = '1e3'; document.getElementById('s-new').click()"
    )
    page.wait_idle()
    assert "whole number" in page.toast()
    assert page.text("s-info") == before


def test_a_live_deal_does_not_show_its_seed(page: Page) -> None:
    for streets in range(4):
        page.open(f"/showdown?game=fesca78-holdem&opponents=2&seed=4321&streets={streets}")
        assert "4321" not in page.js("return document.body.innerText")
    page.open("/showdown?game=fesca78-holdem&opponents=2&seed=4321&streets=4")
    assert page.text("s-info").endswith("showdown · seed 4321")


def test_no_stale_results_on_the_hands_page(page: Page) -> None:
    page.open("/hands")
    assert "Mixwell" in page.text("h-result")
    assert "wins" in page.text("h-compare-result")
    page.js("document.getElementById('h-cards').value = '木7 木7 火2 金3 水4'")
    page.driver.find_element(By.ID, "h-eval").click()
    page.wait_idle()
    assert "Mixwell" not in page.text("h-result")
    assert "twice" in page.text("h-result") or "repeated" in page.text("h-result")
    page.js("document.getElementById('h-compare-input').value = '木7 火7 土7 金2 水9\\nxx'")
    page.driver.find_element(By.ID, "h-compare").click()
    page.wait_idle()
    result = page.text("h-compare-result")
    assert "wins" not in result and "Hand 1" not in result
    assert "'xx'" in result


def test_phone_open_seven_row_is_one_row(page: Page) -> None:
    page.open("/openseven?cards=13&seed=2&hints=1", PHONE)
    boxes = page.js(
        "return [...document.querySelectorAll('#os-row .card')]"
        ".map(c => { const r = c.getBoundingClientRect(); return [r.top, r.right, r.width]; })"
    )
    assert len(boxes) == 13
    assert len({round(top) for top, _, _ in boxes}) == 1
    assert max(right for _, right, _ in boxes) <= PHONE[0]
    assert min(width for _, _, width in boxes) >= 18


def test_phone_picker_cells_are_big_enough_to_tap(page: Page) -> None:
    page.open("/hands?deck=FESCA78", PHONE)
    sizes = page.js(
        "return [...document.querySelectorAll('#h-picker button.pcard')]"
        ".map(c => { const r = c.getBoundingClientRect(); return [r.width, r.height, r.right]; })"
    )
    assert len(sizes) == 78
    assert min(w for w, _, _ in sizes) >= 40
    assert min(h for _, h, _ in sizes) >= 44
    assert max(r for _, _, r in sizes) <= PHONE[0]


def _tab_to(page: Page, selector: str, limit: int = 80) -> str:
    """Press Tab until an element matching ``selector`` has the focus; its aria-label."""
    body = page.driver.find_element(By.TAG_NAME, "body")
    body.click()
    for _ in range(limit):
        page.driver.switch_to.active_element.send_keys(Keys.TAB)
        if page.js("return document.activeElement.matches(arguments[0])", selector):
            return str(page.js("return document.activeElement.getAttribute('aria-label')"))
    raise AssertionError(f"Tab never reached {selector}")


def test_keyboard_plays_open_seven(page: Page) -> None:
    page.open("/openseven?cards=7&seed=1")
    label = _tab_to(page, "#os-row button.card")
    assert label == "start with position 1"
    page.driver.switch_to.active_element.send_keys(Keys.ENTER)
    page.wait_idle()
    assert _turned(page) == 1
    names = page.js(
        "return [...document.querySelectorAll('#os-row .card')]"
        ".map(c => c.getAttribute('aria-label'))"
    )
    assert all(names) and any("turned 1st" in n for n in names)


def test_keyboard_picks_cards(page: Page) -> None:
    page.open("/hands?deck=FESCA78")
    page.driver.find_element(By.ID, "h-clear").click()
    label = _tab_to(page, "#h-picker button.pcard")
    assert label == "木1 (Wood 1)"
    page.driver.switch_to.active_element.send_keys(Keys.SPACE)
    page.driver.switch_to.active_element.send_keys(Keys.TAB, Keys.SPACE)  # the next card: 木2
    assert page.js("return document.getElementById('h-cards').value") == "木1 木2"
    pressed = page.js(
        "return [...document.querySelectorAll('[aria-pressed=true]')]"
        ".map(b => b.getAttribute('aria-label'))"
    )
    assert pressed == ["木1 (Wood 1)", "木2 (Wood 2)"]
    shown = page.js("return [...document.querySelectorAll('#h-result [role=img]')].length")
    assert shown == 0
