"""``cardlab solve postflop``: how to play a Hold'em spot after the flop, on any deck."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from cardlab import render
from cardlab.cards import format_cards
from cardlab.cli._common import (
    FiniteFloat,
    compile_notice,
    emit,
    emit_json,
    format_option,
    output_path,
    progress_bar,
)
from cardlab.errors import GameError

F = TypeVar("F", bound=Callable[..., Any])
STREETS = ("flop", "turn", "river")
PLAYERS = ("oop", "ip")
PRESET_HELP = "see docs/postflop.md"


def _size_options(fn: F) -> F:
    """--bets/--raises, per street (--turn-bets) and per player and street
    (--oop-river-bets)."""
    for player in (*PLAYERS, None):
        for street in (*STREETS, None):
            for kind in ("raises", "bets"):
                parts = [x for x in (player, street, kind) if x]
                if len(parts) == 2 and player and not street:
                    continue  # --oop-bets is not an option: sizes are per street
                name = "--" + "-".join(parts)
                default = {"bets": "50%", "raises": "60%"}[kind] if len(parts) == 1 else None
                what = f"{kind[:-1]} sizes" + (
                    f" on the {street}" if street else " on every street"
                )
                who = f" for {player.upper()}" if player else " for both players"
                fn = click.option(
                    name,
                    "_".join(parts),
                    default=default,
                    show_default=default is not None,
                    metavar="SIZES",
                    help=f"{what.capitalize()}{who} (e.g. '52%, a'; '' for none).",
                )(fn)
    return fn


def spot_from(options: dict[str, Any], board: str | None = None) -> Any:
    """The Spot the options of :func:`spot_options` describe (``board``: the options' own
    when None)."""
    from cardlab.solve.postflop import Spot

    streets: dict[str, dict[str, str]] = {}
    players: dict[str, dict[str, dict[str, str]]] = {}
    for street in STREETS:
        for kind in ("bets", "raises"):
            if options[f"{street}_{kind}"] is not None:
                streets.setdefault(street, {})[kind] = options[f"{street}_{kind}"]
            for player in PLAYERS:
                value = options[f"{player}_{street}_{kind}"]
                if value is not None:
                    players.setdefault(player, {}).setdefault(street, {})[kind] = value
    return Spot(
        options["game_name"],
        options["board"] if board is None else board,
        options["oop"],
        options["ip"],
        options["pot"],
        options["stack"],
        bets=options["bets"],
        raises=options["raises"],
        streets=streets,
        players=players,
        turn_donk=options["turn_donk"],
        river_donk=options["river_donk"],
        add_allin=options["add_allin"],
        force_allin=options["force_allin"],
        merging=options["merging"],
        rake_rate=options["rake"],
        rake_cap=options["rake_cap"],
        isomorphism=options["isomorphism"],
    )


_SPOT_OPTIONS: list[Callable[[Any], Any]] = [
    click.option(
        "--game",
        "-g",
        "game_name",
        default="standard52-holdem",
        show_default=True,
        metavar="NAME",
        help="A Hold'em game of the registry (fesca78-holdem, ...).",
    ),
    click.option(
        "--oop",
        default=None,
        metavar="RANGE",
        help="OOP's range, e.g. 'AA:0.25,KQs+' (on other decks: classes or cards).",
    ),
    click.option("--ip", default=None, metavar="RANGE", help="IP's range."),
    click.option(
        "--pot", type=int, default=None, metavar="N", help="The pot when the spot begins."
    ),
    click.option("--stack", type=int, default=None, metavar="N", help="The effective stack."),
    _size_options,
    click.option(
        "--turn-donk",
        default=None,
        metavar="SIZES",
        help="OOP's donk sizes on the turn after calling the flop (default: its bets).",
    ),
    click.option("--river-donk", default=None, metavar="SIZES", help="Donk sizes on the river."),
    click.option(
        "--add-allin",
        type=FiniteFloat(),
        default=1.5,
        show_default=True,
        metavar="X",
        help="Also offer all in when it is at most X pots (0: never).",
    ),
    click.option(
        "--force-allin",
        type=FiniteFloat(),
        default=0.15,
        show_default=True,
        metavar="X",
        help="A bet leaving at most X pots behind after a call becomes all in (0: never).",
    ),
    click.option(
        "--merging",
        type=FiniteFloat(),
        default=0.1,
        show_default=True,
        metavar="X",
        help="PioSOLVER's merging of close sizes (0: never).",
    ),
    click.option(
        "--rake",
        type=FiniteFloat(),
        default=0.0,
        show_default=True,
        metavar="RATE",
        help="Rake, a fraction of the final pot.",
    ),
    click.option(
        "--rake-cap",
        type=FiniteFloat(),
        default=0.0,
        show_default=True,
        metavar="CHIPS",
        help="The most rake taken from one pot.",
    ),
    click.option(
        "--isomorphism/--no-isomorphism",
        default=True,
        show_default=True,
        help="Solve suit-mirrored cards once (off: every card on its own, e.g. to lock "
        "a strategy that differs between mirrored suits).",
    ),
]


def spot_options(fn: F) -> F:
    """Every option of a spot but its board: --game, the ranges, --pot, --stack, the
    sizes, donks, all in, merging, rake and --isomorphism (shared with ``solve flops``)."""
    for option in reversed(_SPOT_OPTIONS):
        fn = option(fn)
    return fn


def solving_options(each: str, threads_help: str) -> Callable[[F], F]:
    """--target, --iterations, --every and --threads: when a solve stops and how many
    threads it takes (``each``: " per flop" where there are many; shared with
    ``solve flops``)."""
    options = [
        click.option(
            "--target",
            type=FiniteFloat(),
            default=0.5,
            show_default=True,
            metavar="PCT",
            help=f"Stop at this exploitability{each}, in % of the pot.",
        ),
        click.option(
            "--iterations",
            "-n",
            type=click.IntRange(min=1),
            default=1000,
            show_default=True,
            help=f"The most DCFR iterations{each}.",
        ),
        click.option(
            "--every",
            type=click.IntRange(min=1),
            default=10,
            show_default=True,
            metavar="N",
            help="Measure the exploitability every N iterations.",
        ),
        click.option(
            "--threads",
            type=click.IntRange(min=1),
            default=None,
            metavar="N",
            help=threads_help,
        ),
    ]

    def decorate(fn: F) -> F:
        for option in reversed(options):
            fn = option(fn)
        return fn

    return decorate


@click.command("postflop")
@click.option(
    "--board",
    "-b",
    default=None,
    metavar="CARDS",
    help="The flop, turn or river board, e.g. 'Td9d6h Qc'.",
)
@spot_options
@solving_options("", "Threads (default: every core).")
@click.option(
    "--compress",
    is_flag=True,
    help="Keep regrets and strategy sums in 16 bits (about half the memory).",
)
@click.option(
    "--max-memory",
    type=FiniteFloat(),
    default=None,
    metavar="GB",
    help="Refuse a spot needing more memory (default: what the machine has).",
)
@click.option(
    "--node",
    "line",
    default=None,
    metavar="LINE",
    help="Show this node: actions and cards from the root, e.g. 'b94 c Kh'.",
)
@click.option("--hands", is_flag=True, help="List every hand at the node (strategy, EV, equity).")
@click.option(
    "--grid",
    "grid_png",
    default=None,
    metavar="FILE.png",
    help="Also draw the node's range grid coloured by action as a PNG.",
)
@click.option(
    "--csv",
    "csv_file",
    default=None,
    metavar="FILE.csv",
    help="Write every hand at the node (strategy, EV, equity) as CSV.",
)
@click.option(
    "--lock",
    "locks",
    multiple=True,
    metavar="LINE=ACTION:FREQ,...",
    help="Lock a node's strategy before solving, e.g. 'k=k:0.5,b120:0.5'.",
)
@click.option(
    "--save",
    "save_file",
    default=None,
    metavar="FILE.npz",
    help="Save the solution (spot, strategy, regrets) to resume or browse later.",
)
@click.option(
    "--load",
    "load_file",
    default=None,
    metavar="FILE.npz",
    help="Load a saved solution instead of a spot; -n continues solving it.",
)
@format_option()
@click.option("--out", default=None, metavar="FILE.json", help="Also write the JSON result here.")
def postflop(**options: Any) -> None:
    """Solve a two-player Hold'em spot after the flop on any deck (discounted CFR): EVs,
    equities, exploitability, and each node's strategy per hand."""
    from cardlab.solve.postflop import PostflopSolution

    out = options["out"]
    for name, suffix in (
        ("out", ".json"),
        ("grid_png", ".png"),
        ("csv_file", ".csv"),
        ("save_file", ".npz"),
    ):
        if options[name] is not None:
            output_path(Path(options[name]), suffixes=(suffix,))
    max_memory = _max_memory(options["max_memory"])
    if options["load_file"] is not None:
        solution = PostflopSolution.load(options["load_file"], threads=options["threads"])
        spot = solution.spot
        if options["compress"] and not solution.game.compressed:
            raise GameError(f"--compress: {options['load_file']} was saved uncompressed")
    else:
        missing = [f"--{n}" for n in ("board", "oop", "ip", "pot", "stack") if options[n] is None]
        if missing:
            raise GameError(f"a spot needs {', '.join(missing)} (or --load FILE.npz)")
        spot = spot_from(options)
        from cardlab.solve.postflop import Solver
        from cardlab.solve.postflop.solution import check_line

        check_line(spot, options["line"] or "")  # told before anything is built or solved

        with compile_notice("postflop evaluator", 20):
            game = spot.game_arrays(max_memory=max_memory, compressed=options["compress"])
        solution = PostflopSolution(spot, Solver(game, threads=options["threads"]))
    for lock in options["locks"]:
        line, _, text = lock.partition("=")
        solution.lock(line.strip(), _lock_strategy(text, lock))
    if options["load_file"] is None or options["iterations"] != 1000 or options["locks"]:
        label = "DCFR"
        with compile_notice("postflop solver", 30), progress_bar(label) as bar:
            last: list[float] = []

            def progress(done: int, total: int, measured: float | None) -> None:
                if measured is not None:
                    last[:] = [measured]
                bar(done, total)

            solution.resume(
                options["iterations"],
                target=options["target"],
                every=options["every"],
                progress=progress,
            )
    if options["save_file"] is not None:
        solution.save(options["save_file"])
    node = solution.node(options["line"] or "")
    data = solution.as_dict()
    data["node"] = node.as_dict(hands=options["hands"] or options["fmt"] == "json")
    if out is not None:
        Path(out).write_text(
            json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
    if options["csv_file"] is not None:
        Path(options["csv_file"]).write_text(_csv(node), encoding="utf-8")
    if options["grid_png"] is not None:
        from cardlab.solve.postflop.grid import draw_grid

        draw_grid(node, options["grid_png"])
    if options["fmt"] == "json":
        emit_json(data)
        return
    _print(solution, node, data, hands=options["hands"])


def _max_memory(gb: float | None) -> int:
    import os

    if gb is not None:
        if not 0 < gb < 1e6:
            raise GameError(f"--max-memory is in GB, above 0, got {gb}")
        return int(gb * 2**30)
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES") * 0.9)
    except (ValueError, OSError):
        return 2**40


def _lock_strategy(text: str, whole: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for item in text.split(","):
        action, _, freq = item.partition(":")
        try:
            out[action.strip()] = float(freq)
        except ValueError:
            raise GameError(f"a lock is LINE=ACTION:FREQ,..., got {whole!r}") from None
    return out


def _csv(node: Any) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(["hand", "weight", *[f"strategy_{a}" for a in node.actions], "ev", "equity"])
    for row in node.hands():
        writer.writerow(
            [
                render.ascii_text(" ".join(map(str, row.cards))),
                f"{row.weight:.6g}",
                *[f"{x:.6f}" for x in row.strategy],
                f"{row.ev:.4f}",
                f"{row.equity:.6f}",
            ]
        )
    return buf.getvalue()


def _print(solution: Any, node: Any, data: dict[str, Any], *, hands: bool) -> None:
    from cardlab.solve.postflop.grid import text_grid

    spot = solution.spot
    game = solution.game
    ev, equity = data["ev"], data["equity"]
    e = data["exploitability"]
    lines = [
        f"{game.game.name}, board {format_cards(game.board)}: pot {spot.pot}, "
        f"stack {spot.stack}; {len(game.hands[0]):,} OOP and {len(game.hands[1]):,} IP hands",
        f"DCFR: {solution.iterations} iterations in {solution.seconds:.1f} s, "
        f"{game.memory_bytes / 2**20:,.1f} MiB"
        + (" (stopped by Ctrl-C)" if solution.interrupted else ""),
        f"exploitability: {e['chips']:.3f} chips = {e['pot_percent']:.3f}% of the pot",
    ]
    emit("\n".join(lines))
    console = render.console()
    console.print(
        render.text_table(
            ("player", "EV (chips)", "equity"),
            [
                ["OOP", f"{ev['oop']:.3f}", f"{100 * equity['oop']:.3f}%"],
                ["IP", f"{ev['ip']:.3f}", f"{100 * equity['ip']:.3f}%"],
            ],
            title="at the root",
        )
    )
    nd = data["node"]
    where = nd["line"] or "the root"
    if nd["kind"] != "decision":
        emit(f"{where}: a {nd['kind']} node, board {nd['board']}, pot {nd['pot']}")
        return
    rows = [[a["name"], f"{100 * a['frequency']:.1f}%"] for a in nd["actions"]]
    console.print(
        render.text_table(
            ("action", "frequency"),
            rows,
            title=f"{nd['player'].upper()} at {where} (board {nd['board']}, pot {nd['pot']})",
        )
    )
    grid = text_grid(node)
    if grid is not None:
        console.print(grid)
    if hands:
        rows = [
            [
                format_cards(r.cards),
                f"{r.weight:.3f}",
                *[f"{100 * x:.1f}%" for x in r.strategy],
                f"{r.ev:.2f}",
                f"{100 * r.equity:.2f}%",
            ]
            for r in node.hands()
        ]
        console.print(
            render.text_table(
                ("hand", "weight", *node.actions, "EV", "equity"),
                rows,
                title=f"every {nd['player'].upper()} hand at {where}",
            )
        )
