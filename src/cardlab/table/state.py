"""One hand of poker as a state machine: forced bets, streets, betting, draws, showdown.

>>> from cardlab.table import TableGame, HandState
>>> hand = HandState(TableGame.create("standard52-holdem", blinds=(1, 2)), [200] * 3, seed=7)
>>> hand.actor, hand.legal().call, hand.legal().raise_min
(2, 2, 4)
>>> hand.bet_or_raise_to(6).phh
'p3 cbr 6'
>>> hand.fold().phh
'p1 f'

A :class:`HandState` is created from a :class:`~cardlab.table.TableGame` and the
starting stacks by position (position 0 is the first seat left of the button, the
last position the button; heads-up, position 1 is the button and posts the small
blind). Forced bets are posted and cards dealt automatically; the state then waits for
the player in turn (:attr:`HandState.actor`). Every action has three forms, as in
pokerkit: ``verify_x`` raises :class:`~cardlab.errors.ActionError` with the reason and
changes nothing, ``can_x`` answers, ``x`` does it and returns the event
(:mod:`cardlab.table.events`). :meth:`HandState.legal` lists what the actor may do
with the amount ranges.

Dealing is separate from deciding: with ``deal="auto"`` (the default) the cards come
from a deck shuffled by ``seed``; with ``deal="manual"`` the state waits for
:meth:`deal_hole` / :meth:`deal_board` (replaying a hand history). The betting follows
pokerkit's rules exactly (the differential tests check every step): the minimum raise
is the largest full raise of the round; an all-in raise short of that does not reopen
the betting to players who already acted (short all-ins add up); uncalled bets go
back; fixed-limit allows four bets and raises a round; the last aggressor shows first.
Chips are integers and their total never changes.
"""

from __future__ import annotations

import enum
import random
import secrets
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardlab.cards import Card, format_cards
from cardlab.decks import Deck
from cardlab.errors import ActionError
from cardlab.table import events as ev
from cardlab.table import stud
from cardlab.table.dealing import Dealer
from cardlab.table.pots import Pot, layer_pots
from cardlab.table.showdown import HandResult, settle_pots
from cardlab.table.structure import Betting, Opening, Street, TableGame


class Phase(enum.Enum):
    """What the hand waits for."""

    DEAL = "deal"  # cards (manual dealing)
    BET = "bet"  # a betting decision of the actor
    DRAW = "draw"  # a discard (or standing pat) of the actor
    RUNS = "runs"  # each all-in player's choice of how many times to run the board
    SHOWDOWN = "showdown"  # a show or muck of the actor
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Legal:
    """What the actor may do now.

    ``call``: chips needed to check (0) or call, None when the actor must bring in or
    complete first; ``raise_min``/``raise_max``: the range of *to* amounts for a bet,
    raise or completion (None when not allowed); ``complete``: that raise completes a
    stud bring-in; ``bring_in``: the bring-in amount if that is allowed;
    ``discard``: how many cards may be thrown away (draw); ``runs``: the most times
    the board may be run (:attr:`Phase.RUNS`).
    """

    player: int
    phase: Phase
    fold: bool = False
    call: int | None = None
    bring_in: int | None = None
    raise_min: int | None = None
    raise_max: int | None = None
    complete: bool = False
    discard: int = 0
    runs: int = 0

    @property
    def check(self) -> bool:
        return self.call == 0

    @property
    def can_raise(self) -> bool:
        return self.raise_min is not None


class HandState:
    """A hand in progress; see the module documentation."""

    # a hand sets these and no others (a replay creates a state for every hand)
    __slots__ = (
        "__weakref__",
        "_acted",
        "_actors",
        "_all_in",
        "_all_in_at",
        "_blinds",
        "_bring_in_status",
        "_burned",
        "_codes",
        "_completion_status",
        "_discarded",
        "_mucked",
        "_opener",
        "_pending_board",
        "_pending_discard",
        "_pending_hole",
        "_rabbit",
        "_raise_count",
        "_raise_size",
        "_rng",
        "_run_base",
        "_run_choices",
        "_run_limit",
        "_run_street",
        "_run_waiting",
        "_seed",
        "_short_all_ins",
        "_show_queue",
        "_shown",
        "_stage",
        "_stub",
        "_unseen",
        "alive",
        "antes",
        "auto_deal",
        "auto_showdown",
        "bets",
        "board",
        "boards",
        "bomb_pot",
        "dealer",
        "game",
        "history",
        "hole",
        "paid",
        "players",
        "result",
        "rules",
        "run_boards",
        "runs",
        "stacks",
        "stakes",
        "starting_stacks",
        "street_index",
        "streets",
        "up",
    )

    def __init__(
        self,
        game: TableGame,
        stacks: Sequence[int],
        *,
        seed: int | None = None,
        deal: str = "auto",
        showdown: str = "auto",
        dealer: Dealer | None = None,
        bomb_pot: bool = False,
        boards: int = 1,
        runs: int = 1,
    ) -> None:
        n = len(stacks)
        if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= MAX_RUNS:
            raise ActionError(
                f"runs is the most times a board may be run, 1 to {MAX_RUNS}: {runs!r}"
            )
        if runs > 1 and boards != 1:
            raise ActionError(
                f"a hand on two boards is not run more than once: runs={runs}, boards={boards}"
            )
        if not 2 <= n <= game.max_seats:
            game.check_seats(n)  # says why
        if set(map(type, stacks)) != _INT or min(stacks) <= 0:  # else every stack is fine
            for i, s in enumerate(stacks):
                if isinstance(s, bool) or not isinstance(s, int) or s <= 0:
                    raise ActionError(
                        f"starting stack of p{i + 1} must be a positive integer: {s!r}"
                    )
        if deal not in ("auto", "manual") or showdown not in ("auto", "manual"):
            raise ActionError(f"deal and showdown are 'auto' or 'manual': {deal!r}, {showdown!r}")
        self.game = game
        self.rules = game.game.rules
        self.stakes = game.stakes
        self.streets: tuple[Street, ...] = game.streets
        self._blinds = self.stakes.blinds_for(n)
        self.players = n
        self._seed = seed
        self.auto_deal = deal == "auto"
        self.auto_showdown = showdown == "auto"
        self.starting_stacks = tuple(stacks)
        self.stacks = list(stacks)
        self.bets = [0] * n
        self.paid = [0] * n
        self.antes = [0] * n
        self.alive = [True] * n
        self.hole: list[list[Card | None]] = [[] for _ in range(n)]
        self.up: list[list[bool]] = [[] for _ in range(n)]
        self.board: list[Card] = []
        # a double-board hand deals each street's board cards to every board, the first
        # board first (as pokerkit deals them); ``board`` is the first
        if boards not in (1, 2) or (boards == 2 and not any(s.board for s in game.streets)):
            raise ActionError(f"a hand has one board, or two in a game with a board: {boards!r}")
        self.boards: list[list[Card]] = [self.board] + [[] for _ in range(boards - 1)]
        # a bomb pot: every player checks the first betting round (house.py)
        self.bomb_pot = bomb_pot
        self.history: list[ev.Event] = []
        self.street_index = -1
        self.result: HandResult | None = None
        # the deck
        # auto: each card is drawn at random from the stub (a Fisher-Yates shuffle done
        # one card at a time, so a hand shuffles only the cards it deals)
        self._rng: random.Random | None = None  # seeded at the first card drawn
        deck = game.game.deck
        self._stub = list(deck.cards) if self.auto_deal else []  # manual: _unseen says
        # a fair dealer's shuffled deck: dealt from the top (kept reversed: pop() is the
        # top card), player by player as the PHH lists the deals, no burns
        self.dealer = dealer
        if dealer is not None:
            if not self.auto_deal:
                raise ActionError("a dealer deals: deal='manual' takes no dealer")
            if sorted(dealer.cards, key=game.game.deck.code) != list(game.game.deck.cards):
                raise ActionError(f"the dealer's cards are not the {game.game.deck.name} deck")
            self._stub = list(reversed(dealer.cards))
        # manual: the cards not dealt yet, as a bit mask of their codes (a set of cards
        # would hash every card of the deck for each hand)
        self._codes = card_codes(deck)
        self._unseen = 0 if self.auto_deal else (1 << len(deck)) - 1
        self._burned: list[Card] = []
        self._mucked: list[Card] = []
        self._discarded: list[Card] = []
        # dealing in progress
        self._pending_hole: list[deque[bool]] = [deque() for _ in range(n)]
        self._pending_board = 0
        self._pending_discard = [False] * n
        # betting round
        self._actors: deque[int] = deque()
        self._opener: int | None = None
        self._bring_in_status = False
        self._completion_status = False
        self._raise_size = 0
        self._raise_count = 0
        self._acted: set[int] = set()
        self._short_all_ins: list[int] = []
        self._all_in = False
        self._all_in_at: int | None = None  # board cards dealt when the betting ended all in
        # showdown
        self._show_queue: deque[int] = deque()
        self._shown = [False] * n
        # running the board more than once (docs/table.md, "Run it twice"): the most
        # runs allowed, who still has to choose, their choices, the agreed count, the
        # street the runs start from and the board cards all runs share
        self._run_limit = runs
        self._run_waiting: list[int] = []
        self._run_choices: dict[int, int | None] = {}
        self.runs = 1
        self.run_boards: list[tuple[Card, ...]] = []
        self._run_street = -1
        self._run_base = 0
        self._rabbit: tuple[Card, ...] | None = None
        self._stage = "dealing"
        self._start()
        self._advance()

    # --- reading the state -----------------------------------------------------------

    @property
    def seed(self) -> int:
        """The seed of the deck's shuffle (drawn at random when none was given: on the
        first card dealt, or when asked)."""
        if self._seed is None:
            self._seed = secrets.randbits(63)
        return self._seed

    def __repr__(self) -> str:
        return (
            f"<HandState {self.game.key} {self.phase.value} street={self.street_name!r} "
            f"actor={self.actor} stacks={self.stacks} bets={self.bets}>"
        )

    @property
    def phase(self) -> Phase:
        if self.result is not None:
            return Phase.OVER
        if self._actors:
            return Phase.BET
        if any(self._pending_discard):
            return Phase.DRAW
        if self._run_waiting:
            return Phase.RUNS
        if self._pending_board or any(self._pending_hole):
            return Phase.DEAL
        return Phase.SHOWDOWN

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def actor(self) -> int | None:
        """The position whose decision the hand waits for (None: dealing or over)."""
        if self._actors:
            return self._actors[0]
        if any(self._pending_discard):
            return self._pending_discard.index(True)
        if self._run_waiting:
            return self._run_waiting[0]
        if self._show_queue and (self._stage == "showdown" or not self.auto_deal):
            return self._show_queue[0]
        return None

    @property
    def to_act(self) -> tuple[int, ...]:
        """The players still to act in this betting round, in order."""
        return tuple(self._actors)

    @property
    def street(self) -> Street | None:
        if 0 <= self.street_index < len(self.streets):
            return self.streets[self.street_index]
        return None

    @property
    def street_name(self) -> str:
        s = self.street
        return s.name if s is not None else ("over" if self.is_over else "forced bets")

    def pots(self) -> list[Pot]:
        """The main pot and side pots of the chips collected so far (this betting
        round's bets are not in a pot until the round ends)."""
        return layer_pots(
            self.paid, self.bets, self.antes, self.alive, ante_trimming=self.stakes.ante_trimming
        )

    @property
    def total_pot(self) -> int:
        """Every chip in the middle: the pots and this round's bets."""
        return sum(self.paid)

    def up_cards(self, player: int) -> tuple[Card, ...]:
        return tuple(
            c
            for c, u in zip(self.hole[player], self.up[player], strict=True)
            if u and c is not None
        )

    def in_hand(self) -> list[int]:
        return [i for i in range(self.players) if self.alive[i]]

    @property
    def chips(self) -> int:
        """Every chip at the table; it never changes during a hand."""
        return sum(self.stacks) + sum(self.paid)

    # --- legal actions -------------------------------------------------------------

    def legal(self) -> Legal:
        """What the actor may do (raises :class:`ActionError` when nobody is to act)."""
        actor = self.actor
        if actor is None:
            raise ActionError(f"nobody is to act: the hand is {self._waiting_for()}")
        phase = self.phase
        if phase is Phase.DRAW:
            return Legal(actor, phase, discard=len(self.hole[actor]))
        if phase is Phase.RUNS:
            return Legal(actor, phase, runs=self.runs_possible())
        if phase is not Phase.BET:
            return Legal(actor, Phase.SHOWDOWN)
        if self._bring_in_status:
            lo, hi = self._raise_range()
            return Legal(
                actor,
                phase,
                bring_in=min(self.stacks[actor], self.stakes.bring_in),
                raise_min=lo,
                raise_max=hi,
                complete=lo is not None,
            )
        lo, hi = self._raise_range()
        call = min(self.stacks[actor], max(self.bets) - self.bets[actor])
        return Legal(
            actor,
            phase,
            fold=call > 0,
            call=call,
            raise_min=lo,
            raise_max=hi,
            complete=self._completion_status and lo is not None,
        )

    def _raise_range(self) -> tuple[int | None, int | None]:
        if self._raise_refusal() is not None:
            return None, None
        return self._min_raise_to(), self._max_raise_to()

    def _street_min(self) -> int:
        street = self.street
        if self.stakes.betting is Betting.FIXED_LIMIT and street is not None and street.big:
            return self.stakes.big
        return self.stakes.small_bet

    def _min_raise_to(self) -> int:
        i = self._actors[0]
        amount = max(self._raise_size, self._street_min())
        if not self._completion_status:
            amount += max(self.bets)
        return min(self.stacks[i] + self.bets[i], amount)

    def _max_raise_to(self) -> int:
        i = self._actors[0]
        everything = self.stacks[i] + self.bets[i]
        betting = self.stakes.betting
        if betting is Betting.FIXED_LIMIT:
            return self._min_raise_to()
        if betting is Betting.POT_LIMIT:
            pot = 2 * max(self.bets) - self.bets[i] + self.total_pot
            return min(everything, max(self._min_raise_to(), pot))
        return everything

    def _raise_refusal(self) -> str | None:
        """Why the actor may not complete, bet or raise (None: they may)."""
        i = self._actors[0]
        top = max(self.bets)
        if not self._bring_in_status:
            call = min(self.stacks[i], top - self.bets[i])
            if call < self._raise_size:
                return "a short all-in cannot be raised by a player who already acted"
        cap = self.stakes.raise_cap
        if cap is not None and self._raise_count >= cap:
            return f"no more raises this round (the cap is {cap})"
        if self._short_all_ins and sum(self._short_all_ins) < self._raise_size and i in self._acted:
            return "the betting was not reopened: the all-in raise since you acted was short"
        if self.stacks[i] <= top - self.bets[i]:
            return "your stack only covers a call"
        for j in range(self.players):
            if j != i and self.alive[j] and self.stacks[j] + self.bets[j] > top:
                return None
        return "every other player is all-in or folded: there is nobody to raise"

    # --- betting actions: verify / can / do -------------------------------------------

    def _turn(self) -> int:
        if not self._actors:
            raise ActionError(f"no betting action is possible: the hand is {self._waiting_for()}")
        return self._actors[0]

    def verify_fold(self) -> None:
        i = self._turn()
        if self._bring_in_status:
            raise ActionError(f"p{i + 1} must bring in or complete, not fold")
        if self.bets[i] >= max(self.bets):
            raise ActionError(f"p{i + 1} has nothing to call: check instead of folding")

    def can_fold(self) -> bool:
        return self._can(self.verify_fold)

    def fold(self) -> ev.Fold:
        self.verify_fold()
        i = self._pop_actor()
        self._muck(i)
        return self._record_and_continue(ev.Fold(i))

    def verify_check_or_call(self) -> None:
        i = self._turn()
        if self._bring_in_status:
            raise ActionError(f"p{i + 1} must bring in or complete first")

    def can_check_or_call(self) -> bool:
        return self._can(self.verify_check_or_call)

    def check_or_call(self) -> ev.CheckCall:
        self.verify_check_or_call()
        i = self._actors[0]
        amount = min(self.stacks[i], max(self.bets) - self.bets[i])
        self._pop_actor()
        self._put(i, amount)
        return self._record_and_continue(ev.CheckCall(i, amount=amount))

    def verify_bring_in(self) -> None:
        i = self._turn()
        if not self._bring_in_status:
            raise ActionError(f"p{i + 1} cannot bring in: there is no bring-in to post now")

    def can_bring_in(self) -> bool:
        return self._can(self.verify_bring_in)

    def bring_in(self) -> ev.PostBringIn:
        self.verify_bring_in()
        i = self._pop_actor()
        amount = min(self.stacks[i], self.stakes.bring_in)
        self._put(i, amount)
        self._bring_in_status = False
        return self._record_and_continue(ev.PostBringIn(i, amount=amount))

    def verify_bet_or_raise_to(self, amount: int) -> None:
        """Check a completion, bet or raise *to* ``amount`` chips this round."""
        i = self._turn()
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise ActionError(f"a bet is a whole number of chips, got {amount!r}")
        why = self._raise_refusal()
        if why is not None:
            raise ActionError(f"p{i + 1} cannot bet or raise: {why}")
        lo, hi = self._min_raise_to(), self._max_raise_to()
        if amount < lo:
            raise ActionError(f"p{i + 1} must bet or raise to at least {lo}, got {amount}")
        if amount > hi:
            limit = (
                "their stack"
                if hi == self.stacks[i] + self.bets[i]
                else f"the {self.stakes.betting.value} maximum"
            )
            raise ActionError(f"p{i + 1} can bet or raise to at most {hi} ({limit}), got {amount}")

    def can_bet_or_raise_to(self, amount: int) -> bool:
        return self._can(lambda: self.verify_bet_or_raise_to(amount))

    def bet_or_raise_to(self, amount: int) -> ev.CompleteBetRaiseTo:
        self.verify_bet_or_raise_to(amount)
        i = self._pop_actor()
        increment = amount - max(self.bets)
        self._put(i, amount - self.bets[i])
        self._bring_in_status = False
        self._completion_status = False
        n, alive, stacks = self.players, self.alive, self.stacks
        # the players after i round the table, who are in and have chips
        self._actors = deque([j for j in (*range(i + 1, n), *range(i)) if alive[j] and stacks[j]])
        self._opener = i
        if increment >= self._raise_size:
            self._acted = {i}
        self._raise_size = max(self._raise_size, increment)
        self._raise_count += 1
        if self.stacks[i]:
            self._short_all_ins.clear()
        else:
            self._short_all_ins.append(increment)
        if sum(self._short_all_ins) >= self._raise_size:
            self._short_all_ins.clear()
        return self._record_and_continue(ev.CompleteBetRaiseTo(i, amount))

    # --- draw -----------------------------------------------------------------------

    def verify_discard(
        self, cards: Iterable[Card | str | None] | str = ()
    ) -> tuple[Card | None, ...]:
        """Check a discard (no cards: standing pat; None: one of the player's unknown
        cards, in a replayed history); returns the cards."""
        if not any(self._pending_discard) or self._actors:
            raise ActionError(f"nobody draws now: the hand is {self._waiting_for()}")
        i = self._pending_discard.index(True)
        thrown = self._cards_given(cards)
        held = self.hole[i]
        for c in thrown:
            if c is not None and c not in held:
                raise ActionError(f"p{i + 1} cannot discard {c}: not in their hand")
        known = [c for c in thrown if c is not None]
        if len(set(known)) != len(known):
            raise ActionError(f"p{i + 1} discards a card twice: {format_cards(known)!r}")
        if thrown.count(None) > held.count(None):
            raise ActionError(f"p{i + 1} discards more unknown cards than they hold")
        return thrown

    def _cards_given(self, cards: Iterable[Card | str | None] | str) -> tuple[Card | None, ...]:
        if isinstance(cards, str):
            return self.game.game.deck.parse_cards(cards) if cards.strip() else ()
        items = list(cards)
        if all(c is None or isinstance(c, Card) for c in items):
            for c in items:
                if isinstance(c, Card) and self._code(c) < 0:
                    raise ActionError(f"card {c} is not in the {self.game.game.deck.name} deck")
            return tuple(items)  # type: ignore[arg-type]
        if any(c is None for c in items):
            raise ActionError("cards are given as text or as cards, not both")
        return self.game.game.deck.parse_cards(items)  # type: ignore[arg-type]

    def can_discard(self, cards: Iterable[Card | str | None] | str = ()) -> bool:
        return self._can(lambda: self.verify_discard(cards))

    def discard(self, cards: Iterable[Card | str | None] | str = ()) -> ev.StandPatDiscard:
        """Throw away ``cards`` (none: stand pat); replacements are dealt once every
        player has drawn, as in pokerkit."""
        thrown = self.verify_discard(cards)
        i = self._pending_discard.index(True)
        for c in thrown:
            k = self.hole[i].index(c)
            del self.hole[i][k]
            del self.up[i][k]
        self._discarded.extend(c for c in thrown if c is not None)
        self._pending_discard[i] = False
        self._pending_hole[i].extend([False] * len(thrown))
        return self._record_and_continue(ev.StandPatDiscard.played(i, thrown))

    def stand_pat(self) -> ev.StandPatDiscard:
        return self.discard(())

    # --- showdown -------------------------------------------------------------------

    def verify_show_or_muck(self, show: bool = True, player: int | None = None) -> int:
        """Check a show or muck; returns the player. ``player``: a replayed history may
        show hands in another order than the last aggressor first.

        After a hand won uncontested (everyone else folded), the winner may still show
        their cards, once (:attr:`winner_may_show`); nobody else may, and nobody mucks."""
        if self.result is not None:
            return self._verify_show_after(show, player)
        if not self._show_queue or self._actors or any(self._pending_discard):
            raise ActionError(f"nobody shows down now: the hand is {self._waiting_for()}")
        i = self._show_queue[0] if player is None else player
        if i not in self._show_queue:
            raise ActionError(f"p{i + 1} is not at the showdown")
        if show and any(c is None for c in self.hole[i]):
            raise ActionError(f"p{i + 1}'s cards are unknown: give them to show")
        if not show and sum(self.alive) == 1:
            raise ActionError(f"p{i + 1} cannot muck: they are the last player in the hand")
        return i

    def _verify_show_after(self, show: bool, player: int | None) -> int:
        assert self.result is not None
        survivors = self.in_hand()
        if self.result.showdown or len(survivors) != 1:
            raise ActionError("nobody shows now: the hand is over and was shown down")
        winner = survivors[0]
        if not show:
            raise ActionError(
                f"nobody mucks now: the hand is over (p{winner + 1} won it uncontested and "
                "may show)"
            )
        i = winner if player is None else player
        if i != winner:
            raise ActionError(
                f"p{i + 1} cannot show: the hand is over, and only its winner "
                f"(p{winner + 1}) may show after everyone else folded"
            )
        if self._shown[i]:
            raise ActionError(f"p{i + 1} has already shown their cards")
        if any(c is None for c in self.hole[i]):
            raise ActionError(f"p{i + 1}'s cards are unknown: give them to show")
        return i

    def can_show_or_muck(self, show: bool = True, player: int | None = None) -> bool:
        return self._can(lambda: self.verify_show_or_muck(show, player))

    def show_or_muck(
        self,
        show: bool = True,
        cards: Iterable[Card | str | None] | str | None = None,
        *,
        player: int | None = None,
    ) -> ev.ShowMuck:
        """The next player at the showdown (or ``player``) shows or mucks, giving up
        every pot; ``cards`` reveals the unknown hole cards of a replayed hand. After a
        hand won uncontested, the winner shows (it changes no chip and not the result)."""
        if cards is not None and show:
            self._reveal(cards, player)
        i = self.verify_show_or_muck(show, player)
        shown: tuple[Card, ...] | None = None
        if self.result is not None:  # the winner of an uncontested pot shows
            self._shown[i] = True
            shown = tuple(c for c in self.hole[i] if c is not None)
            event = ev.ShowMuck.played(i, shown)
            self.history.append(event)
            return event
        self._show_queue.remove(i)
        if show:
            self._shown[i] = True
            shown = tuple(c for c in self.hole[i] if c is not None)
        else:
            self._muck(i)
        return self._record_and_continue(ev.ShowMuck.played(i, shown))

    def has_shown(self, player: int) -> bool:
        """True once ``player`` has shown their hand (at the showdown, or after winning
        uncontested)."""
        return 0 <= player < self.players and self._shown[player]

    def shown_hands(self) -> dict[int, tuple[Card, ...]]:
        """Every hand shown so far, by position: at the showdown (also when the others
        then mucked) and the uncontested winner's after the hand."""
        return {
            i: tuple(c for c in self.hole[i] if c is not None)
            for i in range(self.players)
            if self._shown[i]
        }

    @property
    def winner_may_show(self) -> int | None:
        """The winner of a hand everyone else folded to, while they may still show
        their cards (None: nobody may show now)."""
        if self.result is None or self.result.showdown:
            return None
        survivors = self.in_hand()
        if len(survivors) != 1 or self._shown[survivors[0]]:
            return None
        return survivors[0]

    def must_show(self) -> bool:
        """The hand next at the showdown is turned up by the rules, with no choice:
        the first hand shown (the last aggressor's, else the first player's left of the
        button), and every hand when the betting ended with players all-in. (The
        engine still takes a muck: recorded hands have them; a live table does not ask.)"""
        if not self._show_queue or self.result is not None or self.actor is None:
            return False
        return self._all_in or not any(self._shown)

    def finish_showdown(self) -> None:
        """Show every hand still to show, in order (what ``showdown="auto"`` does)."""
        self.auto_showdown = True
        self._advance()

    def _reveal(self, cards: Iterable[Card | str | None] | str, player: int | None) -> None:
        if self.result is not None:
            i = self.winner_may_show if player is None else player
            if i is None or i != self.winner_may_show:
                return  # verify_show_or_muck says why
        elif not self._show_queue:
            return
        else:
            i = self._show_queue[0] if player is None else player
            if i not in self._show_queue:
                return  # verify_show_or_muck says why
        shown = self._cards_given(cards)
        given = tuple(c for c in shown if c is not None)
        if len(given) < len(shown):
            return  # a partial show ("??Ad") reveals nothing the hand needs
        known = [c for c in self.hole[i] if c is not None]
        if len(given) != len(self.hole[i]):
            raise ActionError(
                f"p{i + 1} holds {len(self.hole[i])} cards, shows {len(given)}: "
                f"{format_cards(given)!r}"
            )
        code = self._code  # the cards are the deck's (_cards_given): equal codes, equal cards
        known_codes = {code(c) for c in known}
        fresh = [c for c in given if code(c) not in known_codes]
        if len(fresh) != len(self.hole[i]) - len(known) or not known_codes <= {
            code(c) for c in given
        }:
            raise ActionError(f"p{i + 1} shows {format_cards(given)!r}, not the cards they hold")
        for c in fresh:
            if not self._is_unseen(c):
                raise ActionError(f"card {c} shown by p{i + 1} is already dealt")
        for c in fresh:
            self._unseen &= ~(1 << self._code(c))
        it = iter(fresh)
        self.hole[i] = [c if c is not None else next(it) for c in self.hole[i]]

    # --- running the board more than once; the rabbit ---------------------------------

    def runs_possible(self) -> int:
        """The most times the rest of the board may be run now: the table's limit, cut
        to what the cards left can deal (each run deals every board card still to come,
        and a burn before each street when the deck is not a fair dealer's)."""
        per_run = 0
        for street in self.streets[self.street_index :]:
            per_run += street.board + (1 if self.auto_deal and self.dealer is None else 0)
        per_run = max(per_run, 1)
        left = self._cards_left()
        if self.auto_deal and self.dealer is None:
            left += 1  # its burn card is drawn already
        return max(1, min(self._run_limit, left // per_run))

    def verify_choose_runs(self, count: int | None, player: int | None = None) -> int:
        """Check a choice of how many times to run the board (None: no preference, as
        pokerkit's); returns the player. Every player left chooses, in showdown order."""
        if not self._run_waiting:
            raise ActionError(f"nobody chooses the runs now: the hand is {self._waiting_for()}")
        i = self._run_waiting[0] if player is None else player
        if i not in self._run_waiting:
            raise ActionError(f"p{i + 1} has no choice of runs to make")
        most = self.runs_possible()
        if count is not None and (
            isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= most
        ):
            raise ActionError(f"the board may be run 1 to {most} times, got {count!r}")
        return i

    def can_choose_runs(self, count: int | None, player: int | None = None) -> bool:
        return self._can(lambda: self.verify_choose_runs(count, player))

    def choose_runs(self, count: int | None, player: int | None = None) -> ev.ChooseRuns:
        """``player`` (the next to choose by default) asks to run the board ``count``
        times, or has no preference (None). Once all have chosen, the board is run the
        count everyone who chose asked for, and once when they differ or nobody chose
        (pokerkit's rule)."""
        i = self.verify_choose_runs(count, player)
        self._run_waiting.remove(i)
        self._run_choices[i] = count
        if not self._run_waiting:
            asked = {c for c in self._run_choices.values() if c is not None}
            self.runs = asked.pop() if len(asked) == 1 else 1
            self._run_street = self.street_index
            self._run_base = len(self.board)
        return self._record_and_continue(ev.ChooseRuns(i, count))

    @property
    def run_choices(self) -> dict[int, int | None]:
        """Each player's choice of runs so far (None: no preference)."""
        return dict(self._run_choices)

    def runouts(self) -> list[tuple[Card, ...]]:
        """Every run's board so far: the runs finished, then the one being dealt (one
        board when the board is run once)."""
        if self.runs > 1 and len(self.run_boards) == self.runs:  # the hand is settled
            return list(self.run_boards)
        return [*self.run_boards, tuple(self.board)]

    @property
    def all_in_board(self) -> int | None:
        """How many board cards were dealt when the betting ended with everyone left all
        in (None: it did not)."""
        return self._all_in_at

    @property
    def rabbit(self) -> tuple[Card, ...] | None:
        """The cards a rabbit hunt showed (None: nobody asked)."""
        return self._rabbit

    def rabbit_due(self) -> int:
        """How many board cards a rabbit hunt would show now: the board cards the hand
        did not reach, when it ended before its last street with one player left and
        the cards come from the deck (0: nothing to hunt)."""
        if self.result is None or self.result.showdown or not self.auto_deal:
            return 0
        if len(self.boards) > 1:
            return 0  # a double board: no rabbit (docs/home-games.md)
        later = self.streets[self.street_index + 1 :]
        if any(s.hole or s.draw for s in later):
            return 0  # stud and draw: the cards to come are players' own
        return sum(s.board for s in later)

    def verify_rabbit_hunt(self) -> None:
        if self._rabbit is not None:
            return
        if self.result is None:
            raise ActionError("the rabbit is hunted after the hand: the hand is not over")
        if self.rabbit_due() == 0:
            raise ActionError("there is no rabbit to hunt: the hand dealt its whole board")

    def rabbit_hunt(self) -> tuple[Card, ...]:
        """The board cards the hand would have dealt had it gone on, from the same deck
        (a burn before each street as the hand burns): shown to all, no part of the
        hand. Asking again gives the same cards."""
        self.verify_rabbit_hunt()
        if self._rabbit is None:
            cards: list[Card] = []
            for street in self.streets[self.street_index + 1 :]:
                if not street.board:
                    continue
                self._burn()
                cards.extend(self._draw_card() for _ in range(street.board))
            self._rabbit = tuple(cards)
        return self._rabbit

    # --- manual dealing -------------------------------------------------------------

    def verify_deal_hole(self, player: int, cards: Sequence[Card | None]) -> None:
        if self._actors or any(self._pending_discard):
            raise ActionError(f"no cards are due: the hand is {self._waiting_for()}")
        if not 0 <= player < self.players or not self._pending_hole[player]:
            raise ActionError(f"no hole cards are due to p{player + 1}")
        if len(cards) > len(self._pending_hole[player]):
            raise ActionError(
                f"p{player + 1} is due {len(self._pending_hole[player])} cards, got {len(cards)}"
            )
        self._check_unseen([c for c in cards if c is not None])

    def deal_hole(self, player: int, cards: Sequence[Card | None]) -> ev.DealHole:
        """Deal these hole cards to ``player`` (manual dealing; None: an unknown card)."""
        pending = self._pending_hole[player] if 0 <= player < self.players else None
        if (
            self._actors
            or True in self._pending_discard
            or not pending
            or len(cards) > len(pending)
        ):
            self.verify_deal_hole(player, cards)  # says why not
        bits = self._fresh_bits(cards)
        if bits is None:  # a card dealt before, back after a reshuffle, or an error
            self.verify_deal_hole(player, cards)
        return self._deal_hole(player, tuple(cards), bits)

    def _deal_hole_masked(
        self, player: int, cards: tuple[Card | None, ...], mask: int
    ) -> ev.DealHole:
        """:meth:`deal_hole` given the bit mask of the cards' codes (a replay reads each
        card token once): dealt at once when every card is due and not dealt yet, else
        by :meth:`deal_hole` (``mask`` -1: a card given twice)."""
        pending = self._pending_hole[player] if 0 <= player < self.players else None
        if (
            mask < 0
            or mask & ~self._unseen
            or self._actors
            or True in self._pending_discard
            or not pending
            or len(cards) > len(pending)
        ):
            return self.deal_hole(player, cards)
        return self._deal_hole(player, cards, mask)

    def _deal_board_masked(self, cards: tuple[Card, ...], mask: int) -> ev.DealBoard:
        """:meth:`deal_board` given the bit mask of the cards' codes (as
        :meth:`_deal_hole_masked`; the cards are all known)."""
        if (
            mask < 0
            or mask & ~self._unseen
            or self._actors
            or True in self._pending_discard
            or not 0 < len(cards) <= self._pending_board
            or self._run_waiting
        ):
            return self.deal_board(cards)
        return self._deal_board(cards, mask)

    def verify_deal_board(self, cards: Sequence[Card]) -> None:
        if self._run_waiting:
            raise ActionError(f"no board cards are due: the hand is {self._waiting_for()}")
        if self._actors or any(self._pending_discard) or not self._pending_board:
            raise ActionError(f"no board cards are due: the hand is {self._waiting_for()}")
        if len(cards) > self._pending_board:
            raise ActionError(f"{self._pending_board} board cards are due, got {len(cards)}")
        self._check_unseen(cards)

    def deal_board(self, cards: Sequence[Card]) -> ev.DealBoard:
        bits = None
        due = not self._actors and True not in self._pending_discard and not self._run_waiting
        if due and 0 < len(cards) <= self._pending_board:
            bits = self._fresh_bits(cards)
            if bits is not None and bits.bit_count() != len(cards):
                bits = None  # an unknown card (None): the full checks refuse it
        if bits is None:
            self.verify_deal_board(cards)
        return self._deal_board(tuple(cards), bits)

    def _fresh_bits(self, cards: Sequence[Card | None]) -> int | None:
        """The bit mask of the codes of ``cards`` (unknown ones, None, aside) when each is a
        card of the deck not dealt yet, and none is given twice; else None (the full
        checks say why, or find a card back from the discards after a reshuffle)."""
        codes, unseen = self._codes, self._unseen
        bits = 0
        for c in cards:
            if c is None:
                continue
            code = codes.get(id(c))
            if code is None:
                return None
            bit = 1 << code
            if bits & bit or not unseen & bit:
                return None
            bits |= bit
        return bits

    def _check_unseen(self, cards: Sequence[Card]) -> None:
        ids = self._codes
        codes: list[int] = []
        for c in cards:
            code = ids.get(id(c))
            codes.append(self._code(c) if code is None else code)
        if len(set(codes)) != len(codes) and len(set(cards)) != len(cards):
            raise ActionError(f"a card is dealt twice: {format_cards(cards)!r}")
        unseen = self._unseen
        for c, code in zip(cards, codes, strict=True):
            if code < 0:
                raise ActionError(f"card {c} is not in the {self.game.game.deck.name} deck")
            if not unseen >> code & 1 and c not in self._reusable():
                raise ActionError(f"card {c} is already dealt")

    def _code(self, c: Card) -> int:
        """The card's code in the deck (-1: not a card of the deck)."""
        code = self._codes.get(id(c))
        if code is None:  # not one of the deck's own card objects: by equality
            deck = self.game.game.deck
            code = deck.code(c) if c in deck else -1
        return code

    def _is_unseen(self, c: Card) -> bool:
        code = self._code(c)
        return code >= 0 and bool(self._unseen >> code & 1)

    def _reusable(self) -> set[Card]:
        # cards that may come back after a reshuffle (draw)
        return set(self._discarded) | set(self._burned) | set(self._mucked)

    # --- the flow -------------------------------------------------------------------

    def _can(self, check: object) -> bool:
        try:
            check()  # type: ignore[operator]
        except ActionError:
            return False
        return True

    def _waiting_for(self) -> str:
        phase = self.phase
        if phase is Phase.OVER:
            return "over"
        if phase is Phase.BET:
            return f"waiting for p{self._actors[0] + 1} to bet"
        if phase is Phase.DRAW:
            return f"waiting for p{self._pending_discard.index(True) + 1} to draw"
        if phase is Phase.RUNS:
            return f"waiting for p{self._run_waiting[0] + 1} to choose the runs"
        if phase is Phase.DEAL:
            return "waiting for cards to be dealt"
        return "at the showdown"

    def _pop_actor(self) -> int:
        i = self._actors.popleft()
        self._acted.add(i)
        return i

    def _put(self, i: int, amount: int) -> None:
        self.stacks[i] -= amount
        self.bets[i] += amount
        self.paid[i] += amount

    def _muck(self, i: int) -> None:
        self.alive[i] = False
        self._mucked.extend(filter(None, self.hole[i]))  # the known cards (None: unknown)
        if i in self._show_queue:
            self._show_queue.remove(i)

    def _record_and_continue(self, event: ev.E) -> ev.E:
        self.history.append(event)
        self._advance()
        return event

    def _start(self) -> None:
        n = self.players
        antes = self.stakes.antes_for(n)
        starting = self.starting_stacks
        posted_antes = [0] * n
        if any(antes):
            for i, ante in enumerate(antes):
                amount = min(ante, self.stacks[i])
                if amount:
                    self._put(i, amount)
                    self.antes[i] = amount
                    self.history.append(ev.PostAnte(i, amount))
            if self.stakes.ante_trimming and any(self.bets):
                self._return_uncalled(include_antes=True)
            self.bets = [0] * n
            posted_antes = [min(a, s) for a, s in zip(antes, starting, strict=True)]
        for i, blind in enumerate(self._blinds):
            if not blind:
                continue
            # as pokerkit: what is left after the ante as posted (before any trimming);
            # a negative blind is a post (Stakes.with_posts) of that many chips
            amount = min(abs(blind), starting[i] - posted_antes[i])
            if amount:
                self._put(i, amount)
                self.history.append(ev.PostBlind(i, amount))
        self._begin_street()

    def _begin_street(self) -> None:
        self.street_index += 1
        street = self.streets[self.street_index]
        self.history.append(ev.NewStreet(self.street_index, street.name))
        if (
            self.street_index > 0
            and self.auto_deal
            and (street.board or street.hole or street.draw)
        ):
            self._burn()
        if street.hole:
            for i in range(self.players):
                if self.alive[i]:
                    self._pending_hole[i].extend(street.hole)
            due = sum(map(len, self._pending_hole))
            if due > self._cards_left():
                # stud: too few cards for everyone; one card to the board for all
                self._pending_board += len(street.hole)
                for q in self._pending_hole:
                    q.clear()
        self._pending_board += street.board * len(self.boards)
        if street.draw:
            self._pending_discard = list(self.alive)
        self._stage = "dealing"

    def _cards_left(self) -> int:
        return len(self._stub) if self.auto_deal else self._unseen.bit_count()

    def _advance(self) -> None:
        """Run the automatic steps until a decision or a manual deal is needed.

        A street goes through three stages: its cards are dealt (after the draw's
        discards), its betting round is played, then the hand moves on to the next
        street, to the showdown, or ends when one player is left. After an all-in with
        nobody left to bet, the remaining streets are dealt with no betting.
        """
        while self.result is None:
            if self._stage == "dealing":
                if any(self._pending_discard) or self._run_waiting:
                    return
                if self._pending_board or any(self._pending_hole):
                    if not self.auto_deal:
                        return
                    self._auto_deal()
                    continue
                if self._all_in:
                    self._next_street()
                else:
                    self._begin_betting()
                continue
            if self._stage == "betting":
                if self._actors and sum(self.alive) > 1:
                    return
                self._actors.clear()
                self._end_betting()
                if sum(self.alive) <= 1:
                    self._finish()
                else:
                    self._next_street()
                continue
            # the showdown
            if self._show_queue:
                if not self.auto_showdown:
                    return
                i = self._show_queue.popleft()
                self._shown[i] = True
                self.history.append(
                    ev.ShowMuck.played(i, tuple(c for c in self.hole[i] if c is not None))
                )
                continue
            self._finish()

    def _next_street(self) -> None:
        if self.street_index < len(self.streets) - 1:
            self._begin_street()
        elif len(self.run_boards) + 1 < self.runs:
            # the next run: the board back to the cards all runs share, the streets
            # from the first one the runs deal
            self.run_boards.append(tuple(self.board))
            del self.board[self._run_base :]
            self.street_index = self._run_street - 1
            self.history.append(ev.NewRun(len(self.run_boards)))
            self._begin_street()
        else:
            self._stage = "showdown"

    def _begin_betting(self) -> None:
        street = self.streets[self.street_index]
        n = self.players
        if street.opening is Opening.POSITION:
            # as pokerkit: the largest blind or straddle acts last; a post (negative)
            # does not count, so it moves nobody's turn
            blinds, bets = self._blinds, self.bets
            top, most = n - 1, None  # no bet yet (after the first round): the last
            for i in range(n) if any(bets) else ():  # the last of the largest
                b = blinds[i]
                value = bets[i] if b > 0 else -bets[i] if b < 0 else 0
                if most is None or value >= most:
                    top, most = i, value
            opener = (top + 1) % n
        elif street.opening is Opening.LOW_CARD:
            ups = [self.up_cards(i) for i in range(n)]
            opener = stud.bring_in_player(ups, self.alive, self.rules, self.game.stud.bring_in)
        elif street.opening is Opening.HIGH_HAND:
            ups = [self.up_cards(i) for i in range(n)]
            opener = stud.opener(ups, self.alive, self.rules, self.game.stud.opener)
        elif street.opening is Opening.HIGH_CARD:
            ups = [self.up_cards(i) for i in range(n)]
            opener = stud.low_bring_in_player(ups, self.alive, self.rules)
        elif street.opening is Opening.LOW_HAND:
            ups = [self.up_cards(i) for i in range(n)]
            opener = stud.low_opener(ups, self.alive, self.rules)
        else:
            raise AssertionError(f"unknown opening {street.opening}")
        self._opener = opener
        self._bring_in_status = self.street_index == 0 and self.stakes.bring_in > 0
        self._completion_status = self._bring_in_status
        alive, stacks, bets = self.alive, self.stacks, self.bets
        totals = sorted([b + s for b, s, a in zip(bets, stacks, alive, strict=True) if a])
        if len(totals) < 2:
            actors: deque[int] = deque()
        else:
            # each player's effective stack (what the others still in can match) is
            # positive: in, with chips, and a bet below the second largest total; from
            # the opener round the table
            second = totals[-2]
            actors = deque(
                [
                    i
                    for i in (*range(opener, n), *range(opener))
                    if alive[i] and stacks[i] and bets[i] < second
                ]
            )
        self._actors = actors
        self._raise_size = 0
        self._raise_count = 0
        self._acted = set()
        self._short_all_ins = []
        self._stage = "betting"
        if len(totals) <= 1 or (len(actors) == 1 and bets[actors[0]] >= max(bets)):
            actors.clear()
        if self.bomb_pot and self.street_index == 0:
            # a bomb pot: no betting before the flop; each player checks (the PHH
            # lists the checks, which pokerkit replays as the hand's first round)
            while actors:
                i = self._pop_actor()
                self.history.append(ev.CheckCall(i))

    def _end_betting(self) -> None:
        alive, stacks = self.alive, self.stacks
        in_hand = sum(alive)
        last = self.street_index == len(self.streets) - 1
        # all-in: at most one player left with chips, and no draw to come
        with_chips = sum([s > 0 for s, a in zip(stacks, alive, strict=True) if a])
        if in_hand > 1 and not self.game.draws_after[self.street_index] and with_chips <= 1:
            self._all_in = True
        if last and not all(stacks):
            self._all_in = True
        if self._all_in and in_hand > 1 and self._all_in_at is None:
            self._all_in_at = len(self.board)
        self._return_uncalled(include_antes=False)
        self.bets = [0] * self.players
        if in_hand > 1 and (self._all_in or last):
            self._queue_showdown()
            if self._all_in and not last and self._run_limit > 1 and not self._run_choices:
                later = self.streets[self.street_index + 1 :]
                if any(s.board for s in later) and not any(s.hole or s.draw for s in later):
                    self._run_waiting = list(self._show_queue)

    def _return_uncalled(self, *, include_antes: bool) -> None:
        bets = self.bets
        cutoff = sorted(bets)[-2]  # before the lone survivor's bet goes back
        if not include_antes and sum(self.alive) == 1:
            i = self.alive.index(True)
            if bets[i]:
                self._refund(i, bets[i], include_antes)  # its bet is 0 now, not above
        top = max(bets)
        if top > cutoff:  # one bet above all the others: its uncalled part goes back
            self._refund(bets.index(top), top - cutoff, include_antes)

    def _refund(self, i: int, amount: int, include_antes: bool) -> None:
        self.stacks[i] += amount
        self.bets[i] -= amount
        self.paid[i] -= amount
        if include_antes:
            self.antes[i] -= amount
        self.history.append(ev.ReturnBet(i, amount))

    def _queue_showdown(self) -> None:
        if self._show_queue or any(self._shown[i] for i in range(self.players)):
            return
        n = self.players
        start = self._opener if self._opener is not None else 0
        order = [(start + k) % n for k in range(n)]
        self._show_queue = deque(i for i in order if self.alive[i])

    def _finish(self) -> None:
        self._show_queue.clear()
        if self.runs > 1:
            self.run_boards.append(tuple(self.board))
        self.result = settle_pots(self)
        for award in self.result.awards:
            for p, a in zip(award.players, award.amounts, strict=True):
                self.stacks[p] += a
            self.history.append(award)
        # the pots are paid out: nothing is left in the middle
        self.paid = [0] * self.players
        self.antes = [0] * self.players

    # --- automatic dealing ---------------------------------------------------------

    def _draw_card(self) -> Card:
        stub = self._stub
        if not stub:
            stub = self._stub = self._discarded + self._burned + self._mucked
            self._discarded, self._burned, self._mucked = [], [], []
            self.history.append(ev.Reshuffle(len(stub)))
            if not stub:
                raise ActionError("the deck ran out of cards")  # prevented by max_seats
            if self.dealer is not None:
                stub = self._stub = list(reversed(self.dealer.reshuffle(stub)))
        if self.dealer is not None:
            return stub.pop()
        if self._rng is None:
            self._rng = random.Random(self.seed)
        j = self._rng.randrange(len(stub))
        stub[j], stub[-1] = stub[-1], stub[j]
        return stub.pop()

    def _burn(self) -> None:
        if self._stub and self.dealer is None:
            self._burned.append(self._draw_card())

    def _auto_deal(self) -> None:
        n = self.players
        dealt: list[list[Card]] = [[] for _ in range(n)]
        pending = self._pending_hole
        if self.dealer is not None:  # player by player, in the order the PHH lists deals
            for i in range(n):
                while pending[i]:
                    card = self._draw_card()
                    dealt[i].append(card)
                    self._receive(i, (card,))
        while any(pending):  # one card at a time round the table, from position 0
            most = max(len(q) for q in pending)
            for i in range(n):
                if len(pending[i]) == most:
                    card = self._draw_card()
                    dealt[i].append(card)
                    self._receive(i, (card,))
        for i in range(n):
            if dealt[i]:
                k = len(dealt[i])
                self.history.append(ev.DealHole.played(i, tuple(dealt[i]), tuple(self.up[i][-k:])))
        if self._pending_board:
            each = self._pending_board // len(self.boards)
            for board in self.boards:
                cards = tuple(self._draw_card() for _ in range(each))
                board.extend(cards)
                self.history.append(ev.DealBoard.played(cards))
            self._pending_board = 0

    def _receive(self, i: int, cards: Sequence[Card | None]) -> None:
        for c in cards:
            self.hole[i].append(c)
            self.up[i].append(self._pending_hole[i].popleft())

    def _deal_hole(
        self, player: int, cards: tuple[Card | None, ...], bits: int | None = None
    ) -> ev.DealHole:
        if bits is not None:  # every card was checked not dealt yet
            self._unseen &= ~bits
        else:
            for c in cards:
                if c is not None:
                    self._take(c)
        hole, up, pending = self.hole[player], self.up[player], self._pending_hole[player]
        for c in cards:  # _receive, inline: every hand deals its hole cards this way
            hole.append(c)
            up.append(pending.popleft())
        k = len(cards)
        event = ev.DealHole.played(player, cards, tuple(up[-k:]))
        return self._record_and_continue(event)

    def _deal_board(self, cards: tuple[Card, ...], bits: int | None = None) -> ev.DealBoard:
        if bits is not None:
            self._unseen &= ~bits
        else:
            for c in cards:
                self._take(c)
        boards = self.boards
        # the next board due: the first with fewest cards (pokerkit's order)
        target = boards[0] if len(boards) == 1 else min(boards, key=len)
        target.extend(cards)
        self._pending_board -= len(cards)
        return self._record_and_continue(ev.DealBoard.played(cards))

    def _take(self, c: Card) -> None:
        code = self._codes.get(id(c))
        bit = 1 << (self._code(c) if code is None else code)
        if self._unseen & bit:
            self._unseen &= ~bit
        else:  # back from the discards after a reshuffle
            for pile in (self._discarded, self._burned, self._mucked):
                if c in pile:
                    pile.remove(c)
                    break


MAX_RUNS = 3
"""The most times a board may be run (run it twice, or three times)."""

_CODES: dict[int, tuple[Deck, dict[int, int]]] = {}
_INT = {int}


def card_codes(deck: Deck) -> dict[int, int]:
    """The code of each of the deck's own card objects, by identity (the deck keeps
    them alive, so no other object has their ids; an equal card of another object is
    looked up by equality)."""
    found = _CODES.get(id(deck))
    if found is not None and found[0] is deck:
        return found[1]
    codes = {id(c): k for k, c in enumerate(deck.cards)}
    if len(_CODES) >= 64:
        _CODES.clear()
    _CODES[id(deck)] = (deck, codes)
    return codes
