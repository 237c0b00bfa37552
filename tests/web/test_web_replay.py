"""The hand replayer (cardlab.web.replay): frames of real hands agree with pokerkit's
replay step by step; a table's hand is replayed as the caller may see it, card for card
what the PHH download shows them; bad input is one clear 4xx, never a 500."""

from __future__ import annotations

import dataclasses
import json
import re
import time
import warnings
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pokerkit as pk
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from test_web_tables_venue import create, get, join

from cardlab.errors import HistoryError
from cardlab.store import Store
from cardlab.table import phh, phh_actions
from cardlab.table.history import imported, replay
from cardlab.web import create_app
from cardlab.web.replay import MAX_ACTIONS, MAX_PHH, hand_frames

DATA = Path(__file__).resolve().parents[1] / "data" / "phh"
Message = dict[str, Any]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(table_store=Store.in_memory(), limiter=None)) as c:
        yield c


def _number(value: Any) -> Decimal:
    return Decimal(str(value))


def _pokerkit_states(history: phh.HandHistory) -> list[tuple[Any, ...]]:
    """pokerkit's state before the first action and after each: stacks, bets, chips in the
    middle, board (pokerkit's own replay of the same text)."""
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for s in pk.HandHistory.loads(phh.dumps(history)):
            out.append(
                (
                    [_number(x) for x in s.stacks],
                    [_number(x) for x in s.bets],
                    _number(s.total_pot_amount),
                    [f"{c.rank}{c.suit}" for cards in s.board_cards for c in cards],
                )
            )
    return out


def _mine(frame: Message) -> tuple[Any, ...]:
    return (
        [_number(p["stack"]) for p in frame["players"]],
        [_number(p["bet"]) for p in frame["players"]],
        _number(frame["total_pot"]),
        frame["board"],
    )


REAL = [
    ("pluribus-100-0.phh", 0),
    ("dwan-ivey-2009.phh", 0),
    ("wsop-2023-43-5-1.phh", 0),
    ("wsop-2023-43-5-10.phh", 0),
    ("wsop-2023-43-5-30.phh", 0),
    ("wsop-2023-43-5-40.phh", 0),
    ("abs-nlh-handhq-1-first10.phhs", 3),
]


def _history(name: str, k: int) -> phh.HandHistory:
    path = DATA / name
    return phh.load_all(path)[k] if path.suffix == ".phhs" else phh.load(path)


@pytest.mark.parametrize(("name", "k"), REAL)
def test_frames_agree_with_pokerkit_at_every_step(name: str, k: int) -> None:
    history = _history(name, k)
    replayed = hand_frames(history)
    frames = replayed["frames"]
    states = _pokerkit_states(history)
    # the pots before they are paid: the frame before the result, which pokerkit skips
    *steps, before, result = frames
    assert result["street"] == "result" and before["index"] == result["index"]
    for frame in steps:
        assert _mine(frame) == states[frame["index"] + 1], (frame["index"], frame["text"])
    # each street's end (the step before its next board card, or the last step) agrees
    ends = [j - 1 for j, a in enumerate(history.actions) if str(a).startswith("d db")]
    checked = {f["index"] for f in steps}
    assert {e for e in ends if e >= 0} <= checked | {before["index"]}
    # the end: pokerkit's stacks, nothing left in the middle, winnings as the file says
    assert _mine(result) == states[-1]
    paid = [a - b for a, b in zip(_mine(result)[0], _mine(before)[0], strict=True)]
    assert sum(paid) == _number(before["total_pot"]) > 0
    assert sum(_number(p["amount"]) for p in before["pots"]) == _number(before["total_pot"])
    start = [_number(s) for s in history.starting_stacks]
    assert [_number(w) for w in result["winnings"]] == [
        a - b for a, b in zip(_mine(result)[0], start, strict=True)
    ]
    if history.finishing_stacks is not None:
        assert _mine(result)[0] == [_number(s) for s in history.finishing_stacks]
    # streets: in order, each starting where its frames begin, the result last
    names = [s["name"] for s in replayed["streets"]]
    assert names[-1] == "result" and len(names) == len(set(names))
    for s in replayed["streets"]:
        assert frames[s["frame"]]["street"] == s["name"]
        assert s["frame"] == 0 or frames[s["frame"] - 1]["street"] != s["name"]


def test_every_card_of_the_file_is_shown_as_written() -> None:
    history = _history("pluribus-100-0.phh", 0)
    frames = hand_frames(history)["frames"]
    holes = [str(a).split()[-1] for a in history.actions if str(a).startswith("d dh")]
    dealt = frames[1]["players"]
    assert ["".join(p["cards"]) for p in dealt] == holes
    assert frames[-1]["board"] == ["7d", "5h", "9d", "7c", "Qh"]
    # a folded player keeps their cards face up in a file that has them, marked folded
    assert frames[-1]["players"][2]["folded"] and frames[-1]["players"][2]["cards"] == ["9c", "3d"]
    # the words: the names of the file, amounts as played
    texts = [f["text"] for f in frames]
    assert "MrPink bets/raises to 210" in texts
    assert texts[-1] == "MrBlue wins 520 (uncontested)"


def test_a_fesca_hand_shows_its_cards_as_the_deck_writes_them() -> None:
    from cardlab.table import HandState, TableGame, apply, legal_actions
    from cardlab.table.history import to_history

    hand = HandState(TableGame.create("fesca78-holdem"), [100, 100, 100], seed=11)
    while not hand.is_over:
        apply(hand, legal_actions(hand)[-1 if hand.legal().call == 0 else 1])
    history = to_history(hand, players=["ann", "bob", "cy"])
    replayed = hand_frames(phh.loads(phh.dumps(history)))
    shown = {c for f in replayed["frames"] for p in f["players"] for c in p["cards"]}
    assert shown == {str(c) for h in hand.hole for c in h if c is not None}
    assert any(not c.isascii() for c in shown)  # 木7, not an ASCII code
    assert replayed["frames"][-1]["board"] == [str(c) for c in hand.board]
    assert replayed["finishing_stacks"] == list(hand.stacks)


def test_the_upload_api_replays_the_hand_asked_for(client: TestClient) -> None:
    text = (DATA / "abs-nlh-handhq-1-first10.phhs").read_text(encoding="utf-8")
    r = client.post("/api/replay", json={"phh": text, "hand": 4})
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["hands"] == 10 and got["hand"] == 4
    expected = json.loads(json.dumps(hand_frames(phh.loads_all(text)[3], label="hand 4")))
    assert got["frames"] == expected["frames"]
    assert got["finishing_stacks"] == [
        float(s) if s % 1 else int(s) for s in replay(phh.loads_all(text)[3]).finishing_stacks
    ]
    single = client.post("/api/replay", json={"phh": (DATA / "pluribus-100-0.phh").read_text()})
    assert single.status_code == 200 and single.json()["hands"] == 1
    assert single.json()["players"][-1] == "Pluribus"


# --- a table's hands, as each viewer may see them ------------------------------------------


def _play_hands(client: TestClient, tid: str, cookies: list[str], hands: int) -> None:
    """ann folds whenever she may (so some of her hands stay hidden), bob calls."""
    url = f"/api/tables/{tid}/ws"
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
    ):
        for _ in range(3000):
            views = [get(client, tid, c) for c in cookies]
            if views[0]["last"] is not None and views[0]["last"]["hand"] >= hands:
                return
            for who, ws, v in zip((0, 1), (w0, w1), views, strict=True):
                legal = v["legal"]
                if legal is None:
                    continue
                action = "f" if who == 0 and legal["fold"] else legal["default"]
                if legal["phase"] == "bet" and not (who == 0 and legal["fold"]):
                    action = "c"
                ws.send_json({"type": "action", "action": action, "turn": v["turn"]})
            time.sleep(0.01)
    raise AssertionError("the hands were never played")


CARD_LINE = re.compile(r"^(?:d dh p\d+|d db|p\d+ sm) (\S+)$")


def _visible_cards(history: phh.HandHistory) -> set[str]:
    """Every card a history names (hole cards, board, shown hands), as text."""
    deck = history.deck
    out: set[str] = set()
    for action in history.actions:
        m = CARD_LINE.match(str(action))
        if m:
            out |= {str(c) for c in phh_actions.split_cards(m.group(1), deck) if c is not None}
    return out


def _hand_cards(replayed: Message) -> set[str]:
    frames = replayed["frames"]
    cards = {c for f in frames for p in f["players"] for c in p["cards"] if c != "??"}
    return cards | {c for f in frames for c in f["board"]}


@pytest.fixture(scope="module")
def table(client: TestClient) -> dict[str, Any]:
    tid, host = create(client, bots={"3": "station"}, pause=0.05)
    ann = join(client, tid, "ann", host)
    bob = join(client, tid, "bob")
    _play_hands(client, tid, [ann, bob], 4)
    return {"id": tid, "ann": ann, "bob": bob}


def _download(client: TestClient, tid: str, cookie: str | None) -> dict[int, phh.HandHistory]:
    headers = {"cookie": cookie} if cookie else {}
    text = client.get(f"/api/tables/{tid}/hands.phhs", headers=headers).text
    return {int(h.hand): h for h in phh.loads_all(text) if isinstance(h.hand, int)}


def test_a_table_hand_is_replayed_as_each_viewer_may_see_it(
    client: TestClient, table: dict[str, Any]
) -> None:
    tid = table["id"]
    viewers = {"ann": table["ann"], "bob": table["bob"], "spectator": None}
    downloads = {name: _download(client, tid, cookie) for name, cookie in viewers.items()}
    numbers = sorted(downloads["spectator"])
    assert len(numbers) >= 4
    hidden_somewhere = False
    for n in numbers:
        replays = {}
        for name, cookie in viewers.items():
            headers = {"cookie": cookie} if cookie else {}
            r = client.get(f"/api/tables/{tid}/hands/{n}/replay", headers=headers)
            assert r.status_code == 200, r.text
            replays[name] = r.json()
            masked = downloads[name][n]
            # exactly the cards the viewer's own download shows, no more, no fewer
            assert _hand_cards(replays[name]) == _visible_cards(masked), (name, n)
            final = replays[name]["frames"][-1]
            assert [_number(p["stack"]) for p in final["players"]] == [
                _number(s) for s in replay(masked).finishing_stacks
            ]
        players = replays["spectator"]["players"]
        ann, bob = players.index("ann"), players.index("bob")
        first = {k: v["frames"][1]["players"] for k, v in replays.items()}  # hole cards dealt
        # each player sees their own hole cards; the spectator only those shown at the
        # showdown (known from the deal on, as in the download)
        assert "??" not in first["ann"][ann]["cards"] and "??" not in first["bob"][bob]["cards"]
        shown = {x["name"]: x["cards"].split() for x in replays["spectator"]["result"]["hands"]}
        for p in first["spectator"]:
            assert p["cards"] == shown.get(p["name"], ["??", "??"]), n
        assert replays["ann"]["you"] == "ann" and replays["spectator"]["you"] is None
        # ann's folded cards stay hidden from the others at the end of the hand
        end = {k: v["frames"][-1]["players"][ann] for k, v in replays.items()}
        if end["ann"]["folded"]:
            hidden_somewhere = True
            assert end["spectator"]["cards"] == ["??", "??"] == end["bob"]["cards"]
            assert end["ann"]["cards"] != ["??", "??"]
            assert not set(end["ann"]["cards"]) & _hand_cards(replays["spectator"])
    assert hidden_somewhere  # ann folded at least once in four hands


def test_the_tables_last_hand_links_to_its_replay(
    client: TestClient, table: dict[str, Any]
) -> None:
    last = get(client, table["id"], table["ann"])["last"]
    assert last["replay"] == f"/tables/{table['id']}/hands/{last['hand']}/replay"
    page = client.get(last["replay"])
    assert page.status_code == 200
    assert f'data-api="/api{last["replay"]}"' in page.text
    assert client.get("/api" + last["replay"]).status_code == 200


def test_a_stored_hand_is_replayed_only_with_its_table_and_masked(
    client: TestClient, table: dict[str, Any]
) -> None:
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    record = store.hands(table_id=table["id"], limit=1)[0]
    # a table's stored hand needs the table's id: store ids count up, table ids are secret
    r = client.get(f"/api/hands/{record.id}/replay")
    assert r.status_code == 404 and "no hand" in r.json()["error"]
    r = client.get(f"/api/hands/{record.id}/replay?table=nope")
    assert r.status_code == 404
    r = client.get(f"/api/hands/{record.id}/replay?table={table['id']}")
    assert r.status_code == 200, r.text
    stored = r.json()
    number = phh.loads(record.phh).hand
    live = client.get(f"/api/tables/{table['id']}/hands/{number}/replay").json()
    assert stored["frames"] == live["frames"]  # a spectator's view, the same as the table's
    assert _hand_cards(stored) == _visible_cards(_download(client, table["id"], None)[number])
    # a hand not played at a web table (here an import) is the store owner's: shown with
    # every card to a browser on this machine, to nobody else (ids count up)
    history = _history("pluribus-100-0.phh", 0)
    hand_id = store.add_hand(imported(replay(history)))
    assert client.get(f"/api/hands/{hand_id}/replay").status_code == 404  # a stranger
    app = client.app
    with TestClient(app, client=("127.0.0.1", 40000)) as local:
        r = local.get(f"/api/hands/{hand_id}/replay")
        assert r.status_code == 200
        assert r.json()["frames"] == json.loads(json.dumps(hand_frames(history)["frames"]))
        page = local.get(f"/hands/{hand_id}/replay")
        assert page.status_code == 200 and f'data-api="/api/hands/{hand_id}/replay"' in page.text
        relayed = local.get(
            f"/api/hands/{hand_id}/replay", headers={"x-forwarded-for": "203.0.113.9"}
        )
        assert relayed.status_code == 404  # through a proxy: from anywhere


# --- bad input -----------------------------------------------------------------------------


PLURIBUS = (DATA / "pluribus-100-0.phh").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"phh": "variant = 'NT"}, "not valid TOML"),
        ({"phh": "variant = 'NT'\n"}, "required field"),
        ({"phh": PLURIBUS.replace("'p3 f'", "'p5 f'")}, "out of turn"),
        ({"phh": PLURIBUS.replace("variant = 'NT'", "variant = 'XX'")}, "not played by cardlab"),
        ({"phh": PLURIBUS.replace("'p4 f']", "]")}, "ends before the hand does"),
        ({"phh": PLURIBUS.replace("min_bet = 100", "min_bet = 1e-9")}, "decimal places"),
        ({"phh": PLURIBUS.replace("min_bet = 100", "min_bet = 1e30")}, "over the limit"),
        ({"phh": PLURIBUS.replace("min_bet = 100", "min_bet = inf")}, "not a number"),
        ({"phh": PLURIBUS, "hand": 2}, "has 1 hand"),
        ({"phh": PLURIBUS, "hand": "1"}, "field 'hand'"),
        ({"phh": PLURIBUS, "hand": True}, "field 'hand'"),
        ({"phh": 42}, "field 'phh'"),
        ({}, "field 'phh'"),
        ({"phh": "[1]\nx = 1\n"}, "required field"),
    ],
)
def test_bad_phh_is_a_400_with_the_reason(client: TestClient, body: Message, message: str) -> None:
    r = client.post("/api/replay", json=body)
    assert r.status_code == 400, r.text
    assert message in r.json()["error"]


def test_text_that_is_not_unicode_is_a_400(client: TestClient) -> None:
    body = b'{"phh": "variant = \'NT\' \\ud800"}'  # a lone surrogate, escaped in JSON
    r = client.post("/api/replay", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not valid Unicode" in r.json()["error"]


def test_too_many_actions_are_refused() -> None:
    history = _history("pluribus-100-0.phh", 0)
    more = history.actions + (phh_actions.CheckCall(1),) * MAX_ACTIONS
    with pytest.raises(HistoryError, match=f"at most {MAX_ACTIONS}"):
        hand_frames(dataclasses.replace(history, actions=more))


def test_oversized_and_non_json_bodies_are_refused(client: TestClient) -> None:
    big = client.post("/api/replay", json={"phh": "#" * (MAX_PHH + 1)})
    assert big.status_code == 413 and "at most" in big.json()["error"]
    huge = client.post(
        "/api/replay",
        content=b'{"phh": "' + b"#" * (3 * MAX_PHH) + b'"}',
        headers={"content-type": "application/json"},
    )
    assert huge.status_code == 413 and "bytes" in huge.json()["error"]
    form = client.post("/api/replay", content=b"phh=x", headers={"content-type": "text/plain"})
    assert form.status_code == 415
    bad = client.post("/api/replay", content=b"{nope", headers={"content-type": "application/json"})
    assert bad.status_code == 400 and "JSON object" in bad.json()["error"]
    listed = client.post("/api/replay", json=[1, 2])
    assert listed.status_code == 400 and "JSON object" in listed.json()["error"]


def test_unknown_tables_and_hands_are_404(client: TestClient, table: dict[str, Any]) -> None:
    tid = table["id"]
    for url in (
        "/api/tables/nope/hands/1/replay",
        f"/api/tables/{tid}/hands/999/replay",
        f"/api/tables/{tid}/hands/-1/replay",
        f"/api/tables/{tid}/hands/1e3/replay",
        f"/api/tables/{tid}/hands/{'9' * 40}/replay",
        "/api/hands/999999/replay",
        "/api/hands/abc/replay",
        f"/api/hands/{'9' * 30}/replay",
    ):
        r = client.get(url)
        assert r.status_code == 404, url
        assert r.json()["error"].startswith("no "), url
    r = client.get(f"/api/tables/{tid}/hands/999/replay")
    assert "it keeps hands" in r.json()["error"]
    assert client.get("/replay").status_code == 200
    assert 'id="rp-drop"' in client.get("/replay").text


def _mutated(text: str, cuts: list[tuple[int, int, str]]) -> str:
    for at, length, insert in cuts:
        at %= max(1, len(text))
        text = text[:at] + insert + text[at + length :]
    return text


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    body=st.one_of(
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=30),
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(st.text(max_size=8), inner, max_size=4)
            ),
            max_leaves=12,
        ),
        st.fixed_dictionaries(
            {
                "phh": st.lists(
                    st.tuples(
                        st.integers(0, 2000),
                        st.integers(0, 12),
                        st.sampled_from(
                            [
                                "",
                                "'",
                                "]",
                                "[",
                                "p2 cbr 9e99",
                                "d db",
                                "??",
                                "\n",
                                "=",
                                "0",
                                "-1",
                                "1.5",
                                "木7",
                            ]
                        ),
                    ),
                    max_size=4,
                ).map(lambda cuts: _mutated(PLURIBUS, cuts)),
                "hand": st.one_of(st.integers(-2, 3), st.text(max_size=3), st.none()),
            }
        ),
    )
)
def test_fuzzed_bodies_never_make_a_500(client: TestClient, body: Any) -> None:
    r = client.post("/api/replay", json=body)
    assert r.status_code in (200, 400, 413), (r.status_code, r.text[:300])
    if r.status_code != 200:
        error = r.json()["error"]
        assert isinstance(error, str) and 0 < len(error) <= 300
    else:
        assert r.json()["frames"][-1]["street"] == "result"


def test_an_endless_stack_is_shown_as_infinite(client: TestClient) -> None:
    """HandHQ's iPoker hands start every stack at ``inf``: the replayer shows ∞, never
    the stand-in stack the engine plays it with; the net results stay exact."""
    text = (DATA / "ipn-nlh-handhq-1-sample.phhs").read_text(encoding="utf-8")
    first = phh.loads_all(text)[0]
    assert all(s.is_infinite() for s in first.starting_stacks)
    r = client.post("/api/replay", json={"phh": text, "hand": 1})
    assert r.status_code == 200, r.text
    got = r.json()
    n = len(first.starting_stacks)
    assert got["starting_stacks"] == ["∞"] * n and got["finishing_stacks"] == ["∞"] * n
    assert {p["stack"] for frame in got["frames"] for p in frame["players"]} == {"∞"}
    net = replay(first).net
    assert sum(net) == 0 and any(net)  # somebody won what somebody lost
