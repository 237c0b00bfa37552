"""The exact all-in odds shown at a table, and the learner's hint: on every street of an
all-in hand (each run of a board run twice on its own) the odds are what
``cardlab equity --exact`` prints for the same hands and board, on several decks."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.table import HandState, TableGame, phh
from cardlab.table.history import replay, to_history
from cardlab.table.odds import AllInOdds, all_in_odds, strength_hint
from cardlab.table.state import Phase

SHORT = """name = "short36"
suits = ["c", "d", "h", "s"]
ranks = ["6", "7", "8", "9", "T", "J", "Q", "K", "A"]
wrap = "ace-low"
"""


def _cli_equity(
    capsys: pytest.CaptureFixture[str],
    game: list[str],
    hands: list[str],
    board: str,
    dead: str = "",
) -> list[Fraction]:
    capsys.readouterr()
    extra = ["--dead", dead] if dead else []
    try:
        main(["equity", *game, "--exact", "--board", board, *extra, "--format", "json", *hands])
    except SystemExit as ended:
        assert not ended.code, capsys.readouterr().err
    rows = json.loads(capsys.readouterr().out)["players"]
    return [Fraction(str(r["equity"])) for r in rows]


@pytest.mark.parametrize(
    ("key", "street"),
    [
        ("standard52-holdem", "pre-flop"),
        ("short36-holdem", "pre-flop"),
        ("fesca78-holdem", "flop"),
        ("standard52-omaha", "turn"),
    ],
)
def test_odds_equal_cardlab_equity_exact_on_every_street(
    key: str, street: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = TableGame.create(key, blinds=(1, 2), betting="no-limit")
    hand = HandState(game, [60, 60], seed=17, runs=2)
    while hand.phase is Phase.BET:
        legal = hand.legal()
        if hand.street_name == street and legal.raise_max is not None:
            hand.bet_or_raise_to(legal.raise_max)
        else:
            hand.check_or_call()
    while hand.phase is Phase.RUNS:
        hand.choose_runs(2)
    assert hand.runs == 2
    seen: list[AllInOdds] = []

    def step(_k: int, _a: object, h: HandState) -> None:
        odds = all_in_odds(h)
        if odds is not None and all(o.board != odds.board or o.run != odds.run for o in seen):
            seen.append(odds)

    replay(phh.loads(phh.dumps(to_history(hand))), on_step=step)
    streets_left = sum(1 for s in game.streets[game.streets.index(_street(game, street)) + 1 :])
    assert len(seen) == 2 * streets_left  # every street still to come, on each run
    if key.startswith("short36"):
        deck = tmp_path / "short36.toml"
        deck.write_text(SHORT, encoding="utf-8")
        flags = ["--game", "holdem", "--deck", str(deck)]
    else:
        flags = ["--game", key]
    for odds in seen:
        hands = [" ".join(c.ascii for c in h.cards) for h in odds.hands]
        board = " ".join(c.ascii for c in odds.board)
        # a later run's deck lacks the cards the runs before it dealt
        dead = " ".join(c.ascii for c in odds.dead)
        if odds.run == 1:
            first = set(hand.runouts()[0]) - set(odds.board)
            assert set(odds.dead) == first and first
        theirs = _cli_equity(capsys, flags, hands, board, dead)
        assert [h.equity for h in odds.hands] == theirs, (odds.run, board)
        assert sum(h.equity for h in odds.hands) == 1


def _street(game: TableGame, name: str) -> object:
    return next(s for s in game.streets if s.name == name)


def test_no_odds_while_someone_can_bet_or_after_the_river() -> None:
    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    hand = HandState(game, [100, 100, 100], seed=2)
    hand.bet_or_raise_to(100)
    assert all_in_odds(hand) is None  # two players still to act
    hand.check_or_call()
    assert all_in_odds(hand) is None
    hand.check_or_call()
    assert hand.is_over and all_in_odds(hand) is None


def test_a_hint_is_the_best_hand_and_the_equity_against_a_random_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    hand = HandState(game, [100, 100], seed=4)
    hand.check_or_call()
    hand.check_or_call()
    assert len(hand.board) == 3
    hint = strength_hint(hand, 0)
    assert hint is not None and hint.hand is not None and hint.equity is not None
    own = " ".join(c.ascii for c in hand.hole[0] if c is not None)
    board = " ".join(c.ascii for c in hand.board)
    theirs = _cli_equity(capsys, ["--game", "standard52-holdem"], [own, "random"], board)
    assert hint.equity == theirs[0]
    # the words are the reference evaluator's name of the best five
    from cardlab.poker.showdown import best_five

    best = best_five(game.game, tuple(hand.hole[0]), tuple(hand.board))  # type: ignore[arg-type]
    assert hint.hand == best.describe().split(" — ")[0]
    pre = HandState(game, [100, 100], seed=4)
    early = strength_hint(pre, 1)
    assert early is not None and early.hand is None and early.equity is not None
