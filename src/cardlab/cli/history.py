"""``cardlab history``: the hands kept in the hand store (SQLite)."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from cardlab import render
from cardlab.cli._common import FiniteFloat, emit, emit_json, format_option, output_path
from cardlab.cli._store_options import db_option, open_store
from cardlab.cli.replay import print_replay, replay_summary
from cardlab.errors import CardlabError, HistoryError
from cardlab.store import HandRecord, Store
from cardlab.table import phh
from cardlab.table.history import replay
from cardlab.table.phh_import import ImportReport, import_files, phh_files
from cardlab.table.sites import SITES, stars_text


def _history(r: HandRecord, store: Store) -> phh.HandHistory:
    """A stored hand's PHH, a bad one named by its id and the store."""
    try:
        return phh.loads(r.phh)
    except HistoryError as exc:
        raise HistoryError(f"hand {r.id} in the hand store {store.location!r}: {exc}") from None


# the history's starting stacks, as its PHH text writes them (one line, or an array
# written over several)
_STARTING = re.compile(r"^starting_stacks\s*=\s*\[([^\]]*)\]", re.MULTILINE)


def _scale(r: HandRecord) -> int:
    """How many of the store's units make one chip of the hand's own history: the
    store keeps a history with cents (``0.50``) in whole units of a cent (the engine's
    integers), or finer where a split pot needed it. Read off the stacks, stored and as
    the PHH writes them; 1 where no stack tells (an ``inf`` stack, none above 0)."""
    found = _STARTING.search(r.phh)
    written = found.group(1).split(",") if found else []
    for text, stored in zip(written, r.starting_stacks, strict=False):
        try:
            amount = Decimal(text.strip())
        except InvalidOperation:
            continue
        if amount.is_finite() and amount > 0:
            ratio = Decimal(stored) / amount
            if ratio == ratio.to_integral_value():
                return int(ratio)
    return 1


def _chips(units: int, scale: int) -> int | float:
    """An amount in the history's chips, for JSON and CSV: whole, or a float."""
    value = Fraction(units, scale)
    return value.numerator if value.denominator == 1 else round(float(value), 6)


def _chips_text(units: int, scale: int) -> str:
    """A net result as the history writes amounts: +150, -0.50, 0."""
    if not units:
        return "0"
    if scale == 1:
        return f"{units:+}"
    places = len(str(scale)) - 1 if str(scale).strip("0") == "1" else 4
    return f"{float(Fraction(units, scale)):+.{places}f}"


def _row(r: HandRecord) -> dict[str, Any]:
    scale = _scale(r)
    return {
        "id": r.id,
        "played_at": r.played_at.isoformat(timespec="seconds"),
        "game": r.game,
        "variant": r.variant,
        "source": r.source,
        "players": list(r.players),
        # in the history's chips (the store keeps whole units of 1/units_per_chip)
        "starting_stacks": [_chips(v, scale) for v in r.starting_stacks],
        "finishing_stacks": [_chips(v, scale) for v in r.finishing_stacks],
        "winnings": [_chips(w, scale) for w in r.winnings],
        "units_per_chip": scale,
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
    with open_store(ctx, db, read_only=True) as store:
        records = store.hands(game=game, source=source, player=player, limit=limit)
        rows = [_row(r) for r in records]
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
            " ".join(_chips_text(w, r["units_per_chip"]) for w in record.winnings),
            r["decided_by"] or "",
        )
        for record, r in zip(records, rows, strict=True)
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
    with open_store(ctx, db, read_only=True) as store:
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
    default=None,
    type=click.Path(dir_okay=False),
    help="The file to write: .phhs for many hands (.phh for one).",
)
@click.option(
    "--pokerstars",
    "stars",
    default=None,
    type=click.Path(dir_okay=False),
    help="Write PokerStars-style text to this file instead (Hold'em and Omaha hands).",
)
@click.option("--game", "-g", default=None, help="Only hands of this game.")
@click.option("--source", default=None, help="Only hands from play, arena, web or import.")
@db_option
@click.pass_context
def export(
    ctx: click.Context,
    out: str | None,
    stars: str | None,
    game: str | None,
    source: str | None,
    db: str | None,
) -> None:
    """Write stored hands to a PHH file (one hand to a .phh, any number to a .phhs), or
    with --pokerstars as PokerStars-style text for tools that read only that."""
    if (out is None) == (stars is None):
        raise CardlabError("name the file to write: --phh FILE or --pokerstars FILE (one)")
    if stars is not None:
        _export_pokerstars(ctx, stars, game, source, db)
        return
    assert out is not None
    target = output_path(Path(out))  # a FIFO or a device is refused: writing one blocks
    with open_store(ctx, db, read_only=True) as store:
        count = store.count_hands(game=game, source=source)
        if not count:
            raise CardlabError("no stored hands match: nothing to export")
        if count > 1 and target.suffix.lower() != ".phhs":
            raise CardlabError(
                f"{count:,} hands match, and a .phh file holds one hand: "
                f"name the file .phhs (e.g. {target.with_suffix('.phhs').name!r})"
            )
        try:
            with target.open("w", encoding="utf-8") as handle:
                written = _write_hands(handle, store, game, source, single=count == 1)
        except OSError as exc:
            raise CardlabError(f"cannot write {out!r}: {exc.strerror}") from None
    emit(f"wrote {'1 hand' if written == 1 else f'{written:,} hands'} to {out}")


def _export_pokerstars(
    ctx: click.Context, out: str, game: str | None, source: str | None, db: str | None
) -> None:
    """Every matching stored hand as PokerStars text, oldest first; a hand PokerStars'
    text cannot say (stud, draw, another deck) is skipped and counted."""
    target = output_path(Path(out))
    written = skipped = 0
    with open_store(ctx, db, read_only=True) as store:
        if not store.count_hands(game=game, source=source):
            raise CardlabError("no stored hands match: nothing to export")
        try:
            with target.open("w", encoding="utf-8") as handle:
                for r in _oldest_first(store, game, source):
                    try:
                        text = stars_text.dumps(replay(_history(r, store)), hand_id=r.id or 0)
                    except HistoryError:
                        skipped += 1
                        continue
                    handle.write(("\n\n" if written else "") + text)
                    written += 1
        except OSError as exc:
            raise CardlabError(f"cannot write {out!r}: {exc.strerror}") from None
    hands = "1 hand" if written == 1 else f"{written:,} hands"
    more = f" ({skipped:,} not Hold'em or Omaha: not written)" if skipped else ""
    emit(f"wrote {hands} to {out} as PokerStars text{more}")


def _write_hands(
    handle: Any, store: Store, game: str | None, source: str | None, *, single: bool
) -> int:
    """Write the hands oldest first, each as stored (checked readable), ``[1]``,
    ``[2]``... tables unless ``single``."""
    records = list(store.iter_hands(game=game, source=source)) if single else None
    written = 0
    for r in reversed(records) if records is not None else _oldest_first(store, game, source):
        _history(r, store)  # a damaged row is named rather than written
        text = r.phh if r.phh.endswith("\n") else r.phh + "\n"
        if not single:
            text = ("\n" if written else "") + f"[{written + 1}]\n{text}"
        handle.write(text)
        written += 1
    return written


def _oldest_first(store: Store, game: str | None, source: str | None) -> Any:
    ids = [r.id for r in store.iter_hands(game=game, source=source) if r.id is not None]
    for hand_id in reversed(ids):
        yield store.hand(hand_id)


@history.command(name="import")
@click.argument("path", type=click.Path())
@click.option(
    "--batch",
    type=click.IntRange(1, 100_000),
    default=2000,
    show_default=True,
    help="Hands stored per transaction.",
)
@click.option(
    "--site",
    type=click.Choice(sorted(SITES)),
    default=None,
    help="The site whose hand histories PATH holds (default: recognised from each file).",
)
@click.option(
    "--jobs",
    type=click.IntRange(1, 256),
    default=None,
    help="Processes reading and replaying a big site file's hands (default: the "
    "machine's cores; 1: all in this process).",
)
@format_option("text", "json")
@db_option
@click.pass_context
def import_hands(
    ctx: click.Context,
    path: str,
    batch: int,
    site: str | None,
    jobs: int | None,
    fmt: str,
    db: str | None,
) -> None:
    """Import the hands of a hand-history file, or of every one under a folder: PHH
    (.phh/.phhs) and the sites' own text (PokerStars, GGPoker, PokerNow's CSV log),
    each site's hand checked against the site's figures and stored once however many
    exports hold it.

    Each hand is replayed on the engine and stored; a hand that cannot be read or
    replayed is skipped and listed, a hand already in the store is recognised and
    skipped (so running an interrupted import again continues it), and a recorded
    result that differs from the replay is reported. Exit code 1 when some hands
    were skipped as bad."""
    files = phh_files(path)
    if not files:
        raise CardlabError(f"no .phh or .phhs file, nor a site's hand history, under {path!r}")
    with open_store(ctx, db, read_only=False) as store, _import_progress(files) as on_hand:
        folder = Path(path).is_dir()  # a file that cannot be read: skipped in a folder
        report = import_files(
            store,
            files,
            batch=batch,
            on_hand=on_hand,
            skip_bad_files=folder,
            site=site,
            jobs=jobs or len(os.sched_getaffinity(0)),
        )
        where = store.location  # a file, or a PostgreSQL URL without its password
    problems = report.bad
    if fmt == "json":
        emit_json(
            {
                "store": str(where),
                "files": report.files,
                "hands": report.hands,
                "imported": report.stored,
                "already_stored": report.already,
                "bad": [
                    {"file": p.file, "hand": p.hand, "line": p.line, "error": p.error}
                    for p in problems
                ],
                "mismatches": [
                    {
                        "file": p.file,
                        "hand": p.hand,
                        "line": p.line,
                        "differences": list(p.mismatches),
                    }
                    for p in report.mismatched
                ],
            }
        )
    else:
        for p in report.mismatched:
            for line in p.mismatches:
                emit(f"{p.where}: the record differs from the replay: {line}")
        for p in problems:
            emit(f"skipped: {p.error}")
        emit(_import_summary(report, where))
    if problems:
        sys.exit(1)


def _import_summary(report: ImportReport, where: str | None) -> str:
    def hands(n: int) -> str:
        return "1 hand" if n == 1 else f"{n:,} hands"

    parts = [f"imported {hands(report.stored)} into {where}"]
    if report.first_id is not None:
        parts[0] += f" (ids {report.first_id}..{report.last_id})"
    if report.already:
        parts.append(f"{hands(report.already)} already in the store, skipped")
    if report.bad:
        parts.append(f"{hands(len(report.bad))} could not be imported (listed above)")
    if report.mismatched:
        n = len(report.mismatched)
        parts.append(f"{hands(n)} {'differs' if n == 1 else 'differ'} from the recorded result")
    return "; ".join(parts)


@contextmanager
def _import_progress(files: list[Path]) -> Iterator[Callable[[Path, Any], None] | None]:
    """A rich progress bar on stderr (a terminal only): bytes read of all files, hands
    per second, and the counts so far."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    sizes = {f: f.stat().st_size for f in files}
    bar = Progress(
        TextColumn("importing"),
        BarColumn(),
        DownloadColumn(),
        TextColumn("{task.fields[hands]:,} hands ({task.fields[rate]:,.0f}/s)"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task("import", total=sum(sizes.values()), hands=0, rate=0.0)
    done: dict[Path, int] = {}  # the files read, and the hands so far under None

    def on_hand(path: Path, entry: Any) -> None:
        if path not in done:
            done[path] = 0
        done[path] += 1
        hands = sum(done.values())
        if hands % 200 == 0:
            before = sum(sizes[f] for f in done if f != path)
            elapsed = bar.tasks[0].elapsed or 1e-9
            bar.update(task, completed=before + entry.end, hands=hands, rate=hands / elapsed)

    with bar:
        yield on_hand


def _add_stats() -> None:
    # the stats command lives in its own module (per player statistics, all-in EV)
    from cardlab.cli.history_stats import stats

    history.add_command(stats)


_add_stats()

from cardlab.cli.history_copy import copy as _copy  # noqa: E402  (its own module)

history.add_command(_copy)


@history.command()
@click.option(
    "--older-than",
    "days",
    type=FiniteFloat(0, 36500),
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
    import math

    if math.isnan(days):  # click's FloatRange lets nan through
        raise click.BadParameter(f"{days} is not a number of days", param_hint="'--older-than'")
    cutoff = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=days)
    with open_store(ctx, db, read_only=False) as store:
        hands, tables = store.prune(cutoff)
    if fmt == "json":
        emit_json({"hands_deleted": hands, "tables_deleted": tables, "before": cutoff.isoformat()})
    else:
        emit(f"deleted {hands:,} hand(s) and {tables:,} closed table(s) older than {days:g} days")
