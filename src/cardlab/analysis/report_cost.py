"""What a designer's report costs, estimated before any of it runs.

:func:`check_report_cost` adds up, for every deck and compared variant of a report, the
time and the memory of each part :func:`cardlab.analysis.report.build_report` runs, from
each computation's own estimate, and refuses the report past the budget's limits
(:mod:`cardlab.budget`) with the estimate and what to ask for instead:

- the best-of-seven table (:func:`cardlab.poker.tables7.check_best_of_cost`: its rank
  patterns' memory and its count's time; a deck of many ranks lists millions);
- the Omaha table: exact (``--exact-omaha``, or where it is cheap) holds the listing of
  its canonical rank patterns in every process that counts a part
  (:func:`cardlab.poker.tables7.omaha_exact_bytes`) and takes the evaluations' time and
  the listing's; sampled, the deals' time;
- the split-pot figures' sampled deals;
- with push/fold, each deck's class matrix (sampled to a standard error of 0.01 where
  an exact count is not cheap).

Time adds up over the parts (the processes share the machine's cores); memory is the
largest part times the processes that may hold one at once. A report on a Dask cluster
(``scheduler``) is its own judge and is not checked.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from cardlab import budget
from cardlab.poker.rules import RuleSet

SEVEN = 7  # the report's best-of table


def check_report_cost(
    rules: Sequence[RuleSet],
    *,
    exact_omaha: bool,
    omaha_samples: int,
    tie_samples: int,
    pushfold: bool = False,
    processes: int | None = None,
    omaha_parts: int = 64,
) -> None:
    """Refuse, before any work, a report whose estimate passes the budget's time or
    memory. ``rules``: every deck and compared variant; ``processes``: the local
    processes that run its parts at once (default: this machine's cores)."""
    from cardlab.analysis.report import TIE_GAMES
    from cardlab.poker.equity import sampling_seconds
    from cardlab.poker.games import BASE_GAMES, Game
    from cardlab.poker.tables7 import (
        OMAHA_EXACT_BUDGET,
        check_best_of_cost,
        omaha_exact_bytes,
        omaha_exact_seconds,
        omaha_exact_work,
        omaha_listing_estimate,
        omaha_sampled_seconds,
    )

    at_once = max(1, min(processes or os.cpu_count() or 1, len(rules) * omaha_parts))
    for r in rules:  # the tables first: the message names the deck
        check_best_of_cost(r, SEVEN, "give decks with fewer ranks")
    if exact_omaha:
        nbytes = max(omaha_exact_bytes(r, omaha_parts) for r in rules) * at_once
        seconds = sum(omaha_exact_seconds(r) + omaha_listing_estimate(r)[1] for r in rules)
        patterns = max(omaha_listing_estimate(r)[0] for r in rules)
        what = (
            f"the exact Omaha tables of {len(rules)} deck(s) and variant(s) (up to "
            f"{patterns:,} rank patterns listed in each of {at_once} process(es))"
        )
        instead = (
            "drop --exact-omaha (Omaha is then sampled), give fewer --decks, or run it on "
            "a Dask cluster (--scheduler)"
        )
        budget.check_memory(what, nbytes, instead)
        budget.check(what, seconds, instead)
    else:
        cheap = [r for r in rules if omaha_exact_work(r) <= OMAHA_EXACT_BUDGET]
        sampled = len(rules) - len(cheap)
        if cheap:
            budget.check_memory(
                f"the exact Omaha table of the {cheap[0].deck.name} deck",
                max(omaha_exact_bytes(r) for r in cheap) * at_once,
                "give decks with fewer ranks",
            )
        seconds = sum(omaha_exact_seconds(r) + omaha_listing_estimate(r)[1] for r in cheap)
        seconds += sampled * omaha_sampled_seconds(omaha_samples)
        budget.check(
            f"the Omaha tables of {len(rules)} deck(s) and variant(s), {omaha_samples:,} "
            "deals each where sampled",
            seconds,
            "ask for fewer --omaha-samples (the default is 400,000), or give decks with "
            "fewer cards",
        )
    deals = 2 * tie_samples
    seconds = sum(sampling_seconds(Game(r, BASE_GAMES[b]), deals) for r in rules for b in TIE_GAMES)
    budget.check(
        f"the split-pot figures of {len(rules)} deck(s) and variant(s), {tie_samples:,} deals each",
        seconds,
        "ask for fewer --tie-samples (the default is 200,000)",
    )
    if pushfold:
        _check_pushfold(rules)


def _check_pushfold(rules: Sequence[RuleSet]) -> None:
    """The push/fold section's class matrices (one a deck, its default rules; a cached
    matrix costs nothing, but whether one is cached is the cache's to say)."""
    from cardlab.analysis.deck_pushfold import MATRIX_SE, holdem
    from cardlab.solve.pushfold_matrix import EXACT_BUDGET, exact_work, sampled_seconds

    defaults: dict[str, RuleSet] = {}
    for r in rules:  # each deck's defaults come first, then its variants
        defaults.setdefault(r.deck.name, r)
    games = [holdem(r) for r in defaults.values()]
    seconds = sum(sampled_seconds(g, MATRIX_SE) for g in games if exact_work(g) > EXACT_BUDGET)
    budget.check(
        f"the push/fold class matrices of {len(games)} deck(s), to a standard error of {MATRIX_SE}",
        seconds,
        "give decks with fewer ranks, or leave push/fold out (--no-pushfold)",
    )
