"""``cardlab verify``: check the fair dealing of every hand of a PHH file."""

from __future__ import annotations

import sys

import click

from cardlab import render
from cardlab.cli._common import emit, emit_json, format_option
from cardlab.cli.replay import load_histories
from cardlab.table.dealing import Verdict, verify_deal


@click.command(name="verify")
@click.argument("file", type=click.Path(dir_okay=False))
@format_option("text", "json", "csv")
def verify_command(file: str, fmt: str) -> None:
    """Check that every hand of a PHH FILE (.phh or .phhs) was dealt by the fair shuffle.

    Each hand's deck is derived again from its revealed server seed, its client seeds and
    its deal number; the seed must match the commitment shown before the hand, and every
    card dealt must come from that deck in order (docs/fair-dealing.md). Says per hand:
    verified, unrevealed (the seed is not revealed yet), failed (and the first wrong
    card), or not fair-dealt. Exits with 1 when a hand failed.
    """
    verdicts = []
    rows = []
    for k, history in enumerate(load_histories(file), 1):  # hand by hand: any size
        verdicts.append(verify_deal(history))
        rows.append(_row(k, history, verdicts[-1]))
    if fmt == "json":
        emit_json({"file": file, "hands": rows, "failed": sum(not v.ok for v in verdicts)})
    elif fmt == "csv":
        header = ("hand", "deal_number", "status", "practice", "detail")
        emit(render.to_csv(header, [[r[k] for k in header] for r in rows]))
    else:
        render.console().print(
            render.text_table(
                ["hand", "deal", "status", "detail"],
                [
                    [
                        str(r["hand"]),
                        "" if r["deal_number"] is None else str(r["deal_number"]),
                        f"{r['status']}{' (practice)' if r['practice'] else ''}",
                        r["detail"],
                    ]
                    for r in rows
                ],
                title=f"{file}: fair dealing of {len(rows)} hand(s)",
                justify=["right", "right", "left", "left"],
            )
        )
        counts: dict[str, int] = {}
        for v in verdicts:
            counts[v.status] = counts.get(v.status, 0) + 1
        emit(", ".join(f"{n} {status}" for status, n in sorted(counts.items())))
    if any(not v.ok for v in verdicts):
        sys.exit(1)


def _row(number: int, history: object, verdict: Verdict) -> dict[str, object]:
    user = getattr(history, "user_fields", {})
    deal = user.get("_deal_number")
    return {
        "hand": number,
        "deal_number": deal if isinstance(deal, int) and not isinstance(deal, bool) else None,
        "status": verdict.status,
        "practice": verdict.practice,
        "detail": verdict.detail,
    }
