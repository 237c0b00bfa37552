"""``cardlab solve flops``: one postflop spot solved on every flop class of its deck (or a
seeded sample), here or on a Dask cluster, resumable, summed up by flop texture."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import click

from cardlab import render
from cardlab.cli._cluster import client_from, where_options
from cardlab.cli._common import (
    compile_notice,
    emit,
    emit_json,
    format_option,
    output_path,
    progress_bar,
)
from cardlab.cli.solve_postflop import solving_options, spot_from, spot_options
from cardlab.errors import GameError

HEADER = (
    "texture",
    "classes",
    "flops",
    "OOP bets",
    "EV OOP",
    "EV IP",
    "equity OOP",
    "EQR OOP",
    "EQR IP",
)


@click.command("flops")
@spot_options
@click.option(
    "--flops",
    "count",
    type=int,
    default=None,
    metavar="N",
    help="Solve N flop classes drawn at random (seeded) instead of all of them.",
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**63 - 1),
    default=0,
    show_default=True,
    help="The seed of the --flops draw (a larger N keeps a smaller N's flops).",
)
@solving_options(
    " per flop", "Solver threads per flop (default: every core in this process, 1 on Dask)."
)
@where_options
@click.option(
    "--out",
    default=None,
    metavar="FILE.jsonl",
    help="Append each flop's result here as it is done; a rerun resumes from it.",
)
@click.option(
    "--plot",
    "plot_png",
    default=None,
    metavar="FILE.png",
    help="Also draw OOP's bet frequency and EV per texture as a PNG.",
)
@format_option("text", "json", "csv")
def flops(**options: Any) -> None:
    """Solve one postflop spot on every flop of its deck up to suits (1,755 on the standard
    deck): OOP's bet frequency, EVs, equities and equity realisation per flop texture."""
    from cardlab.solve.postflop.flops import FlopsSpot, select_flops
    from cardlab.solve.postflop.flops_results import ResultsFile, by_texture, solve_flops

    for name, suffix in (("out", ".jsonl"), ("plot_png", ".png")):
        if options[name] is not None:
            output_path(Path(options[name]), suffixes=(suffix,))
    missing = [f"--{n}" for n in ("oop", "ip", "pot", "stack") if options[n] is None]
    if missing:
        raise GameError(f"a spot needs {', '.join(missing)}")
    config = FlopsSpot(
        spot_from(options, board=""), options["iterations"], options["target"], options["every"]
    )
    config.check()
    game = config.game()
    classes = config.classes()
    chosen = select_flops(classes, options["count"], options["seed"])
    if options["out"] is not None:
        ResultsFile(options["out"], config).read()  # another spot's file: refused now
    done: list[int] = [0, len(chosen)]
    try:
        with (
            compile_notice("postflop solver", 30),
            client_from(options["scheduler"], options["workers"]) as client,
            progress_bar("flops", tasks=True) as bar,
        ):

            def progress(n: int, total: int) -> None:
                done[:] = [n, total]
                bar(n, total)

            results = solve_flops(
                config,
                chosen,
                options["out"],
                client=client,
                threads=options["threads"],
                progress=progress,
            )
    except KeyboardInterrupt:
        if options["out"] is not None:
            click.echo(
                f"cardlab: {done[0]:,} of {done[1]:,} flops are in {options['out']}; "
                "the same command resumes",
                err=True,
            )
        raise
    rows = by_texture(results, game)
    if options["plot_png"] is not None:
        from cardlab.solve.postflop.flops_results import draw_textures

        s = config.spot
        title = f"{game.name}: OOP {s.oop} vs IP {s.ip}, pot {s.pot}, stack {s.stack}"
        draw_textures(rows, options["plot_png"], title)
    _output(options["fmt"], config, classes, results, rows)


def _output(fmt: str, config: Any, classes: Any, results: Any, rows: Any) -> None:
    if fmt == "json":
        emit_json(
            {
                "config": config.as_dict(),
                "classes": len(classes),
                "deck_flops": sum(c.weight for c in classes),
                "flops": [r.as_dict() for r in results],
                "textures": [r.as_dict() for r in rows],
            }
        )
        return
    if fmt == "csv":
        header = (
            *("dimension", "texture", "classes", "flops", "skipped", "bet"),
            *("ev_oop", "ev_ip", "equity_oop", "equity_ip", "eqr_oop", "eqr_ip"),
        )
        emit(
            render.to_csv(
                header,
                [_csv_row(r) for r in rows],
            )
        )
        return
    game = config.game()
    s = config.spot
    solved = [r for r in results if r.skipped is None]
    seconds = sum(r.seconds for r in solved)
    weight = sum(r.weight for r in results)
    lines = [
        f"{game.name}: OOP {s.oop} vs IP {s.ip}, pot {s.pot}, stack {s.stack}",
        f"{len(results):,} of {len(classes):,} flop classes ({weight:,} of "
        f"{sum(c.weight for c in classes):,} flops) solved in {seconds:.1f} s",
    ]
    if solved:
        worst = max(r.exploitability for r in solved)
        lines.append(f"exploitability at most {worst:.3f}% of the pot")
    skipped = [r for r in results if r.skipped is not None]
    if skipped:
        lines.append(
            f"{len(skipped):,} flops skipped: {skipped[0].skipped} ({skipped[0].flop}, ...)"
        )
    emit("\n".join(lines))
    table_rows = [
        [
            "all" if r.dimension == "all" else r.value + (" high" if r.dimension == "high" else ""),
            f"{r.classes:,}",
            f"{r.weight:,}",
            _pct(r.bet),
            _num(r.ev[0]),
            _num(r.ev[1]),
            _pct(r.equity[0]),
            _num(r.realisation[0], 3),
            _num(r.realisation[1], 3),
        ]
        for r in rows
        if r.weight or r.skipped
    ]
    render.console().print(render.text_table(HEADER, table_rows, title="by flop texture"))


def _csv_row(r: Any) -> list[Any]:
    return [
        r.dimension,
        r.value,
        r.classes,
        r.weight,
        r.skipped,
        r.bet,
        *r.ev,
        *r.equity,
        *r.realisation,
    ]


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def _num(x: float, digits: int = 2) -> str:
    return "-" if math.isnan(x) else f"{x:.{digits}f}"
