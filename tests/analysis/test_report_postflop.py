"""The report's postflop comparison of decks (cardlab.analysis.deck_postflop): the flop
rule on both decks, the ranges matched across decks, the section's figures against the
same spot solved and read directly through ``PostflopSolution.node``, and the CLI."""

from __future__ import annotations

import json
import math
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from _cli import assert_answer_or_one_line, run_cli
from cardlab.analysis import deck_postflop
from cardlab.analysis.deck_postflop import (
    PostflopSettings,
    build_section,
    deck_range,
    pick_flops,
    range_share,
)
from cardlab.errors import GameError
from cardlab.poker.games import get_game
from cardlab.solve.postflop import Spot, solve
from cardlab.solve.postflop.flops import texture

DECKS = Path(__file__).resolve().parents[1] / "data" / "decks"
DUO14 = str(DECKS / "duo14.toml")
TINY = PostflopSettings(ip="AA,KK,AKs", oop="QQ,JJ,AQs", stack=100, target=5.0, iterations=40)


def _linked(game: Any, a: int, b: int) -> bool:
    return any((s >> a) & 1 and (s >> b) & 1 for s in game.rules.straights)


@pytest.mark.parametrize("key", ["standard52-holdem", "fesca78-holdem"])
def test_the_flop_rule_gives_a_dry_and_a_wet_flop(key: str) -> None:
    game = get_game(key)
    deck = game.deck
    n = len(deck.ranks)
    flops = pick_flops(game)
    dry = deck.parse_cards(flops["dry"])
    wet = deck.parse_cards(flops["wet"])
    # dry: three suits, the second-highest rank, two low ranks sharing no straight
    t = texture(dry, game)
    assert t.suits == "rainbow" and t.pairing == "unpaired" and t.connected != "connected"
    ranks = [deck.ranks.index(c.rank) for c in dry]
    assert ranks[0] == n - 2 and all(r < n // 2 for r in ranks[1:])
    assert not _linked(game, ranks[1], ranks[2])
    # no other choice of low ranks links fewer pairs
    fewest = min(
        sum(_linked(game, x, y) for x, y in combinations((n - 2, a, b), 2))
        for a, b in combinations(range(n // 2), 2)
        if not _linked(game, a, b)
    )
    assert sum(_linked(game, x, y) for x, y in combinations(ranks, 2)) == fewest
    # wet: three ranks in one straight, just above the middle, two of one suit
    t = texture(wet, game)
    assert t.suits == "two-tone" and t.connected == "connected" and t.pairing == "unpaired"
    assert sorted(deck.ranks.index(c.rank) for c in wet) == [n // 2, n // 2 + 1, n // 2 + 2]
    assert wet[0].suit == wet[1].suit != wet[2].suit


def test_the_flops_by_name() -> None:
    assert pick_flops(get_game("standard52-holdem")) == {"dry": "Kc 7d 2h", "wet": "Tc 9c 8d"}
    fesca = pick_flops(get_game("fesca78-holdem"))
    assert fesca == {"dry": "木12 火6 土1", "wet": "木9 木8 火7"}
    # FESCA's ring of straights links every three ranks: the dry flop keeps one pair
    assert texture(get_game("fesca78-holdem").deck.parse_cards(fesca["dry"]),
                   get_game("fesca78-holdem")).connected == "semi-connected"  # fmt: skip


def test_ranges_are_carried_by_share_to_fesca78() -> None:
    standard, fesca = get_game("standard52-holdem"), get_game("fesca78-holdem")
    assert deck_range("AA,AKs", standard) == "AA,AKs"
    # the top 10 of 1,326 hands: the top 22.6 of 3,003 (tests/analysis/test_hand_order.py
    # counts the shares hand by hand)
    carried = deck_range("AA,AKs", fesca)
    assert carried.split(",")[0] == "Z-Z"  # FESCA78's strongest class by equity
    assert range_share(carried, fesca) == pytest.approx(10 / 1326, abs=5e-5)
    # 6 + 4 of 1,326 hands; 10 + 5 + 10 of 3,003 (the five element suits)
    assert range_share("AA,AKs", standard) == pytest.approx(10 / 1326)
    assert range_share("Z-Z,Z-12s,1-1", fesca) == pytest.approx(25 / 3003)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(GameError, match="target"):
        PostflopSettings(target=0)
    with pytest.raises(GameError, match="iterations"):
        PostflopSettings(iterations=0)


@pytest.fixture(scope="module")
def tiny_section() -> dict[str, Any]:
    return build_section(("standard52",), settings=TINY)


def _freq(node: Any, first: str) -> float:
    """The frequency of the actions starting with one of ``first``'s letters."""
    return sum(f for a, f in zip(node.actions, node.frequencies(), strict=True) if a[0] in first)


@pytest.mark.parametrize("flop", ["dry", "wet"])
def test_the_figures_are_the_solvers_own(tiny_section: dict[str, Any], flop: str) -> None:
    row = next(r for r in tiny_section["rows"] if r["flop"] == flop)
    board = {"dry": "Kc 7d 2h", "wet": "Tc 9c 8d"}[flop]
    assert row["board"] == board
    # the same spot written out by hand, solved again, read node by node
    no_raise = {"turn": {"raises": ""}, "river": {"raises": ""}}
    spot = Spot("standard52-holdem", board, "QQ,JJ,AQs", "AA,KK,AKs", 55, 100, bets="50%",
                raises="2.5x", streets=no_raise)  # fmt: skip
    sol = solve(spot, 40, target=5.0)
    assert row["iterations"] == sol.iterations
    assert row["exploitability_pot_percent"] == pytest.approx(sol.exploitability_pot_percent)
    bet = sol.root().actions[1]
    assert bet == "b28" and sol.node("k").actions == ("k", "b28")
    assert row["oop_lead"] == pytest.approx(_freq(sol.root(), "ba"), abs=1e-9)
    assert row["ip_bet"] == pytest.approx(_freq(sol.node("k"), "ba"), abs=1e-9)
    facing = sol.node("k b28")
    assert row["oop_check_raise"] == pytest.approx(_freq(facing, "ra"), abs=1e-9)
    assert row["oop_fold"] == pytest.approx(_freq(facing, "f"), abs=1e-9)
    lead = sol.node("b28")
    assert row["ip_raise"] == pytest.approx(_freq(lead, "ra"), abs=1e-9)
    assert row["ip_fold"] == pytest.approx(_freq(lead, "f"), abs=1e-9)
    ev, equity = sol.ev(), sol.equity()
    assert row["ev"]["oop"] == pytest.approx(ev.oop) and row["ev"]["ip"] == pytest.approx(ev.ip)
    assert row["ev"]["oop"] + row["ev"]["ip"] == pytest.approx(55)
    assert row["ev_pot"]["oop"] == pytest.approx(100 * ev.oop / 55)
    assert row["equity"]["oop"] == pytest.approx(equity.oop)
    assert row["exploitability_pot_percent"] <= 5.0 or row["iterations"] == 40
    for key in ("oop_lead", "ip_bet", "oop_check_raise", "oop_fold", "ip_raise", "ip_fold"):
        assert 0 <= row[key] <= 1 and not math.isnan(row[key])


def test_the_section_in_text_and_html(tiny_section: dict[str, Any]) -> None:
    from cardlab.analysis.html import _postflop_section

    table = deck_postflop.rows(tiny_section)
    assert [r[:2] for r in table] == [
        ["standard52", "dry Kc 7d 2h"],
        ["standard52", "wet Tc 9c 8d"],
    ]
    assert len(table[0]) == len(deck_postflop.HEADERS)
    page = _postflop_section(tiny_section)
    assert '<h2 id="postflop">' in page and "dry Kc 7d 2h" in page
    assert "pot 55, stack 100" in page


def _tiny_build(*args: Any, **kwargs: Any) -> dict[str, Any]:
    kwargs["settings"] = TINY
    return build_section(("standard52",), **{k: v for k, v in kwargs.items() if k != "decks"})


REPORT = ["report", "--decks", DUO14, "--no-pushfold", "--tie-samples", "1000",
          "--omaha-samples", "1000", "--workers", "0", "--no-cache"]  # fmt: skip


@pytest.mark.slow  # a report and four small solves: about 3 minutes on 2 shared cores
def test_the_cli_option_prints_the_section(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(deck_postflop, "build_section", _tiny_build)
    out_file = tmp_path / "r.html"
    code, out, err = run_cli([*REPORT, "--out", str(out_file), "--postflop"], timeout=300)
    assert code == 0, err
    assert "OOP leads" in out and "Kc 7d 2h" in out and "Tc 9c 8d" in out
    assert '<h2 id="postflop">' in out_file.read_text()
    code, out, err = run_cli(
        [*REPORT, "--out", str(out_file), "--postflop", "--format", "json"], timeout=300
    )
    assert code == 0, err
    rows = json.loads(out)["postflop"]["rows"]
    assert [r["flop"] for r in rows] == ["dry", "wet"]
    code, out, err = run_cli([*REPORT, "--out", str(out_file), "--format", "json"], timeout=300)
    assert code == 0 and json.loads(out)["postflop"] is None


@pytest.mark.parametrize(
    "extra",
    [
        ["--postflop-target", "1"],
        ["--postflop-iterations", "10"],
        ["--postflop", "--postflop-target", "0"],
        ["--postflop", "--postflop-iterations", "0"],
        ["--postflop", "--postflop-target", "nan"],
    ],
)
def test_bad_postflop_options_give_one_line(extra: list[str], tmp_path: Path) -> None:
    code, out, err = run_cli([*REPORT, "--out", str(tmp_path / "r.html"), *extra])
    assert_answer_or_one_line(code, out, err)
    assert code == 2 and "postflop" in err, err
