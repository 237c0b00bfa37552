"""The coach's river review: the spot read from a played hand (against the hand state
itself paused at the river), the reference ranges counted by brute force, and the
answer against a direct solve of the same spot written out by hand."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.cards import format_cards
from cardlab.errors import GameError
from cardlab.poker.games import get_game
from cardlab.solve.postflop import Spot, solve
from cardlab.solve.river_review import review_river, river_spot
from cardlab.table import Phase, TableGame, phh
from cardlab.table.history import replay
from cardlab.table.state import HandState

HEAD = "min_bet = 2\n"
# p1 (position 0) is the big blind and acts first after the flop; p2 holds aces
PLAY = [
    "d dh p1 8c3h", "d dh p2 AsAd", "p2 cbr 6", "p1 cc",
    "d db KsTd7c", "p1 cc", "p2 cbr 4", "p1 cc",
    "d db 4h", "p1 cc", "p2 cc",
    "d db 2s",
]  # fmt: skip
RIVER = ["p1 cbr 10", "p2 cbr 40", "p1 f"]


def _hand(actions: list[str], stacks: tuple[int, ...] = (200, 200)) -> HandState:
    return replay(phh.loads(_text(actions, stacks))).hand


def _text(actions: list[str], stacks: tuple[int, ...]) -> str:
    n = len(stacks)
    return (
        f"variant = 'NT'\nantes = {[0] * n}\nblinds_or_straddles = {[1, 2] + [0] * (n - 2)}\n"
        f"{HEAD}starting_stacks = {list(stacks)}\nactions = {actions!r}\n"
    )


def test_the_river_spot_of_a_hand() -> None:
    spot, why = river_spot(_hand(PLAY + RIVER))
    assert why is None and spot is not None
    # by hand: 6 each pre-flop, 4 each on the flop, checks on the turn
    assert (spot.pot, spot.stack, spot.unit) == (20, 190, 2)
    # against the hand state itself when the river was dealt
    seen: list[tuple[int, int]] = []

    def step(k: int, action: object, hand: HandState) -> None:
        if k == len(PLAY) - 1:
            seen.append((hand.total_pot, min(hand.stacks)))

    replay(phh.loads(_text(PLAY + RIVER, (200, 200))), on_step=step)
    assert seen == [(spot.pot, spot.stack)]
    assert format_cards(spot.board) == "Ks Td 7c 4h 2s"
    assert (spot.oop, spot.ip) == (0, 1)
    assert spot.line == ("b10", "r40", "f") and spot.players == (0, 1, 0)
    # the standard menu plus the sizes played: a bet of 10, a raise of 30 over it
    assert spot.bets == ("33%", "75%", "a", "10c") and spot.raises == ("a", "30c")


def test_hands_with_no_river_review() -> None:
    cases = [
        ([*PLAY[:4], "d db KsTd7c", "p1 cc", "p2 cbr 4", "p1 f"], "before the river"),
        ([*PLAY[:2], "p2 cbr 200", "p1 cc", "d db KsTd7c", "d db 4h", "d db 2s"], "all in"),
    ]
    for actions, words in cases:
        spot, why = river_spot(_hand(actions))
        assert spot is None and why is not None and words in why, (actions, why)
    limit = replay(
        phh.loads(
            "variant = 'FT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nsmall_bet = 2\n"
            "big_bet = 4\nstarting_stacks = [200, 200]\n"
            "actions = ['d dh p1 8c3h', 'd dh p2 AsAd', 'p2 f']\n"
        )
    ).hand
    assert "No-Limit" in (river_spot(limit)[1] or "")
    three = _hand(
        ["d dh p1 8c3h", "d dh p2 AsAd", "d dh p3 QcQd", "p3 cc", "p1 cc", "p2 cc",
         "d db KsTd7c", "p1 cc", "p2 cc", "p3 cc", "d db 4h", "p1 cc", "p2 cc", "p3 cc",
         "d db 2s", "p1 cc", "p2 cc", "p3 cc"],
        (200, 200, 200),
    )  # fmt: skip
    assert "heads-up" in (river_spot(three)[1] or "")
    reviewed, why = review_river(_hand(PLAY + RIVER), 5)
    assert reviewed is None and why == "you were not in the hand on the river"


def test_the_reference_ranges_counted_by_hand() -> None:
    """Both ranges are every two cards the board leaves (C(47, 2) = 1,081 on the 52
    cards), the other player's cards included: the solver takes a hand's card removal
    pair by pair, so the aces meet C(45, 2) = 990 hands of the big blind's range."""
    spot, _ = river_spot(_hand(PLAY + RIVER))
    assert spot is not None
    solution = solve(spot.spot(), 1, target=None, threads=1)
    deck = get_game("standard52-holdem").deck.cards
    left = [c for c in deck if c not in spot.board]
    brute = {frozenset(pair) for pair in itertools.combinations(left, 2)}
    assert len(brute) == 1081
    for p in (0, 1):
        assert {frozenset(c) for c in solution.game.hands[p].cards} == brute
    aces = frozenset(spot.hole[1])
    assert sum(1 for h in brute if not h & aces) == 990
    assert frozenset(spot.hole[0]) in brute  # the shown cards are not taken out


def test_the_review_equals_a_direct_solve() -> None:
    hand = _hand(PLAY + RIVER)
    reviewed, why = review_river(hand, 1)
    assert why is None and reviewed is not None
    # the same spot written out by hand and solved directly
    direct = solve(
        Spot("standard52-holdem", "Ks Td 7c 4h 2s", "any", "any", 20, 190,
             bets="33%, 75%, a, 10c", raises="a, 30c"),
        300, target=0.5, threads=1,
    )  # fmt: skip
    assert reviewed.iterations == direct.iterations
    assert reviewed.exploitability_pot_percent == pytest.approx(direct.exploitability_pot_percent)
    (decision,) = reviewed.decisions
    assert decision.line == ("b10",) and decision.played == "r40"
    node = direct.node("b10")
    (row,) = [r for r in node.hands(1) if format_cards(r.cards) in ("As Ad", "Ad As")]
    assert decision.strategy == pytest.approx(dict(zip(node.actions, row.strategy, strict=True)))
    for action, f in decision.strategy.items():
        if f > 0.01:  # the aces reach the node after it: their EV there, in big blinds
            (after,) = [
                r for r in direct.node(f"b10 {action}").hands(1) if set(r.cards) == set(row.cards)
            ]
            assert decision.values[action] == pytest.approx(after.ev / 2, abs=1e-6)
    # the actions' values mixed by the strategy are the hand's value at the node
    mixed = sum(f * decision.values[a] for a, f in decision.strategy.items())
    assert mixed == pytest.approx(row.ev / 2, abs=1e-4)
    assert decision.ev_lost == pytest.approx(max(decision.values.values()) - decision.values["r40"])
    # a fold gives up what was put in on the river: the big blind's bet of 10 chips
    (_, fold) = review_river(hand, 0)[0].decisions  # type: ignore[union-attr]
    assert fold.played == "f" and fold.values["f"] == pytest.approx(-5.0)


def test_a_raked_review_equals_a_direct_solve_with_the_rake() -> None:
    """A table raking 5% of the pot, at most 3 chips: the review is a direct solve of the
    same spot with that rake written out by hand, and it differs from the unraked
    review (the aces' values lose the rake of the pots they win)."""
    hand = _hand(PLAY + RIVER)
    raked, why = review_river(hand, 1, rake_rate=0.05, rake_cap=3)
    assert why is None and raked is not None
    assert raked.assuming.endswith("; a rake of 5% of the pot, at most 3 chips")
    assert raked.as_dict()["rake"] == {"rate": 0.05, "cap": 3.0}
    direct = solve(
        Spot("standard52-holdem", "Ks Td 7c 4h 2s", "any", "any", 20, 190,
             bets="33%, 75%, a, 10c", raises="a, 30c", rake_rate=0.05, rake_cap=3),
        300, target=0.5, threads=1,
    )  # fmt: skip
    assert raked.iterations == direct.iterations
    assert raked.exploitability_pot_percent == pytest.approx(direct.exploitability_pot_percent)
    (decision,) = raked.decisions
    node = direct.node("b10")
    (row,) = [r for r in node.hands(1) if set(r.cards) == set(hand.hole[1])]
    assert decision.strategy == pytest.approx(dict(zip(node.actions, row.strategy, strict=True)))
    for action, f in decision.strategy.items():
        if f > 0.01:
            (after,) = [
                r for r in direct.node(f"b10 {action}").hands(1) if set(r.cards) == set(row.cards)
            ]
            assert decision.values[action] == pytest.approx(after.ev / 2, abs=1e-6)
    # the unraked review of the same hand: other values where the pot is won
    plain, _ = review_river(hand, 1)
    assert plain is not None and plain.as_dict()["rake"] is None
    (unraked,) = plain.decisions
    # a call ends the hand (a showdown of a 40-chip pot, raked 2 chips = 1 big blind
    # when won): the raked call is worth less, by at most that rake
    assert 0 < unraked.values["c"] - decision.values["c"] <= 1
    # a rake with no cap: 5% of every pot (the largest pot the river can make as the cap)
    spot, _ = river_spot(hand, rake_rate=0.05)
    assert spot is not None and spot.rake_cap == 20 + 2 * 190
    assert spot.rake_words() == "a rake of 5% of the pot"
    assert river_spot(hand, rake_cap=3)[0].rake_words() == ""  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("rate", "cap", "words"),
    [
        (1.5, None, "the rake rate is a fraction of the pot, 0 to 1, got 1.5"),
        (-0.1, None, "the rake rate is a fraction of the pot, 0 to 1, got -0.1"),
        (float("nan"), None, "the rake rate is a fraction of the pot, 0 to 1, got nan"),
        ("5%", None, "the rake rate is a fraction of the pot, 0 to 1, got '5%'"),
        (0.05, -1, "the rake cap is a number of chips, 0 or more, got -1"),
        (0.05, float("inf"), "the rake cap is a number of chips, 0 or more, got inf"),
        (0.05, True, "the rake cap is a number of chips, 0 or more, got True"),
    ],
)
def test_a_bad_rake_is_one_clear_error(rate: object, cap: object, words: str) -> None:
    with pytest.raises(GameError) as raised:
        river_spot(_hand(PLAY + RIVER), rake_rate=rate, rake_cap=cap)  # type: ignore[arg-type]
    assert str(raised.value) == words


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 3), st.integers(1, 3))
def test_the_spot_of_any_played_hand_is_the_hand_at_the_river(
    seed: int, players: int, ante: int
) -> None:
    """Random legal play (folds, calls, raises of any legal size, antes, two or three
    players): the spot's pot and stack are the hand state's own when the river is dealt,
    and its line replays the river's decisions."""
    game = TableGame.create("standard52-holdem", betting="no-limit", blinds=(1, 2), antes=ante)
    rng = random.Random(seed)
    stacks = [rng.randint(20, 400) for _ in range(players)]
    hand = HandState(game, stacks, seed=seed)
    at_river: tuple[int, int, int] | None = None
    while not hand.is_over:
        if at_river is None and hand.street_name == "river" and hand.actor is not None:
            alive = [p for p in range(players) if hand.alive[p]]
            at_river = (hand.total_pot, min(hand.stacks[p] for p in alive), len(alive))
        legal = hand.legal()
        if legal.phase is Phase.SHOWDOWN:
            hand.show_or_muck(True)
            continue
        roll = rng.random()
        if legal.fold and roll < 0.15:
            hand.fold()
        elif legal.can_raise and roll > 0.7:
            assert legal.raise_min is not None and legal.raise_max is not None
            hand.bet_or_raise_to(rng.randint(legal.raise_min, legal.raise_max))
        else:
            hand.check_or_call()
    spot, why = river_spot(hand)
    if spot is None:
        assert why is not None
        assert at_river is None or at_river[2] != 2 or at_river[1] == 0, (why, at_river)
        return
    assert at_river is not None and at_river[2] == 2
    assert (spot.pot, spot.stack) == at_river[:2]
    assert len(spot.line) == len(spot.players) >= 1 and spot.unit == 2
