"""``cardlab solve flops``: flop classes against a brute force over every permutation of
suits, one flop's result against the spot solved directly, the texture figures against
a hand computation, the results file (resume, a changed spot refused), a real local Dask
cluster against the run in this process, and the command's bad input."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _cli import assert_answer_or_one_line, run_cli
from cardlab.cards import Card
from cardlab.errors import GameError
from cardlab.poker.games import get_game
from cardlab.solve.postflop import Spot, solve
from cardlab.solve.postflop.flops import (
    FlopClass,
    FlopResult,
    FlopsSpot,
    flop_classes,
    interchangeable_suits,
    run_flops,
    select_flops,
    solve_flop,
    texture,
)

STANDARD = "standard52-holdem"


def brute_force_orbits(game_name: str) -> Counter[frozenset[Card]]:
    """Each raw flop canonicalised by every one of the 24 permutations of the four suits
    (the least image by the cards' text): orbit -> number of raw flops in it."""
    deck = get_game(game_name).deck
    perms = [dict(zip(deck.suits, p, strict=True)) for p in itertools.permutations(deck.suits)]
    counts: Counter[frozenset[Card]] = Counter()
    for flop in itertools.combinations(deck.cards, 3):
        images = [frozenset(Card(p[c.suit], c.rank) for c in flop) for p in perms]
        counts[min(images, key=lambda f: sorted(str(c) for c in f))] += 1
    return counts


def test_standard_flop_classes_are_the_orbits_of_the_24_suit_permutations() -> None:
    game = get_game(STANDARD)
    classes = flop_classes(game)
    orbits = brute_force_orbits(STANDARD)
    assert len(orbits) == len(classes) == 1755
    assert sum(orbits.values()) == sum(c.weight for c in classes) == 22100
    # each class is one orbit, with that orbit's size as its weight
    deck = game.deck
    perms = [dict(zip(deck.suits, p, strict=True)) for p in itertools.permutations(deck.suits)]
    by_flop = {}
    for orbit, n in orbits.items():
        by_flop[orbit] = n
    for c in classes:
        images = [frozenset(Card(p[x.suit], x.rank) for x in c.cards) for p in perms]
        key = min(images, key=lambda f: sorted(str(x) for x in f))
        assert by_flop.pop(key) == c.weight, c
    assert not by_flop
    assert Counter(c.weight for c in classes) == {4: 13 + 286, 12: 156 + 858 + 156, 24: 286}


def test_suits_the_rules_rank_are_never_merged() -> None:
    # FESCA's default rules break ties by suit: no swap keeps every showdown, so no flops
    # merge (the solver's own check agrees: tests/solve/test_postflop_isomorphism.py)
    for name in ("fesca42-holdem", "tesca52-holdem"):
        game = get_game(name)
        classes = flop_classes(game)
        assert len(classes) == math.comb(len(game.deck), 3)
        assert {c.weight for c in classes} == {1}
    # without the suit tie-breaks the five element suits are interchangeable, 陰陽 apart
    loose = get_game("fesca42-holdem", suit_tiebreak="off")
    assert [len(g) for g in interchangeable_suits(loose)] == [5, 1]
    classes = flop_classes(loose)
    assert sum(c.weight for c in classes) == math.comb(42, 3) and len(classes) < 11480


def test_a_range_that_favours_a_suit_splits_its_group() -> None:
    game = get_game(STANDARD)
    spot = FlopsSpot(Spot(STANDARD, "", "AA,AcKc", "KK", 100, 100, bets="a", raises=""))
    groups = interchangeable_suits(game, spot.ranges())
    assert sorted("".join(s.key for s in g) for g in groups) == ["c", "dhs"]
    classes = spot.classes()
    assert sum(c.weight for c in classes) == 22100 and len(classes) > 1755


def test_a_sample_is_seeded_and_grows_by_extension() -> None:
    classes = flop_classes(get_game(STANDARD))
    a, b = select_flops(classes, 10, 3), select_flops(classes, 10, 3)
    assert a == b and len(set(a)) == 10
    assert set(a) <= set(select_flops(classes, 30, 3))
    assert select_flops(classes, 10, 4) != a
    with pytest.raises(GameError, match="1,755 flop classes"):
        select_flops(classes, 1756)


def test_textures_on_two_decks() -> None:
    std = get_game(STANDARD)
    t = texture(std.deck.parse_cards("As 2s 3s"), std)  # the wheel: A-2-3 fit one straight
    assert (t.suits, t.pairing, t.connected, t.high) == ("monotone", "unpaired", "connected", "A")
    t = texture(std.deck.parse_cards("Kd Kh 7c"), std)
    assert (t.suits, t.pairing, t.connected, t.high) == ("rainbow", "paired", "disconnected", "K")
    t = texture(std.deck.parse_cards("Qd Jd 2c"), std)
    assert (t.suits, t.connected) == ("two-tone", "semi-connected")
    # FESCA78: 13 ranks in a ring, Z next to 1
    fesca = get_game("fesca78-holdem")
    ranks = [r.key for r in fesca.deck.ranks]
    cards = fesca.deck.parse_cards(f"M{ranks[-1]} K{ranks[0]} D{ranks[1]}")
    t = texture(cards, fesca)
    assert (t.suits, t.connected, t.high) == ("rainbow", "connected", ranks[-1])


def tiny(iterations: int = 10, **kw: object) -> FlopsSpot:
    spot = Spot(STANDARD, "", "AA,KK,AK", "QQ,JJ,AQs", 100, 100, bets="a", raises="", **kw)  # type: ignore[arg-type]
    return FlopsSpot(spot, iterations, None, iterations)


def test_a_flop_class_result_is_the_spot_solved_directly() -> None:
    config = tiny()
    flop = next(c for c in config.classes() if str(c) == "Qs Jh 2h")
    result = solve_flop(config, flop, threads=1)
    spot = Spot(STANDARD, "Qs Jh 2h", "AA,KK,AK", "QQ,JJ,AQs", 100, 100, bets="a", raises="")
    direct = solve(spot, 10, target=None, every=10, threads=1)
    assert result.flop == "Qs Jh 2h" and result.weight == 12 and result.pot == 100
    assert result.ev == pytest.approx((direct.ev().oop, direct.ev().ip), abs=1e-9)
    assert result.equity == pytest.approx((direct.equity().oop, direct.equity().ip), abs=1e-9)
    freqs = dict(zip(direct.root().actions, direct.root().frequencies(), strict=True))
    assert dict(result.actions) == pytest.approx(freqs, abs=1e-9)
    assert result.bet == pytest.approx(freqs["a100"], abs=1e-9)
    assert result.iterations == 10
    assert result.exploitability == pytest.approx(direct.exploitability_pot_percent, abs=1e-9)
    ev, eq = result.ev[0], result.equity[0]
    assert result.realisation[0] == pytest.approx(ev / (eq * 100))
    assert FlopResult.from_dict(json.loads(json.dumps(result.as_dict()))) == result


def test_a_flop_that_empties_a_range_is_skipped() -> None:
    config = FlopsSpot(Spot(STANDARD, "", "KK", "QQ,JJ", 100, 100, bets="a", raises=""), 5)
    # K K K: the one K left cannot make a pair of kings
    flop = next(c for c in flop_classes(get_game(STANDARD)) if str(c) == "Ks Kh Kd")
    result = solve_flop(config, flop)
    assert result.skipped == "the OOP range has no hand the flop leaves"
    assert math.isnan(result.bet) and result.weight == 4


def fake(
    flop: str, weight: int, bet: float, ev: float, eq: float, skipped: bool = False
) -> FlopResult:
    return FlopResult(
        flop,
        weight,
        100,
        (("k", 1 - bet), ("a100", bet)),
        (ev, 100 - ev),
        (eq, 1 - eq),
        0.1,
        10,
        0.5,
        "empty" if skipped else None,
    )


def test_texture_figures_against_a_hand_computation() -> None:
    from cardlab.solve.postflop.flops_results import by_texture

    results = [
        fake("As Ks 2s", 4, 0.5, 60.0, 0.5),  # monotone, unpaired, semi-connected, A
        fake("7h 7d 2c", 12, 0.25, 40.0, 0.4),  # rainbow, paired, disconnected, 7
        fake("Qd Jd 2c", 12, 0.0, 30.0, 0.45),  # two-tone, unpaired, semi-connected, Q
        fake("As 4h 3d", 24, 1.0, 70.0, 0.6),  # rainbow, unpaired, connected, A
        fake("Kd Kh Kc", 4, 0.0, 0.0, 0.0, skipped=True),
    ]
    rows = {(r.dimension, r.value): r for r in by_texture(results, get_game(STANDARD))}
    everything = rows[("all", "all")]
    assert (everything.classes, everything.weight, everything.skipped) == (4, 52, 1)
    assert everything.bet == pytest.approx((4 * 0.5 + 12 * 0.25 + 0 + 24 * 1.0) / 52)
    assert everything.ev[0] == pytest.approx((240 + 480 + 360 + 1680) / 52)
    rainbow = rows[("suits", "rainbow")]
    assert rainbow.weight == 36 and rainbow.skipped == 1
    assert rainbow.bet == pytest.approx((3 + 24) / 36)
    assert rainbow.ev == pytest.approx(((480 + 1680) / 36, (720 + 720) / 36))
    assert rainbow.equity[0] == pytest.approx((4.8 + 14.4) / 36)
    assert rainbow.realisation[0] == pytest.approx(60 / (100 * 19.2 / 36))
    assert rows[("connected", "semi-connected")].weight == 16
    assert rows[("connected", "connected")].bet == 1.0
    assert rows[("high", "A")].ev[0] == pytest.approx((240 + 1680) / 28)
    assert rows[("pairing", "trips")].weight == 0 and math.isnan(rows[("pairing", "trips")].bet)
    # the order: all, then suits, pairing, connectedness, high cards from the top
    keys = list(rows)
    assert keys[0] == ("all", "all") and keys[1:4] == [
        ("suits", "rainbow"),
        ("suits", "two-tone"),
        ("suits", "monotone"),
    ]
    assert [v for d, v in keys if d == "high"] == ["A", "K", "Q", "7"]


def test_a_run_resumes_from_its_file_and_refuses_another_spot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardlab.solve.postflop import flops
    from cardlab.solve.postflop.flops_results import solve_flops

    config = tiny(5)
    three = select_flops(config.classes(), 3, 1)
    out = tmp_path / "r.jsonl"
    first = solve_flops(config, three[:2], out)
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["format"] == "cardlab-flops"
    solved: list[str] = []
    real = flops.solve_flop

    def counting(config: FlopsSpot, flop: FlopClass, **kw: object) -> FlopResult:
        solved.append(str(flop))
        return real(config, flop, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(flops, "solve_flop", counting)
    # a run killed while writing left half a line: dropped, and cut before the next one
    with out.open("a") as f:
        f.write('{"flop": "half')
    again = solve_flops(config, three, out)
    assert solved == [str(three[2])]
    assert again[:2] == first
    assert len(out.read_text().splitlines()) == 4
    assert solve_flops(config, three, out) == again and solved == [str(three[2])]
    with pytest.raises(GameError, match=r"another spot's flops \(iterations 5 there, 6 here\)"):
        solve_flops(FlopsSpot(config.spot, 6, None, 5), three, out)
    with pytest.raises(GameError, match=r"spot\.pot 100 there, 120 here"):
        changed = FlopsSpot(
            Spot(STANDARD, "", "AA,KK,AK", "QQ,JJ,AQs", 120, 100, bets="a", raises=""), 5, None, 5
        )
        solve_flops(changed, three, out)


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_results_of_this_process() -> None:
    from cardlab.tasks import dask_client

    config = tiny(5)
    some = select_flops(config.classes(), 3, 2)
    here = list(run_flops(config, some, threads=1))
    with dask_client(workers=2) as client:
        there = {r.flop: r for r in run_flops(config, some, client=client)}
    assert set(there) == {r.flop for r in here}
    for r in here:
        t = there[r.flop]
        assert t.ev == pytest.approx(r.ev, abs=1e-9)
        assert dict(t.actions) == pytest.approx(dict(r.actions), abs=1e-9)
        assert (t.weight, t.iterations, t.equity) == (r.weight, r.iterations, r.equity)


SPOT_ARGS = ["--oop", "AA,KK", "--ip", "QQ,JJ", "--pot", "100", "--stack", "100"]
SPOT_ARGS += ["--bets", "a", "--raises", ""]

BAD = [
    [],  # no spot
    ["--oop", "AA", "--ip", "KK", "--pot", "100"],
    [*SPOT_ARGS, "--flops", "0"],
    [*SPOT_ARGS, "--flops", "1756"],
    [*SPOT_ARGS, "-n", "0"],
    [*SPOT_ARGS, "--target", "-1"],
    [*SPOT_ARGS, "--every", "0"],
    [*SPOT_ARGS, "--workers", "-1"],
    [*SPOT_ARGS, "--workers", "0", "--scheduler", "tcp://127.0.0.1:1"],
    [*SPOT_ARGS, "--out", "r.json"],
    [*SPOT_ARGS, "--out", "/nonexistent/r.jsonl"],
    [*SPOT_ARGS, "--plot", "p.svg"],
    [*SPOT_ARGS, "--format", "xml"],
    [*SPOT_ARGS, "--game", "fesca78-omaha"],
    [*SPOT_ARGS, "--game", "nope-holdem"],
    ["--oop", "AA", "--ip", "ZZ", "--pot", "100", "--stack", "100"],
    [*SPOT_ARGS, "--flop-bets", "77x"],
    [*SPOT_ARGS, "--threads", "0"],
]


@pytest.mark.parametrize("args", BAD)
def test_cli_bad_input_is_one_line(args: list[str]) -> None:
    code, out, err = run_cli(["solve", "flops", *args])
    assert code == 2, (out, err)
    assert_answer_or_one_line(code, out, err)


def test_cli_refuses_another_spots_results_file(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    args = ["solve", "flops", *SPOT_ARGS, "--flops", "2", "--workers", "0", "-n", "5"]
    code, text, err = run_cli([*args, "--out", str(out), "--format", "json"])
    assert code == 0, err
    data = json.loads(text)
    assert data["classes"] == 1755 and data["deck_flops"] == 22100 and len(data["flops"]) == 2
    assert data["textures"][0]["texture"] == "all"
    assert data["textures"][0]["weight"] == sum(f["weight"] for f in data["flops"])
    assert len(out.read_text().splitlines()) == 3
    code, text, err = run_cli([*args[:-1], "6", "--out", str(out)])
    assert code == 2 and "holds another spot's flops (iterations 5 there, 6 here)" in err
    assert_answer_or_one_line(code, text, err)


@settings(max_examples=20, deadline=None)
@given(
    rng=st.text(alphabet="AKQJT98765432so+-,:.0", max_size=10),
    bets=st.text(alphabet="0123456789%xcear, .", max_size=6),
    count=st.sampled_from(["-3", "0", "1", "x", "1756", ""]),
    pot=st.sampled_from(["0", "-5", "10", "1e3", "x"]),
)
def test_cli_fuzz(rng: str, bets: str, count: str, pot: str) -> None:
    args = ["solve", "flops", "--oop", rng, "--ip", "AA", "--pot", pot, "--stack", "10"]
    args += ["--bets", bets, "--raises", "", "--flops", count, "--workers", "0"]
    args += ["-n", "2", "--target", "50"]
    code, out, err = run_cli(args)
    assert_answer_or_one_line(code, out, err, codes=(0, 2))
