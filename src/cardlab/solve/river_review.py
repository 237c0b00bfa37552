"""A played hand's heads-up river decisions next to the postflop solver's answer: the
river part of the web table's coach (:mod:`cardlab.web.table_coach`).

**Which decisions.** A No-Limit Hold'em hand (any deck) on one board that reached the
river with two players in and chips behind both: each decision a player made on the
river (check, bet, call, raise, fold). The turn and the flop are not reviewed: a turn
spot takes seconds and tens of MiB and a flop spot minutes and GiB (docs/postflop.md,
"The memory each deck needs"), too much to spend after every hand of a table; a river
spot solves in well under a second.

**The spot** (:func:`river_spot`): the five board cards, the pot when the river began
(everything put in before it, folded players' chips too), the effective stack then (the
smaller of the two stacks behind), OOP the player who acts first on the river. The bet
sizes are the standard menu (bets ``33%, 75%, a``, raises ``a``) plus every size
used at the table on that river, as chips (a bet of ``X`` is ``Xc``; a raise to ``R``
over a bet ``B`` is ``(R-B)c``), for both players; no all-in thresholds and no merging,
so each size played is a node of the tree.

**The ranges** (the model, stated on the page as "assuming ..."): a real hand gives
none, so both players' river range is *every hand the board does not block*
(``any``), each weighted alike. Nothing the hand showed is used: not the cards shown at
a showdown, and not the actions before the river. Card removal is the solver's own: a
hand is valued only against the opponent's hands that share no card with it, so the
viewer's hand meets exactly the opponent hands that do not hold the viewer's cards, and
the opponent's strategy cannot depend on the viewer's actual cards (it does not know
them). This is a reference model, not a read of the opponent: against a bot that plays
narrower ranges the solver's answer can differ from the best play against that bot.

**The rake**: a raked table's rate and cap go into the spot as the postflop solver
takes them (``Spot(rake_rate, rake_cap)``: ``min(rate * final pot, cap)`` from the pot
of a showdown or a fold), so each action's EV is what the player keeps after the rake;
the review says the rake beside the range model.

**What is shown** (:class:`RiverDecision`): at each of the viewer's river decisions, the
solver's strategy for the viewer's actual two cards, the EV of every action for those
cards (the hand's value at the node the action leads to, against the opponent's
equilibrium strategy from there), and the EV lost: the best action's EV less the EV of
the action played, in big blinds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from cardlab.cards import Card, format_cards
from cardlab.errors import GameError
from cardlab.solve.postflop import Node, PostflopSolution, Spot, solve
from cardlab.table import events as ev
from cardlab.table.state import HandState
from cardlab.table.structure import Betting

__all__ = [
    "RANGE_MODEL",
    "RiverDecision",
    "RiverReview",
    "RiverSpot",
    "review_river",
    "river_spot",
    "solve_river",
]

STANDARD_BETS = ("33%", "75%", "a")
STANDARD_RAISES = ("a",)
RANGE = "any"
RANGE_MODEL = (
    "assuming both players could hold any two cards the board does not block, "
    "equally likely (nothing shown or played before the river is used)"
)
ITERATIONS = 300
TARGET = 0.5  # % of the pot: where the solve stops
RIVER = 3  # the river's street index in Hold'em (pre-flop 0)


@dataclass(frozen=True, slots=True)
class RiverSpot:
    """The river of a played hand as the solver sees it (see the module documentation):
    ``oop``/``ip`` are hand positions, ``line`` the river's actions as the solver's
    labels (``k``, ``c``, ``f``, ``b40``, ``r120``, ``a190``), ``players`` who took each,
    ``unit`` the big blind in chips."""

    game: str
    board: tuple[Card, ...]
    pot: int
    stack: int
    oop: int
    ip: int
    line: tuple[str, ...]
    players: tuple[int, ...]
    bets: tuple[str, ...]
    raises: tuple[str, ...]
    unit: int
    hole: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    rake_rate: float = 0.0  # the table's rake: a fraction of the final pot ...
    rake_cap: float = 0.0  # ... at most this many chips (the solver's min(rate * pot, cap))

    def spot(self, oop: str = RANGE, ip: str = RANGE) -> Spot:
        """The :class:`~cardlab.solve.postflop.Spot` to solve, with these ranges."""
        return Spot(
            self.game,
            format_cards(self.board),
            oop,
            ip,
            self.pot,
            self.stack,
            bets=", ".join(self.bets),
            raises=", ".join(self.raises),
            rake_rate=self.rake_rate,
            rake_cap=self.rake_cap,
        )

    def rake_words(self) -> str:
        """The rake in words ("" when none)."""
        if not self.rake_rate or not self.rake_cap:
            return ""
        rate = f"{100 * self.rake_rate:g}%"
        if self.rake_cap >= self.pot + 2 * self.stack:
            return f"a rake of {rate} of the pot"
        return f"a rake of {rate} of the pot, at most {self.rake_cap:g} chips"


@dataclass(frozen=True, slots=True)
class RiverDecision:
    """One river decision of the viewer, judged: the line before it, the actions there,
    the solver's strategy and each action's EV (big blinds) for the viewer's cards."""

    line: tuple[str, ...]
    cards: tuple[Card, ...]
    played: str
    strategy: dict[str, float]
    values: dict[str, float]

    @property
    def best(self) -> str:
        return max(self.values, key=lambda a: self.values[a])

    @property
    def ev_lost(self) -> float:
        return max(0.0, self.values[self.best] - self.values[self.played])

    def as_dict(self) -> dict[str, Any]:
        return {
            "line": " ".join(self.line),  # empty: the first action of the river
            "hand": format_cards(self.cards),
            "played": self.played,
            "strategy": {a: round(f, 4) for a, f in self.strategy.items()},
            "ev": {a: round(v, 4) for a, v in self.values.items()},
            "best": self.best,
            "ev_lost": round(self.ev_lost, 4),
        }


@dataclass(frozen=True, slots=True)
class RiverReview:
    """The viewer's river decisions in one hand, and the solve they were judged by."""

    spot: RiverSpot
    player: int
    decisions: tuple[RiverDecision, ...]
    iterations: int
    exploitability_pot_percent: float
    assuming: str = RANGE_MODEL

    @property
    def precision(self) -> float:
        """Big blinds: each EV shown is within this of the equilibrium's (twice the
        exploitability, docs/postflop.md), so a smaller EV lost is no mistake."""
        return 2 * self.exploitability_pot_percent / 100 * self.spot.pot / self.spot.unit

    def as_dict(self) -> dict[str, Any]:
        s = self.spot
        return {
            "board": format_cards(s.board),
            "pot": s.pot,
            "stack": s.stack,
            "position": "OOP" if self.player == s.oop else "IP",
            "assuming": self.assuming,
            "iterations": self.iterations,
            "exploitability_pot_percent": round(self.exploitability_pot_percent, 4),
            "rake": {"rate": s.rake_rate, "cap": s.rake_cap} if s.rake_words() else None,
            "precision_bb": round(self.precision, 4),
            "decisions": [d.as_dict() for d in self.decisions],
        }


def _rake(rate: object, cap: object) -> tuple[float, float | None]:
    """The rake as given, checked (a :class:`GameError` naming what was wrong)."""
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate <= 1:
        raise GameError(f"the rake rate is a fraction of the pot, 0 to 1, got {rate!r:.40}")
    if cap is not None and (
        isinstance(cap, bool) or not isinstance(cap, int | float) or not 0 <= cap < math.inf
    ):
        raise GameError(f"the rake cap is a number of chips, 0 or more, got {cap!r:.40}")
    return float(rate), None if cap is None else float(cap)


def river_spot(
    hand: HandState, *, rake_rate: float = 0.0, rake_cap: float | None = None
) -> tuple[RiverSpot | None, str | None]:
    """The river spot of a finished ``hand``, or None and why it has none. ``rake_rate``
    (a fraction of the final pot) and ``rake_cap`` (chips; None: no cap): the table's
    rake, taken from the pot as the postflop solver takes it (``cardlab solve postflop
    --rake --rake-cap``)."""
    rate, cap = _rake(rake_rate, rake_cap)
    if hand.game.game.base.key != "holdem":
        return None, f"the river coach plays Hold'em, not {hand.game.game.key}"
    if hand.stakes.betting is not Betting.NO_LIMIT:
        return None, "the river coach plays No-Limit: this table plays " + (
            hand.stakes.betting.value
        )
    if len(hand.boards) != 1:
        return None, "the river coach plays hands on one board"
    n = hand.players
    paid = [0] * n  # chips put in before the river
    street = [0] * n  # chips put in on the current street
    alive = [True] * n
    before: list[ev.Event] = []
    river: list[ev.Event] = []
    at_river = False
    blinds: list[int] = []
    for event in hand.history:
        if isinstance(event, ev.NewStreet):
            if event.index >= 1:  # the blinds come before the first street begins
                street = [0] * n
            if event.index == RIVER:
                at_river = True
            continue
        if at_river:
            river.append(event)
            continue
        before.append(event)
        if isinstance(event, ev.PostAnte):
            paid[event.player] += event.amount
        elif isinstance(event, ev.PostBlind):
            paid[event.player] += event.amount
            street[event.player] += event.amount
            blinds.append(event.amount)
        elif isinstance(event, ev.CheckCall):
            paid[event.player] += event.amount
            street[event.player] += event.amount
        elif isinstance(event, ev.CompleteBetRaiseTo):
            put = int(event.amount) - street[event.player]
            paid[event.player] += put
            street[event.player] = int(event.amount)
        elif isinstance(event, ev.Fold):
            alive[event.player] = False
        elif isinstance(event, ev.ReturnBet):
            paid[event.player] -= event.amount
    if not at_river:
        return None, "the hand ended before the river"
    players = [p for p in range(n) if alive[p]]
    if len(players) != 2:
        return None, f"{len(players)} players saw the river: the river coach is heads-up"
    behind = {p: hand.starting_stacks[p] - paid[p] for p in players}
    stack = min(behind.values())
    if stack <= 0:
        return None, "a player was all in before the river: no river decision"
    decisions = [e for e in river if isinstance(e, ev.Fold | ev.CheckCall | ev.CompleteBetRaiseTo)]
    if not decisions:
        return None, "no decision was made on the river"
    oop = decisions[0].player
    ip = players[0] if players[1] == oop else players[1]
    line: list[str] = []
    bets: list[str] = list(STANDARD_BETS)
    raises: list[str] = list(STANDARD_RAISES)
    faced = 0
    for e in decisions:
        if isinstance(e, ev.Fold):
            line.append("f")
        elif isinstance(e, ev.CheckCall):
            line.append("c" if faced else "k")
        else:
            to = min(int(e.amount), stack)
            if to >= stack:
                line.append(f"a{stack}")
            else:
                line.append(f"{'r' if faced else 'b'}{to}")
                size = f"{to - faced}c"
                sizes = raises if faced else bets
                if size not in sizes:
                    sizes.append(size)
            faced = to
    board = tuple(hand.board)
    if len(board) != 5:
        return None, "the river coach needs the five board cards"
    hole = {p: tuple(c for c in hand.hole[p] if c is not None) for p in players}
    # the big blind of the stakes (a straddle is not the unit), else the minimum bet
    posted = [b for b in hand.stakes.blinds[:2] if b > 0]
    unit = max(posted, default=0) or hand.stakes.small_bet or max(blinds, default=0) or 1
    spot = RiverSpot(
        hand.game.game.key,
        board,
        sum(paid),
        stack,
        oop,
        ip,
        tuple(line),
        tuple(e.player for e in decisions),
        tuple(bets),
        tuple(raises),
        unit,
        hole,
        rate,
        # no cap: the largest pot the river can make (the solver's cap is a number)
        (sum(paid) + 2 * stack if cap is None else cap) if rate else 0.0,
    )
    return spot, None


def solve_river(
    spot: RiverSpot,
    *,
    iterations: int = ITERATIONS,
    target: float = TARGET,
    ranges: tuple[str, str] = (RANGE, RANGE),
) -> PostflopSolution:
    """Solve ``spot`` with ``ranges`` (OOP's, IP's; the reference model by default), on
    one thread: the caller is a worker."""
    return solve(spot.spot(*ranges), iterations, target=target, threads=1)


def review_river(
    hand: HandState,
    player: int,
    *,
    iterations: int = ITERATIONS,
    target: float = TARGET,
    ranges: tuple[str, str] = (RANGE, RANGE),
    rake_rate: float = 0.0,
    rake_cap: float | None = None,
) -> tuple[RiverReview | None, str | None]:
    """Judge the river decisions of ``player`` (a position) in the finished ``hand``;
    None and why when there are none (``rake_rate``, ``rake_cap``: the table's rake, see
    :func:`river_spot`). Slow (a solve): call it from a worker thread."""
    spot, why = river_spot(hand, rake_rate=rake_rate, rake_cap=rake_cap)
    if spot is None:
        return None, why
    if player not in (spot.oop, spot.ip):
        return None, "you were not in the hand on the river"
    if player not in spot.players:
        return None, "no river decision of yours"
    cards = spot.hole.get(player, ())
    if len(cards) != 2:
        return None, "your hole cards are not known"
    solution = solve_river(spot, iterations=iterations, target=target, ranges=ranges)
    assuming = (
        RANGE_MODEL
        if ranges == (RANGE, RANGE)
        else f"assuming OOP's range {ranges[0]} and IP's range {ranges[1]}"
    )
    if spot.rake_words():
        assuming += f"; {spot.rake_words()}"
    p = 0 if player == spot.oop else 1
    decisions = []
    node = solution.root()
    for i, (label, who) in enumerate(zip(spot.line, spot.players, strict=True)):
        if who == player:
            decisions.append(_judge(node, p, cards, spot, i, label))
        node = node.child(label)
    return (
        RiverReview(
            spot, player, tuple(decisions), solution.iterations,
            solution.exploitability_pot_percent, assuming,
        ),
        None,
    )  # fmt: skip


def _judge(
    node: Node, p: int, cards: tuple[Card, ...], spot: RiverSpot, i: int, label: str
) -> RiverDecision:
    if label not in node.actions:
        raise GameError(f"{label!r} is not an action of the solver's tree here: {node.actions}")
    key = frozenset(cards)
    hands = node.solution.game.hands[p].cards
    h = next((j for j, c in enumerate(hands) if frozenset(c) == key), None)
    if h is None:
        raise GameError(f"{format_cards(cards)} is not in the range on {format_cards(spot.board)}")
    sigma = node.strategy()[:, h]
    strategy = {a: float(f) for a, f in zip(node.actions, sigma, strict=True)}
    # each action's value: the hand's EV at the node it leads to (per deal of the
    # opponent's hands there: the same opponent reach as here, as the viewer acted)
    values = {a: float(node.child(a).hand_values(p)[0][h]) / spot.unit for a in node.actions}
    return RiverDecision(spot.line[:i], cards, label, strategy, values)
