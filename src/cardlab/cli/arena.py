"""``cardlab arena``: bots against bots, results in big blinds per 100 hands."""

from __future__ import annotations

from contextlib import ExitStack

import click
from rich.console import Console
from rich.table import Table

from cardlab import _serial_first, render
from cardlab.bots.arena import ArenaConfig, ArenaResult, run_arena
from cardlab.cli._cluster import scheduler_address
from cardlab.cli._common import (
    deck_option,
    emit_json,
    format_option,
    game_key,
    game_option,
    prepare_bots,
)
from cardlab.cli.equity import _progress
from cardlab.errors import GameError
from cardlab.store import Store
from cardlab.table.structure import MAX_SEATS, table_game_of
from cardlab.tasks import check_workers

SMALL_RUN = 400  # hands: fewer are played in this process, with no cluster to start


def parse_blinds(text: str) -> tuple[int, int]:
    """``"1/2"`` -> (1, 2): two positive whole numbers, the small blind not above the big."""
    parts = text.strip().split("/")
    if len(parts) != 2 or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise GameError(f"blinds are written SMALL/BIG with whole numbers, like 1/2, got {text!r}")
    small, big = (int(p) for p in parts)
    if small < 1 or big < 1 or big > 10**12:
        raise GameError(f"blinds must be positive whole numbers, got {text!r}")
    if small > big:
        raise GameError(f"the small blind must not exceed the big blind, got {text!r}")
    return small, big


def bot_names(text: str) -> tuple[str, ...]:
    names = tuple(n.strip().lower() for n in text.split(","))
    if not names or any(not n for n in names):
        raise GameError(f"bots are names separated by commas, like equity,station, got {text!r}")
    return names


def stack_value(text: str) -> int:
    t = text.strip()
    if not (t.isascii() and t.isdigit()) or int(t) < 1 or int(t) > 10**15:
        raise GameError(f"the stack must be a positive whole number of chips, got {text!r}")
    return int(t)


@click.command()
@game_option("fesca78-holdem")
@deck_option(None)
@click.option(
    "--bots", default="equity,station,random", show_default=True, help="Bot names, comma-separated."
)
@click.option(
    "--hands",
    "-n",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Hands to play (duplicate: rounded up to whole blocks).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0, max=2**63 - 1),
    default=0,
    show_default=True,
    help="Seed of the cards and the bots' choices.",
)
@click.option("--duplicate", is_flag=True, help="Replay each deal with the seats rotated.")
@click.option(
    "--seats", type=click.IntRange(2, MAX_SEATS), default=None, help="Seats (default: one a bot)."
)
@click.option("--stack", default="200", show_default=True, help="Starting stack of every hand.")
@click.option("--blinds", default="1/2", show_default=True, help="SMALL/BIG (Stud: bring-in/bet).")
@click.option(
    "--scheduler",
    default=None,
    callback=scheduler_address,
    help="Address of a Dask scheduler to run on (tcp://host:port).",
)
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Local worker processes.")
@click.option("--db", type=click.Path(dir_okay=False), default=None, help="The hand store file.")
@click.option("--no-store", is_flag=True, help="Do not keep the results in the store.")
@format_option("text", "json")
def arena(
    game_name: str,
    deck: str | None,
    bots: str,
    hands: int,
    seed: int,
    duplicate: bool,
    seats: int | None,
    stack: str,
    blinds: str,
    scheduler: str | None,
    workers: int | None,
    db: str | None,
    no_store: bool,
    fmt: str,
) -> None:
    """Play HANDS hands between bots and report big blinds won per 100 hands (95% CI)."""
    _serial_first.enable()  # a first run: serial twins while the parallel kernels compile
    from cardlab.solve.small_table import small_game_key

    small = small_game_key(game_name, deck)  # kuhn, leduc, leduc-fesca, a game file
    config = ArenaConfig(
        game=small or game_key(game_name, deck),
        bots=bot_names(bots),
        hands=hands,
        seed=seed,
        seats=seats,
        duplicate=duplicate,
        stack=stack_value(stack),
        blinds=parse_blinds(blinds),
    )
    check_workers(workers)
    # the store is opened (and checked) before the run, so that a bad file is said at once
    with ExitStack() as opened:
        store = None if no_store else opened.enter_context(Store.open(db))
        if workers is None:
            import os

            workers = 1 if hands < SMALL_RUN else (os.cpu_count() or 1)
        if small is not None:
            prepare_small_bots(config.game, config.bots)
        elif not (scheduler is None and workers == 1 and _interpreted(config)):
            prepare_bots(table_game_of(config.game)[0], config.bots)
        with _progress(fmt == "text", "hands", notice=False) as progress:  # prepare_bots said
            result = run_arena(config, workers=workers, scheduler=scheduler, progress=progress)
        if store is not None:
            store.add_arena_run(result.config.as_dict(), result.as_dict())
    if fmt == "json":
        emit_json(result.as_dict())
    else:
        _print(result)


# bots whose work an interpreted first run does quickly: the equity bot samples its
# equity (800 deals a decision), the others deal no showdown
_INTERPRETED_BOTS = frozenset({"equity", "station", "random"})
_DECISIONS = 4  # an equity bot's decisions a hand at most (one a street of Hold'em)


def _interpreted(config: ArenaConfig) -> bool:
    """On a first run after install, a small arena played in this process: when the
    bots' sampler is not in numba's cache, prepare it in the background and play with
    the kernels as plain Python, the same hands and decisions
    (:mod:`cardlab.poker.uncompiled`). True when so (said on stderr)."""
    from cardlab.bots.equity import EquityBot
    from cardlab.poker import uncompiled

    game = table_game_of(config.game)[0]
    if not set(config.bots) <= _INTERPRETED_BOTS:
        return False
    seats = config.table_seats
    equity_seats = sum(config.bots[i % len(config.bots)] == "equity" for i in range(seats))
    hands = -(-config.hands // seats) * seats  # duplicate: whole blocks
    showdowns = hands * equity_seats * _DECISIONS * EquityBot.samples * seats
    if not uncompiled.sampling_quick([game], showdowns):
        return False
    from cardlab import _prepare

    if not _prepare.answer_interpreted("bots", "bots"):
        return False
    click.echo(
        "cardlab: preparing the bots' equity kernels in the background (first run after "
        "install, these hands without them)...",
        err=True,
    )
    return True


def _print(result: ArenaResult) -> None:
    console = Console(highlight=False)
    d = result.as_dict()
    title = f"{d['game']}: {d['hands']} hands, {d['seats']} seats, seed {d['seed']}" + (
        ", duplicate" if d["duplicate"] else ""
    )
    table = Table(title=render.table_title(title))
    for col in ("bot", "bb/100", "95% CI", "showdowns"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for b in result.bots:
        lo, hi = b.ci95
        table.add_row(
            b.name, f"{b.bb_per_100:+.1f}", f"{lo:+.1f} .. {hi:+.1f}", f"{b.showdown_share:.1%}"
        )
    console.print(table)
    console.print(f"hands to showdown: {d['showdown_share']:.1%}")
    pots = sum(d["decided_by"].values())
    if pots:
        parts = ", ".join(f"{k} {v / pots:.1%}" for k, v in d["decided_by"].items())
        console.print(f"pots decided by: {parts}")
    console.print(f"CI: {d['ci_method']}")


def prepare_small_bots(game: str, bots: tuple[str, ...]) -> None:
    """Before the nash bot plays a small game: its CFR+ strategy, solved now or read from
    the cache (so no hand stalls and every worker reads it), and a line saying what it
    plays."""
    if "nash" not in bots:
        return
    from cardlab.solve.small_table import small_table_game
    from cardlab.solve.strategy import solved_strategy
    from cardlab.tasks import default_cache_dir

    table = small_table_game(game)
    strategy = solved_strategy(table.small, default_cache_dir())
    click.echo(
        f"cardlab: the nash bot plays the CFR+ equilibrium of {table.title} "
        f"({strategy.iterations} iterations, exploitability {strategy.exploitability_mbb:.3f} "
        f"mbb per hand, player 1's value {strategy.value:+.4f} chips per hand)",
        err=True,
    )
