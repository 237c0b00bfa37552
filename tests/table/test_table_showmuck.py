"""Showing and mucking: the show queue at the showdown, and the winner of an uncontested
pot who shows after the hand (``pN sm CARDS`` after the folds, as real hand histories
have it and pokerkit accepts). Such a show changes no chip and not the result, is
written to PHH, replays on cardlab and on pokerkit to the same end, and only the winner
may make it, once."""

from __future__ import annotations

import random
import warnings

import pokerkit as pk
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.cards import Card
from cardlab.errors import ActionError, HistoryError
from cardlab.table import Action, HandState, Phase, TableGame, apply, phh, seat_view
from cardlab.table import events as ev
from cardlab.table.actions import check_action, legal_actions
from cardlab.table.history import replay, to_history

# (game, betting): the first four are PHH variants pokerkit plays (NT, FT, PO, F7S)
POKERKIT_GAMES = [
    ("standard52-holdem", "no-limit"),
    ("standard52-holdem", "fixed-limit"),
    ("standard52-omaha", "pot-limit"),
    ("standard52-stud", "fixed-limit"),
]
CARDLAB_GAMES = [
    ("fesca78-holdem", None),
    ("fesca60-omaha", None),
    ("fesca78-stud", None),
    ("tesca54-draw", None),
]

_games: dict[tuple[str, str | None], TableGame] = {}


def table_game(key: str, betting: str | None) -> TableGame:
    if (key, betting) not in _games:
        _games[key, betting] = TableGame.create(key, betting=betting)
    return _games[key, betting]


def fold_heavy_hand(game: TableGame, stacks: list[int], seed: int) -> HandState:
    """A random hand (manual showdown) whose players fold often, so most hands end
    uncontested; at a showdown each shows, or mucks when the rules let them."""
    rng = random.Random(seed)
    h = HandState(game, stacks, seed=seed, showdown="manual")
    while not h.is_over:
        legal = h.legal()
        if legal.phase is Phase.DRAW:
            held = [c for c in h.hole[legal.player] if c is not None]
            apply(h, Action.discard(tuple(rng.sample(held, rng.randint(0, len(held))))))
            continue
        if legal.phase is Phase.SHOWDOWN:
            muck = rng.random() < 0.3 and h.can_show_or_muck(False)
            apply(h, Action.muck() if muck else Action.show())
            continue
        options = [Action.fold()] * 3 if legal.fold else []
        if legal.call is not None:
            options.append(Action.call())
        if legal.bring_in is not None:
            options.append(Action.bring_in())
        if legal.raise_min is not None and legal.raise_max is not None:
            options += [Action.raise_to(rng.randint(legal.raise_min, legal.raise_max))] * 2
        apply(h, rng.choice(options))
    return h


def uncontested_hand(game: TableGame, stacks: list[int], seed: int) -> HandState:
    for attempt in range(200):
        h = fold_heavy_hand(game, stacks, seed + attempt)
        if h.winner_may_show is not None:
            return h
    raise AssertionError("no hand ended uncontested")


def pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, state = pk.HandHistory.loads(text)
    return list(state.stacks)


def hole(h: HandState, player: int) -> tuple[Card, ...]:
    return tuple(c for c in h.hole[player] if c is not None)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(POKERKIT_GAMES + CARDLAB_GAMES),
    stacks=st.lists(st.integers(15, 400), min_size=2, max_size=7),  # all-ins too
    seed=st.integers(0, 2**32),
)
def test_a_show_after_an_uncontested_pot_round_trips(
    game: tuple[str, str | None], stacks: list[int], seed: int
) -> None:
    g = table_game(*game)
    h = uncontested_hand(g, stacks[: g.max_seats], seed)
    assert h.result is not None and not h.result.showdown
    (winner,) = h.in_hand()
    assert h.winner_may_show == winner
    chips, result, events = list(h.stacks), h.result, list(h.history)
    cards = hole(h, winner)

    event = apply(h, Action.show())

    # the show is recorded and changes nothing else
    assert event == ev.ShowMuck.played(winner, cards)
    assert h.history == [*events, event]
    assert h.stacks == chips and h.result is result and list(result.finishing_stacks) == chips
    assert h.winner_may_show is None and h.has_shown(winner)
    # written after the folds (and the awards, which PHH leaves implicit)
    history = to_history(h)
    text = phh.dumps(history)
    token = "".join(c.ascii for c in cards)
    assert str(history.actions[-1]) == f"p{winner + 1} sm {token}"
    assert any(str(a).endswith(" f") for a in history.actions)
    # and replayed: the same hand, event for event, with the show
    again = replay(phh.loads(text)).hand
    assert again.stacks == chips
    assert [e.phh for e in again.history] == [e.phh for e in h.history]
    assert again.shown_hands() == {winner: cards}
    assert again.winner_may_show is None
    if game in POKERKIT_GAMES:  # pokerkit replays the same text to the same stacks
        assert pokerkit_stacks(text) == chips


# --- the PHH of real files --------------------------------------------------------------

HEADS_UP = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = [{actions}]
"""


def heads_up(*actions: str) -> str:
    return HEADS_UP.format(actions=", ".join(f"'{a}'" for a in actions))


@pytest.mark.parametrize(
    "deals", [("d dh p1 AcKd", "d dh p2 AsTd"), ("d dh p1 ????", "d dh p2 ????")]
)
def test_a_real_files_show_after_the_folds_replays(deals: tuple[str, str]) -> None:
    text = heads_up(*deals, "p2 cbr 6", "p1 f", "p2 sm AsTd")
    r = replay(phh.loads(text))
    assert r.finishing_stacks == [198, 202] == pokerkit_stacks(text)
    assert "".join(c.ascii for c in r.hand.shown_hands()[1]) == "AsTd"
    assert r.hand.result is not None and r.hand.result.decided_by == "uncontested"
    assert str(r.hand.history[-1]) == "p2 sm AsTd"
    # written back as it was read
    assert str(to_history(r.hand).actions[-1]) == "p2 sm AsTd"


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("p1 sm AcKd", "only its winner"),  # the folder
        ("p2 sm", "nobody mucks"),
        ("p2 sm 2c3c", "not the cards they hold"),
    ],
)
def test_a_show_after_the_folds_that_the_rules_refuse(line: str, why: str) -> None:
    text = heads_up("d dh p1 AcKd", "d dh p2 AsTd", "p2 cbr 6", "p1 f", line)
    with pytest.raises(HistoryError, match=why):
        replay(phh.loads(text))


# --- refusals ---------------------------------------------------------------------------


def snapshot(h: HandState) -> tuple[object, ...]:
    return (list(h.stacks), list(h.alive), len(h.history), h.winner_may_show, h.shown_hands())


def folded_to_p2() -> HandState:
    h = HandState(table_game("standard52-holdem", "no-limit"), [200, 200, 200], seed=11)
    h.fold()  # the button folds; the small blind folds to the big blind
    h.fold()
    assert h.is_over and h.winner_may_show == 1
    return h


def test_a_loser_cannot_show_after_the_end() -> None:
    h = folded_to_p2()
    before = snapshot(h)
    for loser in (0, 2):
        assert not h.can_show_or_muck(True, player=loser)
        with pytest.raises(ActionError, match=rf"p{loser + 1} cannot show.*only its winner \(p2\)"):
            h.show_or_muck(True, player=loser)
    with pytest.raises(ActionError, match="nobody mucks now"):
        check_action(h, Action.muck())
    with pytest.raises(ActionError, match="nobody mucks now"):
        apply(h, Action.muck())
    assert snapshot(h) == before


def test_nobody_shows_twice() -> None:
    h = folded_to_p2()
    check_action(h, Action.show())  # the Action API takes the show after the hand
    shown = apply(h, Action.show())
    assert shown == ev.ShowMuck.played(1, hole(h, 1))
    before = snapshot(h)
    for attempt in (lambda: apply(h, Action.show()), lambda: h.show_or_muck(True, player=1)):
        with pytest.raises(ActionError, match="p2 has already shown"):
            attempt()
    assert snapshot(h) == before
    with pytest.raises(ActionError, match="nobody is to act"):
        legal_actions(h)  # a show after the hand is nobody's turn


def test_after_a_showdown_nobody_shows_again() -> None:
    h = HandState(table_game("standard52-holdem", "no-limit"), [200, 200], seed=5)
    while not h.is_over:
        h.check_or_call()
    assert h.result is not None and h.result.showdown
    before = snapshot(h)
    for player in (0, 1):
        with pytest.raises(ActionError, match="was shown down"):
            h.show_or_muck(True, player=player)
    assert h.winner_may_show is None and snapshot(h) == before


def test_before_the_end_the_showdown_rules_hold() -> None:
    g = table_game("standard52-holdem", "no-limit")
    h = HandState(g, [200, 200, 200], seed=3, showdown="manual")
    # during the betting nobody shows
    with pytest.raises(ActionError, match="nobody shows down now"):
        check_action(h, Action.show())
    h.fold()  # p3 (the button) folds; p1 and p2 see it to the river, p2 bets, p1 calls
    while h.street_name != "river" or h.actor != 1:
        h.check_or_call()
    h.bet_or_raise_to(10)
    h.check_or_call()
    assert h.phase is Phase.SHOWDOWN and h.winner_may_show is None
    # the folder is not at the showdown; the last aggressor (p2) shows first, by rule
    with pytest.raises(ActionError, match="p3 is not at the showdown"):
        h.show_or_muck(True, player=2)
    assert h.actor == 1 and h.must_show()
    assert h.legal().phase is Phase.SHOWDOWN
    view = seat_view(h, 0)
    assert view.players[1].cards == (None, None)  # not shown yet
    apply(h, Action.show())
    # shown hands are public at once (p1 decides with them in view); p1 may muck
    assert seat_view(h, 0).players[1].cards == hole(h, 1)
    assert h.actor == 0 and not h.must_show()
    assert [str(a) for a in legal_actions(h)] == ["s", "m"]
    apply(h, Action.muck())
    assert h.is_over and h.result is not None
    # p2 showed, so p2 has nothing left to show; p1's mucked cards stay hidden
    assert h.winner_may_show is None and h.shown_hands() == {1: hole(h, 1)}
    assert seat_view(h, 2).players[0].cards == (None, None)
    with pytest.raises(ActionError, match="already shown"):
        h.show_or_muck(True)


def test_the_last_player_in_the_hand_cannot_muck() -> None:
    h = HandState(
        table_game("standard52-holdem", "no-limit"), [200, 200], seed=3, showdown="manual"
    )
    while h.phase is Phase.BET:
        h.check_or_call()
    apply(h, Action.muck())  # the first to show gives up (the engine takes it; PHH has it)
    before = snapshot(h)
    assert not h.can_show_or_muck(False)
    with pytest.raises(ActionError, match="p2 cannot muck: they are the last player"):
        apply(h, Action.muck())
    assert snapshot(h) == before
    apply(h, Action.show())
    assert h.is_over and h.result is not None and h.result.winnings == (-2, 2)


def test_an_all_in_showdown_turns_every_hand_up() -> None:
    h = HandState(
        table_game("standard52-holdem", "no-limit"), [50, 50, 200], seed=9, showdown="manual"
    )
    h.fold()  # p3 folds; p1 moves in, p2 calls
    h.bet_or_raise_to(50)
    h.check_or_call()
    assert h.phase is Phase.SHOWDOWN
    order = []
    while not h.is_over:
        assert h.must_show()  # every hand, not only the first
        order.append(h.actor)
        apply(h, Action.show())
    assert order == [0, 1]  # the last aggressor first
    assert h.result is not None and h.result.showdown


def test_a_show_after_the_hand_is_seen_by_everyone() -> None:
    h = folded_to_p2()
    assert seat_view(h, 0).players[1].cards == (None, None)
    apply(h, Action.show())
    for viewer in (0, 2, None):
        view = seat_view(h, viewer)
        assert view.players[1].cards == hole(h, 1)
        assert view.players[0].cards == (None, None) or viewer == 0
        assert view.history[-1] == ev.ShowMuck.played(1, hole(h, 1))
