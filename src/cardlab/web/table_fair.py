"""A web table's side of the fair deal: its server seed and commitment, the client seeds
sent for the next deal, and revealing a seed when a player asks (docs/fair-dealing.md).

The server seed is kept in the store (``deal_seeds``), never in a payload; what a client
sees is :meth:`TableSeeds.public`: the commitment, the deal the next client seed is for,
and the seeds revealed so far.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from typing import Any

from cardlab.errors import ActionError, CardlabError
from cardlab.table import phh
from cardlab.table.dealing import (
    FairDeal,
    check_client_seed,
    commitment,
    new_server_seed,
    parse_server_seed,
    practice_seed,
    revealed_fields,
)
from cardlab.web.table_store import TableStore

KEEP_REVEALED = 20  # revealed seeds listed on the page


class TableSeeds:
    """The server seed in use at one table and the client seeds for its next deal."""

    def __init__(
        self,
        table_id: str,
        store: TableStore,
        *,
        practice: int | None = None,
        current: str | None = None,
        revealed: list[dict[str, str]] | None = None,
        reveal_requested: bool = False,
        rotations: int = 0,
        seeders: list[int] | None = None,
    ) -> None:
        self.table_id = table_id
        self.store = store
        self.practice = practice
        self.revealed: deque[dict[str, str]] = deque(revealed or (), maxlen=KEEP_REVEALED)
        self.reveal_requested = reveal_requested
        self.rotations = rotations  # seeds retired so far
        self.client_seeds: dict[int, str] = {}  # seat -> seed, for the next deal
        self.next_deal = 0
        # seats whose page sends client seeds (saved: after a restart the deal waits for
        # the pages to send them again) and when a person who will send them sat down
        self.seeders: set[int] = {int(s) for s in seeders or ()}
        self.joined: dict[int, float] = {}
        self.lost: str | None = None  # a commitment whose seed the store no longer has
        if current is not None:
            try:
                self.commitment = current
                self.server_seed = parse_server_seed(store.seed(table_id, current).server_seed)
                return
            except CardlabError:
                self.lost = current
        self.commitment, self.server_seed = self._draw()

    def _draw(self) -> tuple[str, bytes]:
        """A new server seed, stored before its commitment is shown to anyone."""
        if self.practice is not None:
            # a practice table's seed follows from the creator's number; after a reveal
            # the next one follows from the number and how many came before
            seed = practice_seed(self.practice + 7919 * self.rotations)
        else:
            seed = new_server_seed()
        promise = commitment(seed)
        self.store.add_seed(self.table_id, promise, seed.hex())
        return promise, seed

    def state(self) -> dict[str, Any]:
        """What the table's saved state keeps (the seed itself stays in the store)."""
        return {
            "commitment": self.commitment,
            "revealed": list(self.revealed),
            "reveal_requested": self.reveal_requested,
            "rotations": self.rotations,
            "seeders": sorted(self.seeders),
        }

    def public(self) -> dict[str, Any]:
        return {
            "scheme": "cardlab-shuffle-v1",
            "commitment": self.commitment,
            "next_deal": self.next_deal,
            "practice": self.practice is not None,
            "reveal_requested": self.reveal_requested,
            "revealed": list(self.revealed),
        }

    # --- client seeds -------------------------------------------------------------------

    def offer(self, seat: int | None, deal: object, seed: object) -> None:
        """A seated person's client seed for deal ``deal`` (ignored if that deal is gone)."""
        if seat is None:
            raise ActionError("only a seated player sends a client seed")
        text = check_client_seed(seed)
        self.seeders.add(seat)
        if deal == self.next_deal:
            self.client_seeds[seat] = text

    def expect(self, seat: int, now: float) -> None:
        """A person who will send client seeds sat down in ``seat`` at ``now``."""
        self.joined[seat] = now
        self.seeders.add(seat)

    def forget(self, seat: int) -> None:
        """The person in ``seat`` stood up."""
        self.seeders.discard(seat)
        self.joined.pop(seat, None)
        self.client_seeds.pop(seat, None)

    def missing(self, people: set[int], connected: set[int], now: float, wait: float) -> bool:
        """A page that sends client seeds has not sent the next deal's yet: its person is
        connected (or sat down less than ``wait`` seconds ago, the page still connecting).
        The deal waits for it at most ``wait`` seconds (the room's loop)."""
        fresh = {s for s, at in self.joined.items() if now - at < wait}
        return any(
            (s in connected or s in fresh) and s not in self.client_seeds
            for s in people & (self.seeders | fresh)
        )

    def has_seed(self, seat: int) -> bool:
        return seat in self.client_seeds

    def deal(self, number: int, seats: list[int], people: set[int]) -> FairDeal:
        """The fair-deal inputs of deal ``number`` to ``seats`` by position (only the seats
        in ``people`` contribute their client seed); the client seeds are used up."""
        seeds = tuple(self.client_seeds.get(s, "") if s in people else "" for s in seats)
        self.client_seeds.clear()
        self.next_deal = number + 1
        return FairDeal(self.commitment, seeds, number, self.practice is not None)

    # --- revealing ----------------------------------------------------------------------

    def reveal(self) -> tuple[str, bytes]:
        """Reveal the seed in use: every stored hand dealt under it gets the revealed
        fields; a new seed is drawn. Returns the old (commitment, seed)."""
        old, seed = self.commitment, self.server_seed
        texts: dict[int, str] = {}
        for hand_id in self.store.hand_ids_dealt_under(self.table_id, old):
            record = self.store.hand(hand_id)
            texts[hand_id] = phh.dumps(with_revealed(phh.loads(record.phh), seed))
        self.store.reveal_seed(self.table_id, old, texts)
        self.revealed.append({"commitment": old, "server_seed": seed.hex()})
        self.reveal_requested = False
        self.rotations += 1
        self.commitment, self.server_seed = self._draw()
        return old, seed


def with_revealed(history: phh.HandHistory, server_seed: bytes) -> phh.HandHistory:
    """``history`` with the revealed fields of its deal added (seed, shuffled deck)."""
    user = history.user_fields
    deal = FairDeal(
        str(user["_commitment"]),
        tuple(str(s) for s in user["_client_seeds"]),
        int(user["_deal_number"]),
    )
    fields = revealed_fields(server_seed, history.deck, deal)
    return dataclasses.replace(history, user_fields=user | fields)
