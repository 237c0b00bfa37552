"""The postflop solver against a model of river spots built here, from the rules alone.

On the river no card is left to deal, so a spot is a small two-player zero-sum game:
chance deals a pair of hands (OOP's ``h``, IP's ``o``) with probability
``w(h) w(o) / mass`` over the pairs that share no card, then the players bet along a
public tree; a player's information set is (own hand, public line). This file builds
that game with its own code — the betting tree from the size rules, the showdowns from
cardlab's reference evaluator :func:`cardlab.poker.hands.best_hand`, the ranges from
their notation, card removal — and owes nothing to the solver's tree, arrays or kernels.

It then checks the solver against quantities the solver does not compute:

* the tree: every decision offers the actions this builder derives (sizes rounded half
  away from zero, raises sized on the pot after calling, all in capping everything);
* the game value: the sequence-form linear program of the model, solved exactly by
  HiGHS (and its dual, which must agree), lies between the two best-response values of
  the solver's strategy, so the solver's EV is within twice its exploitability of it;
* the exploitability: best responses against the solver's average strategy, computed
  here by walking this model, give the exploitability the solver reports;
* a closed form: the polarized river toy, whose equilibrium frequencies are known.

Values follow the solution's convention: chips per hand pair, what a player takes from
the pot less what it puts in after the spot began (OOP's and IP's add up to the pot).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pytest
from scipy.optimize import linprog
from scipy.sparse import coo_matrix, csr_matrix, hstack

from cardlab.cards import Card
from cardlab.poker.equity import exact_equity
from cardlab.poker.games import Game, get_game
from cardlab.poker.hands import best_hand
from cardlab.solve.postflop import PostflopSolution, Spot, solve

OOP, IP = 0, 1
Size = int | str  # a percentage of the pot, or "a" for all in
Item = tuple[str, float]  # a range item ("AA", "KQs", "KQo", "KQ", "As Kd") and its weight

# --- the betting tree, from the rules --------------------------------------------------


@dataclass(frozen=True)
class Terminal:
    line: tuple[str, ...]
    committed: tuple[int, int]  # chips each player put in on the river
    folder: int | None  # who folded; None: a showdown


@dataclass
class Decision:
    player: int
    line: tuple[str, ...]
    actions: list[str] = field(default_factory=list)
    children: list[Decision | Terminal] = field(default_factory=list)


def half_up(x: Fraction) -> int:
    """Half away from zero (sizes are positive): 50.5 -> 51, where round() gives 50."""
    return math.floor(x + Fraction(1, 2))


def river_tree(
    pot: int, stack: int, bets: tuple[tuple[Size, ...], tuple[Size, ...]], raises: tuple[Size, ...]
) -> Decision:
    """``bets[p]`` are player ``p``'s bet sizes. A bet is a percentage of the pot, a raise
    puts in the bet faced plus a percentage of the pot after calling it; the smallest
    raise is the bet faced plus what it raised by; nothing passes all in, and an all-in
    bet can only be called or folded."""

    def decision(p: int, committed: tuple[int, int], line: tuple[str, ...]) -> Decision:
        node = Decision(p, line)
        q = 1 - p
        prev, mine = committed[q], committed[p]

        def add(label: str, child: Decision | Terminal) -> None:
            node.actions.append(label)
            node.children.append(child)

        def put(amount: int) -> tuple[int, int]:
            return (amount, committed[1]) if p == OOP else (committed[0], amount)

        def sized(amounts: set[int], kind: str) -> None:
            for amount in sorted(amounts):
                label = f"{'a' if amount == stack else kind}{amount}"
                add(label, decision(q, put(amount), (*line, label)))

        if prev == mine:  # nobody bet yet
            if p == OOP:
                add("k", decision(IP, committed, (*line, "k")))
            else:
                add("k", Terminal((*line, "k"), committed, None))  # checked down
            sized({_clamp(_bet(pot, s, stack), 1, stack) for s in bets[p]}, "b")
        else:
            add("f", Terminal((*line, "f"), committed, p))
            add("c", Terminal((*line, "c"), (prev, prev), None))
            if prev < stack:
                pot_called = pot + 2 * prev
                low = min(2 * prev - mine, stack)
                sized({_clamp(_raise(pot_called, prev, s, stack), low, stack) for s in raises}, "r")
        return node

    return decision(OOP, (0, 0), ())


def _bet(pot: int, size: Size, stack: int) -> int:
    return stack if size == "a" else half_up(Fraction(pot * int(size), 100))


def _raise(pot_called: int, prev: int, size: Size, stack: int) -> int:
    return stack if size == "a" else prev + half_up(Fraction(pot_called * int(size), 100))


def _clamp(x: int, low: int, high: int) -> int:
    return min(max(x, low), high)


def size_text(sizes: tuple[Size, ...]) -> str:
    return ", ".join("a" if s == "a" else f"{s}%" for s in sizes)


def decisions(node: Decision | Terminal) -> list[Decision]:
    if isinstance(node, Terminal):
        return []
    return [node, *(d for child in node.children for d in decisions(child))]


# --- the hands ---------------------------------------------------------------------------


def expand(item: str, game: Game) -> list[tuple[Card, Card]]:
    """``AA``, ``KQs``, ``KQo``, ``KQ`` on the standard deck; two cards on every deck."""
    deck = game.deck
    if " " in item:
        a, b = deck.parse_cards(item)
        return [(a, b)]
    hi, lo, kind = item[0], item[1], item[2:]
    suits = "cdhs"
    if hi == lo:
        texts = [(hi + s, lo + t) for s, t in itertools.combinations(suits, 2)]
    else:
        texts = [
            (hi + s, lo + t)
            for s in suits
            for t in suits
            if (kind != "s" or s == t) and (kind != "o" or s != t)
        ]
    return [(deck.parse_cards(a)[0], deck.parse_cards(b)[0]) for a, b in texts]


def range_text(items: tuple[Item, ...]) -> str:
    return ", ".join(t if w == 1 else f"{t}:{w}" for t, w in items)


@dataclass(frozen=True)
class River:
    """A river spot in plain terms: its tree, both players' hands, and per pair of hands
    (OOP's, IP's) whether they can be dealt together, their weight, OOP's showdown result."""

    pot: int
    stack: int
    tree: Decision
    hands: tuple[list[tuple[Card, Card]], list[tuple[Card, Card]]]
    weights: tuple[np.ndarray, np.ndarray]
    pair_weight: np.ndarray  # [h, o]: w(h) w(o) where no card is shared, else 0
    result: np.ndarray  # [h, o]: +1 OOP wins, 0 split, -1 IP wins

    @property
    def mass(self) -> float:
        return float(self.pair_weight.sum())

    def payoff(self, t: Terminal) -> np.ndarray:
        """OOP's chips at ``t`` per pair [h, o] (IP's are the pot less these)."""
        c0, c1 = t.committed
        shape = self.pair_weight.shape
        if t.folder == OOP:
            return np.full(shape, float(-c0))
        if t.folder == IP:
            return np.full(shape, float(self.pot + c1))
        win, split, lose = self.pot + c1, (self.pot + c0 + c1) / 2 - c0, -c0
        return np.where(self.result > 0, win, np.where(self.result < 0, lose, split))


@dataclass(frozen=True)
class RiverSpot:
    game: str
    board: str
    oop: tuple[Item, ...]
    ip: tuple[Item, ...]
    pot: int
    stack: int
    bets: tuple[Size, ...]
    raises: tuple[Size, ...]
    oop_bets: tuple[Size, ...] | None = None  # OOP's own bet sizes (None: ``bets``)

    def spot(self) -> Spot:
        players = {}
        if self.oop_bets is not None:
            players = {"oop": {"river": {"bets": size_text(self.oop_bets)}}}
        return Spot(
            self.game,
            self.board,
            range_text(self.oop),
            range_text(self.ip),
            self.pot,
            self.stack,
            bets=size_text(self.bets),
            raises=size_text(self.raises),
            players=players,
        )

    def model(self) -> River:
        game = get_game(self.game)
        board = game.deck.parse_cards(self.board)
        assert len(board) == 5
        hands: list[list[tuple[Card, Card]]] = []
        weights = []
        for items in (self.oop, self.ip):
            chosen: dict[frozenset[Card], tuple[tuple[Card, Card], float]] = {}
            for text, w in items:
                for combo in expand(text, game):
                    if not set(combo) & set(board):
                        chosen[frozenset(combo)] = (combo, w)
            hands.append([c for c, _ in chosen.values()])
            weights.append(np.array([w for _, w in chosen.values()]))
        keys = [[best_hand(c + board, game.rules).key for c in hs] for hs in hands]
        n0, n1 = len(hands[0]), len(hands[1])
        pair_weight = np.zeros((n0, n1))
        result = np.zeros((n0, n1), np.int8)
        for h, o in itertools.product(range(n0), range(n1)):
            if not set(hands[0][h]) & set(hands[1][o]):
                pair_weight[h, o] = weights[0][h] * weights[1][o]
            result[h, o] = (keys[0][h] > keys[1][o]) - (keys[0][h] < keys[1][o])
        oop_bets = self.bets if self.oop_bets is None else self.oop_bets
        tree = river_tree(self.pot, self.stack, (oop_bets, self.bets), self.raises)
        return River(
            self.pot,
            self.stack,
            tree,
            (hands[0], hands[1]),
            (weights[0], weights[1]),
            pair_weight,
            result,
        )


# --- the exact value: the sequence-form linear program ---------------------------------------

Key = tuple[int, int] | None  # a player's last own action (decision index, action); None: none


def flatten(root: Decision) -> tuple[list[tuple[Decision, Key]], list[tuple[Terminal, Key, Key]]]:
    """Decisions with the acting player's previous own action, terminals with both."""
    out: list[tuple[Decision, Key]] = []
    ends: list[tuple[Terminal, Key, Key]] = []

    def visit(node: Decision | Terminal, keys: tuple[Key, Key]) -> None:
        if isinstance(node, Terminal):
            ends.append((node, keys[0], keys[1]))
            return
        i = len(out)
        out.append((node, keys[node.player]))
        for a, child in enumerate(node.children):
            new = list(keys)
            new[node.player] = (i, a)
            visit(child, (new[0], new[1]))

    visit(root, (None, None))
    return out, ends


def lp_value(model: River) -> tuple[float, float]:
    """OOP's equilibrium value (chips per pair) from OOP's program (max over x of min over
    y of x' A y) and from IP's (min over y of max over x: the same program for IP on -A');
    they must agree. A sequence is a hand and the player's actions on a line; A holds, per
    pair of sequences ending at a terminal, the deal's probability times OOP's chips."""
    nodes, ends = flatten(model.tree)
    n_hands = (len(model.hands[0]), len(model.hands[1]))
    index: list[dict[tuple[int, int, int], int]] = [{}, {}]
    for i, (node, _) in enumerate(nodes):
        for h in range(n_hands[node.player]):
            for a in range(len(node.actions)):
                index[node.player][(h, i, a)] = len(index[node.player]) + 1  # 0: the empty one

    def seq(p: int, h: int, key: Key) -> int:
        return 0 if key is None else index[p][(h, *key)]

    n_seq = (len(index[0]) + 1, len(index[1]) + 1)
    constraints = []  # per player: rows of "sum of an information set's actions = its parent"
    for p in (OOP, IP):
        entries = [(0, 0, 1.0)]  # row 0: the empty sequence has realization weight 1
        r = 0
        for i, (node, parent) in enumerate(nodes):
            if node.player != p:
                continue
            for h in range(n_hands[p]):
                r += 1
                entries.append((r, seq(p, h, parent), -1.0))
                entries += [(r, index[p][(h, i, a)], 1.0) for a in range(len(node.actions))]
        rows, cols, vals = zip(*entries, strict=True)
        constraints.append(coo_matrix((vals, (rows, cols)), shape=(r + 1, n_seq[p])).tocsr())
    rows, cols, vals = [], [], []
    hs, os_ = np.nonzero(model.pair_weight)
    for t, k0, k1 in ends:
        u = model.payoff(t) * model.pair_weight / model.mass
        rows += [seq(OOP, h, k0) for h in hs]
        cols += [seq(IP, o, k1) for o in os_]
        vals += list(u[hs, os_])
    A = coo_matrix((vals, (rows, cols)), shape=n_seq).tocsr()  # duplicates are summed
    E, F = constraints
    e = np.zeros(E.shape[0])
    e[0] = 1.0
    f = np.zeros(F.shape[0])
    f[0] = 1.0
    return _maximin(A, E, e, F, f), -_maximin(-A.T, F, f, E, e)


def _maximin(A: csr_matrix, E: csr_matrix, e: np.ndarray, F: csr_matrix, f: np.ndarray) -> float:
    """max over x of min over y of x' A y, x and y realization plans (E x = e, F y = f,
    both at least 0). The inner minimum is, by duality, max f' v with F' v <= A' x; so
    one program: maximise f' v over (x, v) with F' v - A' x <= 0, E x = e, x >= 0."""
    n_x, n_v = E.shape[1], F.shape[0]
    res = linprog(
        np.concatenate([np.zeros(n_x), -f]),
        A_ub=hstack([-A.T, F.T]),
        b_ub=np.zeros(F.shape[1]),
        A_eq=hstack([E, csr_matrix((E.shape[0], n_v))]),
        b_eq=e,
        bounds=[(0, None)] * n_x + [(None, None)] * n_v,
        method="highs",
    )
    assert res.status == 0, res.message
    return float(-res.fun)


# --- values of a given strategy, and best responses against it -------------------------------

Strategy = dict[tuple[str, ...], np.ndarray]  # line -> [action, hand of the acting player]


def value(model: River, strategy: Strategy, p: int, *, respond: bool) -> float:
    """``p``'s chips per pair when the other plays ``strategy`` and ``p`` plays it too
    (``respond=False``) or best-responds, hand by hand and line by line."""
    pair = model.pair_weight > 0
    w_p, w_o = model.weights[p], model.weights[1 - p]

    def payoff(t: Terminal) -> np.ndarray:  # [p's hand, other's hand], 0 where no deal
        u = np.where(pair, model.payoff(t) if p == OOP else model.pot - model.payoff(t), 0.0)
        return u if p == OOP else u.T

    def walk(node: Decision | Terminal, reach_o: np.ndarray) -> np.ndarray:
        if isinstance(node, Terminal):
            return payoff(node) @ reach_o
        sigma = strategy[node.line]
        if node.player != p:
            parts = [walk(c, reach_o * sigma[a]) for a, c in enumerate(node.children)]
            return np.sum(parts, axis=0)
        values = np.array([walk(c, reach_o) for c in node.children])
        return values.max(axis=0) if respond else (sigma * values).sum(axis=0)

    return float(w_p @ walk(model.tree, w_o.copy())) / model.mass


def solver_strategy(model: River, solution: PostflopSolution) -> Strategy:
    """The solver's average strategy at every decision of the model, its hands in the
    model's order; the lines, actions and hands must be the model's."""
    order = []
    for p in (OOP, IP):
        theirs = {frozenset(c): i for i, c in enumerate(solution.game.hands[p].cards)}
        assert set(theirs) == {frozenset(c) for c in model.hands[p]}
        order.append([theirs[frozenset(c)] for c in model.hands[p]])
        np.testing.assert_allclose(solution.game.hands[p].weights[order[p]], model.weights[p])
    out: Strategy = {}
    for node in decisions(model.tree):
        solved = solution.node(" ".join(node.line))
        assert solved.player == ("oop", "ip")[node.player]
        assert list(solved.actions) == node.actions, node.line
        out[node.line] = solved.strategy()[:, order[node.player]]
    return out


# --- the spots ---------------------------------------------------------------------------------

SPOTS = {
    # bet or shove, no raise; OOP's AA and KQs block IP's AK and KJs
    "shove-or-75": RiverSpot(
        "standard52-holdem",
        "Ks 7d 2c 9h 4s",
        (("AA", 1), ("KQs", 1), ("QQ", 0.5)),
        (("AK", 1), ("KJs", 1), ("JJ", 1), ("65s", 1)),
        100,
        100,
        (75, "a"),
        (),
    ),
    # 50% of 101 is 50.5: a bet of 51; raises of 60% to 173, 441, then all in
    "raise-war": RiverSpot(
        "standard52-holdem",
        "Ks 7d 2c 9h 4s",
        (("AA", 1), ("K9s", 1), ("77", 0.7), ("QJs", 1)),
        (("KQ", 1), ("99", 1), ("AJs", 0.5), ("T8s", 1)),
        101,
        500,
        (50,),
        (60,),
    ),
    # two sizes (33% of 60 is 19.8: 20; 60) and an all-in raise; AQ splits with AQs
    "two-sizes": RiverSpot(
        "standard52-holdem",
        "Qh Jd 5c 5s 2h",
        (("AQ", 1), ("JJ", 1), ("KTo", 0.5)),
        (("QJs", 1), ("55", 1), ("AK", 1), ("T9s", 0.8), ("AQs", 1)),
        60,
        90,
        (33, 100),
        ("a",),
    ),
    # a FESCA deck: Mixwell hands, 陰陽, a shared card (木3)
    "fesca78": RiverSpot(
        "fesca78-holdem",
        "M7 K7 G12 Y3 S9",
        (("M12 K12", 1), ("D9 D10", 1), ("M1 M2", 1), ("M3 K3", 0.5)),
        (("D7 D12", 1), ("K9 K10", 1), ("M3 D3", 1), ("S10 S11", 1), ("D1 G2", 0.6)),
        100,
        200,
        (50, "a"),
        ("a",),
    ),
}
TARGET = 0.05  # % of the pot


@functools.cache
def solved(name: str) -> tuple[River, PostflopSolution, tuple[float, float]]:
    spot = SPOTS[name]
    model = spot.model()
    return model, solve(spot.spot(), 5000, target=TARGET, threads=2), lp_value(model)


def test_the_tree_rounds_half_up_and_raises_on_the_called_pot() -> None:
    """The model's own sizes, worked out by hand."""
    tree = SPOTS["raise-war"].model().tree
    by_line = {" ".join(d.line): d.actions for d in decisions(tree)}
    assert by_line[""] == ["k", "b51"]
    assert by_line["b51"] == ["f", "c", "r173"]  # 51 + 60% of (101 + 102) = 51 + 122
    assert by_line["b51 r173"] == ["f", "c", "r441"]  # 173 + 60% of 447 = 173 + 268
    assert by_line["b51 r173 r441"] == ["f", "c", "a500"]
    assert by_line["b51 r173 r441 a500"] == ["f", "c"]
    tree = SPOTS["two-sizes"].model().tree
    by_line = {" ".join(d.line): d.actions for d in decisions(tree)}
    assert by_line["k"] == ["k", "b20", "b60"]
    assert by_line["k b20"] == ["f", "c", "a90"]


@pytest.mark.parametrize("name", [n for n, s in SPOTS.items() if s.game == "standard52-holdem"])
def test_model_without_betting_is_worth_the_exact_equity(name: str) -> None:
    """The model's deals and showdowns against the exact equity engine: with no bet, the
    game is worth the pot times OOP's equity (the ranges unweighted, as the engine takes
    them)."""
    spot = SPOTS[name]
    flat = dataclasses.replace(
        spot,
        oop=tuple((t, 1.0) for t, _ in spot.oop),
        ip=tuple((t, 1.0) for t, _ in spot.ip),
        bets=(),
        raises=(),
    )
    model = flat.model()
    assert [d.actions for d in decisions(model.tree)] == [["k"], ["k"]]
    v_oop, _ = lp_value(model)
    game = get_game(spot.game)
    equity = exact_equity(game, [range_text(flat.oop), range_text(flat.ip)], spot.board)
    assert v_oop == pytest.approx(spot.pot * float(equity.players[0].equity), abs=1e-9)


@pytest.mark.parametrize("name", SPOTS)
def test_solver_value_is_the_linear_programs(name: str) -> None:
    model, solution, (v_oop, v_ip) = solved(name)
    assert v_oop == pytest.approx(v_ip, abs=1e-7 * model.pot)  # the program and its dual
    assert solution.exploitability_pot_percent <= TARGET
    strategy = solver_strategy(model, solution)
    br_oop = value(model, strategy, OOP, respond=True)
    br_ip = value(model, strategy, IP, respond=True)
    eps = 1e-6 * model.pot
    # the value of a zero-sum game lies between what each side's best response concedes
    assert model.pot - br_ip - eps <= v_oop <= br_oop + eps
    ev = solution.ev()
    assert ev.oop + ev.ip == pytest.approx(model.pot, abs=eps)
    # each best responder gains at most twice the mean gain (the exploitability)
    assert abs(ev.oop - v_oop) <= 2 * solution.exploitability + eps


def test_the_restart_schedule_reaches_the_linear_programs_value() -> None:
    """The flop's DCFR schedule (``schedule="restart"``) converges to the value of the
    game found by the linear program on a river spot too (the river's default,
    ``"smooth"``, is checked above)."""
    spot = SPOTS["raise-war"]
    model = spot.model()
    v_oop, _ = lp_value(model)
    solution = solve(spot.spot(), 5000, target=TARGET, threads=2, schedule="restart")
    assert solution.solver.schedule == "restart"
    assert solution.exploitability_pot_percent <= TARGET
    eps = 1e-6 * model.pot
    assert abs(solution.ev().oop - v_oop) <= 2 * solution.exploitability + eps


@pytest.mark.parametrize("name", SPOTS)
def test_exploitability_is_an_independent_best_response(name: str) -> None:
    model, solution, _ = solved(name)
    strategy = solver_strategy(model, solution)
    ev_oop = value(model, strategy, OOP, respond=False)
    ev_ip = value(model, strategy, IP, respond=False)
    br_oop = value(model, strategy, OOP, respond=True)
    br_ip = value(model, strategy, IP, respond=True)
    tol = 1e-6 * model.pot  # the strategy sums are float32; the walks here float64
    assert ev_oop + ev_ip == pytest.approx(model.pot, abs=tol)
    assert solution.ev().oop == pytest.approx(ev_oop, abs=tol)
    assert solution.ev().ip == pytest.approx(ev_ip, abs=tol)
    assert br_oop >= ev_oop - tol and br_ip >= ev_ip - tol
    mine = ((br_oop - ev_oop) + (br_ip - ev_ip)) / 2
    assert solution.exploitability == pytest.approx(mine, abs=tol)
    br = solution.solver.best_response_values()
    assert (br.oop, br.ip) == pytest.approx((br_oop, br_ip), abs=tol)


def test_a_poor_strategy_is_measured_as_poor() -> None:
    """The checks can fail: the uniform strategy is far from the value and exploitable."""
    model, _, (v_oop, _) = solved("shove-or-75")
    uniform = {
        d.line: np.full((len(d.actions), len(model.hands[d.player])), 1 / len(d.actions))
        for d in decisions(model.tree)
    }
    br_oop = value(model, uniform, OOP, respond=True)
    br_ip = value(model, uniform, IP, respond=True)
    assert (br_oop + br_ip - model.pot) / 2 > 0.05 * model.pot
    assert model.pot - br_ip < v_oop < br_oop


# --- the polarized river toy ---------------------------------------------------------------------
#
# IP holds the nuts (V combos) or air (B combos), OOP only bluff catchers that beat the
# air and lose to the nuts; OOP may only check, IP bets s pots (b = s P) or checks back.
# OOP calls with frequency c, IP bluffs a combos of air:
#   air is indifferent between bluffing and checking: (1 - c) P - c b = 0, so c = 1/(1+s);
#   the catcher is indifferent between calling and folding: a (P + b) - V b = 0, so the
#   bluffs are s/(1+s) of the value (a fraction s/(1+2s) of the bets), a = V s/(1+s).
# The nuts always bet; IP gains P + c b with them and 0 with air, so OOP's value is
#   P - V/(V+B) (P + c b).
# With more air than a (B > V s/(1+s)) the equilibrium frequencies are unique.
# Cards: board Ah Kd 8c 5s 2h, nuts 55 (a set; 3 combos), air QJs (ace high, 4 combos),
# catchers KT (a pair of kings, 12 combos); no rank in common, so no card removal between
# the ranges and every frequency is a plain combo count.

TOY_V, TOY_B = 3, 4


def toy(percent: int) -> RiverSpot:
    return RiverSpot(
        "standard52-holdem",
        "Ah Kd 8c 5s 2h",
        (("KT", 1),),
        (("55", 1), ("QJs", 1)),
        100,
        1000,
        (percent,),
        (),
        oop_bets=(),
    )


@pytest.mark.parametrize("percent", [50, 75, 100])
def test_polarized_toy_has_the_closed_form_frequencies(percent: int) -> None:
    s = Fraction(percent, 100)
    P = 100
    b = int(s * P)
    call = 1 / (1 + s)
    bluffs = TOY_V * s / (1 + s)
    value_oop = P - Fraction(TOY_V, TOY_V + TOY_B) * (P + call * b)

    spot = toy(percent)
    model = spot.model()
    assert [len(h) for h in model.hands] == [12, TOY_V + TOY_B]
    assert set(model.result.ravel()) == {-1, 1} and (model.pair_weight == 1).all()
    v_oop, _ = lp_value(model)
    assert v_oop == pytest.approx(float(value_oop), abs=1e-7)  # the model's own check

    solution = solve(spot.spot(), 5000, target=0.01, threads=2)
    assert solution.exploitability_pot_percent <= 0.01
    assert solution.root().actions == ("k",)
    ip = solution.node("k")
    assert ip.actions == ("k", f"b{b}")
    tol = 0.003  # a few times what the frequencies are off by at this target
    bet = ip.frequencies()[1]
    assert bet == pytest.approx(float((TOY_V + bluffs) / (TOY_V + TOY_B)), abs=tol)
    strategy = ip.strategy()
    nuts = [i for i, c in enumerate(solution.game.hands[IP].cards) if c[0].rank == c[1].rank]
    air = [i for i in range(len(solution.game.hands[IP])) if i not in nuts]
    assert len(nuts) == TOY_V
    np.testing.assert_allclose(strategy[1, nuts], 1.0, atol=tol)  # the nuts always bet
    assert strategy[1, air].mean() == pytest.approx(float(bluffs / TOY_B), abs=tol)
    oop = solution.node(f"k b{b}")
    assert oop.actions == ("f", "c")
    assert oop.frequencies()[1] == pytest.approx(float(call), abs=tol)
    assert solution.ev().oop == pytest.approx(
        float(value_oop), abs=2 * solution.exploitability + 1e-6
    )


# --- docs/postflop.md's FESCA78 river spot, at its full size ----------------------------------


@pytest.mark.slow  # the report's ranges carried to FESCA78 (an equity order), then an LP
def test_the_fesca78_river_spot_of_the_docs_is_the_linear_programs() -> None:
    """The river spot docs/postflop.md times (the report's single-raised pot, its ranges
    carried to FESCA78 by share: 407 and 215 hands), solved to 0.3% of the pot as the
    docs' command does: its EV lies within twice its exploitability of the value of
    this file's own model, solved exactly by the linear program, and the model's best
    responses measure the same exploitability."""
    from cardlab.analysis import deck_postflop
    from cardlab.cards import format_cards
    from cardlab.poker.classes import hand_classes
    from cardlab.solve.postflop import parse_weighted_range

    game = get_game("fesca78-holdem")
    items = []
    for text in (deck_postflop.OOP_RANGE, deck_postflop.IP_RANGE):
        carried = parse_weighted_range(deck_postflop.deck_range(text, game), game)
        weight = {frozenset(c): w for c, w in zip(carried.combos, carried.weights, strict=True)}
        # every hand of the deck by its class (not the solver's range parser), weighted
        hands = [h for c in hand_classes(game.rules) for h in c.combos]
        items.append(tuple((format_cards(h), weight[frozenset(h)]) for h in hands
                           if frozenset(h) in weight))  # fmt: skip
    spot = RiverSpot("fesca78-holdem", "M12 K6 D1 G9 S3", items[0], items[1], 55, 245,
                     (50,), (60,))  # fmt: skip
    model = spot.model()
    assert (len(model.hands[0]), len(model.hands[1])) == (407, 215)  # the docs' counts
    solution = solve(spot.spot(), 3000, target=0.3, threads=2)
    assert solution.exploitability_pot_percent <= 0.3
    v_oop, v_ip = lp_value(model)
    assert v_oop == pytest.approx(v_ip, abs=1e-6 * model.pot)
    assert abs(solution.ev().oop - v_oop) <= 2 * solution.exploitability + 1e-6 * model.pot
    strategy = solver_strategy(model, solution)
    br_oop = value(model, strategy, OOP, respond=True)
    br_ip = value(model, strategy, IP, respond=True)
    assert model.pot - br_ip - 1e-6 * model.pot <= v_oop <= br_oop + 1e-6 * model.pot
    mine = (br_oop + br_ip - model.pot) / 2
    assert solution.exploitability == pytest.approx(mine, abs=1e-6 * model.pot)
