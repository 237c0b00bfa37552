"""``cardlab solve``: equilibrium strategies of small poker games (CFR+)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from cardlab import render
from cardlab.cli._common import emit, emit_json, format_option, output_path, progress_bar

ACTION_COLUMNS = ("fold", "check", "call", "bet", "raise")


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
    type=float,
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
    from cardlab.solve import get_game
    from cardlab.solve import solve as run

    if out is not None:
        output_path(out)
    game = get_game(game_name, deck=deck)
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
    emit("\n".join(lines))
    console.print(table)
