"""A multi-table tournament survives a server killed as a table's hand ends.

A web tournament table that finishes a hand stores the hand and its new state, and the
tournament records the hand (places, players out stood up, moves to other tables, the
other tables' seats). All of it is one transaction: a server killed between any two of
these writes leaves the store as it was before the hand's end, so the restarted server
resumes the hand, ends it again and records it once. Checked by killing the server at
each write (a store that stops the process right after the write: what it had not
committed is lost, as with ``kill -9``), restarting from the store, and comparing the
tournament, every table's seats and ledger with a run that was not killed.

The tables are driven by hand, with no event loop turning: the test acts for every
seat (all in, call, show), so both runs play the same cards from the same stored deal.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from _postgres import PostgresServer, postgres_server
from cardlab.store import Store
from cardlab.store.copy import copy_store
from cardlab.table import Action
from cardlab.web.mtt import MttHall, MttRun
from cardlab.web.table_manager import TableManager
from cardlab.web.table_room import Room

__all__ = ["postgres_server"]

HOST = "h" * 64


class Killed(BaseException):
    """The process is killed (nothing after the write runs; its transaction is lost)."""


class KilledAfter:
    """A store that kills the process right after the ``kill_at``-th call of ``method``
    (every other call passes through)."""

    def __init__(self, store: Store, method: str, kill_at: int = 1) -> None:
        self._store, self._method, self._left = store, method, kill_at

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._store, name)
        if name != self._method:
            return value

        def write(*args: Any, **kwargs: Any) -> Any:
            got = value(*args, **kwargs)
            self._left -= 1
            if self._left == 0:
                raise Killed(name)
            return got

        return write


def _server(store: Any) -> tuple[TableManager, MttHall]:
    manager = TableManager(store, bot_hands=100_000)
    return manager, MttHall(manager, clock=lambda: 0.0)


def _registered(store: Any) -> tuple[MttHall, MttRun]:
    """A tournament of 7 bots at tables of 4, not started yet."""
    _, hall = _server(store)
    run = hall.create(
        {
            "game": "fesca78-holdem",
            "table_size": 4,
            "stack": 40,
            "levels": "2/4",
            "level_hands": 50,
            "tournament_buy_in": 10,
            "clock": 0,
            "pause": 0,
            "bot_delay": 0,
        },
        HOST,
    )
    for i in range(7):
        run.register({"bot": "station", "name": f"b{i}"}, HOST)
    return hall, run


def _start(store: Store) -> tuple[MttHall, str, int]:
    """A tournament of 7 (tables of 4 and 3), started: its hall, id and table of 4."""
    hall, run = _registered(store)
    run.start(HOST)
    table = max(run.mtt.tables, key=lambda k: len(run.mtt.tables[k]))
    return hall, run.id, table


def _room(hall: MttHall, mtt_id: str, table: int) -> Room:
    return hall.get(mtt_id).links[table].room


def _bet_all_in(room: Room) -> None:
    """Deal a hand and play its betting: the first to act goes all in, the others call.
    The hand is left at its all-in runout (nothing of it stored past the last call)."""
    assert room.runner.deal_next(False)
    hand = room.session.hand
    assert hand is not None
    first = True
    while not hand.is_over and not hand.runout_paused:
        legal = hand.legal()
        if first and legal.raise_max is not None:
            room.shell(room.runner.plan(Action.raise_to(legal.raise_max)))
        else:
            room.shell(room.runner.plan(Action.call()))
        first = False
    assert hand.runout_paused


def _end(room: Room) -> None:
    """Deal the rest of the runout and show every hand: the hand ends (and is stored)."""
    hand = room.session.hand
    assert hand is not None
    while not hand.is_over:
        if hand.runout_paused:
            assert room.runner.deal_runout(room.runner.turn)
        else:
            room.shell(room.runner.plan(Action.show()))


def _state(store: Store, mtt_id: str) -> dict[str, Any]:
    """What the store holds of the tournament: its state, each table's seats (name and
    chips), ledger and stored hands, and whether a hand is in play."""
    (record,) = [r for r in store.mtts(closed=True) if r.mtt_id == mtt_id]
    mtt = dict(record.state["mtt"])
    tables = {}
    for number, table_id in sorted(record.state["table_ids"].items()):
        saved = store.table(table_id).state
        tables[number] = {
            "seats": [(s["name"], s["kind"]) for s in saved["seats"]],
            "stacks": saved["stacks"],
            "hands_played": saved["hands_played"],
            "ledger": [(e.seat, e.player, e.kind, e.amount) for e in store.ledger(table_id)],
            "hands": len(store.hands(table_id=table_id)),
            "live": store.live_hand(table_id) is not None,
        }
    return {"mtt": mtt, "tables": tables}


def _uncrashed(path: Path | str, mtt_id: str, table: int) -> dict[str, Any]:
    async def main() -> dict[str, Any]:
        with Store.open(path) as store:
            _, hall = _server(store)
            _end(_room(hall, mtt_id, table))
            return _state(store, mtt_id)

    return asyncio.run(main())


@pytest.fixture(scope="module")
def before_the_end(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, str, int, dict[str, Any]]:
    """A store where a table of 4 has bet its hand all in (its runout to come), and the
    store after a run not killed: a hand where somebody went out (a hand all four
    chop changes no seat: dealt again)."""
    folder = tmp_path_factory.mktemp("mtt")
    for attempt in range(10):
        path = folder / f"before{attempt}.sqlite3"

        async def main(path: Path = path) -> tuple[str, int, dict[str, Any]]:
            with Store.open(path) as store:
                hall, mtt_id, table = _start(store)
                _bet_all_in(_room(hall, mtt_id, table))
                return mtt_id, table, _state(store, mtt_id)

        mtt_id, table, start = asyncio.run(main())
        calm = folder / f"calm{attempt}.sqlite3"
        shutil.copy(path, calm)
        expected = _uncrashed(calm, mtt_id, table)
        if expected["mtt"]["tables"] != start["mtt"]["tables"]:
            assert not any(t["live"] for t in expected["tables"].values())
            assert start["tables"][str(table)]["live"]
            return path, mtt_id, table, expected
    raise AssertionError("ten all-in hands in a row moved nobody")


def _copies(path: Path, tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> list[Any]:
    """Two copies of the store at ``path``: SQLite files, or PostgreSQL schemas."""
    if backend == "sqlite":
        copies: list[Any] = [tmp_path / "calm.sqlite3", tmp_path / "killed.sqlite3"]
        for copy in copies:
            shutil.copy(path, copy)
        return copies
    server: PostgresServer = request.getfixturevalue("postgres_server")
    copies = [server.new_schema(), server.new_schema()]
    for url in copies:
        with Store.open(path) as source, Store.open(url) as target:
            copy_store(source, target)
    return copies


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
@pytest.mark.parametrize(
    ("method", "kill_at"),
    [
        ("end_hand", 1),  # the table's hand written
        ("save_mtt", 1),  # the tournament's state written
        ("add_ledger", 1),  # a player out or moved: the first ledger line
        ("save_table", 1),  # another table's seats (a player moved there)
    ],
)
def test_a_server_killed_as_a_hand_ends_resumes_as_if_it_was_not(
    before_the_end: tuple[Path, str, int, dict[str, Any]],
    tmp_path: Path,
    request: pytest.FixtureRequest,
    backend: str,
    method: str,
    kill_at: int,
) -> None:
    path, mtt_id, table, expected = before_the_end
    calm, killed = _copies(path, tmp_path, backend, request)
    if backend != "sqlite":  # the run not killed, on this backend too
        assert _uncrashed(calm, mtt_id, table) == expected

    async def crash() -> bool:
        with Store.open(killed) as store:
            _, hall = _server(KilledAfter(store, method, kill_at))
            try:
                _end(_room(hall, mtt_id, table))
            except Killed:
                return True
            return False

    assert asyncio.run(crash()), f"the hand's end made no {method} call"

    async def restart() -> dict[str, Any]:
        with Store.open(killed) as store:
            _, hall = _server(store)
            room = _room(hall, mtt_id, table)
            _end(room)  # the hand resumed from the store, its runout dealt again
            return _state(store, mtt_id)

    assert asyncio.run(restart()) == expected


def test_a_server_killed_as_a_tournament_starts_keeps_none_of_its_tables(tmp_path: Path) -> None:
    path = tmp_path / "start.sqlite3"

    async def crash() -> str:
        with Store.open(path) as store:
            _, run = _registered(KilledAfter(store, "save_table", 2))  # the second table
            with pytest.raises(Killed):
                run.start(HOST)
            return run.id

    mtt_id = asyncio.run(crash())

    async def restart() -> int:
        with Store.open(path) as store:
            assert store.tables() == []
            _, hall = _server(store)
            run = hall.get(mtt_id)
            assert not run.mtt.started and len(run.mtt.registered) == 7
            run.start(HOST)  # the host starts it again
            return len(store.tables())

    assert asyncio.run(restart()) == 2
