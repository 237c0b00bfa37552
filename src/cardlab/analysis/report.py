"""The designer's report: decks and rule options side by side, as figures.

For each deck (built-in or a TOML file) and each rule variant (the defaults, then one
variant per ``--compare-options NAME=VALUE``):

- the exact five-card table and the derived order, the exact best-of-seven table and
  its inversions (categories that are more frequent as the best five than one the order
  puts below them);
- the hands grouped by rarity ranges (-log10 P in steps of one: the publisher's
  comparison), and the share of *no hand*, which the publisher quotes as about 50% with
  ordinary cards, 45% and 43% as Mixwell is added;
- the split-pot rates of Hold'em, Omaha and Stud with the suit tie-breaks on and off
  (sampled);
- the Omaha table: exact where that is cheap or asked for (``exact_omaha``, counted in
  parts: :mod:`cardlab.analysis.omaha`), otherwise sampled with standard errors;
- across the decks (``pushfold``): heads-up push/fold, the share of hands pushed and
  called at 5, 10 and 15 big blinds on each deck, and the starting hands whose push
  bound moves most from standard52, matched by their place on the rank ladder
  (:mod:`cardlab.analysis.deck_pushfold`);
- across the decks (``postflop``, off by default: it costs four solves): one
  single-raised-pot spot solved on a dry and a wet flop of standard52 and FESCA78, how
  often each player bets, check-raises and folds, and the EVs
  (:mod:`cardlab.analysis.deck_postflop`).

A rate never seen in a sample (a split pot that cannot happen with the suit tie-breaks,
a rare Omaha hand) is not reported as 0 ± 0: it carries the exact one-sided 95% upper
bound of the binomial (Clopper-Pearson; about 3/N, the rule of three) that the page
prints as "none in N deals, below X at 95%" (:func:`none_seen_bound`). A compared rule
variant lists which parts of its deck's figures it leaves as they are
(``same_as_defaults``), and the page shows only the parts it changes.

Every piece is a task (:mod:`cardlab.tasks`), so the whole report runs on a
cluster and resumes from its cache. :func:`build_report` returns plain data (fractions
as ``"p/q"`` strings); :mod:`cardlab.analysis.html` writes the page.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cardlab import render
from cardlab.analysis.chart import game_text
from cardlab.errors import DeckError, RuleError
from cardlab.poker.games import BASE_GAMES, Game
from cardlab.poker.rules import RuleSet
from cardlab.tasks import Progress, run_tasks

TIE_GAMES = ("holdem", "omaha", "stud")


def cards_needed() -> tuple[int, str]:
    """The most cards one figure of the report deals at once, and which: two hands
    (and a board) of each game of the split-pot figures, the largest of the tables."""
    need, name = 9, "two Omaha hands of four and a board of five"  # Omaha's table: 4 + 5
    for key in TIE_GAMES:
        base = BASE_GAMES[key]
        cards = 2 * base.hole_cards + base.board_cards
        if cards > need:
            board = f" and a board of {base.board_cards}" if base.board_cards else ""
            need, name = cards, f"two {base.name} hands of {base.hole_cards}{board}"
    return need, name


def check_decks(rules: Sequence[RuleSet]) -> None:
    """Refuse, before any work, a deck too small for the report's deals."""
    need, what = cards_needed()
    for r in rules:
        if len(r.deck) < need:
            raise DeckError(
                f"the {r.deck.name} deck has {len(r.deck)} cards, and the report deals up to "
                f"{need} at once ({what}): give decks of at least {need} cards"
            )


def _plain(value: Any) -> Any:
    """JSON data: fractions as "p/q" strings."""
    return json.loads(render.to_json(value))


def _text(rules: RuleSet, base: str = "holdem") -> str:
    return game_text(Game(rules, BASE_GAMES[base]))


@dataclass(frozen=True)
class TablesTask:
    """The five-card table, the order, and the best-of-seven table of a rule set."""

    rules: RuleSet

    def key(self) -> str:
        return f"report-tables|{_text(self.rules)}"

    def run(self) -> dict[str, Any]:
        from cardlab.poker.frequencies import five_card_table
        from cardlab.poker.order import hand_order
        from cardlab.poker.tables7 import best_of_table

        return {
            "order": str(hand_order(self.rules)),
            "five": _plain(five_card_table(self.rules).as_dict()),
            "seven": _plain(best_of_table(self.rules, 7).as_dict()),
        }


@dataclass(frozen=True)
class OmahaTableTask:
    """The Omaha table in one task: exact (``exact``) or ``samples`` sampled deals."""

    rules: RuleSet
    exact: bool
    samples: int
    seed: int

    def key(self) -> str:
        how = "exact" if self.exact else f"samples={self.samples},seed={self.seed}"
        return f"report-omaha|{_text(self.rules, 'omaha')}|{how}"

    def run(self) -> dict[str, Any]:
        from cardlab.poker.tables7 import omaha_table

        table = omaha_table(self.rules, exact=self.exact, samples=self.samples, seed=self.seed)
        return dict(_plain(table.as_dict()))


@dataclass(frozen=True)
class TieTask:
    """Split-pot rates of one game, suit tie-breaks on and off (sampled)."""

    game: Game
    samples: int
    seed: int

    def key(self) -> str:
        return f"report-ties|{game_text(self.game)}|samples={self.samples},seed={self.seed}"

    def run(self) -> dict[str, Any]:
        from cardlab.poker.equity import tie_rate
        from cardlab.tasks import task_rng

        r = tie_rate(self.game, samples=self.samples, rng=task_rng(self.seed, 0))
        return {
            "game": self.game.key,
            "with_suits": r.with_suits,
            "with_suits_se": r.with_suits_se,
            "without_suits": r.without_suits,
            "without_suits_se": r.without_suits_se,
        }


CONFIDENCE = 0.95  # of the upper bound given for a rate never seen in a sample

SECTIONS = ("order", "five", "seven", "omaha", "rarity_ranges", "no_hand", "ties")
"""The parts of a deck's figures a compared rule variant may leave as they are."""


def none_seen_bound(deals: int, confidence: float = CONFIDENCE) -> float:
    """The exact one-sided upper bound of a rate seen 0 times in ``deals`` independent
    deals (Clopper-Pearson): the rate ``p`` at which seeing none has probability
    ``1 - confidence``, ``(1 - p) ** deals == 1 - confidence``. For 95% it is close to
    ``3 / deals`` (the rule of three)."""
    if deals < 1:
        raise ValueError(f"a bound needs at least one deal, got {deals}")
    if not 0 < confidence < 1:
        raise ValueError(f"the confidence is between 0 and 1, got {confidence}")
    return -math.expm1(math.log1p(-confidence) / deals)


def _tie_bounds(tie: dict[str, Any], deals: int) -> dict[str, Any]:
    """A split-pot result with its deals and, for a rate never seen, its upper bound
    (``with_suits_upper95``/``without_suits_upper95``: a number, else None)."""
    out = dict(tie, deals=deals)
    for side in ("with_suits", "without_suits"):
        out[f"{side}_upper95"] = none_seen_bound(deals) if tie[side] == 0 else None
    return out


def _table_bounds(table: dict[str, Any]) -> dict[str, Any]:
    """A sampled table (Omaha) with ``upper95`` on each row: the bound of a hand never
    seen in the sample, else None. Exact tables are returned as they are."""
    if table.get("exact", True):
        return table
    rows = [
        dict(r, upper95=none_seen_bound(int(r["total"])) if r["count"] == 0 else None)
        for r in table["hands"]
    ]
    return dict(table, hands=rows)


def _same(part: str, base: dict[str, Any], variant: dict[str, Any]) -> bool:
    a, b = base[part], variant[part]
    if isinstance(a, dict) and "hands" in a:  # a table: its rule options aside
        a = {k: v for k, v in a.items() if k != "options"}
        b = {k: v for k, v in b.items() if k != "options"}
    return bool(a == b)


def same_as_defaults(base: dict[str, Any], variant: dict[str, Any]) -> list[str]:
    """The parts of ``variant``'s figures (:data:`SECTIONS`) equal to ``base``'s, its
    deck's defaults (sampled figures share their seed, so equal deals give equal rates)."""
    return [part for part in SECTIONS if _same(part, base, variant)]


def parse_option(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` as a pair (checked when applied to a deck's rules)."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise RuleError(f"a rule option to compare is written NAME=VALUE, not {text!r}")
    return name.strip(), value.strip()


def rarity_ranges(five: dict[str, Any]) -> list[dict[str, Any]]:
    """The five-card hands grouped by rarity (-log10 P) in ranges of one: each range's
    hands and their combined share (exact)."""
    groups: dict[int, list[dict[str, Any]]] = {}
    for row in five["hands"]:
        p = Fraction(row["probability"])
        if p <= 0:
            continue
        groups.setdefault(math.floor(render.rarity(p)), []).append(row)
    out = []
    for lo in sorted(groups):
        rows = groups[lo]
        share = sum((Fraction(r["probability"]) for r in rows), Fraction(0))
        out.append(
            {
                "range": f"{lo}-{lo + 1}",
                "low": lo,
                "hands": [r["id"] for r in rows],
                "share": render.fraction_str(share),
            }
        )
    return out


def no_hand_share(table: dict[str, Any]) -> str:
    """The probability of no hand (high card) in a table's JSON."""
    for row in table["hands"]:
        if row["id"] == "high_card":
            return str(row["probability"])
    return "0"


def build_report(
    decks: Sequence[str],
    compare: Sequence[str] = (),
    *,
    exact_omaha: bool = False,
    omaha_samples: int = 400_000,
    omaha_parts: int = 64,
    tie_samples: int = 200_000,
    seed: int = 0,
    client: Any = None,
    cache: Any = None,
    progress: Progress | None = None,
    pushfold: bool = False,
    postflop: bool = False,
    postflop_settings: Any = None,
) -> dict[str, Any]:
    """Every figure of the report, as plain data (see the module docstring);
    ``pushfold``: with the decks' push/fold comparison, ``postflop``: with the postflop
    comparison (``postflop_settings``: its
    :class:`~cardlab.analysis.deck_postflop.PostflopSettings`); None in the data
    without."""
    from cardlab.analysis.omaha import exact_omaha as count_exact_omaha
    from cardlab.poker.tables7 import OMAHA_EXACT_BUDGET, omaha_exact_work

    changes = [parse_option(c) for c in compare]
    variants: list[tuple[str, str, RuleSet]] = []
    for name in decks:
        base = RuleSet.for_deck(name)
        variants.append((base.deck.name, "defaults", base))
        for key, value in changes:
            variants.append((base.deck.name, f"{key}={value}", base.with_options(**{key: value})))
    check_decks([rules for _, _, rules in variants])
    tasks: list[Any] = []
    for _, _, rules in variants:
        tasks.append(TablesTask(rules))
        if not exact_omaha:  # exact (in one task) where cheap, else sampled
            cheap = omaha_exact_work(rules) <= OMAHA_EXACT_BUDGET
            tasks.append(OmahaTableTask(rules, cheap, omaha_samples, seed))
        for base_key in TIE_GAMES:
            tasks.append(TieTask(Game(rules, BASE_GAMES[base_key]), tie_samples, seed))
    results = run_tasks(tasks, client=client, cache=cache, progress=progress)
    by_task = dict(zip((id(t) for t in tasks), results, strict=True))
    out_decks = []
    for deck_name, label, rules in variants:
        mine = [t for t in tasks if getattr(t, "rules", None) is rules or _game_rules(t) is rules]
        tables = next(by_task[id(t)] for t in mine if isinstance(t, TablesTask))
        omaha = next((by_task[id(t)] for t in mine if isinstance(t, OmahaTableTask)), None)
        if omaha is None:  # exact asked for: the cluster job, in parts
            omaha = _plain(
                count_exact_omaha(
                    rules, parts=omaha_parts, client=client, cache=cache, progress=progress
                ).as_dict()
            )
        omaha = _table_bounds(omaha)
        ties = [_tie_bounds(by_task[id(t)], tie_samples) for t in mine if isinstance(t, TieTask)]
        out_decks.append(
            {
                "deck": deck_name,
                "variant": label,
                "cards": len(rules.deck),
                "options": {info.name: value for info, value in rules.options()},
                "order": tables["order"],
                "five": tables["five"],
                "seven": tables["seven"],
                "omaha": omaha,
                "rarity_ranges": rarity_ranges(tables["five"]),
                "no_hand": {
                    "five": no_hand_share(tables["five"]),
                    "seven": no_hand_share(tables["seven"]),
                    "omaha": no_hand_share(omaha),
                },
                "ties": ties,
            }
        )
    defaults: dict[str, dict[str, Any]] = {}
    for entry in out_decks:  # each deck's defaults come first, then its variants
        if entry["variant"] == "defaults":
            defaults[entry["deck"]] = entry
        else:
            entry["same_as_defaults"] = same_as_defaults(defaults[entry["deck"]], entry)
    section = None
    if pushfold:
        from cardlab.analysis.deck_pushfold import build_section

        defaults_rules = [rules for _, label, rules in variants if label == "defaults"]
        section = build_section(defaults_rules, client=client, cache=cache, progress=progress)
    postflop_section = None
    if postflop:
        from cardlab.analysis import deck_postflop

        postflop_section = deck_postflop.build_section(
            settings=postflop_settings, client=client, cache=cache, progress=progress
        )
    return {
        "decks": out_decks,
        "pushfold": section,
        "postflop": postflop_section,
        "compare": [f"{k}={v}" for k, v in changes],
        "seed": seed,
        "tie_samples": tie_samples,
        "omaha_samples": omaha_samples,
    }


def _game_rules(task: Any) -> Any:
    game = getattr(task, "game", None)
    return game.rules if game is not None else None
