"""Run it twice and the rabbit hunt under the fair shuffle: the order docs/fair-dealing.md
writes (every run's board, then the rabbit, dealt on from the top of the same deck), and
``cardlab verify`` accepting those deals and rejecting a changed second run or rabbit."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from test_dealing import reference_shuffle

from cardlab.cli import main
from cardlab.table import HandState, TableGame, phh
from cardlab.table import dealing as d
from cardlab.table import phh_actions as pa
from cardlab.table.history import to_history
from cardlab.table.state import Phase

SEED = bytes(range(32))
GAMES = ["standard52-holdem", "fesca78-holdem", "short36-holdem", "standard52-omaha"]


def _fair_hand(key: str, runs: int, number: int) -> tuple[HandState, d.FairDeal]:
    game = TableGame.create(key, blinds=(1, 2), betting="no-limit")
    deal = d.FairDeal(d.commitment(SEED), ("a1", "", "b2"), number)
    dealer = d.Dealer(game.game.deck, SEED, deal)
    hand = HandState(game, [100, 100, 100], dealer=dealer, runs=3)
    hand.bet_or_raise_to(100)
    while hand.phase is Phase.BET:
        hand.check_or_call()
    while hand.phase is Phase.RUNS:
        hand.choose_runs(runs)
    return hand, deal


def _history(hand: HandState, deal: d.FairDeal) -> phh.HandHistory:
    deck = hand.game.game.deck
    fields = deal.user_fields() | d.revealed_fields(SEED, deck, deal)
    return to_history(hand, user_fields=fields)


@pytest.mark.parametrize("key", GAMES)
def test_runs_come_from_the_top_in_the_documented_order(key: str) -> None:
    hand, deal = _fair_hand(key, 2, 7)
    deck = hand.game.game.deck
    # the docs' order: hole cards player by player, then run 1's flop, turn, river,
    # then run 2's, each card the next from the top, no burns
    top = reference_shuffle(list(deck.cards), SEED, list(deal.client_seeds), 7)
    hole = sum(len(h) for h in hand.hole)
    assert [c for h in hand.hole for c in h] == top[:hole]
    boards = hand.runouts()
    assert len(boards) == 2
    assert list(boards[0]) == top[hole : hole + 5]
    assert list(boards[1]) == top[hole + 5 : hole + 10]
    history = _history(hand, deal)
    assert d.verify_deal(history).status == "verified"


def _swap_in_run_two(history: phh.HandHistory) -> phh.HandHistory:
    """The second run's river changed for a card nobody was dealt."""
    actions = list(history.actions)
    last = max(i for i, a in enumerate(actions) if str(a).startswith("d db"))
    bottom = history.deck.parse_cards(history.user_fields["_shuffled_deck"])[-1]  # never dealt
    actions[last] = pa.parse_action(f"d db {bottom.ascii}")
    return dataclasses.replace(history, actions=tuple(actions))


def _run(argv: list[str]) -> int:
    try:
        main(argv)
    except SystemExit as ended:
        return int(ended.code or 0)
    return 0


def test_cardlab_verify_accepts_runs_and_rejects_a_changed_second_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand, deal = _fair_hand("fesca78-holdem", 3, 11)
    assert hand.runs == 3
    history = _history(hand, deal)
    good = tmp_path / "runs.phh"
    good.write_text(phh.dumps(history), encoding="utf-8")
    assert _run(["verify", str(good)]) == 0
    assert "verified" in capsys.readouterr().out
    bad = tmp_path / "changed.phh"
    bad.write_text(phh.dumps(_swap_in_run_two(history)), encoding="utf-8")
    assert _run(["verify", str(bad)]) == 1
    assert "failed" in capsys.readouterr().out


def _folded_hand(key: str, number: int) -> tuple[HandState, d.FairDeal]:
    game = TableGame.create(key, blinds=(1, 2), betting="no-limit")
    deal = d.FairDeal(d.commitment(SEED), ("", "c3"), number)
    hand = HandState(game, [50, 50], dealer=d.Dealer(game.game.deck, SEED, deal))
    hand.check_or_call()
    hand.check_or_call()  # the flop
    hand.bet_or_raise_to(4)
    hand.fold()
    return hand, deal


@pytest.mark.parametrize("key", GAMES)
def test_the_rabbit_is_the_next_cards_of_the_deck(key: str) -> None:
    hand, deal = _folded_hand(key, 3)
    assert hand.rabbit_due() == 2  # the turn and the river
    rabbit = hand.rabbit_hunt()
    assert hand.rabbit_hunt() == rabbit  # asking again shows the same cards
    deck = hand.game.game.deck
    top = reference_shuffle(list(deck.cards), SEED, list(deal.client_seeds), 3)
    used = sum(len(h) for h in hand.hole) + len(hand.board)
    assert list(rabbit) == top[used : used + 2]
    assert hand.board == top[used - 3 : used]  # the rabbit is no part of the hand
    history = _history(hand, deal)
    assert history.user_fields["_rabbit"] == " ".join(c.ascii for c in rabbit)
    assert d.verify_deal(history).status == "verified"
    cheat = dict(history.user_fields)
    cheat["_rabbit"] = " ".join(c.ascii for c in reversed(rabbit))
    bad = d.verify_deal(dataclasses.replace(history, user_fields=cheat))
    assert bad.status == "failed" and "rabbit card 1" in bad.detail


def test_no_rabbit_after_a_showdown_or_in_stud() -> None:
    hand, _ = _fair_hand("standard52-holdem", 1, 4)
    assert hand.rabbit_due() == 0
    with pytest.raises(Exception, match="no rabbit"):
        hand.rabbit_hunt()
    game = TableGame.create("standard52-stud", bring_in=1, small_bet=2, big_bet=4)
    stud = HandState(game, [20, 20], seed=1)
    stud.bring_in()
    stud.fold()
    assert stud.rabbit_due() == 0


def _double_board(dealer: d.Dealer | None, fold: bool) -> HandState:
    """A double-board bomb pot, three players: a bet on the flop, then both others fold
    (``fold``) or everyone checks it down."""
    game = TableGame.create("standard52-holdem", blinds=(1, 2), antes=5)
    hand = HandState(game, [100, 100, 100], seed=21, dealer=dealer, bomb_pot=True, boards=2)
    assert len(hand.board) == 3 and hand.phase is Phase.BET
    if fold:
        hand.bet_or_raise_to(10)
        hand.fold()
        hand.fold()
    else:
        while hand.phase is Phase.BET:
            hand.check_or_call()
        while not hand.is_over:
            hand.show_or_muck(True)
    return hand


@pytest.mark.parametrize("fair", [False, True])
def test_a_double_boards_rabbit_is_what_each_board_would_have_brought(fair: bool) -> None:
    deal = d.FairDeal(d.commitment(SEED), ("", "c3", "d4"), 5)

    def dealer() -> d.Dealer | None:
        game = TableGame.create("standard52-holdem")
        return d.Dealer(game.game.deck, SEED, deal) if fair else None

    folded = _double_board(dealer(), fold=True)
    assert folded.rabbit_due() == 4  # the turn and the river, to each board
    rabbit = folded.rabbit_hunt()
    # the same deal checked down: each board's turn and river are its rabbit
    played = _double_board(dealer(), fold=False)
    assert [b[:3] for b in played.boards] == [b[:3] for b in folded.boards]
    assert folded.rabbit_boards() == tuple(tuple(b[3:]) for b in played.boards)
    assert sorted(map(str, rabbit)) == sorted(str(c) for b in played.boards for c in b[3:])
    if fair:  # the next cards from the top, in the order the hand would have dealt
        deck = folded.game.game.deck
        top = reference_shuffle(list(deck.cards), SEED, list(deal.client_seeds), 5)
        used = sum(len(h) for h in folded.hole) + 6
        assert list(rabbit) == top[used : used + 4]
        history = _history(folded, deal)
        assert d.verify_deal(history).status == "verified"
