"""The rules page in the browser: the order follows the chosen deck, examples are cards."""

from __future__ import annotations

from _browser import PHONE, Page
from selenium.webdriver.support.ui import Select

from cardlab.poker import RuleSet
from cardlab.poker.order import hand_order


def _hands(page: Page) -> list[str]:
    return list(
        page.js(
            "return [...document.querySelectorAll('#r-hands tbody tr')].slice(0, -1)"
            ".map(r => r.cells[1].firstChild.textContent)"
        )
    )


def test_the_order_follows_the_deck(page: Page) -> None:
    page.open("/rules")
    expected = [c.english for c in hand_order(RuleSet.for_deck("FESCA78")).categories]
    assert _hands(page) == expected
    assert page.text("r-wrap").startswith("FESCA78: 13 straights")
    Select(page.driver.find_element("id", "r-deck")).select_by_value("FESCA60")
    page.wait_idle()
    expected = [c.english for c in hand_order(RuleSet.for_deck("FESCA60")).categories]
    assert _hands(page) == expected
    # the publisher's check: Mixwell + three of a kind is a Mixwell in FESCA78 only
    assert expected.index("three of a kind") < expected.index("Mixwell")
    assert page.text("r-wrap").startswith("FESCA60: 8 straights")
    assert "deck=FESCA60" in page.driver.current_url
    page.screenshot("rules-fesca60")


def test_examples_are_named_cards(page: Page) -> None:
    page.open("/rules?deck=standard52", PHONE)
    names = page.js(
        "return [...document.querySelectorAll('#r-hands [role=img]')]"
        ".map(c => c.getAttribute('aria-label'))"
    )
    assert len(names) == 5 * 9  # nine hands in the standard deck, five cards each
    assert all(" of " in n for n in names)
    assert "not used with this deck" in page.text("r-suit-order")
    assert "tie and split" in page.text("r-ties")
