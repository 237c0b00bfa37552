"""A learner's hint on a double-board bomb pot: each board's best hand in words and
exact chances against one random hand, and the share of the pot (each pot split in two
halves, one to the best hand on each board, docs/home-games.md), equal to a brute force
that deals every opponent hand and every card still to come on both boards jointly and
settles each deal by the reference evaluator; on the short deck and on standard52.
The hint reads the player's own cards and the boards only."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from fractions import Fraction

import pytest

from cardlab.cards import Card
from cardlab.poker.hands import best_hand
from cardlab.table import HandState, TableGame
from cardlab.table.house import bomb_pot_stakes
from cardlab.table.odds import StrengthHint, strength_hint
from cardlab.table.state import Phase


def _double_board(key: str, seed: int, street: str) -> HandState:
    """A heads-up double-board bomb pot checked through to ``street``."""
    base = TableGame.create(key, blinds=(1, 2))
    game = dataclasses.replace(base, stakes=bomb_pot_stakes(base.stakes, 5))
    hand = HandState(game, [60, 60], seed=seed, bomb_pot=True, boards=2)
    while hand.street_name != street:
        assert hand.phase is Phase.BET
        hand.check_or_call()
    assert len(hand.boards) == 2
    return hand


def _brute_force(
    hand: HandState, own: Sequence[Card], hands: Sequence[tuple[Card, ...]] | None = None
) -> tuple[Fraction, list[tuple[Fraction, Fraction, Fraction]]]:
    """The pot share and each board's (equity, win, tie) of ``own`` against one random
    hand (or one of ``hands``, a range: those that share no card with ``own`` and the
    boards): every opponent hand and every completion of both boards from the cards left
    (the boards' cards distinct), each half of the pot to the better hand on its board,
    a tie splitting that half."""
    rules = hand.game.game.rules
    boards = [tuple(b) for b in hand.boards]
    full = sum(s.board for s in hand.streets)
    need = [full - len(b) for b in boards]
    seen = {*own, *(c for b in boards for c in b)}
    rest = [c for c in hand.game.game.deck.cards if c not in seen]

    def key(cards: Sequence[Card]) -> int:  # the reference evaluator
        return best_hand(list(cards), rules).key

    own_keys: dict[tuple[int, tuple[Card, ...]], int] = {}  # (board, its new cards)

    quarters = 0  # the pot share in quarters of the pot (half a board's half)
    counts = [[0, 0] for _ in boards]  # each board's ties and wins
    deals = 0
    opponents = (
        itertools.combinations(rest, 2)
        if hands is None
        else [h for h in hands if not seen & set(h)]
    )
    for theirs in opponents:
        left = [c for c in rest if c not in theirs]
        # on each board, every completion's result: 2 a win, 1 a tie, 0 a loss
        results: list[dict[tuple[Card, ...], int]] = []
        for board, n in zip(boards, need, strict=True):
            results.append({})
            for extra in itertools.combinations(left, n):
                k = (len(results), extra)
                mine = (
                    own_keys[k]
                    if k in own_keys
                    else own_keys.setdefault(k, key((*own, *board, *extra)))
                )
                other = key((*theirs, *board, *extra))
                results[-1][extra] = 2 if mine > other else 1 if mine == other else 0
        # every joint deal of both boards (their cards distinct), settled half by half
        for first in itertools.combinations(left, need[0]):
            after = [c for c in left if c not in first]
            one = results[0][first]
            for second in itertools.combinations(after, need[1]):
                two = results[1][second]
                deals += 1
                quarters += one + two
                for k, code in ((0, one), (1, two)):
                    if code:
                        counts[k][code - 1] += 1
    each = [
        (Fraction(2 * w + t, 2 * deals), Fraction(w, deals), Fraction(t, deals)) for t, w in counts
    ]
    return Fraction(quarters, 4 * deals), each


def _check(hand: HandState, player: int) -> StrengthHint:
    hint = strength_hint(hand, player, max_seconds=None)
    assert hint is not None and hint.hand is None and hint.win is None
    own = tuple(c for c in hand.hole[player] if c is not None)
    share, each = _brute_force(hand, own)
    assert hint.equity == share
    assert [b.on for b in hint.boards] == [0, 1]
    for b, (equity, win, tie) in zip(hint.boards, each, strict=True):
        assert (b.equity, b.win, b.tie) == (equity, win, tie)
        cards = [*own, *hand.boards[b.on]]
        assert b.hand is not None
        assert b.hand == best_hand(cards, hand.game.game.rules).describe().split(" — ")[0]
    assert 0 < share < 1
    return hint


@pytest.mark.parametrize("seed", [3])
def test_a_short_deck_double_board_hint_equals_the_brute_force_on_the_turn(seed: int) -> None:
    hand = _double_board("short36-holdem", seed, "turn")
    assert [len(b) for b in hand.boards] == [4, 4]
    _check(hand, 0)


def test_a_standard_deck_double_board_hint_equals_the_brute_force_on_the_river() -> None:
    hand = _double_board("standard52-holdem", 5, "river")
    hint = _check(hand, 1)
    # the boards differ: so do the hand's chances on them
    assert hint.boards[0].equity != hint.boards[1].equity


@pytest.mark.slow
def test_a_standard_deck_double_board_hint_equals_the_brute_force_on_the_turn() -> None:
    _check(_double_board("standard52-holdem", 8, "turn"), 0)


def test_the_hint_reads_no_other_players_cards() -> None:
    hand = _double_board("standard52-holdem", 2, "flop")
    before = strength_hint(hand, 0)
    assert before is not None and before.equity is not None
    seen = {c for h in hand.hole for c in h if c is not None} | {c for b in hand.boards for c in b}
    others = [c for c in hand.game.game.deck.cards if c not in seen][:2]
    hand.hole[1] = list(others)  # another opponent hand: the hint must not move
    assert strength_hint(hand, 0) == before


def test_a_single_board_hint_has_no_boards() -> None:
    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    hand = HandState(game, [100, 100], seed=4)
    hand.check_or_call()
    hand.check_or_call()
    hint = strength_hint(hand, 0)
    assert hint is not None and hint.boards == () and hint.as_dict()["boards"] == []
