"""Records in and out of the store: round-trips, filters, order, statistics, tables, arena.

Each test that takes ``store``, ``location`` or ``fresh_store`` runs on SQLite and on
PostgreSQL (tests/store/conftest.py)."""

import contextlib
import dataclasses
import datetime
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_records import check_whole, make_record

from cardlab.errors import CardlabError, StoreError
from cardlab.store import HandRecord, Store

UTC = datetime.UTC
INT64_MAX = 2**63 - 1


Fresh = Callable[[], Store]


def test_round_trip_through_a_store(location: str) -> None:
    records = [make_record(n, table_id="t1" if n % 2 else None) for n in range(20)]
    with Store.open(location) as store:
        ids = store.add_hands(records)
    with Store.open(location) as store:  # read back by a new connection
        for hand_id, record in zip(ids, records, strict=True):
            stored = store.hand(hand_id)
            assert stored == dataclasses.replace(record, id=hand_id)
            check_whole(stored)
    assert len(set(ids)) == 20


def test_winnings_are_finishing_minus_starting() -> None:
    record = make_record(0)
    assert record.winnings == (
        record.finishing_stacks[0] - record.starting_stacks[0],
        record.finishing_stacks[1] - record.starting_stacks[1],
        record.finishing_stacks[2] - record.starting_stacks[2],
    )
    assert sum(record.winnings) == 0  # make_record moves chips between seats


def test_repr_round_trips() -> None:
    record = make_record(3)
    assert eval(repr(record), {"HandRecord": HandRecord, "datetime": datetime}) == record


def test_lists_become_tuples_and_times_utc() -> None:
    when = datetime.datetime(
        2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=9))
    )
    record = dataclasses.replace(make_record(1), played_at=when)
    built = HandRecord(**{**_fields(record), "players": list(record.players)})
    assert built.players == record.players
    assert record.played_at.tzinfo is UTC
    assert record.played_at == when
    assert record.played_at.hour == 18  # 03:04 at +09:00 is 18:04 the day before in UTC


def _fields(record: HandRecord) -> dict[str, Any]:
    return {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"players": ()}, "at least one player"),
        ({"players": "ab"}, "sequence of names"),
        ({"starting_stacks": (1, 2)}, "one stack per player"),
        ({"finishing_stacks": (1, -2, 3)}, "between 0 and 2**63 - 1"),
        ({"finishing_stacks": (1, 2**63, 3)}, "between 0 and 2**63 - 1"),
        ({"starting_stacks": (1, True, 3)}, "must be an integer"),
        ({"starting_stacks": (1, 2.0, 3)}, "must be an integer"),
        ({"actions": -1}, "actions"),
        ({"showdown": 1}, "True or False"),
        ({"game": ""}, "game must not be empty"),
        ({"source": None}, "source must be a string"),
        ({"players": ("a", "b\udc80", "c")}, "not valid Unicode"),
        ({"played_at": datetime.datetime(2026, 1, 1)}, "aware datetime"),
        ({"table_id": ""}, "table_id must not be empty"),
        ({"phh": "a\x00b"}, "phh holds a NUL character"),
        ({"players": ("a", "\x00", "c")}, "NUL character"),
    ],
)
def test_bad_records_are_refused(change: dict[str, Any], words: str) -> None:
    with pytest.raises(StoreError, match=words.replace("*", r"\*")) as caught:
        HandRecord(**{**_fields(make_record(0)), **change})
    assert isinstance(caught.value, CardlabError)


def test_missing_hand(store: Store) -> None:
    store.add_hand(make_record(0))
    with pytest.raises(StoreError, match="no hand 2 in the hand store"):
        store.hand(2)
    with pytest.raises(StoreError, match="integer from 0 to"):
        store.hand(-1)


def test_add_hands_is_one_transaction(store: Store) -> None:
    good = make_record(0)
    with pytest.raises(StoreError):
        store.add_hands([good, good, "not a record"])  # type: ignore[list-item]
    with pytest.raises(RuntimeError), store.transaction():
        store.add_hand(good)
        store.save_table("t", {"seats": 3}, {"stacks": [1, 2, 3]})
        raise RuntimeError("the hand is abandoned")
    assert store.count_hands() == 0
    assert store.tables() == []


def test_nested_transactions_commit_once(store: Store) -> None:
    with store.transaction():
        store.add_hand(make_record(0))
        with store.transaction():
            store.add_hand(make_record(1))
        store.save_table("t", {}, {"hand": 2})
    assert store.count_hands() == 2
    assert store.load_table("t") == ({}, {"hand": 2})


def test_newest_first_and_filters(store: Store) -> None:
    start = datetime.datetime(2026, 5, 1, tzinfo=UTC)
    records = []
    for n in range(30):
        # times out of insertion order, with ties, so order is by time then id
        when = start + datetime.timedelta(minutes=(n * 7) % 11)
        records.append(
            make_record(
                n,
                game=["standard52-holdem", "fesca78-holdem"][n % 2],
                source=["play", "arena", "web"][n % 3],
                table_id="t1" if n % 5 == 0 else None,
                played_at=when,
            )
        )
    ids = store.add_hands(records)
    stored = dict(zip(ids, records, strict=True))
    expected = sorted(ids, key=lambda i: (stored[i].played_at, i), reverse=True)
    assert [r.id for r in store.hands()] == expected
    assert [r.id for r in store.hands(limit=7, offset=5)] == expected[5:12]
    assert store.hands(limit=0) == []
    for game in ("standard52-holdem", "fesca78-holdem", "nothing"):
        want = [i for i in expected if stored[i].game == game]
        assert [r.id for r in store.hands(game=game)] == want
        assert store.count_hands(game=game) == len(want)
    want = [i for i in expected if stored[i].source == "arena" and stored[i].table_id == "t1"]
    assert [r.id for r in store.hands(source="arena", table_id="t1")] == want
    assert want  # n = 10 and 25... one of them at least
    assert store.count_hands(player="play-p1") == sum(1 for r in records if r.source == "play")


def test_iter_hands_pages_through_everything(store: Store) -> None:
    start = datetime.datetime(2026, 5, 1, tzinfo=UTC)
    records = [
        make_record(
            n, source=["a", "b"][n % 2], played_at=start + datetime.timedelta(seconds=n % 4)
        )
        for n in range(23)
    ]
    store.add_hands(records)
    for chunk in (1, 4, 23, 100):
        assert list(store.iter_hands(chunk=chunk)) == store.hands()
        assert list(store.iter_hands(source="b", chunk=chunk)) == store.hands(source="b")
    with pytest.raises(StoreError, match="chunk"):
        next(store.iter_hands(chunk=0))


def test_bad_filters_are_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="limit"):
        store.hands(limit=-1)
    with pytest.raises(StoreError, match="game must be a string"):
        store.hands(game=3)  # type: ignore[arg-type]


def test_stats_against_a_recount(store: Store) -> None:
    records = [make_record(n, game=["g1", "g2"][n % 2], seats=2 + n % 4) for n in range(40)]
    store.add_hands(records)
    stats = store.stats()
    assert sorted(stats) == ["g1", "g2"]
    for game, totals in stats.items():
        mine = [r for r in records if r.game == game]
        assert totals.hands == len(mine)
        assert totals.showdown_share == Fraction(sum(r.showdown for r in mine), len(mine))
        nets: dict[str, int] = defaultdict(int)
        hands: dict[str, int] = defaultdict(int)
        for record in mine:
            for player, won in zip(record.players, record.winnings, strict=True):
                nets[player] += won
                hands[player] += 1
        assert {p.name: (p.hands, p.net) for p in totals.players} == {
            name: (hands[name], nets[name]) for name in nets
        }
        assert [p.net for p in totals.players] == sorted(nets.values(), reverse=True)
    assert list(store.stats("g2")) == ["g2"]
    assert store.stats("none") == {}


def test_nul_in_table_ids_and_filters_is_refused(store: Store) -> None:
    """PostgreSQL's text holds no NUL: neither store takes one (and both say so)."""
    with pytest.raises(StoreError, match="NUL"):
        store.save_table("t\x00", {}, {})
    with pytest.raises(StoreError, match="NUL"):
        store.hands(player="a\x00")
    store.save_table("t", {"name": "a\x00b"}, {})  # inside JSON it is escaped, and kept
    assert store.load_table("t") == ({"name": "a\x00b"}, {})


def test_tables_save_load_and_resume(location: str) -> None:
    path = location
    with Store.open(path) as store:
        store.save_table("blue", {"game": "fesca78-holdem", "seats": 6}, {"stacks": [100] * 6})
        first = store.table("blue")
        store.save_table("blue", {"game": "fesca78-holdem", "seats": 6}, {"stacks": [90, 110]})
        store.save_table("amber", {"game": "standard52-omaha"}, {"stacks": []})
    with Store.open(path) as store:  # a server restart
        assert [t.table_id for t in store.tables()] == ["amber", "blue"]
        assert store.load_table("blue") == (
            {"game": "fesca78-holdem", "seats": 6},
            {"stacks": [90, 110]},
        )
        blue = store.table("blue")
        assert blue.created_at == first.created_at <= blue.updated_at
        assert store.delete_table("amber") is True
        assert store.delete_table("amber") is False
        with pytest.raises(StoreError, match="no table 'amber'"):
            store.load_table("amber")


@pytest.mark.parametrize(
    ("state", "words"),
    [
        ({"stacks": (1, 2)}, "tuple"),
        ({1: "seat"}, "key that is not a string"),
        ({"pot": float("nan")}, "number JSON cannot keep"),
        ({"when": datetime.date(2026, 1, 1)}, "date JSON cannot keep"),
        ({"name": "\ud800"}, "not valid Unicode"),
        ([1, 2], "must be a dict"),
    ],
)
def test_unkeepable_json_is_refused(store: Store, state: Any, words: str) -> None:
    with pytest.raises(StoreError, match=words):
        store.save_table("t", {}, state)
    with pytest.raises(StoreError, match=words):
        store.add_arena_run(state, {})
    assert store.tables() == []


def test_arena_runs(store: Store) -> None:
    early = datetime.datetime(2025, 1, 1, tzinfo=UTC)
    first = store.add_arena_run({"bots": ["random", "caller"]}, {"net": {"random": -5}})
    second = store.add_arena_run({"bots": []}, {}, played_at=early)
    assert [run.id for run in store.arena_runs()] == [first, second]
    run = store.arena_run(first)
    assert (run.config, run.results) == ({"bots": ["random", "caller"]}, {"net": {"random": -5}})
    assert store.arena_run(second).played_at == early
    with pytest.raises(StoreError, match="no arena run 9"):
        store.arena_run(9)


def test_closed_store_says_so(location: str) -> None:
    store = Store.open(location)
    store.close()
    store.close()
    with pytest.raises(StoreError, match="is closed"):
        store.hands()
    assert "closed" in repr(store)


# -- property tests ------------------------------------------------------------------------

_text = st.characters(
    exclude_categories=["Cs"], exclude_characters="\x00"
)  # no NUL: no store keeps one
_names = st.text(_text, max_size=12)
_stacks = st.integers(0, INT64_MAX)
_times = st.datetimes(
    min_value=datetime.datetime(1, 1, 2),
    max_value=datetime.datetime(9999, 12, 30),
    timezones=st.sampled_from(
        [
            UTC,
            datetime.timezone(datetime.timedelta(hours=-8)),
            datetime.timezone(datetime.timedelta(hours=5, minutes=30)),
        ]
    ),
)


@st.composite
def hand_records(draw: st.DrawFn, game: st.SearchStrategy[str] | None = None) -> HandRecord:
    seats = draw(st.integers(1, 9))
    return HandRecord(
        game=draw(game if game is not None else st.text(_text, min_size=1, max_size=20)),
        variant=draw(st.sampled_from(["NT", "FT", "PO", "F7S", "FB", ""])),
        phh=draw(st.text(_text, max_size=200)),
        players=tuple(draw(st.lists(_names, min_size=seats, max_size=seats))),
        starting_stacks=tuple(draw(st.lists(_stacks, min_size=seats, max_size=seats))),
        finishing_stacks=tuple(draw(st.lists(_stacks, min_size=seats, max_size=seats))),
        board=draw(st.text(_text, max_size=15)),
        actions=draw(st.integers(0, INT64_MAX)),
        showdown=draw(st.booleans()),
        decided_by=draw(st.none() | st.text(_text, max_size=10)),
        source=draw(st.text(_text, min_size=1, max_size=8)),
        table_id=draw(st.none() | st.text(_text, min_size=1, max_size=8)),
        played_at=draw(_times),
    )


_FIXTURES = [HealthCheck.function_scoped_fixture]  # fresh_store makes a new store each time


@settings(max_examples=60, deadline=None, suppress_health_check=_FIXTURES)
@given(records=st.lists(hand_records(), min_size=1, max_size=5))
def test_any_record_round_trips(fresh_store: Fresh, records: list[HandRecord]) -> None:
    with fresh_store() as store:
        ids = store.add_hands(records)
        for hand_id, record in zip(ids, records, strict=True):
            stored = store.hand(hand_id)
            assert stored == dataclasses.replace(record, id=hand_id)
            assert stored.played_at.utcoffset() == datetime.timedelta(0)
        assert store.count_hands() == len(records)
        first = records[0]
        assert ids[0] in {r.id for r in store.hands(game=first.game, source=first.source)}


@settings(max_examples=40, deadline=None, suppress_health_check=_FIXTURES)
@given(records=st.lists(hand_records(st.sampled_from(["g1", "g2"])), min_size=1, max_size=8))
def test_stats_with_big_chips(fresh_store: Fresh, records: list[HandRecord]) -> None:
    """Net chips beyond 64 bits are still exact (SQLite's SUM would overflow)."""
    with fresh_store() as store:
        store.add_hands(records)
        stats = store.stats()
    for game, totals in stats.items():
        nets: dict[str, int] = defaultdict(int)
        hands: dict[str, set[int]] = defaultdict(set)
        for number, record in enumerate(records):
            if record.game == game:
                for player, won in zip(record.players, record.winnings, strict=True):
                    nets[player] += won
                    hands[player].add(number)
        assert {p.name: (p.hands, p.net) for p in totals.players} == {
            name: (len(hands[name]), nets[name]) for name in nets
        }
    assert sum(t.hands for t in stats.values()) == len(records)


def _json_containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    _json_containers,
    max_leaves=20,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, *_FIXTURES])
@given(
    state=st.dictionaries(st.text(max_size=6), _json, max_size=5),
    table_id=st.text(_text, min_size=1, max_size=10),
)
def test_any_json_state_round_trips(
    fresh_store: Fresh, state: dict[str, Any], table_id: str
) -> None:
    with fresh_store() as store:
        store.save_table(table_id, {"id": table_id}, state)
        assert store.load_table(table_id) == ({"id": table_id}, state)
        run = store.arena_run(store.add_arena_run(state, {"state": state}))
        assert (run.config, run.results) == (state, {"state": state})


_anything = st.none() | st.booleans() | st.integers() | st.text() | st.floats()


@settings(max_examples=80, deadline=None, suppress_health_check=_FIXTURES)
@given(a=_anything, b=_anything, c=_anything, d=_anything, e=_anything)
def test_fuzzed_queries_answer_or_refuse(
    fresh_store: Fresh, a: Any, b: Any, c: Any, d: Any, e: Any
) -> None:
    with fresh_store() as store:
        store.add_hand(make_record(0))
        calls = [
            lambda: store.hand(a),
            lambda: store.hands(game=a, source=b, table_id=c, player=d, limit=e),
            lambda: store.hands(offset=b),
            lambda: store.count_hands(game=e, player=a),
            lambda: store.stats(c),
            lambda: store.load_table(d),
            lambda: store.arena_run(e),
            lambda: store.save_table(a, {"x": b}, {"y": c}),
            lambda: store.delete_table(b),
        ]
        for call in calls:
            with contextlib.suppress(StoreError):  # anything else fails the test
                call()
