"""A learner's hint against a chosen range: the exact equity of the player's hand
against every hand of the range that their cards and the board leave, equal to a brute
force that lists the range's hands from the cards themselves (not through the range
parser), deals every card still to come and settles each deal by the reference
evaluator; on standard52 (``QQ+,AKs``) and on FESCA42 (its own classes, ``Z-Z, Z-6s``).
The range is read as the web table reads it (web/table_odds.hint_range)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest

from cardlab.cards import Card
from cardlab.poker.hands import best_hand
from cardlab.table import HandState, TableGame
from cardlab.table.odds import strength_hint
from cardlab.table.state import Phase

pytest.importorskip("starlette")

from cardlab.web.table_odds import hint_range, seen_by


def _to(key: str, seed: int, street: str) -> HandState:
    """A heads-up hand checked through to ``street``."""
    hand = HandState(TableGame.create(key, blinds=(1, 2)), [100, 100], seed=seed)
    while hand.street_name != street:
        assert hand.phase is Phase.BET
        hand.check_or_call()
    return hand


def brute_force(
    hand: HandState, own: Sequence[Card], theirs: Sequence[tuple[Card, Card]]
) -> tuple[Fraction, Fraction, Fraction]:
    """(equity, win, tie) of ``own`` against each of ``theirs`` that shares no card with
    ``own`` and the board, every board completion from the cards left counted once."""
    rules = hand.game.game.rules
    board = tuple(hand.board)
    need = 5 - len(board)
    seen = {*own, *board}
    wins = ties = deals = 0
    for other in theirs:
        if seen & set(other):
            continue
        rest = [c for c in hand.game.game.deck.cards if c not in seen and c not in other]
        for extra in itertools.combinations(rest, need):
            mine = best_hand([*own, *board, *extra], rules).key
            their = best_hand([*other, *board, *extra], rules).key
            deals += 1
            wins += mine > their
            ties += mine == their
    return Fraction(2 * wins + ties, 2 * deals), Fraction(wins, deals), Fraction(ties, deals)


def _hands(hand: HandState, keep: Callable[[Card, Card], bool]) -> list[tuple[Card, Card]]:
    cards = hand.game.game.deck.cards
    return [(a, b) for a, b in itertools.combinations(cards, 2) if keep(a, b) or keep(b, a)]


def _qq_plus_aks(a: Card, b: Card) -> bool:
    ra, rb = str(a.rank), str(b.rank)
    return (ra == rb and ra in "QKA") or (ra == "A" and rb == "K" and a.suit == b.suit)


def _zz_z6s(a: Card, b: Card) -> bool:  # the lone suit 陰陽 is a class of its own
    if "陰陽" in (str(a.suit), str(b.suit)):
        return False
    ra, rb = str(a.rank), str(b.rank)
    return (ra == rb == "Z") or (ra == "Z" and rb == "6" and a.suit == b.suit)


@pytest.mark.parametrize(
    ("key", "seed", "street", "text", "keep"),
    [
        ("standard52-holdem", 4, "river", "QQ+,AKs", _qq_plus_aks),
        ("standard52-holdem", 7, "turn", "QQ+, AKs", _qq_plus_aks),
        ("fesca42-holdem", 3, "turn", "Z-Z, Z-6s", _zz_z6s),
        ("fesca42-holdem", 5, "flop", "Z-Z,Z-6s", _zz_z6s),
    ],
)
def test_a_hint_against_a_range_equals_the_brute_force(
    key: str, seed: int, street: str, text: str, keep: Callable[[Card, Card], bool]
) -> None:
    hand = _to(key, seed, street)
    chosen = hint_range(hand.game.game, text, seen_by(hand, 0))
    assert chosen is not None and chosen.text == text
    hint = strength_hint(hand, 0, against=chosen)
    assert hint is not None and hint.against == text and hint.equity is not None
    own = [c for c in hand.hole[0] if c is not None]
    theirs = _hands(hand, keep)
    assert {frozenset(c) for c in chosen.combos} == {frozenset(c) for c in theirs}
    assert (hint.equity, hint.win, hint.tie) == brute_force(hand, own, theirs)


def test_the_range_changes_the_figure() -> None:
    hand = _to("standard52-holdem", 4, "river")
    chosen = hint_range(hand.game.game, "QQ+,AKs", seen_by(hand, 0))
    random = strength_hint(hand, 0)
    ranged = strength_hint(hand, 0, against=chosen)  # type: ignore[arg-type]
    assert random is not None and ranged is not None and random.against == "random"
    assert random.equity != ranged.equity


def test_a_standard_range_text_counts_as_the_parsed_range() -> None:
    # the engine's own reading of standard52 range text agrees with the parsed range
    hand = _to("standard52-holdem", 7, "turn")
    chosen = hint_range(hand.game.game, "QQ+,AKs", seen_by(hand, 0))
    by_text = strength_hint(hand, 0, against="QQ+,AKs")
    by_range = strength_hint(hand, 0, against=chosen)  # type: ignore[arg-type]
    assert by_text is not None and by_range is not None
    assert by_text.equity == by_range.equity and by_text.equity is not None


def test_a_double_board_hint_against_a_range_equals_the_joint_brute_force() -> None:
    # both boards dealt jointly against each hand of the range (the engine counts each
    # board on its own, the other board's cards dead)
    from test_double_board_hints import _brute_force, _double_board

    hand = _double_board("short36-holdem", 3, "turn")
    chosen = hint_range(hand.game.game, "TT+, AKs, A9s", seen_by(hand, 0))
    assert chosen is not None
    hint = strength_hint(hand, 0, against=chosen, max_seconds=None)
    assert hint is not None and hint.against == "TT+, AKs, A9s"
    own = tuple(c for c in hand.hole[0] if c is not None)
    share, each = _brute_force(hand, own, chosen.combos)
    assert hint.equity == share
    assert [(b.equity, b.win, b.tie) for b in hint.boards] == each
