"""The betting tree of a postflop spot: what each player may do, as data.

The tree is built from a :class:`TreeConfig` with the rules of the established
solvers (postflop-solver's ``TreeConfig``, PioSOLVER's tree building), so the same spot
gives the same tree and the figures compare:

* Amounts are whole chips. A bet or raise is written by the player's total on the
  street after it (``b94``: a bet of 94; ``r300``: a raise to 300; ``a910``: all in).
* The pot a size refers to is the pot after the player calls what it faces; a raise of
  X% puts in the previous bet plus X% of that pot. The smallest raise is the previous
  bet plus the amount it raised by; nothing goes above all in.
* ``add_allin``: all in is offered as well when it is at most that many pots
  (0: never added). ``force_allin``: a bet leaving at most that many pots behind after
  it is called becomes all in (0: never). ``merging``: of two sizes X% and Y% of the
  pot, Y < X, the smaller is dropped when (100 + X) / (100 + Y) < 1 + merging, from the
  largest down (PioSOLVER's rule; 0: never).
* Donk sizes (``turn_donk``, ``river_donk``): OOP's first bet of a street after OOP
  called the previous street's last bet uses them instead of its bet sizes.
* After a call that leaves a player all in the remaining cards are dealt with no more
  betting. A street ends when both check or one calls; a fold ends the hand.

The tree does not see cards: a chance node stands for the dealing of the next card
(every card the deck has left, :mod:`cardlab.solve.postflop.game`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from cardlab.errors import GameError
from cardlab.solve.postflop.sizes import (
    ALL_IN,
    CONSTANT,
    GEOMETRIC,
    POT,
    PREVIOUS,
    BetSize,
    StreetSizes,
    format_sizes,
    parse_sizes,
)

DECISION, CHANCE, FOLD, SHOWDOWN = 0, 1, 2, 3
OOP, IP = 0, 1
PLAYERS = ("oop", "ip")
STREETS = ("flop", "turn", "river")
MAX_ROUNDS = 3
MAX_CHIPS = 10**9
MAX_TREE_NODES = 200_000  # betting nodes (before cards): more is a tree no one meant


@dataclass(frozen=True)
class TreeConfig:
    """Everything that shapes the betting: the pot, the stacks, the sizes, the rules.

    ``sizes[r][p]`` are player ``p``'s sizes (0 OOP, 1 IP) in betting round ``r`` of the
    spot (round 0 is the street the spot starts on). ``donk[r]`` are OOP's donk sizes in
    round ``r`` (None: its bet sizes).
    """

    starting_pot: int
    effective_stack: int
    rounds: int  # betting rounds left, the current one included (3 on the flop)
    sizes: tuple[tuple[StreetSizes, StreetSizes], ...]
    donk: tuple[tuple[BetSize, ...] | None, ...] = ()
    rake_rate: float = 0.0
    rake_cap: float = 0.0
    add_allin: float = 0.0
    force_allin: float = 0.0
    merging: float = 0.0
    first_round_name: int = 0  # 0 flop, 1 turn, 2 river: for names and geometric sizes

    def __post_init__(self) -> None:
        for name in ("starting_pot", "effective_stack"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise GameError(
                    f"{name.replace('_', ' ')} must be a whole number of chips, got {value!r}"
                )
            if not 1 <= value <= MAX_CHIPS:
                raise GameError(
                    f"{name.replace('_', ' ')} must be 1 to {MAX_CHIPS:,} chips, got {value}"
                )
        if not 1 <= self.rounds <= MAX_ROUNDS or len(self.sizes) != self.rounds:
            raise GameError(f"a spot has 1 to {MAX_ROUNDS} betting rounds, got {self.rounds}")
        if self.donk and len(self.donk) != self.rounds:
            raise GameError("donk sizes need one entry per betting round")
        for name in ("rake_rate", "rake_cap", "add_allin", "force_allin", "merging"):
            value = getattr(self, name)
            if (
                not isinstance(value, int | float)
                or isinstance(value, bool)
                or not math.isfinite(value)
                or value < 0
            ):
                raise GameError(
                    f"{name.replace('_', ' ')} must be a number at least 0, got {value!r}"
                )
        if self.rake_rate > 1:
            raise GameError(f"the rake rate is a fraction of the pot, 0 to 1, got {self.rake_rate}")

    def street_name(self, round_: int) -> str:
        index = self.first_round_name + round_
        return STREETS[index] if index < len(STREETS) else f"round {round_ + 1}"

    def rake(self, pot: float) -> float:
        """The rake taken from a final pot of ``pot`` chips."""
        return min(pot * self.rake_rate, self.rake_cap) if self.rake_rate else 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "starting_pot": self.starting_pot,
            "effective_stack": self.effective_stack,
            "rake_rate": self.rake_rate,
            "rake_cap": self.rake_cap,
            "add_allin": self.add_allin,
            "force_allin": self.force_allin,
            "merging": self.merging,
            "streets": {
                self.street_name(r): {PLAYERS[p]: self.sizes[r][p].as_dict() for p in (OOP, IP)}
                | ({"oop_donk": format_sizes(d)} if (d := self._donk(r)) is not None else {})
                for r in range(self.rounds)
            },
        }

    def _donk(self, round_: int) -> tuple[BetSize, ...] | None:
        return self.donk[round_] if self.donk else None


def uniform_sizes(
    bets: str, raises: str, rounds: int
) -> tuple[tuple[StreetSizes, StreetSizes], ...]:
    """The same sizes for both players on every round."""
    street = StreetSizes(parse_sizes(bets), parse_sizes(raises, raise_sizes=True))
    return tuple((street, street) for _ in range(rounds))


@dataclass
class ActionNode:
    """One node of the betting tree."""

    kind: int
    player: int  # the player to act, or the one who folded; -1 otherwise
    round: int  # betting round, 0 = the spot's first street
    committed: tuple[int, int]  # chips each player put in since the spot began
    parent: int
    label: str  # the action that led here ("" at the root, "deal" after a chance node)
    actions: list[str] = field(default_factory=list)
    children: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class _State:
    round: int
    player: int
    committed: tuple[int, int]
    street: tuple[int, int]  # put in on this street
    bets: int  # bets and raises on this street
    opened: bool  # somebody bet or raised on this street (the player faces a bet)
    first: bool  # the first decision of the street
    oop_called: bool  # the previous street ended with OOP calling
    allin: bool  # the player faces an all-in bet


class ActionTree:
    """The betting tree of ``config``: nodes in depth-first order, root first."""

    def __init__(self, config: TreeConfig) -> None:
        self.config = config
        self.nodes: list[ActionNode] = []
        root = _State(0, OOP, (0, 0), (0, 0), 0, False, True, False, False)
        self._build(root, -1, "")

    def __len__(self) -> int:
        return len(self.nodes)

    # --- building --------------------------------------------------------------------

    def _add(self, node: ActionNode) -> int:
        if len(self.nodes) >= MAX_TREE_NODES:
            raise GameError(
                f"the betting tree passes {MAX_TREE_NODES:,} nodes before the cards are "
                "dealt: use fewer bet sizes"
            )
        self.nodes.append(node)
        index = len(self.nodes) - 1
        if node.parent >= 0:
            parent = self.nodes[node.parent]
            parent.children.append(index)
            parent.actions.append(node.label)
        return index

    def _build(self, s: _State, parent: int, label: str) -> int:
        index = self._add(ActionNode(DECISION, s.player, s.round, s.committed, parent, label))
        for action, kind, amount in self._actions(s):
            self._play(s, index, action, kind, amount)
        return index

    def _end_of_round(
        self, s: _State, parent: int, label: str, committed: tuple[int, int], oop_called: bool
    ) -> None:
        """Both players are even: deal the next card, or show down after the last round."""
        allin = max(committed) >= self.config.effective_stack
        if s.round + 1 >= self.config.rounds:
            self._add(ActionNode(SHOWDOWN, -1, s.round, committed, parent, label))
            return
        if allin:
            node = parent
            for r in range(s.round + 1, self.config.rounds):
                node = self._add(
                    ActionNode(
                        CHANCE, -1, r - 1, committed, node, label if r == s.round + 1 else "deal"
                    )
                )
            self._add(ActionNode(SHOWDOWN, -1, self.config.rounds - 1, committed, node, "deal"))
            return
        chance = self._add(ActionNode(CHANCE, -1, s.round, committed, parent, label))
        nxt = _State(s.round + 1, OOP, committed, (0, 0), 0, False, True, oop_called, False)
        self._build(nxt, chance, "deal")

    def _play(self, s: _State, parent: int, label: str, kind: str, amount: int) -> None:
        p, q = s.player, 1 - s.player
        if kind == "f":
            self._add(ActionNode(FOLD, p, s.round, s.committed, parent, label))
            return
        if kind == "k":
            if p == OOP:
                self._build(
                    _State(
                        s.round,
                        IP,
                        s.committed,
                        s.street,
                        s.bets,
                        False,
                        False,
                        s.oop_called,
                        False,
                    ),
                    parent,
                    label,
                )
            else:
                self._end_of_round(s, parent, label, s.committed, False)
            return
        street = list(s.street)
        committed = list(s.committed)
        added = amount - street[p]
        street[p] = amount
        committed[p] += added
        if kind == "c":
            self._end_of_round(s, parent, label, (committed[0], committed[1]), p == OOP)
            return
        allin = committed[p] >= self.config.effective_stack
        nxt = _State(
            s.round,
            q,
            (committed[0], committed[1]),
            (street[0], street[1]),
            s.bets + 1,
            True,
            False,
            s.oop_called,
            allin,
        )
        self._build(nxt, parent, label)

    def _actions(self, s: _State) -> list[tuple[str, str, int]]:
        """(label, kind, amount) of every action at ``s``, in the order they are listed."""
        c = self.config
        p, q = s.player, 1 - s.player
        left = [c.effective_stack - s.committed[0], c.effective_stack - s.committed[1]]
        prev = s.street[q]  # what the player faces on this street
        to_call = prev - s.street[p]
        pot = c.starting_pot + 2 * max(s.committed)  # after calling
        top = left[q] + prev  # all in, as a street total
        low = min(max(prev + to_call, 1), top)
        remaining = c.rounds - s.round  # streets left for a geometric size

        def geometric(size: BetSize, streets: int) -> int:
            spr = left[q] / pot
            ratio = ((2 * spr + 1) ** (1 / streets) - 1) / 2
            return _round(pot * min(ratio, size.max_percent / 100))

        amounts: list[tuple[str, int]] = []  # ("b" | "r", street total)
        out: list[tuple[str, str, int]] = []
        if not s.opened:
            out.append(("k", "k", 0))
            donk = c._donk(s.round)
            use_donk = donk is not None and s.first and s.round > 0 and s.oop_called
            sizes = donk if use_donk and donk is not None else c.sizes[s.round][p].bets
            for size in sizes:
                if size.kind == POT:
                    amounts.append(("b", _round(pot * size.value / 100)))
                elif size.kind == CONSTANT:
                    amounts.append(("b", int(size.value)))
                elif size.kind == GEOMETRIC:
                    amounts.append(("b", geometric(size, size.streets or remaining)))
                elif size.kind == ALL_IN:
                    amounts.append(("b", top))
            if c.add_allin and top <= _round(pot * c.add_allin):
                amounts.append(("b", top))
        else:
            out.append(("f", "f", 0))
            out.append(("c", "c", prev))
            if not s.allin:
                for size in c.sizes[s.round][p].raises:
                    if size.kind == POT:
                        amounts.append(("r", prev + _round(pot * size.value / 100)))
                    elif size.kind == PREVIOUS:
                        amounts.append(("r", _round(prev * size.value)))
                    elif size.kind == CONSTANT:
                        if size.cap == 0 or s.bets <= size.cap:
                            amounts.append(("r", prev + int(size.value)))
                    elif size.kind == GEOMETRIC:
                        n = max((size.streets or remaining) - s.bets + 1, 1)
                        amounts.append(("r", prev + geometric(size, n)))
                    elif size.kind == ALL_IN:
                        amounts.append(("r", top))
                if c.add_allin and top <= prev + _round(pot * c.add_allin):
                    amounts.append(("r", top))
        sized: set[tuple[str, int]] = set()
        for kind, amount in amounts:
            amount = min(max(amount, low), top)
            new_pot = pot + 2 * (amount - prev)
            if top <= amount + _round(new_pot * c.force_allin):
                amount = top
            sized.add(("a" if amount == top else kind, amount))
        ordered = sorted(sized, key=lambda x: x[1])
        kept = _merge(ordered, pot, prev, c.merging)
        out += [(f"{k}{a}", k, a) for k, a in kept]
        return out

    # --- reading ---------------------------------------------------------------------

    def describe(self, index: int) -> str:
        """The line to node ``index``: its actions from the root, rounds separated by '/'."""
        labels = []
        while index > 0:
            node = self.nodes[index]
            labels.append(node.label)
            index = node.parent
        text = " ".join(reversed(labels))
        return text.replace(" deal", " /").replace("deal", "/")

    def counts(self) -> dict[str, int]:
        names = {DECISION: "decisions", CHANCE: "chance", FOLD: "folds", SHOWDOWN: "showdowns"}
        out = dict.fromkeys(names.values(), 0)
        for node in self.nodes:
            out[names[node.kind]] += 1
        return out


def _round(x: float) -> int:
    """Half away from zero, as the established solvers round sizes (not to even)."""
    return math.floor(x + 0.5)


def _merge(
    sized: list[tuple[str, int]], pot: int, prev: int, threshold: float
) -> list[tuple[str, int]]:
    """PioSOLVER's merging of close sizes (see the module's docstring), from the largest
    down; sizes are (kind, street total) in increasing order."""
    if threshold <= 0:
        return sized
    kept: list[tuple[str, int]] = []
    current = math.inf
    for kind, amount in reversed(sized):
        ratio = (amount - prev) / pot
        current_ratio = (current - prev) / pot
        if ratio < (current_ratio - threshold) / (1 + threshold) * (1 - 1e-12):
            kept.append((kind, amount))
            current = amount
    return list(reversed(kept))


def action_name(label: str) -> str:
    """A label in words: ``b94`` -> "bet 94"."""
    if label in ("k", "c", "f"):
        return {"k": "check", "c": "call", "f": "fold"}[label]
    words = {"b": "bet", "r": "raise to", "a": "all in"}
    return f"{words[label[0]]} {label[1:]}"
