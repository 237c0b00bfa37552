"""``cardlab report``: the designer's report of decks and rule options, one HTML page."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from cardlab import _serial_first
from cardlab.cli._cluster import (
    cache_from,
    check_report_work,
    client_from,
    cluster_options,
    task_bar,
)
from cardlab.cli._common import (
    FiniteFloat,
    after_first_run_notice,
    emit,
    emit_json,
    format_option,
    output_path,
)


@click.command()
@click.option(
    "--decks",
    default="FESCA78,FESCA65,FESCA60,TESCA54,standard52",
    show_default=True,
    help="Decks, comma-separated: built-in names or deck TOML files.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("report.html"),
    show_default=True,
    help="The HTML page to write.",
)
@click.option(
    "--compare-options",
    "compare",
    multiple=True,
    metavar="NAME=VALUE",
    help="A rule option to compare with the defaults (repeatable), e.g. mixwell=off.",
)
@click.option(
    "--exact-omaha",
    is_flag=True,
    help="Count Omaha exactly for every deck (FESCA78: ~4e11 evaluations, a cluster job).",
)
@click.option(
    "--omaha-samples",
    type=click.IntRange(min=1000),
    default=400_000,
    show_default=True,
    help="Sampled Omaha deals where the exact count is not cheap.",
)
@click.option(
    "--tie-samples",
    type=click.IntRange(min=1000),
    default=200_000,
    show_default=True,
    help="Random deals per split-pot figure.",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Seed of the sampled figures (0 or more).",
)
@click.option(
    "--pushfold/--no-pushfold",
    default=True,
    show_default=True,
    help="The decks compared by heads-up push/fold (shares pushed and called at 5, 10 and "
    "15 big blinds, the push bounds that move most from standard52).",
)
@click.option(
    "--postflop/--no-postflop",
    default=False,
    show_default=True,
    help="The decks compared after the flop: one single-raised pot solved on a dry and a "
    "wet flop of standard52 and FESCA78 (who bets, check-raises, folds; the EVs). Costs "
    "four postflop solves: minutes on two cores, FESCA78's the longest; kept in the cache.",
)
@click.option(
    "--postflop-target",
    type=FiniteFloat(),
    default=None,
    help="With --postflop: solve to this % of the pot [default: 2].",
)
@click.option(
    "--postflop-iterations",
    type=int,
    default=None,
    help="With --postflop: at most this many iterations a solve [default: 150].",
)
@cluster_options
@format_option("text", "json")
def report(
    decks: str,
    out: Path,
    compare: tuple[str, ...],
    exact_omaha: bool,
    omaha_samples: int,
    tie_samples: int,
    seed: int,
    pushfold: bool,
    postflop: bool,
    postflop_target: float | None,
    postflop_iterations: int | None,
    scheduler: str | None,
    workers: int | None,
    cache_dir: Path | None,
    no_cache: bool,
    fmt: str,
) -> None:
    """Write the designer's report: per deck the five- and seven-card tables, the order
    and its inversions, hands by rarity range, the share of no hand, split pots with and
    without suit tie-breaks, Omaha, the effect of each compared rule option, the decks
    compared by heads-up push/fold and, with --postflop, after the flop (both printed
    here too)."""
    _serial_first.enable()  # a first run: serial twins while the parallel kernels compile
    from cardlab.analysis.html import report_html
    from cardlab.analysis.report import build_report, check_decks, parse_option
    from cardlab.poker.rules import RuleSet

    output_path(out, suffixes=(".html", ".htm"))
    names = [d.strip() for d in decks.split(",") if d.strip()]
    if not names:
        from cardlab.errors import DeckError

        raise DeckError(f"--decks needs at least one deck, got {decks!r}")
    variants = []
    for name in names:  # bad names and options fail before a cluster starts
        rules = RuleSet.for_deck(name)
        variants.append(rules)
        for item in compare:
            key, value = parse_option(item)
            variants.append(rules.with_options(**{key: value}))
    check_decks(variants)
    settings = _postflop_settings(postflop, postflop_target, postflop_iterations)
    check_report_work(
        variants,
        exact_omaha=exact_omaha,
        omaha_samples=omaha_samples,
        tie_samples=tie_samples,
        pushfold=pushfold,
        scheduler=scheduler,
        workers=workers,
    )
    with client_from(scheduler, workers) as client, task_bar(fmt == "text", "report") as bar:
        bar = after_first_run_notice(bar, "report", COMPILE_SECONDS, _kernels_compiled)
        data = build_report(
            names,
            compare,
            exact_omaha=exact_omaha,
            omaha_samples=omaha_samples,
            tie_samples=tie_samples,
            seed=seed,
            client=client,
            cache=cache_from(cache_dir, no_cache),
            progress=bar,
            pushfold=pushfold,
            postflop=postflop,
            postflop_settings=settings,
        )
    out.write_text(report_html(data), encoding="utf-8")
    if fmt == "json":
        emit_json(data)
        return
    if data.get("pushfold"):
        from cardlab.analysis.deck_pushfold import section_text

        emit(section_text(data["pushfold"]))
    if data.get("postflop"):
        _print_postflop(data["postflop"])
    emit(f"wrote {out} ({len(data['decks'])} decks and variants)")


def _postflop_settings(postflop: bool, target: float | None, iterations: int | None) -> Any:
    """The postflop section's settings (None without ``--postflop``), checked before
    anything runs."""
    from cardlab.errors import GameError

    if not postflop:
        given = [n for n, v in (("target", target), ("iterations", iterations)) if v is not None]
        if given:
            raise GameError(f"--postflop-{given[0]} needs --postflop")
        return None
    from cardlab.analysis.deck_postflop import PostflopSettings

    how: dict[str, Any] = {}
    if target is not None:
        how["target"] = target
    if iterations is not None:
        how["iterations"] = iterations
    return PostflopSettings(**how)


def _print_postflop(section: dict[str, Any]) -> None:
    """The postflop section as a rich table, with the spot, the ranges and the rule."""
    from rich.console import Console
    from rich.table import Table

    from cardlab.analysis.deck_postflop import HEADERS, range_lines, rows, spot_line

    # piped output is as wide as the table, not 80 columns
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 180)
    title = "after the flop: one single-raised pot, dry and wet flops"
    split = HEADERS.index("EV OOP")  # frequencies, then values and the solve
    for cols in (slice(2, split), slice(split, None)):
        table = Table(title=title)
        title = ""
        for k, h in enumerate(HEADERS[:2] + HEADERS[cols]):
            table.add_column(h, justify="left" if k < 2 else "right")
        for row in rows(section):
            table.add_row(*row[:2], *row[cols])
        console.print(table)
    console.print(spot_line(section))
    for line in range_lines(section):
        console.print(line, markup=False)
    console.print("flops: " + section["flop_rule"], markup=False)


COMPILE_SECONDS = 30  # the report's kernels on a first run (one deck: 26-30 CPU s, docs/speed.md)


def _kernels_compiled() -> bool:
    """Whether the kernels of the report's tables and samples are in numba's disk cache
    (the workers compile them on a first run, sharing the cache)."""
    from cardlab.poker.plan import in_disk_cache, report_kernels

    return in_disk_cache(report_kernels())
