"""What a player wants from their hand histories: per player statistics and the all-in
luck adjustment.

:func:`summarize` replays one :class:`~cardlab.table.phh.HandHistory` on the engine and
says, per seat, what the statistics count (a :class:`HandSummary`);
:func:`player_stats` adds the summaries up per player name (:class:`PlayerStats`). The
definitions are the usual ones of tracking software (docs/player-stats.md):

- **VPIP** / **PFR**: of the hands where the player had a decision in the first
  betting round (preflop; third street in stud), those where they put chips in
  voluntarily (a call, bet, raise or completion: blinds, antes and the bring-in are
  forced) / where they bet, raised or completed.
- **3-bet**: of the first-round decisions facing exactly one raise (the blind or the
  bring-in is the first bet, the open raise or completion the second) where a raise was
  legal, those that raised.
- **Aggression**, after the first betting round: the *factor* (bets + raises) / calls
  and the *frequency* (bets + raises) / (bets + raises + calls + folds); checks do not
  count.
- **Went to showdown**: of the hands where the player saw the second street, those
  where they were still in after the last bet with someone else (mucking at the
  showdown counts as going); **won at showdown**: of those, the hands where they
  collected chips.
- **Net** in the hand's own units and in big blinds (the larger of the first two
  blinds; the small bet in games without blinds); **bb/100**: big blinds won per 100
  hands.

The **luck adjustment**: when the money goes in before the last card (every player
left is all-in, or all but one who covers them), each pot is shared by the exact
equity of its contenders at that moment (:func:`cardlab.poker.equity.exact_equity` on
the hand's own game and deck, the known cards of the players who folded counted as
dead): the *expected* net is the stack then plus the expected shares, less the
starting stack. A hand is adjusted only if every contender's cards are known (shown at
any point of the record), the game is high poker with a board (Hold'em, Omaha: the
equity API needs every hole card, so stud before its last card and draw games are
not adjusted) and the enumeration is not too big; otherwise its expected net is its
net, and :attr:`HandSummary.not_adjusted` says why. Equities are cached per situation
(:class:`EquityCache`), so repeated all-ins cost one enumeration.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from cardlab.cards import Card, Suit, SuitRole
from cardlab.errors import CardlabError, GameError
from cardlab.poker.games import Game
from cardlab.table import events as ev
from cardlab.table import phh
from cardlab.table import phh_actions as pa
from cardlab.table.history import replay
from cardlab.table.state import HandState, Phase

EXACT_SECONDS = 10.0
"""The longest (estimated) exact enumeration one all-in may take; a bigger one is not
adjusted (it says so)."""


# --- values -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rate:
    """``count`` times out of ``chances``."""

    count: int = 0
    chances: int = 0

    @property
    def value(self) -> Fraction | None:
        """The share, None without a chance."""
        return Fraction(self.count, self.chances) if self.chances else None

    def __add__(self, other: Rate) -> Rate:
        return Rate(self.count + other.count, self.chances + other.chances)

    def __str__(self) -> str:
        return f"{self.count}/{self.chances}"


@dataclass(frozen=True, slots=True)
class AllInPot:
    """A pot when the money went in: its chips (the hand's units), its contenders
    (positions) and each contender's exact share of it."""

    amount: Fraction
    players: tuple[int, ...]
    equity: tuple[Fraction, ...]


@dataclass(frozen=True, slots=True)
class AllIn:
    """The all-in of a hand: the street it happened on, the pots, and per position the
    expected net (starting stack to the expected finishing stack)."""

    street: str
    board: tuple[Card, ...]
    pots: tuple[AllInPot, ...]
    expected_net: tuple[Fraction, ...]


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """What one seat did in one hand, as the statistics count it."""

    name: str
    net: Fraction  # finishing - starting stack, the hand's units
    big_blind: Fraction  # the unit of the bb figures, the hand's units
    expected_net: Fraction  # the all-in adjusted net (the net when not adjusted)
    first_decision: bool = False  # acted in the first betting round
    vpip: bool = False
    pfr: bool = False
    three_bet_chance: bool = False
    three_bet: bool = False
    bets_raises: int = 0  # after the first betting round
    calls: int = 0
    folds: int = 0
    saw_second_street: bool = False
    showdown: bool = False
    won_at_showdown: bool = False
    all_in: bool = False  # a contender of an adjusted all-in

    @property
    def net_bb(self) -> Fraction:
        return self.net / self.big_blind

    @property
    def expected_bb(self) -> Fraction:
        return self.expected_net / self.big_blind


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One replayed hand: its game, each seat's summary, and its all-in (None: no all-in
    before the last card, or one that was not adjusted: ``not_adjusted`` says why)."""

    game: str
    seats: tuple[SeatSummary, ...]
    showdown: bool
    all_in: AllIn | None = None
    not_adjusted: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's totals over the hands given (see the module documentation)."""

    name: str
    hands: int
    vpip: Rate
    pfr: Rate
    three_bet: Rate
    bets_raises: int
    calls: int
    folds: int
    went_to_showdown: Rate
    won_at_showdown: Rate
    net: Fraction
    net_bb: Fraction
    expected_net: Fraction
    expected_bb: Fraction
    all_ins: int  # adjusted all-ins the player was in

    @property
    def aggression_factor(self) -> Fraction | None:
        """(bets + raises) / calls after the first betting round; None without a call."""
        return Fraction(self.bets_raises, self.calls) if self.calls else None

    @property
    def aggression_frequency(self) -> Rate:
        """(bets + raises) of (bets + raises + calls + folds) after the first round."""
        return Rate(self.bets_raises, self.bets_raises + self.calls + self.folds)

    @property
    def bb_per_100(self) -> Fraction:
        return 100 * self.net_bb / self.hands

    @property
    def expected_bb_per_100(self) -> Fraction:
        return 100 * self.expected_bb / self.hands

    @property
    def luck(self) -> Fraction:
        """Won less expected, in the hands' units (positive: ran above expectation)."""
        return self.net - self.expected_net


# --- equities -------------------------------------------------------------------------


@dataclass
class EquityCache:
    """Exact equities by situation (game, the contenders' cards, board, dead cards):
    an all-in seen before costs nothing. ``computed``/``reused`` count the two."""

    max_seconds: float | None = EXACT_SECONDS
    computed: int = 0
    reused: int = 0
    _known: dict[Any, tuple[Fraction, ...]] = field(default_factory=dict, repr=False)

    def equities(
        self,
        game: Game,
        hands: Sequence[Sequence[Card]],
        board: Sequence[Card],
        dead: Iterable[Card],
    ) -> tuple[Fraction, ...]:
        """Each hand's exact share of a pot they contest (raises GameError, and
        :class:`~cardlab.poker.equity.ExactTooBig` beyond ``max_seconds``)."""
        from cardlab.poker.equity import exact_equity

        key, order, cards = _canonical(game, hands, board, dead)
        known = self._known.get(key)
        if known is None:
            holes, b, d = cards
            result = exact_equity(
                game, [list(h) for h in holes], list(b), list(d), max_seconds=self.max_seconds
            )
            known = tuple(Fraction(p.equity) for p in result.players)
            self._known[key] = known
            self.computed += 1
        else:
            self.reused += 1
        out = [Fraction(0)] * len(hands)
        for k, i in enumerate(order):
            out[i] = known[k]
        return tuple(out)


_Cards = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[Card, ...]]


def _canonical(
    game: Game,
    hands: Sequence[Sequence[Card]],
    board: Sequence[Card],
    dead: Iterable[Card],
) -> tuple[Any, list[int], _Cards]:
    """One name for every situation with the same equities: the hands in any order, each
    hand's and the board's cards in any order and, where suits only make flushes (plain
    suits and no suit tie-break), the suits renamed. Returns the key, the order of the
    hands in it (its k-th hand is ``hands[order[k]]``) and its cards."""
    deck = game.deck
    dead = tuple(dead)
    suits = list(deck.suits)
    if all(s.role is SuitRole.PLAIN for s in suits) and not game.rules.suit_tiebreak:
        renamings = [dict(zip(suits, p, strict=True)) for p in itertools.permutations(suits)]
    else:
        renamings = [{s: s for s in suits}]
    best: Any = None
    for rename in renamings:

        def codes(cards: Iterable[Card], rename: dict[Suit, Suit] = rename) -> tuple[int, ...]:
            return tuple(sorted(deck.code(Card(rename[c.suit], c.rank)) for c in cards))

        held = [codes(h) for h in hands]
        order = sorted(range(len(hands)), key=held.__getitem__)
        name = (tuple(held[i] for i in order), codes(board), codes(dead))
        if best is None or name < best[0]:
            best = (name, order)
    name, order = best
    cards = deck.cards

    def back(codes: tuple[int, ...]) -> tuple[Card, ...]:
        return tuple(cards[c] for c in codes)

    return (game, name), order, (tuple(back(h) for h in name[0]), back(name[1]), back(name[2]))


# --- one hand ---------------------------------------------------------------------------


@dataclass
class _Seat:
    first_decision: bool = False
    vpip: bool = False
    pfr: bool = False
    three_bet_chance: bool = False
    three_bet: bool = False
    bets_raises: int = 0
    calls: int = 0
    folds: int = 0
    saw_second_street: bool = False


@dataclass
class _Snapshot:
    """The hand when the money went in."""

    street: str
    board: int
    alive: tuple[bool, ...]
    stacks: tuple[int, ...]
    pots: tuple[tuple[int, tuple[int, ...]], ...]


class _Watcher:
    """Follows a replay step by step: the statistics' facts, and the all-in moment."""

    def __init__(self, n: int) -> None:
        self.seats = [_Seat() for _ in range(n)]
        self.seen = 0
        self.level = 0  # bets in the first round: the blind or bring-in is the first
        self.street = -1
        self.can_raise: dict[int, bool] = {}  # first-round actor at level 2 -> raise legal
        self.alive_after_betting: tuple[bool, ...] = (True,) * n
        self.all_in: _Snapshot | None = None

    def step(self, k: int, action: pa.Action | None, hand: HandState) -> None:
        betting = False
        for event in hand.history[self.seen :]:
            betting |= self._event(event)
        self.seen = len(hand.history)
        if betting or k < 0:
            self.alive_after_betting = tuple(hand.alive)
        if hand.is_over:
            return
        phase = hand.phase
        if (
            phase is Phase.BET
            and self.street == 0
            and self.level == 2
            and hand.actor is not None
            and hand.actor not in self.can_raise
        ):
            self.can_raise[hand.actor] = hand.legal().can_raise
        if (
            self.all_in is None
            and phase is Phase.DEAL
            and sum(hand.alive) >= 2
            and sum(1 for i in hand.in_hand() if hand.stacks[i]) <= 1
        ):
            self.all_in = _Snapshot(
                street=hand.streets[max(hand.street_index - 1, 0)].name,  # the next is dealt
                board=len(hand.board),
                alive=tuple(hand.alive),
                stacks=tuple(hand.stacks),
                pots=tuple((p.amount, p.players) for p in hand.pots()),
            )

    def _event(self, event: ev.Event) -> bool:
        """Count one event; True for a betting decision."""
        if isinstance(event, ev.NewStreet):
            self.street = event.index
            return False
        if isinstance(event, ev.PostBlind):
            self.level = max(self.level, 1)
            return False
        if isinstance(event, ev.BringIn):
            self.level = max(self.level, 1)
            if self.street == 0:
                self.seats[event.player].first_decision = True
            return True
        if not isinstance(event, ev.Fold | ev.CheckCall | ev.BetRaise):
            return False
        seat = self.seats[event.player]
        if self.street == 0:
            seat.first_decision = True
            if self.level == 2 and self.can_raise.pop(event.player, True):
                seat.three_bet_chance = True
                seat.three_bet = isinstance(event, ev.BetRaise)
            if isinstance(event, ev.BetRaise):
                seat.vpip = seat.pfr = True
                self.level += 1
                self.can_raise.clear()
            elif isinstance(event, ev.CheckCall) and event.amount > 0:
                seat.vpip = True
        elif isinstance(event, ev.BetRaise):
            seat.bets_raises += 1
        elif isinstance(event, ev.CheckCall):
            seat.calls += event.amount > 0
        else:
            seat.folds += 1
        return True


def big_blind(history: phh.HandHistory) -> Fraction:
    """The unit of the bb figures, in the history's units: the larger of the first two
    blinds (a straddle is not the big blind); the small bet (or the minimum bet) in a game
    without blinds."""
    blinds = [abs(Fraction(b)) for b in (history.blinds_or_straddles or ())[:2]]
    if blinds and max(blinds) > 0:
        return max(blinds)
    for amount in (history.small_bet, history.min_bet, history.big_bet):
        if amount is not None and Fraction(amount) > 0:
            return Fraction(amount)
    raise CardlabError("the hand has no blind and no bet size to count big blinds in")


def summarize(
    history: phh.HandHistory,
    *,
    cache: EquityCache | None = None,
    label: str = "hand",
) -> HandSummary:
    """Replay one hand and say what each seat did (a refused hand raises
    :class:`~cardlab.errors.HistoryError`, naming ``label``)."""
    watcher = _Watcher(len(history.starting_stacks))
    played = replay(history, label=label, on_step=watcher.step)
    hand = played.hand
    scale = played.scale
    n = hand.players
    names = tuple(history.players or (f"p{i + 1}" for i in range(n)))
    result = hand.result
    assert result is not None
    net = [Fraction(f - s, scale) for f, s in zip(hand.stacks, hand.starting_stacks, strict=True)]
    bb = Fraction(big_blind(history))
    at_showdown = watcher.alive_after_betting
    showdown = sum(at_showdown) >= 2
    collected = [0] * n
    for award in result.awards:
        for p, amount in zip(award.players, award.amounts, strict=True):
            collected[p] += amount
    second = _second_street_players(hand)
    all_in: AllIn | None = None
    why: str | None = None
    if watcher.all_in is not None:
        try:
            all_in = _adjust(hand, watcher.all_in, scale, cache or EquityCache())
        except _NotAdjusted as exc:
            why = str(exc)
    seats = []
    for i, s in enumerate(watcher.seats):
        seats.append(
            SeatSummary(
                name=names[i],
                net=net[i],
                big_blind=bb,
                expected_net=all_in.expected_net[i] if all_in is not None else net[i],
                first_decision=s.first_decision,
                vpip=s.vpip,
                pfr=s.pfr,
                three_bet_chance=s.three_bet_chance,
                three_bet=s.three_bet,
                bets_raises=s.bets_raises,
                calls=s.calls,
                folds=s.folds,
                saw_second_street=i in second,
                showdown=showdown and at_showdown[i],
                won_at_showdown=showdown and at_showdown[i] and collected[i] > 0,
                all_in=all_in is not None and any(i in p.players for p in all_in.pots),
            )
        )
    return HandSummary(hand.game.game.key, tuple(seats), showdown, all_in, why)


def _second_street_players(hand: HandState) -> set[int]:
    """The positions in the hand when its second street began."""
    alive = set(range(hand.players))
    for event in hand.history:
        if isinstance(event, ev.NewStreet) and event.index == 1:
            return alive
        if isinstance(event, ev.Fold):
            alive.discard(event.player)
    return set()


class _NotAdjusted(Exception):
    pass


def _adjust(hand: HandState, snap: _Snapshot, scale: int, cache: EquityCache) -> AllIn:
    """The expected net of every seat from the all-in snapshot (raises _NotAdjusted)."""
    game = hand.game.game
    variant = getattr(hand.game, "variant", None)
    if variant is not None and (not variant.high or variant.low is not None):
        raise _NotAdjusted(f"{variant.name} is not played for high only")
    if not game.base.has_board:
        raise _NotAdjusted(
            f"{game.base.name}: exact equity needs every hole card, and cards are still to come"
        )
    contenders = [i for i in range(hand.players) if snap.alive[i]]
    holes: dict[int, tuple[Card, ...]] = {}
    for i in contenders:
        cards = hand.hole[i]
        if any(c is None for c in cards) or len(cards) != game.base.hole_cards:
            raise _NotAdjusted(f"the cards of p{i + 1} are not known")
        holes[i] = tuple(c for c in cards if c is not None)
    dead = [
        c for i in range(hand.players) if not snap.alive[i] for c in hand.hole[i] if c is not None
    ]
    board = tuple(hand.board[: snap.board])
    expected = [Fraction(snap.stacks[i] - hand.starting_stacks[i]) for i in range(hand.players)]
    pots = []
    for amount, players in snap.pots:
        if len(players) == 1:
            shares: tuple[Fraction, ...] = (Fraction(1),)
        else:
            others = [c for i in contenders if i not in players for c in holes[i]]
            try:
                shares = cache.equities(game, [holes[i] for i in players], board, dead + others)
            except GameError as exc:  # ExactTooBig too
                raise _NotAdjusted(str(exc)) from None
        for i, share in zip(players, shares, strict=True):
            expected[i] += amount * share
        pots.append(AllInPot(Fraction(amount, scale), players, shares))
    return AllIn(
        snap.street,
        board,
        tuple(pots),
        tuple(e / scale for e in expected),
    )


# --- adding up ------------------------------------------------------------------------


@dataclass
class _Totals:
    hands: int = 0
    vpip: Rate = Rate()
    pfr: Rate = Rate()
    three_bet: Rate = Rate()
    bets_raises: int = 0
    calls: int = 0
    folds: int = 0
    wtsd: Rate = Rate()
    wsd: Rate = Rate()
    net: Fraction = Fraction(0)
    net_bb: Fraction = Fraction(0)
    expected_net: Fraction = Fraction(0)
    expected_bb: Fraction = Fraction(0)
    all_ins: int = 0


def player_stats(summaries: Iterable[HandSummary]) -> list[PlayerStats]:
    """Each player's totals over the hands (by name), the most hands first."""
    totals: dict[str, _Totals] = {}
    for summary in summaries:
        for s in summary.seats:
            t = totals.setdefault(s.name, _Totals())
            t.hands += 1
            if s.first_decision:
                t.vpip += Rate(s.vpip, 1)
                t.pfr += Rate(s.pfr, 1)
            if s.three_bet_chance:
                t.three_bet += Rate(s.three_bet, 1)
            t.bets_raises += s.bets_raises
            t.calls += s.calls
            t.folds += s.folds
            if s.saw_second_street:
                t.wtsd += Rate(s.showdown, 1)
            if s.showdown:
                t.wsd += Rate(s.won_at_showdown, 1)
            t.net += s.net
            t.net_bb += s.net_bb
            t.expected_net += s.expected_net
            t.expected_bb += s.expected_bb
            t.all_ins += s.all_in
    out = [
        PlayerStats(
            name=name,
            hands=t.hands,
            vpip=t.vpip,
            pfr=t.pfr,
            three_bet=t.three_bet,
            bets_raises=t.bets_raises,
            calls=t.calls,
            folds=t.folds,
            went_to_showdown=t.wtsd,
            won_at_showdown=t.wsd,
            net=t.net,
            net_bb=t.net_bb,
            expected_net=t.expected_net,
            expected_bb=t.expected_bb,
            all_ins=t.all_ins,
        )
        for name, t in totals.items()
    ]
    return sorted(out, key=lambda p: (-p.hands, p.name))


def running_totals(
    summaries: Sequence[HandSummary], name: str
) -> tuple[list[Fraction], list[Fraction]]:
    """A player's running net and all-in adjusted net, in big blinds, after each hand
    they played (in the order given)."""
    won: list[Fraction] = []
    expected: list[Fraction] = []
    a = b = Fraction(0)
    for summary in summaries:
        for s in summary.seats:
            if s.name == name:
                a += s.net_bb
                b += s.expected_bb
                won.append(a)
                expected.append(b)
    return won, expected
