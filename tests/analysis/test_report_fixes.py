"""The designer's report and charts, issue 22: every rarity band visible (log scale),
rates never seen given with their 95% bound, a table of contents, a compared option
showing only what it changes, chart labels sized to their cells, one naming scheme
for the classes of every FESCA deck.

The report here is one small user deck (ring25, 25 cards) with few samples: seconds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from cardlab.analysis.chart import Chart, ClassEquity
from cardlab.analysis.classes_multi import multi_hand_classes
from cardlab.analysis.html import rarity_figure, report_html, sampled_rate
from cardlab.analysis.plots import chart_figure
from cardlab.analysis.report import SECTIONS, build_report, none_seen_bound, rarity_ranges
from cardlab.poker.classes import hand_classes
from cardlab.poker.games import get_game
from cardlab.poker.rules import RuleSet

DECKS = Path(__file__).resolve().parents[1] / "data" / "decks"
RING25 = str(DECKS / "ring25.toml")
DEALS = 1000


@pytest.fixture(scope="module")
def report() -> Iterator[dict[str, Any]]:
    """ring25 with an option that changes much (mixwell=off) and one that changes
    nothing (its default value); Omaha sampled (the exact budget set to 0)."""
    from cardlab.poker import tables7

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tables7, "OMAHA_EXACT_BUDGET", 0)
        yield build_report(
            [RING25],
            ["mixwell=off", "no_hand_lowest=on"],
            tie_samples=DEALS,
            omaha_samples=DEALS,
            seed=3,
        )


@pytest.fixture(scope="module")
def page(report: dict[str, Any]) -> str:
    return report_html(report)


class _Page(HTMLParser):
    """Ids, the table of contents' links, and each h2 section's text and tags."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.toc: list[str] = []
        self.h2: list[str] = []
        self.sections: dict[str, list[str]] = {}
        self._in_nav = False
        self._section = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if tag == "nav":
            self._in_nav = True
        if tag == "a" and self._in_nav:
            self.toc.append(str(a["href"]))
        if tag == "h2":
            self._section = str(a.get("id"))
            self.h2.append(self._section)
            self.sections[self._section] = []
        if self._section:
            self.sections[self._section].append(f"<{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self._in_nav = False

    def handle_data(self, data: str) -> None:
        if self._section:
            self.sections[self._section].append(data)


def _parse(page: str) -> _Page:
    p = _Page()
    p.feed(page)
    return p


# --- rates never seen ------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 10, 1000, 200_000])
def test_none_seen_bound_is_the_exact_binomial_bound(n: int) -> None:
    b = none_seen_bound(n)
    # seeing none in n deals has probability 5% exactly at the bound
    assert math.isclose((1 - b) ** n, 0.05, rel_tol=1e-9)
    if n >= 1000:  # the rule of three: a little under 3/n
        assert 2.9 / n < b < 3 / n
    with pytest.raises(ValueError):
        none_seen_bound(0)


def test_a_rate_never_seen_says_so_with_its_bound(report: dict[str, Any], page: str) -> None:
    stud = next(t for t in report["decks"][0]["ties"] if t["game"] == "ring25-stud")
    assert stud["with_suits"] == 0 and stud["deals"] == DEALS  # no board: suits settle all
    assert stud["with_suits_upper95"] == pytest.approx(1 - 0.05 ** (1 / DEALS))
    assert stud["without_suits"] > 0 and stud["without_suits_upper95"] is None
    assert "0.000% ± 0.000%" not in page
    # 1 - 0.05 ** (1 / 1000) = 0.2991%: printed rounded up, still a bound
    assert "none in 1,000 deals, below 0.30% at 95%" in page
    assert sampled_rate(0.0, 0.0, 200_000, None) == "none in 200,000 deals, below 0.0015% at 95%"
    assert sampled_rate(0.25, 0.01, 100, None) == "25.000% ± 1.000%"


def test_a_sampled_omaha_hand_never_seen_says_so(report: dict[str, Any], page: str) -> None:
    omaha = report["decks"][0]["omaha"]
    assert not omaha["exact"] and omaha["samples"] == DEALS
    unseen = [r for r in omaha["hands"] if r["count"] == 0]
    assert unseen, "ring25 Omaha: one pair cannot be the best hand"
    for r in omaha["hands"]:
        expected = none_seen_bound(DEALS) if r["count"] == 0 else None
        assert r["upper95"] == expected
    section = "".join(_parse(page).sections["deck-0"])
    assert section.count("none in 1,000 deals") >= len(unseen) + 1  # Omaha rows, Stud


# --- the table of contents -------------------------------------------------------------


def test_the_report_has_a_table_of_contents(page: str) -> None:
    p = _parse(page)
    assert p.toc, "no table of contents"
    targets = [href.removeprefix("#") for href in p.toc]
    assert all(href.startswith("#") for href in p.toc)
    assert set(targets) <= set(p.ids)  # every link lands somewhere
    assert set(p.h2) <= set(targets)  # every section is listed
    assert len(p.h2) == 1 + 3  # side by side, the deck and its two variants
    assert "deck-0-splits" in targets and "deck-1-splits" in targets
    assert page.index("<nav") < page.index('id="side-by-side"')


# --- a compared option shows what it changes --------------------------------------------


def test_a_compared_option_shows_only_what_it_changes(report: dict[str, Any], page: str) -> None:
    base, off, same = report["decks"]
    assert base["variant"] == "defaults" and "same_as_defaults" not in base
    # independently: which parts of the figures are equal
    equal = [p for p in ("order", "rarity_ranges", "no_hand", "ties") if off[p] == base[p]]
    assert equal == ["no_hand"]  # ring25 has no high card with or without Mixwell
    assert set(off["same_as_defaults"]) == {"no_hand"}
    assert same["same_as_defaults"] == list(SECTIONS)
    sections = _parse(page).sections
    full = "".join(sections["deck-0"])
    changed = "".join(sections["deck-1"])
    nothing = "".join(sections["deck-2"])
    assert "No hand" in full and "No hand" not in changed
    assert "Unchanged: no hand." in changed
    assert "changes nothing" in nothing and "unchanged" in nothing
    assert "<table>" not in nothing and "<img>" not in nothing
    assert full.count("<table>") == 3 and full.count("<img>") == 1
    # mixwell=off drops the four Mixwell hands and changes the rest
    assert "no longer hands: Mixwell five of a kind" in changed
    assert len(nothing) < len(full) / 5


# --- the rarity chart --------------------------------------------------------------------

STANDARD_FIVE = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "one_pair": 1098240,
    "high_card": 1302540,
}


def test_the_rarity_chart_shows_every_band(report: dict[str, Any]) -> None:
    total = sum(STANDARD_FIVE.values())
    five = {"hands": [{"id": k, "probability": str(Fraction(v, total))}
                      for k, v in STANDARD_FIVE.items()]}  # fmt: skip
    standard = {"deck": "standard52", "variant": "defaults", "rarity_ranges": rarity_ranges(five)}
    decks = [standard, *report["decks"]]
    fig = rarity_figure({"decks": decks})
    fig.canvas.draw()
    (ax,) = fig.axes
    assert ax.get_yscale() == "log" and "log" in ax.get_ylabel()
    bars = list(ax.patches)
    shares = [float(Fraction(r["share"])) for d in decks for r in d["rarity_ranges"]]
    assert len(bars) == len(shares) and min(shares) < 2e-4  # the straight flushes: 1.5e-5
    top = ax.get_window_extent().y1
    for bar in bars:  # every band stands at least 4 pixels high, inside the axes
        box = bar.get_window_extent()
        assert box.height >= 4 and box.y1 <= top + 1


# --- chart cell labels ----------------------------------------------------------------


@pytest.mark.parametrize("key", ["standard52-holdem", "fesca42-holdem"])
def test_chart_cell_labels_fit_their_cells_and_are_legible(key: str) -> None:
    game = get_game(key)
    classes = hand_classes(game.rules)
    rows = tuple(
        ClassEquity(c, Fraction(len(classes) - i, len(classes) + 1), None, 1)
        for i, c in enumerate(classes)
    )
    fig = chart_figure(Chart(game, 1, True, rows))  # the default size and dpi
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    labels = 0
    for ax in fig.axes:
        for text in ax.texts:
            labels += 1
            # legible: at least 7.5 points, 11.5 pixels at the PNG's 110 dpi
            assert text.get_fontsize() * fig.dpi / 72 >= 11.4
            x, y = text.get_position()
            (x0, y0), (x1, y1) = ax.transData.transform([(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)])
            box = text.get_window_extent(renderer)
            assert box.width <= abs(x1 - x0) and box.height <= abs(y1 - y0), text.get_text()
    assert labels == len(classes)
    width, height = fig.get_size_inches() * fig.dpi
    assert max(width, height) < 2000


# --- class names ------------------------------------------------------------------------


def test_fesca_class_names_follow_one_scheme_on_every_deck() -> None:
    two = re.compile(r"^[0-9Z]+(陰陽)?-[0-9Z]+(陰陽)?[so]?$")
    names = {}
    for deck in ("FESCA42", "FESCA60", "FESCA78"):
        classes = hand_classes(RuleSet.for_deck(deck))
        bad = [c.name for c in classes if not two.match(c.name)]
        assert not bad, (deck, bad[:5])
        names[deck] = {c.name: c.count for c in classes}
    assert names["FESCA42"]["Z-Z"] == names["FESCA78"]["Z-Z"] == 10
    assert names["FESCA42"]["Z-Z陰陽"] == names["FESCA78"]["Z-Z陰陽"] == 5
    assert names["FESCA42"]["2-1o"] == names["FESCA78"]["2-1o"] == 20
    assert "ZZ" not in names["FESCA42"]
    # the standard deck keeps the familiar names
    standard = {c.name for c in hand_classes(RuleSet.for_deck("standard52"))}
    assert {"AA", "AKs", "AKo", "32o"} <= standard
    # three cards (Stud) on FESCA42: ranks with suit letters, joined like FESCA78's
    three = re.compile(r"^[0-9Z]+([a-e]|陰陽)(-[0-9Z]+([a-e]|陰陽)){2}$")
    stud = multi_hand_classes(RuleSet.for_deck("FESCA42"), 3)
    assert stud[0].name == "Za-Zb-Zc"
    assert all(three.match(c.name) for c in stud)
