"""``cardlab report``: the designer's report of decks and rule options, one HTML page."""

from __future__ import annotations

from pathlib import Path

import click

from cardlab.cli._cluster import (
    cache_from,
    check_report_work,
    client_from,
    cluster_options,
    task_bar,
)
from cardlab.cli._common import after_first_run_notice, emit, emit_json, format_option, output_path


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
    scheduler: str | None,
    workers: int | None,
    cache_dir: Path | None,
    no_cache: bool,
    fmt: str,
) -> None:
    """Write the designer's report: per deck the five- and seven-card tables, the order
    and its inversions, hands by rarity range, the share of no hand, split pots with and
    without suit tie-breaks, Omaha, the effect of each compared rule option, and the decks
    compared by heads-up push/fold (printed here too)."""
    from cardlab.analysis.html import report_html
    from cardlab.analysis.report import build_report, parse_option
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
    check_report_work(
        variants, exact_omaha=exact_omaha, tie_samples=tie_samples, scheduler=scheduler
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
        )
    out.write_text(report_html(data), encoding="utf-8")
    if fmt == "json":
        emit_json(data)
        return
    if data.get("pushfold"):
        from cardlab.analysis.deck_pushfold import section_text

        emit(section_text(data["pushfold"]))
    emit(f"wrote {out} ({len(data['decks'])} decks and variants)")


COMPILE_SECONDS = 90  # the report's kernels (tables, sampling, Omaha), first run, 2 cores


def _kernels_compiled() -> bool:
    """Whether the kernels of the report's tables and samples are in numba's disk cache
    (the workers compile them on a first run, sharing the cache)."""
    from cardlab.poker.plan import in_disk_cache, report_kernels

    return in_disk_cache(report_kernels())
