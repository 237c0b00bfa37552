"""``cardlab chart``: the equity of every starting hand against random opponents."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from cardlab import _serial_first, render
from cardlab.cli._cluster import cache_from, client_from, cluster_options, task_bar
from cardlab.cli._common import (
    after_first_run_notice,
    deck_option,
    emit_json,
    format_option,
    game_from,
    game_option,
    output_path,
    rule_option,
)
from cardlab.errors import GameError


@click.command()
@game_option("standard52-holdem")
@deck_option(None)
@click.option(
    "--opponents",
    "-n",
    type=click.IntRange(1, 9),
    default=1,
    show_default=True,
    help="Opponents holding random hands.",
)
@click.option(
    "--exact/--sample",
    "exact",
    default=None,
    help="Enumerate every deal (heads-up Hold'em) or sample; default: exact where it "
    "takes minutes.",
)
@click.option(
    "--se",
    "target_se",
    type=float,
    default=None,
    help="Sample until every class's standard error is at most this (default 0.002; Omaha 0.005).",
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**63 - 1),
    default=0,
    show_default=True,
    help="Seed of the random deals (0 or more).",
)
@rule_option
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also draw the chart as heat maps into this PNG file.",
)
@click.option("--top", type=click.IntRange(min=1), default=None, help="Show only the best N.")
@click.option(
    "--classes",
    "first",
    type=click.IntRange(min=1),
    default=None,
    help="Chart only the first N classes of the game's list (highest ranks first).",
)
@click.option(
    "--hands",
    default=None,
    help="Chart only these classes, comma-separated names (AKs,QQ; Omaha AaAbKaKb).",
)
@cluster_options
@format_option("text", "json")
def chart(
    game_name: str,
    deck: str | None,
    opponents: int,
    exact: bool | None,
    target_se: float | None,
    seed: int,
    rule: tuple[str, ...],
    plot: Path | None,
    top: int | None,
    first: int | None,
    hands: str | None,
    scheduler: str | None,
    workers: int | None,
    cache_dir: Path | None,
    no_cache: bool,
    fmt: str,
) -> None:
    """The all-in equity of every class of starting hands (AKs, AKo, ...; Omaha's four
    cards, Stud's first three) against random opponents, strongest first: exact or
    sampled with a standard error."""
    _serial_first.enable()  # a first run: serial twins while the parallel kernels compile
    from cardlab.analysis.chart import chart as compute_chart
    from cardlab.analysis.chart_multi import game_classes

    game = game_from(game_name, rule, deck)
    every = game_classes(game)
    chosen = None
    if first is not None and hands is not None:
        raise GameError("--classes takes the first classes, --hands names them: give one")
    if first is not None:
        chosen = every[:first]
    if hands is not None:
        from cardlab.analysis.classes_multi import class_by_name

        chosen = class_by_name(every, [h.strip() for h in hands.split(",")])
    if plot is not None:
        output_path(plot, suffixes=(".png",))
    if exact and target_se is not None:
        raise GameError("--exact enumerates every deal: drop --se")
    if target_se is not None and exact is None:
        exact = False
    if target_se is not None and scheduler is None:
        _check_sampling(game, chosen or every, opponents, target_se)
    cache = cache_from(cache_dir, no_cache)  # a bad --cache is said before the run
    from cardlab.analysis.chart import kernels_compiled
    from cardlab.poker.equity import COMPILE_SECONDS

    with client_from(scheduler, workers) as client, task_bar(fmt == "text", "chart") as bar:
        # the first report of progress comes once the input is checked: then a line if
        # the kernels compile on this run (on the workers too: they share the disk cache)
        bar = after_first_run_notice(
            bar, "equity", COMPILE_SECONDS, lambda: kernels_compiled(game, opponents, exact)
        )
        result = compute_chart(
            game,
            opponents,
            exact=exact,
            target_se=target_se,
            seed=seed,
            client=client,
            cache=cache,
            progress=bar,
            classes=chosen,
        )
    if plot is not None:
        from cardlab.analysis.plots import chart_png

        plot.write_bytes(chart_png(result))
    rows_all = result.classes[:top] if top else result.classes
    if fmt == "json":
        data = result.as_dict()
        data["classes"] = data["classes"][: len(rows_all)]
        emit_json(data)
        return
    rows = []
    for place, c in enumerate(rows_all, 1):
        rows.append(
            (
                place,
                c.hand.name,
                c.hand.count,
                render.percent(c.equity, 3),
                render.fraction_str(Fraction(c.equity))
                if result.exact
                else f"± {render.percent(c.se or 0.0, 3)}",
            )
        )
    who = f"{opponents} random {'hand' if opponents == 1 else 'hands'}"
    how = "exact" if result.exact else f"sampled, seed {seed}"
    render.console().print(
        render.text_table(
            ("#", "hand", "combos", "equity", "exact" if result.exact else "std. error"),
            rows,
            title=f"{game.name}: starting hands against {who} ({how})",
            justify=("right", "left", "right", "right", "right"),
        )
    )


def _check_sampling(game: Any, classes: Sequence[Any], opponents: int, target_se: float) -> None:
    """Refuse a standard error that even the least work to reach it could not reach in
    a day: each class needs some 0.15 / se**2 deals (an all-in hand's variance)."""
    import math

    from cardlab import budget
    from cardlab.poker.equity import sampling_seconds

    if not target_se > 0 or not math.isfinite(target_se):
        raise GameError(f"the target standard error must be a positive number, got {target_se}")
    deals = len(classes) * math.ceil(min(0.15 / target_se / target_se, 1e30))
    budget.check(
        f"a chart of {len(classes):,} classes to a standard error of {target_se:g}",
        sampling_seconds(game, deals, opponents + 1),
        "ask for a larger --se (the default is 0.002), chart fewer --classes, or run it on "
        "a Dask cluster (--scheduler)",
    )
