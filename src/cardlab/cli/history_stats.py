"""``cardlab history stats``: each player's statistics and all-in adjusted result, from
the hands in the hand store (the definitions: docs/player-stats.md)."""

from __future__ import annotations

import datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from cardlab import render
from cardlab.cli._common import emit, emit_json, format_option, output_path
from cardlab.cli._store_options import db_option, open_store
from cardlab.errors import CardlabError, HistoryError
from cardlab.table import phh
from cardlab.table.player_stats import (
    RATES,
    EquityCache,
    HandSummary,
    PlayerStats,
    Rate,
    player_stats,
    running_totals,
    sessions,
    summarize,
)
from cardlab.table.stats_filter import HandFilter, parse_day, parse_position, parse_stakes

PLOTTED = 8  # players drawn when --player does not choose them


@click.command()
@click.option("--game", "-g", default=None, help="Only this game (e.g. fesca78-holdem).")
@click.option(
    "--player",
    "players",
    multiple=True,
    metavar="NAME",
    help="Only these players (repeatable); the hands are still every hand of the game.",
)
@click.option(
    "--plot",
    "plot",
    default=None,
    type=click.Path(dir_okay=False),
    metavar="FILE.png",
    help="Draw each player's running result and all-in adjusted result, in big blinds.",
)
@click.option(
    "--plot-sessions",
    "plot_sessions",
    default=None,
    type=click.Path(dir_okay=False),
    metavar="FILE.png",
    help="Draw each player's net and all-in adjusted net per session, in big blinds.",
)
@click.option("--site", "sites", multiple=True, metavar="SITE", help="Only hands from this site.")
@click.option(
    "--stakes", "stakes", multiple=True, metavar="SB/BB", help="Only hands at these blinds."
)
@click.option("--since", default=None, metavar="YYYY-MM-DD", help="Only hands from this day on.")
@click.option("--until", default=None, metavar="YYYY-MM-DD", help="Only hands up to this day.")
@click.option(
    "--position",
    "positions",
    multiple=True,
    metavar="POS",
    help="Only the seats at this position (SB, BB, UTG, UTG+1, LJ, HJ, CO, BTN).",
)
@click.option(
    "--table-size", "sizes", multiple=True, type=int, metavar="N", help="Only N-handed hands."
)
@click.option("--by-position", is_flag=True, help="A row per player and position.")
@format_option("text", "json", "csv")
@db_option
@click.pass_context
def stats(
    ctx: click.Context,
    game: str | None,
    players: tuple[str, ...],
    plot: str | None,
    plot_sessions: str | None,
    sites: tuple[str, ...],
    stakes: tuple[str, ...],
    since: str | None,
    until: str | None,
    positions: tuple[str, ...],
    sizes: tuple[int, ...],
    by_position: bool,
    fmt: str,
    db: str | None,
) -> None:
    """Per player (and position): VPIP, PFR, 3-bet, 4-bet, fold to 3-bet, steal, fold to
    steal, c-bet and fold to c-bet, check-raise, aggression, showdowns, won when saw the
    flop, net in big blinds per 100 hands, and what they should have won (each all-in
    before the last card shared by exact equity)."""
    target = output_path(Path(plot)) if plot is not None else None
    if target is not None and target.suffix.lower() != ".png":
        raise CardlabError(f"--plot writes a PNG picture: name the file .png, got {plot!r}")
    session_target = output_path(Path(plot_sessions)) if plot_sessions is not None else None
    if session_target is not None and session_target.suffix.lower() != ".png":
        raise CardlabError(
            f"--plot-sessions writes a PNG picture: name the file .png, got {plot_sessions!r}"
        )
    bad_size = next((n for n in sizes if n < 2), None)
    if bad_size is not None:
        raise CardlabError(f"--table-size counts the seats of a hand (2 or more), got {bad_size}")
    wanted_hands = HandFilter(
        sites=frozenset(sites),
        stakes=frozenset(parse_stakes(s) for s in stakes),
        since=None if since is None else parse_day(since, "--since"),
        until=None if until is None else parse_day(until, "--until"),
        table_sizes=frozenset(sizes),
        positions=frozenset(parse_position(p) for p in positions),
    )
    cache = EquityCache()
    by_game: dict[str, list[HandSummary]] = {}
    skipped: list[str] = []
    timed: list[tuple[datetime.datetime, HandSummary]] = []
    with open_store(ctx, db, read_only=True) as store:
        records = list(store.iter_hands(game=game))
        label = str(store.path) if store.path is not None else "the hand store"
    for r in reversed(records):  # oldest first: the running totals follow the play
        try:
            summary = summarize(
                phh.loads(r.phh), cache=cache, label=f"hand {r.id}", day=r.played_at.date()
            )
        except (HistoryError, CardlabError) as exc:
            skipped.append(str(exc) if str(exc).startswith("hand ") else f"hand {r.id}: {exc}")
            continue
        if wanted_hands.matches(summary):
            by_game.setdefault(r.game, []).append(summary)
            timed.append((r.played_at, summary))
    wanted = set(players)
    report = {
        g: [
            p
            for p in wanted_hands.stats(s, by_position=by_position)
            if not wanted or p.name in wanted
        ]
        for g, s in sorted(by_game.items())
    }
    if target is not None:
        _plot(target, by_game, players)
    if session_target is not None:
        _plot_sessions(session_target, timed, players)
    for line in skipped:
        click.echo(f"cardlab: skipped {line}", err=True)
    if fmt == "json":
        emit_json(
            {
                g: {
                    "hands": len(by_game[g]),
                    "showdowns": sum(s.showdown for s in by_game[g]),
                    "showdown_share": Fraction(
                        sum(s.showdown for s in by_game[g]), len(by_game[g])
                    ),
                    "all_ins_adjusted": sum(s.all_in is not None for s in by_game[g]),
                    "all_ins_not_adjusted": [
                        s.not_adjusted for s in by_game[g] if s.not_adjusted is not None
                    ],
                    "players": [_json_row(p) for p in ps],
                }
                for g, ps in report.items()
            }
            | ({"skipped": skipped} if skipped else {})
        )
        return
    if fmt == "csv":
        keep = [k for k in range(len(_CSV_HEADER)) if by_position or k != 1]
        rows = [
            (g, *(_cells(p, exact=True)[k] for k in keep)) for g, ps in report.items() for p in ps
        ]
        emit(render.to_csv(("game", *(_CSV_HEADER[k] for k in keep)), rows))
        return
    if not by_game:
        emit("no stored hands" if not skipped else f"no hand of {label} could be replayed")
        return
    console = render.console()
    for g, ps in report.items():
        summaries = by_game[g]
        shown = sum(s.showdown for s in summaries)
        adjusted = sum(s.all_in is not None for s in summaries)
        not_adjusted = sum(s.not_adjusted is not None for s in summaries)
        title = (
            f"{g}: {len(summaries)} hands, showdown in {shown} "
            f"({render.percent(Fraction(shown, len(summaries)), 1)}), "
            f"{adjusted} all-ins adjusted"
            + (f", {not_adjusted} not (cards unknown or too big)" if not_adjusted else "")
        )
        header, rows = _HEADER, [_cells(p, exact=False) for p in ps]
        if not by_position:  # no position column
            header = header[:1] + header[2:]
            rows = [r[:1] + r[2:] for r in rows]
        console.print(
            render.text_table(
                header,
                rows,
                title=title,
                justify=("left", *("right",) * (len(header) - 1)),
            )
        )
    for written in (target, session_target):
        if written is not None:
            emit(f"wrote {written}")


_SHORT = {
    "vpip": "VPIP",
    "pfr": "PFR",
    "three_bet": "3B",
    "four_bet": "4B",
    "fold_to_three_bet": "F3B",
    "steal": "steal",
    "fold_to_steal": "Fsteal",
    "cbet_flop": "CBf",
    "cbet_turn": "CBt",
    "fold_to_cbet_flop": "FCBf",
    "fold_to_cbet_turn": "FCBt",
    "check_raise": "XR",
    "went_to_showdown": "WTSD",
    "won_at_showdown": "W$SD",
    "won_when_saw_flop": "WWSF",
}
_HEADER = (
    "player",
    "pos",
    "hands",
    *(_SHORT[r] for r in RATES),
    "AF",
    "AFq",
    "net",
    "bb/100",
    "all-in EV net",
    "EV bb/100",
    "all-ins",
)
_CSV_HEADER = (
    "player",
    "position",
    "hands",
    *RATES,
    "aggression_factor",
    "aggression_frequency",
    "net",
    "bb_per_100",
    "expected_net",
    "expected_bb_per_100",
    "all_ins",
)


def _rate(rate: Rate) -> str:
    value = rate.value
    return "-" if value is None else render.percent(value, 1)


def _number(value: Fraction | None, digits: int = 2) -> str:
    return "-" if value is None else f"{float(value):,.{digits}f}"


def _amount(value: Fraction) -> int | float:
    """An amount for JSON and CSV: whole, or a float (amounts with cents are exact
    decimals; an expected share may not be)."""
    return value.numerator if value.denominator == 1 else round(float(value), 6)


def _share(value: Fraction | None) -> float | str:
    return "" if value is None else round(float(value), 6)


def _cells(p: PlayerStats, *, exact: bool) -> tuple[Any, ...]:
    rates = [getattr(p, r) for r in RATES]
    if exact:
        return (
            p.name,
            p.position or "",
            p.hands,
            *(_share(r.value) for r in rates),
            _share(p.aggression_factor),
            _share(p.aggression_frequency.value),
            _amount(p.net),
            round(float(p.bb_per_100), 6),
            _amount(p.expected_net),
            round(float(p.expected_bb_per_100), 6),
            p.all_ins,
        )
    return (
        p.name,
        p.position or "",
        p.hands,
        *(_rate(r) for r in rates),
        _number(p.aggression_factor),
        _rate(p.aggression_frequency),
        _signed(p.net),
        _signed(p.bb_per_100, 1),
        _signed(p.expected_net),
        _signed(p.expected_bb_per_100, 1),
        p.all_ins,
    )


def _signed(value: Fraction, digits: int | None = None) -> str:
    if digits is None:
        if value.denominator == 1:
            return f"{value.numerator:+,}" if value else "0"
        digits = 2
    return f"{float(value):+,.{digits}f}"


def _rate_json(rate: Rate) -> dict[str, Any]:
    value = rate.value
    return {
        "count": rate.count,
        "chances": rate.chances,
        "percent": None if value is None else round(float(value) * 100, 4),
    }


def _json_row(p: PlayerStats) -> dict[str, Any]:
    af = p.aggression_factor
    return {
        "name": p.name,
        **({} if p.position is None else {"position": p.position}),
        "hands": p.hands,
        **{r: _rate_json(getattr(p, r)) for r in RATES},
        "aggression_factor": None if af is None else round(float(af), 6),
        "aggression_frequency": _rate_json(p.aggression_frequency),
        "bets_raises": p.bets_raises,
        "calls": p.calls,
        "folds": p.folds,
        "net": _amount(p.net),
        "net_bb": round(float(p.net_bb), 6),
        "bb_per_100": round(float(p.bb_per_100), 6),
        "expected_net": _amount(p.expected_net),
        "expected_bb": round(float(p.expected_bb), 6),
        "expected_bb_per_100": round(float(p.expected_bb_per_100), 6),
        "luck": _amount(p.luck),
        "all_ins": p.all_ins,
    }


def _plot(target: Path, by_game: dict[str, list[HandSummary]], players: tuple[str, ...]) -> None:
    """Each player's running net (solid) and all-in adjusted net (dashed), in big blinds,
    over the hands they played (every game given, oldest first)."""
    from cardlab._matplotlib import pyplot

    summaries = [s for g in sorted(by_game) for s in by_game[g]]
    names = list(players) or [p.name for p in player_stats(summaries)[:PLOTTED]]
    curves = {n: running_totals(summaries, n) for n in names}
    curves = {n: c for n, c in curves.items() if c[0]}
    if not curves:
        raise CardlabError("nothing to plot: no hand of the players asked for")
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 5))
    for k, (name, (won, expected)) in enumerate(curves.items()):
        color = f"C{k % 10}"
        xs = range(1, len(won) + 1)
        ax.plot(xs, [float(v) for v in won], color=color, label=f"{name}: won")
        ax.plot(
            xs,
            [float(v) for v in expected],
            color=color,
            linestyle="--",
            label=f"{name}: all-in adjusted",
        )
    _save_plot(plt, fig, ax, target, "hands played", "won and all-in adjusted result")


def _save_plot(plt: Any, fig: Any, ax: Any, target: Path, xlabel: str, title: str) -> None:
    """The net axes' zero line, labels and legend, and the PNG written to ``target``."""
    ax.axhline(0, color="0.6", linewidth=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("net (big blinds)")
    ax.set_title(title)
    ax.legend(fontsize="small")
    fig.tight_layout()
    try:
        fig.savefig(target, format="png", dpi=110)
    except OSError as exc:
        raise CardlabError(f"cannot write {str(target)!r}: {exc.strerror}") from None
    finally:
        plt.close(fig)


def _plot_sessions(
    target: Path, timed: list[tuple[datetime.datetime, HandSummary]], players: tuple[str, ...]
) -> None:
    """Per player, a bar per session: the net (solid) and the all-in adjusted net
    (hatched), in big blinds."""
    from cardlab._matplotlib import pyplot

    names = list(players) or [p.name for p in player_stats(s for _, s in timed)[:PLOTTED]]
    per = {n: sessions(timed, n) for n in names}
    per = {n: ss for n, ss in per.items() if ss}
    if not per:
        raise CardlabError("nothing to plot: no hand of the players asked for")
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 5))
    width = 0.8 / (2 * len(per))
    for k, (name, ss) in enumerate(per.items()):
        color = f"C{k % 10}"
        xs = [j + (2 * k) * width for j in range(len(ss))]
        ax.bar(xs, [float(s.net_bb) for s in ss], width, color=color, label=f"{name}: won")
        ax.bar(
            [x + width for x in xs],
            [float(s.expected_bb) for s in ss],
            width,
            color=color,
            alpha=0.45,
            hatch="//",
            label=f"{name}: all-in adjusted",
        )
    most = max(len(ss) for ss in per.values())
    ax.set_xticks([j + (len(per) - 0.5) * width for j in range(most)])
    ax.set_xticklabels([str(j + 1) for j in range(most)])
    _save_plot(
        plt,
        fig,
        ax,
        target,
        "session (a pause over 30 minutes starts the next)",
        "won and all-in adjusted result per session",
    )
