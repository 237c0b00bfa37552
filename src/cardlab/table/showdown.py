"""The end of a hand: who wins each pot, with which five cards, and why.

Each pot goes to the best hand among the players still in it (the rule set's order
and tie-breaks, :mod:`cardlab.poker.hands`); equal keys split, the odd chips to the
first winner left of the button (:func:`cardlab.table.pots.split`). A pot whose every
contender mucked goes to the best hand still in the hand, so no chip is ever lost.

A variant played for low (:mod:`cardlab.poker.lowball`: razz, deuce-to-seven, badugi)
gives each pot to the best low instead. A split game (hi-lo eight or better) halves
each pot, the odd chip to the high half, and gives each half to the best hand of its
kind among the pot's players; when none of them has a qualifying low, the high hand
takes the whole pot (a scoop), and a player who wins both halves scoops too. (pokerkit
decides whether a pot has a low half from every player still in the hand, not only
the pot's, and then burns the low half of a side pot nobody in it can win; cardlab
pays it to the high hand, the rule of the card rooms.)

A double-board hand (a double-board bomb pot, :mod:`cardlab.table.house`) splits each
pot into one share per board, the odd chip to the first board, and
gives each board's share to the best hand on that board among the pot's players (in a
hi-lo game halved again on that board); as in pokerkit (whose two-board hands the tests
compare), a hand that wins nothing on either board is out first and the layers of the
others merge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardlab.cards import Card, format_cards
from cardlab.errors import ActionError
from cardlab.poker._few_hands import scorer
from cardlab.poker.hands import HandValue, deciding_step
from cardlab.poker.lowball import LowRule, best_low, describe_low, low_order
from cardlab.poker.showdown import best_five
from cardlab.table.events import Award, RunAward
from cardlab.table.pots import layer_pots, split

if TYPE_CHECKING:
    from cardlab.poker.rules import RuleSet
    from cardlab.table.state import HandState
    from cardlab.table.structure import TableGame


@dataclass(frozen=True, slots=True)
class PotResult:
    """A pot as it stood before it was paid: its chips, who could win it, who had the
    best hand for it, and the tie-break step that decided it ("uncontested" when one
    player was left, "tie" when it split)."""

    amount: int
    players: tuple[int, ...]
    winners: tuple[int, ...]
    decided_by: str
    hand: str = "high"  # which share: "high", or the low rule ("eight-or-better"...)
    run: int = 0  # which run of a board run more than once (0: the first)


@dataclass(frozen=True, slots=True)
class _Cards:
    """What a result reads of its hand to describe the hands shown: the game, the hole
    cards and the board (the hand's own lists, not the hand: a result that held its
    hand would make a reference cycle, and every finished hand garbage for the cycle
    collector to find)."""

    game: TableGame
    rules: RuleSet
    hole: list[list[Card | None]]
    board: list[Card]


@dataclass(frozen=True)
class HandResult:
    """How a hand ended: the awards, the stacks, and the hands that were shown."""

    starting_stacks: tuple[int, ...]
    finishing_stacks: tuple[int, ...]
    awards: tuple[Award, ...]
    showdown: bool
    shown: dict[int, tuple[Card, ...]]  # position -> hole cards, for those at showdown
    board: tuple[Card, ...]
    pots: tuple[PotResult, ...]  # the main pot and side pots, each decided on its own
    _state: _Cards = field(repr=False, compare=False)
    boards: tuple[tuple[Card, ...], ...] = ()  # every board of a double-board hand
    runouts: tuple[tuple[Card, ...], ...] = ()  # each run's board, when run more than once

    @property
    def winnings(self) -> tuple[int, ...]:
        return tuple(
            f - s for f, s in zip(self.finishing_stacks, self.starting_stacks, strict=True)
        )

    @property
    def decided_by(self) -> str:
        """How the main pot was decided: a tie-break step, "tie" or "uncontested"."""
        return self.awards[0].decided_by if self.awards else "uncontested"

    def best_hands(self) -> dict[int, HandValue]:
        """Each shown player's best high five (the reference evaluator; for display);
        empty in a variant played for low only."""
        if not self._state.game.variant.high or self._state.game.own_order:
            return {}
        game = self._state.game.game
        return {p: best_five(game, *_own_and_board(self._state, p)) for p in self.shown}

    def low_hands(self) -> dict[int, str]:
        """Each shown player's low (or badugi) in words, "no low" when none qualifies;
        empty in a game played for high only."""
        rule = self._state.game.variant.low
        if rule is None:
            return {}
        return {p: _describe_low(self._state, p, rule) for p in self.shown}

    def as_dict(self) -> dict[str, Any]:
        best = self.best_hands() if self.showdown else {}
        lows = self.low_hands() if self.showdown else {}
        return {
            "starting_stacks": list(self.starting_stacks),
            "finishing_stacks": list(self.finishing_stacks),
            "winnings": list(self.winnings),
            "board": format_cards(self.board),
            **({"boards": [format_cards(b) for b in self.boards]} if self.boards else {}),
            "showdown": self.showdown,
            "decided_by": self.decided_by,
            "pots": [
                {
                    "pot": a.pot,
                    "winners": [p + 1 for p in a.players],
                    "amounts": list(a.amounts),
                    "decided_by": a.decided_by,
                }
                for a in self.awards
            ],
            "hands": [
                {
                    "player": p + 1,
                    "cards": format_cards(cards),
                    "best_five": format_cards(best[p].cards) if p in best else None,
                    "description": best[p].describe() if p in best else None,
                    **({"low": lows[p]} if p in lows else {}),
                }
                for p, cards in sorted(self.shown.items())
            ],
        }


def _own_and_board(state: HandState | _Cards, p: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    own = tuple(c for c in state.hole[p] if c is not None)
    return own, tuple(state.board)


def _describe_low(state: HandState | _Cards, p: int, rule: LowRule) -> str:
    own, board = _own_and_board(state, p)
    deck = state.game.game.deck
    if rule is LowRule.BADUGI or state.game.game.base.hole_used is None:
        cards = own if rule is LowRule.BADUGI else own + board
        return describe_low(cards, rule, deck, state.rules)
    key = best_low(own, rule, deck, state.rules, board=board, hole_used=2)
    if key is None:
        return "no low"
    # Omaha: name the best low's ranks (each low key lists them, highest first)
    order = low_order(deck)
    return "-".join(order[-v - 1] for v in key[1:])


def _known(state: HandState | _Cards, players: Sequence[int]) -> None:
    for p in players:
        if any(c is None for c in state.hole[p]):
            raise ActionError(f"p{p + 1}'s cards are unknown at the showdown")


def high_keys(state: HandState | _Cards, players: Sequence[int]) -> dict[int, int]:
    """The best high key of each of ``players`` (complete, known hands): the keys of
    :func:`cardlab.poker.batch.evaluate_batch`, scored in plain Python (a showdown's
    handful of hands needs no compiled kernel, :mod:`cardlab.poker._few_hands`)."""
    deck = state.game.game.deck
    hole_used = state.game.game.base.hole_used
    _known(state, players)
    if state.game.own_order:  # a small game of cardlab.solve ranks its own hands
        return {p: state.game.hand_key(*_own_and_board(state, p)) for p in players}
    rows = []
    for p in players:
        own, board = _own_and_board(state, p)
        rows.append(([deck.code(c) for c in own], [deck.code(c) for c in board]))
    if not rows:
        return {}
    width = {len(own) + len(board) for own, board in rows}
    if len(width) != 1 or not 5 <= width.pop() <= (9 if hole_used is not None else 7):
        raise ActionError("a showdown needs complete hands")
    score = scorer(state.rules)
    if hole_used is None:
        return {p: score.best(own + board) for p, (own, board) in zip(players, rows, strict=True)}
    if any(len(own) != 4 or len(board) != 5 for own, board in rows):
        raise ActionError("a showdown needs complete hands")  # Omaha: four and five cards
    return {
        p: score.best_split(own, board, hole_used)
        for p, (own, board) in zip(players, rows, strict=True)
    }


def low_keys(state: HandState | _Cards, players: Sequence[int], rule: LowRule) -> dict[int, Any]:
    """The best low key (:mod:`cardlab.poker.lowball`, higher is better) of each of
    ``players``; None for a player with no qualifying low."""
    _known(state, players)
    deck = state.game.game.deck
    hole_used = state.game.game.base.hole_used
    out: dict[int, Any] = {}
    for p in players:
        own, board = _own_and_board(state, p)
        if rule is not LowRule.BADUGI and len(own) + len(board) < 5:
            raise ActionError("a showdown needs complete hands")
        out[p] = best_low(own, rule, deck, state.rules, board=board, hole_used=hole_used)
    return out


def hand_keys(state: HandState | _Cards, players: Sequence[int]) -> list[dict[int, Any]]:
    """For each hand the variant plays for (high first, then low), each player's key
    (higher is better; None: no qualifying low)."""
    return [
        high_keys(state, players) if rule is None else low_keys(state, players, rule)
        for rule in state.game.variant.hands
    ]


def showdown_keys(state: HandState, players: Sequence[int]) -> dict[int, Any]:
    """The best key of each of ``players`` for the variant's first hand: the high hand,
    or the low of a game played for low only (keys compare within one game)."""
    return hand_keys(state, players)[0]


def wins_a_share(state: HandState, player: int, rivals: Sequence[int]) -> bool:
    """Whether ``player`` wins or ties at least one share of a pot against ``rivals``
    (complete, known hands): the high hand, or a qualifying low no rival's beats."""
    if not rivals:
        return True
    if len(state.boards) > 1:  # a double board: a share on either board
        views = [_Cards(state.game, state.rules, state.hole, b) for b in state.boards]
        every = [k for v in views for k in hand_keys(v, [player, *rivals])]
    else:
        every = hand_keys(state, [player, *rivals])
    for kind in every:
        mine = kind[player]
        theirs = [kind[p] for p in rivals if kind[p] is not None]
        if mine is not None and (not theirs or mine >= max(theirs)):
            return True
    return False


def _share_winners(
    keys: dict[int, Any], rivals: Sequence[int]
) -> tuple[tuple[int, ...], list[Any]] | None:
    """The winners of one share among ``rivals`` and the other qualifying keys (None:
    nobody qualifies, so the share goes to the other hand)."""
    qualified = [p for p in rivals if keys.get(p) is not None]
    if not qualified:
        return None
    best = max(keys[p] for p in qualified)
    winners = tuple(p for p in qualified if keys[p] == best)
    return winners, [keys[p] for p in qualified if keys[p] != best]


def _decided(rule: LowRule | None, rivals: int, winners: int, best: Any, others: list[Any]) -> str:
    if rivals == 1:
        return "uncontested"
    if winners > 1:
        return "tie"
    if rule is None:
        return deciding_step(best, max(others)) if others else "no low"
    return rule.value


def _lone_pots(state: HandState, winner: int) -> list[tuple[int, tuple[int, ...]]]:
    """The pots of :meth:`HandState.pots` (amount and players) when ``winner`` is the
    one player left, without layering every contribution: a layer's players are the
    winner up to the winner's own level and nobody above it, so the layers merge into
    at most two pots, the winner's and one nobody can win (the tests compare this with
    :func:`~cardlab.table.pots.layer_pots`)."""
    paid, bets, antes = state.paid, state.bets, state.antes
    if state.stakes.ante_trimming:
        dead = 0
        contributions = [p - b for p, b in zip(paid, bets, strict=True)]
        pending = paid[winner]
    else:
        dead = sum(antes)
        contributions = [p - b - a for p, b, a in zip(paid, bets, antes, strict=True)]
        pending = paid[winner] - antes[winner]
    # the highest layer the winner reaches (their own contribution at least)
    level = max([c for c in contributions if c <= pending])
    won = dead + sum([c if c < level else level for c in contributions])
    rest = dead + sum(contributions) - won
    pots: list[tuple[int, tuple[int, ...]]] = [(won, (winner,))] if won else []
    if rest:
        pots.append((rest, ()))
    return pots


def settle_pots(state: HandState) -> HandResult:
    """Award every pot of a finished hand (the state's bets are collected)."""
    alive = state.in_hand()
    awards: list[Award] = []
    layers: list[PotResult] = []
    shown: dict[int, tuple[Card, ...]] = {}
    if len(alive) == 1:  # most hands: everyone else folded
        winner = (alive[0],)
        for k, (amount, players) in enumerate(_lone_pots(state, alive[0])):
            awards.append(Award(k, winner, (amount,), "uncontested"))
            layers.append(PotResult(amount, players, winner, "uncontested"))
    elif len(state.boards) > 1:
        shown = {p: _own_and_board(state, p)[0] for p in alive if None not in state.hole[p]}
        awards, layers = _settle_boards(state, alive)
    else:
        boards = state.runouts()
        pots = state.pots()
        rules = state.game.variant.hands
        # a hand kept face down in a replayed history ("????") is read by nobody: it
        # wins only a pot no readable hand can win, split among that pot's players
        readable = [p for p in alive if None not in state.hole[p]]
        cards = [_Cards(state.game, state.rules, state.hole, list(b)) for b in boards]
        run_keys = [hand_keys(c, readable) for c in cards]
        keys = run_keys[0]
        shown = {p: _own_and_board(state, p)[0] for p in readable}
        # how each share of each pot of the full layering is decided, on each run
        steps: list[tuple[int, int, tuple[int, ...], str]] = []
        for run, rkeys in enumerate(run_keys):
            for pot in pots:
                rivals = [p for p in pot.players if p in keys[0]] or [p for p in readable]
                for h, rule in enumerate(rules):
                    found = _share_winners(rkeys[h], rivals)
                    if found is None:
                        continue
                    winners, others = found
                    best = rkeys[h][winners[0]]
                    step = _decided(rule, len(rivals), len(winners), best, others)
                    if state.game.own_order and step not in ("uncontested", "tie"):
                        step = state.game.decided_by(best, max(others))
                    steps.append((run, h, winners, step))
                    name = "high" if rule is None else rule.value
                    layers.append(PotResult(pot.amount, pot.players, winners, step, name, run))
        # hands that can win no share of a pot on any run are out (pokerkit's "hand
        # killing"); the layers of the players left merge, so odd chips are split once
        # per merged pot
        can_win = {p for _, _, winners, _ in steps for p in winners}
        contending = [
            state.alive[i] and (i in can_win or not keys[0]) for i in range(state.players)
        ]
        merged = layer_pots(
            state.paid,
            state.bets,
            state.antes,
            contending,
            ante_trimming=state.stakes.ante_trimming,
        )
        runs = len(run_keys)
        for k, pot in enumerate(merged):
            contenders = [p for p in pot.players if p in keys[0]] or [p for p in readable]
            if not contenders:  # no readable hand at all: a tie of the pot's players
                unread = pot.players or tuple(alive)
                awards.append(Award(k, unread, tuple(split(pot.amount, unread)), "unknown"))
                continue
            # a board run more than once: the pot splits evenly between the runs, the
            # odd chips to the first run (pokerkit's rule), then each run's share as one pot
            for run, run_amount in enumerate(split(pot.amount, list(range(runs)))):
                rkeys = run_keys[run]
                shares = [
                    (h, found)
                    for h in range(len(rules))
                    if (found := _share_winners(rkeys[h], contenders)) is not None
                ]
                # the odd chip of the halves goes to the high half (the first share)
                for (h, (winners, _)), amount in zip(
                    shares, split(run_amount, [h for h, _ in shares]), strict=True
                ):
                    if not amount:
                        continue  # a one-chip pot has no low half
                    decided = next(
                        (d for r, hh, w, d in steps if r == run and hh == h and w == winners),
                        "uncontested",
                    )
                    amounts = tuple(split(amount, winners))
                    if runs > 1:
                        awards.append(RunAward(k, winners, amounts, decided, run))
                    else:
                        awards.append(Award(k, winners, amounts, decided))
    finishing = list(state.stacks)
    for a in awards:
        for p, amount in zip(a.players, a.amounts, strict=True):
            finishing[p] += amount
    return HandResult(
        starting_stacks=state.starting_stacks,
        finishing_stacks=tuple(finishing),
        awards=tuple(awards),
        showdown=len(alive) > 1,
        shown=shown,
        board=tuple(state.board),
        pots=tuple(layers),
        _state=_Cards(state.game, state.rules, state.hole, state.board),
        boards=tuple(tuple(b) for b in state.boards) if len(state.boards) > 1 else (),
        runouts=tuple(state.runouts()) if state.runs > 1 else (),
    )


def _settle_boards(state: HandState, alive: list[int]) -> tuple[list[Award], list[PotResult]]:
    """The awards of a double-board showdown: the hands that can win no share of any
    pot on any board are out (pokerkit's hand killing) and the layers of the others
    merge; each pot is split into one share per board (the odd chip to the first
    board), each share to the best hand on its board among the pot's players (hi-lo:
    halved again on that board)."""
    rules = state.game.variant.hands
    readable = [p for p in alive if None not in state.hole[p]]
    keys_by_board = [
        hand_keys(_Cards(state.game, state.rules, state.hole, board), readable)
        for board in state.boards
    ]

    def shares(keys: list[dict[int, Any]], players: tuple[int, ...]) -> list[Any]:
        rivals = [p for p in players if p in keys[0]] or list(readable)
        found = [(h, _share_winners(keys[h], rivals)) for h in range(len(rules))]
        return [(h, len(rivals), f) for h, f in found if f is not None]

    can_win = {
        p
        for pot in state.pots()
        for keys in keys_by_board
        for _, _, (winners, _) in shares(keys, pot.players)
        for p in winners
    }
    contending = [state.alive[i] and (i in can_win or not readable) for i in range(state.players)]
    merged = layer_pots(
        state.paid, state.bets, state.antes, contending, ante_trimming=state.stakes.ante_trimming
    )
    awards: list[Award] = []
    layers: list[PotResult] = []
    for k, pot in enumerate(merged):
        quotient, remainder = divmod(pot.amount, len(keys_by_board))
        for b, keys in enumerate(keys_by_board):
            amount = quotient + (remainder if b == 0 else 0)
            found = shares(keys, pot.players)
            if not found:  # no readable hand at all: a tie of the pot's players
                unread = pot.players or tuple(alive)
                awards.append(Award(k, unread, tuple(split(amount, unread)), "unknown"))
                continue
            for (h, rivals, (winners, others)), part in zip(
                found, split(amount, [h for h, _, _ in found]), strict=True
            ):
                if not part:
                    continue
                step = _decided(rules[h], rivals, len(winners), keys[h][winners[0]], others)
                decided = f"board {b + 1}: {step}"
                awards.append(Award(k, winners, tuple(split(part, winners)), decided))
                rule = rules[h]
                name = "high" if rule is None else rule.value
                layers.append(PotResult(part, pot.players, winners, decided, name))
    return awards, layers
