"""The page /verify: it renders, and hands the browser every deck's listed order as
JSON that cannot end its <script> element."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from cardlab.decks import BUILTIN_DECKS, get_deck
from cardlab.web import create_app, verify_page
from cardlab.web.verify_page import deck_orders, script_json

DECK_ORDERS = re.compile(
    r'<script type="application/json" id="deck-orders">(.*?)</script>', re.DOTALL
)


def _orders(html: str) -> object:
    found = DECK_ORDERS.findall(html)
    assert len(found) == 1
    return json.loads(found[0])


def test_the_page_renders(client: TestClient) -> None:
    answer = client.get("/verify")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    html = answer.text
    for element in ('id="fv-text"', 'id="fv-file"', 'id="fv-run"', 'id="fv-results"'):
        assert element in html
    assert 'type="file"' in html and "<textarea" in html
    assert "/static/verify.js" in html
    assert "<title>Check the deal · cardlab</title>" in html
    assert 'name="viewport"' in html  # from base.html: the page works at phone width


def test_the_page_carries_every_deck_order(client: TestClient) -> None:
    orders = _orders(client.get("/verify").text)
    assert isinstance(orders, dict)
    assert list(orders) == list(BUILTIN_DECKS)
    for name in BUILTIN_DECKS:
        assert orders[name] == [card.ascii for card in get_deck(name).cards]
    assert orders["standard52"][:3] == ["2c", "3c", "4c"]
    assert orders["standard52"][-1] == "As"
    assert orders["FESCA78"][:13] == [f"M{r}" for r in range(1, 13)] + ["MZ"]
    assert orders["FESCA78"][-1] == "YZ"
    assert orders == deck_orders()


def test_the_script_is_served(client: TestClient) -> None:
    answer = client.get("/static/fair.js")  # the check itself; verify.js draws the page
    assert answer.status_code == 200
    for name in ("window.cardlabFair", "verifyText", "parsePhhs", "useFallback", "crypto.subtle"):
        assert name in answer.text


@pytest.mark.parametrize(
    "value",
    [
        {"</script><script>alert(1)</script>": ["<!--", "-->", "]]>"]},
        ["</SCRIPT >", "a&b", "\u2028\u2029", "<\\/script>", "木7"],
        "</script",
    ],
)
def test_script_json_cannot_end_the_script(value: object) -> None:
    text = script_json(value)
    assert json.loads(text) == value
    for bad in ("<", ">", "&", "\u2028", "\u2029"):
        assert bad not in text


@pytest.fixture
def hostile_decks(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[str]]]:
    orders = {"</script><script>alert('x')</script>": ["<!--", "a&b"], "standard52": ["As"]}
    monkeypatch.setattr(verify_page, "deck_orders", lambda: orders)
    verify_page.deck_orders_json.cache_clear()
    yield orders
    verify_page.deck_orders_json.cache_clear()


def test_the_page_escapes_the_orders(hostile_decks: dict[str, list[str]]) -> None:
    with TestClient(create_app(max_games=5, equity_samples=40)) as client:
        html = client.get("/verify").text
    assert "alert('x')</script>" not in html
    assert "<!--" not in html
    assert _orders(html) == hostile_decks
