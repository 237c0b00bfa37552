"""Play the same hand on cardlab's table engine and on pokerkit, step by step.

Both states deal the same cards (drawn from one seeded shuffle by this driver) and take
the same random legal actions; at every decision the actor, the amounts that may be
called or bet, the pots, the bets and the stacks must agree, and at the end the
finishing stacks. Used by the differential tests; importable by benchmarks too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pokerkit as pk
from pokerkit import Automation, BettingStructure, Opening, StandardHighHand

from cardlab.cards import Card
from cardlab.table import HandState, TableGame

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@dataclass(frozen=True)
class Setup:
    variant: str  # a PHH code of pokerkit's (VARIANTS), or FD: fixed-limit five-card draw
    players: int
    stacks: tuple[int, ...]
    ante: int
    bb_ante: int
    blinds: tuple[int, ...]
    small_bet: int
    big_bet: int
    bring_in: int
    ante_trimming: bool

    def cardlab_game(self) -> TableGame:
        key, betting = GAMES[self.variant]
        antes: Any = (0, self.bb_ante) if self.bb_ante else self.ante
        return TableGame.create(
            key,
            betting=betting,
            blinds=self.blinds,
            antes=antes,
            bring_in=self.bring_in,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            ante_trimming=self.ante_trimming,
        )

    def pokerkit_state(self) -> pk.State:
        antes: Any = (0, self.bb_ante) if self.bb_ante else self.ante
        args = (AUTOMATIONS, self.ante_trimming, antes)
        if self.variant == "NT":
            return pk.NoLimitTexasHoldem.create_state(
                *args, self.blinds, self.small_bet, self.stacks, self.players
            )
        if self.variant == "FT":
            return pk.FixedLimitTexasHoldem.create_state(
                *args, self.blinds, self.small_bet, self.big_bet, self.stacks, self.players
            )
        if self.variant == "PO":
            return pk.PotLimitOmahaHoldem.create_state(
                *args, self.blinds, self.small_bet, self.stacks, self.players
            )
        if self.variant in STUDS:
            return STUDS[self.variant].create_state(
                *args,
                self.bring_in,
                self.small_bet,
                self.big_bet,
                self.stacks,
                self.players,
            )
        if self.variant == "NS":
            return pk.NoLimitShortDeckHoldem.create_state(
                *args, self.blinds, self.small_bet, self.stacks, self.players
            )
        if self.variant == "N2L1D":
            return pk.NoLimitDeuceToSevenLowballSingleDraw.create_state(
                *args, self.blinds, self.small_bet, self.stacks, self.players
            )
        if self.variant in ("F2L3D", "FB"):
            kind = (
                pk.FixedLimitBadugi
                if self.variant == "FB"
                else pk.FixedLimitDeuceToSevenLowballTripleDraw
            )
            return kind.create_state(
                *args, self.blinds, self.small_bet, self.big_bet, self.stacks, self.players
            )
        if self.variant == "FO/8":
            return self._fixed_limit_omaha_hi_lo()
        streets = (
            pk.Street(False, (False,) * 5, 0, False, Opening.POSITION, self.small_bet, 4),
            pk.Street(True, (), 0, True, Opening.POSITION, self.big_bet, 4),
        )
        return pk.State(
            AUTOMATIONS,
            pk.Deck.STANDARD,
            (StandardHighHand,),
            streets,
            BettingStructure.FIXED_LIMIT,
            self.ante_trimming,
            antes,
            self.blinds,
            0,
            self.stacks,
            self.players,
        )

    def _fixed_limit_omaha_hi_lo(self) -> pk.State:
        # pokerkit 0.7.7's FixedLimitOmahaHoldemHighLowSplitEightOrBetter inherits
        # pot-limit betting (PotLimitPokerMixin) despite its name and its small and big
        # bets; the PHH variant FO/8 is fixed-limit, so the same game is built here
        # with fixed-limit betting and pokerkit's cap of four bets a round
        antes: Any = (0, self.bb_ante) if self.bb_ante else self.ante
        sizes = (self.small_bet, self.small_bet, self.big_bet, self.big_bet)
        streets = tuple(
            pk.Street(k > 0, (False,) * 4 if k == 0 else (), b, False, Opening.POSITION, size, 4)
            for k, (b, size) in enumerate(zip((0, 3, 1, 1), sizes, strict=True))
        )
        return pk.State(
            AUTOMATIONS,
            pk.Deck.STANDARD,
            (pk.OmahaHoldemHand, pk.OmahaEightOrBetterLowHand),
            streets,
            BettingStructure.FIXED_LIMIT,
            self.ante_trimming,
            antes,
            self.blinds,
            0,
            self.stacks,
            self.players,
        )


GAMES: dict[str, tuple[str, str]] = {
    "NT": ("standard52-holdem", "no-limit"),
    "FT": ("standard52-holdem", "fixed-limit"),
    "PO": ("standard52-omaha", "pot-limit"),
    "F7S": ("standard52-stud", "fixed-limit"),
    "FD": ("standard52-draw", "fixed-limit"),
    "NS": ("short36-holdem", "no-limit"),
    "FO/8": ("standard52-omaha8", "fixed-limit"),
    "F7S/8": ("standard52-stud8", "fixed-limit"),
    "FR": ("standard52-razz", "fixed-limit"),
    "N2L1D": ("standard52-27-single-draw", "no-limit"),
    "F2L3D": ("standard52-27-triple-draw", "fixed-limit"),
    "FB": ("standard52-badugi", "fixed-limit"),
}
"""Each variant of the driver as a cardlab table game and betting."""

STUDS: dict[str, Any] = {
    "F7S": pk.FixedLimitSevenCardStud,
    "F7S/8": pk.FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    "FR": pk.FixedLimitRazz,
}


def random_setup(rng: random.Random, variant: str) -> Setup:
    stud = variant in STUDS
    n = rng.randint(2, 8 if stud else 9)
    small = rng.choice([2, 4, 10])
    deep = rng.random() < 0.5
    stacks = tuple(
        rng.randint(1, 40 * small)
        if not deep or rng.random() < 0.3
        else rng.randint(50, 400) * small
        for _ in range(n)
    )
    ante = rng.choice([0, 0, 1, small // 2]) if not stud else rng.choice([1, small // 2])
    bb_ante = 0
    if variant in ("NT", "PO", "NS") and ante == 0 and rng.random() < 0.2:
        bb_ante = small
    blinds: tuple[int, ...] = ()
    bring_in = 0
    if stud:
        bring_in = rng.choice([1, small // 2])
    else:
        blinds = (small // 2, small)
        if variant in ("NT", "NS", "N2L1D") and n > 3 and rng.random() < 0.2:
            blinds = (small // 2, small, 2 * small)  # a straddle
    return Setup(
        variant,
        n,
        stacks,
        ante,
        bb_ante,
        blinds,
        small,
        2 * small,
        bring_in,
        ante_trimming=rng.random() < 0.3,
    )


def _pk_card(card: Card) -> pk.Card:
    return next(iter(pk.Card.parse(card.ascii)))


def _pots(state: pk.State) -> list[tuple[int, tuple[int, ...]]]:
    return [(p.amount, tuple(p.player_indices)) for p in state.pots]


def compare_step(ours: HandState, theirs: pk.State, where: str) -> None:
    assert list(theirs.stacks) == ours.stacks, f"{where}: stacks {theirs.stacks} {ours.stacks}"
    assert list(theirs.bets) == ours.bets, f"{where}: bets {theirs.bets} {ours.bets}"
    assert _pots(theirs) == [(p.amount, p.players) for p in ours.pots()], (
        f"{where}: pots {_pots(theirs)} {ours.pots()}"
    )


def play(setup: Setup, seed: int, *, check_end: bool = True) -> tuple[HandState, pk.State, int]:
    """Play one random hand on both engines; returns them and the number of decisions."""
    rng = random.Random(seed)
    ours = HandState(setup.cardlab_game(), list(setup.stacks), deal="manual", showdown="auto")
    theirs = setup.pokerkit_state()
    deck = list(ours.game.game.deck.cards)
    rng.shuffle(deck)
    decisions = 0
    for step in range(10_000):
        where = f"{setup} seed {seed} step {step}"
        if not theirs.status:
            break
        if theirs.can_deal_hole():
            p = theirs.hole_dealee_index
            assert p is not None
            if not deck:  # draw: the stub ran out; the discards and mucked cards return
                deck = list(ours._discarded + ours._mucked)
                rng.shuffle(deck)
            card = deck.pop()
            theirs.deal_hole((_pk_card(card),))
            ours.deal_hole(p, [card])
            continue
        if theirs.can_deal_board():
            count = theirs.board_dealing_count
            assert count
            cards = [deck.pop() for _ in range(count)]
            theirs.deal_board(tuple(_pk_card(c) for c in cards))
            ours.deal_board(cards)
            continue
        if theirs.stand_patter_or_discarder_index is not None:
            p = theirs.stand_patter_or_discarder_index
            assert ours.actor == p, f"{where}: drawer {ours.actor} != {p}"
            held = [c for c in ours.hole[p] if c is not None]
            thrown = rng.sample(held, rng.randint(0, len(held)))
            theirs.stand_pat_or_discard(tuple(_pk_card(c) for c in thrown))
            ours.discard(thrown)
            decisions += 1
            continue
        actor = theirs.actor_index
        assert actor is not None, f"{where}: pokerkit waits for nothing known"
        assert ours.actor == actor, f"{where}: actor {ours.actor} != {actor}"
        compare_step(ours, theirs, where)
        legal = ours.legal()
        assert legal.fold == theirs.can_fold(), f"{where}: fold {legal}"
        assert legal.call == theirs.checking_or_calling_amount, f"{where}: call {legal}"
        assert legal.bring_in == theirs.effective_bring_in_amount, f"{where}: bring-in {legal}"
        assert legal.raise_min == theirs.min_completion_betting_or_raising_to_amount, (
            f"{where}: min raise {legal}"
        )
        assert legal.raise_max == theirs.max_completion_betting_or_raising_to_amount, (
            f"{where}: max raise {legal}"
        )
        choices = []
        if legal.fold:
            choices.append("fold")
        if legal.call is not None:
            choices += ["call", "call"]
        if legal.bring_in is not None:
            choices.append("bring-in")
        if legal.raise_min is not None:
            choices += ["raise", "raise"]
        kind = rng.choice(choices)
        if kind == "fold":
            theirs.fold()
            ours.fold()
        elif kind == "call":
            theirs.check_or_call()
            ours.check_or_call()
        elif kind == "bring-in":
            theirs.post_bring_in()
            ours.bring_in()
        else:
            assert legal.raise_min is not None and legal.raise_max is not None
            lo, hi = legal.raise_min, legal.raise_max
            amount = rng.choice([lo, hi, rng.randint(lo, hi)])
            theirs.complete_bet_or_raise_to(amount)
            ours.bet_or_raise_to(amount)
        decisions += 1
    assert not theirs.status, "pokerkit's hand did not end"
    assert ours.is_over, f"cardlab's hand did not end: {ours}"
    assert sum(ours.stacks) == sum(setup.stacks), f"{setup} seed {seed}: chips lost"
    # pokerkit splits the low half of a side pot whose players have no low, when a
    # player outside it has one, among all of them (see cardlab.table.showdown);
    # cardlab gives the whole pot to the high hand, the card rooms' rule
    check_end = check_end and not (
        list(theirs.stacks) != ours.stacks and side_pot_without_low(ours)
    )
    assert not check_end or list(theirs.stacks) == ours.stacks, (
        f"{setup} seed {seed}: final stacks {theirs.stacks} {ours.stacks}"
    )
    return ours, theirs, decisions


def side_pot_without_low(ours: HandState) -> bool:
    """A split game's hand with a pot none of whose players has a low while another
    player still in the hand has one: there pokerkit's pay-out differs (see
    :func:`play`)."""
    result = ours.result
    if result is None or ours.game.variant.low is None or not ours.game.variant.high:
        return False
    low_pots = {(p.amount, p.players) for p in result.pots if p.hand != "high"}
    if not low_pots:
        return False
    return any((p.amount, p.players) not in low_pots for p in result.pots)
