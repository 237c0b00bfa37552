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

import datetime
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
from cardlab.table.history import replay
from cardlab.table.stat_counts import Snapshot, Watcher, positions
from cardlab.table.state import HandState

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
    position: str = ""  # SB, BB, UTG, ..., CO, BTN ("" in a game without blinds)
    four_bet_chance: bool = False
    four_bet: bool = False
    fold_3bet_chance: bool = False
    fold_3bet: bool = False
    steal_chance: bool = False
    steal: bool = False
    fold_steal_chance: bool = False
    fold_steal: bool = False
    cbet_chance: tuple[bool, bool] = (False, False)  # the second, third street
    cbet: tuple[bool, bool] = (False, False)
    fold_cbet_chance: tuple[bool, bool] = (False, False)
    fold_cbet: tuple[bool, bool] = (False, False)
    check_raise_chances: int = 0  # streets where they checked and then faced a bet
    check_raises: int = 0
    won: bool = False  # collected chips
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
    site: str | None = None  # the site a site history came from (its ``_site`` field)
    day: datetime.date | None = None  # when it was played, if known
    stakes: tuple[Fraction, ...] = ()  # the blinds (the bet sizes in a game without)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's totals over the hands given (see the module documentation)."""

    name: str
    hands: int
    vpip: Rate
    pfr: Rate
    three_bet: Rate
    four_bet: Rate
    fold_to_three_bet: Rate
    steal: Rate
    fold_to_steal: Rate
    cbet_flop: Rate
    cbet_turn: Rate
    fold_to_cbet_flop: Rate
    fold_to_cbet_turn: Rate
    check_raise: Rate
    won_when_saw_flop: Rate
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
    position: str | None = None  # the rows of one position (player_stats(by_position=True))

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


def stakes(history: phh.HandHistory) -> tuple[Fraction, ...]:
    """The hand's stakes: its blinds (the posted ones, in order), or its bet sizes in a
    game without blinds."""
    blinds = tuple(abs(Fraction(b)) for b in (history.blinds_or_straddles or ()) if b)
    if blinds:
        return blinds
    sizes = (history.small_bet, history.big_bet, history.min_bet)
    return tuple(Fraction(a) for a in sizes if a is not None and Fraction(a) > 0)


def _day(history: phh.HandHistory) -> datetime.date | None:
    if history.year is None or history.month is None or history.day is None:
        return None
    try:
        return datetime.date(history.year, history.month, history.day)
    except ValueError:
        return None


def summarize(
    history: phh.HandHistory,
    *,
    cache: EquityCache | None = None,
    label: str = "hand",
    day: datetime.date | None = None,
) -> HandSummary:
    """Replay one hand and say what each seat did (a refused hand raises
    :class:`~cardlab.errors.HistoryError`, naming ``label``). ``day`` is when it was
    played if the history does not say (its ``year``, ``month``, ``day``)."""
    seat_positions = positions(history)
    watcher = Watcher(len(history.starting_stacks), seat_positions)
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
                position=seat_positions[i],
                four_bet_chance=s.four_bet_chance,
                four_bet=s.four_bet,
                fold_3bet_chance=s.fold_3bet_chance,
                fold_3bet=s.fold_3bet,
                steal_chance=s.steal_chance,
                steal=s.steal,
                fold_steal_chance=s.fold_steal_chance,
                fold_steal=s.fold_steal,
                cbet_chance=(s.cbet_chance[0], s.cbet_chance[1]),
                cbet=(s.cbet[0], s.cbet[1]),
                fold_cbet_chance=(s.fold_cbet_chance[0], s.fold_cbet_chance[1]),
                fold_cbet=(s.fold_cbet[0], s.fold_cbet[1]),
                check_raise_chances=s.check_raise_chances,
                check_raises=s.check_raises,
                won=collected[i] > 0,
                bets_raises=s.bets_raises,
                calls=s.calls,
                folds=s.folds,
                saw_second_street=i in second,
                showdown=showdown and at_showdown[i],
                won_at_showdown=showdown and at_showdown[i] and collected[i] > 0,
                all_in=all_in is not None and any(i in p.players for p in all_in.pots),
            )
        )
    site = history.user_fields.get("_site")
    return HandSummary(
        hand.game.game.key,
        tuple(seats),
        showdown,
        all_in,
        why,
        site=site if isinstance(site, str) else None,
        day=_day(history) or day,
        stakes=stakes(history),
    )


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


def _adjust(hand: HandState, snap: Snapshot, scale: int, cache: EquityCache) -> AllIn:
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
    rates: dict[str, Rate] = field(default_factory=dict)
    bets_raises: int = 0
    calls: int = 0
    folds: int = 0
    net: Fraction = Fraction(0)
    net_bb: Fraction = Fraction(0)
    expected_net: Fraction = Fraction(0)
    expected_bb: Fraction = Fraction(0)
    all_ins: int = 0

    def count(self, rate: str, chance: bool, done: bool) -> None:
        if chance:
            self.rates[rate] = self.rates.get(rate, Rate()) + Rate(int(done), 1)


def _rates(s: SeatSummary) -> Iterable[tuple[str, bool, bool]]:
    """(the rate, had the chance, did it) for one seat's hand."""
    yield "vpip", s.first_decision, s.vpip
    yield "pfr", s.first_decision, s.pfr
    yield "three_bet", s.three_bet_chance, s.three_bet
    yield "four_bet", s.four_bet_chance, s.four_bet
    yield "fold_to_three_bet", s.fold_3bet_chance, s.fold_3bet
    yield "steal", s.steal_chance, s.steal
    yield "fold_to_steal", s.fold_steal_chance, s.fold_steal
    yield "cbet_flop", s.cbet_chance[0], s.cbet[0]
    yield "cbet_turn", s.cbet_chance[1], s.cbet[1]
    yield "fold_to_cbet_flop", s.fold_cbet_chance[0], s.fold_cbet[0]
    yield "fold_to_cbet_turn", s.fold_cbet_chance[1], s.fold_cbet[1]
    yield "went_to_showdown", s.saw_second_street, s.showdown
    yield "won_at_showdown", s.showdown, s.won_at_showdown
    yield "won_when_saw_flop", s.saw_second_street, s.won


RATES = (
    "vpip",
    "pfr",
    "three_bet",
    "four_bet",
    "fold_to_three_bet",
    "steal",
    "fold_to_steal",
    "cbet_flop",
    "cbet_turn",
    "fold_to_cbet_flop",
    "fold_to_cbet_turn",
    "check_raise",
    "went_to_showdown",
    "won_at_showdown",
    "won_when_saw_flop",
)
"""The rates of :class:`PlayerStats`, in the order the tables show them."""


def player_stats(
    summaries: Iterable[HandSummary],
    *,
    by_position: bool = False,
    positions: Iterable[str] | None = None,
) -> list[PlayerStats]:
    """Each player's totals over the hands (by name; ``by_position``: by name and
    position), the most hands first. ``positions`` keeps only the seats at those
    positions (SB, BB, UTG, ..., BTN)."""
    wanted = None if positions is None else {p.upper() for p in positions}
    totals: dict[tuple[str, str | None], _Totals] = {}
    for summary in summaries:
        for s in summary.seats:
            if wanted is not None and s.position not in wanted:
                continue
            t = totals.setdefault((s.name, s.position if by_position else None), _Totals())
            t.hands += 1
            for rate, chance, done in _rates(s):
                t.count(rate, chance, done)
            if s.check_raise_chances:
                t.rates["check_raise"] = t.rates.get("check_raise", Rate()) + Rate(
                    s.check_raises, s.check_raise_chances
                )
            t.bets_raises += s.bets_raises
            t.calls += s.calls
            t.folds += s.folds
            t.net += s.net
            t.net_bb += s.net_bb
            t.expected_net += s.expected_net
            t.expected_bb += s.expected_bb
            t.all_ins += s.all_in
    out = [
        PlayerStats(
            name=name,
            hands=t.hands,
            **{r: t.rates.get(r, Rate()) for r in RATES},
            bets_raises=t.bets_raises,
            calls=t.calls,
            folds=t.folds,
            net=t.net,
            net_bb=t.net_bb,
            expected_net=t.expected_net,
            expected_bb=t.expected_bb,
            all_ins=t.all_ins,
            position=position,
        )
        for (name, position), t in totals.items()
    ]
    return sorted(out, key=lambda p: (-p.hands, p.name, _POSITION_ORDER.get(p.position or "", 99)))


_POSITION_ORDER = {
    name: k
    for k, name in enumerate(
        ("UTG", *(f"UTG+{k}" for k in range(1, 6)), "LJ", "HJ", "CO", "BTN", "SB", "BB", "")
    )
}


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


SESSION_GAP = datetime.timedelta(minutes=30)
"""A pause longer than this between a player's hands starts a new session."""


@dataclass(frozen=True, slots=True)
class Session:
    """A player's hands without a pause longer than the gap: when it began and ended,
    how many hands, the net and the all-in adjusted net in big blinds."""

    start: datetime.datetime
    end: datetime.datetime
    hands: int
    net_bb: Fraction
    expected_bb: Fraction


def sessions(
    hands: Iterable[tuple[datetime.datetime, HandSummary]],
    name: str,
    *,
    gap: datetime.timedelta = SESSION_GAP,
) -> list[Session]:
    """A player's sessions over timed hands (in any order): a new one begins when their
    next hand comes more than ``gap`` after the one before."""
    played = sorted(
        ((when, s) for when, summary in hands for s in summary.seats if s.name == name),
        key=lambda pair: pair[0],
    )
    out: list[Session] = []
    for when, s in played:
        last = out[-1] if out else None
        if last is not None and when - last.end <= gap:
            out[-1] = Session(
                last.start,
                when,
                last.hands + 1,
                last.net_bb + s.net_bb,
                last.expected_bb + s.expected_bb,
            )
        else:
            out.append(Session(when, when, 1, s.net_bb, s.expected_bb))
    return out
