"""``cardlab equity``, ``ties`` and ``draw``: chances, split pots, the best draw."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from fractions import Fraction

import click

from cardlab import _serial_first, budget, render
from cardlab.cards import format_cards
from cardlab.cli._common import (
    FiniteFloat,
    collector_paused,
    compile_notice,
    deck_option,
    emit,
    emit_json,
    format_option,
    game_from,
    game_option,
    parse_rules,
    progress_bar,
    rule_option,
)
from cardlab.errors import GameError, RuleError
from cardlab.poker import uncompiled
from cardlab.poker.equity import (
    COMPILE_SECONDS,
    EquityResult,
    ExactTooBig,
    TieRate,
    deals_for,
    names_a_range,
    quick_uncompiled,
    sampling_seconds,
    tie_rate,
)
from cardlab.poker.equity import equity as compute_equity
from cardlab.poker.games import Game, game_names


@contextmanager
def _progress(show: bool, label: str, notice: bool = True) -> Iterator[Callable[[int, int], None]]:
    """A ``progress(done, total)`` for the library: a progress bar on stderr when ``show``
    (text output) and stderr is a terminal, and from its first call (the input is checked
    by then, so errors stay one clean line) a line on stderr if the kernels compile on
    this run (:func:`~cardlab.cli._common.compile_notice`; ``notice=False``: the caller
    gave one). The listener waits for numba to be loaded: the library loads it (with the
    game's kernel plan) before it reports the start of compiled work, and an answer of
    the plain evaluator (a full board) should not load numba only to listen."""
    with progress_bar(label, show and sys.stderr.isatty()) as bar, ExitStack() as notices:
        listening = False

        def update(done: int, total: int) -> None:
            nonlocal listening
            if notice and not listening and "numba" in sys.modules:
                listening = True
                notices.enter_context(compile_notice("equity", COMPILE_SECONDS))
            bar(done, total)

        yield update


def _part(
    progress: Callable[[int, int], None], offset: int, total: int
) -> Callable[[int, int], None]:
    """``progress`` for one part of the whole work (one game of ``ties``)."""
    return lambda done, _total: progress(offset + done, total)


@click.command()
@game_option("standard52-holdem")
@deck_option(None)
@click.option("--board", "-b", default="", help="Known board cards (a partial board is fine).")
@click.option("--dead", default="", help="Cards out of play.")
@click.option(
    "--exact/--sample", "exact", default=None, help="Enumerate every deal (default) or sample."
)
@click.option("--samples", type=click.IntRange(min=1), default=None, help="Random deals to sample.")
@click.option(
    "--seed", type=click.IntRange(min=0), default=None, help="Seed of the random deals (0 or more)."
)
@click.option(
    "--target-se", type=FiniteFloat(), default=None, help="Stop sampling at this standard error."
)
@rule_option
@format_option("text", "json")
@click.argument("hands", nargs=-1, required=True)
@collector_paused()  # nothing loaded is garbage: see there
def equity(
    game_name: str,
    deck: str | None,
    board: str,
    dead: str,
    exact: bool | None,
    samples: int | None,
    seed: int | None,
    target_se: float | None,
    rule: tuple[str, ...],
    fmt: str,
    hands: tuple[str, ...],
) -> None:
    """Win / tie / lose chances of each HAND (cards, "random" for an unknown hand, or a
    range like QQ+ in standard52 Hold'em): exact over every remaining board (by default
    only when cheap with random hands), or sampled with --samples/--target-se."""
    _serial_first.enable()  # a first run: serial twins while the parallel kernels compile
    game = game_from(game_name, rule, deck)
    if exact and (samples is not None or target_se is not None):
        raise GameError("--exact enumerates every deal: drop --samples/--target-se")
    if exact is False and samples is None and target_se is None:
        samples = 1_000_000
    # a first run after install: a question the plain kernels answer in seconds does not
    # wait for the compile, which goes on in the background for the next run
    if not rule and quick_uncompiled(game, hands, board, dead, exact, samples, target_se):
        from cardlab import _prepare

        if _prepare.answer_interpreted("exact", "equity"):
            click.echo(
                "cardlab: preparing the equity kernels in the background (first run after "
                "install, this answer without them)...",
                err=True,
            )
    elif not rule and _sampled_quickly(game, hands, exact, samples, target_se):
        from cardlab import _prepare

        # ranges run the general loop, which only the equity set prepares
        ranged = any(names_a_range(game, h) for h in hands)
        if _prepare.answer_interpreted("equity" if ranged else "bots", "equity"):
            click.echo(
                "cardlab: preparing the equity kernels in the background (first run after "
                "install, this answer without them)...",
                err=True,
            )
    with _progress(fmt == "text", "dealing") as progress:
        try:
            result = compute_equity(
                game,
                list(hands),
                board=board,
                dead=dead,
                exact=exact,
                samples=samples,
                rng=seed,
                target_se=target_se,
                progress=progress,
            )
        except ExactTooBig as exc:
            raise GameError(f"{exc} with --samples 1000000 (or --target-se 0.001)") from None
    if fmt == "json":
        emit_json(result.as_dict())
        return
    _print_equity(game, result)
    if result.target_reached is False:
        emit(
            f"the target standard error {target_se:g} was not reached: sampling stopped at "
            f"its cap of {result.deals:,} deals (give --samples to deal more)"
        )


def _sampled_quickly(
    game: Game,
    hands: tuple[str, ...],
    exact: bool | None,
    samples: int | None,
    target_se: float | None,
) -> bool:
    """Whether the question samples (``--samples``, ``--target-se``, ``--sample``) few
    enough showdowns to be answered interpreted on a first run
    (:mod:`cardlab.poker.uncompiled`)."""
    if exact or (samples is None and target_se is None):
        return False
    deals = samples if samples is not None else deals_for(target_se or 1.0)
    return uncompiled.sampling_quick([game], deals * len(hands))


def _print_equity(game: Game, result: EquityResult) -> None:
    rows = []
    for p in result.players:
        if result.exact:
            rows.append(
                (
                    p.cards,
                    render.percent(p.win, 3),
                    render.percent(p.tie, 3),
                    render.percent(p.lose, 3),
                    render.percent(p.equity, 3),
                    render.fraction_str(Fraction(p.equity)),
                )
            )
        else:
            rows.append(
                (
                    p.cards,
                    render.percent(p.win, 3),
                    render.percent(p.tie, 3),
                    render.percent(p.lose, 3),
                    render.percent(p.equity, 3),
                    f"± {render.percent(p.equity_se or 0.0, 3)}",
                )
            )
    how = f"exact, {result.deals:,} deals" if result.exact else f"sampled, {result.deals:,} deals"
    where = f", board {' '.join(map(str, result.board))}" if result.board else ""
    render.console().print(
        render.text_table(
            ("hand", "win", "tie", "lose", "equity", "exact" if result.exact else "std. error"),
            rows,
            title=f"{game.name}{where} ({how})",
            justify=("left", "right", "right", "right", "right", "right"),
        )
    )


@click.command()
@game_option(None, multiple=True)
@deck_option(None)
@rule_option
@click.option(
    "--samples",
    type=click.IntRange(min=1000),
    default=200_000,
    show_default=True,
    help="Random deals per row.",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Seed of the random deals (0 or more).",
)
@format_option("text", "json")
@collector_paused()  # nothing loaded is garbage: see there
def ties(
    game_name: tuple[str, ...],
    deck: str | None,
    rule: tuple[str, ...],
    samples: int,
    seed: int,
    fmt: str,
) -> None:
    """How often a heads-up showdown splits the pot, with and without suit tie-breaks."""
    _serial_first.enable()  # a first run: serial twins while the parallel kernels compile
    # default: every built-in Hold'em game, or Hold'em with --deck
    if game_name:
        names = list(game_name)
    elif deck is not None:
        names = ["holdem"]
    else:
        names = [n for n in game_names() if n.endswith("-holdem")]
    if "suit_tiebreak" in parse_rules(rule):
        raise RuleError(
            "ties compares every game with suit_tiebreak on and off: drop -r suit_tiebreak"
        )
    played = [game_from(name, rule, deck) for name in names]  # every name checked first
    for game in played:
        game.check_players(2)
    # a first run after install: a small sample is answered by the kernels as plain
    # Python, the same tallies, while the compiled sampler is prepared for next time
    showdowns = 2 * samples * 2 * len(played)  # suits on and off, two players
    if not rule and uncompiled.sampling_quick(played, showdowns):
        from cardlab import _prepare

        if _prepare.answer_interpreted("bots", "bots"):
            click.echo(
                "cardlab: preparing the sampling kernels in the background (first run after "
                "install, this answer without them)...",
                err=True,
            )
    seconds = sum(sampling_seconds(game, 2 * samples) for game in played)
    budget.check(
        f"sampling {2 * samples:,} deals in each of {len(played)} game(s)",
        seconds,
        "ask for fewer --samples (the default is 200,000)",
    )
    results: list[TieRate] = []
    with _progress(fmt == "text", "sampling") as progress:
        for i, game in enumerate(played):
            part = _part(progress, i * 2 * samples, len(played) * 2 * samples)
            results.append(tie_rate(game, samples=samples, rng=seed, progress=part))
    if fmt == "json":
        emit_json(
            {
                "samples": samples,
                "seed": seed,
                "games": [
                    {
                        "game": r.game.name,
                        "key": r.game.key,
                        "split_with_suits": r.with_suits,
                        "split_with_suits_se": r.with_suits_se,
                        "split_without_suits": r.without_suits,
                        "split_without_suits_se": r.without_suits_se,
                    }
                    for r in results
                ],
            }
        )
        return
    rows = [
        (
            r.game.name,
            f"{render.percent(r.with_suits, 3)} ± {render.percent(r.with_suits_se, 3)}",
            f"{render.percent(r.without_suits, 3)} ± {render.percent(r.without_suits_se, 3)}",
        )
        for r in results
    ]
    render.console().print(
        render.text_table(
            ("game", "split pots, suits on", "suits off"),
            rows,
            title=f"Heads-up split pots ({samples:,} random deals each, seed {seed})",
            justify=("left", "right", "right"),
        )
    )


@click.command()
@game_option("tesca54-draw")
@deck_option(None)
@click.option("--goal", default=None, help="Reach this hand or better (id or name, e.g. flush).")
@click.option("--beat", default=None, help="Instead: beat this five-card hand.")
@click.option(
    "--strength",
    is_flag=True,
    help="Instead: the highest mean strength of the final hand (its chance to beat "
    "another five-card hand of the deck; the bots' keep).",
)
@click.option("--dead", default="", help="Cards out of play.")
@click.option(
    "--top", type=click.IntRange(min=1), default=8, show_default=True, help="Keeps to list."
)
@rule_option
@format_option("text", "json")
@click.argument("hand")
@collector_paused()  # nothing loaded is garbage: see there
def draw(
    game_name: str,
    deck: str | None,
    goal: str | None,
    beat: str | None,
    strength: bool,
    dead: str,
    top: int,
    rule: tuple[str, ...],
    fmt: str,
    hand: str,
) -> None:
    """The best cards of HAND to keep, by the exact chance of reaching the goal
    (default: the next hand up), or by the exact mean strength after the draw."""
    game = game_from(game_name, rule, deck)
    if strength:
        if goal is not None or beat is not None:
            raise GameError("give one of --goal, --beat and --strength")
        _draw_strength(game, hand, dead, top, fmt)
        return
    from cardlab.poker.draw import COMPILE_SECONDS as DRAW_COMPILE_SECONDS
    from cardlab.poker.draw import best_draw

    _check_draw_cards(game, hand, dead, beat)  # bad input: one line, before any notice
    with compile_notice("draw", DRAW_COMPILE_SECONDS):
        advice = best_draw(game, hand, goal=goal, beat=beat, dead=dead)
    if fmt == "json":
        emit_json(advice.as_dict(top))
        return
    rows = [
        (
            " ".join(map(str, k.kept)) or "(draw five)",
            " ".join(map(str, k.discarded)) or "(stand pat)",
            render.percent(k.probability, 3),
            f"{k.hits:,}/{k.draws:,}",
        )
        for k in advice.keeps[:top]
    ]
    render.console().print(
        render.text_table(
            ("keep", "discard", "chance", "draws"),
            rows,
            title=f"{game.name}: {advice.value.describe()} — goal: {advice.goal}",
            justify=("left", "left", "right", "right"),
        )
    )
    best = advice.best
    emit(
        f"best: keep {' '.join(map(str, best.kept)) or 'nothing'}, "
        f"{render.percent(best.probability, 3)} ({render.fraction_str(best.probability)})"
    )


def _check_draw_cards(game: Game, hand: str, dead: str, beat: str | None) -> None:
    """The draw's cards parse (the library checks them again, with the rest)."""
    if game.base.draws < 1:
        raise GameError(f"{game.name} has no draw")
    game.deck.parse_cards(hand, count=5)
    if dead:
        game.deck.parse_cards(dead)
    if beat is not None:
        game.deck.parse_cards(beat, count=5)


def _draw_strength(game: Game, hand: str, dead: str, top: int, fmt: str) -> None:
    from cardlab.cli._common import prepare_draw_table
    from cardlab.poker import batch
    from cardlab.poker.draw_strength import keep_strengths

    _check_draw_cards(game, hand, dead, None)
    cards = game.deck.parse_cards(hand, count=5)
    with compile_notice("evaluation", batch.COMPILE_SECONDS):
        prepare_draw_table(game, ("equity",))
        keeps = keep_strengths(game, cards, dead=dead)
    if fmt == "json":
        emit_json(
            {
                "game": game.name,
                "hand": format_cards(cards),
                "goal": "strength",
                "keeps": [
                    {
                        "keep": format_cards(k.kept),
                        "discard": format_cards(k.discarded),
                        "strength": k.strength,
                        "draws": k.draws,
                    }
                    for k in keeps[:top]
                ],
            }
        )
        return
    rows = [
        (
            " ".join(map(str, k.kept)) or "(draw five)",
            " ".join(map(str, k.discarded)) or "(stand pat)",
            render.percent(k.strength, 3),
            f"{k.draws:,}",
        )
        for k in keeps[:top]
    ]
    render.console().print(
        render.text_table(
            ("keep", "discard", "strength", "draws"),
            rows,
            title=f"{game.name}: {format_cards(cards)} — mean strength after the draw",
            justify=("left", "left", "right", "right"),
        )
    )
    best = keeps[0]
    emit(
        f"best: keep {' '.join(map(str, best.kept)) or 'nothing'}, "
        f"{render.percent(best.strength, 3)} ({render.fraction_str(best.strength)})"
    )
