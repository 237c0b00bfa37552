"""``cardlab history``: the hands kept in the hand store (SQLite)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from cardlab import render
from cardlab.cli._common import emit, emit_json, format_option, output_path
from cardlab.cli.replay import load_histories, print_replay, replay_summary
from cardlab.errors import CardlabError, HistoryError
from cardlab.store import HandRecord, Store
from cardlab.table import phh
from cardlab.table.history import imported, replay

F = TypeVar("F", bound=Callable[..., Any])

DB_HELP = "The hand store file (default: $CARDLAB_DB or cardlab.sqlite3 in your data folder)."


def db_option(fn: F) -> F:
    """``--db FILE``: taken before the subcommand (``history --db F list``) and after it
    (``history list --db F``), as ``play`` and ``arena`` take it."""
    return click.option("--db", type=click.Path(dir_okay=False), default=None, help=DB_HELP)(fn)


def _open(ctx: click.Context, db: str | None, *, read_only: bool) -> Store:
    """The store named by ``--db`` (given before or after the subcommand); the commands
    that only read open it read-only, so they never change the file."""
    before = ctx.obj.get("db") if ctx.obj else None
    if db is not None and before is not None and db != before:
        raise CardlabError(f"--db is given twice, {before!r} and {db!r}: give it once")
    return Store.open(db if db is not None else before, read_only=read_only)


def _history(r: HandRecord, store: Store) -> phh.HandHistory:
    """A stored hand's PHH, a bad one named by its id and the store."""
    try:
        return phh.load(r.phh)
    except HistoryError as exc:
        raise HistoryError(f"hand {r.id} in the hand store {str(store.path)!r}: {exc}") from None


def _row(r: HandRecord) -> dict[str, Any]:
    return {
        "id": r.id,
        "played_at": r.played_at.isoformat(timespec="seconds"),
        "game": r.game,
        "variant": r.variant,
        "source": r.source,
        "players": list(r.players),
        "starting_stacks": list(r.starting_stacks),
        "finishing_stacks": list(r.finishing_stacks),
        "winnings": list(r.winnings),
        "board": r.board,
        "showdown": r.showdown,
        "decided_by": r.decided_by,
    }


@click.group()
@db_option
@click.pass_context
def history(ctx: click.Context, db: str | None) -> None:
    """The played hands kept in the hand store: list, show, export, import, stats."""
    ctx.ensure_object(dict)
    ctx.obj["db"] = db


@history.command(name="list")
@click.option("--game", "-g", default=None, help="Only hands of this game (e.g. fesca78-holdem).")
@click.option("--source", default=None, help="Only hands from play, arena, web or import.")
@click.option("--player", default=None, help="Only hands this player name played.")
@click.option(
    "--limit",
    type=click.IntRange(1, 100_000),
    default=20,
    show_default=True,
    help="Most hands to list, newest first.",
)
@format_option("text", "json", "csv")
@db_option
@click.pass_context
def list_hands(
    ctx: click.Context,
    game: str | None,
    source: str | None,
    player: str | None,
    limit: int,
    fmt: str,
    db: str | None,
) -> None:
    """The newest stored hands."""
    with _open(ctx, db, read_only=True) as store:
        rows = [_row(r) for r in store.hands(game=game, source=source, player=player, limit=limit)]
        total = store.count_hands(game=game, source=source, player=player)
    if fmt == "json":
        emit_json({"total": total, "hands": rows})
        return
    header = ("id", "played at", "game", "players", "winnings", "decided by")
    table = [
        (
            r["id"],
            r["played_at"].replace("T", " ")[:19],
            r["game"],
            ", ".join(r["players"]),
            " ".join(f"{w:+}" if w else "0" for w in r["winnings"]),
            r["decided_by"] or "",
        )
        for r in rows
    ]
    if fmt == "csv":
        emit(render.to_csv(header, table))
        return
    render.console().print(
        render.text_table(
            header,
            table,
            title=f"{len(rows)} of {total} stored hands",
            justify=("right", "left", "left", "left", "left", "left"),
        )
    )


@history.command()
@click.argument("hand_id", type=click.IntRange(1, 2**63 - 1))
@format_option("text", "json", "phh")
@db_option
@click.pass_context
def show(ctx: click.Context, hand_id: int, fmt: str, db: str | None) -> None:
    """One stored hand, street by street (or its PHH text)."""
    with _open(ctx, db, read_only=True) as store:
        r = store.hand(hand_id)
    if fmt == "phh":
        emit(r.phh)
        return
    replayed = replay(_history(r, store), label=f"hand {hand_id}")
    if fmt == "json":
        emit_json(_row(r) | {"replay": replay_summary(replayed)})
        return
    print_replay(replayed, title=f"hand {hand_id} ({r.source}, {r.played_at:%Y-%m-%d %H:%M})")


@history.command()
@click.option(
    "--phh",
    "out",
    required=True,
    type=click.Path(dir_okay=False),
    help="The file to write: .phhs for many hands (.phh for one).",
)
@click.option("--game", "-g", default=None, help="Only hands of this game.")
@click.option("--source", default=None, help="Only hands from play, arena, web or import.")
@db_option
@click.pass_context
def export(
    ctx: click.Context, out: str, game: str | None, source: str | None, db: str | None
) -> None:
    """Write stored hands to a PHH file."""
    target = output_path(Path(out))  # a FIFO or a device is refused: writing one blocks
    with _open(ctx, db, read_only=True) as store:
        hands = [_history(r, store) for r in store.iter_hands(game=game, source=source)]
    if not hands:
        raise CardlabError("no stored hands match: nothing to export")
    text = (
        phh.dumps(hands[0]) if len(hands) == 1 and target.suffix == ".phh" else phh.dumps_all(hands)
    )
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CardlabError(f"cannot write {out!r}: {exc.strerror}") from None
    emit(f"wrote {len(hands)} hands to {out}")


@history.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False))
@db_option
@click.pass_context
def import_hands(ctx: click.Context, file: str, db: str | None) -> None:
    """Check every hand of a PHH FILE on the engine and store them (all or none)."""
    histories = load_histories(file)
    records = [imported(replay(h, label=f"hand {k + 1}")) for k, h in enumerate(histories)]
    with _open(ctx, db, read_only=False) as store:
        ids = store.add_hands(records)
    hands = "1 hand" if len(ids) == 1 else f"{len(ids)} hands"
    emit(f"imported {hands} into {store.path} (ids {ids[0]}..{ids[-1]})")


@history.command()
@click.option("--game", "-g", default=None, help="Only this game.")
@format_option("text", "json")
@db_option
@click.pass_context
def stats(ctx: click.Context, game: str | None, fmt: str, db: str | None) -> None:
    """Hands, showdown share and each player's net chips, per game."""
    with _open(ctx, db, read_only=True) as store:
        per_game = store.stats(game)
    if fmt == "json":
        emit_json(
            {
                g: {
                    "hands": s.hands,
                    "showdowns": s.showdowns,
                    "showdown_share": s.showdown_share,
                    "players": [
                        {"name": p.name, "hands": p.hands, "net": p.net} for p in s.players
                    ],
                }
                for g, s in per_game.items()
            }
        )
        return
    if not per_game:
        emit("no stored hands")
        return
    console = render.console()
    for g, s in per_game.items():
        rows = [(p.name, p.hands, f"{p.net:+}" if p.net else "0") for p in s.players]
        title = (
            f"{g}: {s.hands} hands, showdown in {s.showdowns} "
            f"({render.percent(s.showdown_share, 1)})"
        )
        console.print(
            render.text_table(
                ("player", "hands", "net chips"),
                rows,
                title=title,
                justify=("left", "right", "right"),
            )
        )


@history.command()
@click.option(
    "--older-than",
    "days",
    type=click.FloatRange(0, 36500),
    required=True,
    metavar="DAYS",
    help="Delete hands played, and tables closed, more than DAYS days ago.",
)
@format_option("text", "json")
@db_option
@click.pass_context
def prune(ctx: click.Context, days: float, fmt: str, db: str | None) -> None:
    """Delete old hands and closed tables (open tables and their hands in play stay)."""
    import datetime

    cutoff = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=days)
    with _open(ctx, db, read_only=False) as store:
        hands, tables = store.prune(cutoff)
    if fmt == "json":
        emit_json({"hands_deleted": hands, "tables_deleted": tables, "before": cutoff.isoformat()})
    else:
        emit(f"deleted {hands:,} hand(s) and {tables:,} closed table(s) older than {days:g} days")
