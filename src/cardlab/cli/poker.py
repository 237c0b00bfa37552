"""``cardlab poker``: hand tables, ranking and comparing hands, and the rule set.

Every command takes ``--deck/-d`` (a built-in name or a TOML file) and ``--rule/-r
NAME=VALUE`` (repeatable; ``--option/-o`` is the same) to change the rules, e.g.
``--rule compound=base`` (the shared options of :mod:`cardlab.cli._common`).
"""

from __future__ import annotations

from typing import Any

import click

from cardlab import render
from cardlab.cards import Card
from cardlab.cli._common import (
    SEED,
    deck_option,
    emit,
    emit_json,
    format_option,
    game_from,
    game_option,
    parse_rules,
    rule_option,
    rules_from,
)
from cardlab.errors import CardError, GameError, HandError, RuleError
from cardlab.poker.frequencies import HandTable, five_card_table
from cardlab.poker.hands import HandValue, best_hand, compare, evaluate
from cardlab.poker.order import hand_order
from cardlab.poker.rules import RuleSet
from cardlab.table.structure import STUD_OPTIONS

DEFAULT_DECK = "FESCA78"


def make_rules(deck: str | None, rule: tuple[str, ...] | list[str]) -> RuleSet:
    rules: RuleSet = rules_from(deck or DEFAULT_DECK, rule)
    return rules


@click.group()
def poker() -> None:
    """Mixwell and classic poker: hand tables, ranking and comparing hands, rules."""


# --- table ------------------------------------------------------------------------

TABLE_HEADER = ("order", "id", "hand", "役", "count", "probability", "percent", "rarity")


@poker.command()
@deck_option(None)
@rule_option
@click.option(
    "--hand-size",
    type=click.IntRange(5, 7),
    default=None,
    help="Cards per hand; 6 and 7 count the best five. Default 5, or 7 with --game holdem/stud.",
)
@game_option(None)
@click.option(
    "--compare-options",
    "compare_with",
    multiple=True,
    metavar="NAME=VALUE ...",
    help="Show the table under these options beside the default one.",
)
@click.option("--samples", type=click.IntRange(1), default=None, help="Omaha: deals to sample.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Omaha: sampling seed.")
@format_option("text", "json", "csv")
@click.argument("more_options", nargs=-1, metavar="")
def table(
    deck: str | None,
    rule: tuple[str, ...],
    hand_size: int | None,
    game_name: str | None,
    compare_with: tuple[str, ...],
    samples: int | None,
    seed: int,
    fmt: str,
    more_options: tuple[str, ...],
) -> None:
    """Every hand category with its order, exact count, probability and rarity.

    `--game holdem|stud` counts the best five of seven, `--game omaha` two of four hole
    cards with three of five board cards (a full game name such as fesca60-omaha names
    the deck too). `--compare-options NAME=VALUE ...` (e.g. `--compare-options
    compound=base order=classic`) shows the table under the changed options beside the
    default one.
    """
    if more_options and not compare_with:
        raise RuleError(
            f"unexpected argument {more_options[0]!r} (options go after -r or --compare-options)"
        )
    compare_with = (*compare_with, *more_options)
    game: str | None = None
    if game_name is None:
        rules = make_rules(deck, rule)
    else:
        played = game_from(game_name, rule, deck or (None if "-" in game_name else DEFAULT_DECK))
        if played.base.key not in ("holdem", "stud", "omaha"):
            raise GameError(f"poker table --game takes holdem, stud or omaha, not {game_name!r}")
        rules, game = played.rules, played.base.key
    if game == "omaha" and hand_size is not None:
        raise HandError("--game omaha deals its own cards; leave out --hand-size")
    if hand_size is None:
        hand_size = 7 if game in ("holdem", "stud") else 5
    need = 9 if game == "omaha" else hand_size
    if len(rules.deck) < need:
        raise HandError(
            f"a table of {need}-card deals needs a deck of at least {need} cards; "
            f"{rules.deck.name} has {len(rules.deck)}"
        )
    if hand_size != 5 or game == "omaha":
        if compare_with:
            raise RuleError("--compare-options works with five-card tables only")
        _seven_card_table(rules, fmt, hand_size, game, samples, seed)
        return
    default = five_card_table(rules)
    if compare_with:
        changed = five_card_table(rules.with_options(**parse_rules(compare_with)))
        _emit_comparison(default, changed, parse_rules(compare_with), fmt)
        return
    if fmt == "json":
        emit_json(default.as_dict())
    elif fmt == "csv":
        emit(render.to_csv(TABLE_HEADER, _table_rows(default)))
    else:
        _print_table(default)


def _seven_card_table(
    rules: RuleSet, fmt: str, hand_size: int, game: str | None, samples: int | None, seed: int
) -> None:
    """Best-of-6/7 and Omaha tables come from :mod:`cardlab.poker.tables7`."""
    from cardlab.cli import _tables7

    extra: dict[str, Any] = {"seed": seed}
    if samples is not None:
        extra["samples"] = samples
    size = 7 if game == "omaha" else hand_size
    _tables7.show_table(rules, fmt, hand_size=size, game=game or "holdem", **extra)


def _table_rows(table: HandTable) -> list[tuple[Any, ...]]:
    return [
        (
            r.order,
            r.category.value,
            r.category.english,
            r.category.japanese,
            r.count,
            r.probability,
            render.percent(r.probability),
            f"{r.rarity:.4f}",
        )
        for r in table.rows
    ]


def _print_table(table: HandTable) -> None:
    rules = table.rules
    emit(
        f"{rules.name}: {table.combinations:,} five-card hands from {len(rules.deck)} cards (exact)"
    )
    rows = [
        (r.order, r.category.english, r.category.japanese, f"{r.count:,}", p, pct, rarity)
        for r, (_, _, _, _, _, p, pct, rarity) in zip(table.rows, _table_rows(table), strict=True)
    ]
    header = ("#", "hand", "役", "count", "probability", "percent", "rarity")
    justify = ("right", "left", "left", "right", "right", "right", "right")
    render.console().print(render.text_table(header, rows, justify=justify))
    emit(_assignment_text(table))


def _assignment_text(table: HandTable) -> str:
    if not table.assignments:
        return "no partial compounds (Mixwell does not occur)"
    how = (
        f"fixed point confirmed by recount {table.iterations}"
        if table.iterations
        else f"forced by compound={table.rules.compound.value}"
    )
    lines = [f"partial compounds ({how}):"]
    for a in table.assignments:
        lines.append(
            f"  Mixwell + {a.base.category.english}: {a.count:,} hands -> {a.primary.english}"
            f" (Mixwell {a.mixwell_count:,}, {a.base.category.english} {a.base_count:,})"
        )
    lines.append(f"distinct hand values: {table.distinct_values:,}")
    return "\n".join(lines)


def _emit_comparison(
    default: HandTable, changed: HandTable, options: dict[str, str], fmt: str
) -> None:
    changes = " ".join(f"{k}={v}" for k, v in options.items())
    rows = _comparison_rows(default, changed)
    if fmt == "json":
        emit_json(
            {
                "deck": default.rules.deck.name,
                "changed_options": options,
                "default": default.as_dict(),
                "changed": changed.as_dict(),
                "differences": [
                    {"id": cid, "order": [oa, ob], "count": [ca, cb]}
                    for cid, _, oa, ob, ca, cb in rows
                    if (oa, ca) != (ob, cb)
                ],
            }
        )
        return
    header = ("id", "hand", "order", "order_changed", "count", "count_changed")
    if fmt == "csv":
        emit(render.to_csv(header, rows))
        return
    emit(f"{default.rules.name}: default rules vs {changes}")
    text_rows = []
    for _, name, oa, ob, ca, cb in rows:
        move = ""
        if oa is not None and ob is not None and oa != ob:
            move = "up" if ob < oa else "down"
        text_rows.append(
            (
                name,
                "-" if oa is None else oa,
                "-" if ob is None else ob,
                move,
                "-" if ca is None else f"{ca:,}",
                "-" if cb is None else f"{cb:,}",
                "" if ca == cb else "changed",
            )
        )
    render.console().print(
        render.text_table(
            ("hand", "order", "order*", "moved", "count", "count*", ""),
            text_rows,
            justify=("left", "right", "right", "left", "right", "right", "left"),
        )
    )
    emit(f"* with {changes}")
    emit("default " + _assignment_text(default))
    emit(f"with {changes}: " + _assignment_text(changed))


def _comparison_rows(
    a: HandTable, b: HandTable
) -> list[tuple[str, str, int | None, int | None, int | None, int | None]]:
    cats = [r.category for r in a.rows] + [r.category for r in b.rows if a.row(r.category) is None]
    out = []
    for c in cats:
        ra, rb = a.row(c), b.row(c)
        out.append(
            (
                c.value,
                c.english,
                ra.order if ra else None,
                rb.order if rb else None,
                ra.count if ra else None,
                rb.count if rb else None,
            )
        )
    return out


# --- rank and compare ---------------------------------------------------------------


def value_json(value: HandValue, rules: RuleSet) -> dict[str, Any]:
    """The ``rank`` JSON of one hand value."""
    order = hand_order(rules)
    data = value.as_dict()
    data["order"] = order.categories.index(value.category) + 1
    data["description_ja"] = value.describe("ja")
    return data


@poker.command()
@deck_option(None)
@rule_option
@click.option("--best", is_flag=True, help="Take the best five of five or more cards.")
@format_option("text", "json")
@click.argument("cards", nargs=-1, required=True)
def rank(
    deck: str | None, rule: tuple[str, ...], best: bool, fmt: str, cards: tuple[str, ...]
) -> None:
    """The value of five CARDS, e.g. `cardlab poker rank 木7 火7 土7 金2 水9`."""
    rules = make_rules(deck, rule)
    text = " ".join(cards)
    value = best_hand(text, rules) if best else evaluate(text, rules)
    if fmt == "json":
        emit_json({"deck": rules.deck.name, **value_json(value, rules)})
        return
    order = hand_order(rules)
    place = order.categories.index(value.category) + 1
    emit(value.describe())
    emit(value.describe("ja"))
    emit(
        f"{value.category.english}: order {place} of {len(order.categories)} in {rules.name}"
        + (f"; secondary hand {value.secondary.english}" if value.secondary else "")
    )
    emit(f"key {value.key}")


def _check_no_shared_card(values: list[HandValue]) -> None:
    """Hands dealt from one deck hold each card once: a card in two hands is an error."""
    holder: dict[Card, int] = {}
    for i, value in enumerate(values, 1):
        for card in value.cards:
            if card in holder:
                raise CardError(f"card {card} is in hand {holder[card]} and in hand {i}")
            holder[card] = i


@poker.command(name="compare")
@deck_option(None)
@rule_option
@format_option("text", "json")
@click.argument("hands", nargs=-1, required=True)
def compare_command(
    deck: str | None, rule: tuple[str, ...], fmt: str, hands: tuple[str, ...]
) -> None:
    """Compare two or more HANDS (each five cards, quoted): the winner(s) and the
    tie-break step that decided."""
    rules = make_rules(deck, rule)
    if len(hands) < 2:
        raise HandError(f"compare needs at least two hands, got {len(hands)}")
    values = [evaluate(h, rules) for h in hands]
    _check_no_shared_card(values)
    winners, decided_by = compare(values)
    if fmt == "json":
        emit_json(
            {
                "winners": winners,
                "decided_by": decided_by,
                "hands": [value_json(v, rules) for v in values],
            }
        )
        return
    rows = [(i + 1, "win" if i in winners else "", v.describe()) for i, v in enumerate(values)]
    render.console().print(
        render.text_table(("hand", "", "value"), rows, justify=("right", "left", "left"))
    )
    names = ", ".join(str(i + 1) for i in winners)
    if decided_by == "tie":
        emit(f"tie: hands {names} split")
    else:
        emit(f"hand {names} wins, decided by {decided_by}")


# --- rules ------------------------------------------------------------------------


@poker.command()
@deck_option(None)
@rule_option
@format_option("text", "json")
def rules(deck: str | None, rule: tuple[str, ...], fmt: str) -> None:
    """The rule set: every option with its value, default and source, and the order."""
    ruleset = make_rules(deck, rule)
    order = hand_order(ruleset)
    defaults = ruleset.defaults()
    if fmt == "json":
        emit_json(
            {
                "deck": ruleset.deck.name,
                "name": ruleset.name,
                "options": [
                    {
                        "name": info.name,
                        "value": value,
                        "default": defaults[info.name],
                        "source": info.source,
                        "doc": info.doc,
                    }
                    for info, value in ruleset.options()
                ],
                "order": [c.value for c in order.categories],
                "partial_compounds": {a.base.value: a.primary.value for a in order.assignments},
                "table_options": [
                    {"name": name, "default": default, "source": f"[{source}]", "doc": doc}
                    for name, (default, source, doc) in STUD_OPTIONS.items()
                ],
            }
        )
        return
    emit(ruleset.name)
    rows = [(i.name, v or "none", defaults[i.name], i.source, i.doc) for i, v in ruleset.options()]
    render.console().print(
        render.text_table(
            ("option", "value", "default", "source", "meaning"),
            rows,
            justify=("left",) * 5,
        )
    )
    emit("order (strongest first): " + str(order))
    render.console().print(
        render.text_table(
            ("table option", "default", "source", "meaning"),
            [(n, d, f"[{src}]", doc) for n, (d, src, doc) in STUD_OPTIONS.items()],
            title="playing a hand (cardlab.table; docs/table.md)",
            justify=("left",) * 4,
        )
    )
