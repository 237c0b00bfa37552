"""Options and output helpers shared by the command modules.

One way to say things in every command:

* ``--deck/-d NAME``: a built-in deck (FESCA78 ... standard52) or a deck TOML file;
* ``--game/-g NAME``: a game, ``<deck>-<holdem|omaha|stud|draw>`` (``fesca78-holdem``),
  or the base game alone (``holdem``) played with ``--deck``;
* ``--rule/-r NAME=VALUE``: a rule option, repeatable (``--option/-o`` is the same).
"""

from __future__ import annotations

import atexit
import gc
import math
import os
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from cardlab import render
from cardlab._paths import check_name
from cardlab.errors import CardlabError, GameError, RuleError

F = TypeVar("F", bound=Callable[..., Any])

DECK_HELP = "Deck: a built-in name (FESCA78 ... standard52) or a deck TOML file."
GAME_HELP = (
    "Game: <deck>-<holdem|omaha|stud|draw> (e.g. fesca78-holdem, standard52-holdem), "
    "or holdem/omaha/stud/draw with --deck."
)
RULE_HELP = "A rule option NAME=VALUE, e.g. compound=base (repeatable; see `cardlab poker rules`)."

# the keys of the table's variants (cardlab.table.structure.VARIANTS, which a test holds
# this to): named here so that reading --game does not import the whole table engine
VARIANTS = (
    "holdem",
    "omaha",
    "stud",
    "draw",
    "omaha8",
    "stud8",
    "razz",
    "27-single-draw",
    "27-triple-draw",
    "badugi",
)


class FiniteFloat(click.FloatRange):
    """A number in a range, and finite: click's ``FloatRange`` lets ``nan`` through
    (every comparison with it is false), and ``inf`` where there is no maximum."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


# a seed: 0 or more, within the 64 bits numpy's and numba's generators take
SEED = click.IntRange(0, 2**63 - 1)


def _named(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A ``--deck``/``--game`` given as blank text is refused, not read as the default."""
    values = value if isinstance(value, tuple) else (value,)
    if any(isinstance(v, str) and not v.strip() for v in values):
        raise click.BadParameter("the name is empty", ctx, param)
    return value


def format_option(*choices: str, help: str | None = None) -> Callable[[F], F]:
    """``--format`` with the given choices (``text`` first, the default); the help
    offers exactly these choices."""
    names = choices or ("text", "json")
    scripts = " or ".join(n.upper() for n in names if n != "text")
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(names),
        default=names[0],
        show_default=True,
        help=help or f"Output format: readable text, or {scripts} for scripts.",
    )


def deck_option(default: str | None = "FESCA78") -> Callable[[F], F]:
    """``--deck/-d NAME``."""
    return click.option(
        "--deck",
        "-d",
        "deck",
        default=default,
        show_default=default is not None,
        metavar="NAME",
        help=DECK_HELP,
        callback=_named,
    )


def game_option(default: str | None, *, multiple: bool = False) -> Callable[[F], F]:
    """``--game/-g NAME`` (a full game key, or a base game played with ``--deck``)."""
    return click.option(
        "--game",
        "-g",
        "game_name",
        default=() if multiple else default,
        show_default=default is not None and not multiple,
        multiple=multiple,
        metavar="NAME",
        help=GAME_HELP + (" Repeatable." if multiple else ""),
        callback=_named,
    )


def rule_option(fn: F) -> F:
    """``--rule/-r NAME=VALUE`` (repeatable); ``--option/-o`` is an alias."""
    return click.option(
        "--rule",
        "-r",
        "--option",
        "-o",
        "rule",
        multiple=True,
        metavar="NAME=VALUE",
        help=RULE_HELP,
    )(fn)


def parse_rules(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """``("compound=base", "mixwell_suits=M K D G S order=classic")`` -> options.

    One item may hold several ``NAME=VALUE``; a word without ``=`` continues the value
    before it, so ``mixwell_suits=M K D G S`` keeps its spaces.
    """
    options: dict[str, str] = {}
    for item in items:
        key = ""
        for word in item.replace(",", " ").split():
            name, sep, value = word.partition("=")
            if sep:
                if not name:
                    raise RuleError(f"a rule option is written NAME=VALUE, not {word!r}")
                key = name
                options[key] = value
            elif key:
                options[key] = f"{options[key]} {word}".strip()
            else:
                raise RuleError(f"a rule option is written NAME=VALUE, not {item!r}")
    return options


def rules_from(deck: str, rules: tuple[str, ...] | list[str]) -> Any:
    """The deck's rule set with ``--rule`` options applied (a :class:`RuleSet`)."""
    from cardlab.poker.rules import RuleSet

    return RuleSet.for_deck(deck, **parse_rules(rules))


def game_key(game_name: str, deck: str | None = None) -> str:
    """The full game key from ``--game`` and ``--deck``: ``holdem`` + ``standard52`` ->
    ``standard52-holdem``; a full key and a different ``--deck`` is an error."""
    from cardlab.poker.games import BASE_GAMES

    text = game_name.strip()
    if text.lower() in BASE_GAMES or text.lower() in VARIANTS:  # holdem, razz, badugi ...
        if deck is None:
            raise GameError(f"--game {text} needs --deck, or name both: e.g. fesca78-{text}")
        return f"{deck.strip()}-{text.lower()}"
    if deck is not None:
        # the deck part: before the variant (standard52-27-single-draw -> standard52)
        ends = [k for k in VARIANTS if text.lower().endswith("-" + k)]
        named = text[: -len(max(ends, key=len)) - 1] if ends else text.rpartition("-")[0]
        if named.strip().lower() != deck.strip().lower():
            raise GameError(
                f"--game {text!r} names its own deck; drop --deck {deck!r} or give "
                f"--game as a game alone (holdem, omaha, stud, draw, razz, ...)"
            )
    return text


def game_from(
    game_name: str, rules: tuple[str, ...] | list[str] = (), deck: str | None = None
) -> Any:
    """The game (a :class:`~cardlab.poker.games.Game`) with ``--rule`` options applied."""
    from cardlab.poker.games import get_game

    ctx = click.get_current_context(silent=True)
    if (
        deck is not None
        and ctx is not None
        and ctx.get_parameter_source("game_name") is click.core.ParameterSource.DEFAULT
    ):
        game_name = game_name.rpartition("-")[2]  # `-d FESCA60` alone: the default base game
    return get_game(game_key(game_name, deck), **parse_rules(rules))


def output_path(path: Path, *, suffixes: tuple[str, ...] = ()) -> Path:
    """Refuse an output file that cannot be written, before any work is done.

    The directory must exist and be writable; the file, if it exists, must be a
    regular file; ``suffixes`` (e.g. ``(".png", ".svg")``) are the allowed extensions.
    """
    text = str(path)
    if not text.strip() or text == ".":  # click turns '' into Path('.')
        raise CardlabError("the output file name is empty")
    check_name(path, "the output file")
    if suffixes and path.suffix.lower() not in suffixes:
        raise CardlabError(
            f"cannot write {text!r}: the file name must end in {', '.join(suffixes)}"
        )
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise CardlabError(f"cannot write {text!r}: no directory {str(parent)!r}")
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise CardlabError(f"cannot write {text!r}: {exc.strerror}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise CardlabError(f"cannot write {text!r}: not a regular file")
    if str(path.resolve()).startswith(("/proc/", "/sys/")):
        raise CardlabError(f"cannot write {text!r}: not a place for output files")
    target = path if mode is not None else parent
    if not os.access(target, os.W_OK):
        raise CardlabError(f"cannot write {text!r}: permission denied")
    if mode is not None:
        _not_an_input(path)
    return path


def _not_an_input(path: Path) -> None:
    """Refuse an output that is a file the same command reads (``solve cfr --game g.toml
    --out g.toml``): every other value of the command line naming an existing file is
    taken as an input (the value that is ``path``, or else the last one spelled as it,
    is the output's own option)."""
    named: list[tuple[str, object]] = []
    ctx = click.get_current_context(silent=True)
    while ctx is not None:
        opts = {
            p.name: next((o for o in p.opts if o.startswith("--")), p.name)
            for p in ctx.command.params
        }
        for name, value in ctx.params.items():
            for item in value if isinstance(value, tuple | list) else (value,):
                if isinstance(item, str | Path):
                    try:
                        if os.path.samefile(item, path):
                            named.append((str(opts.get(name, name)), item))
                    except (OSError, ValueError):
                        continue
        ctx = ctx.parent
    own = [n for n in named if n[1] is path] or [n for n in named if str(n[1]) == str(path)]
    if own:
        named.remove(own[-1])
    if named:
        option, item = named[0]
        raise CardlabError(
            f"cannot write {str(path)!r}: it is the file given as {option} ({str(item)!r}); "
            "an output never overwrites an input"
        )


def directory_path(path: Path) -> Path:
    """A directory to write files into (a cache), made if it is missing; refused before
    any work is done if it cannot be made or written."""
    text = str(path)
    check_name(path, "the directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CardlabError(f"cannot use {text!r} as a directory: it is not one") from None
    except OSError as exc:
        raise CardlabError(f"cannot make the directory {text!r}: {exc.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise CardlabError(f"cannot write into the directory {text!r}: permission denied")
    return path


@contextmanager
def progress_bar(
    label: str, show: bool | None = None, *, tasks: bool = False
) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr (when it is a terminal), as ``progress(done, total)``;
    started only once work is under way, so that errors stay one clean line.
    ``tasks``: count tasks done of all and show the time taken as well as left."""
    if show is None:
        show = sys.stderr.isatty()
    if not show:
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns: tuple[ProgressColumn, ...] = (
        (MofNCompleteColumn(), TextColumn("tasks"), TimeElapsedColumn())
        if tasks
        else (TextColumn("{task.percentage:>3.0f}%"),)
    )
    bar = Progress(
        TextColumn(label),
        BarColumn(),
        *columns,
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=None)
    started = False

    def update(done: int, total: int) -> None:
        nonlocal started
        if not started:
            bar.start()
            started = True
        bar.update(task, completed=done, total=total)

    try:
        yield update
    finally:
        if started:
            bar.stop()


def emit(text: str) -> None:
    """Write command output to stdout, ending with exactly one newline (cards in ASCII
    notation when stdout cannot write kanji)."""
    if not render.can_encode(sys.stdout):
        text = render.ascii_text(text)
    click.echo(text.rstrip("\n"))


def emit_json(value: Any) -> None:
    emit(render.to_json(value, ascii=not render.can_encode(sys.stdout)))


def announce_first_run(what: str, seconds: int, ready: Callable[[], bool]) -> None:
    """A line on stderr when the compiled kernels a command is about to use are not in
    numba's disk cache: the first run after an install compiles them (later runs load
    them). ``ready()``: whether they are cached."""
    if not ready():
        click.echo(
            f"cardlab: preparing the {what} kernels (first run after install, "
            f"about {seconds} s)...",
            err=True,
        )


_NO_COLLECTION_AT_EXIT = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while inside (as it was after); what was
    made meanwhile then joins the oldest generation, and this process's exit makes no
    last collection.

    A command answered by compiled kernels loads numpy, numba, llvmlite and scipy: some
    150,000 objects that live as long as the process, none of them garbage. The
    collector passed over them again and again while they loaded (two full passes), a
    pass of the youngest generation over all of them would follow the pause, and the
    interpreter's last collection passes over them again as the process ends: together
    0.2-0.4 s of CPU beside a first answer of about 1 s.

    So: no collection while inside; at the end, the objects made inside move to the
    oldest generation unscanned (:func:`gc.freeze` then :func:`gc.unfreeze`, done only
    when nothing else is frozen, so a caller's own frozen objects stay frozen), where
    the next full collection, if the process lives on, looks at them as usual; and at
    exit the objects still alive are frozen, so the last collection skips them (memory
    goes back with the process; Python promises no finalizer of an object alive at exit
    anyway). A command's work makes no garbage cycles to speak of (numpy arrays, freed
    as their counts drop)."""
    global _NO_COLLECTION_AT_EXIT
    if not _NO_COLLECTION_AT_EXIT:
        _NO_COLLECTION_AT_EXIT = True
        atexit.register(gc.freeze)
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        if was:
            gc.enable()


@contextmanager
def compile_notice(what: str, seconds: int) -> Iterator[None]:
    """While inside: the first compilation numba starts in this process (a first run
    after an install: nothing is in its disk cache yet) prints one line on stderr saying
    what is prepared and about how long it takes. Loading cached code prints nothing.
    Enter it once the input is checked, so that bad input stays one line."""
    from numba.core import event

    said = False

    class _Notice(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            nonlocal said
            if not said:
                said = True
                click.echo(
                    f"cardlab: preparing the {what} kernels (first run after install, "
                    f"about {seconds} s)...",
                    err=True,
                )

        def on_end(self, ev: event.Event) -> None:
            pass

    with event.install_listener("numba:compile", _Notice()):
        yield


def after_first_run_notice(
    progress: Callable[[int, int], None] | None,
    what: str,
    seconds: int,
    ready: Callable[[], bool],
) -> Callable[[int, int], None]:
    """``progress`` (or nothing) that, on its first call, makes
    :func:`announce_first_run`'s check: libraries report progress once the input is
    checked, so bad input stays one line."""
    announced = False

    def update(done: int, total: int) -> None:
        nonlocal announced
        if not announced:
            announced = True
            announce_first_run(what, seconds, ready)
        if progress is not None:
            progress(done, total)

    return update


def prepare_bots(game: Any, bots: tuple[str, ...] | list[str], hints: bool = False) -> None:
    """Before bots play: a line if their kernels compile on this run (the equity and
    push/fold bots, and ``hints``, sample equities), and the draw table of Draw games
    (:func:`prepare_draw_table`)."""
    if hints or {"equity", "pushfold", "nash"} & {b.strip().lower() for b in bots}:
        from cardlab.poker.equity import COMPILE_SECONDS
        from cardlab.poker.plan import bot_kernels, in_disk_cache

        announce_first_run("bots' equity", COMPILE_SECONDS, lambda: in_disk_cache(bot_kernels()))
    prepare_draw_table(game, bots)


def prepare_draw_table(game: Any, bots: tuple[str, ...] | list[str]) -> None:
    """Before bots play Draw with the exact keep: build (or load) the deck's draw table
    now, with a line saying so when it is built, rather than stall the first hand."""
    if game.base.draws < 1 or "equity" not in bots:
        return
    from cardlab.poker import draw_strength

    if not draw_strength.cache_path(game.rules).is_dir():
        try:
            hands = draw_strength.table_size(game.rules)
        except GameError:
            return  # too big: the bots sample their keeps instead
        seconds = max(1, round(hands / 2_000_000))
        click.echo(
            f"cardlab: preparing the exact draw table of {game.deck.name} "
            f"({hands:,} five-card hands, once, about {seconds} s)...",
            err=True,
        )
    draw_strength.warm(game)
