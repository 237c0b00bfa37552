"""``cardlab openseven``: play Open Seven, solve deals, and print the exact odds."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from math import factorial
from pathlib import Path
from typing import Any, TypeVar

import click

from cardlab import render
from cardlab.cli._common import SEED, emit, emit_json, format_option, output_path, progress_bar
from cardlab.errors import CardlabError
from cardlab.openseven import analysis, models, solver
from cardlab.openseven.game import (
    Game,
    OpenSevenError,
    State,
    check_cards,
    format_arrangement,
    parse_arrangement,
    parse_move,
)
from cardlab.openseven.models import Chances, Model

CONVENTIONS = (
    "solutions: winning call strings (start, then left/right; when both calls name the "
    "middle card they count twice). lines: winning orders of the cards turned."
)
MODEL_LABELS = {
    Model.SIGHTED_RANDOM: "sighted random",
    Model.OPTIMAL: "optimal",
    Model.BLIND: "blind caller",
    Model.PERFECT_INFORMATION: "perfect information",
}


F = TypeVar("F", bound=Callable[..., Any])


class ModelType(click.ParamType):  # type: ignore[type-arg]
    """A player model name; unknown names are one-line errors (exit code 2)."""

    name = "model"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Model:
        return Model.parse(value)

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + "|".join(m.value for m in Model) + "]"


def _cards_option(default: int = 7) -> Callable[[F], F]:
    return click.option(
        "--cards", "-n", type=int, default=default, show_default=True, help="Number of cards N."
    )


def _show(renderable: Any) -> None:
    con = render.console()
    with con.capture() as captured:
        con.print(renderable)
    emit("\n".join(line.rstrip() for line in captured.get().splitlines()))


def _chance(value: Fraction) -> str:
    shown = (
        render.percent(value)
        if value == 0 or value >= Fraction(1, 10**4)
        else (f"{float(value) * 100:.4g}%")
    )
    return f"{render.fraction_str(value)} ({shown})"


def _ranges(positions: Sequence[int]) -> str:
    """[1, 2, 3, 5, 6, 7] -> "1-3, 5-7"."""
    parts: list[str] = []
    run: list[int] = []
    for p in sorted(positions):
        if run and p == run[-1] + 1:
            run.append(p)
            continue
        if run:
            parts.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [p]
    if run:
        parts.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(parts)


@click.group()
def openseven() -> None:
    """Open Seven (Open-N): play it, solve rows, exact odds.

    Rules: N cards face down in a row; turn any one up; a card of value n lets you turn
    the n-th card from the left or from the right; win by turning them all.
    """


# ----------------------------------------------------------------------------- play


def _board(state: State) -> str:
    n = state.game.cards
    width = max(3, len(str(n)) + 2)
    heads = "".join(str(p).center(width + 1) for p in range(1, n + 1))
    faces = "".join(
        ("[" + ("?" if v is None else str(v)) + "]").center(width + 1) for v in state.view().faces
    )
    return f"position {heads}".rstrip() + "\n" + f" card    {faces}".rstrip()


def _prompt_text(state: State, show_hints: bool) -> str:
    n = state.game.cards
    lines = []
    if not state.turned:
        lines.append(f"Turn any card up: type a position 1..{n}.")
    else:
        left, right = state.game.named(state.last or 0)
        targets = state.targets()
        if left == right:
            lines.append(
                f"You turned {state.last}: left and right both name the middle card {left}."
            )
        else:
            options = " or ".join(f"{side} (position {p})" for side, p in targets.items())
            lines.append(f"You turned {state.last}: call {options}.")
    if show_hints:
        chance = models.hints(state)
        by_value: dict[Fraction, list[str]] = {}
        for move, value in chance.items():
            by_value.setdefault(value, []).append(str(move))
        for value, moves in sorted(by_value.items(), reverse=True):
            named = _ranges([int(m) for m in moves]) if not state.turned else ", ".join(moves)
            lines.append(f"  hint: {named}: {_chance(value)} to win with optimal play")
    return "\n".join(lines)


@openseven.command()
@_cards_option()
@click.option("--seed", type=SEED, default=None, help="Seed for the deal (same seed, same deal).")
@click.option("--arrangement", default=None, help='Play this row instead, e.g. "2 3 1 5 7 4 6".')
@click.option("--hints", "show_hints", is_flag=True, help="Show each option's exact chance.")
@click.option("--moves", default=None, help='Play these moves and stop, e.g. "4 left right".')
@format_option("text", "json")
def play(
    cards: int,
    seed: int | None,
    arrangement: str | None,
    show_hints: bool,
    moves: str | None,
    fmt: str,
) -> None:
    """Play in the terminal.

    Type a start position, then left or right (l/r); q quits. --hints shows the exact
    winning chance of each option under optimal play.
    """
    if arrangement is not None:
        values = parse_arrangement(arrangement)
        state = Game(len(values)).new(values)
    else:
        state = Game(check_cards(cards, high=99, what="play")).deal(seed)
    text = fmt == "text"
    played: list[str] = []
    scripted = moves.split() if moves is not None else None
    while not state.is_over:
        if text:
            emit("")
            emit(_board(state))
            emit(_prompt_text(state, show_hints))
        if scripted is not None:
            if not scripted:
                break
            state = state.apply(parse_move(scripted.pop(0)))  # illegal: exit code 2
            played.append(str(state.turned[-1]))
            continue
        answer = click.prompt("move", default="", show_default=False, prompt_suffix="> ")
        if answer.strip().lower() in ("q", "quit"):
            break
        try:
            state = state.apply(parse_move(answer))
        except OpenSevenError as exc:
            emit(f"not a legal move: {exc}")
            continue
        played.append(answer.strip().lower())
    if scripted:
        state.apply(parse_move(scripted[0]))  # the game is over: says so, exit code 2
    if fmt == "json":
        emit_json(
            {
                "cards": state.game.cards,
                "arrangement": list(state.arrangement),
                "turned": list(state.turned),
                "status": state.status,
            }
        )
        return
    emit(_board(state))
    verdict = {"won": "You won!", "lost": "You lost: both named cards are face up."}
    emit(verdict.get(state.status, "Game stopped."))
    emit(f"The row was: {format_arrangement(state.arrangement)}")


# ---------------------------------------------------------------------------- solve


@openseven.command()
@click.argument("arrangement")
@click.option(
    "--limit",
    type=click.IntRange(0, 10_000),
    default=60,
    show_default=True,
    help="Most winning lines to list (0 for none).",
)
@click.option("--with-lines", is_flag=True, help="Also list the lines in JSON output.")
@format_option("text", "json", "csv")
def solve(arrangement: str, limit: int, with_lines: bool, fmt: str) -> None:
    """Solutions and winning lines of one row.

    ARRANGEMENT is the values left to right, e.g. "2 3 1 5 7 4 6" (at most 1000 cards).
    Only the first --limit winning lines are listed; the counts are exact.
    """
    with progress_bar("counting lines") as progress:
        solved = solver.solve(arrangement, progress)
    values = solved.arrangement
    if fmt == "json":
        record: dict[str, Any] = {
            "arrangement": list(values),
            "solutions": solved.solutions,
            "lines": solved.lines,
            "per_start": [
                {"position": s.position, "solutions": s.solutions, "lines": s.lines}
                for s in solved.per_start
            ],
        }
        if with_lines:
            record["winning_lines"] = [list(line) for line in _first(values, limit)]
        emit_json(record)
        return
    rows = [(s.position, s.solutions, s.lines) for s in solved.per_start]
    if fmt == "csv":
        emit(render.to_csv(["position", "solutions", "lines"], rows))
        return
    title = f"Open-{len(values)} row {format_arrangement(values)}"
    _show(render.text_table(["start", "solutions", "lines"], rows, title=title))
    emit(f"total: {solved.solutions} solutions, {solved.lines} winning lines")
    emit(CONVENTIONS)
    if solved.lines:
        emit("winning lines (positions turned; calls):")
        for line in _first(values, limit):
            order = " ".join(map(str, line))
            emit(f"  {order:<{3 * len(values)}}  {' '.join(solver.calls(values, line))}")
        if solved.lines > limit:
            emit(f"  ... and {solved.lines - limit:,} more, not listed (--limit {limit})")


def _first(values: tuple[int, ...], limit: int) -> list[tuple[int, ...]]:
    found: list[tuple[int, ...]] = []
    for line in solver.winning_lines(values):
        if len(found) >= limit:
            break
        found.append(line)
    return found


# ---------------------------------------------------------------------------- table


@openseven.command()
@_cards_option()
@format_option("text", "json", "csv")
def table(cards: int, fmt: str) -> None:
    """Arrangements by number of solutions (exact, N <= 14)."""
    with progress_bar(f"Open-{cards} tables") as progress:
        dist = analysis.distribution(cards, progress)
    if fmt == "json":
        emit_json(
            {
                "cards": cards,
                "arrangements": dist.arrangements,
                "winnable": dist.winnable,
                "distribution": [{"solutions": s, "arrangements": a} for s, a in dist.by_solutions],
            }
        )
        return
    if fmt == "csv":
        emit(render.to_csv(["solutions", "arrangements"], dist.by_solutions))
        return
    rows = [(s, a, render.percent(Fraction(a, dist.arrangements), 3)) for s, a in dist.by_solutions]
    title = f"Open-{cards} by solutions"
    _show(render.text_table(["solutions", "arrangements", "share"], rows, title=title))
    share = Fraction(dist.winnable, dist.arrangements)
    emit(
        f"winnable: {dist.winnable} of {dist.arrangements} arrangements ({_chance(share)}); "
        f"lost before the first card: {dist.lost_at_once}"
    )
    emit(CONVENTIONS)


# ----------------------------------------------------------------------------- odds


def _odds_json(cards: int, found: dict[Model, Chances]) -> dict[str, Any]:
    return {
        "cards": cards,
        "models": {
            model.value: {"per_start": list(c.per_start), "overall": c.overall}
            for model, c in found.items()
        },
    }


@openseven.command()
@_cards_option()
@format_option("text", "json", "csv")
def odds(cards: int, fmt: str) -> None:
    """Exact winning chances of every model (N <= 60)."""
    found = models.odds(cards)
    if fmt == "json":
        emit_json(_odds_json(cards, found))
        return
    if fmt == "csv":
        table_rows = [
            (model.value, start, chance, render.percent(chance))
            for model, c in found.items()
            for start, chance in [*enumerate(c.per_start, start=1), ("overall", c.overall)]
        ]
        emit(render.to_csv(["model", "start", "chance", "percent"], table_rows))
        return
    groups: dict[tuple[Fraction, ...], list[int]] = {}
    for p in range(1, cards + 1):
        groups.setdefault(tuple(c.per_start[p - 1] for c in found.values()), []).append(p)
    middle = Game(cards).middle
    rows: list[list[str]] = []
    for key, positions in groups.items():
        label = _ranges(positions) + (" (middle)" if positions == [middle] else "")
        rows.append([f"start {label}", *(_chance(v) for v in key)])
    rows.append(["overall", *(_chance(c.overall) for c in found.values())])
    header = ["", *(MODEL_LABELS[m] for m in found)]
    _show(render.text_table(header, rows, title=f"Open-{cards}: exact winning chances"))


# --------------------------------------------------------------------------- export


@openseven.command()
@_cards_option()
@click.option(
    "--out",
    "out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The CSV file to write (N = 11 makes about 4 GB).",
)
@format_option("text", "json", help="How to report what was written: a text line or JSON.")
def export(cards: int, out: Path, fmt: str) -> None:
    """One CSV row per arrangement with its counts (N <= 11), written to --out."""
    output_path(out)
    chunks = analysis.export_csv(cards)
    first = next(chunks)  # checks N before the file is created
    rows = -1
    total = factorial(cards)
    try:
        with out.open("wb") as handle, progress_bar(f"Open-{cards} export") as progress:
            for chunk in _chain(first, chunks):
                rows += chunk.count(b"\n")
                handle.write(chunk)
                progress(rows, total)
    except OSError as exc:
        out.unlink(missing_ok=True)
        raise CardlabError(f"cannot write {str(out)!r}: {exc.strerror}") from None
    except KeyboardInterrupt:
        out.unlink(missing_ok=True)  # no half-written file left behind
        raise
    if fmt == "json":
        emit_json({"cards": cards, "rows": rows, "out": str(out)})
    else:
        emit(f"wrote {rows} arrangements of Open-{cards} to {out}")


def _chain(first: bytes, rest: Iterable[bytes]) -> Iterable[bytes]:
    yield first
    yield from rest


# ------------------------------------------------------------------------- simulate


@openseven.command()
@_cards_option()
@click.option("--games", type=int, default=10_000, show_default=True, help="Random deals to play.")
@click.option("--seed", type=SEED, default=None, help="Seed (same seed, same result).")
@click.option(
    "--model",
    type=ModelType(),
    default="sighted_random",
    show_default=True,
    help="How the player chooses (see `cardlab openseven odds`).",
)
@format_option("text", "json")
def simulate(cards: int, games: int, seed: int | None, model: Model, fmt: str) -> None:
    """Monte Carlo play, beside the exact chance."""
    from rich.console import Console
    from rich.progress import Progress

    analysis.check_simulation(cards, games)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    # drawn at a terminal only: in a pipe rich would leave an empty line on stderr
    progress = Progress(
        console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty()
    )
    with progress:
        task = progress.add_task(f"{model.value}, N={cards}", total=games)
        result = analysis.simulate(
            cards, games, model, seed=seed, progress=lambda k: progress.advance(task, k)
        )
    if fmt == "json":
        emit_json(
            {
                "cards": cards,
                "model": model.value,
                "games": games,
                "seed": seed,
                "wins": result.wins,
                "estimate": result.estimate,
                "standard_error": result.standard_error,
                "exact": result.exact,
            }
        )
        return
    emit(
        f"{MODEL_LABELS[model]}, Open-{cards}, {games} games (seed {seed}): "
        f"{result.estimate * 100:.4f}% ± {result.standard_error * 100:.4f}% "
        f"(exact {_chance(result.exact)})"
    )


# ---------------------------------------------------------------------------- sweep

PLOT_SUFFIXES = (".png", ".svg", ".pdf", ".jpg", ".jpeg", ".webp", ".eps", ".ps", ".tif", ".tiff")


@openseven.command()
@click.option(
    "--max-cards",
    type=int,
    default=13,
    show_default=True,
    help="Sweep N = 1..M, this M (at most 60).",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=f"Also draw the chances to this image file ({', '.join(PLOT_SUFFIXES)}; "
    "needs matplotlib).",
)
@format_option("text", "json", "csv")
def sweep(max_cards: int, plot: Path | None, fmt: str) -> None:
    """Counts and chances for N = 1..M, as a table and a plot."""
    if plot is not None:  # before the work: a bad path fails at once
        output_path(plot, suffixes=PLOT_SUFFIXES)
        if importlib.util.find_spec("matplotlib") is None:
            raise CardlabError("--plot needs matplotlib: pip install matplotlib")
    with progress_bar(f"Open-1..{max_cards}") as progress:
        rows = analysis.sweep(max_cards, progress)
    models = list(Model)
    header = ["cards", "arrangements", "winnable", "mean_solutions", "mean_lines"]
    header += [m.value for m in models]
    data = [
        [r.cards, r.arrangements, r.winnable, r.mean_solutions, r.mean_lines]
        + [r.overall[m] for m in models]
        for r in rows
    ]
    if plot is not None:
        _plot(rows, plot)
    if fmt == "json":
        emit_json(
            {"max_cards": max_cards, "rows": [dict(zip(header, d, strict=True)) for d in data]}
        )
    elif fmt == "csv":
        emit(render.to_csv(header, data))
    else:
        shown = [
            [
                r.cards,
                r.arrangements,
                r.winnable,
                f"{float(r.mean_solutions):.4g}",
                *(render.percent(r.overall[m], 3) for m in models),
            ]
            for r in rows
        ]
        labels = ["N", "arrangements", "winnable", "mean solutions"]
        labels += [MODEL_LABELS[m] for m in models]
        _show(render.text_table(labels, shown, title="Open-N, overall chances (start at random)"))
        if plot is not None:
            emit(f"plot written to {plot}")


def _plot(rows: Sequence[Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    xs = [r.cards for r in rows]
    for model in Model:
        ax.plot(xs, [float(r.overall[model]) for r in rows], marker="o", label=MODEL_LABELS[model])
    ax.set_yscale("log")
    ax.set_xlabel("cards N")
    ax.set_ylabel("chance to win (start at random)")
    ax.set_title("Open-N: exact winning chances")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=120)
    except OSError as exc:
        raise CardlabError(f"cannot write {str(path)!r}: {exc.strerror}") from None
    finally:
        plt.close(fig)
