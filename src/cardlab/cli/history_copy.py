"""``cardlab history copy SRC DST``: move a hand store between SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import click

from cardlab._paths import check_name
from cardlab.cli._common import emit, emit_json, format_option, progress_bar
from cardlab.errors import CardlabError
from cardlab.store import Store
from cardlab.store.copy import copy_store
from cardlab.store.postgres import is_url

WHERE = "a file path or a postgresql://user@host/db URL"


@click.command(name="copy")
@click.argument("source", metavar="SRC")
@click.argument("target", metavar="DST")
@format_option("text", "json")
def copy(source: str, target: str, fmt: str) -> None:
    """Copy the hand store SRC into DST (each a file or a postgresql:// URL): every hand,
    table and arena run with its ids. DST is made if new; run it again after an
    interruption to copy the rest. A DST holding other hands is refused untouched."""
    for name, value in (("SRC", source), ("DST", target)):
        if not is_url(value):
            check_name(value, name)
    if not is_url(source) and not Path(source).is_file():
        raise CardlabError(f"no hand store to copy at {source!r} (SRC is {WHERE})")
    with Store.open(source, read_only=True) as src, Store.open(target) as dst:
        with progress_bar("copying") as progress:
            report = copy_store(src, dst, progress=progress)
        src_label, dst_label = src.location or source, dst.location or target
    if fmt == "json":
        emit_json(
            {
                "source": src_label,
                "target": dst_label,
                "copied": report.copied,
                "already_there": report.present,
            }
        )
        return
    hands, present = report.copied["hands"], report.present["hands"]
    others = sum(report.copied.values()) - hands - report.copied["seats"]
    emit(
        f"copied {hands:,} hand(s) and {others:,} other row(s) (tables, arena runs, "
        f"ledger...) from {src_label} to {dst_label}"
        + (f"; {present:,} hand(s) were there already" if present else "")
    )
