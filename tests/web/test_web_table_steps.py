"""The write-ahead order of an action as data (cardlab.web.table_steps): the hand
runner's steps are checked on the records, and carried out by the shell with a store
that records what it was asked, with no event loop."""

from __future__ import annotations

from typing import Any

import pytest

from cardlab.errors import ActionError, StoreError
from cardlab.store import Store
from cardlab.table import Session
from cardlab.web.table_config import parse_config
from cardlab.web.table_fair import TableSeeds
from cardlab.web.table_hand import HandRunner
from cardlab.web.table_outlets import Outlets
from cardlab.web.table_seats import SeatInfo, Seating
from cardlab.web.table_steps import (
    Announce,
    ApplyAction,
    NextDecision,
    StoreAction,
    carry_out,
)
from cardlab.web.table_tournament import Director

CONFIG = {"game": "fesca78-holdem", "seats": 2, "stack": 200, "pause": 0}


class Journal:
    """A store that notes each action written (and may refuse them), and the room's
    callbacks, in one list: the order things happened."""

    def __init__(self, store: Store, refuse: bool = False) -> None:
        self.store = store
        self.refuse = refuse
        self.events: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def add_action(
        self, table_id: str, seq: int, action: str, *, deal_number: int | None = None
    ) -> None:
        if self.refuse:
            self.events.append(f"refused {action}")
            raise StoreError("the database is away")
        self.store.add_action(table_id, seq, action, deal_number=deal_number)
        self.events.append(f"stored {action}")


def runner(refuse: bool = False) -> tuple[HandRunner, Journal]:
    config = parse_config(CONFIG)
    journal = Journal(Store.in_memory(), refuse)
    journal.store.save_table("t", config.as_dict(), {})
    events = journal.events
    out = Outlets("t", journal, notify=lambda: events.append("notify"))  # type: ignore[arg-type]
    session = Session(config.table_game(), ["ann", "bob"], [200, 200])
    seats = [
        SeatInfo("human", "ann", token_sha256="a", sitting="s1"),
        SeatInfo("human", "bob", token_sha256="b", sitting="s2"),
    ]
    game = config.table_game()
    director = Director(out, session, lambda: config, lambda: game, lambda: seats)
    seating = Seating(out, session, lambda: config, seats, director, started=True)
    fair = TableSeeds("t", journal)  # type: ignore[arg-type]
    hands = HandRunner(
        out,
        session,
        seating,
        fair,
        director,
        lambda: config,
        lambda: game,
        state=lambda: {},
        on_change=lambda: events.append("next decision"),
    )
    assert hands.deal_next(watched=True)
    events.clear()
    return hands, journal


def actor_seat(hands: HandRunner) -> int:
    hand = hands.session.hand
    assert hand is not None and hand.actor is not None
    seat = hands.session.seat_of(hand.actor)
    assert seat is not None
    return seat


def test_an_action_is_stored_then_applied_then_announced_then_the_next_decision() -> None:
    hands, journal = runner()
    turn = hands.turn
    steps = hands.act(actor_seat(hands), "c", turn=turn)
    assert [type(s) for s in steps] == [StoreAction, ApplyAction, Announce, NextDecision]
    first = steps[0]
    assert isinstance(first, StoreAction)
    assert (first.table_id, first.deal_number, first.seq, first.text) == ("t", 0, 0, "c")
    assert hands.storing  # no second action is planned meanwhile
    with pytest.raises(ActionError, match="being stored"):
        hands.act(actor_seat(hands), "c")
    history = list(hands.session.hand.history) if hands.session.hand else []
    assert carry_out(hands, steps)
    assert journal.events == ["stored c", "notify", "next decision"]
    assert hands.session.hand is not None and len(hands.session.hand.history) > len(history)
    assert (hands.turn, hands.action_seq, hands.storing) == (turn + 1, 1, False)
    live = journal.store.live_hand("t")
    assert live is not None and list(live.actions) == ["c"]


def test_an_action_the_store_refuses_is_not_applied_nor_announced() -> None:
    hands, journal = runner(refuse=True)
    hand = hands.session.hand
    assert hand is not None
    before = list(hand.history)
    steps = hands.act(actor_seat(hands), "c")
    assert not carry_out(hands, steps)
    assert journal.events[0] == "refused c"
    assert "next decision" not in journal.events  # announced only the notice
    assert list(hand.history) == before and hands.action_seq == 0 and not hands.storing


def test_an_action_stored_after_the_hand_moved_on_is_not_applied() -> None:
    hands, _ = runner()
    steps = hands.act(actor_seat(hands), "c")
    store_step, rest = steps[0], steps[1:]
    assert isinstance(store_step, StoreAction)
    hands.store(store_step)
    hands.cancel("a test")  # meanwhile (the write was in a worker thread)
    assert not hands.do(rest[0])  # type: ignore[arg-type]
    assert hands.action_seq == 0 and hands.session.hand is None


def test_the_shell_refuses_a_store_step_out_of_order() -> None:
    hands, _ = runner()
    steps = hands.act(actor_seat(hands), "c")
    with pytest.raises(ValueError, match="stored first"):
        carry_out(hands, [steps[1], steps[0]])
