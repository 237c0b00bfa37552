"""Suit isomorphism in the postflop solver: which suits it merges (counted against a brute
force over every permutation of suits), that a solve with it equals a solve without it,
and that nodes after mirrored cards, locks and saved files read through it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cardlab.cards import Card
from cardlab.errors import GameError
from cardlab.poker.games import get_game
from cardlab.solve.postflop import PostflopSolution, Solver, Spot, solve

OOP = "AA,KK,QQ,AK,T9s,98s,65s:0.5"
IP = "QQ-77,AQs,KQ,JTs,A5s"


@pytest.fixture
def float64_training(monkeypatch: pytest.MonkeyPatch) -> None:
    """Solves trained in float64: isomorphism changes the order numbers are added in, so
    two solves trained in float32 differ by its rounding, amplified where regret
    matching flips on a regret near 0; the mirroring itself is exact to 1e-9."""
    monkeypatch.setattr(Solver, "training", np.float64)


def spot(board: str, iso: bool = True, oop: str = OOP, ip: str = IP, **kw: object) -> Spot:
    return Spot(
        "standard52-holdem",
        board,
        oop,
        ip,
        100,
        300,
        bets="50%, a",
        raises="",
        isomorphism=iso,
        **kw,  # type: ignore[arg-type]
    )


def orbits_of_deals(board: str) -> tuple[int, int]:
    """Brute force: the turns and (turn, river) pairs left, up to the permutations of the
    four suits that map the flop onto itself (Burnside: the mean count of fixed points)."""
    deck = get_game("standard52-holdem").deck
    flop = set(deck.parse_cards(board))
    left = [c for c in deck.cards if c not in flop]
    group = []
    for perm in itertools.permutations(deck.suits):
        image = dict(zip(deck.suits, perm, strict=True))

        def move(c: Card, image: dict = image) -> Card:  # type: ignore[type-arg]
            return Card(image[c.suit], c.rank)

        if {move(c) for c in flop} == flop:
            group.append(move)
    turns = sum(sum(m(c) == c for c in left) for m in group)
    pairs = sum(
        sum(m(a) == a and m(b) == b for a, b in itertools.permutations(left, 2)) for m in group
    )
    assert turns % len(group) == 0 and pairs % len(group) == 0
    return turns // len(group), pairs // len(group)


@pytest.mark.parametrize(
    ("board", "suits"),
    [("QsJh2h", ["cd"]), ("7h7s7d", ["dh", "ds", "hs"]), ("Ks8s3s", ["cd", "ch", "dh"])],
)
def test_the_deals_walked_are_the_orbits_of_the_suit_permutations(
    board: str, suits: list[str]
) -> None:
    game = spot(board, oop="any", ip="any").game_arrays()
    assert sorted(s.suits for s in game.swaps) == suits
    assert game.kept_deals[1:] == list(orbits_of_deals(board))


def test_a_published_count_qsjh2h() -> None:
    # diamonds mirror clubs: 36 of 49 turns, and (by Burnside) (2352 + 23 * 22) / 2 deals
    game = spot("QsJh2h").game_arrays()
    assert game.kept_deals == [1, 36, 1429]
    plain = spot("QsJh2h", iso=False).game_arrays()
    assert plain.kept_deals == [1, 49, 2352]
    assert game.memory_bytes < 0.75 * plain.memory_bytes


def test_an_asymmetric_range_keeps_its_suits_apart() -> None:
    # AcKc without AdKd: clubs and diamonds are not the same any more
    game = spot("QsJh2h", oop="AA,AcKc", ip="KK,QQ").game_arrays()
    assert game.swaps == []
    weighted = spot("QsJh2h", oop="AA,AcKc:0.5,AdKd", ip="KK,QQ").game_arrays()
    assert weighted.swaps == []


def test_suits_the_rules_rank_are_never_merged() -> None:
    # FESCA's ties are broken by suit strength (spec section 5): no two suits play alike,
    # whatever the board and ranges; only the showdown tables can tell
    for name, board in [("fesca65-holdem", "M1 K5 D9"), ("fesca78-holdem", "M1 K5 D9 G3")]:
        game = Spot(name, board, "any", "any", 100, 300, bets="a", raises="").game_arrays()
        assert game.swaps == []


@pytest.mark.parametrize("board", ["QsJh2h", "7h7s7d", "Ks8s3s 2h"])
def test_a_solve_with_isomorphism_equals_one_without(board: str, float64_training: None) -> None:
    # "smooth": the flop's default, "restart", wipes positive regrets on iteration 2
    # (a_2 = 0), leaving that iteration's own: where two actions are worth the same,
    # 0 up to the order of the sums, so regret matching flips on the rounding; the two
    # solves were the same after 2 iterations and 0.003 chips apart after 3 (1e-4
    # with "smooth")
    runs = [
        solve(spot(board, iso), 3, target=None, every=3, threads=2, schedule="smooth")
        for iso in (False, True)
    ]
    plain, iso = runs
    assert iso.game.swaps
    assert iso.ev().oop == pytest.approx(plain.ev().oop, abs=1e-3)
    assert iso.exploitability == pytest.approx(plain.exploitability, abs=1e-3)
    # a node after a mirrored card reads through its swap, hand by hand
    line = "k k 4d" if len(board.split()) == 1 else "k k 4c"
    for sol in runs:
        assert sol.node(line).board[-1] == get_game("standard52-holdem").deck.card(line[-2:])
    a, b = plain.node(line), iso.node(line)
    for p in (0, 1):
        ev_a, eq_a = a.hand_values(p)
        ev_b, eq_b = b.hand_values(p)
        np.testing.assert_allclose(ev_b, ev_a, atol=1e-3, rtol=1e-4)
        np.testing.assert_allclose(eq_b, eq_a, atol=1e-9)
    np.testing.assert_allclose(b.strategy(), a.strategy(), atol=1e-4)
    assert [r.cards for r in b.hands()] == [r.cards for r in a.hands()]


def test_mirrored_nodes_mirror_each_other(float64_training: None) -> None:
    sol = solve(spot("QsJh2h"), 20, target=None, every=20, threads=2)
    game = sol.game
    swap = game.swaps[0]
    for line, mirrored in [("b50 c 4c", "b50 c 4d"), ("k b50 c Td", "k b50 c Tc")]:
        a, b = sol.node(line), sol.node(mirrored)
        ev_a, _ = a.hand_values(0)
        ev_b, _ = b.hand_values(0)
        # hand h after 4c plays as swap(h) after 4d
        np.testing.assert_allclose(ev_b[swap.hands[0]], ev_a, atol=1e-6)
    # the river after a mirrored turn, mirrored again
    a, b = sol.node("k k 4c k k 8d"), sol.node("k k 4d k k 8c")
    np.testing.assert_allclose(b.strategy()[:, swap.hands[0]], a.strategy(), atol=1e-6)


def test_locks_must_be_the_same_for_mirrored_hands(tmp_path) -> None:  # type: ignore[no-untyped-def]
    sol = solve(spot("QsJh2h"), 5, target=None, every=5, threads=2)
    sol.lock("", {"k": 0.5, "b50": 0.5, "a300": 0.0})  # the same for every hand: fine
    n = len(sol.game.hands[0])
    odd = np.zeros((3, n))
    odd[0] = 1.0
    clubs = [i for i, c in enumerate(sol.game.hands[0].cards) if "c" in "".join(map(str, c))]
    odd[:, clubs] = [[0.0], [1.0], [0.0]]
    with pytest.raises(GameError, match="suit isomorphism"):
        sol.lock("", odd)
    # on the river no card follows: any lock is fine
    sol.lock("k k 4c k k 8d", odd)
    path = tmp_path / "s.npz"
    sol.save(path)
    again = PostflopSolution.load(path, threads=1)
    np.testing.assert_allclose(again.node("k k 4c k k 8d").strategy(), odd, atol=1e-6)
    plain = solve(spot("QsJh2h", iso=False), 2, target=None, every=2, threads=1)
    plain.lock("", odd)  # without isomorphism any lock is taken
    np.testing.assert_allclose(plain.root().strategy(), odd, atol=1e-6)
