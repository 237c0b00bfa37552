"""A player's decision as a value, so people, bots and hand histories all say it the
same way, and :func:`apply` hands it to the state.

=========================  =================  ===================================
decision                   text               state method
=========================  =================  ===================================
fold                       ``f``              :meth:`HandState.fold`
check or call              ``c``              :meth:`HandState.check_or_call`
bet, raise or complete to  ``r 20``           :meth:`HandState.bet_or_raise_to`
bring in                   ``b``              :meth:`HandState.bring_in`
discard (draw)             ``d 木7 火2``      :meth:`HandState.discard`
stand pat                  ``d``              :meth:`HandState.discard`
show / muck                ``s`` / ``m``      :meth:`HandState.show_or_muck`
=========================  =================  ===================================

>>> Action.parse("r 20")
Action.parse('r 20')
>>> str(Action.call())
'c'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from cardlab.cards import Card, format_cards
from cardlab.decks import Deck
from cardlab.errors import ActionError
from cardlab.table import events as ev
from cardlab.table.state import HandState


class Kind(enum.Enum):
    FOLD = "f"
    CALL = "c"
    RAISE = "r"
    BRING_IN = "b"
    DISCARD = "d"
    SHOW = "s"
    MUCK = "m"
    RUNS = "runs"  # run the rest of the board N times ("runs 2"; "runs": no preference)


_WORDS = {
    "fold": Kind.FOLD,
    "check": Kind.CALL,
    "call": Kind.CALL,
    "bet": Kind.RAISE,
    "raise": Kind.RAISE,
    "complete": Kind.RAISE,
    "bring-in": Kind.BRING_IN,
    "bringin": Kind.BRING_IN,
    "discard": Kind.DISCARD,
    "draw": Kind.DISCARD,
    "pat": Kind.DISCARD,
    "show": Kind.SHOW,
    "muck": Kind.MUCK,
    "run": Kind.RUNS,
}


_MOST_DIGITS = 40  # of a typed amount; larger ones are refused before int() reads them


@dataclass(frozen=True, slots=True)
class Action:
    """A decision: its kind, the *to* amount of a bet or raise, the cards discarded."""

    kind: Kind
    amount: int | None = None
    cards: tuple[Card, ...] = ()

    @classmethod
    def fold(cls) -> Action:
        return cls(Kind.FOLD)

    @classmethod
    def call(cls) -> Action:
        return cls(Kind.CALL)

    @classmethod
    def raise_to(cls, amount: int) -> Action:
        return cls(Kind.RAISE, amount)

    @classmethod
    def bring_in(cls) -> Action:
        return cls(Kind.BRING_IN)

    @classmethod
    def discard(cls, cards: tuple[Card, ...] = ()) -> Action:
        return cls(Kind.DISCARD, cards=tuple(cards))

    @classmethod
    def show(cls) -> Action:
        return cls(Kind.SHOW)

    @classmethod
    def muck(cls) -> Action:
        return cls(Kind.MUCK)

    @classmethod
    def runs(cls, count: int | None) -> Action:
        """Run the rest of the board ``count`` times (None: no preference)."""
        return cls(Kind.RUNS, count)

    @classmethod
    def parse(cls, text: str, deck: Deck | None = None) -> Action:
        """``f``, ``c``, ``r 20`` (or ``bet 20``, ``raise 20``), ``b``, ``d 木7 火2``,
        ``s``, ``m``; discarded cards are checked against ``deck`` when given."""
        if not isinstance(text, str):
            raise ActionError(f"an action is text like 'c' or 'r 20', got {text!r}")
        words = text.strip().split(maxsplit=1)
        if not words:
            raise ActionError("empty action (expected f, c, r AMOUNT, b, d [CARDS], s or m)")
        head = words[0].lower()
        rest = words[1] if len(words) > 1 else ""
        kind = _WORDS.get(head) or next((k for k in Kind if k.value == head), None)
        if kind is None:
            raise ActionError(
                f"unknown action {text.strip()[:40]!r} (expected f, c, r AMOUNT, b, d [CARDS], "
                "s or m)"
            )
        if kind is Kind.RAISE:
            digits = rest.strip()
            if not (digits.isascii() and digits.isdigit()):
                raise ActionError(f"a bet or raise needs a whole amount: {text.strip()[:40]!r}")
            if len(digits) > _MOST_DIGITS:
                raise ActionError(
                    f"a bet or raise of {len(digits)} digits is more than any stack: "
                    f"{text.strip()[:40]!r}"
                )
            # an amount past the stack is the hand's to refuse: it says the range allowed
            return cls(kind, int(digits))
        if kind is Kind.RUNS:
            digits = rest.strip()
            if not digits:
                return cls(kind)
            if not (digits.isascii() and digits.isdigit() and len(digits) <= 2):
                raise ActionError(f"runs takes a count of runs: {text.strip()[:40]!r}")
            return cls(kind, int(digits))
        if kind is Kind.DISCARD:
            if head == "pat" or not rest.strip():
                return cls(kind)
            cards = deck.parse_cards(rest) if deck is not None else _parse(rest)
            return cls(kind, cards=cards)
        if rest.strip():
            raise ActionError(f"{head!r} takes nothing after it: {text.strip()[:40]!r}")
        return cls(kind)

    def __str__(self) -> str:
        if self.kind is Kind.RAISE:
            return f"r {self.amount}"
        if self.kind is Kind.DISCARD and self.cards:
            return f"d {format_cards(self.cards)}"
        if self.kind is Kind.RUNS and self.amount is not None:
            return f"runs {self.amount}"
        return str(self.kind.value)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def describe(self) -> str:
        names: dict[Kind, str] = {
            Kind.FOLD: "fold",
            Kind.CALL: "check/call",
            Kind.RAISE: f"bet/raise to {self.amount}",
            Kind.BRING_IN: "bring in",
            Kind.DISCARD: f"discard {format_cards(self.cards)}" if self.cards else "stand pat",
            Kind.SHOW: "show",
            Kind.MUCK: "muck",
            Kind.RUNS: "no preference on the runs"
            if self.amount is None
            else f"run it {self.amount} time{'s' * (self.amount > 1)}",
        }
        return names[self.kind]


def _parse(text: str) -> tuple[Card, ...]:
    from cardlab.cards import parse_cards

    return parse_cards(text)


def apply(hand: HandState, action: Action) -> ev.Event:
    """Do ``action`` for the player in turn; an illegal one raises
    :class:`~cardlab.errors.ActionError` and leaves the hand unchanged."""
    kind = action.kind
    if kind is Kind.FOLD:
        return hand.fold()
    if kind is Kind.CALL:
        return hand.check_or_call()
    if kind is Kind.RAISE:
        if action.amount is None:
            raise ActionError("a bet or raise needs an amount")
        return hand.bet_or_raise_to(action.amount)
    if kind is Kind.BRING_IN:
        return hand.bring_in()
    if kind is Kind.DISCARD:
        return hand.discard(action.cards)
    if kind is Kind.RUNS:
        return hand.choose_runs(action.amount)
    return hand.show_or_muck(kind is Kind.SHOW)


def check_action(hand: HandState, action: Action) -> None:
    """Raise :class:`~cardlab.errors.ActionError` (and change nothing) unless ``action``
    is legal for the player in turn, as :func:`apply` would; a web table checks an action
    this way before it writes it to the store and applies it."""
    kind = action.kind
    if kind is Kind.FOLD:
        hand.verify_fold()
    elif kind is Kind.CALL:
        hand.verify_check_or_call()
    elif kind is Kind.RAISE:
        if action.amount is None:
            raise ActionError("a bet or raise needs an amount")
        hand.verify_bet_or_raise_to(action.amount)
    elif kind is Kind.BRING_IN:
        hand.verify_bring_in()
    elif kind is Kind.DISCARD:
        hand.verify_discard(action.cards)
    elif kind is Kind.RUNS:
        hand.verify_choose_runs(action.amount)
    else:
        hand.verify_show_or_muck(kind is Kind.SHOW)


def legal_actions(hand: HandState) -> list[Action]:
    """One action of each kind the actor may take (a raise at its minimum), e.g. for
    a random player or a menu."""
    legal = hand.legal()
    out: list[Action] = []
    if legal.phase.value == "draw":
        return [Action.discard()]
    if legal.phase.value == "showdown":
        return [Action.show(), Action.muck()]
    if legal.phase.value == "runs":
        return [Action.runs(k) for k in range(1, legal.runs + 1)] + [Action.runs(None)]
    if legal.fold:
        out.append(Action.fold())
    if legal.call is not None:
        out.append(Action.call())
    if legal.bring_in is not None:
        out.append(Action.bring_in())
    if legal.raise_min is not None:
        out.append(Action.raise_to(legal.raise_min))
    return out
