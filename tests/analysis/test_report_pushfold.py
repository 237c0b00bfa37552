"""The report's push/fold comparison of decks (cardlab.analysis.deck_pushfold): the
matching of starting-hand classes across decks worked out by hand, the standard52
shares against the published charts, and the moves against the charts themselves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardlab.analysis.deck_pushfold import (
    build_section,
    compare,
    match_classes,
    section_text,
)
from cardlab.analysis.html import _pushfold_section
from cardlab.decks.loading import deck_from_toml
from cardlab.poker.rules import RuleSet

DECKS = Path(__file__).resolve().parents[1] / "data" / "decks"
DUO14 = str(DECKS / "duo14.toml")
QUAD8 = """
name = "quad8"
suits = ["h", "s"]
ranks = ["9", "J", "K", "A"]
"""


def test_a_tiny_deck_is_matched_by_its_places_on_the_rank_ladder() -> None:
    # quad8's ranks 9 J K A stand at places 0, 1/3, 2/3, 1; duo14's seven ranks
    # 8 9 T J Q K A at 0, 1/6, ... 1: the nearest are 8, T, Q, A (6 x place)
    small = RuleSet.for_deck(deck_from_toml(QUAD8, source="quad8"))
    match = match_classes(small, RuleSet.for_deck(DUO14))
    assert match == {
        "AA": "AA", "KK": "QQ", "JJ": "TT", "99": "88",
        "AKs": "AQs", "AKo": "AQo", "AJs": "ATs", "AJo": "ATo", "A9s": "A8s", "A9o": "A8o",
        "KJs": "QTs", "KJo": "QTo", "K9s": "Q8s", "K9o": "Q8o",
        "J9s": "T8s", "J9o": "T8o",
    }  # fmt: skip


def test_duo14_and_fesca78_against_standard52() -> None:
    standard = RuleSet.for_deck("standard52")
    duo = match_classes(RuleSet.for_deck(DUO14), standard)
    # seven ranks at places k/6: 6k/6 * 12 = 2k, so 8 9 T J Q K A -> 2 4 6 8 T Q A
    assert duo["88"] == "22" and duo["KK"] == "QQ" and duo["AKo"] == "AQo"
    assert duo["98s"] == "42s" and None not in duo.values() and len(duo) == 49
    fesca = match_classes(RuleSet.for_deck("FESCA78"), standard)
    assert fesca["Z-12o"] == "AKo" and fesca["Z-12s"] == "AKs" and fesca["1-1"] == "22"
    assert fesca["Z-12陰陽"] is None and fesca["Z-Z陰陽"] is None
    # the square of the five element suits: 13 pairs, 78 suited, 78 offsuit
    matched = [k for k, v in fesca.items() if v is not None]
    assert len(matched) == 169 and len(set(fesca[k] for k in matched)) == 169
    assert len(fesca) - len(matched) == 416 - 169


def test_moves_are_ranked_by_how_far_the_push_bound_moves() -> None:
    ref = {"deck": "standard52", "names": ["AA", "72o", "T9s"],
           "push_bound": [25.0, 6.5, 25.0], "call_bound": [25.0, 2.0, 8.0]}  # fmt: skip
    deck = {"deck": "X", "names": ["a", "b", "c", "d"],
            "push_bound": [25.0, 2.0, 12.0, 3.0], "call_bound": [25.0, 3.0, 9.0, 1.0]}  # fmt: skip
    out = compare(deck, ref, {"a": "AA", "b": "72o", "c": "T9s", "d": None})
    assert out["matched"] == 3 and out["unmatched"] == 1
    assert [m["class"] for m in out["moves"]] == ["c", "b", "a"]
    assert [m["push_move"] for m in out["moves"]] == [-13.0, -4.5, 0.0]
    assert [m["call_move"] for m in out["moves"]] == [1.0, 1.0, 0.0]
    assert out["mean_push_move"] == pytest.approx(-17.5 / 3)


@pytest.fixture(scope="module")
def section() -> dict[str, Any]:
    return build_section([RuleSet.for_deck(DUO14), RuleSet.for_deck("standard52")])


def test_standard52_shares_are_the_published_charts(section: dict[str, Any]) -> None:
    standard = next(d for d in section["decks"] if d["deck"] == "standard52")
    ten = next(r for r in standard["stacks"] if r["stack"] == 10)
    # HoldemResources' heads-up Nash charts: about 58% pushed, 37% called at 10 bb
    assert ten["push_share"] == pytest.approx(0.58, abs=0.01)
    assert ten["call_share"] == pytest.approx(0.37, abs=0.01)
    assert [r["stack"] for r in standard["stacks"]] == [5, 10, 15]
    shares = [r["push_share"] for r in standard["stacks"]]
    assert shares == sorted(shares, reverse=True)  # deeper stacks push less
    assert all(r["exploitability_mbb"] < 1 for r in standard["stacks"])
    # T3s is pushed up to 7.7 big blinds in the published chart: 7 here (by halves)
    bounds = dict(zip(standard["names"], standard["push_bound"], strict=True))
    assert bounds["T3s"] == 7.0 and bounds["AA"] == 25.0


def test_the_moves_agree_with_the_two_charts(section: dict[str, Any]) -> None:
    (moves,) = section["moves"]
    assert moves["deck"] == "duo14" and moves["matched"] == 49
    duo = next(d for d in section["decks"] if d["deck"] == "duo14")
    ref = next(d for d in section["decks"] if d["deck"] == "standard52")
    push = dict(zip(duo["names"], duo["push_bound"], strict=True))
    ref_push = dict(zip(ref["names"], ref["push_bound"], strict=True))
    match = match_classes(RuleSet.for_deck(DUO14), RuleSet.for_deck("standard52"))
    largest = max(abs(push[k] - ref_push[v]) for k, v in match.items() if v)
    top = moves["moves"][0]
    assert abs(top["push_move"]) == largest
    assert top["push_move"] == push[top["class"]] - ref_push[match[top["class"]] or ""]
    assert push["88"] == 0 and ref_push["22"] == 25  # 88 is duo14's worst hand


def test_the_section_in_text_and_html(section: dict[str, Any]) -> None:
    text = section_text(section)
    assert "58.2%" in text and "duo14 against standard52" in text
    page = _pushfold_section(section)
    assert '<h2 id="pushfold">' in page and "data:image/png;base64," in page
    assert '<td class="l">88</td><td class="l">22</td>' in page
    assert "place = rank index / (ranks - 1)" in page


def test_the_report_carries_the_section_in_json_and_html() -> None:
    import json

    from cardlab.analysis.html import report_html
    from cardlab.analysis.report import build_report

    data = build_report([DUO14], tie_samples=1000, omaha_samples=1000, pushfold=True)
    section = json.loads(json.dumps(data))["pushfold"]
    assert [(d["deck"], d["reference_only"]) for d in section["decks"]] == [
        ("duo14", False),
        ("standard52", True),
    ]
    assert section["moves"][0]["matched"] == 49
    page = report_html(data)
    assert '<a href="#pushfold">Push/fold across decks</a>' in page
    assert "standard52 (reference)" in page
    assert build_report([DUO14], tie_samples=1000, omaha_samples=1000)["pushfold"] is None
