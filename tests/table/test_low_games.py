"""Low, split and badugi games: the hand orders against pokerkit's, hands built to show
the split rules (qualifier, odd chip, scoop), razz's openers, the variants on FESCA and
TESCA decks (docs/low-games.md), and real hands of each PHH variant replayed to their
recorded stacks."""

from __future__ import annotations

import dataclasses
import itertools
import random
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pokerkit as pk
import pytest

from cardlab.cards import Card
from cardlab.decks import get_deck
from cardlab.errors import GameError, HistoryError
from cardlab.poker.batch import evaluate_batch
from cardlab.poker.games import get_game
from cardlab.poker.hands import evaluate
from cardlab.poker.lowball import LowRule, best_low, describe_low, low_key, low_order
from cardlab.poker.rules import RuleSet
from cardlab.table import HandState, TableGame, phh
from cardlab.table.history import replay, to_history
from cardlab.table.structure import SHORT_DECK, VARIANTS, phh_variant

DATA = Path(__file__).resolve().parents[1] / "data" / "phh"
STANDARD = get_deck("standard52")
RULES = get_game("standard52-draw").rules


def _text(cards: Sequence[Card]) -> str:
    return "".join(c.ascii for c in cards)


def _texts(*hands: Sequence[Card]) -> tuple[str, ...]:
    return tuple(_text(h) for h in hands)


def _sign(a: Any, b: Any) -> int:
    return int(a > b) - int(a < b)


def _pk_or_none(make: Callable[[], Any]) -> Any:
    try:
        return make()
    except ValueError:  # pokerkit: no qualifying hand
        return None


# --- hand orders against pokerkit ---------------------------------------------------

CASES = [
    # rule, cards per player, pokerkit's hand type
    (LowRule.ACE_TO_FIVE, 7, pk.RegularLowHand),
    (LowRule.EIGHT_OR_BETTER, 7, pk.EightOrBetterLowHand),
    (LowRule.DEUCE_TO_SEVEN, 5, pk.StandardLowHand),
    (LowRule.BADUGI, 4, pk.BadugiHand),
]


@pytest.mark.parametrize(("rule", "size", "kind"), CASES, ids=lambda c: str(c))
def test_low_orders_agree_with_pokerkit(rule: LowRule, size: int, kind: Any) -> None:
    rng = random.Random(7)
    cards = list(STANDARD.cards)
    qualified = 0
    for _ in range(1500):
        deal = rng.sample(cards, 2 * size)
        a, b = deal[:size], deal[size:]
        ours = [best_low(h, rule, STANDARD, RULES) for h in (a, b)]
        theirs = [_pk_or_none(lambda h=h: kind.from_game(_text(h))) for h in (a, b)]
        assert [k is None for k in ours] == [t is None for t in theirs], (a, b)
        if None not in ours:
            qualified += 1
            # pokerkit's hands compare "better is greater" like cardlab's keys
            assert _sign(ours[0], ours[1]) == _sign(theirs[0], theirs[1]), (a, b)
    assert qualified > 20  # both players qualify (eight or better: about 3% of deals)


def test_omaha_low_uses_two_hole_cards_and_three_board_cards_as_pokerkit() -> None:
    rng = random.Random(8)
    cards = list(STANDARD.cards)
    compared = 0
    for _ in range(400):
        deal = rng.sample(cards, 13)
        board, a, b = deal[:5], deal[5:9], deal[9:]
        ours = [
            best_low(h, LowRule.EIGHT_OR_BETTER, STANDARD, board=board, hole_used=2) for h in (a, b)
        ]
        theirs = [
            _pk_or_none(
                lambda h=h, b=board: pk.OmahaEightOrBetterLowHand.from_game(_text(h), _text(b))
            )
            for h in (a, b)
        ]
        assert [k is None for k in ours] == [t is None for t in theirs], (a, b, board)
        if None not in ours:
            compared += 1
            assert _sign(ours[0], ours[1]) == _sign(theirs[0], theirs[1]), (a, b, board)
    assert compared > 30


def test_the_short_deck_order_is_pokerkits() -> None:
    rules = TableGame.create("short36-holdem").game.rules
    rng = random.Random(9)
    rows = [rng.sample(range(36), 7) for _ in range(1000)]
    keys = evaluate_batch(np.array(rows, dtype=np.uint8), rules, game="best", check=False)
    cards = SHORT_DECK.cards
    hands = [
        pk.ShortDeckHoldemHand.from_game(
            _text([cards[i] for i in r[:2]]), _text([cards[i] for i in r[2:]])
        )
        for r in rows
    ]
    for i in range(0, len(rows), 2):
        assert _sign(keys[i], keys[i + 1]) == _sign(hands[i], hands[i + 1]), rows[i : i + 2]


def test_short_deck_hand_order_by_name() -> None:
    rules = TableGame.create("short36-holdem").game.rules
    flush = evaluate(SHORT_DECK.parse_cards("Ah Jh 9h 8h 6h"), rules)
    full_house = evaluate(SHORT_DECK.parse_cards("As Ad Ac Ks Kd"), rules)
    wheel = evaluate(SHORT_DECK.parse_cards("Ac 6d 7h 8s 9c"), rules)
    trips = evaluate(SHORT_DECK.parse_cards("Qs Qd Qc 7s 6d"), rules)
    assert flush > full_house  # a flush is rarer with 36 cards
    assert wheel.category.name == "STRAIGHT" and wheel > trips
    assert len(SHORT_DECK) == 36


def test_low_keys_do_not_depend_on_card_order() -> None:
    rng = random.Random(10)
    cards = list(STANDARD.cards)
    for rule, size, _ in CASES:
        for _ in range(50):
            hand = rng.sample(cards, size)
            shuffled = rng.sample(hand, size)
            assert best_low(hand, rule, STANDARD, RULES) == best_low(
                shuffled, rule, STANDARD, RULES
            )


def test_named_lows() -> None:
    def low(text: str, rule: LowRule) -> str:
        return describe_low(STANDARD.parse_cards(text), rule, STANDARD, RULES)

    assert low("Ah 2c 3d 4s 5h Kd Kc", LowRule.ACE_TO_FIVE) == "5-4-3-2-A"
    assert low("9h 2c 3d 4s 6h Kd Kc", LowRule.EIGHT_OR_BETTER) == "no low"
    assert low("8h 2c 3d 4s 6h Kd Kc", LowRule.EIGHT_OR_BETTER) == "8-6-4-3-2"
    assert low("Ah Ac 2d 2s", LowRule.BADUGI) == "2-card badugi 2-A"
    assert low("7h 5c 4d 3s 2h", LowRule.DEUCE_TO_SEVEN).endswith("(7-5-4-3-2)")
    # razz: a pair is worse than any no-pair hand, however high
    pair = low_key(STANDARD.parse_cards("Ah Ac 2d 3s 4h"), LowRule.ACE_TO_FIVE, STANDARD)
    king = low_key(STANDARD.parse_cards("Kh Qc Jd Ts 9h"), LowRule.ACE_TO_FIVE, STANDARD)
    assert pair is not None and king is not None and king > pair


# --- split pots: qualifier, odd chip, scoop ---------------------------------------


def _omaha8(holes: list[str], board: str) -> HandState:
    """Three players of fixed-limit Omaha hi-lo, antes 1 and blinds 1/2, everyone
    calling down: a pot of 9 chips."""
    game = TableGame.create("standard52-omaha8", blinds=(1, 2), antes=1)
    hand = HandState(game, [100, 100, 100], deal="manual")
    deck = game.game.deck
    for p, text in enumerate(holes):
        hand.deal_hole(p, deck.parse_cards(text))
    cards = deck.parse_cards(board)
    for count in (3, 1, 1):
        while hand.actor is not None:
            hand.check_or_call()
        hand.deal_board(cards[:count])
        cards = cards[count:]
    while not hand.is_over:
        hand.check_or_call()
    return hand


def test_a_split_pot_gives_the_odd_chip_to_the_high_half() -> None:
    # p1 the nut high (a set of kings), p2 the nut low (A-2 with 3-4-7 on board)
    hand = _omaha8(["Kc Kd Qh Qs", "Ah 2h 9c 9d", "Jc Jd Tc Td"], "3s 4d 7c Ks 8h")
    assert hand.result is not None
    assert [(a.players, a.amounts) for a in hand.result.awards] == [((0,), (5,)), ((1,), (4,))]
    assert hand.stacks == [100 - 3 + 5, 100 - 3 + 4, 97]
    assert hand.result.as_dict()["hands"][1]["low"] == "7-4-3-2-A"


def test_with_no_qualifying_low_the_high_hand_scoops() -> None:
    hand = _omaha8(["Kc Kd Qh Qs", "Ah 2h 9c 9d", "4c 4s 6c 6h"], "3s 9h Th Ks Qd")
    assert hand.result is not None
    assert [(a.players, a.amounts) for a in hand.result.awards] == [((0,), (9,))]
    assert {p.hand for p in hand.result.pots} == {"high"}


def test_a_shared_low_is_quartered_and_its_odd_chip_goes_left_of_the_button() -> None:
    # p2 and p3 hold the same low, p1 the high: 5 to the high, 4 split 2/2
    hand = _omaha8(["Kc Kd Qh Qs", "Ah 2h 9c 9d", "Ad 2c Jc Td"], "3s 4d 7c Ks 8h")
    assert hand.result is not None
    assert [(a.players, a.amounts) for a in hand.result.awards] == [
        ((0,), (5,)),
        ((1, 2), (2, 2)),
    ]


# --- razz: who brings in and who opens ------------------------------------------------


def test_razz_the_highest_up_card_brings_in_and_the_best_low_opens() -> None:
    game = TableGame.create("standard52-razz", antes=1, bring_in=1, small_bet=2)
    hand = HandState(game, [100, 100, 100], deal="manual")
    deck = game.game.deck
    for p, text in enumerate(["2c 3c Kc", "4d 5d Ks", "6h 7h Ah"]):
        hand.deal_hole(p, deck.parse_cards(text))
    # kings are the highest razz cards; equal ranks: the spade (strongest suit) brings in
    assert hand.actor == 1 and hand.legal().bring_in == 1
    hand.bring_in()
    while hand.actor is not None:
        hand.check_or_call()
    for p, text in enumerate(["Qc", "2s", "3h"]):
        hand.deal_hole(p, deck.parse_cards(text))
    # showing K-2, K-Q and A-3: the ace-three is the best low and opens
    assert hand.actor == 2


# --- other decks ---------------------------------------------------------------------


def test_the_low_order_of_each_deck() -> None:
    assert low_order(STANDARD)[:3] == ("A", "2", "3")
    assert low_order(get_deck("FESCA78"))[:3] == ("Z", "1", "2")
    assert low_order(get_deck("FESCA60"))[:2] == ("1", "2")  # no ZAT: a line
    assert low_order(get_deck("TESCA52"))[-1] == "12"


def test_eight_or_better_on_fesca_qualifies_the_eight_lowest_ranks() -> None:
    deck = get_deck("FESCA78")
    best = deck.parse_cards("木Z 火1 土2 金3 水4")
    seven = deck.parse_cards("木7 火1 土2 金3 水4")
    eight = deck.parse_cards("木8 火1 土2 金3 水4")
    lows = [best_low(h, LowRule.EIGHT_OR_BETTER, deck) for h in (best, seven, eight)]
    assert lows[0] is not None and lows[1] is not None and lows[0] > lows[1]
    assert lows[2] is None


def test_deuce_to_seven_reverses_the_decks_high_order() -> None:
    game = get_game("fesca78-draw")
    deck, rules = game.deck, game.rules
    rng = random.Random(11)
    for _ in range(200):
        a, b = rng.sample(list(deck.cards), 5), rng.sample(list(deck.cards), 5)
        if set(a) & set(b):
            continue
        high = _sign(evaluate(a, rules).key, evaluate(b, rules).key)
        low = _sign(
            low_key(a, LowRule.DEUCE_TO_SEVEN, deck, rules),
            low_key(b, LowRule.DEUCE_TO_SEVEN, deck, rules),
        )
        assert low == -high


@pytest.mark.parametrize(
    "key",
    [
        "fesca78-razz",
        "tesca52-stud8",
        "fesca60-omaha8",
        "fesca78-27-single-draw",
        "tesca54-27-triple-draw",
        "tesca52-badugi",
        "fesca42-badugi",
        "short36-holdem",
        "standard52-omaha8",
        "standard52-razz",
    ],
)
def test_every_variant_plays_on_fesca_and_tesca_decks(key: str) -> None:
    game = TableGame.create(key)
    showdowns = 0
    for seed in range(12):
        hand = HandState(game, [200] * 4, seed=seed)
        rng = random.Random(seed)
        while not hand.is_over:
            legal = hand.legal()
            if legal.discard:
                held = [c for c in hand.hole[legal.player] if c is not None]
                hand.discard(rng.sample(held, rng.randint(0, len(held))))
            elif legal.bring_in is not None:
                hand.bring_in()
            elif legal.raise_min is not None and rng.random() < 0.3:
                hand.bet_or_raise_to(legal.raise_min)
            else:
                hand.check_or_call()
        assert hand.result is not None and sum(hand.stacks) == 800
        showdowns += hand.result.showdown
        # the hand is kept as PHH and replays to the same stacks
        again = replay(phh.loads(phh.dumps(to_history(hand))))
        assert again.hand.stacks == hand.stacks
    assert showdowns > 3


def test_short_deck_has_no_meaning_on_other_decks() -> None:
    with pytest.raises(GameError, match="no meaning on the FESCA78 deck") as info:
        phh_variant("NS", get_deck("FESCA78"))
    assert "\n" not in str(info.value) and "'NS'" in str(info.value)
    history = phh.loads((DATA / "phua-xuan-2019.phh").read_text())
    history = dataclasses.replace(history, actions=(), user_fields={"_deck": "FESCA78"})
    with pytest.raises(HistoryError, match="short-deck Hold'em") as refused:
        replay(history)
    assert "FESCA78" in str(refused.value)


def test_an_unknown_game_names_the_variants() -> None:
    with pytest.raises(GameError, match=r"unknown game 'standard52-lowball'.*razz"):
        TableGame.create("standard52-lowball")
    with pytest.raises(GameError, match="unknown variant 'seven'"):
        TableGame.create("standard52-stud", variant="seven")
    with pytest.raises(GameError, match="Razz is played with stud"):
        TableGame.create("standard52-holdem", variant="razz")


def test_each_phh_variant_names_its_game() -> None:
    assert phh_variant("FR", STANDARD) == ("standard52-razz", VARIANTS["razz"].betting)
    assert phh_variant("NS", STANDARD)[0] == "short36-holdem"
    for code in ("FO/8", "F7S/8", "FR", "N2L1D", "F2L3D", "FB", "NS"):
        key, betting = phh_variant(code, STANDARD)
        game = TableGame.create(key, betting=betting)
        assert to_history_code(game) == code


def to_history_code(game: TableGame) -> str:
    from cardlab.table.history import variant_code

    return variant_code(game)


# --- real hands -------------------------------------------------------------------------

REAL = {
    "wsop-2023-43-5-03-42-38.phh": "FO/8",
    "wsop-2023-43-5-02-09-20.phh": "F7S/8",
    "wsop-2023-43-5-01-13-57.phh": "FR",
    "wsop-2023-43-5-03-48-33.phh": "FR",
    "wsop-2023-43-5-02-01-50.phh": "N2L1D",
    "wsop-2023-43-5-02-29-59.phh": "F2L3D",
    "wsop-2023-43-5-50.phh": "F7S/8",
    "arieh-yockey-2019.phh": "F2L3D",
    "phua-xuan-2019.phh": "NS",
    "alice-carol-wikipedia.phh": "FB",
}


def _pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, state = pk.HandHistory.loads(text)
    return list(state.stacks)


@pytest.mark.parametrize(("name", "variant"), REAL.items())
def test_real_hands_replay_to_their_recorded_stacks(name: str, variant: str) -> None:
    text = (DATA / name).read_text("utf-8")
    history = phh.loads(text)
    assert history.variant == variant
    r = replay(history, label=name)
    assert r.hand.is_over
    # the file's own record where it has one, else pokerkit's replay of the file
    expected = history.finishing_stacks or _pokerkit_stacks(text)
    assert r.finishing_stacks == list(expected)


def test_a_real_hand_pokerkit_refuses_is_refused_with_its_action() -> None:
    # hand 85 of the same table: "p2 cbr 750000" raises by less than a full raise
    text = (DATA / "refused" / "wsop-2023-43-5-03-50-24.phh").read_text("utf-8")
    with pytest.raises(HistoryError, match=r"actions\[18\] 'p2 cbr 750000'"):
        replay(phh.loads(text))
    with pytest.raises(ValueError):
        _pokerkit_stacks(text)


def test_every_hand_of_a_variant_has_its_cards() -> None:
    # a badugi deal is four cards, triple draw five
    badugi = HandState(TableGame.create("standard52-badugi"), [50, 50, 50], seed=3)
    assert {len(h) for h in badugi.hole} == {4}
    triple = TableGame.create("standard52-27-triple-draw")
    assert [s.draw for s in triple.streets] == [False, True, True, True]
    assert [s.big for s in triple.streets] == [False, False, True, True]
    assert list(itertools.accumulate(s.draw for s in triple.streets))[-1] == 3


def test_a_hand_that_wins_only_the_low_half_wins_a_share() -> None:
    from cardlab.table.showdown import wins_a_share

    hand = _omaha8(["Kc Kd Qh Qs", "Ah 2h 9c 9d", "Jc Jd Tc Td"], "3s 4d 7c Ks 8h")
    assert wins_a_share(hand, 1, [0]) and wins_a_share(hand, 0, [1])
    assert not wins_a_share(hand, 2, [0, 1])  # no low, and the high is beaten


def test_deuce_to_seven_plays_the_ace_high_only() -> None:
    """A-2-3-4-5 is ace-high in deuce-to-seven, no straight: it beats trip kings, as
    pokerkit scores it (a straight, 2-3-4-5-6, does not)."""
    rules = RuleSet.for_deck("standard52")
    deck = rules.deck

    def deuce(text: str) -> Any:
        return low_key(deck.parse_cards(text), LowRule.DEUCE_TO_SEVEN, deck, rules)

    trips = "Ks Kd Kh 2c 3d"
    for hand in ("As 2c 3d 4h 5s", "2s 3c 4d 5h 6s", "Ah 2c 3d 4h 6s"):
        theirs = pk.StandardLowHand(hand.replace(" ", "")) > pk.StandardLowHand(
            trips.replace(" ", "")
        )
        assert (deuce(hand) > deuce(trips)) is theirs, hand
    assert deuce("As 2c 3d 4h 5s") > deuce("Ks Kd Kh 2c 3d")
