"""How often each hand wins from here: exact enumeration and Monte Carlo.

Given the players' hole cards (or, for standard52 Hold'em, ranges), the known board
and dead cards, :func:`exact_equity` deals every remaining board and returns each
player's win / tie / lose and equity as :class:`~fractions.Fraction`\\ s; a pot split
``m`` ways counts ``1/m`` to each winner's equity. :func:`sample_equity` deals random
boards from a seeded numpy ``Generator`` and reports floats with standard errors,
optionally stopping once every equity's standard error is below ``target_se``.

A hand given as ``"random"`` (or ``"??"``) is an unknown opponent: dealt uniformly
from the cards left in every sample, and enumerated over every hand it could hold by
the exact path. :func:`equity` enumerates when that is cheap (heads-up on the turn or
the river, say, or one hand against one random hand in Hold'em where suits only make
flushes: that is counted by classes in a fraction of a second even preflop) and
samples otherwise.

Both run on the compiled loops of :mod:`cardlab.poker._kernels.showdowns` (Monte Carlo:
:mod:`~cardlab.poker._kernels.sampling`), which score
each player with the batch evaluator's kernels (:mod:`cardlab.poker.batch`). Exact
enumeration on the hash path counts most boards by their rank multiset and deals only
those where suits can matter (:mod:`~cardlab.poker._kernels.by_rank`); one hand against
a random hand is counted by classes of boards and opponent hands
(:mod:`~cardlab.poker._kernels.vs_random`). :func:`reference_equity` is the plain path
(the reference evaluator over every deal) the tests hold them to.

>>> from cardlab.poker.games import get_game
>>> r = exact_equity(get_game("standard52-holdem"), ["As Ac", "Kd Kh"], board="2c 7d 9h")
>>> r.players[0].equity
Fraction(907, 990)
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from cardlab import _prepare, budget
from cardlab._lazy import LazyModule
from cardlab.cards import Card, format_cards
from cardlab.errors import CardError, GameError
from cardlab.poker.games import Game
from cardlab.poker.plan import KernelPlan, counts_vs_random
from cardlab.poker.ranges import Range, parse_range, supports_ranges

# the compiled loops, imported when a question needs them (a full board does not); which
# one applies, and the look-ups it reads, come from the game's plan (cardlab.poker.plan)
_by_rank: Any = LazyModule("cardlab.poker._kernels.by_rank")
_sampling: Any = LazyModule("cardlab.poker._kernels.sampling")
_k: Any = LazyModule("cardlab.poker._kernels.showdowns")
_vs_random: Any = LazyModule("cardlab.poker._kernels.vs_random")
SHARE_UNIT = 2520  # lcm(1..10), as the kernels count: a pot split m ways is 2520 // m each

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called with ``done = 0`` once the input is checked and the
compiled work is about to start, then as it advances (for a progress bar)."""

COMPILE_SECONDS = 20
"""About how long the first equity computation of an install takes to compile the
kernels (numba caches them on disk; see :func:`kernels_compiled`): 8-14 s of CPU on two
cores with the serial twins of the parallel kernels (:mod:`cardlab._serial_first`)."""

HandLike = str | Sequence[Card]
HandOrRange = HandLike | Range
"""A hand for :func:`exact_equity`: its cards, a range's text (standard52 Hold'em),
``"random"``, or a parsed :class:`~cardlab.poker.ranges.Range` (any deck: the deck's
own classes, parsed by the caller)."""
CardsLike = str | Sequence[Card]

RANDOM = "random"
"""The hand of an unknown opponent (``"??"`` is read the same way)."""

# Exact enumeration with random hands: the most hole-card assignments it will walk
# (each is one compiled call), and, when ``equity`` chooses by itself, the most
# showdowns it enumerates before it samples instead.
_MAX_RANDOM_ASSIGNMENTS = 200_000
_AUTO_EXACT_SHOWDOWNS = 3_000_000
_AUTO_SAMPLES = 1_000_000

_COUNT_BY_CLASS = True  # False: every board dealt and scored (the tests compare the two)
_VS_RANDOM_RATE = 1e9  # showdowns a second of the hand-against-random counter (>4e9 here)

EXACT_LIMIT_SECONDS = 60.0
"""The longest exact enumeration :func:`exact_equity` starts by default (estimated)."""
# heads-up random showdowns a second on one core when sampling, rounded down from
# benchmarks of the built-in decks (Omaha, and the others): for estimates before the work
_SAMPLED_PER_CORE = {"omaha": 250_000.0, "other": 1_000_000.0}
_MAX_VARIANCE = 0.25  # of a share in [0, 1]: the deals a target standard error needs at most
_CHUNK_SECONDS = 0.25  # work per call of the compiled loops: Ctrl-C waits at most this
# A question of few showdowns (a full or nearly full board) is answered by the plain
# evaluator: at most PLAIN_SHOWDOWNS always (a river, a turn), and up to
# PLAIN_SHOWDOWNS_COLD while this process has not loaded the compiled loops (loading them
# costs more than a flop's boards scored plainly; once loaded, they are far faster)
PLAIN_SHOWDOWNS = 100
PLAIN_SHOWDOWNS_COLD = 2_000
_SPLIT_BELOW = 64  # fewer hole-card assignments than this: split their boards into tasks


@dataclass(frozen=True, slots=True)
class PlayerEquity:
    """One player's results. Exact: Fractions and ``se`` None; sampled: floats and
    their standard errors."""

    cards: str
    win: Fraction | float
    tie: Fraction | float
    lose: Fraction | float
    equity: Fraction | float
    win_se: float | None = None
    tie_se: float | None = None
    equity_se: float | None = None


@dataclass(frozen=True, slots=True)
class EquityResult:
    """Equity of every player; ``deals`` is the number of showdowns counted (every
    deal when ``exact``, else the samples)."""

    game: Game
    board: tuple[Card, ...]
    dead: tuple[Card, ...]
    exact: bool
    deals: int
    players: tuple[PlayerEquity, ...]
    target_se: float | None = None

    @property
    def target_reached(self) -> bool | None:
        """Sampled to a target standard error: whether every equity's reached it (False:
        the run stopped at its cap of deals first); None without a target."""
        if self.target_se is None:
            return None
        return all((p.equity_se or 0.0) <= self.target_se for p in self.players)

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of the command line (fractions stay Fractions here)."""
        players = []
        for p in self.players:
            row: dict[str, Any] = {
                "cards": p.cards,
                "win": p.win,
                "tie": p.tie,
                "lose": p.lose,
                "equity": p.equity,
            }
            if not self.exact:
                row |= {"win_se": p.win_se, "tie_se": p.tie_se, "equity_se": p.equity_se}
            players.append(row)
        out: dict[str, Any] = {
            "game": self.game.name,
            "board": format_cards(self.board),
            "dead": format_cards(self.dead),
            "exact": self.exact,
            "deals": self.deals,
            "players": players,
        }
        if self.target_se is not None:
            out |= {"target_se": self.target_se, "target_reached": self.target_reached}
        return out


def kernels_compiled(exact: bool) -> bool:
    """Whether the compiled loops of exact enumeration (or of sampling) are in numba's
    disk cache already; if not, their first use compiles them (about
    :data:`COMPILE_SECONDS`). :func:`enumerates` tells which one :func:`equity` uses."""
    from cardlab.poker import plan

    return plan.in_disk_cache(plan.exact_kernels() if exact else plan.sampling_kernels())


# Questions the kernels answer in seconds as plain Python (numba's compiler off, a first
# run that does not wait for the compile: cardlab._prepare): exact Hold'em equities of a
# few fixed hands, counted by rank class. Preflop, from empty caches (look-ups built too),
# 2 cores: standard52 heads-up 3 s, three-way 8 s, FESCA78 heads-up 21 s (compiling takes
# 55-80 s); a hand against a random hand took 60 s: it waits for the compiled kernels.
_QUICK_PLAYERS = {52: 3, 78: 2}  # the most players, by the most cards in the deck


def quick_uncompiled(
    game: Game,
    hands: Sequence[HandLike],
    board: CardsLike = (),
    dead: CardsLike = (),
    exact: bool | None = None,
    samples: int | None = None,
    target_se: float | None = None,
) -> bool:
    """Whether :func:`equity` with these arguments runs kernels that answer it within
    seconds as plain Python, on the game's built-in rules (decided without numba: exact
    fixed hands of Hold'em's shape, a small deck, few players, more boards than the plain
    evaluator takes). Bad input is False here (the question itself reports it)."""
    base = game.base
    if exact is False or samples is not None or target_se is not None:
        return False
    if (base.hole_cards, base.board_cards, base.hole_used) != (2, 5, None):
        return False
    fits = [n for cards, n in sorted(_QUICK_PLAYERS.items()) if len(game.deck) <= cards]
    most = fits[0] if fits else 0
    if not 2 <= len(hands) <= most:
        return False
    try:
        deal = _parse_deal(game, hands, board, dead)
    except (CardError, GameError):
        return False
    if any(deal.random) or any(len(c) != 1 for c in deal.combos):
        return False
    return not _plain_is_quicker(_fixed_showdowns(game, deal))  # else no kernel runs


# --- the deal: players' hands (cards or ranges), board, dead cards ---------------------


@dataclass(frozen=True, slots=True)
class _Deal:
    labels: tuple[str, ...]
    combos: tuple[tuple[tuple[Card, ...], ...], ...]  # per player, the hole-card choices
    board: tuple[Card, ...]
    dead: tuple[Card, ...]
    random: tuple[bool, ...]  # per player: an unknown hand (combos is ((),) until expanded)


def _parse_deal(
    game: Game, hands: Sequence[HandOrRange], board: CardsLike, dead: CardsLike
) -> _Deal:
    deck = game.deck
    b = deck.parse_cards(board) if board else ()
    d = deck.parse_cards(dead) if dead else ()
    labels: list[str] = []
    combos: list[tuple[tuple[Card, ...], ...]] = []
    fixed: list[tuple[Card, ...] | None] = []
    random: list[bool] = []
    for hand in hands:
        random.append(is_random(hand))
        if random[-1]:
            labels.append(RANDOM)
            combos.append(((),))
            fixed.append(None)
        elif isinstance(hand, Range):  # parsed by the caller (any deck's notation)
            labels.append(hand.text)
            combos.append(hand.combos)
            fixed.append(None)
        elif isinstance(hand, str) and _is_range(game, hand):
            rng = parse_range(hand, game)
            labels.append(rng.text)
            combos.append(rng.combos)
            fixed.append(None)
        else:
            cards = deck.parse_cards(hand)
            labels.append(format_cards(cards))
            combos.append((cards,))
            fixed.append(cards)
    game.check_deal(fixed, b, d, complete=False, partial_hands=game.base.board_cards == 0)
    out_of_play = set(b) | set(d)
    kept = []
    for i, cs in enumerate(combos):
        live = tuple(c for c in cs if not out_of_play & set(c))
        if not live:
            raise GameError(f"player {i + 1}'s range {labels[i]!r} has no hand left")
        kept.append(live)
    return _Deal(tuple(labels), tuple(kept), b, d, tuple(random))


def is_random(hand: HandOrRange) -> bool:
    """True for the hand of an unknown opponent: ``"random"`` or question marks (``"??"``)."""
    if not isinstance(hand, str):
        return False
    text = hand.strip().lower()
    return text == RANDOM or (bool(text) and not text.replace("?", "").strip())


def _expand_random(game: Game, deal: _Deal) -> _Deal:
    """The deal with every random hand listed as each hand it could be: the cards not
    on the board, dead, or in a known hand (clashes with ranges are left to
    :func:`_assignments`)."""
    if not any(deal.random):
        return deal
    known = {*deal.board, *deal.dead}
    for cs, rnd in zip(deal.combos, deal.random, strict=True):
        if not rnd and len(cs) == 1:
            known |= set(cs[0])
    left = [c for c in game.deck.cards if c not in known]
    every = tuple(itertools.combinations(left, game.base.hole_cards))
    combos = tuple(every if rnd else cs for cs, rnd in zip(deal.combos, deal.random, strict=True))
    return _Deal(deal.labels, combos, deal.board, deal.dead, deal.random)


def _random_cost(game: Game, deal: _Deal) -> tuple[int, int]:
    """(hole-card assignments, showdowns) that exact enumeration of a deal with random
    hands walks, counted before expanding (an upper bound where hands clash)."""
    known = len(deal.board) + len(deal.dead)
    known += sum(len(cs[0]) for cs, rnd in zip(deal.combos, deal.random, strict=True) if not rnd)
    left = len(game.deck) - known
    h = game.base.hole_cards
    assignments = 1
    for cs, rnd in zip(deal.combos, deal.random, strict=True):
        if rnd:
            assignments *= math.comb(max(left, 0), h)
            left -= h
        else:
            assignments *= len(cs)
    boards = math.comb(max(left, 0), game.base.board_cards - len(deal.board))
    return assignments, assignments * boards


def names_a_range(game: Game, hand: HandLike) -> bool:
    """True when ``hand`` is the text of a range (not cards, not a random hand): sampling
    it runs the general loop (:func:`~cardlab.poker._kernels.sampling.loop_for`)."""
    return isinstance(hand, str) and not is_random(hand) and _is_range(game, hand)


def _is_range(game: Game, text: str) -> bool:
    """True when ``text`` is a range: the game takes ranges (standard52 Hold'em) and
    the text is not one hand's cards (it lists items with commas, or is not cards)."""
    if not supports_ranges(game):
        return False
    if not text.strip() or "," in text:
        return True
    try:
        game.deck.parse_cards(text)
    except CardError:
        return True
    return False


def _assignments(deal: _Deal) -> list[tuple[tuple[Card, ...], ...]]:
    """Every choice of one combo per player with no card twice."""
    out = []
    for choice in itertools.product(*deal.combos):
        cards = [c for hand in choice for c in hand]
        if len(set(cards)) == len(cards):
            out.append(choice)
    if not out:
        raise GameError("the players' hands always share a card: no deal is possible")
    return out


# --- exact ------------------------------------------------------------------------------


def exact_equity(
    game: Game,
    hands: Sequence[HandOrRange],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    progress: Progress | None = None,
    max_seconds: float | None = EXACT_LIMIT_SECONDS,
) -> EquityResult:
    """Every remaining board dealt once: exact win/tie/lose/equity per player.

    Ranges are enumerated over every combination of their hands that shares no card
    (each such deal and board counted once). Players must hold all their hole cards.
    The work is estimated first (:func:`exact_cost`): a deal expected to take more than
    ``max_seconds`` is refused with :class:`ExactTooBig` (None: no limit). The compiled
    loops run in chunks of a fraction of a second, so Ctrl-C (``KeyboardInterrupt``)
    stops the work promptly and ``progress`` is called between chunks.
    """
    deal = _parse_deal(game, hands, board, dead)
    hero = _vs_random_hero(game, deal) if _COUNT_BY_CLASS else None
    if hero is not None:
        return _exact_vs_random(game, deal, hero, progress)
    if any(deal.random):
        count, _ = _random_cost(game, deal)
        if count > _MAX_RANDOM_ASSIGNMENTS:
            raise GameError(
                f"exact equity with random hands would deal {count:,} sets of hole "
                f"cards (at most {_MAX_RANDOM_ASSIGNMENTS:,}): use sampling"
            )
    h = game.base.hole_cards
    for i, cs in enumerate(deal.combos):
        if not deal.random[i] and len(cs[0]) != h:
            raise GameError(
                f"exact equity needs every player's {h} cards; player {i + 1} has "
                f"{len(cs[0])} (use sampling)"
            )
    if not any(deal.random) and _plain_is_quicker(_fixed_showdowns(game, deal)):
        if progress is not None:
            progress(0, 1)
        result = _plain_equity(game, deal)
        if progress is not None:
            progress(1, 1)
        return result
    kp = KernelPlan.for_game(game)
    showdowns, seconds = _exact_cost(game, deal, kp)
    if max_seconds is not None and seconds > max_seconds:
        raise ExactTooBig(showdowns, seconds, max_seconds)
    deal = _expand_random(game, deal)
    deck = game.deck
    board_codes = np.array(deck.codes(deal.board), np.int64)
    deal_n = game.base.board_cards - len(deal.board)
    assignments = _assignments(deal)
    players = len(deal.combos)
    total = np.zeros((4, players), np.int64)
    # every assignment leaves as many cards (the hands never share one), so one set of
    # board tasks serves all; the (assignment, task) units go to the compiled code in
    # chunks of about _CHUNK_SECONDS of work each
    left = len(deck) - len(deal.board) - len(deal.dead) - players * h
    if left < deal_n:
        raise GameError(f"the {deck.name} deck has too few cards left for this deal")
    if kp.counts_by_rank and deal_n > 0 and _COUNT_BY_CLASS:  # boards counted by class
        return _exact_by_rank(game, deal, assignments, board_codes, deal_n, progress)
    # many assignments: one unit walks all of an assignment's boards (units of a board or
    # two would cost more in setting up than in scoring); few: split the boards too
    many = len(assignments) >= _SPLIT_BELOW
    tasks = np.full((1, 2), -1, np.int64) if many else _k.board_tasks(left, deal_n)
    per_unit = max(math.comb(left, deal_n) // len(tasks), 1) * players  # keys per unit
    rate = kp.keys_per_second * _cores()
    chunk_units = max(1, int(rate * _CHUNK_SECONDS / per_unit))
    n_tasks = len(tasks)
    units_total = len(assignments) * n_tasks
    units_done = 0
    batch = max(1, min(len(assignments), -(-chunk_units // n_tasks), 4096))
    if progress is not None:
        progress(0, units_total)  # the work starts (the first call may compile first)
    for lo in range(0, len(assignments), batch):
        chunk = assignments[lo : lo + batch]
        holes = np.array([[deck.codes(c) for c in choice] for choice in chunk], np.int64)
        rests = np.array(
            [_rest(len(deck), x, board_codes, deal.dead, deck) for x in holes], np.int64
        )
        units = np.stack(np.divmod(np.arange(len(chunk) * n_tasks, dtype=np.int64), n_tasks), 1)
        for start in range(0, len(units), chunk_units):
            part = np.ascontiguousarray(units[start : start + chunk_units])
            total += _k.exact_units(
                holes, board_codes, rests, deal_n, tasks, part, kp.arrays, kp.scalars
            )
            units_done += len(part)
            if progress is not None:
                progress(units_done, units_total)
    deals = int(total[2].sum()) // SHARE_UNIT  # each showdown shares out one pot
    return _exact_result(game, deal, total, deals)


def _vs_random_hero(game: Game, deal: _Deal) -> int | None:
    """The known hand's player when the deal is one hand against one random hand and
    the class counter of :mod:`cardlab.poker._kernels.vs_random` applies, else None."""
    if len(deal.combos) != 2 or sum(deal.random) != 1:
        return None
    hero = deal.random.index(False)
    known = deal.combos[hero]
    if len(known) != 1 or len(known[0]) != game.base.hole_cards or not counts_vs_random(game):
        return None
    return hero


def _exact_vs_random(game: Game, deal: _Deal, hero: int, progress: Progress | None) -> EquityResult:
    """One hand against a random hand, every board and every opponent hand counted."""
    deck = game.deck
    hole = np.array(deck.codes(deal.combos[hero][0]), np.int64)
    board_codes = np.array(deck.codes(deal.board), np.int64)
    rest = np.array(_rest(len(deck), hole, board_codes, deal.dead, deck), np.int64)
    if len(rest) < game.base.board_cards - len(deal.board) + game.base.hole_cards:
        raise GameError(f"the {deck.name} deck has too few cards left for this deal")
    kp = KernelPlan.for_game(game)
    if progress is not None:
        progress(0, 1)
    total = _vs_random.count(hole, board_codes, rest, kp.arrays, kp.scalars, _cores())
    if hero == 1:
        total = total[:, ::-1]
    if progress is not None:
        progress(1, 1)
    deals = int(total[2].sum()) // SHARE_UNIT
    return _exact_result(game, deal, total, deals)


def _exact_by_rank(
    game: Game,
    deal: _Deal,
    assignments: list[tuple[tuple[Card, ...], ...]],
    board_codes: np.ndarray[Any, Any],
    deal_n: int,
    progress: Progress | None,
) -> EquityResult:
    """Exact tallies on the hash path: most boards counted by their rank multiset
    (:mod:`cardlab.poker._kernels.by_rank`), one compiled call per hole-card assignment."""
    deck = game.deck
    kp = KernelPlan.for_game(game)
    total = np.zeros((4, len(deal.combos)), np.int64)
    workers = _cores()  # numba's thread count in this thread
    step = max(1, len(assignments) // 100)
    if progress is not None:
        progress(0, len(assignments))
    for i, choice in enumerate(assignments):
        holes = np.array([deck.codes(c) for c in choice], np.int64)
        rest = np.array(_rest(len(deck), holes, board_codes, deal.dead, deck), np.int64)
        total += _by_rank.exact_by_rank(
            holes, board_codes, rest, deal_n, kp.arrays, kp.scalars, workers
        )
        if progress is not None and ((i + 1) % step == 0 or i + 1 == len(assignments)):
            progress(i + 1, len(assignments))
    deals = int(total[2].sum()) // SHARE_UNIT
    return _exact_result(game, deal, total, deals)


class ExactTooBig(GameError):
    """Exact enumeration would take longer than the caller allows."""

    def __init__(self, showdowns: int, seconds: float, limit: float) -> None:
        self.showdowns = showdowns
        self.seconds = seconds
        self.limit = limit
        super().__init__(
            f"exact equity would settle {showdowns:,} showdowns, about "
            f"{budget.duration(seconds)} on this machine (the limit is "
            f"{budget.duration(limit)}): sample instead"
        )


def exact_cost(
    game: Game, hands: Sequence[HandLike], board: CardsLike = (), dead: CardsLike = ()
) -> tuple[int, float]:
    """(showdowns, estimated seconds) of :func:`exact_equity` on this deal, before any
    work (an upper bound where ranges overlap; the seconds from a conservative rate of
    the kernel the game uses, on every core)."""
    deal = _parse_deal(game, hands, board, dead)
    return _exact_cost(game, deal, KernelPlan.for_game(game))


def _exact_cost(game: Game, deal: _Deal, kp: KernelPlan) -> tuple[int, float]:
    if _vs_random_hero(game, deal) is not None:  # counted by classes: a fraction of a second
        _, showdowns = _random_cost(game, deal)
        return showdowns, showdowns / _VS_RANDOM_RATE
    if any(deal.random):
        _, showdowns = _random_cost(game, deal)
    else:
        showdowns = _fixed_showdowns(game, deal)
    keys = showdowns * len(deal.combos)
    return showdowns, keys / (kp.keys_per_second * _cores())


def _plain_is_quicker(showdowns: int) -> bool:
    """Whether the plain evaluator answers ``showdowns`` sooner than the compiled loops
    (which may have to load first)."""
    if showdowns <= PLAIN_SHOWDOWNS:
        return True
    loaded = "cardlab.poker._kernels.showdowns" in sys.modules
    return showdowns <= PLAIN_SHOWDOWNS_COLD and not loaded


def _fixed_showdowns(game: Game, deal: _Deal) -> int:
    """The showdowns of a deal without random hands: hole-card choices times boards (an
    upper bound where ranges overlap)."""
    known = len(deal.board) + len(deal.dead) + len(deal.combos) * game.base.hole_cards
    boards = math.comb(max(len(game.deck) - known, 0), game.base.board_cards - len(deal.board))
    return math.prod(len(c) for c in deal.combos) * boards


def _cores() -> int:
    import numba

    return int(numba.get_num_threads())


def sampling_seconds(game: Game, showdowns: int, players: int = 2) -> float:
    """About how long ``showdowns`` random showdowns of ``players`` take to deal and
    settle in ``game`` on this machine, before any work or look-up is built (at the rate of
    the built-in decks: a deck whose rules the hashed kernels cannot take is slower)."""
    rate = _SAMPLED_PER_CORE["omaha" if game.base.key == "omaha" else "other"]
    per_second = rate * _cores() * 2 / max(players, 2)
    return budget.seconds_for(showdowns, per_second)


def deals_for(target_se: float) -> int:
    """The most random deals a standard error of ``target_se`` can need (the variance of
    a share is at most 1/4)."""
    return math.ceil(min(_MAX_VARIANCE / target_se / target_se, 1e30))  # no underflow


_FEWER_SAMPLES = "ask for fewer samples (a million give a standard error near 0.0005)"


def _rest(
    size: int, hole: np.ndarray[Any, Any], board: np.ndarray[Any, Any], dead: Any, deck: Any
) -> list[int]:
    """The codes of the cards not held, on the board or dead."""
    used = {*hole.ravel().tolist(), *board.tolist(), *deck.codes(dead)}
    return [c for c in range(size) if c not in used]


def _exact_result(
    game: Game, deal: _Deal, total: np.ndarray[Any, np.dtype[np.int64]], deals: int
) -> EquityResult:
    players = []
    for p, label in enumerate(deal.labels):
        win, tie = int(total[0, p]), int(total[1, p])
        players.append(
            PlayerEquity(
                cards=label,
                win=Fraction(win, deals),
                tie=Fraction(tie, deals),
                lose=Fraction(deals - win - tie, deals),
                equity=Fraction(int(total[2, p]), deals * SHARE_UNIT),
            )
        )
    return EquityResult(game, deal.board, deal.dead, True, deals, tuple(players))


# --- Monte Carlo ------------------------------------------------------------------------

_BLOCKS = 8  # blocks per round: fixed, so results do not depend on the thread count
_BLOCK_TRIALS = 25_000


def sample_equity(
    game: Game,
    hands: Sequence[HandLike],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    samples: int = 1_000_000,
    rng: np.random.Generator | int | None = None,
    target_se: float | None = None,
    progress: Progress | None = None,
    max_seconds: float | None = budget.LIMIT_SECONDS,
) -> EquityResult:
    """Random deals: estimates with standard errors.

    Deals ``samples`` showdowns (rounded up to whole blocks), or stops earlier once
    every player's equity standard error is at most ``target_se`` (the result says
    whether it was reached: :attr:`EquityResult.target_reached`). Ranges pick a hand
    uniformly among those sharing no card with the others; random hands are dealt from
    the cards left. Players of Stud may hold fewer than seven cards: the rest are dealt.
    A run estimated to take longer than ``max_seconds`` is refused with
    :class:`~cardlab.budget.TooMuchWork` (None: no limit).
    """
    if samples < 1:
        raise GameError(f"samples must be positive, got {samples}")
    if target_se is not None and not target_se > 0:
        raise GameError(f"target standard error must be positive, got {target_se}")
    gen = _generator(rng)
    deal = _parse_deal(game, hands, board, dead)
    if len(deal.combos) > 1:
        _assignments_exist(deal)
    small = target_se is None and samples * len(deal.combos) <= PLAIN_WHILE_PREPARING
    if small and _plain_hands(game, deal) is not None and _prepare.preparing_in_process():
        return _plain_sampled(game, deal, samples, gen, None, progress)
    _prepare.wait_in_process()  # a web process compiling these kernels in a thread
    deck = game.deck
    players = len(deal.combos)
    combos, n_combos, board_arr, base_used = _sample_arrays(game, deal)
    kp = KernelPlan.for_game(game)
    if max_seconds is not None:
        planned = samples if target_se is None else min(samples, deals_for(target_se))
        seconds = sampling_seconds(game, planned, players)
        budget.check(f"sampling {planned:,} deals", seconds, _FEWER_SAMPLES, limit=max_seconds)
    total = np.zeros((5, players), np.int64)
    done = 0
    per_round = _BLOCKS * _BLOCK_TRIALS
    if progress is not None:
        progress(0, samples)
    while done < samples:
        trials = min(_BLOCK_TRIALS, -(-(samples - done) // _BLOCKS))
        seeds = gen.integers(1, 2**62, size=_BLOCKS, dtype=np.int64)
        total += _sampling.monte_carlo(
            combos,
            n_combos,
            board_arr,
            base_used,
            len(deck),
            kp.arrays,
            kp.scalars,
            seeds,
            trials,
            False,
        )
        done += trials * _BLOCKS
        if progress is not None:
            progress(min(done, samples), samples)
        if target_se is not None and done >= per_round:
            ses = _sampled(deal, total, done)[1]
            if max(ses) <= target_se:
                break
    return _sampled_result(game, deal, total, done, target_se)


# While this process prepares the compiled sampler in a thread (a web process's first
# minute on an empty cache), a sample of at most this many showdowns (deals x players) is
# settled by the plain evaluator rather than wait for it: a bot's decision deals 800
# (the plain evaluator settles about 2,400 heads-up deals a second on this machine's core)
PLAIN_WHILE_PREPARING = 8_000


def plain_sample_equity(
    game: Game,
    hands: Sequence[HandLike],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    samples: int = 20_000,
    rng: np.random.Generator | int | None = None,
    target_se: float | None = None,
    progress: Progress | None = None,
) -> EquityResult:
    """Monte Carlo as :func:`sample_equity`, settled by the plain evaluator (no compiled
    code: :mod:`cardlab.poker._plain_sampling`): what a web bot decides by while its
    process prepares the compiled sampler. Deals ``samples`` (or stops once every
    standard error is at most ``target_se``, checked from 2,000 deals on); the same seed
    deals other cards than the compiled sampler. Each hand is complete or random."""
    if samples < 1:
        raise GameError(f"samples must be positive, got {samples}")
    if target_se is not None and not target_se > 0:
        raise GameError(f"target standard error must be positive, got {target_se}")
    deal = _parse_deal(game, hands, board, dead)
    if _plain_hands(game, deal) is None:
        raise GameError("the plain sampler takes complete or random hands, not ranges")
    return _plain_sampled(game, deal, samples, _generator(rng), target_se, progress)


def _plain_hands(game: Game, deal: _Deal) -> list[tuple[Card, ...] | None] | None:
    """Each player's one hand (None: random), or None when a range or a partial hand
    needs the compiled sampler."""
    from cardlab.poker import _plain_sampling

    pairs = zip(deal.random, deal.combos, strict=True)
    hands = [None if r else (c[0] if len(c) == 1 else ()) for r, c in pairs]
    return hands if _plain_sampling.applies(game, hands) else None


def _plain_sampled(
    game: Game,
    deal: _Deal,
    samples: int,
    gen: np.random.Generator,
    target_se: float | None,
    progress: Progress | None,
) -> EquityResult:
    from cardlab.poker import _plain_sampling

    hands = _plain_hands(game, deal)
    assert hands is not None  # the callers checked
    _assignments(deal)  # the hands share no card

    def stop(total: np.ndarray[Any, np.dtype[np.int64]], done: int) -> bool:
        return (
            target_se is not None
            and done >= 2_000
            and max(_sampled(deal, total, done)[1]) <= target_se
        )

    try:
        total, done = _plain_sampling.sample_tallies(
            game, hands, deal.board, deal.dead, samples, gen, progress, stop
        )
    except ValueError as exc:
        raise GameError(str(exc)) from None
    return _sampled_result(game, deal, total, done, target_se)


def _sample_arrays(game: Game, deal: _Deal) -> tuple[np.ndarray[Any, np.dtype[np.int64]], ...]:
    """The deal as :func:`~cardlab.poker._kernels.sampling.monte_carlo` takes it:
    (combos, n_combos, board, base_used), -1 for a card dealt at random."""
    deck = game.deck
    h = game.base.hole_cards
    most = max(len(c) for c in deal.combos)
    combos = np.full((len(deal.combos), most, h), -1, np.int64)
    for p, cs in enumerate(deal.combos):
        for j, hand in enumerate(cs):
            combos[p, j, : len(hand)] = deck.codes(hand)
    n_combos = np.array([len(c) for c in deal.combos], np.int64)
    board = np.full(game.base.board_cards, -1, np.int64)
    board[: len(deal.board)] = deck.codes(deal.board)
    base_used = np.zeros(len(deck), np.int64)
    for c in (*deal.board, *deal.dead):
        base_used[deck.code(c)] = 1
    return combos, n_combos, board, base_used


def _generator(rng: np.random.Generator | int | None) -> np.random.Generator:
    """The caller's generator, or a new one from a seed (a non-negative integer)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is not None and (not isinstance(rng, int) or isinstance(rng, bool) or rng < 0):
        raise GameError(f"a seed is a non-negative integer, got {rng!r}")
    return np.random.default_rng(rng)


def _assignments_exist(deal: _Deal) -> None:
    sizes = math.prod(len(c) for c in deal.combos)
    if sizes <= 100_000:
        _assignments(deal)


def _sampled(
    deal: _Deal, total: np.ndarray[Any, np.dtype[np.int64]], n: int
) -> tuple[list[PlayerEquity], list[float]]:
    players, ses = [], []
    unit = SHARE_UNIT
    for p, label in enumerate(deal.labels):
        win, tie = total[0, p] / n, total[1, p] / n
        eq = total[2, p] / (n * unit)
        var = max(total[3, p] / (n * unit * unit) - eq * eq, 0.0)
        se = math.sqrt(var / n)
        ses.append(se)
        players.append(
            PlayerEquity(
                cards=label,
                win=float(win),
                tie=float(tie),
                lose=float(1 - win - tie),
                equity=float(eq),
                win_se=math.sqrt(win * (1 - win) / n),
                tie_se=math.sqrt(tie * (1 - tie) / n),
                equity_se=se,
            )
        )
    return players, ses


def _sampled_result(
    game: Game,
    deal: _Deal,
    total: np.ndarray[Any, np.dtype[np.int64]],
    n: int,
    target_se: float | None = None,
) -> EquityResult:
    players = _sampled(deal, total, n)[0]
    return EquityResult(game, deal.board, deal.dead, False, n, tuple(players), target_se)


def enumerates(
    game: Game,
    hands: Sequence[HandLike],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    samples: int | None = None,
    target_se: float | None = None,
) -> bool:
    """Whether :func:`equity` without ``exact`` enumerates this deal (else it samples)."""
    if samples is not None or target_se is not None:
        return False
    deal = _parse_deal(game, hands, board, dead)
    held = game.base.hole_cards
    if any(not r and len(cs[0]) != held for r, cs in zip(deal.random, deal.combos, strict=True)):
        return False  # enumeration needs every player's hole cards; sampling deals the rest
    if not any(deal.random):
        return True
    if _vs_random_hero(game, deal) is not None:
        return True
    assignments, showdowns = _random_cost(game, deal)
    return assignments <= _MAX_RANDOM_ASSIGNMENTS and showdowns <= _AUTO_EXACT_SHOWDOWNS


def equity(
    game: Game,
    hands: Sequence[HandLike],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    exact: bool | None = None,
    samples: int | None = None,
    rng: np.random.Generator | int | None = None,
    target_se: float | None = None,
    progress: Progress | None = None,
) -> EquityResult:
    """Exact when asked, or by default when no sampling option is given; with random
    hands, by default exact only when that is cheap (else ``_AUTO_SAMPLES`` samples)."""
    if exact is None:
        exact = enumerates(game, hands, board, dead, samples=samples, target_se=target_se)
        if not exact and samples is None and target_se is None:
            samples = _AUTO_SAMPLES
    if exact:
        if samples is not None or target_se is not None:
            raise GameError("choose exact enumeration or sampling (samples/target_se), not both")
        return exact_equity(game, hands, board, dead, progress=progress)
    return sample_equity(
        game,
        hands,
        board,
        dead,
        samples=samples if samples is not None else 100_000_000,
        rng=rng,
        target_se=target_se,
        progress=progress,
    )


# --- split pots -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TieRate:
    """How often a showdown of random hands splits the pot, with the suit tie-breaks
    on (``with_suits``, whatever the deck's default) and off."""

    game: Game
    samples: int
    with_suits: float
    with_suits_se: float
    without_suits: float
    without_suits_se: float


def tie_rate(
    game: Game,
    *,
    samples: int = 400_000,
    rng: np.random.Generator | int | None = None,
    players: int = 2,
    progress: Progress | None = None,
    max_seconds: float | None = budget.LIMIT_SECONDS,
) -> TieRate:
    """Split-pot frequency of random deals, sampled (standard errors given).
    ``progress(done, total)`` counts the showdowns of both halves (suits on, off). A run
    estimated to take longer than ``max_seconds`` is refused (None: no limit)."""
    if samples < 1:
        raise GameError(f"samples must be positive, got {samples}")
    _prepare.wait_in_process()  # a web process compiling these kernels in a thread
    game.check_players(players)
    if max_seconds is not None:
        seconds = sampling_seconds(game, 2 * samples, players)
        budget.check(f"sampling {2 * samples:,} deals", seconds, _FEWER_SAMPLES, limit=max_seconds)
    gen = _generator(rng)
    rates = []
    for half, suits in enumerate((True, False)):
        g = game.with_options(suit_tiebreak=suits)
        step = None if progress is None else _offset(progress, half * samples, 2 * samples)
        rates.append(_split_share(g, samples, gen, players, step))
    (a, a_se), (b, b_se) = rates
    return TieRate(game, samples, a, a_se, b, b_se)


def _offset(progress: Progress, offset: int, total: int) -> Progress:
    """``progress`` for one part of a larger piece of work."""
    return lambda done, _total: progress(offset + done, total)


def _split_share(
    game: Game,
    samples: int,
    gen: np.random.Generator,
    players: int,
    progress: Progress | None = None,
) -> tuple[float, float]:
    deck = game.deck
    h = game.base.hole_cards
    combos = np.full((players, 1, h), -1, np.int64)
    board = np.full(game.base.board_cards, -1, np.int64)
    kp = KernelPlan.for_game(game)
    total = np.zeros((5, players), np.int64)
    n = 0
    if progress is not None:
        progress(0, samples)
    while n < samples:  # in rounds, so that Ctrl-C and progress get a turn
        trials = min(_BLOCK_TRIALS, -(-(samples - n) // _BLOCKS))
        seeds = gen.integers(1, 2**62, size=_BLOCKS, dtype=np.int64)
        total += _sampling.monte_carlo(
            combos,
            np.ones(players, np.int64),
            board,
            np.zeros(len(deck), np.int64),
            len(deck),
            kp.arrays,
            kp.scalars,
            seeds,
            trials,
            False,
        )
        n += trials * _BLOCKS
        if progress is not None:
            progress(min(n, samples), samples)
    # a split showdown hands out SHARE_UNIT over two or more winners
    splits = (int(total[2].sum()) - SHARE_UNIT * int(total[0].sum())) // SHARE_UNIT
    p = splits / n
    return p, math.sqrt(p * (1 - p) / n)


# --- the plain reference ----------------------------------------------------------------


def reference_equity(
    game: Game, hands: Sequence[HandLike], board: CardsLike = (), dead: CardsLike = ()
) -> EquityResult:
    """Exact equity the plain way: every remaining board, the reference evaluator.

    Slow (about 10^4 boards a second); for small cases and the tests.
    """
    return _plain_equity(game, _expand_random(game, _parse_deal(game, hands, board, dead)))


def _plain_equity(game: Game, deal: _Deal) -> EquityResult:
    """Every remaining board of ``deal`` scored by the reference evaluator."""
    from cardlab.poker.showdown import player_keys

    players = len(deal.combos)
    total = np.zeros((4, players), np.int64)
    deals = 0
    for choice in _assignments(deal):
        used = {*deal.board, *deal.dead, *(c for hand in choice for c in hand)}
        rest = [c for c in game.deck.cards if c not in used]
        for extra in itertools.combinations(rest, game.base.board_cards - len(deal.board)):
            keys = player_keys(game, choice, (*deal.board, *extra))
            top = max(keys)
            winners = [p for p, k in enumerate(keys) if k == top]
            for p in winners:
                total[0 if len(winners) == 1 else 1, p] += 1
                total[2, p] += SHARE_UNIT // len(winners)
            deals += 1
    return _exact_result(game, deal, total, deals)
