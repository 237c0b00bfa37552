"""A PostgreSQL server that stops and starts again: the store's lost connection is made
again, its tries spaced by a doubling wait (never a loop of "the connection is closed"),
and what was committed before the stop is all there after it."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

import pytest

from _postgres import PostgresServer, running_server
from cardlab.errors import StoreError
from cardlab.store import Store
from cardlab.store import store as store_module


@pytest.fixture(scope="module")
def own_server() -> Iterator[PostgresServer]:
    """A server of this module's own: stopping the session's would fail other tests."""
    yield from running_server()


def test_a_lost_connection_is_made_again_when_the_server_returns(
    own_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = own_server.new_schema()
    tries: list[float] = []
    with Store.open(url) as store:
        store.save_table("t1", {"game": "g"}, {"n": 1})
        real = store._reconnect
        assert real is not None

        def counted() -> object:
            tries.append(time.monotonic())
            return real()

        monkeypatch.setattr(store, "_reconnect", counted)
        own_server.pause()
        try:
            with pytest.raises(StoreError, match=r"unreachable|not available"):
                store.ping()  # the server closed the connection: noticed here
            started = time.monotonic()
            messages = []
            while time.monotonic() - started < 3.0:
                with pytest.raises(StoreError) as caught:
                    store.save_table("t1", {"game": "g"}, {"n": 2})
                messages.append(str(caught.value))
                time.sleep(0.01)
            # the tries wait 0.25, 0.5, 1, 2 s after each failure: 3 or 4 in 3 s, not 300
            assert 2 <= len(tries) <= 5, tries
            gaps = [b - a for a, b in itertools.pairwise(tries)]
            assert all(later > earlier for earlier, later in itertools.pairwise(gaps))
            assert gaps[0] >= store_module.RETRY_FIRST
            assert all("unreachable" in m for m in messages), messages[:3]
            assert any("next try to connect in" in m for m in messages)
        finally:
            own_server.resume()
        time.sleep(store_module.RETRY_MOST)  # past any wait in progress
        store.ping()
        assert store.reconnects == 1
        _, state = store.load_table("t1")
        assert state == {"n": 1}  # the writes refused during the outage are not there
        store.save_table("t1", {"game": "g"}, {"n": 3})
    with Store.open(url) as again:
        assert again.load_table("t1")[1] == {"n": 3}


def test_a_transaction_cut_by_the_stop_is_not_half_kept(own_server: PostgresServer) -> None:
    url = own_server.new_schema()
    with Store.open(url) as store:
        store.save_table("t1", {"game": "g"}, {"n": 1})
        with pytest.raises(StoreError), store.transaction():
            store.save_table("t1", {"game": "g"}, {"n": 2})
            own_server.pause()
            try:
                store.save_table("t2", {"game": "g"}, {"n": 1})
            finally:
                own_server.resume()
        time.sleep(store_module.RETRY_FIRST)
        store.ping()
        assert store.load_table("t1")[1] == {"n": 1}
        assert [t.table_id for t in store.tables()] == ["t1"]
