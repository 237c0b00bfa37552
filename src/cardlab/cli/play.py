"""``cardlab play``: a table in the terminal, you against bots, hand after hand.

You sit in seat 1; the bots fill the other seats. Each time it is your turn the
table is drawn (your cards, the board, every stack and bet, the pot, whose turn, the
button and who is all-in) with the legal actions and their amounts; type ``f``, ``c``,
``r 20``, ``b``, ``d 木7 火2`` (``d`` alone stands pat), ``l`` to see the last hand
again or ``q`` to quit. Every finished hand is written to the hand store at once, so
quitting (``q``, Ctrl-D, Ctrl-C) mid-hand loses only the hand in play. The session's
result (hands, every seat's net in chips and big blinds, the biggest pot) ends it.

In a cash game a bot that runs out of chips buys in again for the starting stack;
when you run out you are asked whether to (``--rebuy`` / ``--no-rebuy`` answer for
you; input that is not a terminal, a script, ends the session as a "no" unless
``--rebuy`` is given).

``--tournament`` plays a sit-and-go instead (:mod:`cardlab.table.tournament`): the
forced bets rise every ``--level-hands`` hands (or ``--level-minutes``), a seat with no
chips is out, and the standings and prizes are printed at the end. If you go out
first, the bots play it out without you (quietly) so every place is known.
"""

from __future__ import annotations

import itertools
import random
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

import click
from rich.console import Console
from rich.markup import escape

from cardlab.bots.arena import table_game
from cardlab.bots.base import Bot, get_bot
from cardlab.cards import Card, format_cards
from cardlab.cli._common import deck_option, game_key, game_option, prepare_bots
from cardlab.cli.arena import bot_names, parse_blinds, stack_value
from cardlab.errors import GameError
from cardlab.poker.showdown import best_five
from cardlab.store import Store
from cardlab.table import events as ev
from cardlab.table.actions import Action, apply
from cardlab.table.history import check_recordable, record
from cardlab.table.narrate import Narrator
from cardlab.table.session import Session
from cardlab.table.state import HandState, Legal, Phase
from cardlab.table.structure import MAX_SEATS, TableGame
from cardlab.table.tournament import Schedule, Tournament
from cardlab.table.view import SeatView, seat_view

QUIT = {"q", "quit", "exit"}
LAST = {"l", "last"}
YES = {"y", "yes"}
NO = {"n", "no"}


class Quit(Exception):
    """The player asked to leave."""


@click.command()
@game_option("fesca78-holdem")
@deck_option(None)
@click.option(
    "--seats",
    type=click.IntRange(2, MAX_SEATS),
    default=None,
    help="Seats at the table, yours included [default: 6; 2 in kuhn, leduc and the other "
    "two-player games of cardlab solve cfr].",
)
@click.option("--bots", default="equity", show_default=True, help="Bot names, comma-separated.")
@click.option("--stack", default="200", show_default=True, help="Everyone's starting stack.")
@click.option("--blinds", default="1/2", show_default=True, help="SMALL/BIG (Stud: bring-in/bet).")
@click.option(
    "--hints",
    is_flag=True,
    help="Show your equity and the pot odds (Draw, before the draw: the best keep and the "
    "equity after it).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0, max=2**63 - 1),
    default=None,
    help="Seed of the table (default: a new one, printed at the end).",
)
@click.option("--hands", type=click.IntRange(min=1), default=None, help="Stop after this many.")
@click.option("--name", default="you", show_default=True, help="Your name in the hand store.")
@click.option("--db", type=click.Path(dir_okay=False), default=None, help="The hand store file.")
@click.option(
    "--rebuy/--no-rebuy",
    default=None,
    help="Cash game: when you run out of chips, buy in again for the starting stack "
    "(--rebuy) or end the session (--no-rebuy) [default: ask; input that is not a "
    "terminal ends it]. Bots that run out always buy in again.",
)
@click.option("--tournament", is_flag=True, help="A sit-and-go: rising blinds, last in wins.")
@click.option(
    "--levels",
    default=None,
    help="Tournament levels like 10/20,15/30,25/50+5 (+ANTE; Stud: BRING-IN/BET) "
    "[default: the usual ladder from the stack].",
)
@click.option(
    "--level-hands",
    type=click.IntRange(1, 10_000),
    default=None,
    help="Hands per tournament level [default: 10].",
)
@click.option(
    "--level-minutes",
    type=click.IntRange(1, 10_000),
    default=None,
    help="Minutes per tournament level (instead of hands).",
)
@click.option(
    "--buy-in",
    type=click.IntRange(0, 10**9),
    default=10,
    show_default=True,
    help="Tournament buy-in per seat: the prize pool.",
)
@click.option(
    "--payouts",
    default=None,
    help="Percent of the pool by place, like 65,35 [default: by the number of seats].",
)
def play(
    game_name: str,
    deck: str | None,
    seats: int | None,
    bots: str,
    stack: str,
    blinds: str,
    hints: bool,
    seed: int | None,
    hands: int | None,
    name: str,
    db: str | None,
    rebuy: bool | None,
    tournament: bool,
    levels: str | None,
    level_hands: int | None,
    level_minutes: int | None,
    buy_in: int,
    payouts: str | None,
) -> None:
    """Play poker at a table of bots in the terminal (a cash game, or a sit-and-go with
    --tournament).

    At your turn type f (fold), c (check or call), r AMOUNT (bet or raise to AMOUNT),
    b (bring in), d CARDS (discard; d alone stands pat), s / m (show / muck), l (the
    last hand again) or q (quit). A seat's row is marked (button) on the button and
    (all-in) when all its chips are in; in Stud your cards say which are face up
    (the others see them) and which are down. In a cash game a bot that runs
    out of chips buys in again for the starting stack, and you are asked (see
    --rebuy). The session's result (hands, net per seat in chips and big blinds, the
    biggest pot) is printed at the end, also after q, Ctrl-D or Ctrl-C."""
    if not tournament and (levels or level_hands or level_minutes or payouts):
        raise GameError("--levels, --level-hands, --level-minutes and --payouts need --tournament")
    if tournament and rebuy is not None:
        raise GameError("--rebuy and --no-rebuy are for a cash game, not --tournament")
    if level_hands and level_minutes:
        raise GameError("levels last --level-hands or --level-minutes, not both")
    from cardlab.solve.small_table import small_game_key

    small = small_game_key(game_name, deck)  # kuhn, leduc, leduc-fesca, a game file
    if small is not None and tournament:
        raise GameError(f"{game_name} has fixed stakes (its ante and bets): no --tournament")
    game = table_game(small or game_key(game_name, deck), parse_blinds(blinds))
    seats = seats if seats is not None else 2 if small is not None else 6
    game.check_seats(seats)
    if small is None:
        check_recordable(game)  # every hand is kept: a deck that cannot be is said first
    chips = stack_value(stack)
    lineup = bot_names(bots)
    players: list[Bot] = [get_bot(n) for n in lineup]
    seat_bots = [players[(s - 1) % len(players)] for s in range(1, seats)]
    names = [name] + [f"{b.name}-{s + 1}" for s, b in enumerate(seat_bots, start=1)]
    sng = None
    if tournament:
        every, unit = (level_minutes, "minutes") if level_minutes else (level_hands or 10, "hands")
        schedule = (
            Schedule.parse(levels, game, every=every, unit=unit)
            if levels
            else Schedule.default(game, chips, every=every, unit=unit)
        )
        sng = Tournament(
            schedule,
            dict(enumerate(names)),
            buy_in=buy_in,
            payouts=None if payouts is None else parse_payouts(payouts),
        )
    with _open_store(db) as store:  # a bad store file is said before kernels are prepared
        if small is not None:  # no PHH variant: the hands are played, not kept
            from cardlab.cli.arena import prepare_small_bots

            click.echo(
                f"cardlab: {game.title} has no PHH variant, so its hands are not kept in "
                "the hand store",
                err=True,
            )
            prepare_small_bots(small, lineup)
        else:
            prepare_bots(game.game, lineup, hints)
        if hints and any(street.draw for street in game.streets):
            from cardlab.cli._common import prepare_draw_table

            prepare_draw_table(game.game, ["equity"])  # the hint's best keep
        if seed is None:
            seed = random.SystemRandom().getrandbits(32)
        session = Session(game, names, chips, seed=seed)
        table = TerminalTable(
            session, seat_bots, hints, store, sys.stdin, tournament=sng, rebuy=rebuy
        )
        try:
            table.run(hands)
        finally:
            table.show_session()
            table.console.print(
                f"{session.hands_played} hand(s) played; seed {seed}"
                + (
                    f"; hands kept in {escape(store.location)}"
                    if store.location and small is None
                    else ""
                )
            )


def parse_payouts(text: str) -> list[int]:
    """``"65,35"`` -> [65, 35] (checked against the entrants by the tournament)."""
    parts = [p.strip().rstrip("%") for p in text.split(",")]
    if not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts):
        raise GameError(f"payouts are whole percents by place, like 65,35, got {text!r}")
    return [int(p) for p in parts]


def _open_store(db: str | None) -> Store:
    return Store.open(db)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or stand-in stream
        return False


def big_blind(game: TableGame) -> int:
    """The unit of "big blinds": the big blind, or Stud's small bet."""
    return max((b for b in game.stakes.blinds[:2] if b > 0), default=0) or game.stakes.small_bet


@dataclass(frozen=True, slots=True)
class BiggestPot:
    chips: int
    hand: int  # numbered from 1, as the table announces hands
    winners: tuple[str, ...]


@dataclass
class Ledger:
    """What the session did to each seat: chips bought in (the first stack and every
    rebuy) and the biggest pot."""

    bought: list[int]
    biggest: BiggestPot | None = None

    def note_pot(self, number: int, hand: HandState, names: Sequence[str]) -> None:
        result = hand.result
        assert result is not None
        chips = sum(sum(a.amounts) for a in result.awards)
        if self.biggest is None or chips > self.biggest.chips:
            winners = dict.fromkeys(names[p] for a in result.awards for p in a.players)
            self.biggest = BiggestPot(chips, number, tuple(winners))


class HandTeller:
    """One hand's events as lines for the seat at ``me`` (``you`` in the second person):
    actions, cards, shows with the hand they make, and who won what."""

    def __init__(self, hand: HandState, names: Sequence[str], me: int | None) -> None:
        self.hand = hand
        self.plain_names = list(names)
        self.names = [escape(n) for n in names]
        self.me = me
        self.narrator = Narrator(self.names, you=me, game=hand.game)
        self.stud = any(any(street.hole) for street in hand.game.streets)
        self._drawing: set[int] = set()  # players whose next cards replace a discard

    def who(self, p: int) -> str:
        return "you" if p == self.me else self.names[p]

    def line(self, e: ev.Event) -> str | None:
        told = self.narrator.tell(e)  # every event, so the narrator follows the rounds
        if isinstance(e, ev.DealBoard):
            return f"board: {format_cards(e.cards)}"
        if isinstance(e, ev.NewStreet):
            return f"[bold]{e.name}[/bold]"
        if isinstance(e, ev.DealHole):
            return self._dealt(e)
        if isinstance(e, ev.StandPatDiscard) and e.cards:
            self._drawing.add(e.player)
            if e.player == self.me:
                return f"you discard {format_cards([c for c in e.cards if c is not None])}"
        if isinstance(e, ev.ShowMuck) and e.cards is not None:
            return self._shows(e.player, e.cards)
        if isinstance(e, ev.Award):
            return self._award(e)
        return told

    def _dealt(self, e: ev.DealHole) -> str | None:
        drawn = e.player in self._drawing
        self._drawing.discard(e.player)
        if e.player == self.me:
            cards = [c for c in e.cards if c is not None]
            if drawn:
                return f"you draw {format_cards(cards)}"
            return f"you: {own_cards(e.cards, e.up, self.stud)}"
        # only the cards dealt face up: a hand shown at the end is told when it is shown
        seen = [c if u else None for c, u in zip(e.cards, e.up, strict=True)]
        if not any(seen):
            return None
        return f"{self.names[e.player]}: {' '.join('??' if c is None else str(c) for c in seen)}"

    def _shows(self, p: int, cards: tuple[Card, ...]) -> str:
        verb = "show" if p == self.me else "shows"
        result = self.hand.result
        best = result.best_hands() if result is not None else {}
        if self.hand.game.own_order:  # a small game of cardlab.solve: no best five
            return f"{self.who(p)} {verb} {format_cards(cards)}"
        # before the hand is settled (you are still to show or muck): the high hand
        value = best.get(p) or best_five(self.hand.game.game, cards, tuple(self.hand.board))
        description = value.describe().split(" — ")[0]
        return (
            f"{self.who(p)} {verb} {format_cards(cards)}: {description} "
            f"(best five {format_cards(value.cards)})"
        )

    def _award(self, e: ev.Award) -> str:
        won = " and ".join(
            f"{self.who(p)} {'win' if p == self.me else 'wins'} {a}"
            for p, a in zip(e.players, e.amounts, strict=True)
        )
        label = "main pot" if e.pot == 0 else f"side pot {e.pot}"
        how = "uncontested" if e.decided_by == "uncontested" else f"decided by {e.decided_by}"
        return f"[bold]{label}: {won}[/bold] ({how})"

    def summary(self) -> str | None:
        """Your stack after the hand and what it won or lost."""
        result = self.hand.result
        if result is None or self.me is None:
            return None
        after = result.finishing_stacks[self.me]
        return f"your stack: {after} ({after - result.starting_stacks[self.me]:+d})"

    def lines(self) -> list[str]:
        """The whole hand, as it was told (for a look back)."""
        fresh = HandTeller(self.hand, self.plain_names, self.me)
        view = seat_view(self.hand, self.me)
        out = [line for e in view.history if (line := fresh.line(e))]
        end = self.summary()
        return out + ([end] if end else [])


def own_cards(cards: Sequence[Card | None], up: Sequence[bool], stud: bool) -> str:
    """Your cards; in Stud with the ones the others see: ``Ah Kd 7c (face up: 7c)``."""
    text = " ".join("??" if c is None else str(c) for c in cards)
    if not stud or not cards:
        return text
    if all(up):
        return f"{text} (face up)"
    if not any(up):
        return f"{text} (face down)"
    shown = " ".join(str(c) for c, u in zip(cards, up, strict=True) if u)
    return f"{text} (face up: {shown})"


class TerminalTable:
    """The loop of hands: bots act, you are asked, hands are kept."""

    def __init__(
        self,
        session: Session,
        bots: list[Bot],
        hints: bool,
        store: Store,
        stdin: TextIO,
        *,
        tournament: Tournament | None = None,
        rebuy: bool | None = None,
    ) -> None:
        self.session = session
        self.tournament = tournament
        self.base_game: TableGame = session.game
        self.quiet = False  # you are out of a tournament: the bots finish it unseen
        self._started_at = time.monotonic()
        self._level = -1
        self.bots = bots
        self.hints = hints
        self.store = store
        self.stdin = stdin
        self.rebuy = rebuy
        self.interactive = _is_terminal(stdin)
        self.stack = session.seats[0].stack  # the buy-in of a cash game
        self.ledger = Ledger([seat.stack for seat in session.seats])
        self.last: tuple[int, HandTeller] | None = None  # (hand number, its teller)
        self.console = Console(highlight=False, soft_wrap=True)

    def run(self, limit: int | None) -> None:
        s = self.session
        t = self.tournament
        while limit is None or s.hands_played < limit:
            if t is None and not self._rebuys():
                return
            if not s.can_deal():
                if t is None:
                    self.console.print("you won every chip at the table")
                break
            if t is not None:
                self._level_up(t)
            hand = s.new_hand()
            number = s.hands_played + 1
            if not self.quiet:
                self.console.rule(f"hand {number} · {escape(s.game.title)}")
            before = {seat: s.seats[seat].stack for seat in s.order}
            teller = HandTeller(hand, s.names(), s.position_of(0))
            try:
                self.play_hand(hand, teller)
            except (Quit, EOFError):
                self.console.print("quit: the hand in play is not kept")
                return
            except KeyboardInterrupt:  # Ctrl-C: the session's summary, then exit 130
                self.console.print("quit: the hand in play is not kept")
                raise
            self.keep(hand)
            self.ledger.note_pot(number, hand, s.names())
            self.last = (number, teller)
            s.end_hand()
            if t is not None:
                self._after_hand(t, before)
        if t is not None:
            self.show_standings(t)

    def _rebuys(self) -> bool:
        """Cash game: the seats with no chips buy in again; False when you do not (the
        session ends)."""
        s = self.session
        if s.seats[0].stack == 0:
            if not self._want_rebuy():
                self.console.print("you have no chips left")
                return False
            self._buy_in(0)
        for seat in range(1, len(s.seats)):
            if s.seats[seat].stack == 0:
                self._buy_in(seat)
        return True

    def _buy_in(self, seat: int) -> None:
        self.session.seats[seat].stack = self.stack
        self.ledger.bought[seat] += self.stack
        name = "you buy" if seat == 0 else f"{escape(self.session.seats[seat].name)} buys"
        self.console.print(f"{name} in again for {self.stack}")

    def _want_rebuy(self) -> bool:
        if self.rebuy is not None:
            return self.rebuy
        if not self.interactive:
            return False
        self.console.print(f"you have no chips left: buy in again for {self.stack}? (y/n) ", end="")
        while True:
            try:
                text = self._read().lower()
            except EOFError:
                return False
            if text in YES:
                return True
            if text in NO | QUIT:
                return False
            if text in LAST:
                self.show_last()
            self.console.print("buy in again? (y/n) ", end="")

    def _level_up(self, t: Tournament) -> None:
        """The next hand's level: announced when it changes."""
        if t.schedule.unit == "minutes":
            now = time.monotonic()
            t.add_time(now - self._started_at)
            self._started_at = now
        index = t.level_index
        self.session.game = t.game_for(self.base_game, index)
        if index != self._level and not self.quiet:
            stakes = t.level.describe(self.base_game.stakes.betting)
            nxt = t.next_in()
            when = (
                f"{nxt['hands']:g} hands"
                if "hands" in nxt
                else f"{nxt['seconds'] / 60:.0f} minutes"
            )
            self.console.print(f"[bold]level {index + 1}[/bold]: {stakes} (next level in {when})")
        self._level = index

    def _after_hand(self, t: Tournament, before: dict[int, int]) -> None:
        s = self.session
        after = {seat: s.seats[seat].stack for seat in before}
        for entry in t.record_hand(before, after, order=list(before)):
            if entry.place == 1:
                continue
            prize = f", wins {entry.prize}" if entry.prize else ""
            who = "you are" if entry.seat == 0 else f"{escape(entry.name)} is"
            self.console.print(f"[bold]{who} out in place {entry.place}{prize}[/bold]")
            if entry.seat == 0 and not self.quiet:
                self.console.print("the bots play on to settle every place…")
                self.quiet = True

    def show_standings(self, t: Tournament) -> None:
        from rich.table import Table

        chips = {i: seat.stack for i, seat in enumerate(self.session.seats) if seat.stack > 0}
        table = Table(title="standings" if not t.over else f"standings (winner: {t.winner})")
        for column in ("place", "name", "chips", "out in hand", "prize"):
            table.add_column(column, justify="left" if column == "name" else "right")
        for row in t.standings(chips):
            table.add_row(
                "-" if row["place"] is None else str(row["place"]),
                escape(row["name"]),
                "" if row["chips"] is None else str(row["chips"]),
                "" if row["out_hand"] is None else str(row["out_hand"]),
                "" if row["prize"] is None else str(row["prize"]),
            )
        self.console.print(table)

    def show_session(self) -> None:
        """The session's result: hands played, each seat's net, the biggest pot."""
        s = self.session
        lines = [f"[bold]session result[/bold]: {s.hands_played} hand(s)"]
        biggest = self.ledger.biggest
        if self.tournament is None:
            bb = big_blind(self.base_game)
            nets = [seat.stack - self.ledger.bought[i] for i, seat in enumerate(s.seats)]
            lines.append(f"your net: {nets[0]:+d} chips ({nets[0] / bb:+.1f} big blinds of {bb})")
            width = max(12, *(len(seat.name) for seat in s.seats))
            lines.append(
                f"  {'seat':>4}  {'name':<{width}}  {'bought in':>9}  {'stack':>9}  "
                f"{'net':>9}  {'bb':>8}"
            )
            for i, seat in enumerate(s.seats):
                lines.append(
                    f"  {i + 1:>4}  {escape(seat.name):<{width}}  {self.ledger.bought[i]:>9}  "
                    f"{seat.stack:>9}  {nets[i]:>+9d}  {nets[i] / bb:>+8.1f}"
                )
        if biggest is not None:
            who = ", ".join(escape(w) for w in biggest.winners)
            lines.append(f"biggest pot: {biggest.chips} (hand {biggest.hand}, won by {who})")
        self.console.print("\n".join(lines))

    def show_last(self) -> None:
        """The previous hand again, from the deal to the awards."""
        if self.last is None:
            self.console.print("no hand has finished yet")
            return
        number, teller = self.last
        hand = teller.hand
        self.console.print(f"[bold]last hand: hand {number}[/bold] · {escape(hand.game.name)}")
        players = ", ".join(
            f"{teller.who(p)} {hand.starting_stacks[p]}"
            + (" (button)" if p == hand.players - 1 and not teller.stud else "")
            for p in range(hand.players)
        )
        self.console.print(f"  players: {players}")
        for line in teller.lines():
            self.console.print(f"  {line}")
        self.console.print("[bold]end of the last hand[/bold]")

    def play_hand(self, hand: HandState, teller: HandTeller) -> None:
        s = self.session
        decisions: dict[int, int] = {}
        shown = 0
        while not hand.is_over:
            shown = self._announce(hand, teller, shown)
            p = hand.actor
            if p is None:  # pragma: no cover - automatic dealing never waits
                raise GameError("the hand waits for nobody")
            seat = s.seat_of(p)
            assert seat is not None
            if seat == 0:
                self._your_turn(hand, p)
                continue
            k = decisions.get(p, 0)
            decisions[p] = k + 1
            rng = random.Random(f"{hand.seed} {p} {k}")
            action = self.bots[seat - 1].act(seat_view(hand, p), rng)
            apply(hand, action)
        self._announce(hand, teller, shown)
        end = teller.summary()
        if end and not self.quiet:
            self.console.print(f"  {end}")

    def _announce(self, hand: HandState, teller: HandTeller, shown: int) -> int:
        """Print what happened since event ``shown`` as you may see it."""
        if self.quiet:
            return shown
        history = seat_view(hand, teller.me).history
        for e in history[shown:]:
            text = teller.line(e)
            if text:
                self.console.print(f"  {text}")
        return len(history)

    def _read(self) -> str:
        """One line typed at a prompt (EOFError at the end of the input); echoed when
        the input is not a terminal, so a transcript reads as it was played."""
        try:
            line = self.stdin.readline()
        except KeyboardInterrupt:
            self.console.print()  # what follows starts on a line of its own
            raise
        if not line:
            self.console.print()
            raise EOFError
        text = line.strip()
        if not self.interactive:
            self.console.print(escape(text))
        return text

    def _your_turn(self, hand: HandState, p: int) -> None:
        view = seat_view(hand, p)
        legal = view.legal
        assert legal is not None
        self.console.print(self.render(view))
        if self.hints and legal.phase in (Phase.BET, Phase.DRAW):
            self.console.print(self._hint(view, legal))
        prompt = f"[bold]your move[/bold] ({menu(legal, view)}; l last hand, q quits): "
        self.console.print(prompt, end="")
        while True:
            text = self._read()
            if text.lower() in QUIT:
                raise Quit
            if text.lower() in LAST:
                self.show_last()
                self.console.print(prompt, end="")
                continue
            try:
                action = Action.parse(text, hand.game.game.deck)
                apply(hand, action)
                return
            except ValueError as exc:  # ActionError and card errors: say why, ask again
                message = yours(str(exc), p, raise_word(legal, view))
                self.console.print(f"[red]{escape(message)}[/red]; try again: ", end="")

    def _hint(self, view: SeatView, legal: Legal) -> str:
        from cardlab.bots.equity import hand_equity, one_thread

        call = legal.call or 0
        odds = call / (view.total_pot + call) if call else 0.0
        pot_odds = f"; pot odds {odds:.1%}" if call else ""
        with one_thread():
            if draws_ahead(view):
                kept = best_keep(view)
                eq = hand_equity(view, random.Random(view.total_pot), 4000, hole=kept)
                drawn = len(view.hole) - len(kept)
                keep = (
                    "stand pat"
                    if not drawn
                    else f"keep {format_cards(kept)}, draw {drawn}"
                    if kept
                    else f"draw {drawn}"
                )
                return (
                    f"hint: best keep: {keep}; your equity after the draw ≈ {eq:.1%} against "
                    f"random hands{pot_odds}"
                )
            eq = hand_equity(view, random.Random(view.total_pot), 4000)
        return f"hint: your equity ≈ {eq:.1%} against random hands{pot_odds}"

    def render(self, view: SeatView) -> str:
        names = [escape(n) for n in self.session.names()]
        lines = [f"[bold]{view.street}[/bold]  pot {view.total_pot}"]
        if view.board:
            lines.append(f"board: {format_cards(view.board)}")
        stud = any(any(street.hole) for street in view.game.streets)
        button = None if stud else len(view.players) - 1
        for pl in view.players:
            if pl.position == view.position:
                cards = own_cards(pl.cards, pl.up, stud)
            else:
                cards = " ".join("??" if c is None else str(c) for c in pl.cards)
            mark = "→ " if pl.position == view.actor else "  "
            tags = [
                word
                for word, on in (
                    ("button", pl.position == button),
                    ("all-in", pl.all_in),
                    ("folded", not pl.in_hand),
                )
                if on
            ]
            state = f"  ({', '.join(tags)})" if tags else ""
            lines.append(
                f"{mark}{names[pl.position]:<12} stack {pl.stack:>6}  bet {pl.bet:>5}  "
                f"{cards}{state}"
            )
        return "\n".join(lines)

    def keep(self, hand: HandState) -> None:
        if hand.game.own_order:  # a small game of cardlab.solve: PHH has no variant for it
            return
        self.store.add_hand(record(hand, players=self.session.names(), source="play"))


def draws_ahead(view: SeatView) -> bool:
    """Draw: whether a draw is still to come in this hand (or is being made now)."""
    if view.phase is Phase.DRAW:
        return True
    return any(street.draw for street in view.game.streets[view.street_index + 1 :])


def best_keep(view: SeatView) -> tuple[Card, ...]:
    """The cards to keep for the draw: the exact best keep
    (:func:`cardlab.poker.draw_strength.keep_strengths`), or on a deck too big for its
    table (or in a game not won by a five-card high hand) the keep with the best sampled
    equity, as the equity bot draws."""
    from cardlab.bots.equity import hand_equity, known_cards
    from cardlab.poker.draw_strength import keep_strengths

    hole = tuple(view.hole)
    _, dead = known_cards(view)
    variant = getattr(view.game, "variant", None)
    high = variant is None or (variant.high and variant.low is None)
    if high and len(hole) == 5:  # the exact table scores five-card high hands
        try:
            return keep_strengths(view.game.game, hole, dead=dead)[0].kept
        except GameError:  # a deck too big for the table
            pass
    seed = random.Random(view.total_pot).getrandbits(62)
    best: tuple[float, int, tuple[Card, ...]] = (-1.0, 0, hole)
    for size in range(len(hole), -1, -1):
        for kept in itertools.combinations(hole, size):
            eq = hand_equity(view, random.Random(seed), 160, kept)
            if (eq, size) > best[:2]:
                best = (eq, size, kept)
    return best[2]


def raise_word(legal: Legal, view: SeatView) -> str:
    """What ``r`` does now: complete a Stud bring-in, bet (nobody has bet this round),
    or raise (over a bet or a blind)."""
    if legal.complete:
        return "complete"
    return "bet" if max(p.bet for p in view.players) == 0 else "raise"


_THEIR = (
    (" has ", " have "),
    (" discards ", " discard "),
    ("their stack", "your stack"),
    ("their hand", "your hand"),
    ("their cards", "your cards"),
    ("than they hold", "than you hold"),
)


def yours(message: str, p: int, word: str) -> str:
    """The engine's message about player ``p`` (``"p2 must bet or raise to at least 4"``)
    said to you (``"you must raise to at least 4"``), with the word ``r`` means now."""
    text = re.sub(rf"\bp{p + 1}\b", "you", message)
    if text != message:
        for third, second in _THEIR:
            text = text.replace(third, second)
    to = " to" if word != "bet" else ""
    return text.replace("bet or raise to", f"{word}{to}").replace("bet or raise", word)


def menu(legal: Legal, view: SeatView | None = None) -> str:
    """The legal actions with their amounts, as typed."""
    if legal.phase is Phase.DRAW:
        return f"d CARDS to discard up to {legal.discard}, d to stand pat"
    if legal.phase is Phase.SHOWDOWN:
        return "s show, m muck"
    items = []
    if legal.fold:
        items.append("f fold")
    if legal.call is not None:
        items.append("c check" if legal.call == 0 else f"c call {legal.call}")
    if legal.bring_in is not None:
        items.append(f"b bring in {legal.bring_in}")
    if legal.raise_min is not None:
        word = (
            raise_word(legal, view)
            if view is not None
            else ("complete" if legal.complete else "raise")
        )
        if legal.raise_min == legal.raise_max:
            items.append(f"r {legal.raise_min} {word}")
        else:
            to = "" if word == "bet" else " to"
            items.append(f"r {legal.raise_min}..{legal.raise_max} {word}{to}")
    return ", ".join(items)
