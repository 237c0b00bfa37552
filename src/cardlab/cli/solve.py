"""``cardlab solve``: equilibrium strategies of small poker games (CFR+) and of heads-up
push/fold on any Hold'em deck."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from cardlab import render
from cardlab.cli._cluster import cache_from, client_from, cluster_options, task_bar
from cardlab.cli._common import (
    SEED,
    FiniteFloat,
    deck_option,
    emit,
    emit_json,
    format_option,
    game_from,
    game_option,
    output_path,
    progress_bar,
    rule_option,
)

ACTION_COLUMNS = ("fold", "check", "call", "bet", "raise")
MAX_TEXT_ROWS = 10_000  # information sets a text answer lists; JSON lists them all


@click.group(no_args_is_help=True)
def solve() -> None:
    """Solve games: equilibrium strategies and how exploitable they are."""


@solve.command("cfr")
@click.option(
    "--game",
    "-g",
    "game_name",
    default="leduc",
    show_default=True,
    metavar="NAME|FILE",
    help="kuhn, leduc, leduc-fesca, or a game TOML file (see docs/solve.md).",
)
@click.option(
    "--deck",
    "-d",
    default=None,
    metavar="NAME",
    help="Play the game on this deck (built-in name or deck file), with as many of its "
    "highest ranks and strongest suits as the game uses.",
)
@click.option(
    "--iterations", "-n", type=int, default=1000, show_default=True, help="CFR+ iterations (most)."
)
@click.option(
    "--target-exploitability",
    "target",
    type=FiniteFloat(),
    default=None,
    metavar="E",
    help="Stop once the exploitability is at most E chips per hand (checked every 10 iterations).",
)
@format_option()
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Also save the solution (value, exploitability, strategy) as JSON to this file.",
)
def cfr(
    game_name: str,
    deck: str | None,
    iterations: int,
    target: float | None,
    fmt: str,
    out: Path | None,
) -> None:
    """Solve a small poker game with CFR+; print its value, exploitability and strategy."""
    from cardlab.errors import GameError
    from cardlab.solve import get_game
    from cardlab.solve import solve as run
    from cardlab.solve.cfr import check_solve

    if out is not None:
        output_path(out)
    game = get_game(game_name, deck=deck)
    estimate = check_solve(game, iterations, target=target is not None)
    if fmt == "text" and estimate.infosets > MAX_TEXT_ROWS and out is None:
        raise GameError(
            f"the strategy of {game.name} has {estimate.infosets:,} information sets, "
            f"too many to print as text (at most {MAX_TEXT_ROWS:,} rows): ask for "
            "--format json, or save it with --out FILE"
        )
    with progress_bar("CFR+") as bar:
        solution = run(
            game, iterations, target=target, progress=lambda done, total, _: bar(done, total)
        )
    data = solution.as_dict()
    if out is not None:
        out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if fmt == "json":
        emit_json(data)
        return
    console = render.console()
    unit = game.unit
    lines = [
        f"{game.name}: {' '.join(data['cards'])} ({game.deck.name})",
        f"CFR+, {solution.iterations} iterations in {solution.seconds:.2f} s",
        f"game value: player 1 {solution.value:+.5f}, "
        f"player 2 {-solution.value:+.5f} chips per hand",
        f"exploitability: {solution.exploitability:.6f} chips per hand "
        f"= {solution.exploitability_mbb:.3f} mbb per hand "
        f"(1 big blind = {unit:g} chip{'' if unit == 1 else 's'})",
    ]
    emit("\n".join(lines))
    if estimate.infosets > MAX_TEXT_ROWS:
        emit(
            f"the strategy's {estimate.infosets:,} information sets are in {out}, not "
            f"printed (the text lists at most {MAX_TEXT_ROWS:,})"
        )
        return
    rows = []
    for info in solution.infosets():
        probs = dict(zip(info.actions, info.probabilities, strict=True))
        cells = [f"{probs[a]:.3f}" if a in probs else "" for a in ACTION_COLUMNS]
        rows.append(
            [str(info.player + 1), info.history or "-", info.board or "-", info.hand, *cells]
        )
    table = render.text_table(
        ("player", "betting", "board", "hand", *ACTION_COLUMNS),
        rows,
        title="average strategy (k check, b bet, c call, r raise, / next round)",
        justify=("right", "left", "left", "left", *("right",) * len(ACTION_COLUMNS)),
    )
    console.print(table)


@solve.command("pushfold")
@game_option("standard52-holdem")
@deck_option(None)
@rule_option
@click.option(
    "--stack",
    "-s",
    type=FiniteFloat(),
    default=None,
    metavar="S",
    help="Both stacks in big blinds, 1 to 25 (before posting; needed unless --chart).",
)
@click.option(
    "--ante",
    type=FiniteFloat(),
    default=0.0,
    show_default=True,
    metavar="A",
    help="Each seat's ante in big blinds.",
)
@click.option(
    "--se",
    "target_se",
    type=FiniteFloat(),
    default=None,
    metavar="E",
    help="Standard error bound of a sampled class pair's equity (default 0.01; small decks "
    "are counted exactly).",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the sampling.")
@click.option(
    "--chart",
    "chart_file",
    is_flag=False,
    flag_value="-",
    default=None,
    metavar="[FILE.png]",
    help="Draw the grid of the highest stack each class pushes / calls at (1 to 25 big "
    "blinds) as text, and as a PNG when a file is given.",
)
@cluster_options
@format_option()
def pushfold(
    game_name: str,
    deck: str | None,
    rule: tuple[str, ...],
    stack: float | None,
    ante: float,
    target_se: float | None,
    seed: int,
    chart_file: str | None,
    scheduler: str | None,
    workers: int | None,
    cache_dir: Path | None,
    no_cache: bool,
    fmt: str,
) -> None:
    """Heads-up push/fold on any Hold'em deck: each class's push and call frequency at
    equilibrium, the shares of hands pushed and called, and the exploitability."""
    from cardlab.errors import GameError
    from cardlab.solve.pushfold import CHART_STACKS, PushFoldRules, pushfold_chart, solve_pushfold
    from cardlab.solve.pushfold_matrix import check_holdem, class_matrix

    game = game_from(game_name, rule, deck)
    check_holdem(game)
    png = None
    if chart_file is not None and chart_file != "-":
        png = output_path(Path(chart_file), suffixes=(".png",))
    if chart_file is None:
        if stack is None:
            raise GameError("give the stack in big blinds (--stack S) or ask for a --chart")
        PushFoldRules(stack, ante)  # bad input is said before any work
    elif stack is not None:
        PushFoldRules(stack, ante)
    if target_se is not None and not 0 < target_se < 0.5:
        raise GameError(f"--se is a standard error between 0 and 0.5, got {target_se!r}")
    if target_se is not None and scheduler is None:
        _check_sampling(game, target_se)
    cache = cache_from(cache_dir, no_cache)
    from cardlab.solve.pushfold_matrix import cached_matrix, shipped_matrix

    # standard52 without --se: the shipped matrix (20,000 showdowns a pair), as the bot
    matrix = shipped_matrix(game) if target_se is None else None
    if matrix is None and cache is not None:
        matrix = cached_matrix(game, se=target_se, seed=seed, cache=cache)
    if matrix is None:
        with client_from(scheduler, workers) as client, task_bar(fmt == "text", "matrix") as bar:
            matrix = class_matrix(
                game, se=target_se, seed=seed, client=client, cache=cache, progress=bar
            )
    if chart_file is not None:
        with progress_bar("stacks") as bar:
            grid = pushfold_chart(matrix, ante, progress=bar)
        if png is not None:
            from cardlab.solve.pushfold_chart import chart_png

            png.write_bytes(chart_png(game, grid))
        if fmt == "json":
            emit_json(grid.as_dict())
            return
        from cardlab.solve.pushfold_chart import chart_text

        emit(f"{game.key}: heads-up push/fold, {_matrix_text(matrix)}" + _ante_text(ante))
        emit(chart_text(game, grid))
        emit(
            f"largest exploitability of the {len(CHART_STACKS)} solves: "
            f"{grid.worst_exploitability * 1000:.4f} mbb per hand"
        )
        return
    if stack is None:  # refused above: a chart or a stack
        return
    solution = solve_pushfold(matrix, stack, ante)
    if fmt == "json":
        emit_json(solution.as_dict())
        return
    lines = [
        f"{game.key}: heads-up push/fold, {stack:g} big blinds{_ante_text(ante)}",
        f"class matrix: {len(matrix.names)} classes, {_matrix_text(matrix)}",
        f"CFR+: {solution.iterations} iterations in {solution.seconds:.2f} s",
        f"small blind's value: {solution.value:+.4f} big blinds per hand",
        f"exploitability: {solution.exploitability:.2e} big blinds "
        f"= {solution.exploitability_mbb:.4f} mbb per hand",
        f"small blind pushes {solution.push_share:.1%} of hands, "
        f"big blind calls {solution.call_share:.1%}",
    ]
    rows = [
        [n, str(h), f"{p:.3f}", f"{c:.3f}"]
        for n, h, p, c in zip(
            solution.names, solution.hands, solution.push, solution.call, strict=True
        )
    ]
    table = render.text_table(
        ("class", "hands", "push", "call"),
        rows,
        title="push (small blind) and call (big blind) probability by class",
        justify=("left", "right", "right", "right"),
    )
    emit("\n".join(lines))
    render.console().print(table)


def _check_sampling(game: Any, target_se: float) -> None:
    """Refuse a sampled class matrix estimated to take past the day's limit (a deck
    small enough to be counted exactly is never sampled)."""
    from cardlab import budget
    from cardlab.solve.pushfold_matrix import EXACT_BUDGET, exact_work, sampled_seconds

    if exact_work(game) <= EXACT_BUDGET:
        return
    budget.check(
        f"a push/fold class matrix to a standard error of {target_se:g}",
        sampled_seconds(game, target_se),
        "ask for a larger --se (the default is 0.01), or run it on a Dask cluster (--scheduler)",
    )


def _matrix_text(matrix: Any) -> str:
    if matrix.exact:
        return "equities exact"
    if matrix.shipped:
        return f"equities as shipped (sampled, standard error under {matrix.se:.4f})"
    return (
        f"equities sampled (standard error at most {matrix.target_se:g}, "
        f"largest observed {matrix.se:.4f})"
    )


def _ante_text(ante: float) -> str:
    return f", ante {ante:g}" if ante else ""


from cardlab.cli.solve_postflop import postflop  # noqa: E402  (registered below)

solve.add_command(postflop)

from cardlab.cli.solve_flops import flops  # noqa: E402  (registered below)

solve.add_command(flops)
