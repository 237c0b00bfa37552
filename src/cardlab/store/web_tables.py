"""The store's web tables: each table's set-up and state, the hand in play and its
actions (written before anyone is told of them), the server seeds of the fair deal, and
the ledger of chips brought to and taken from each table.

A live table writes, in this order and each in one transaction:

- :meth:`TablesMixin.begin_hand`: the hand's start (deal number, seats, stacks, client
  seeds, commitment) together with the table's new state, before any card is shown;
- :meth:`TablesMixin.add_action` for every decision, before it is announced;
- :meth:`TablesMixin.end_hand`: the finished hand into ``hands``, the table's state, and
  the hand in play cleared — or :meth:`TablesMixin.cancel_hand`, which clears it and
  puts back the stacks it started with;
- :meth:`TablesMixin.amend_hand` when the winner of a hand everyone folded to shows
  their cards after it (before the show is announced).

So a process killed at any moment leaves either a finished hand or a hand in play whose
every announced action is stored: a restarted server resumes it at the same decision.
"""

from __future__ import annotations

import datetime
import json
import math
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

from cardlab.errors import StoreError
from cardlab.store._checks import _check_count, _check_id, _check_text, _json
from cardlab.store._connection import Connection, DriverError, Duplicate
from cardlab.store.records import TableRecord, parse_utc, utc_now, utc_text


@dataclass(frozen=True, slots=True)
class LiveHand:
    """The hand in play at a table, as stored: its start and its actions so far."""

    table_id: str
    deal_number: int
    start: dict[str, Any]
    actions: tuple[str, ...]
    clock_remaining: float | None
    started_at: datetime.datetime


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """Chips brought to a table (``buy-in``) or taken away (``cash-out``) by a seat."""

    id: int
    table_id: str
    seat: int
    player: str
    kind: str
    amount: int
    at: datetime.datetime


@dataclass(frozen=True, slots=True)
class DealSeed:
    """A table's server seed: secret (``revealed_at`` None) or revealed."""

    commitment: str
    table_id: str
    server_seed: str
    created_at: datetime.datetime
    revealed_at: datetime.datetime | None


LEDGER_KINDS = ("buy-in", "cash-out", "bounty-won", "bounty-paid")


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """A seat's final place in a tournament table, its prize and the tournament hand
    it went out in (None for the winner)."""

    table_id: str
    seat: int
    place: int
    player: str
    prize: int
    out_hand: int | None
    at: datetime.datetime


class TablesMixin:
    """The web-table methods of :class:`cardlab.store.Store` (see the module docs)."""

    # provided by Store
    def _open_connection(self) -> Connection:
        raise NotImplementedError

    def transaction(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _guarded(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _reading(self) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def _label(self) -> str:
        raise NotImplementedError

    # -- fencing (many processes, cardlab web --redis) -----------------------------------

    # provided by Store: table id -> the token it was claimed with; the lock, the nesting
    # of transaction() and whether writes are refused
    _fences: dict[str, int]
    _lock: threading.RLock
    _depth: int
    _read_only: bool

    def claim_table(self, table_id: str, at_least: int = 1) -> int:
        """Claim ``table_id`` for this store with a new fencing token, and return it: one
        more than any token the table was claimed with before, and at least ``at_least``
        (the counter of the lease just taken, a hint only). The store alone hands the
        tokens out, in one atomic statement, so no two claims ever share a token, even if
        the lease's counter (Redis) forgot everything. From now on every write of this
        store to the table first checks that its token is still the table's current one
        (else :class:`StoreError`): any later claim stops it."""
        _check_id(table_id)
        _check_count(at_least, "a fencing token")
        if at_least < 1:
            raise StoreError(f"a fencing token is at least 1, got {at_least!r}")
        with self.transaction():
            row = (
                self._open_connection()
                .execute(
                    "INSERT INTO table_fences (table_id, token, claimed_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (table_id) DO UPDATE SET token = CASE"
                    " WHEN table_fences.token >= excluded.token THEN table_fences.token + 1"
                    " ELSE excluded.token END, claimed_at = excluded.claimed_at"
                    " RETURNING token",
                    (table_id, at_least, utc_text(utc_now())),
                )
                .fetchone()
            )
        token = int(row[0])
        self._fences[table_id] = token
        return token

    def disclaim(self, table_id: str) -> None:
        """This process lost (or handed over) ``table_id``'s lease: every write of this
        store to the table is refused from now on, before it reaches the database, until
        the table is claimed again. Without it, a write of the room that ran the table
        here, still in flight when this process claims the table anew (its own lease
        retaken after a stall), would go through with the new token."""
        _check_id(table_id)
        with self._lock:
            if table_id in self._fences:
                self._fences[table_id] = _DISCLAIMED

    def fence(self, table_id: str) -> int | None:
        """The fencing token ``table_id`` was last claimed with, the highest handed out
        (None: never claimed)."""
        _check_id(table_id)
        with self._reading() as connection:
            row = connection.execute(
                "SELECT token FROM table_fences WHERE table_id = ?", (table_id,)
            ).fetchone()
        return None if row is None else int(row[0])

    @contextmanager
    def _fenced(self, table_id: str) -> Iterator[None]:
        """A write transaction for ``table_id``: if this store claimed the table, it first
        checks (and locks, so that a claim waits for it) that the claim still stands."""
        with self.transaction():
            token = self._fences.get(table_id)
            if token == _DISCLAIMED:
                raise StoreError(_disclaimed(table_id))
            if token is not None:
                cursor = self._open_connection().execute(
                    "UPDATE table_fences SET token = token WHERE table_id = ? AND token = ?",
                    (table_id, token),
                )
                if cursor.rowcount == 0:
                    raise StoreError(_taken_over(table_id, self.fence(table_id), token))
            yield

    def _write_fenced(
        self, table_id: str, statements: list[tuple[str, tuple[Any, ...]]]
    ) -> list[int]:
        """Run ``statements`` for ``table_id`` as one write transaction, fenced as
        :meth:`_fenced` is, in one round trip to PostgreSQL (the fence refuses by failing
        in the database, so nothing waits for its answer); the rows each changed.
        :class:`Duplicate` for a key already stored; inside :meth:`transaction`, the
        statements join it."""
        token = self._fences.get(table_id)
        if token == _DISCLAIMED:
            raise StoreError(_disclaimed(table_id))
        with self._lock:
            connection = self._open_connection()
            if self._depth:  # a failed statement must leave the caller's transaction usable
                with self._fenced(table_id), self._guarded():
                    return [connection.execute(sql, values).rowcount for sql, values in statements]
            if self._read_only:
                raise StoreError(f"the hand store {self._label()} is open for reading only")
            fence = [] if token is None else [(_FENCE_CHECK, (token, table_id))]
            try:
                return connection.write_script(fence + statements)[len(fence) :]
            except DriverError as error:
                if token is not None and self.fence(table_id) != token:
                    raise StoreError(_taken_over(table_id, self.fence(table_id), token)) from None
                if isinstance(error, Duplicate):
                    raise
                raise StoreError(
                    f"cannot write to the hand store {self._label()}: {error}"
                ) from None

    # -- tables --------------------------------------------------------------------------

    def save_table(self, table_id: str, config: dict[str, Any], state: dict[str, Any]) -> None:
        """Create or replace the web table ``table_id`` with its configuration and state."""
        _check_id(table_id)
        config_text = _json(config, "table config")
        state_text = _json(state, "table state")
        now = utc_text(utc_now())
        with self._fenced(table_id):
            self._open_connection().execute(
                "INSERT INTO tables (id, config, state, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET"
                " config = excluded.config, state = excluded.state,"
                " updated_at = excluded.updated_at",
                (table_id, config_text, state_text, now, now),
            )

    def load_table(self, table_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The configuration and state last saved for ``table_id``."""
        record = self.table(table_id)
        return record.config, record.state

    def table(self, table_id: str) -> TableRecord:
        """The web table ``table_id`` as last saved; :class:`StoreError` if there is none."""
        _check_id(table_id)
        with self._reading() as connection:
            row = connection.execute(
                f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
        if row is None:
            raise StoreError(f"no table {table_id!r} in the hand store {self._label()}")
        return _table_record(row)

    def tables(self, *, closed: bool = False) -> list[TableRecord]:
        """Every saved web table still open (``closed``: the closed ones too), by id."""
        where = "" if closed else " WHERE closed_at IS NULL"
        with self._reading() as connection:
            rows = connection.execute(
                f"SELECT {_TABLE_COLUMNS} FROM tables{where} ORDER BY id"
            ).fetchall()
        return [_table_record(row) for row in rows]

    def delete_table(self, table_id: str) -> bool:
        """Forget the web table ``table_id`` (its hands stay); whether it was there."""
        _check_id(table_id)
        with self._fenced(table_id):
            connection = self._open_connection()
            connection.execute("DELETE FROM live_hands WHERE table_id = ?", (table_id,))
            connection.execute("DELETE FROM live_actions WHERE table_id = ?", (table_id,))
            connection.execute("DELETE FROM chat_lines WHERE table_id = ?", (table_id,))
            cursor = connection.execute("DELETE FROM tables WHERE id = ?", (table_id,))
        return cursor.rowcount > 0

    def close_table(self, table_id: str, state: dict[str, Any]) -> None:
        """Mark the table closed with its last state (its hands and ledger stay)."""
        _check_id(table_id)
        state_text = _json(state, "table state")
        now = utc_text(utc_now())
        with self._fenced(table_id):
            connection = self._open_connection()
            connection.execute("DELETE FROM live_hands WHERE table_id = ?", (table_id,))
            connection.execute("DELETE FROM live_actions WHERE table_id = ?", (table_id,))
            connection.execute(
                "UPDATE tables SET state = ?, updated_at = ?, closed_at = ? WHERE id = ?",
                (state_text, now, now, table_id),
            )

    # -- the hand in play ----------------------------------------------------------------

    def begin_hand(
        self, table_id: str, deal_number: int, start: dict[str, Any], state: dict[str, Any]
    ) -> None:
        """Record that ``deal_number`` is being dealt (``start``: what replaying it needs)
        with the table's state, in one transaction, before any card is shown."""
        _check_id(table_id)
        _check_count(deal_number, "a deal number")
        start_text = _json(start, "hand start")
        state_text = _json(state, "table state")
        now = utc_text(utc_now())
        updated = self._write_fenced(
            table_id,
            [
                ("DELETE FROM live_actions WHERE table_id = ?", (table_id,)),
                (
                    "UPDATE tables SET state = ?, updated_at = ? WHERE id = ?",
                    (state_text, now, table_id),
                ),
                # from the table's row: no hand in play is stored for a table that is not
                (
                    "INSERT INTO live_hands (table_id, deal_number, start, clock_remaining,"
                    " started_at) SELECT id, ?, ?, NULL, ? FROM tables WHERE id = ?"
                    " ON CONFLICT (table_id) DO UPDATE SET deal_number = excluded.deal_number,"
                    " start = excluded.start, clock_remaining = NULL,"
                    " started_at = excluded.started_at",
                    (deal_number, start_text, now, table_id),
                ),
            ],
        )[1]
        if updated == 0:
            raise StoreError(f"no table {table_id!r} in the hand store {self._label()}")

    def add_action(
        self, table_id: str, seq: int, action: str, *, deal_number: int | None = None
    ) -> None:
        """Store the ``seq``-th action (from 0) of the hand in play (the write every
        decision waits for: one statement, one round trip). With ``deal_number``, only
        while that deal is the hand in play (else :class:`StoreError`): a write that
        arrives after its hand was cancelled or ended adds nothing."""
        _check_id(table_id)
        _check_count(seq, "an action's number")
        if not isinstance(action, str) or not action:
            raise StoreError(f"an action is non-empty text, got {action!r}")
        _check_text(action, "an action")
        at = utc_text(utc_now())
        statement: tuple[str, tuple[Any, ...]]
        if deal_number is None:
            statement = (_INSERT_ACTION + " VALUES (?, ?, ?, ?)", (table_id, seq, action, at))
        else:
            _check_count(deal_number, "a deal number")
            statement = (
                _INSERT_ACTION + " SELECT table_id, ?, ?, ? FROM live_hands"
                " WHERE table_id = ? AND deal_number = ?",
                (seq, action, at, table_id, deal_number),
            )
        try:
            (added,) = self._write_fenced(table_id, [statement])
        except Duplicate:
            raise StoreError(f"action {seq} of table {table_id!r} is already stored") from None
        if added == 0:
            raise StoreError(f"deal {deal_number} is not in play at table {table_id!r}")

    def save_clock(self, table_id: str, seq: int, remaining: float) -> None:
        """The time left on the decision that follows action ``seq`` (the number of
        actions stored before it) of the hand in play."""
        _check_id(table_id)
        _check_count(seq, "an action's number")
        if isinstance(remaining, bool) or not isinstance(remaining, int | float):
            raise StoreError(f"the time left must be a number of seconds, got {remaining!r}")
        if not math.isfinite(remaining):
            raise StoreError(f"the time left must be a finite number, got {remaining!r}")
        self._write_fenced(
            table_id,
            [
                (
                    "UPDATE live_hands SET clock_remaining = ?, clock_seq = ? WHERE table_id = ?",
                    (remaining, seq, table_id),
                )
            ],
        )

    def live_hand(self, table_id: str) -> LiveHand | None:
        """The hand in play at ``table_id`` with its actions in order (None: between
        hands)."""
        _check_id(table_id)
        with self._reading() as connection:
            row = connection.execute(
                "SELECT deal_number, start, clock_remaining, clock_seq, started_at"
                " FROM live_hands WHERE table_id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                return None
            actions = [
                text
                for (text,) in connection.execute(
                    "SELECT action FROM live_actions WHERE table_id = ? ORDER BY seq",
                    (table_id,),
                )
            ]
        deal_number, start, clock, clock_seq, started_at = row
        # a saved clock belongs to the decision after action clock_seq; later actions
        # started new decisions with a full clock
        current = clock is not None and clock_seq == len(actions)
        return LiveHand(
            table_id,
            int(deal_number),
            json.loads(start),
            tuple(actions),
            float(clock) if current else None,
            parse_utc(started_at),
        )

    def end_hand(self, table_id: str, record: Any, state: dict[str, Any]) -> int:
        """The hand in play is over: store it (a :class:`HandRecord`), the table's new
        state, and clear the hand in play, in one transaction; the hand's id."""
        with self._fenced(table_id):
            hand_id = self.add_hands([record])[0]
            self._clear_live(table_id, state)
        return hand_id

    def amend_hand(self, table_id: str, hand_id: int, phh: str, actions: int) -> None:
        """Replace the PHH text (and action count) of the stored hand ``hand_id`` of
        ``table_id``: its uncontested winner showed after it ended; :class:`StoreError`
        if the table has no such hand."""
        _check_id(table_id)
        _check_count(actions, "an action count")
        if not isinstance(phh, str) or not phh:
            raise StoreError(f"a hand's PHH is non-empty text, got {phh!r:.60}")
        with self._fenced(table_id):
            cursor = self._open_connection().execute(
                "UPDATE hands SET phh = ?, actions = ? WHERE id = ? AND table_id = ?",
                (phh, actions, hand_id, table_id),
            )
        if cursor.rowcount == 0:
            raise StoreError(f"table {table_id!r} has no stored hand {hand_id!r}")

    def cancel_hand(self, table_id: str, state: dict[str, Any]) -> None:
        """The hand in play is cancelled: clear it and save the table's state (the stacks
        the hand started with), in one transaction."""
        with self._fenced(table_id):
            self._clear_live(table_id, state)

    def _clear_live(self, table_id: str, state: dict[str, Any]) -> None:
        _check_id(table_id)
        state_text = _json(state, "table state")
        connection = self._open_connection()
        connection.execute("DELETE FROM live_hands WHERE table_id = ?", (table_id,))
        connection.execute("DELETE FROM live_actions WHERE table_id = ?", (table_id,))
        connection.execute(
            "UPDATE tables SET state = ?, updated_at = ? WHERE id = ?",
            (state_text, utc_text(utc_now()), table_id),
        )

    def add_hands(self, records: Any) -> list[int]:
        raise NotImplementedError

    # -- server seeds --------------------------------------------------------------------

    def add_seed(self, table_id: str, commitment: str, server_seed: str) -> None:
        """Keep a table's new secret server seed (hex) under its commitment."""
        _check_id(table_id)
        for value, name in ((commitment, "commitment"), (server_seed, "server seed")):
            if not isinstance(value, str) or len(value) != 64:
                raise StoreError(f"a {name} is 64 hex digits, got {value!r:.80}")
        with self._fenced(table_id), self._guarded():
            try:
                self._open_connection().execute(
                    "INSERT INTO deal_seeds (table_id, commitment, server_seed, created_at)"
                    " VALUES (?, ?, ?, ?)",
                    (table_id, commitment, server_seed, utc_text(utc_now())),
                )
            except Duplicate:
                raise StoreError(
                    f"table {table_id!r} already used the seed of commitment {commitment[:16]}..."
                ) from None

    def seed(self, table_id: str, commitment: str) -> DealSeed:
        """The server seed behind ``commitment`` at ``table_id``; :class:`StoreError` if
        none."""
        with self._reading() as connection:
            row = connection.execute(
                "SELECT commitment, table_id, server_seed, created_at, revealed_at"
                " FROM deal_seeds WHERE table_id = ? AND commitment = ?",
                (table_id, commitment),
            ).fetchone()
        if row is None:
            raise StoreError(f"no server seed with commitment {str(commitment)[:16]!r}...")
        c, table_id, seed, created, revealed = row
        return DealSeed(
            c, table_id, seed, parse_utc(created), None if revealed is None else parse_utc(revealed)
        )

    def reveal_seed(self, table_id: str, commitment: str, phh_of: dict[int, str]) -> None:
        """Mark the table's seed revealed and replace the PHH text of its hands
        (``phh_of``: hand id to the text with the revealed fields), in one transaction."""
        with self._fenced(table_id):
            connection = self._open_connection()
            connection.execute(
                "UPDATE deal_seeds SET revealed_at = ? WHERE table_id = ? AND commitment = ?",
                (utc_text(utc_now()), table_id, commitment),
            )
            connection.executemany(
                "UPDATE hands SET phh = ? WHERE id = ? AND table_id = ? AND commitment = ?",
                [(text, hand_id, table_id, commitment) for hand_id, text in phh_of.items()],
            )

    def hand_ids_dealt_under(self, table_id: str, commitment: str) -> list[int]:
        """The ids of the table's stored hands dealt under ``commitment``, oldest first."""
        with self._reading() as connection:
            return [
                int(hand_id)
                for (hand_id,) in connection.execute(
                    "SELECT id FROM hands WHERE table_id = ? AND commitment = ? ORDER BY id",
                    (table_id, commitment),
                )
            ]

    # -- ledger --------------------------------------------------------------------------

    def add_ledger(self, table_id: str, seat: int, player: str, kind: str, amount: int) -> int:
        """Record chips brought (``buy-in``) or taken (``cash-out``) by a seat."""
        _check_id(table_id)
        _check_count(seat, "a seat")
        _check_count(amount, "an amount")
        if kind not in LEDGER_KINDS:
            raise StoreError(f"a ledger entry is one of {LEDGER_KINDS}, got {kind!r}")
        _check_text(player, "a player")
        with self._fenced(table_id):
            row = (
                self._open_connection()
                .execute(
                    "INSERT INTO ledger (table_id, seat, player, kind, amount, at)"
                    " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                    (table_id, seat, player, kind, amount, utc_text(utc_now())),
                )
                .fetchone()
            )
        return int(row[0])

    def save_results(self, table_id: str, standings: list[dict[str, Any]]) -> None:
        """Write a finished tournament's standings (``seat`` from 1, ``place``,
        ``name``, ``prize``, ``out_hand``), replacing any written before."""
        _check_id(table_id)
        rows = []
        for row in standings:
            seat, place, prize = int(row["seat"]) - 1, row["place"], row["prize"]
            _check_count(seat, "a seat")
            _check_count(place, "a place")
            if place < 1:
                raise StoreError(f"a tournament result needs a place from 1, got {place!r}")
            _check_count(prize, "a prize")
            _check_text(str(row["name"]), "a player")
            out = row.get("out_hand")
            if out is not None:
                _check_count(out, "the hand a seat went out in")
            rows.append((table_id, seat, place, str(row["name"]), prize, out))
        at = utc_text(utc_now())
        with self._fenced(table_id):
            connection = self._open_connection()
            connection.execute("DELETE FROM tournament_results WHERE table_id = ?", (table_id,))
            connection.executemany(
                "INSERT INTO tournament_results"
                " (table_id, seat, place, player, prize, out_hand, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(*r, at) for r in rows],
            )

    def results(self, table_id: str) -> list[TournamentResult]:
        """A tournament table's final standings, best place first (empty while it runs)."""
        _check_id(table_id)
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT table_id, seat, place, player, prize, out_hand, at"
                " FROM tournament_results WHERE table_id = ? ORDER BY place, seat",
                (table_id,),
            ).fetchall()
        return [TournamentResult(r[0], r[1], r[2], r[3], r[4], r[5], parse_utc(r[6])) for r in rows]

    def ledger(self, table_id: str) -> list[LedgerEntry]:
        """The table's ledger, oldest entry first."""
        _check_id(table_id)
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT id, table_id, seat, player, kind, amount, at FROM ledger"
                " WHERE table_id = ? ORDER BY id",
                (table_id,),
            ).fetchall()
        return [LedgerEntry(i, t, s, p, k, a, parse_utc(at)) for i, t, s, p, k, a, at in rows]

    # -- retention -----------------------------------------------------------------------

    def prune(self, before: datetime.datetime) -> tuple[int, int]:
        """Delete the hands played before ``before`` and the tables closed before it
        (with their ledgers, revealed seeds and chat); (hands, tables) deleted. Open tables and
        their unrevealed seeds are never touched."""
        when = utc_text(before)
        with self.transaction():
            connection = self._open_connection()
            hands = connection.execute("DELETE FROM hands WHERE played_at < ?", (when,)).rowcount
            closed = [
                table_id
                for (table_id,) in connection.execute(
                    "SELECT id FROM tables WHERE closed_at IS NOT NULL AND closed_at < ?",
                    (when,),
                )
            ]
            for table_id in closed:
                connection.execute("DELETE FROM ledger WHERE table_id = ?", (table_id,))
                connection.execute("DELETE FROM tournament_results WHERE table_id = ?", (table_id,))
                connection.execute("DELETE FROM chat_lines WHERE table_id = ?", (table_id,))
                connection.execute(
                    "DELETE FROM deal_seeds WHERE table_id = ? AND revealed_at IS NOT NULL",
                    (table_id,),
                )
                connection.execute("DELETE FROM tables WHERE id = ?", (table_id,))
        return hands, len(closed)


_TABLE_COLUMNS = "id, config, state, created_at, updated_at, closed_at"
_INSERT_ACTION = "INSERT INTO live_actions (table_id, seq, action, at)"
_FENCE_CHECK = (
    # a stale token would set the token to 0, which the column's CHECK (token >= 1)
    # refuses: the transaction fails in the database, so the check and the writes after
    # it go in one round trip. It also locks the fence row, so a claim waits for the write
    "UPDATE table_fences SET token = CASE WHEN token = ? THEN token ELSE 0 END WHERE table_id = ?"
)


_DISCLAIMED = 0  # the token of a table this store claimed and let go (no claim is 0)


def _disclaimed(table_id: str) -> str:
    return f"this process no longer holds table {table_id!r}'s lease and may not write to it"


def _taken_over(table_id: str, current: int | None, token: int) -> str:
    return (
        f"table {table_id!r} was taken over by another process (fencing token {current} > "
        f"{token}); this process may no longer write to it"
    )


def _table_record(row: Any) -> TableRecord:
    table_id, config, state, created_at, updated_at, closed_at = row
    return TableRecord(
        table_id=table_id,
        config=json.loads(config),
        state=json.loads(state),
        created_at=parse_utc(created_at),
        updated_at=parse_utc(updated_at),
        closed_at=None if closed_at is None else parse_utc(closed_at),
    )
