"""The coach's river review at a practice table: the viewer's river decisions judged by
the postflop solver in a worker thread (never on the event loop's thread), sent to the
viewer's browser alone, with no card but the viewer's own and the board's."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("starlette")

from cardlab.cards import format_cards
from cardlab.solve import river_review
from cardlab.store import Store
from cardlab.table import Phase
from cardlab.table.state import HandState
from cardlab.web import table_coach
from cardlab.web.table_config import parse_config
from cardlab.web.table_payload import default_action
from cardlab.web.table_room import Room
from cardlab.web.table_saved import SavedTable

Message = dict[str, Any]
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


async def _until(ok: Callable[[], bool], seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while not ok():
        if time.monotonic() > end:
            raise AssertionError("waited too long")
        await asyncio.sleep(0.01)


def test_the_coach_reviews_river_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    config = parse_config({"game": "standard52-holdem", "seats": 2, "stack": 200, "clock": 0,
                           "pause": 0, "bot_delay": 0, "blinds": [1, 2], "seed": 3,
                           "bots": {"2": "station"}})  # fmt: skip
    room = Room("river", config, Store.in_memory(), saved=SavedTable(host_sha256="A"))
    told: list[Message] = []
    other: list[Message] = []
    calls: list[tuple[bool, tuple[str, ...], str]] = []  # (on the loop's thread, hidden, board)

    def spy(hand: HandState, player: int) -> Any:
        theirs = [format_cards([c for c in h if c is not None]) for i, h in enumerate(hand.hole)
                  if i != player]  # fmt: skip
        calls.append(
            (threading.current_thread() is threading.main_thread(), tuple(theirs),
             format_cards(hand.board))
        )  # fmt: skip
        return river_review.review_river(hand, player)

    monkeypatch.setattr(table_coach, "review_river", spy)

    class Socket:
        def __init__(self, into: list[Message]) -> None:
            self.into = into

        async def send_text(self, text: str) -> None:
            self.into.append(json.loads(text))

    def rivers() -> list[Message]:
        return [r["river"] for m in told[-1:] if m.get("on") for r in m["reviews"] if "river" in r]

    def reviewed() -> int:
        return max((m["summary"]["hands"] for m in told if m.get("on")), default=0)

    async def session() -> None:
        room.wake()
        room.seating.join("ann", None, "A", sends_seeds=False)
        room.extras.coach.listen(1, Socket(told), "A")
        room.extras.coach.listen(2, Socket(other), "B")  # another browser watching
        assert room.extras.coach.switch("A", True)["on"] is True
        while not rivers() and room.session.hands_played < 6:

            def ready() -> bool:
                hand = room.session.hand
                mine = (
                    hand is not None
                    and hand.actor is not None
                    and room.session.seat_of(hand.actor) == 0
                )
                return (room.live() and mine) or not room.live()

            await _until(ready)
            if room.live():
                hand = room.session.hand
                assert hand is not None
                legal = hand.legal()
                room.act(0, str(default_action(legal, hand)) if legal.phase is Phase.SHOWDOWN
                         else "c")  # fmt: skip
                await asyncio.sleep(0)
            else:
                await _until(lambda: reviewed() >= room.session.hands_played)
                await asyncio.sleep(0.05)
        await _until(lambda: reviewed() >= room.session.hands_played)
        room.close()

    asyncio.run(session())
    assert calls and not any(on_loop for on_loop, _, _ in calls)  # always a worker thread
    assert other == []  # the other browser is told nothing
    found = rivers()
    assert found, told[-1]
    river = found[-1]
    assert river["assuming"] == river_review.RANGE_MODEL
    for d in river["decisions"]:
        assert d["played"] in d["strategy"] and d["played"] in ("k", "c")
        assert sum(d["strategy"].values()) == pytest.approx(1, abs=1e-3)
        assert d["ev_lost"] == pytest.approx(max(d["ev"].values()) - d["ev"][d["played"]],
                                             abs=1e-3)  # fmt: skip
    summary = told[-1]["summary"]["river"]
    assert summary["decisions"] == sum(len(r["decisions"]) for r in rivers())
    # no hidden card: only the viewer's hand and the board are written in it
    text = json.dumps(river)
    hidden = {c for _, theirs, _ in calls for h in theirs for c in h.split()}
    assert hidden and not hidden & set(CARD.findall(text))
    assert set(CARD.findall(text)) <= set(river["board"].split()) | set(
        river["decisions"][0]["hand"].split()
    )
