"""Exact Omaha tables as a cluster job.

An Omaha hand is four hole cards and five board cards, played as exactly two of the
hole and three of the board. The exact table of a deck counts the best category of
every such deal: C(78, 4) x C(74, 5) = 2.4e13 deals for FESCA78, about 4.4e11 five-card
evaluations once the rank patterns are reduced by the deck's symmetries
(:func:`cardlab.poker.tables7.omaha_exact_work`). :func:`exact_omaha` splits the
canonical rank patterns into independent parts (:func:`cardlab.poker.tables7.omaha_parts`)
and runs one task per part, in process or on Dask; the parts' counts add up to exactly
the single-process table. A task names its part only; the worker lists the part's
patterns (:mod:`cardlab.poker._omaha_patterns`: seconds and about 100 MB for FESCA78,
once per process), and returns its counts with the CPU and wall seconds they took
(:class:`PartCount`). :func:`project_time` turns the measured time of some parts into
the time of the whole job on a number of cores.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from cardlab.analysis.chart import game_text
from cardlab.poker.games import Game, get_game
from cardlab.poker.rules import RuleSet
from cardlab.poker.tables7 import (
    OmahaPart,
    SevenTable,
    count_omaha_part,
    omaha_parts,
    omaha_table_from_parts,
)
from cardlab.tasks import Progress, run_tasks

PATTERNS_VERSION = 2
"""In every part's cache key, so a part of one version never mixes with the parts of
another. Version 2 picks each orbit's pattern by an exact code; version 1's code wrapped
around int64 for FESCA78, which still kept one pattern per orbit, but other ones, so its
parts held other patterns."""


@dataclass(frozen=True, slots=True)
class OmahaTask:
    """Count one part of the exact Omaha table; the result is the part's counts and the
    CPU and wall seconds it took (the cluster job's measured cost)."""

    part: OmahaPart

    def key(self) -> str:
        game = Game(self.part.rules, get_game("standard52-omaha").base)
        return (
            f"omaha|{game_text(game)}|part={self.part.index}/{self.part.parts}"
            f"|patterns={PATTERNS_VERSION}"
        )

    def run(self) -> dict[str, Any]:
        wall, cpu = time.perf_counter(), time.process_time()
        counts = count_omaha_part(self.part)
        return {
            "counts": counts,
            "cpu_seconds": time.process_time() - cpu,
            "seconds": time.perf_counter() - wall,
        }


@dataclass(frozen=True, slots=True)
class PartCount:
    """One counted part: its (opaque) counts, and the CPU and wall seconds of the
    process that counted it (CPU time includes the worker's own threads; wall time
    includes waiting for a shared machine's cores)."""

    index: int
    counts: tuple[int, ...]
    cpu_seconds: float
    seconds: float


def count_omaha_parts(
    rules: RuleSet,
    *,
    parts: int = 64,
    client: Any = None,
    cache: Any = None,
    progress: Progress | None = None,
) -> list[PartCount]:
    """Every part of the exact Omaha table counted (or read from ``cache``)."""
    tasks = [OmahaTask(p) for p in omaha_parts(rules, parts)]
    results = run_tasks(tasks, client=client, cache=cache, progress=progress)
    return [
        PartCount(i, tuple(r["counts"]), float(r["cpu_seconds"]), float(r["seconds"]))
        for i, r in enumerate(results)
    ]


def exact_omaha(
    rules: RuleSet,
    *,
    parts: int = 64,
    client: Any = None,
    cache: Any = None,
    progress: Progress | None = None,
) -> SevenTable:
    """The exact Omaha table of a deck, counted in ``parts`` independent tasks."""
    done = count_omaha_parts(rules, parts=parts, client=client, cache=cache, progress=progress)
    return omaha_table_from_parts(rules, [p.counts for p in done])


@dataclass(frozen=True, slots=True)
class Projection:
    """The time of an exact Omaha table from measured parts.

    ``measured``: how many parts were timed, their share of the whole work and their
    CPU seconds (one core each); ``core_seconds`` the whole job on one core (scaled by
    work share); ``wall(cores)`` the time on ``cores`` cores with perfect balance.
    """

    deck: str
    parts: int
    measured: int
    share: float
    seconds: float
    core_seconds: float

    def wall(self, cores: int) -> float:
        return self.core_seconds / cores


def project_time(rules: RuleSet, *, parts: int = 4096, measure: int = 2) -> Projection:
    """Time ``measure`` of ``parts`` parts in this process (CPU seconds, after one untimed
    part that loads the compiled kernel) and project the whole job by their share of
    the work (the parts are dealt round robin, so they weigh about the same)."""
    every = omaha_parts(rules, parts)
    total_work = sum(p.work for p in every)
    chosen = [every[(k * parts) // (measure + 1)] for k in range(1, measure + 1)]
    count_omaha_part(every[-1])  # untimed: loads the compiled kernel and the look-ups
    start = time.process_time()
    for p in chosen:
        count_omaha_part(p)
    seconds = time.process_time() - start
    share = sum(p.work for p in chosen) / total_work
    return Projection(rules.deck.name, parts, measure, share, seconds, seconds / share)
