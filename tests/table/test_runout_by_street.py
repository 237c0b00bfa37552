"""An all-in runout dealt street by street (``runout="street"``, what a web table plays so
every page shows the exact odds on each street): the same cards, pots and stacks as the
runout dealt at once, the hands shown first as pokerkit orders them (pokerkit and
cardlab replay the history), each street waiting for ``deal_runout``, and the odds at
each pause equal to the reference evaluator's brute force over every remaining board
(each run, and each board of a double board, on its own)."""

from __future__ import annotations

import random
import warnings

import pokerkit as pk
import pytest
from test_run_it_twice import GAMES, _game, _pokerkit_replay, _shove

from cardlab.errors import ActionError
from cardlab.poker.equity import reference_equity
from cardlab.table import HandState, Phase, TableGame, phh
from cardlab.table import events as ev
from cardlab.table.history import replay, to_history
from cardlab.table.odds import AllInOdds, all_in_spots, spot_odds


def _play_out(hand: HandState, runs: int) -> list[tuple[str, int]]:
    """Choose the runs, show, deal the runout; the phases the hand waited in, with the
    board cards dealt so far."""
    waits: list[tuple[str, int]] = []
    while not hand.is_over:
        if hand.phase is Phase.RUNS:
            hand.choose_runs(min(runs, hand.legal().runs))
        elif hand.runout_paused:
            waits.append(("deal", len(hand.board)))
            hand.deal_runout()
        else:
            assert hand.phase is Phase.SHOWDOWN, hand
            waits.append(("show", len(hand.board)))
            hand.show_or_muck(True)
    return waits


def _pair(code: str, runs: int, seed: int) -> tuple[HandState, HandState, list[tuple[str, int]]]:
    game = _game(code)
    rng = random.Random(seed)
    n = rng.randint(2, 4)
    sizes = [5, 7, 9, 10, 13] if game.stakes.raise_cap else [40, 60, 100, 101, 157]
    stacks = [rng.choice(sizes) for _ in range(n)]
    street = rng.choice(["pre-flop", "flop", "turn"])
    hands = []
    waits: list[tuple[str, int]] = []
    for runout in ("all", "street"):
        hand = HandState(game, stacks, seed=seed, runs=3, showdown="manual", runout=runout)
        _shove(hand, random.Random(seed), street)
        waits = _play_out(hand, runs)
        hands.append(hand)
    return hands[0], hands[1], waits


@pytest.mark.parametrize("code", sorted(GAMES))
@pytest.mark.parametrize("runs", [1, 2])
def test_street_by_street_deals_what_the_runout_at_once_deals(code: str, runs: int) -> None:
    paused = 0
    for seed in range(20):
        at_once, by_street, waits = _pair(code, runs, seed)
        assert at_once.result is not None and by_street.result is not None
        assert by_street.runouts() == at_once.runouts()
        assert by_street.result.finishing_stacks == at_once.result.finishing_stacks
        # the same events, the shows moved before the runout's first board card
        shows = [e for e in by_street.history if isinstance(e, ev.ShowMuck)]
        rest = [e for e in by_street.history if not isinstance(e, ev.ShowMuck)]
        assert rest == [e for e in at_once.history if not isinstance(e, ev.ShowMuck)]
        assert sorted(map(str, shows)) == sorted(
            str(e) for e in at_once.history if isinstance(e, ev.ShowMuck)
        )
        if by_street.all_in_board is not None and any(w[0] == "deal" for w in waits):
            paused += 1
            last_show = max(i for i, e in enumerate(by_street.history) if e in shows)
            first_runout = min(
                i
                for i, e in enumerate(by_street.history)
                if isinstance(e, ev.DealBoard) and i > by_street.history.index(shows[0])
            )
            assert last_show < first_runout
            # one pause before each street of each run, none while a show is due
            assert [w for w in waits if w[0] == "show"] == [("show", by_street.all_in_board)] * len(
                shows
            )
        # pokerkit plays the history (its own order: shows first) to the same end
        text = phh.dumps(to_history(by_street))
        theirs = _pokerkit_replay(text)
        assert list(theirs.stacks) == list(by_street.result.finishing_stacks), text
        if by_street.runs == 1:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                *_, state = pk.HandHistory.loads(text)
            assert list(state.stacks) == list(by_street.result.finishing_stacks), text
        again = replay(phh.loads(text)).hand
        written = [e.phh_action for e in by_street.history if e.phh_action is not None]
        assert [e.phh_action for e in again.history if e.phh_action is not None] == written
    assert paused >= 8


def _equal_to_brute_force(hand: HandState, odds: AllInOdds) -> None:
    holes = [" ".join(c.ascii for c in h.cards) for h in odds.hands]
    plain = reference_equity(
        hand.game.game,
        holes,
        board=" ".join(c.ascii for c in odds.board),
        dead=" ".join(c.ascii for c in odds.dead),
    )
    assert [h.equity for h in odds.hands] == [p.equity for p in plain.players]
    assert [h.win for h in odds.hands] == [p.win for p in plain.players]
    assert odds.deals == plain.deals


def _flop_all_in(game: TableGame, **options: object) -> HandState:
    hand = HandState(game, [60, 60, 60], seed=11, showdown="manual", runout="street", **options)  # type: ignore[arg-type]
    while hand.phase is Phase.BET:
        legal = hand.legal()
        if hand.street_name == "flop" and legal.raise_max is not None:
            hand.bet_or_raise_to(legal.raise_max)
        else:
            hand.check_or_call()
    return hand


def test_each_street_waits_and_its_odds_are_the_brute_force() -> None:
    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    hand = _flop_all_in(game)
    assert hand.all_in_board == 3 and not hand.runout_paused
    # the hands are shown first, the last aggressor first: no odds before they are up
    assert hand.phase is Phase.SHOWDOWN and hand.must_show()
    with pytest.raises(ActionError, match="no street of an all-in runout is due"):
        hand.deal_runout()
    while hand.phase is Phase.SHOWDOWN:
        assert all_in_spots(hand) == []
        hand.show_or_muck(True)
    boards = []
    while not hand.is_over:
        assert hand.runout_paused and hand.phase is Phase.DEAL and hand.actor is None
        spots = all_in_spots(hand)
        assert [len(s.board) for s in spots] == list(range(3, len(hand.board) + 1))
        newest = spot_odds(hand, spots[-1])
        assert newest is not None and newest.board == tuple(hand.board)
        _equal_to_brute_force(hand, newest)
        boards.append(len(hand.board))
        hand.deal_runout()
    assert boards == [3, 4]  # the turn and the river each came on their own
    with pytest.raises(ActionError, match="the hand is over"):
        hand.deal_runout()


def test_run_twice_street_by_street_counts_each_run_from_its_own_deck() -> None:
    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    hand = _flop_all_in(game, runs=2)
    while hand.phase is Phase.RUNS:
        hand.choose_runs(2)
    while hand.phase is Phase.SHOWDOWN:
        hand.show_or_muck(True)
    seen: list[AllInOdds] = []
    while not hand.is_over:
        odds = spot_odds(hand, all_in_spots(hand)[-1])
        assert odds is not None
        seen.append(odds)
        hand.deal_runout()
    # run 1: flop, turn; run 2 starts with its own line on the shared flop (its deck
    # lacks run 1's turn and river: other odds than run 1's flop), then its own turn
    assert [(o.run, len(o.board)) for o in seen] == [(0, 3), (0, 4), (1, 3), (1, 4)]
    first, start, second = seen[0], seen[2], seen[3]
    assert start.board == first.board and not first.dead
    assert start.dead == hand.runouts()[0][3:] and len(start.dead) == 2
    assert set(second.dead) == set(hand.runouts()[0][3:]) and second.dead
    for odds in seen:
        _equal_to_brute_force(hand, odds)


def test_a_double_board_shows_each_boards_odds_street_by_street() -> None:
    game = TableGame.create("standard52-holdem", blinds=(1, 2), antes=5)
    hand = _flop_all_in(game, bomb_pot=True, boards=2)
    while hand.phase is Phase.SHOWDOWN:
        hand.show_or_muck(True)
    streets = 0
    while not hand.is_over:
        spots = all_in_spots(hand)
        now = [s for s in spots if len(s.board) == len(hand.board)]
        assert [s.on for s in now] == [0, 1]
        for spot in now:
            other = hand.boards[1 - spot.on]
            assert spot.board == tuple(hand.boards[spot.on]) and spot.dead == tuple(other)
            odds = spot_odds(hand, spot)
            assert odds is not None and odds.on == spot.on
            _equal_to_brute_force(hand, odds)
        streets += 1
        hand.deal_runout()
    assert streets == 2 and len(hand.boards[1]) == 5


@pytest.mark.parametrize("runs", [1, 2, 3])
def test_a_fair_runout_street_by_street_verifies(runs: int) -> None:
    from test_fair_runs_rabbit import SEED, _history

    from cardlab.table import dealing as d

    game = TableGame.create("fesca78-holdem", blinds=(1, 2), betting="no-limit")
    deal = d.FairDeal(d.commitment(SEED), ("a1", "", "b2"), 4)
    dealer = d.Dealer(game.game.deck, SEED, deal)
    hand = HandState(game, [100] * 3, dealer=dealer, runs=3, runout="street", showdown="manual")
    hand.bet_or_raise_to(100)
    while hand.phase is Phase.BET:
        hand.check_or_call()
    _play_out(hand, runs)
    assert hand.runs == runs
    assert d.verify_deal(_history(hand, deal)).status == "verified"
