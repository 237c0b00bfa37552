"""The table's fast paths against their plain references (issue 20, item 9).

- the showdown's plain-Python keys (:mod:`cardlab.poker._few_hands`) against the
  compiled kernels and the reference evaluator, on random hands of several decks and
  rule options, Hold'em-style best five and Omaha's two-plus-three; deuce-to-seven's
  best low against the reference low key;
- the hand order's disk cache against the derived order;
- the engine's card codes by identity, against cards equal to the deck's but other
  objects; the pot layering against the plain loop it replaced; the records' quick
  constructors against dataclasses built the usual way;
- a table process needs no numba: not to import cardlab.table, not at the showdown.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardlab.cards import Card
from cardlab.decks import get_deck
from cardlab.errors import ActionError
from cardlab.poker import RuleSet
from cardlab.poker import _few_hands as few
from cardlab.poker.batch import evaluate_batch
from cardlab.poker.hands import best_hand
from cardlab.poker.lowball import LowRule, best_low, low_key
from cardlab.poker.order import hand_order
from cardlab.table import events as ev
from cardlab.table.phh_actions import parse_action
from cardlab.table.pots import Pot, layer_pots
from cardlab.table.state import HandState
from cardlab.table.structure import TableGame
from cardlab.table.view import masked

RULES = [
    RuleSet.for_deck("standard52"),
    RuleSet.for_deck("FESCA78"),  # Mixwell, suits break ties, ZAT's ring straights
    RuleSet.for_deck("FESCA42"),
    RuleSet.for_deck("TESCA52"),
    RuleSet.for_deck("FESCA78", compound="mixwell", suit_tiebreak=False),
    RuleSet.for_deck("standard52", order="classic", wrap="line"),
]


# the same names in every process (pytest-xdist's workers must collect the same tests)
NAMES = [
    "standard52",
    "FESCA78",
    "FESCA42",
    "TESCA52",
    "FESCA78-compound-mixwell-no-suit-tiebreak",
    "standard52-classic-line",
]


def _ids(rules: RuleSet) -> str:
    return next(name for name, r in zip(NAMES, RULES, strict=True) if r is rules)


@pytest.mark.parametrize("rules", RULES, ids=_ids)
@pytest.mark.parametrize("k", [5, 6, 7])
def test_best_five_matches_the_kernels(rules: RuleSet, k: int) -> None:
    rng = random.Random(k)
    n = len(rules.deck)
    rows = [rng.sample(range(n), k) for _ in range(600)]
    kernel = evaluate_batch(np.array(rows, dtype=np.uint8), rules, method="subsets").tolist()
    score = few.scorer(rules)
    assert [score.best(r) for r in rows] == kernel


@pytest.mark.parametrize("rules", RULES[:4], ids=_ids)
def test_omaha_matches_the_kernels(rules: RuleSet) -> None:
    rng = random.Random(9)
    rows = [rng.sample(range(len(rules.deck)), 9) for _ in range(300)]
    kernel = evaluate_batch(np.array(rows, dtype=np.uint8), rules, game="omaha").tolist()
    score = few.scorer(rules)
    assert [score.best_split(r[:4], r[4:], 2) for r in rows] == kernel


@pytest.mark.parametrize("rules", RULES, ids=_ids)
def test_best_five_matches_the_reference(rules: RuleSet) -> None:
    rng = random.Random(3)
    deck = rules.deck
    score = few.scorer(rules)
    for _ in range(60):
        cards = rng.sample(deck.cards, 7)
        assert score.best([deck.code(c) for c in cards]) == best_hand(cards, rules).key


def test_every_five_card_form_of_a_small_deck() -> None:
    """Every five cards of FESCA42 (850,668 would be slow: a seeded tenth of them)."""
    rules = RuleSet.for_deck("FESCA42")
    score = few.scorer(rules)
    rng = random.Random(5)
    fives = [f for f in itertools.combinations(range(len(rules.deck)), 5) if rng.random() < 0.1]
    kernel = evaluate_batch(np.array(fives, dtype=np.uint8), rules, method="subsets").tolist()
    assert [score.five(score.sorted_codes(f)) for f in fives] == kernel


@pytest.mark.parametrize("deck", ["standard52", "FESCA78"])
def test_deuce_to_seven_matches_the_reference(deck: str) -> None:
    rules = RuleSet.for_deck(deck)
    rng = random.Random(7)
    for _ in range(80):
        cards = rng.sample(rules.deck.cards, 7)
        reference = max(
            low_key(five, LowRule.DEUCE_TO_SEVEN, rules.deck, rules)  # type: ignore[type-var]
            for five in itertools.combinations(cards, 5)
        )
        assert best_low(cards, LowRule.DEUCE_TO_SEVEN, rules.deck, rules) == reference


def test_deuce_to_seven_still_refuses_a_card_twice() -> None:
    rules = RuleSet.for_deck("standard52")
    cards = [*rules.deck.parse_cards("2c 3d 4h 5s 7c 9d"), rules.deck.card("7c")]
    with pytest.raises(ValueError, match="twice"):
        best_low(cards, LowRule.DEUCE_TO_SEVEN, rules.deck, rules)


# --- the disk cache of the hand order --------------------------------------------------


@pytest.mark.parametrize("rules", RULES, ids=_ids)
def test_the_cached_shape_table_is_the_hand_order(rules: RuleSet) -> None:
    few.shape_table(rules)  # written if missing
    path = few.cache_path(rules)
    assert path.is_file()
    assert few.shape_table(rules) == dict(hand_order(rules).shape_table)


def test_the_cache_is_keyed_by_the_rules() -> None:
    paths = {few.cache_path(r) for r in RULES}
    assert len(paths) == len(RULES)
    assert few.cache_path(RuleSet.for_deck("standard52")) == few.cache_path(RULES[0])


def test_a_damaged_cache_file_is_derived_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = RuleSet.for_deck("FESCA42")
    damaged = tmp_path / "shapes.json"
    damaged.write_text(json.dumps([["no such hand", 1, 2, 3, 4]]))
    monkeypatch.setattr(few, "cache_path", lambda _rules: damaged)
    assert few.shape_table(rules) == dict(hand_order(rules).shape_table)
    assert few._decode(json.loads(damaged.read_text())) == dict(hand_order(rules).shape_table)


# --- a table process without numba ------------------------------------------------------


def _python(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    ).stdout.strip()


SHOWDOWN = """
import sys
from cardlab.table import phh
from cardlab.table.history import replay
text = '''variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 cc", "p1 cc", "d db 2h7s9c", "p1 cc",
  "p2 cc", "d db Th", "p1 cc", "p2 cc", "d db Js", "p1 cc", "p2 cc", "p1 sm AcAd",
  "p2 sm KcKd"]
'''
r = replay(phh.loads(text))
print(r.hand.result.finishing_stacks, "numba" in sys.modules)
"""


def test_a_showdown_needs_no_numba() -> None:
    assert _python("import sys, cardlab.table; print('numba' in sys.modules)") == "False"
    assert _python(SHOWDOWN) == "(202, 198) False"


# --- the engine's card codes and pots ---------------------------------------------------


def _twin(card: Card) -> Card:
    """An equal card that is another object than the deck's."""
    twin = Card(card.suit, card.rank)
    assert twin == card and twin is not card
    return twin


def test_cards_equal_to_the_decks_deal_as_the_decks_own() -> None:
    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    deck = game.game.deck
    for convert in (lambda c: c, _twin):
        hand = HandState(game, [100, 100], deal="manual", showdown="manual")
        hand.deal_hole(0, [convert(c) for c in deck.parse_cards("As Kd")])
        with pytest.raises(ActionError, match="already dealt"):
            hand.deal_hole(1, [convert(c) for c in deck.parse_cards("As 2c")])
        with pytest.raises(ActionError, match="dealt twice"):
            hand.deal_hole(1, [convert(deck.card("2c")), convert(deck.card("2c"))])
        hand.deal_hole(1, [convert(c) for c in deck.parse_cards("Qh Qs")])
        assert hand.hole == [list(deck.parse_cards("As Kd")), list(deck.parse_cards("Qh Qs"))]


def test_a_card_of_another_deck_is_refused() -> None:
    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    fesca = RuleSet.for_deck("FESCA78").deck
    hand = HandState(game, [100, 100], deal="manual", showdown="manual")
    with pytest.raises(ActionError, match="not in the standard52 deck"):
        hand.deal_hole(0, [fesca.cards[0], game.game.deck.cards[0]])


def _plain_layers(
    paid: Sequence[int],
    bets: Sequence[int],
    antes: Sequence[int],
    alive: Sequence[bool],
    ante_trimming: bool,
) -> list[Pot]:
    """The layering as it was first written: one chip step at a time."""
    n = len(paid)
    contributions = [paid[i] - bets[i] for i in range(n)]
    pending = list(paid)
    amount = 0
    if not ante_trimming:
        for i in range(n):
            amount += antes[i]
            contributions[i] -= antes[i]
            pending[i] -= antes[i]
    pots: list[Pot] = []
    previous = 0
    for level in sorted(set(contributions)):
        for c in contributions:
            if c >= level:
                amount += level - previous
        players = tuple(i for i in range(n) if pending[i] >= level and alive[i])
        while pots and pots[-1].players == players:
            amount += pots.pop().amount
        if amount:
            pots.append(Pot(amount, players))
        amount = 0
        previous = level
    return pots


def test_pot_layers_match_the_plain_loop() -> None:
    rng = random.Random(11)
    for _ in range(2000):
        n = rng.randint(2, 9)
        antes = [rng.choice([0, 0, 1, 5]) for _ in range(n)]
        bets = [rng.choice([0, 0, 2, 10, 40]) for _ in range(n)]
        paid = [
            a + b + rng.choice([0, 0, 3, 20, 100, 250]) for a, b in zip(antes, bets, strict=True)
        ]
        alive = [rng.random() < 0.7 for _ in range(n)]
        trimming = rng.random() < 0.5
        assert layer_pots(paid, bets, antes, alive, ante_trimming=trimming) == _plain_layers(
            paid, bets, antes, alive, trimming
        )


EVENTS = [
    ev.NewStreet(1, "flop"),
    ev.PostAnte(0, 5),
    ev.PostBlind(1, 2),
    ev.Reshuffle(7),
    ev.ReturnBet(1, 9),
    ev.Award(0, (1, 2), (5, 4), "tie"),
]


# the decisions a file also writes are phh_actions' records, checked on their input
DECISIONS = [
    ev.Fold(3),
    ev.CheckCall(1, amount=5),
    ev.CompleteBetRaiseTo(0, 40),
    ev.PostBringIn(2, amount=1),
]


# the events that carry cards, played (the engine's Card values ride along)
_AC, _KD, _FIVE = Card.parse("Ac"), Card.parse("Kd"), Card.parse("木5")
CARD_EVENTS = [
    ev.DealHole.played(2, (_AC, None), (False, True)),
    ev.DealHole.played(0, (_FIVE,), (True,)),
    ev.DealBoard.played((_KD, _AC)),
    ev.StandPatDiscard.played(1, (_AC, _KD)),
    ev.StandPatDiscard.played(3, ()),
    ev.StandPatDiscard.played(1, (None, None)),
    ev.ShowMuck.played(0, (_KD, _AC)),
    ev.ShowMuck.played(4, None),
]


@pytest.mark.parametrize(
    "event", DECISIONS + CARD_EVENTS, ids=lambda e: f"{type(e).__name__}-{e.phh}"
)
def test_a_played_event_is_the_record_its_line_reads_back_as(event: ev.Event) -> None:
    """One type for an action played and read from a file: its PHH line parses back to
    an equal record of the same type, positions counted the same way (the chips a call
    put in and the Card values dealt are not compared: the line writes the cards'
    token)."""
    line = event.phh
    assert line is not None and event.phh_action is event
    back = parse_action(line)
    assert type(back) is type(event) and back == event and hash(back) == hash(event)
    assert str(back) == line and getattr(back, "player", 0) == getattr(event, "player", 0)


def test_a_played_deal_keeps_its_cards_and_a_read_one_reads_them_in_its_deck() -> None:
    deck = get_deck("FESCA78")
    played = ev.DealHole.played(1, (_FIVE,), (True,))
    read = parse_action(str(played))
    assert isinstance(read, ev.DealHole) and read.cards == () and read.up == ()
    assert played.token == read.token == "M5" and str(read) == "d dh p2 M5"
    assert played.cards_in(deck) == read.cards_in(deck) == (_FIVE,)
    # as JSON (positions as the file writes them): a played deal by its cards, a read one
    # by its token; a muck and a stand pat have no cards to give
    assert played.as_dict() == {"event": "deal_hole", "player": 2, "cards": "木5", "up": (True,)}
    assert read.as_dict() == {"event": "deal_hole", "player": 2, "token": "M5"}
    assert ev.ShowMuck.played(0, None).as_dict() == {"event": "show_muck", "player": 1}
    assert ev.StandPatDiscard.played(3, ()).as_dict() == {"event": "stand_pat_discard", "player": 4}
    assert ev.DealBoard.played(()).phh is None  # a deal of no cards is no action
    assert ev.ShowMuck.played(0, ()).phh == "p1 sm"  # a show of no known card: a bare sm


def test_a_card_event_masked_for_a_viewer_hides_its_line_too() -> None:
    """A deal hidden from a seat is a new record: its token (the PHH line) hides the
    cards as its Card values do (a record that kept the old token would leak them)."""
    hand = HandState(TableGame.create("standard52-holdem", blinds=(1, 2)), [100, 100, 100], seed=3)
    dealt = [e for e in hand.history if isinstance(e, ev.DealHole)]
    assert len(dealt) == 3 and all(None not in e.cards for e in dealt)
    for e in dealt:
        hidden = masked(e, viewer=(e.player + 1) % 3, hand=hand)
        assert isinstance(hidden, ev.DealHole) and hidden.cards == (None, None)
        assert hidden.phh == f"d dh p{e.player + 1} ????"
        assert masked(e, viewer=e.player, hand=hand) is e


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_records_behave_as_plain_frozen_dataclasses(event: ev.Event) -> None:
    cls: Any = type(event)
    values = [getattr(event, f.name) for f in dataclasses.fields(cls)]
    plain = dataclasses.make_dataclass(
        cls.__name__, [(f.name, f.type) for f in dataclasses.fields(cls)], frozen=True
    )(*values)
    assert repr(event) == repr(plain)
    assert cls(*values) == event and hash(cls(*values)) == hash(event)
    assert cls(**{f.name: v for f, v in zip(dataclasses.fields(cls), values, strict=True)}) == event
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(event, dataclasses.fields(cls)[0].name, values[0])
    with pytest.raises(TypeError):
        cls(*values, 0)
    with pytest.raises(TypeError):
        cls(*values[:-1])
