"""The ``cardlab`` command line.

Each command group lives in its own module and is imported only when it is run, so
``cardlab --help`` stays fast. Errors caused by the user (a :class:`CardlabError` or a
usage error) print one line on stderr and exit with code 2, never a traceback.
"""

from __future__ import annotations

import codecs
import contextlib
import importlib
import importlib.util
import sys
from typing import Any, NoReturn

import click

from cardlab import render
from cardlab.cli import _streams
from cardlab.cli._environment import check_environment
from cardlab.errors import CardlabError

# command name -> "module:attribute"; modules are imported on first use.
COMMANDS: dict[str, tuple[str, str]] = {
    "openseven": ("cardlab.cli.openseven:openseven", "Open Seven: play, solve, odds, sweeps."),
    "decks": ("cardlab.cli.decks:decks", "List the decks and show their cards."),
    "poker": ("cardlab.cli.poker:poker", "Mixwell and classic poker hands, order, tables."),
    "showdown": ("cardlab.cli.showdown:showdown", "Settle a showdown: best fives and winners."),
    "equity": ("cardlab.cli.equity:equity", "Win/tie/lose chances, exact or sampled."),
    "ties": ("cardlab.cli.equity:ties", "How often showdowns split, with and without suits."),
    "draw": ("cardlab.cli.equity:draw", "The best cards to keep in five-card draw."),
    "history": (
        "cardlab.cli.history:history",
        "The hand store: list, show, export, import, stats.",
    ),
    "replay": ("cardlab.cli.replay:replay_command", "Replay PHH hand histories on the engine."),
    "verify": ("cardlab.cli.verify:verify_command", "Check the fair dealing of PHH hands."),
    "web": ("cardlab.cli.web:web", "Serve the web page to play on."),
    "chart": ("cardlab.cli.chart:chart", "Equity of every starting hand against random hands."),
    "report": ("cardlab.cli.report:report", "The designer's report of decks and rules (HTML)."),
    "play": ("cardlab.cli.play:play", "Play poker in the terminal against bots."),
    "arena": ("cardlab.cli.arena:arena", "Bots against bots: bb/100 with confidence intervals."),
    "solve": ("cardlab.cli.solve:solve", "Equilibria of small poker games (CFR+) on any deck."),
    "daemon": ("cardlab.cli.daemon:daemon", "A warm process that runs commands at once."),
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported when they are first needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in COMMANDS if self._available(name)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        target, _ = COMMANDS[cmd_name]
        module_name, attr = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                return None
            raise
        command: click.Command = getattr(module, attr)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    @staticmethod
    def _available(name: str) -> bool:
        module_name = COMMANDS[name][0].split(":")[0]
        return importlib.util.find_spec(module_name) is not None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardlab")
def cli() -> None:
    """cardlab: play card games and answer their questions exactly."""


def main(argv: list[str] | None = None) -> Any:
    """Run the command line; user errors end as one line on stderr and exit code 2.

    Called as the ``cardlab`` program (``argv`` None), a running daemon of this
    installation runs it if it may (:mod:`cardlab.cli._daemon`).

    Output that cannot be written (a full disk, a failing terminal) is one line and
    exit 2 too, wherever it was written from (:mod:`cardlab.cli._streams`). A reader that
    went away (``cardlab decks | head -1``) ends the run quietly with exit 0: the
    project's choice from the start, kept for every command (click's and rich's own
    handling said 1), so that ``set -o pipefail`` scripts do not fail on ``| head``."""
    with _streams.guarded():
        try:
            try:
                return _main(argv)
            finally:
                _streams.flush()  # here, not at the interpreter's exit
        except _streams.OutputFailed as exc:
            if exc.closed_pipe:
                sys.exit(0)
            with contextlib.suppress(_streams.OutputFailed):  # stderr may be the full one
                _fail(str(exc))
            sys.exit(2)


def _main(argv: list[str] | None) -> Any:
    try:
        check_environment()
    except CardlabError as exc:
        _fail(str(exc))
    if argv is None:
        from cardlab.cli._daemon.client import forward

        code = forward(sys.argv[1:])
        if code is not None:
            sys.exit(code)
    _ascii_fallback()
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        # the context by hand, not cli.main(): that prints a blank line on stderr before
        # re-raising Ctrl-C or an EOFError, and an error is one line
        with cli.make_context("cardlab", args) as ctx:
            return cli.invoke(ctx)
    except click.exceptions.Exit as exc:  # --help, --version
        return exc.exit_code
    except click.exceptions.NoArgsIsHelpError as exc:
        # bare `cardlab`, `cardlab poker`: the help, as `--help` shows it
        click.echo(exc.ctx.get_help())
        sys.exit(0)
    except CardlabError as exc:
        _fail(str(exc))
    except click.exceptions.Abort as exc:
        # click turns Ctrl-C into Abort; end of input at a prompt is Abort too
        interrupted = isinstance(exc.__context__, KeyboardInterrupt)
        click.echo(f"cardlab: {'interrupted' if interrupted else 'aborted'}", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        _fail(exc.format_message())
    except KeyboardInterrupt:
        click.echo("cardlab: interrupted", err=True)
        sys.exit(130)
    except EOFError as exc:  # data that ended early, read past a prompt's own handling
        _fail(f"the input ended early{': ' + str(exc) if str(exc) else ''}")


def _fail(message: str) -> NoReturn:
    one_line = " ".join(message.split())
    if not render.can_encode(sys.stderr):
        one_line = render.ascii_text(one_line)
    click.echo(f"cardlab: error: {one_line}", err=True)
    sys.stderr.flush()
    sys.exit(2)


def _ascii_notation(exc: UnicodeError) -> tuple[str, int]:
    """A last resort for text written past :func:`cardlab.render.ascii_text`."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return render.ascii_text(exc.object[exc.start : exc.end]), exc.end


codecs.register_error("cardlab-ascii", _ascii_notation)


def _ascii_fallback() -> None:
    """Let stdout and stderr write cards in ASCII when their encoding cannot say 木♠."""
    for stream in (sys.stdout, sys.stderr):
        if not render.can_encode(stream):
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(errors="cardlab-ascii")
