"""``cardlab replay``: play the hands of a PHH file on the engine and show them.

Each hand of a file replays on its own: the answer has one entry per hand in file
order, a hand that cannot be read or replayed carrying its ``error`` (with its line)
instead of the stacks. Exit code 0 when every hand replays, 1 when some do not (each
is listed), 2 when the file cannot be read at all.

The answer is streamed: each hand is printed as soon as it is replayed, so a file of
any size shows its first hands at once and holds one hand at a time. The JSON is one
document written piece by piece (the same bytes as the whole answer dumped at once).
The text looks :data:`LOOKAHEAD_HANDS` hands ahead: a file of no more hands is shown
as one ("hand 3 of 12", every amount with the file's decimals); a longer one says
"hand 3" and shows the decimals of its first hands (more where a later hand needs them).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from cardlab import render
from cardlab.cli._common import emit, format_option
from cardlab.errors import HistoryError
from cardlab.table import events as ev
from cardlab.table import phh, sites
from cardlab.table.history import Replay, replay
from cardlab.table.narrate import describe

LOOKAHEAD_HANDS = 1000
"""Hands the text answer reads ahead of the first it shows (parsed, not replayed): a file
of no more is shown with its count and one unit of amounts."""


def load_histories(path: str) -> Iterator[phh.HandHistory]:
    """Every hand of a .phh or .phhs file (a .phhs holds tables [1], [2], ...), read one
    at a time (:func:`cardlab.table.phh.iter_file`: a file of any size); the first hand
    that cannot be read stops it (``cardlab verify``: all or nothing)."""
    for entry in phh.iter_file(Path(path)):
        if entry.history is None:
            raise HistoryError(entry.error or f"{path}: hand {entry.number} cannot be read")
        yield entry.history


def _number(value: int | Decimal) -> int | float | str:
    if isinstance(value, Decimal):
        if value.is_infinite():
            return "inf"  # JSON has no infinity
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def replay_summary(r: Replay, entry: phh.Entry | None = None) -> dict[str, Any]:
    """The JSON of one replayed hand: stacks in the file's units (an ``inf`` stack as
    the string ``"inf"``), ``net`` (finishing minus starting) and PHH's ``winnings``
    (what each player collected from the pots). A site's hand (``entry`` a
    :class:`~cardlab.table.sites.SiteEntry`) also has its ``id`` (the site's hand
    number), ``site`` and ``rake``, and its finishing stacks, net and winnings are the
    site's, after the rake (the replay checked them: ``mismatches`` when it does not
    agree)."""
    out: dict[str, Any] = {
        "variant": r.history.variant,
        "game": r.hand.game.game.key,
        "players": list(r.history.players or ()),
        "starting_stacks": [_number(v) for v in r.starting_stacks],
        "finishing_stacks": [_number(v) for v in r.finishing_stacks],
        "net": [_number(v) for v in r.net],
        "winnings": [_number(v) for v in r.winnings],
        "showdown": bool(r.hand.result and r.hand.result.showdown),
        "decided_by": r.hand.result.decided_by if r.hand.result else None,
    }
    if isinstance(entry, sites.SiteEntry):
        history = r.history
        finishing = list(history.finishing_stacks or r.finishing_stacks)
        out = {"id": str(history.hand), "site": entry.site} | out
        out["finishing_stacks"] = [_number(v) for v in finishing]
        out["net"] = [_number(f - s) for f, s in zip(finishing, r.starting_stacks, strict=True)]
        out["winnings"] = [_number(v) for v in history.winnings or r.winnings]
        rake = history.user_fields.get("_rake")  # None: the site writes none (888)
        out["rake"] = None if rake is None else _number(rake)
    mismatches = sites.mismatches(entry, r) if entry is not None else r.mismatches()
    if mismatches:
        out["mismatches"] = mismatches
    return out


def replay_entry(entry: phh.Entry) -> tuple[Replay | None, str | None]:
    """A hand of a file replayed, or the reason it has no replay."""
    if entry.history is None:
        return None, entry.error
    try:
        return replay(entry.history, label=sites.label(entry)), None
    except HistoryError as exc:
        return None, str(exc)


def hands_of(path: str, site: str | None = None) -> Iterator[phh.Entry]:
    """The hands of a file as they are read: PHH, or a site's hand history (``site``, or
    recognised from the text; :func:`cardlab.table.sites.iter_entries`);
    :class:`HistoryError` when the file cannot be read at all (at its start, or where it
    stops being readable)."""
    return sites.iter_entries(path, site)


@click.command(name="replay")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--site",
    type=click.Choice(sorted(sites.SITES)),
    default=None,
    help="The site whose hand history FILE is (default: recognised from the text).",
)
@format_option("text", "json")
def replay_command(file: str, site: str | None, fmt: str) -> None:
    """Replay every hand of a hand-history FILE, street by street: PHH (.phh or .phhs)
    or a site's own text (PokerStars, GGPoker, PokerNow's CSV log), each
    site's hand checked against the site's figures (collected, rake, pot, stacks).

    Each hand is printed as it is replayed (a file of any size; a hand is at most 64 MB).
    Exit code 0 when every hand replays, 1 when some do not (each is listed), 2 when
    the file cannot be read."""
    entries = hands_of(file, site)
    if fmt == "json":
        total, failed = _stream_json(file, entries)
    else:
        total, failed = _stream_text(entries)
    if failed:
        click.echo(f"cardlab: {failed} of {total} hands do not replay", err=True)
        sys.exit(1)


def _failed(error: str) -> None:
    click.echo(f"cardlab: {error}", err=True)


def _stream_json(file: str, entries: Iterable[phh.Entry]) -> tuple[int, int]:
    """The JSON answer written a hand at a time: the bytes of ``render.to_json`` of the
    whole ``{"file", "hands", "replayed"}``; (hands, hands that failed)."""
    ascii = not render.can_encode(sys.stdout)
    out = sys.stdout
    out.write('{\n  "file": ' + json.dumps(file, ensure_ascii=ascii) + ',\n  "hands": [')
    total = failed = 0
    for entry in entries:
        r, error = replay_entry(entry)
        where = {"hand": entry.number, "line": entry.line}
        hand = where | ({"error": error} if r is None else replay_summary(r, entry))
        text = render.to_json(hand, ascii=ascii).replace("\n", "\n    ")
        out.write(("," if total else "") + "\n    " + text)
        out.flush()
        total += 1
        if error is not None:
            failed += 1
            _failed(error)
    out.write(("\n  " if total else "") + f'],\n  "replayed": {total - failed}\n}}\n')
    out.flush()
    return total, failed


def _stream_text(entries: Iterator[phh.Entry]) -> tuple[int, int]:
    """The text answer a hand at a time, :data:`LOOKAHEAD_HANDS` hands read ahead (parsed,
    not replayed) for the count and the unit; (hands, hands that failed)."""
    ahead = list(itertools.islice(entries, LOOKAHEAD_HANDS + 1))
    known = len(ahead) <= LOOKAHEAD_HANDS
    places = file_places(e.history for e in ahead if e.history is not None)
    of = f" of {len(ahead)}" if known else ""
    total = failed = 0
    for entry in itertools.chain(ahead, entries):
        total += 1
        r, error = replay_entry(entry)
        if r is None:
            failed += 1
            emit(f"hand {entry.number}{of}: {error}")
            _failed(str(error))
            continue
        shown = places if known else max(places, file_places([r.history]))
        title = f"hand {entry.number}{of}"
        if isinstance(entry, sites.SiteEntry):
            title += f" ({entry.site} #{entry.name})"
        print_replay(r, title=title, places=shown, entry=entry)
        sys.stdout.flush()
    return total, failed


def file_places(histories: Any) -> int:
    """The decimal places amounts of these hands are shown with: the most any amount
    of the file is written with (``0.50``: 2), so one file shows one unit."""
    places = 0
    for history in histories:
        amounts: list[Any] = [*history.antes, *history.starting_stacks]
        amounts += list(history.blinds_or_straddles or ())
        amounts += [history.bring_in, history.small_bet, history.big_bet, history.min_bet]
        for a in amounts:
            if isinstance(a, Decimal) and a.is_finite():
                exponent = a.as_tuple().exponent
                if isinstance(exponent, int):
                    places = max(places, -exponent)
    return places


def money(value: int | Decimal, places: int) -> str:
    """An amount with ``places`` decimals (more only where a split needs them)."""
    if isinstance(value, Decimal) and value.is_infinite():
        return "inf"
    exact = Decimal(value)
    if places:
        quantum = Decimal(1).scaleb(-places)
        rounded = exact.quantize(quantum)
        if rounded == exact:
            return str(rounded)
    return str(exact.normalize()) if exact != exact.to_integral_value() else str(int(exact))


def _signed(value: int | Decimal, places: int) -> str:
    return "0" if not value else ("+" if value > 0 else "") + money(value, places)


def _in_file_units(event: ev.Event, r: Replay, places: int) -> ev.Event:
    def unit(v: int) -> Decimal:
        return Decimal(money(Decimal(v) / r.scale, places))

    if isinstance(event, ev.Award):
        amounts: Any = tuple(unit(a) for a in event.amounts)  # shown, not played
        return dataclasses.replace(event, amounts=amounts)
    amount = getattr(event, "amount", None)
    if isinstance(amount, int):
        return dataclasses.replace(event, amount=unit(amount))  # type: ignore[call-arg]
    return event


def streets(r: Replay, names: Sequence[str], places: int) -> list[tuple[str, str]]:
    """(street with its board cards, what happened) for each street, amounts in the
    file's units."""
    out: list[tuple[str, str]] = []
    title, lines = "forced bets", list[str]()
    for event in r.hand.history:
        if isinstance(event, ev.NewStreet):
            if lines or title != "forced bets":
                out.append((title, "; ".join(lines)))
            title, lines = event.name, []
        elif isinstance(event, ev.DealBoard):
            title = f"{title} {' '.join(str(c) for c in event.cards)}"
        else:
            text = describe(_in_file_units(event, r, places), names)
            if text:
                lines.append(text)
    out.append((title, "; ".join(lines)))
    return out


def _stakes(history: phh.HandHistory, places: int) -> str:
    """The forced bets and bet sizes as the file writes them."""
    parts = []
    blinds = [b for b in history.blinds_or_straddles or () if b]
    if blinds:
        parts.append("blinds " + "/".join(money(abs(Decimal(b)), places) for b in blinds))
    if history.bring_in:
        parts.append(f"bring-in {money(history.bring_in, places)}")
    if history.small_bet is not None and history.big_bet is not None:
        bets = f"{money(history.small_bet, places)}/{money(history.big_bet, places)}"
        parts.append(f"bets {bets}")
    antes = sorted({a for a in history.antes if a})
    if antes:
        parts.append("antes " + "/".join(money(a, places) for a in antes))
    return ", ".join(parts) or "no forced bets"


def print_replay(
    r: Replay, *, title: str, places: int | None = None, entry: phh.Entry | None = None
) -> None:
    """A replayed hand street by street, then each player's stacks, every amount in
    the file's units with ``places`` decimals (default: the hand's own)."""
    if places is None:
        places = file_places([r.history])
    console = render.console()
    names = list(r.history.players or [f"p{i + 1}" for i in range(r.hand.players)])
    game = r.hand.game
    console.print(
        f"[bold]{escape(title)}[/bold] — {r.history.variant}, "
        f"{escape(game.game.name)} ({_stakes(r.history, places)}), {r.hand.players} players",
        highlight=False,
    )
    for street, text in streets(r, names, places):
        if text:
            console.print(f"  [cyan]{escape(street)}[/cyan]: {escape(text)}", highlight=False)
    finishing, nets = r.finishing_stacks, r.net  # the net finite with ``inf`` stacks too
    if isinstance(entry, sites.SiteEntry) and r.history.finishing_stacks:
        finishing = list(r.history.finishing_stacks)  # the site's: after the rake
        nets = [f - s for f, s in zip(finishing, r.starting_stacks, strict=True)]
    rows = [
        (name, money(start, places), money(finish, places), _signed(net, places))
        for name, start, finish, net in zip(names, r.starting_stacks, finishing, nets, strict=True)
    ]
    console.print(
        render.text_table(
            ("player", "start", "finish", "net"),
            rows,
            justify=("left", "right", "right", "right"),
        )
    )
    for line in sites.mismatches(entry, r) if entry is not None else r.mismatches():
        emit(f"  the record differs: {line}")
