"""The coach's review of push/fold decisions: which decisions count, and the EV lost,
checked against the ``pushfold`` bot's own push/fold values (fictitious play over the
shipped standard52 table, written apart from the CFR+ solver the coach uses)."""

from __future__ import annotations

import numpy as np
import pytest

from cardlab.bots import pushfold as bot
from cardlab.poker.classes import hand_classes
from cardlab.poker.games import get_game
from cardlab.solve.pushfold import solve_pushfold
from cardlab.solve.pushfold_matrix import ClassMatrix, class_deals, standard52_matrix
from cardlab.solve.pushfold_review import class_index, move_values, pushfold_spots, review
from cardlab.table import phh
from cardlab.table.history import replay


def _hand(
    actions: list[str], stacks: tuple[int, int] = (20, 20), *, variant: str = "NT", extra: str = ""
) -> object:
    text = (
        f"variant = '{variant}'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n"
        f"min_bet = 2\nstarting_stacks = [{stacks[0]}, {stacks[1]}]\n{extra}"
        f"actions = {actions!r}\n"
    )
    return replay(phh.loads(text)).hand


DEAL = ["d dh p1 7c2h", "d dh p2 AsAd"]  # heads-up, p2 is the button: the small blind


def test_the_spots_of_a_hand() -> None:
    spots, why = pushfold_spots(_hand([*DEAL, "p2 cbr 20", "p1 f"]))
    assert why is None
    assert [(s.player, s.role, s.played, s.stack) for s in spots] == [
        (1, "small blind", "push", 10.0),
        (0, "big blind", "fold", 10.0),
    ]
    spots, _ = pushfold_spots(_hand([*DEAL, "p2 f"]))
    assert [(s.role, s.played) for s in spots] == [("small blind", "fold")]
    spots, _ = pushfold_spots(
        _hand([*DEAL, "p2 cbr 20", "p1 cc", "d db 2c3c4c", "d db 5d", "d db 9h"])
    )
    assert [s.played for s in spots] == ["push", "call"]
    # a limp or a small raise is no push/fold decision, nor what follows it
    spots, why = pushfold_spots(_hand([*DEAL, "p2 cbr 6", "p1 f"]))
    assert spots == [] and why is None
    # too deep
    spots, why = pushfold_spots(_hand([*DEAL, "p2 f"], (200, 200)))
    assert spots == [] and why is not None and "100 big blinds" in why
    # the shorter stack is the effective one: 4 big blinds
    spots, _ = pushfold_spots(
        _hand([*DEAL, "p2 cbr 8", "p1 cc", "d db 2c3c4c", "d db 5d", "d db 9h"], (8, 40))
    )
    assert [(s.played, s.stack) for s in spots] == [("push", 4.0), ("call", 4.0)]


def test_ev_lost_agrees_with_the_pushfold_bot() -> None:
    """The bot's fictitious play and the CFR+ solver find (nearly) the same equilibrium
    on the same shipped matrix; the EV of each move must agree to a few hundredths of a
    big blind for every class."""
    game = get_game("standard52-holdem")
    matrix = standard52_matrix()
    for stack in (4.0, 10.0):
        solution = solve_pushfold(matrix, stack)
        eq = bot.equilibrium(stack)
        names, _, _ = bot._table()
        p = np.array([eq.push[n] for n in names])
        c = np.array([eq.call[n] for n in names])
        push, fold, call, bb_fold = bot._values(p, c, stack)
        worst = 0.0
        for k, name in enumerate(names):
            i = matrix.index(name)
            sb = move_values(matrix, solution, i, "small blind")
            worst = max(worst, abs(sb["push"] - push[k]), abs(sb["fold"] - fold[k]))
            bb = move_values(matrix, solution, i, "big blind")
            # the bot counts the big blind's values from after the blinds with its
            # folded deals mixed in: compare the difference of its two moves
            worst = max(worst, abs((bb["call"] - bb["fold"]) - _bb_gap(call, bb_fold, p, k)))
        assert worst < 0.05, (stack, worst)
    # folding aces is a clear loss, pushing them none
    hand = _hand([*DEAL, "p2 f"])
    spots, _ = pushfold_spots(hand)
    decision = review(game, matrix, solve_pushfold(matrix, 10.0), spots[0])
    assert decision.hand_class == "AA" and decision.best == "push"
    assert decision.ev_lost == pytest.approx(decision.values["push"] + 0.5)
    assert decision.ev_lost > 1.0
    hand = _hand([*DEAL, "p2 cbr 20", "p1 f"])
    spots, _ = pushfold_spots(hand)
    first, second = (review(game, matrix, solve_pushfold(matrix, 10.0), s) for s in spots)
    assert first.ev_lost == 0.0 and second.hand_class == "72o" and second.ev_lost == 0.0


def _bb_gap(call: np.ndarray, bb_fold: np.ndarray, p: np.ndarray, k: int) -> float:
    """The bot's call-minus-fold value per big-blind hand averaged over every deal; the
    coach's is conditional on facing a push: divide by the chance of a push."""
    _, _, w = bot._table()
    reach = float((w[:, k] * p).sum() / w[:, k].sum())
    return float((call[k] - bb_fold[k]) / reach)


def test_any_deck_has_its_classes() -> None:
    """On a FESCA deck every two cards find their class; with every all-in a coin flip
    the push is worth ``c (0) + (1 - c)(1)`` averaged over the deals, computed by hand."""
    game = get_game("fesca42-holdem")
    classes = hand_classes(game.rules)
    deals = class_deals(game, classes)
    k = len(classes)
    matrix = ClassMatrix(
        game.key, tuple(c.name for c in classes), tuple(c.count for c in classes),
        deals, np.full((k, k), 0.5), exact=False,
    )  # fmt: skip
    solution = solve_pushfold(matrix, 8.0)
    for hand_class in classes[:: max(1, k // 12)]:
        cards = hand_class.combos[0]
        i = class_index(game, matrix, tuple(cards))
        assert matrix.names[i] == hand_class.name
        values = move_values(matrix, solution, i, "small blind")
        row = deals[i].astype(float)
        folds = float((row * (1 - solution.call)).sum() / row.sum())
        assert values["push"] == pytest.approx(folds * 1.0 + (1 - folds) * 0.0)
        assert values["fold"] == -0.5
