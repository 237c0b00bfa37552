"""A web table's home-game rules (docs/home-games.md): straddles, bomb pots (one or two
boards), the seven-deuce bounty, missed blinds and the dead button. The hands a night
of bots plays are replayed in pokerkit to the same stacks; the rules' choices are
checked against the rules as the docs write them."""

from __future__ import annotations

import asyncio
import warnings
from typing import Any

import pokerkit as pk
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")

from cardlab.errors import GameError
from cardlab.store import Store
from cardlab.table import HandState, Session, TableGame
from cardlab.table.house import Blinds, next_blinds
from cardlab.table.phh import loads
from cardlab.web.payload import RequestError
from cardlab.web.table_config import parse_config
from cardlab.web.table_house import HouseRules
from cardlab.web.table_outlets import Outlets
from cardlab.web.table_room import Room
from cardlab.web.table_seats import SeatInfo


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.simplefilter("ignore")  # pokerkit warns about burn cards it did not deal


NIGHT = {
    "game": "standard52-holdem",
    "seats": 4,
    "stack": 5000,
    "pause": 0,
    "bot_delay": 0,
    "clock": 0,
    "bots": {"1": "station", "2": "station", "3": "station", "4": "station"},
    "straddle": "utg",
    "bomb_pot_every": 3,
    "bomb_pot_ante": 10,
    "seven_deuce": 5,
    "dead_button": True,
}


def _night(hands: int, **fields: Any) -> tuple[Store, Room]:
    async def play() -> tuple[Store, Room]:
        store = Store.in_memory()
        room = Room("t1", parse_config(NIGHT | fields), store)
        room.save()
        room.house.straddlers.update({"seat 0", "seat 2"})  # these bots straddle
        room.wake()
        for _ in range(3000):
            await asyncio.sleep(0.01)
            if room.session.hands_played >= hands:
                break
        room.close()
        return store, room

    return asyncio.run(play())


def _pokerkit_stacks(text: str) -> list[int]:
    history = loads(text)
    boards = int(history.user_fields.get("_boards", 1))
    n = len(history.starting_stacks)
    state = pk.NoLimitTexasHoldem.create_state(
        (
            pk.Automation.ANTE_POSTING,
            pk.Automation.BET_COLLECTION,
            pk.Automation.BLIND_OR_STRADDLE_POSTING,
            pk.Automation.CARD_BURNING,
            pk.Automation.HAND_KILLING,
            pk.Automation.CHIPS_PUSHING,
            pk.Automation.CHIPS_PULLING,
        ),
        False,
        tuple(history.antes),
        tuple(history.blinds_or_straddles or ()),
        int(history.min_bet or 2),
        tuple(history.starting_stacks),
        n,
        starting_board_count=boards,
    )
    for action in history.actions:
        words = str(action).split()
        if words[0] == "d":
            if words[1] == "dh":
                state.deal_hole(words[3])
            else:
                state.deal_board(words[2])
        elif words[1] == "cc":
            state.check_or_call()
        elif words[1] == "f":
            state.fold()
        elif words[1] == "cbr":
            state.complete_bet_or_raise_to(int(words[2]))
        elif words[1] == "sm" and state.can_show_or_muck_hole_cards():  # shows and mucks
            player = int(words[0][1:]) - 1
            state.show_or_muck_hole_cards(len(words) > 2, player_index=player)
    assert not state.status
    return list(state.stacks)


@pytest.mark.parametrize("boards", [1, 2])
def test_a_night_of_straddles_and_bomb_pots_replays_in_pokerkit(boards: int) -> None:
    store, room = _night(6, bomb_pot_boards=boards)
    records = list(reversed(store.hands(table_id="t1", limit=20)))
    assert len(records) >= 6
    straddled = bombs = 0
    for number, rec in enumerate(records[:6], start=1):
        history = loads(rec.phh)
        fields = history.user_fields
        if number % 3 == 0:  # every third hand is a bomb pot: antes, no blinds
            bombs += 1
            assert fields["_bomb_pot"] == 10
            assert list(history.antes) == [10] * 4
            assert not any(history.blinds_or_straddles or ())
            preflop = [str(a) for a in history.actions[4:8]]
            assert preflop == ["p1 cc", "p2 cc", "p3 cc", "p4 cc"]  # no betting
            assert fields.get("_boards", 1) == boards
        else:
            assert "_bomb_pot" not in fields
            blinds = list(history.blinds_or_straddles or ())
            # the UTG straddle: position 2 (left of the big blind) posts twice the big
            # blind when that seat's player straddles
            utg_seat = fields["_seats"][2] - 1
            if utg_seat in (0, 2):
                straddled += 1
                assert blinds == [1, 2, 4, 0] and fields["_straddle"] == "p3"
            else:
                assert blinds == [1, 2, 0, 0] and "_straddle" not in fields
        assert _pokerkit_stacks(rec.phh) == list(history.finishing_stacks or ())
    assert bombs == 2 and straddled >= 1
    assert sum(s.stack for s in room.session.seats) == 4 * 5000 or room.live()


def test_the_host_calls_a_bomb_pot_and_the_settings_are_checked() -> None:
    config = parse_config(NIGHT | {"bomb_pot_every": 0})
    room = Room("t2", config, Store.in_memory())
    assert not room.house.bomb_due()
    room.house.call_bomb_pot()
    assert room.house.bomb_due()
    refused = {
        "straddle": ({"game": "standard52-stud", "straddle": "utg"}, "stud has no blinds"),
        "fixed": ({"betting": "fixed-limit", "straddle": "button"}, "fixed-limit"),
        "bomb": ({"game": "standard52-draw", "bomb_pot_every": 2}, "a flop"),
        "seven": ({"game": "standard52-omaha", "seven_deuce": 5}, "Hold'em"),
        "kind": ({"straddle": "double"}, "unknown straddle"),
        "boards": ({"bomb_pot_boards": 3}, "bomb_pot_boards"),
    }
    for fields, words in refused.values():
        with pytest.raises(RequestError, match=words):
            parse_config({"game": "standard52-holdem", "seats": 4, "stack": 100} | fields)


def _rules(fields: dict[str, Any], seats: list[SeatInfo], stacks: list[int]) -> HouseRules:
    config = parse_config(NIGHT | {"bots": {}, "seats": len(seats)} | fields)
    session = Session(config.table_game(), [s.name for s in seats], [max(1, v) for v in stacks])
    for seat, value in zip(session.seats, stacks, strict=True):
        seat.stack = value
    return HouseRules(
        Outlets("t", Store.in_memory()),
        session,
        lambda: config,
        config.table_game,
        lambda: seats,
    )


def _seat(name: str) -> SeatInfo:
    return SeatInfo("human", name, sitting=f"sit-{name}")


def test_seven_deuce_pays_the_winner_who_shows_the_two_lowest_ranks() -> None:
    for game, seven, deuce in (("standard52-holdem", "7c", "2d"), ("fesca78-holdem", "木2", "火1")):
        seats = [_seat(n) for n in ("ann", "bob", "cy")]
        rules = _rules({"game": game}, seats, [100, 100, 3])
        table_game = TableGame.create(game, blinds=(1, 2))
        deck = table_game.game.deck
        hand = HandState(table_game, [100, 100, 3], deal="manual")
        others = [c for c in deck.cards if str(c) not in (seven, deuce)]
        by_name = {str(c): c for c in deck.cards}
        hole = [[by_name[seven], by_name[deuce]], others[:2], others[2:4]]
        for p, cards in enumerate(hole):
            hand.deal_hole(p, list(cards))
        # everyone calls down; the board gives the winner sevens full of deuces
        held = {c.rank for h in hole for c in h}
        sevens = [c for c in others[4:] if c.rank == hole[0][0].rank][:2]
        deuces = [c for c in others[4:] if c.rank == hole[0][1].rank][:1]
        blanks: list[Any] = []
        for c in others[4:]:
            if c.rank not in held and c.rank not in {x.rank for x in blanks}:
                blanks.append(c)
        board = [*sevens, *deuces, *blanks[:2]]
        while not hand.is_over:
            if hand.phase.value == "deal":
                hand.deal_board([board.pop(0) for _ in range(3 if len(hand.board) == 0 else 1)])
            elif hand.phase.value == "showdown":
                hand.show_or_muck(True)
            else:
                hand.check_or_call()
        assert hand.result is not None and hand.result.awards[0].players == (0,)
        # docs/home-games.md: 5 from each other player dealt in, at most what is left
        left = hand.result.finishing_stacks
        assert rules.seven_deuce(hand) == [5 + min(5, left[2]), -5, -min(5, left[2])]


def test_the_dead_button_follows_roberts_rules() -> None:
    # seats 0..5; last hand: button 0, small blind 1, big blind 2
    last = Blinds(0, 1, 2)
    # everyone stays: everything moves one seat
    assert next_blinds(last, 0, 6, {0, 1, 2, 3, 4, 5}, dead_button=True) == Blinds(1, 2, 3)
    # the small blind (seat 1) left: the button is dead on seat 1, seat 0 acts last
    assert next_blinds(last, 0, 6, {0, 2, 3, 4, 5}, dead_button=True) == Blinds(1, 2, 3)
    # the big blind (seat 2) busted: nobody posts the small blind (seat 2 is empty),
    # seat 3 posts the big blind, the button is on seat 1
    assert next_blinds(last, 0, 6, {0, 1, 3, 4, 5}, dead_button=True) == Blinds(1, 2, 3)
    # the moving button skips the empty seats instead
    assert next_blinds(last, 0, 6, {0, 1, 3, 4, 5}, dead_button=False) == Blinds(1, 3, 4)


def test_a_dead_small_blind_and_missed_blinds_in_a_plan() -> None:
    seats = [_seat(n) for n in ("ann", "bob", "cy", "dee", "eve")]
    rules = _rules({"new_players": "post"}, seats, [100] * 5)
    rules.last = Blinds(0, 1, 2)
    # the big blind's seat (2) is out: no small blind, seat 3 the big blind at position 0
    plan = rules.plan([3, 4, 0, 1], [], {0, 1, 3, 4}, set())
    assert plan.blinds == Blinds(1, 2, 3)
    assert plan.order == [3, 4, 0, 1]
    assert plan.stakes is not None and plan.stakes.blinds == (2, 0, 0, 0)
    # cy missed the blinds while out: back with "post", a live big blind and a dead small
    rules = _rules({"new_players": "post", "dead_button": False}, seats, [100] * 5)
    rules.missed["sit-cy"] = {"small", "big"}
    rules.session.button = 3
    plan = rules.plan([4, 0, 1, 2, 3], [3], {0, 1, 2, 3, 4}, {2})
    owed = plan.stakes
    assert owed is not None and owed.blinds[3] == -2 and owed.antes[3] == 1, plan


def test_a_double_board_bomb_pot_resumes_after_a_restart(tmp_path: Any) -> None:
    path = tmp_path / "hands.sqlite3"
    fields = {
        "game": "standard52-holdem",
        "seats": 3,
        "stack": 100,
        "pause": 0,
        "bot_delay": 0,
        "clock": 30,
        "bots": {"2": "station", "3": "station"},
        "bomb_pot_every": 1,
        "bomb_pot_boards": 2,
        "run_it": 2,  # a double board is still run once (docs/home-games.md)
    }

    async def play() -> list[Any]:
        store = Store.open(path)
        room = Room("t1", parse_config(fields), store)
        room.save()
        room.seating.join("ann", 0, "a" * 64)
        room.wake()
        while room.clock.deadline is None:  # ann's decision on the flop
            await asyncio.sleep(0.01)
        hand = room.session.hand
        assert hand is not None and hand.street_name == "flop" and len(hand.boards) == 2
        assert hand.runs_possible() == 1
        boards = [list(b) for b in hand.boards]
        room.close()
        store.close()
        return boards

    boards = asyncio.run(play())
    store = Store.open(path)
    saved = store.tables()[0]
    restored = Room.restore("t1", saved.config, saved.state, store)
    hand = restored.session.hand
    assert hand is not None and hand.bomb_pot and [list(b) for b in hand.boards] == boards
    assert hand.runs_possible() == 1 and restored.config.run_it == 2
    assert hand.stakes.ante == 4 and not any(hand.stakes.blinds)  # twice the big blind
    assert restored.runner.plan_in_play is not None and restored.runner.plan_in_play.bomb_pot
    assert restored.house.since_bomb == 0 and not restored.house.bomb_next


def test_the_seven_deuce_bounty_is_in_the_ledger() -> None:
    room = Room("t3", parse_config(NIGHT | {"bots": {}, "seats": 3}), Store.in_memory())
    names = ["ann", "bob", "cy"]
    for seat, name in enumerate(names):
        room.seating.join(name, seat, chr(ord("a") + seat) * 64)
    room.runner._ledger_bounty([10, -5, -5], [0, 1, 2], names)
    ledger = room.seating.ledger()
    kinds = [(e["player"], e["kind"], e["amount"]) for e in ledger["entries"][3:]]
    assert kinds == [("ann", "bounty-won", 10), ("bob", "bounty-paid", 5), ("cy", "bounty-paid", 5)]
    rows = {r["player"]: r for r in ledger["players"]}
    assert rows["ann"]["bounties"] == 10 and rows["bob"]["bounties"] == -5
    # the bounty moved no chip in or out of the table: the buy-ins still balance
    assert ledger["chips_brought"] == 3 * 5000 and ledger["balanced"]


def test_a_seat_sitting_out_misses_the_blinds_a_new_player_does_not() -> None:
    seats = [_seat(n) for n in ("ann", "bob", "cy", "dee", "eve")]
    seats[2].sitting_out = True  # cy is away
    seats[3].waiting = True  # dee is new here
    rules = _rules({"dead_button": False}, seats, [100] * 5)
    rules.session.button = 0  # the blinds would be bob (1) and cy (2)
    rules.plan([1, 4, 0], [], {0, 1, 3, 4}, {3})
    assert rules.owes(2) == ["big"] and rules.owes(3) == []
    rules.session.button = 1  # the small blind would be cy's now, the big blind dee's
    rules.plan([4, 0, 1], [], {0, 1, 3, 4}, {3})
    assert rules.owes(2) == ["big", "small"] and rules.owes(3) == []
    # back and dealt in (at the big blind, or posting): nothing is owed any more
    seats[2].sitting_out = False
    rules.plan([3, 4, 0, 1, 2], [], {0, 1, 2, 3, 4}, set())
    assert rules.owes(2) == []


def test_a_straddle_the_game_has_stays_with_a_dead_small_blind() -> None:
    from cardlab.table.house import hand_stakes

    game = TableGame.create("standard52-holdem", blinds=(1, 2, 4))
    assert hand_stakes(game.stakes, 5, big=0, small=False).blinds == (2, 4, 0, 0, 0)
    assert hand_stakes(game.stakes, 5).blinds == (1, 2, 4, 0, 0)


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 2000),
    st.text(max_size=12),
    st.sampled_from(["utg", "button", "mississippi", "off", "UTG", "2", "1"]),
    st.lists(st.integers(0, 3), max_size=3),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "straddle",
                "bomb_pot_every",
                "bomb_pot_ante",
                "bomb_pot_boards",
                "seven_deuce",
                "dead_button",
            ]
        ),
        _VALUES,
    ),
    st.sampled_from(["standard52-holdem", "fesca78-omaha", "standard52-stud", "short36-holdem"]),
)
def test_any_home_game_settings_are_taken_or_refused_in_one_line(
    fields: dict[str, Any], game: str
) -> None:
    try:
        config = parse_config({"game": game, "seats": 4, "stack": 100} | fields)
    except (RequestError, GameError) as error:
        assert "\n" not in str(error) and str(error)
        return
    # a set-up taken is one the rules allow
    assert config.straddle in ("off", "utg", "button", "mississippi")
    assert config.bomb_pot_boards in (1, 2) and config.bomb_pot_every >= 0
    if config.bomb_pot_every or config.bomb_pot_boards == 2:
        assert config.bomb_pot_refusal() is None
    if config.seven_deuce:
        assert config.seven_deuce_refusal() is None


def test_a_bounty_goes_to_the_history_the_stacks_and_the_ledger() -> None:
    """The room's side of the bounty (who wins it is the rule's, tested above): the
    bounty of a hand is in its PHH, moved between the stacks after the pots and in the
    ledger."""

    async def play() -> tuple[Store, Room]:
        store = Store.in_memory()
        room = Room("t4", parse_config(NIGHT | {"bomb_pot_every": 0}), store)
        room.save()
        room.house.seven_deuce = lambda hand, showing=None: [15, -5, -5, -5]  # type: ignore[method-assign]
        room.wake()
        for _ in range(2000):
            await asyncio.sleep(0.01)
            if room.live() and not room.controls.paused:
                room.controls.pause(True)  # one hand only
            if room.session.hands_played >= 1 and not room.live():
                break
        room.close()
        return store, room

    store, room = asyncio.run(play())
    records = store.hands(table_id="t4", limit=5)  # the newest first (one, or two)
    record = records[0]
    history = loads(record.phh)
    assert history.user_fields["_seven_deuce"] == [15, -5, -5, -5]
    seats = [s - 1 for s in history.user_fields["_seats"]]
    finishing = list(history.finishing_stacks or ())
    for position, seat in enumerate(seats):
        bounty = [15, -5, -5, -5][position]
        assert room.session.seats[seat].stack == finishing[position] + bounty
    kinds = [(e.kind, e.amount) for e in store.ledger("t4")]
    assert kinds.count(("bounty-paid", 5)) == 3 * len(records)
    assert kinds.count(("bounty-won", 15)) == len(records)
