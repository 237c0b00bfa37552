"""The ``equity`` bot: bets by its chance of winning against the hands it cannot see.

At each decision the bot estimates its **equity** (its share of the pot at a showdown)
against every live opponent holding a uniformly random hand from the cards it has not
seen, by cardlab's Monte Carlo (:func:`cardlab.poker.equity.sample_equity`, a fixed
sample budget, seeded from the ``rng`` the bot is given, so a decision is a function of
the view and the seed). What the bot knows is in the deal: the board, its own cards,
the up-cards of every Stud opponent (they are that opponent's cards; the rest are
dealt) and the up-cards of folded Stud players and its own discards (dead cards).

Then it compares the equity with what the pot asks:

* facing a bet it calls when the equity beats the pot odds ``call / (pot + call)`` by a
  margin, raises when the equity is well above a fair share ``1 / players``, and
  folds otherwise;
* with nothing to call it bets for value when the equity is above the fair share by a
  margin (a smaller margin in the last position, which acts last on later streets);
* bet sizes are a fraction of the pot within the legal range; when the stack behind is
  small against the pot (stack depth) a strong hand moves all in instead.

In the small games of :mod:`cardlab.solve` at the table (Kuhn, Leduc:
:mod:`cardlab.solve.small_table`) the equity is exact: every hand the opponent may hold and
every public card still to come, ranked by the small game's own order.

In Draw it keeps the cards with the exact best draw: all 32 keeps scored by the mean
strength of the final hand (its chance to beat another five-card hand of the deck) over
every draw from the cards it has not seen, its own earlier discards dead
(:func:`cardlab.poker.draw_strength.keep_strengths`: subset sums built once per deck
and kept on disk, then 243 look-ups a hand). On a deck too big for that table (over 60
million five-card hands) it scores the keeps by Monte Carlo equity against a random
hand instead (``draw="sampled"`` asks for that everywhere).

The compiled Monte Carlo runs on one thread here: a decision needs only about a thousand
showdowns, and starting the parallel threads costs more than that on a busy machine.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from cardlab.cards import Card
from cardlab.errors import GameError
from cardlab.poker.equity import HandLike, sample_equity
from cardlab.poker.games import Game
from cardlab.table import events as ev
from cardlab.table.actions import Action
from cardlab.table.state import Legal, Phase
from cardlab.table.structure import Betting
from cardlab.table.view import SeatView


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """Run the compiled kernels on one thread inside the block (thread-local in numba)."""
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def known_cards(view: SeatView) -> tuple[list[HandLike], list[Card]]:
    """The hands to estimate against (the viewer's cards first, then each live
    opponent's: their visible cards, or ``"random"``) and the dead cards the viewer
    knows (folded players' up-cards, its own discards)."""
    me = view.position
    if me is None:
        raise GameError("a spectator has no hand to estimate")
    hands: list[HandLike] = [list(view.hole)]
    dead: list[Card] = []
    for p in view.players:
        shown = [c for c in p.cards if c is not None]
        if p.position == me:
            continue
        if p.in_hand:
            hands.append(shown if shown else "random")
        else:
            dead.extend(shown)
    for e in view.history:
        if isinstance(e, ev.StandPatDiscard) and e.player == me:
            dead.extend(c for c in e.cards if c is not None)
    # after a reshuffle a discard can come back into play: it is then not dead
    live = {c for h in hands if not isinstance(h, str) for c in h} | set(view.board)
    return hands, [c for c in dict.fromkeys(dead) if c not in live]


def hand_equity(
    view: SeatView, rng: random.Random, samples: int, hole: Sequence[Card] | None = None
) -> float:
    """The viewer's equity against the live opponents (random hands beyond what it
    sees), estimated from ``samples`` deals seeded from ``rng``; ``hole`` replaces the
    viewer's cards (a keep in Draw)."""
    if view.game.own_order:  # a small game of cardlab.solve: exact, by its own order
        from cardlab.solve.small_table import SmallTableGame, small_equity

        if isinstance(view.game, SmallTableGame) and len(view.live_opponents) == 1:
            mine = view.hole if hole is None else tuple(hole)
            return float(small_equity(view.game, mine, view.board))
    hands, dead = known_cards(view)
    if hole is not None:
        dead = dead + [c for c in view.hole if c not in hole]
        hands[0] = list(hole) if hole else "random"
    if len(hands) == 1:
        return 1.0
    game = view.game.game
    seed = rng.getrandbits(62)
    # a full table can need more cards than the deck has (eight Stud players on 52
    # cards, a Draw table after the discards): the engine then deals a shared card or
    # reshuffles; the estimate drops the dead cards, then the opponents it knows least
    hands = hands[: game.max_players]
    if _cards_needed(game, hands, view.board, dead) > len(game.deck):
        dead = []
    while len(hands) > 2 and _cards_needed(game, hands, view.board, dead) > len(game.deck):
        unknown = [i for i in range(1, len(hands)) if isinstance(hands[i], str)]
        hands.pop(unknown[-1] if unknown else -1)
    result = sample_equity(game, hands, board=view.board, dead=dead, samples=samples, rng=seed)
    return float(result.players[0].equity)


def _cards_needed(
    game: Game, hands: Sequence[HandLike], board: Sequence[Card], dead: Sequence[Card]
) -> int:
    return len(hands) * game.base.hole_cards + game.base.board_cards + len(dead)


@dataclass
class EquityBot:
    """See the module documentation. ``samples``: showdowns per equity estimate;
    ``margin``: how much equity above the pot odds a call needs; ``draw``: ``"exact"``
    (the exact best keep) or ``"sampled"`` (Monte Carlo, ``draw_samples`` per keep)."""

    samples: int = 800
    draw_samples: int = 160
    margin: float = 0.03
    draw: str = "exact"
    name: str = "equity"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        if legal is None or view.position is None:
            raise GameError("the equity bot was asked to act out of turn")
        if legal.phase is Phase.SHOWDOWN:
            return Action.show()
        with one_thread():
            if legal.phase is Phase.DRAW:
                return self._draw(view, rng)
            eq = hand_equity(view, rng, self.samples)
        return self.decide(view, legal, eq, rng)

    # --- betting -----------------------------------------------------------------------

    def decide(self, view: SeatView, legal: Legal, eq: float, rng: random.Random) -> Action:
        """The betting decision for an equity ``eq`` (see the module documentation)."""
        me = view.players[view.position or 0]
        players = 1 + len(view.live_opponents)
        fair = 1.0 / players
        pot = view.total_pot
        to_call = legal.call
        last = view.position == max(p.position for p in view.players if p.in_hand)
        strong = fair + (1.0 - fair) * (0.30 if last else 0.36)
        value = fair + (1.0 - fair) * (0.12 if last else 0.18)
        if to_call is None:  # Stud: bring in or complete
            if legal.raise_min is not None and eq >= value:
                return Action.raise_to(legal.raise_min)
            return Action.bring_in()
        if to_call == 0:
            if legal.raise_min is not None and eq >= value:
                return self._bet(view, legal, me.bet, me.stack, pot, eq, strong)
            return Action.call()
        odds = to_call / (pot + to_call)
        if legal.raise_min is not None and eq >= max(strong, odds + 0.2):
            return self._bet(view, legal, me.bet, me.stack, pot + to_call, eq, strong)
        if eq >= odds + self.margin or (to_call <= 0.05 * pot and eq >= 0.8 * odds):
            return Action.call()
        return Action.fold()

    def _bet(
        self, view: SeatView, legal: Legal, bet: int, stack: int, pot: int, eq: float, strong: float
    ) -> Action:
        lo, hi = legal.raise_min, legal.raise_max
        if lo is None or hi is None:
            return Action.call()
        if view.game.stakes.betting is Betting.FIXED_LIMIT:
            return Action.raise_to(lo)
        fraction = 0.75 if eq >= strong else 0.55
        target = bet + (legal.call or 0) + int(fraction * pot)
        # stack depth: with little behind compared with the pot, commit a strong hand now
        if eq >= strong and stack <= 1.5 * pot:
            target = hi
        return Action.raise_to(min(max(target, lo), hi))

    # --- draw ---------------------------------------------------------------------------

    def _draw(self, view: SeatView, rng: random.Random) -> Action:
        hole = tuple(view.hole)
        if self.draw == "exact" and len(hole) == 5:
            from cardlab.poker.draw_strength import keep_strengths

            _, dead = known_cards(view)
            try:
                keep = keep_strengths(view.game.game, hole, dead=dead)[0]
            except GameError:  # a deck too big for the exact table
                pass
            else:
                return Action.discard(keep.discarded)
        seed = rng.getrandbits(62)
        best: tuple[float, int, tuple[Card, ...]] | None = None
        for size in range(len(hole), -1, -1):
            for kept in itertools.combinations(hole, size):
                # the same seed for every keep: common random numbers sharpen the comparison
                eq = hand_equity(view, random.Random(seed), self.draw_samples, kept)
                score = (eq, size, kept)
                if best is None or score[:2] > best[:2]:
                    best = score
        assert best is not None  # the loop scores at least standing pat
        kept = best[2]
        return Action.discard(tuple(c for c in hole if c not in kept))
