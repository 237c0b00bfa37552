"""Laws of the table engine on every base game and deck (hypothesis).

Chips are conserved at every step; an action out of turn or outside the legal range
raises ActionError and changes nothing; every hand ends; a seat view never holds a
card dealt face down to someone else.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.cards import Card
from cardlab.errors import ActionError
from cardlab.table import Action, HandState, Phase, TableGame, apply, seat_view

GAMES = [
    "standard52-holdem",
    "fesca78-holdem",
    "fesca60-omaha",
    "standard52-omaha",
    "fesca78-stud",
    "standard52-stud",
    "tesca54-draw",
    "fesca42-draw",
]

_games: dict[tuple[str, str | None], TableGame] = {}


def table_game(key: str, betting: str | None = None) -> TableGame:
    if (key, betting) not in _games:
        _games[key, betting] = TableGame.create(key, betting=betting)
    return _games[key, betting]


def snapshot(h: HandState) -> tuple[object, ...]:
    return (
        list(h.stacks),
        list(h.bets),
        list(h.alive),
        [list(x) for x in h.hole],
        list(h.board),
        len(h.history),
        h.actor,
        h.phase,
    )


def random_action(h: HandState, rng: random.Random) -> Action:
    legal = h.legal()
    if legal.phase is Phase.DRAW:
        held = [c for c in h.hole[legal.player] if c is not None]
        return Action.discard(tuple(rng.sample(held, rng.randint(0, len(held)))))
    if legal.phase is Phase.SHOWDOWN:
        return Action.show()
    options = []
    if legal.fold:
        options.append(Action.fold())
    if legal.call is not None:
        options.append(Action.call())
    if legal.bring_in is not None:
        options.append(Action.bring_in())
    if legal.raise_min is not None and legal.raise_max is not None:
        options.append(Action.raise_to(rng.randint(legal.raise_min, legal.raise_max)))
    return rng.choice(options)


def illegal_actions(h: HandState, rng: random.Random) -> list[Action]:
    legal = h.legal()
    bad: list[Action] = []
    if legal.phase is not Phase.BET:
        bad += [Action.call(), Action.fold(), Action.raise_to(10**9)]
        if legal.phase is Phase.DRAW:
            foreign = [c for c in h.game.game.deck.cards if c not in h.hole[legal.player]]
            bad.append(Action.discard((rng.choice(foreign),)))
        return bad
    if not legal.fold:
        bad.append(Action.fold())
    if legal.raise_min is None:
        bad.append(Action.raise_to(10**6))
    else:
        assert legal.raise_max is not None
        bad.append(Action.raise_to(legal.raise_max + 1))
        if legal.raise_min > 1:
            bad.append(Action.raise_to(legal.raise_min - 1))
    if legal.bring_in is None:
        bad.append(Action.bring_in())
    else:
        bad.append(Action.call())
    bad.append(Action.discard())
    return bad


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    betting=st.sampled_from([None, "no-limit", "pot-limit", "fixed-limit"]),
    stacks=st.lists(st.integers(1, 400), min_size=2, max_size=10),
    seed=st.integers(0, 2**32),
)
def test_chips_conserved_illegal_refused_hands_end(
    game: str, betting: str | None, stacks: list[int], seed: int
) -> None:
    g = table_game(game, betting)
    stacks = stacks[: g.max_seats]
    rng = random.Random(seed)
    h = HandState(g, stacks, seed=seed)
    total = sum(stacks)
    for _ in range(500):
        assert h.chips == total
        if h.is_over:
            break
        for bad in illegal_actions(h, rng):
            before = snapshot(h)
            with pytest.raises(ActionError):
                apply(h, bad)
            assert snapshot(h) == before
        apply(h, random_action(h, rng))
    assert h.is_over, "the hand did not end in 500 decisions"
    assert h.result is not None
    assert sum(h.result.finishing_stacks) == total
    assert list(h.result.finishing_stacks) == h.stacks


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32), viewer=st.integers(0, 5))
def test_a_seat_view_holds_no_hidden_card(game: str, seed: int, viewer: int) -> None:
    g = table_game(game)
    h = HandState(g, [100] * 6, seed=seed)
    rng = random.Random(seed)
    while not h.is_over:
        view = seat_view(h, viewer)
        hidden = {
            c
            for i in range(h.players)
            if i != viewer
            for c, up in zip(h.hole[i], h.up[i], strict=True)
            if not up and c is not None
        }
        # what the view tells of the others (the viewer's own discards may come back
        # to someone else after a reshuffle: knowing them is no leak)
        seen: set[Card] = {
            c for p in view.players if p.position != viewer for c in p.cards if c is not None
        }
        for event in view.history:
            if getattr(event, "player", viewer) == viewer:
                continue
            for c in getattr(event, "cards", None) or ():
                if isinstance(c, Card):
                    seen.add(c)
        assert not hidden & seen
        apply(h, random_action(h, rng))


def test_out_of_turn_is_refused() -> None:
    h = HandState(table_game("fesca78-holdem"), [50, 50, 50], seed=3)
    assert h.actor == 2
    before = snapshot(h)
    with pytest.raises(ActionError):
        h.deal_board(list(h.game.game.deck.cards[:3]))
    with pytest.raises(ActionError):
        h.show_or_muck()
    assert snapshot(h) == before
    clone = copy.deepcopy(h)
    clone.check_or_call()
    assert clone.actor == 0 and h.actor == 2


def test_heads_up_button_posts_small_blind_and_acts_first() -> None:
    h = HandState(TableGame.create("standard52-holdem", blinds=(5, 10)), [500, 500], seed=1)
    assert h.bets == [10, 5]  # position 1 is the button
    assert h.actor == 1
    h.check_or_call()
    h.check_or_call()
    assert h.street_name == "flop" and h.actor == 0  # after the flop the button acts last


def test_all_in_short_raise_does_not_reopen_betting() -> None:
    # no-limit, blinds 1/2: p3 raises to 10, p1 (SB) goes all-in for 14 (a short raise
    # of 4 < 8), p2 folds; p3 may only call or fold, not re-raise
    g = TableGame.create("standard52-holdem", blinds=(1, 2))
    h = HandState(g, [14, 200, 200], seed=5)
    h.bet_or_raise_to(10)
    h.bet_or_raise_to(14)
    h.fold()
    legal = h.legal()
    assert legal.player == 2
    assert legal.call == 4
    assert legal.raise_min is None
    with pytest.raises(ActionError, match=r"not reopened|short"):
        h.bet_or_raise_to(40)


def test_minimum_raise_is_the_last_full_raise() -> None:
    g = TableGame.create("standard52-holdem", blinds=(1, 2))
    h = HandState(g, [500] * 4, seed=2)
    h.bet_or_raise_to(12)  # a raise of 10
    assert h.legal().raise_min == 22
    h.bet_or_raise_to(40)  # a raise of 28
    assert h.legal().raise_min == 68


def test_uncalled_bet_returns() -> None:
    g = TableGame.create("standard52-holdem", blinds=(1, 2))
    h = HandState(g, [100, 100, 100], seed=4)
    h.bet_or_raise_to(60)
    h.fold()
    h.fold()
    assert h.is_over and h.result is not None
    assert h.result.winnings == (-1, -2, 3)


def test_draw_reshuffles_discards_when_the_stub_runs_out() -> None:
    # FESCA42 draw with 8 players: 40 cards dealt, 2 left; big discards force a reshuffle
    g = TableGame.create("fesca42-draw")
    for seed in range(40):
        h = HandState(g, [100] * g.max_seats, seed=seed)
        while h.phase is Phase.BET:
            h.check_or_call()
        while h.phase is Phase.DRAW:
            held = [c for c in h.hole[h.legal().player] if c is not None]
            h.discard(held)
        if any(type(e).__name__ == "Reshuffle" for e in h.history):
            cards = [c for hole in h.hole for c in hole if c is not None]
            assert len(cards) == len(set(cards))  # nothing dealt twice
            return
    pytest.fail("no reshuffle happened")


def test_stud_bring_in_is_the_lowest_up_card_by_suit_order_on_fesca() -> None:
    g = TableGame.create("fesca78-stud")
    rules = g.game.rules
    for seed in range(30):
        h = HandState(g, [100] * 5, seed=seed)
        ups = [h.up_cards(i)[0] for i in range(5)]
        lowest = min(ups, key=lambda c: (c.rank.value, rules.suit_order.index(c.suit)))
        assert h.actor == ups.index(lowest)
        assert h.legal().bring_in == g.stakes.bring_in
