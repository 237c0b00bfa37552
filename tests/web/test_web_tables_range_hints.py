"""Hints against a chosen range at a web table: the hints message takes ``against`` (a
range in the deck's own notation, or "random"), read once when it comes; a bad one is
one error message to that client and changes nothing; the hint then counts against the
range (its figure checked against a brute force in tests/table/test_range_hints.py)."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from test_web_tables_venue import create, get, join

from cardlab.errors import CardlabError
from cardlab.poker.equity import exact_equity
from cardlab.poker.games import get_game
from cardlab.store import Store
from cardlab.table import HandState, TableGame
from cardlab.web import create_app
from cardlab.web.payload import RequestError
from cardlab.web.table_odds import TableOdds, hint_range, seen_by

Message = dict[str, Any]
WAIT = 180.0  # seconds: a loaded machine counts slowly


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(table_store=Store.in_memory(), limiter=None)) as c:
        yield c


def _hand(key: str = "standard52-holdem", seed: int = 4) -> HandState:
    return HandState(TableGame.create(key, blinds=(1, 2)), [100, 100], seed=seed)


@pytest.mark.parametrize(
    ("key", "text", "says"),
    [
        ("standard52-holdem", "QQ+,XYZ", "'XYZ'"),  # malformed
        ("standard52-holdem", "QQ+,,AKs", "empty item"),
        ("standard52-holdem", "Z-Z", "'Z-Z'"),  # another deck's class
        ("standard52-holdem", "Ah 1x", "'Ah 1x'"),  # a card not in the deck
        ("standard52-holdem", "AA:0.5", "without weights"),
        ("fesca42-holdem", "AKs", "'AKs'"),  # standard52's notation on FESCA
        ("fesca42-holdem", "Z-Z" + ",Z-Z" * 100, "at most 300"),
        ("standard52-omaha", "AA", "random hand"),  # ranges are two-card hands
        ("standard52-holdem", 7, "'against'"),
    ],
)
def test_a_bad_range_is_one_error_naming_it(key: str, text: object, says: str) -> None:
    with pytest.raises(RequestError) as err:
        hint_range(get_game(key), text)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_a_range_your_cards_and_the_board_leave_no_hand_of() -> None:
    hand = _hand()
    own = [c for c in hand.hole[0] if c is not None]
    text = f"{own[0].ascii}{own[1].ascii}"  # the very hand the player holds
    assert hint_range(hand.game.game, text) is not None
    with pytest.raises(RequestError, match="holds no hand"):
        hint_range(hand.game.game, text, seen_by(hand, 0))


@pytest.mark.parametrize("text", ["random", "", "  ", "??"])
def test_random_and_empty_mean_a_random_hand(text: str) -> None:
    assert hint_range(get_game("fesca42-holdem"), text) is None


def test_a_bad_range_leaves_the_hints_as_they_were() -> None:
    hand = _hand()
    game = hand.game.game
    odds = TableOdds()
    odds.set_hints(0, True, "QQ+,AKs", game=game, known=seen_by(hand, 0))
    before = odds.hint(hand, 0, 0)
    assert before is not None and before["against"] == "QQ+,AKs"
    for bad in ("QQ+,XYZ", "AA:0.5", 3):
        with pytest.raises(RequestError):
            odds.set_hints(0, False, bad, game=game, known=seen_by(hand, 0))
    assert 0 in odds.hints_on and odds.against_text(0) == "QQ+,AKs"
    assert odds.hint(hand, 0, 0) == before
    odds.set_hints(0, True, None, game=game)  # no 'against': the choice stays
    assert odds.against_text(0) == "QQ+,AKs"
    odds.set_hints(0, True, "random", game=game)
    assert odds.against_text(0) == "random" and odds.hint(hand, 0, 0)["against"] == "random"  # type: ignore[index]


RANGE_TEXT = st.text(alphabet="AKQJT98765432soZ-+,: .陰陽木火1xh?", max_size=24)
AGAINST = RANGE_TEXT | st.none() | st.booleans() | st.integers() | st.lists(st.text(max_size=3))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(["standard52-holdem", "fesca42-holdem"]), against=AGAINST)
def test_any_against_is_accepted_or_one_error(key: str, against: object) -> None:
    hand = _hand(key, seed=2)
    odds = TableOdds()
    try:
        odds.set_hints(0, True, against, game=hand.game.game, known=seen_by(hand, 0))
    except CardlabError as exc:
        assert str(exc) and "\n" not in str(exc)
        assert odds.hints_on == set() and odds.against == {}
        return
    assert 0 in odds.hints_on
    chosen = odds.against.get(0)
    assert (chosen is None) == (odds.against_text(0) == "random")
    if chosen is not None:  # every accepted range leaves a hand: the hint counts it
        assert chosen.combos
        hint = odds.hint(hand, 0, 0)
        assert hint is not None and hint["against"] == chosen.text
        assert hint["equity"] is not None and not hint["range_empty"]


def _wait(client: TestClient, tid: str, cookie: str, done: Any, what: str) -> Message:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        v = get(client, tid, cookie)
        if done(v):
            return v
        time.sleep(0.02)
    raise AssertionError(f"{what} never came")


def _reply(ws: Any) -> Message:
    for _ in range(200):
        m: Message = ws.receive_json()
        if m["type"] != "state":
            return m
    raise AssertionError("no reply came")


def test_the_hints_message_takes_a_range(client: TestClient) -> None:
    tid, host = create(client, game="standard52-holdem", seats=2, clock=30, pause=30)
    cookies = [join(client, tid, "ann", host), join(client, tid, "bob")]
    url = f"/api/tables/{tid}/ws"
    with client.websocket_connect(url, headers={"cookie": cookies[0]}) as ws:
        ws.send_json({"type": "hints", "on": True, "against": "QQ+, AKs"})
        view = _wait(
            client, tid, cookies[0], lambda v: v["hint"] and v["hint"]["against"] != "random",
            "ann's hint against the range",
        )  # fmt: skip
        assert view["hints_against"] == "QQ+, AKs" and view["hint"]["against"] == "QQ+, AKs"
        # the engine's own reading of the range's text, from the cards the page shows
        game = get_game("standard52-holdem")
        own = " ".join(next(p for p in view["seats"] if p["you"])["cards"])
        board = " ".join(view["hand"]["board"])
        want = exact_equity(game, [own, "QQ+,AKs"], board=board).players[0].equity
        assert view["hint"]["exact"] == str(want)
        ws.send_json({"type": "hints", "on": True, "against": "QQ+,AKx"})
        error = _reply(ws)
        assert error["type"] == "error" and "'AKx'" in error["message"]
        after = get(client, tid, cookies[0])
        assert after["hints_against"] == "QQ+, AKs" and after["hint"] == view["hint"]
        ws.send_json({"type": "hints", "on": True, "against": "random"})
        _wait(
            client, tid, cookies[0], lambda v: v["hint"] and v["hint"]["against"] == "random",
            "the hint against a random hand again",
        )  # fmt: skip
