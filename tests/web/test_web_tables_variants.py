"""The low and split games at the web table: offered in the lobby, played by bots, stored
as their own PHH variants and replayed by pokerkit's rules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from test_web_tables import new_table, until

from cardlab.store import Store
from cardlab.table import HandState, Phase, TableGame, phh
from cardlab.table.history import replay
from cardlab.web import create_app
from cardlab.web.table_payload import shows_by_default


@pytest.fixture
def store() -> Store:
    return Store.in_memory()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(table_store=store)) as c:
        yield c


def test_the_lobby_offers_every_variant_grouped_by_deck(client: TestClient) -> None:
    games = client.get("/api/tables/options").json()["games"]
    keys = {g["key"] for g in games}
    for key in ("standard52-razz", "standard52-omaha8", "standard52-badugi", "short36-holdem"):
        assert key in keys
    razz = next(g for g in games if g["key"] == "standard52-razz")
    assert razz["deck"] == "standard52" and razz["base"] == "stud"
    assert "Razz" in razz["name"] or "razz" in razz["name"].lower()


@pytest.mark.parametrize(
    ("game", "code"),
    [("standard52-razz", "FR"), ("standard52-omaha8", "FO/8"), ("fesca78-27-triple-draw", None)],
)
def test_bots_play_a_variant_and_its_hands_replay(
    client: TestClient, store: Store, game: str, code: str | None
) -> None:
    tid = new_table(
        client, game=game, seats=3, stack=1000, bots={"1": "station", "2": "station", "3": "random"}
    )
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        m = until(ws, lambda m: m["table"]["hand_number"] >= 3 and m["last"] is not None)
    assert m["table"]["game"] == game
    records = store.hands(table_id=tid)
    assert len(records) >= 2
    for r in records:
        history = phh.loads(r.phh)
        if code is not None:
            assert history.variant == code
        hand = replay(history).hand
        assert list(hand.stacks) == list(r.finishing_stacks)
        assert sum(r.starting_stacks) == sum(r.finishing_stacks)


def test_a_hand_that_wins_only_the_low_shows_by_default() -> None:
    """Omaha hi-lo: a player who loses the high but holds the only low shows when the
    clock decides (it must not muck half a pot away); a hand that wins neither mucks."""
    game = TableGame.create("standard52-omaha8", blinds=(1, 2))
    hand = HandState(game, [100, 100, 100], deal="manual", showdown="manual")
    deck = game.game.deck
    # p1 a set of kings (high), p2 A-2 (the only low, no high), p3 nothing
    for p, text in enumerate(["Kc Kd Qh Qs", "Ah 2h 9c 9d", "Jc Jd Tc Td"]):
        hand.deal_hole(p, deck.parse_cards(text))
    cards = deck.parse_cards("3s 4d 7c Ks 8h")
    for count in (3, 1, 1):
        while hand.actor is not None:
            hand.check_or_call()
        hand.deal_board(cards[:count])
        cards = cards[count:]
    while hand.legal().phase is Phase.BET:
        hand.check_or_call()
    decided = {}
    while not hand.is_over:
        player = hand.legal().player
        decided[player] = shows_by_default(hand, player)
        hand.show_or_muck(decided[player])
    # p1 and p2 each win a half and show; p3 wins neither and mucks
    assert decided == {0: True, 1: True, 2: False}
    assert hand.result is not None
    assert sorted(a.players for a in hand.result.awards) == [(0,), (1,)]
