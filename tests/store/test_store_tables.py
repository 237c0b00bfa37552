"""The store's web-table side: the hand in play written ahead, seeds per table, the
ledger, closing and pruning, on SQLite and on PostgreSQL (tests/store/conftest.py)."""

from __future__ import annotations

import datetime
import json

import pytest
from store_records import make_record

from cardlab.cli import main
from cardlab.errors import StoreError
from cardlab.store import Store

DAY = datetime.timedelta(days=1)
NOW = datetime.datetime.now(datetime.UTC)


def test_the_hand_in_play_is_written_ahead_and_cleared(store: Store) -> None:
    store.save_table("t", {"game": "x"}, {"stacks": [1, 2]})
    assert store.live_hand("t") is None
    store.begin_hand("t", 4, {"order": [0, 1]}, {"stacks": [1, 2], "deals": 5})
    store.add_action("t", 0, "c")
    store.add_action("t", 1, "r 20")
    with pytest.raises(StoreError, match="already stored"):
        store.add_action("t", 1, "f")
    live = store.live_hand("t")
    assert live is not None
    assert (live.deal_number, live.start, live.actions) == (4, {"order": [0, 1]}, ("c", "r 20"))
    # a clock saved for the decision after action 2 holds until the next action
    assert live.clock_remaining is None
    store.save_clock("t", 2, 12.5)
    assert store.live_hand("t").clock_remaining == 12.5  # type: ignore[union-attr]
    store.add_action("t", 2, "c")
    assert store.live_hand("t").clock_remaining is None  # type: ignore[union-attr]
    hand_id = store.end_hand("t", make_record(1, table_id="t"), {"stacks": [3, 0]})
    assert store.live_hand("t") is None
    assert store.hand(hand_id).table_id == "t"
    assert store.table("t").state == {"stacks": [3, 0]}
    store.begin_hand("t", 5, {}, {"stacks": [3, 0]})
    store.cancel_hand("t", {"stacks": [3, 0], "cancelled": 1})
    assert store.live_hand("t") is None and store.table("t").state["cancelled"] == 1


def test_seeds_are_per_table_and_revealed_with_their_hands(store: Store) -> None:
    c, seed = "a" * 64, "b" * 64
    store.add_seed("t1", c, seed)
    store.add_seed("t2", c, seed)  # two practice tables with one seed
    with pytest.raises(StoreError, match="already used"):
        store.add_seed("t1", c, seed)
    record = make_record(2, table_id="t1")
    hand_id = store.add_hands([record.__class__(**{**_fields(record), "commitment": c})])[0]
    assert store.hand_ids_dealt_under("t1", c) == [hand_id]
    assert store.hand_ids_dealt_under("t2", c) == []
    assert store.seed("t1", c).revealed_at is None
    store.reveal_seed("t1", c, {hand_id: "revealed = true"})
    assert store.seed("t1", c).revealed_at is not None
    assert store.seed("t2", c).revealed_at is None
    assert store.hand(hand_id).phh == "revealed = true"


def _fields(record: object) -> dict[str, object]:
    return {k: getattr(record, k) for k in record.__dataclass_fields__}  # type: ignore[attr-defined]


def test_the_ledger_keeps_buy_ins_and_cash_outs(store: Store) -> None:
    store.add_ledger("t", 0, "ann", "buy-in", 100)
    store.add_ledger("t", 0, "ann", "cash-out", 140)
    assert [(e.kind, e.amount) for e in store.ledger("t")] == [("buy-in", 100), ("cash-out", 140)]
    for bad in (
        ("t", 0, "ann", "gift", 5),
        ("t", -1, "ann", "buy-in", 5),
        ("t", 0, "a", "buy-in", -5),
    ):
        with pytest.raises(StoreError):
            store.add_ledger(*bad)  # type: ignore[arg-type]


def test_prune_takes_old_hands_and_closed_tables_only(location: str) -> None:
    path = location
    with Store.open(path) as store:
        store.add_hand(make_record(1, played_at=NOW - 40 * DAY))
        store.add_hand(make_record(2, played_at=NOW - 1 * DAY))
        for table in ("open", "closed"):
            store.save_table(table, {}, {})
            store.add_ledger(table, 0, "ann", "buy-in", 5)
        store.close_table("closed", {})
        assert [t.table_id for t in store.tables()] == ["open"]
        assert len(store.tables(closed=True)) == 2
        assert store.prune(NOW - 30 * DAY) == (1, 0)  # the table closed just now stays
        assert store.prune(NOW + DAY) == (1, 1)
        assert [t.table_id for t in store.tables(closed=True)] == ["open"]
        assert store.ledger("closed") == [] and len(store.ledger("open")) == 1


def test_history_prune_command(location: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = location
    with Store.open(path) as store:
        store.add_hand(make_record(1, played_at=NOW - 40 * DAY))
        store.add_hand(make_record(2, played_at=NOW - 1 * DAY))
    main(["history", "--db", str(path), "prune", "--older-than", "30", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert (out["hands_deleted"], out["tables_deleted"]) == (1, 0)
    with Store.open(path) as store:
        assert store.count_hands() == 1
    with pytest.raises(SystemExit) as ended:
        main(["history", "--db", str(path), "prune", "--older-than", "-3"])
    assert ended.value.code == 2


def test_a_duplicate_action_inside_a_transaction_leaves_it_usable(store: Store) -> None:
    """A refused action (already stored) inside a caller's transaction: the rest of the
    transaction is kept (PostgreSQL needs a savepoint for that, SQLite does not)."""
    store.save_table("t", {}, {})
    store.begin_hand("t", 1, {}, {})
    store.add_action("t", 0, "c")
    with store.transaction():
        with pytest.raises(StoreError, match="already stored"):
            store.add_action("t", 0, "f")
        with pytest.raises(StoreError, match="already used"):
            store.add_seed("t", "a" * 64, "b" * 64)
            store.add_seed("t", "a" * 64, "b" * 64)
        store.add_action("t", 1, "r 5")
    live = store.live_hand("t")
    assert live is not None and live.actions == ("c", "r 5")
    assert store.seed("t", "a" * 64).server_seed == "b" * 64


def test_a_hand_is_stored_before_the_call_returns(location: str) -> None:
    """What a call wrote is committed when it returns: another connection sees it at once
    (the web table announces a hand or an action only after that)."""
    with Store.open(location) as writer, Store.open(location) as reader:
        writer.save_table("t", {}, {})
        writer.begin_hand("t", 1, {"deal": 1}, {})
        writer.add_action("t", 0, "c")
        live = reader.live_hand("t")
        assert live is not None and live.actions == ("c",)
        hand_id = writer.end_hand("t", make_record(7, table_id="t"), {"after": 1})
        assert reader.hand(hand_id).table_id == "t"
        assert reader.live_hand("t") is None
        assert reader.table("t").state == {"after": 1}


def test_tournament_results_are_checked_and_kept(store: Store) -> None:
    standings = [
        {"seat": 2, "place": 1, "name": "bea", "prize": 65, "out_hand": None},
        {"seat": 1, "place": 2, "name": "ann", "prize": 35, "out_hand": 9},
    ]
    store.save_results("t", standings)
    assert [(r.place, r.player, r.seat, r.out_hand) for r in store.results("t")] == [
        (1, "bea", 1, None),
        (2, "ann", 0, 9),
    ]
    with pytest.raises(StoreError, match="went out"):
        store.save_results("t", [{**standings[1], "out_hand": "nine"}])
    with pytest.raises(StoreError, match="place"):
        store.save_results("t", [{**standings[1], "place": 2**70}])
    assert len(store.results("t")) == 2  # the refused ones changed nothing


def test_an_action_of_a_hand_no_longer_in_play_adds_nothing(store: Store) -> None:
    """``add_action(..., deal_number=n)`` stores only while deal n is the hand in play: a
    write that reaches the store after its hand was cancelled or a new one began (the web
    table writes off its event loop) leaves the store as it was."""
    store.save_table("t", {}, {})
    store.begin_hand("t", 7, {"deal": 7}, {})
    store.add_action("t", 0, "c", deal_number=7)
    with pytest.raises(StoreError, match="deal 6 is not in play at table 't'"):
        store.add_action("t", 1, "f", deal_number=6)
    store.cancel_hand("t", {})
    with pytest.raises(StoreError, match="deal 7 is not in play"):
        store.add_action("t", 1, "f", deal_number=7)
    store.begin_hand("t", 8, {"deal": 8}, {})
    with pytest.raises(StoreError, match="deal 7 is not in play"):
        store.add_action("t", 0, "f", deal_number=7)
    store.add_action("t", 0, "r 5", deal_number=8)
    live = store.live_hand("t")
    assert live is not None and (live.deal_number, live.actions) == (8, ("r 5",))
    with pytest.raises(StoreError, match="already stored"):
        store.add_action("t", 0, "c", deal_number=8)


def test_a_deal_of_a_missing_table_stores_nothing(store: Store) -> None:
    with pytest.raises(StoreError, match="no table 'nope'"):
        store.begin_hand("nope", 1, {}, {})
    assert store.live_hand("nope") is None
