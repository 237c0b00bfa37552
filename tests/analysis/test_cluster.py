"""The tasks on a real local Dask cluster (two worker processes): the same results as in
process and on one worker, the disk cache, and exact Omaha in parts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardlab.analysis.chart import chart
from cardlab.analysis.omaha import count_omaha_parts, exact_omaha, project_time
from cardlab.decks import deck_from_toml
from cardlab.poker import RuleSet
from cardlab.poker.categories import Category
from cardlab.poker.classes import hand_classes
from cardlab.poker.games import Game, get_game
from cardlab.poker.tables7 import omaha_brute_force_counts
from cardlab.tasks import ClusterError, dask_client, run_tasks, task_hash

DECKS = Path(__file__).resolve().parents[1] / "data" / "decks"
OMAHA15 = 'name = "omaha15"\nsuits = ["M", "K", "D", "G", "S"]\nranks = ["1", "2", "Z"]'


def short_holdem() -> Game:
    rules = RuleSet.for_deck(str(DECKS / "short24.toml"))
    return Game(rules, get_game("standard52-holdem").base)


def test_exact_chart_is_identical_on_two_workers(client2: Any) -> None:
    here = chart(short_holdem(), exact=True)
    there = chart(short_holdem(), exact=True, client=client2)
    assert there.classes == here.classes


def test_sampled_chart_is_identical_on_one_and_two_workers(client2: Any) -> None:
    game = short_holdem()
    some = tuple(c for c in hand_classes(game.rules) if c.name in ("AKs", "99", "T9o"))
    two = chart(game, target_se=0.02, exact=False, seed=5, classes=some, client=client2)
    with dask_client(workers=1) as client1:
        one = chart(game, target_se=0.02, exact=False, seed=5, classes=some, client=client1)
    here = chart(game, target_se=0.02, exact=False, seed=5, classes=some)
    assert one.classes == two.classes == here.classes


def test_omaha_and_stud_charts_are_identical_on_two_workers(client2: Any) -> None:
    for base in ("omaha", "stud"):
        game = get_game(f"{DECKS / 'duo14.toml'}-{base}")
        here = chart(game, target_se=0.02, exact=False, seed=4)
        there = chart(game, target_se=0.02, exact=False, seed=4, client=client2)
        assert there.classes == here.classes and there.tasks == here.tasks
        exact_here = chart(game, exact=True)
        exact_there = chart(game, exact=True, client=client2)
        assert exact_there.classes == exact_here.classes


def test_omaha_in_parts_on_the_cluster_agrees_with_every_deal(client2: Any) -> None:
    rules = RuleSet.for_deck(deck_from_toml(OMAHA15))
    table = exact_omaha(rules, parts=5, client=client2)
    assert {c: n for c, n in table.counts().items() if n} == omaha_brute_force_counts(rules)
    assert table.exact and table.hands == 1365 * 462


LONE14 = (
    'name = "lone14"\nsuits = ["M", "K", "D", "G", "S", "Y"]\nranks = ["1", "2", "3", "Z"]\n'
    'wrap = "ring"\nfull_suits = ["M", "K", "S"]\nextra_cards = ["土Z", "金Z"]'
)


def test_omaha_parts_agree_with_every_deal_in_any_number_on_one_or_two_workers(
    client2: Any, tmp_path: Path
) -> None:
    # a user deck with Mixwell, ranks of 3 and 5 cards and a rank reflection
    deck = tmp_path / "lone14.toml"
    deck.write_text(LONE14)
    rules = RuleSet.for_deck(str(deck)).with_options(compound="base")
    expected = omaha_brute_force_counts(rules)
    for parts in (1, 2, 7, 500):  # 500: more parts than patterns, some empty
        table = exact_omaha(rules, parts=parts)
        assert {c: n for c, n in table.counts().items() if n} == expected, parts
    two = count_omaha_parts(rules, parts=6, client=client2, cache=tmp_path / "cache")
    with dask_client(workers=1) as client1:
        one = exact_omaha(rules, parts=6, client=client1)
    assert {c: n for c, n in one.counts().items() if n} == expected
    assert all(p.cpu_seconds >= 0 and p.seconds >= 0 for p in two)
    assert [p.counts for p in two] == [
        p.counts for p in count_omaha_parts(rules, parts=6, cache=tmp_path / "cache")
    ]


def test_omaha_projection_scales_the_measured_parts() -> None:
    p = project_time(RuleSet.for_deck(deck_from_toml(OMAHA15)), parts=8, measure=2)
    assert p.measured == 2 and 0 < p.share < 1
    assert p.core_seconds == pytest.approx(p.seconds / p.share)
    assert p.wall(64) == pytest.approx(p.core_seconds / 64)


class Count:
    """A task that records when it runs (in process only)."""

    runs: list[int] = []  # noqa: RUF012

    def __init__(self, n: int) -> None:
        self.n = n

    def key(self) -> str:
        return f"count {self.n}"

    def run(self) -> list[int]:
        Count.runs.append(self.n)
        return [self.n, self.n * self.n]


def test_cache_resumes_an_interrupted_run(tmp_path: Path) -> None:
    tasks = [Count(i) for i in range(6)]
    Count.runs = []

    def stop(done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tasks(tasks, cache=tmp_path, progress=stop)
    assert Count.runs == [0, 1, 2]
    assert len(list(tmp_path.glob("*.json"))) == 3
    seen: list[tuple[int, int]] = []
    results = run_tasks(tasks, cache=tmp_path, progress=lambda d, t: seen.append((d, t)))
    assert Count.runs == [0, 1, 2, 3, 4, 5]  # only the missing ones ran again
    assert results == [[i, i * i] for i in range(6)]
    assert seen[0] == (3, 6) and seen[-1] == (6, 6)
    assert task_hash(Count(1)) != task_hash(Count(2))
    (tmp_path / f"{task_hash(Count(0))}.json").write_text("{broken")
    assert run_tasks(tasks[:1], cache=tmp_path) == [[0, 0]]


def test_cluster_options_are_checked() -> None:
    with pytest.raises(ClusterError, match="workers"), dask_client(workers=0):
        pass
    with pytest.raises(ClusterError, match="scheduler"), dask_client("tcp://127.0.0.1:1", 2):
        pass
    with (
        pytest.raises(ClusterError, match="cannot reach"),
        dask_client("tcp://127.0.0.1:9", timeout=1),
    ):
        pass


def test_report_is_the_same_on_the_cluster_and_counts_omaha_in_parts(
    client2: Any, tmp_path: Path
) -> None:
    from cardlab.analysis.report import build_report

    deck = tmp_path / "omaha15.toml"
    deck.write_text(OMAHA15)
    here = build_report([str(deck)], ["compound=base"], exact_omaha=True, omaha_parts=3,
                        tie_samples=2000, omaha_samples=2000)  # fmt: skip
    there = build_report([str(deck)], ["compound=base"], exact_omaha=True, omaha_parts=3,
                         tie_samples=2000, omaha_samples=2000, client=client2)  # fmt: skip
    assert here == there
    assert [d["variant"] for d in here["decks"]] == ["defaults", "compound=base"]
    omaha = here["decks"][0]["omaha"]
    assert omaha["exact"] and omaha["method"] == "combinatorial"
    expected = omaha_brute_force_counts(RuleSet.for_deck(deck_from_toml(OMAHA15)))
    assert {Category(h["id"]): h["count"] for h in omaha["hands"] if h["count"]} == expected
