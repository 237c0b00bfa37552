"""``cardlab play``: a table in the terminal, you against bots, hand after hand.

You sit in seat 1; the bots fill the other seats. Each time it is your turn the
table is drawn (your cards, the board, every stack and bet, the pot, whose turn) with
the legal actions and their amounts; type ``f``, ``c``, ``r 20``, ``b``, ``d 木7 火2``
(``d`` alone stands pat) or ``q`` to quit. Every finished hand is written to the hand
store at once, so quitting (``q``, Ctrl-D, Ctrl-C) mid-hand loses only the hand in play.

``--tournament`` plays a sit-and-go instead (:mod:`cardlab.table.tournament`): the
forced bets rise every ``--level-hands`` hands (or ``--level-minutes``), a seat with no
chips is out, and the standings and prizes are printed at the end. If you go out
first, the bots play it out without you (quietly) so every place is known.
"""

from __future__ import annotations

import random
import sys
import time
from typing import TextIO

import click
from rich.console import Console

from cardlab.bots.arena import table_game
from cardlab.bots.base import Bot, get_bot
from cardlab.cards import format_cards
from cardlab.cli._common import deck_option, game_key, game_option, prepare_bots
from cardlab.cli.arena import bot_names, parse_blinds, stack_value
from cardlab.errors import GameError
from cardlab.store import Store
from cardlab.table import events as ev
from cardlab.table.actions import Action, apply
from cardlab.table.history import check_recordable, record
from cardlab.table.narrate import describe
from cardlab.table.session import Session
from cardlab.table.state import HandState, Legal, Phase
from cardlab.table.structure import MAX_SEATS, TableGame
from cardlab.table.tournament import Schedule, Tournament
from cardlab.table.view import SeatView, seat_view

QUIT = {"q", "quit", "exit"}


class Quit(Exception):
    """The player asked to leave."""


@click.command()
@game_option("fesca78-holdem")
@deck_option(None)
@click.option(
    "--seats",
    type=click.IntRange(2, MAX_SEATS),
    default=6,
    show_default=True,
    help="Seats at the table, yours included.",
)
@click.option("--bots", default="equity", show_default=True, help="Bot names, comma-separated.")
@click.option("--stack", default="200", show_default=True, help="Everyone's starting stack.")
@click.option("--blinds", default="1/2", show_default=True, help="SMALL/BIG (Stud: bring-in/bet).")
@click.option("--hints", is_flag=True, help="Show your equity and the pot odds.")
@click.option(
    "--seed",
    type=click.IntRange(min=0, max=2**63 - 1),
    default=None,
    help="Seed of the table (default: a new one, printed at the end).",
)
@click.option("--hands", type=click.IntRange(min=1), default=None, help="Stop after this many.")
@click.option("--name", default="you", show_default=True, help="Your name in the hand store.")
@click.option("--db", type=click.Path(dir_okay=False), default=None, help="The hand store file.")
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
    seats: int,
    bots: str,
    stack: str,
    blinds: str,
    hints: bool,
    seed: int | None,
    hands: int | None,
    name: str,
    db: str | None,
    tournament: bool,
    levels: str | None,
    level_hands: int | None,
    level_minutes: int | None,
    buy_in: int,
    payouts: str | None,
) -> None:
    """Play poker at a table of bots in the terminal (a cash game, or a sit-and-go with
    --tournament)."""
    if not tournament and (levels or level_hands or level_minutes or payouts):
        raise GameError("--levels, --level-hands, --level-minutes and --payouts need --tournament")
    if level_hands and level_minutes:
        raise GameError("levels last --level-hands or --level-minutes, not both")
    game = table_game(game_key(game_name, deck), parse_blinds(blinds))
    game.check_seats(seats)
    check_recordable(game)  # every hand is kept: a deck that cannot be is said before dealing
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
        prepare_bots(game.game, lineup, hints)
        if seed is None:
            seed = random.SystemRandom().getrandbits(32)
        session = Session(game, names, chips, seed=seed)
        table = TerminalTable(session, seat_bots, hints, store, sys.stdin, tournament=sng)
        try:
            table.run(hands)
        finally:
            table.console.print(
                f"{session.hands_played} hand(s) played; seed {seed}"
                + (f"; hands kept in {store.path}" if store.path else "")
            )


def parse_payouts(text: str) -> list[int]:
    """``"65,35"`` -> [65, 35] (checked against the entrants by the tournament)."""
    parts = [p.strip().rstrip("%") for p in text.split(",")]
    if not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts):
        raise GameError(f"payouts are whole percents by place, like 65,35, got {text!r}")
    return [int(p) for p in parts]


def _open_store(db: str | None) -> Store:
    return Store.open(db)


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
        self.console = Console(highlight=False)

    def run(self, limit: int | None) -> None:
        s = self.session
        t = self.tournament
        while s.can_deal() and (limit is None or s.hands_played < limit):
            if s.seats[0].stack == 0 and t is None:
                break
            if t is not None:
                self._level_up(t)
            hand = s.new_hand()
            if not self.quiet:
                self.console.rule(f"hand {s.hands_played + 1} · {s.game.game.name}")
            before = {seat: s.seats[seat].stack for seat in s.order}
            try:
                self.play_hand(hand)
            except (Quit, KeyboardInterrupt, EOFError):
                self.console.print("quit: the hand in play is not kept")
                return
            if not self.quiet:
                self.show_result(hand)
            self.keep(hand)
            s.end_hand()
            if t is not None:
                self._after_hand(t, before)
        if t is not None:
            self.show_standings(t)
            return
        if s.seats[0].stack == 0:
            self.console.print("you have no chips left")
        elif not s.can_deal():
            self.console.print("you won every chip at the table")

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
            who = "you are" if entry.seat == 0 else f"{entry.name} is"
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
                row["name"],
                "" if row["chips"] is None else str(row["chips"]),
                "" if row["out_hand"] is None else str(row["out_hand"]),
                "" if row["prize"] is None else str(row["prize"]),
            )
        self.console.print(table)

    def play_hand(self, hand: HandState) -> None:
        s = self.session
        decisions: dict[int, int] = {}
        shown = 0
        while not hand.is_over:
            shown = self._announce(hand, shown)
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
        self._announce(hand, shown)

    def _announce(self, hand: HandState, shown: int) -> int:
        """Print what happened since event ``shown`` as you may see it."""
        if self.quiet:
            return shown
        names = self.session.names()
        history = seat_view(hand, self._me(hand)).history
        for e in history[shown:]:
            if isinstance(e, ev.DealBoard):
                text: str | None = f"board: {format_cards(e.cards)}"
            elif isinstance(e, ev.DealHole):
                cards = " ".join("??" if c is None else str(c) for c in e.cards)
                text = f"{names[e.player]}: {cards}" if any(e.cards) else None
            elif isinstance(e, ev.NewStreet):
                text = f"[bold]{e.name}[/bold]"
            else:
                text = describe(e, names)
            if text:
                self.console.print(f"  {text}")
        return len(history)

    def _me(self, hand: HandState) -> int | None:
        return self.session.position_of(0)

    def _your_turn(self, hand: HandState, p: int) -> None:
        view = seat_view(hand, p)
        legal = view.legal
        assert legal is not None
        self.console.print(self.render(view))
        if self.hints and legal.phase is Phase.BET:
            self.console.print(self._hint(view, legal))
        self.console.print(f"[bold]your move[/bold] ({menu(legal)}; q quits): ", end="")
        while True:
            line = self.stdin.readline()
            if not line:
                raise EOFError
            text = line.strip()
            if text.lower() in QUIT:
                raise Quit
            try:
                action = Action.parse(text, hand.game.game.deck)
                apply(hand, action)
                return
            except GameError as exc:  # ActionError and card errors: say why, ask again
                self.console.print(f"[red]{exc}[/red]; try again: ", end="")
            except ValueError as exc:
                self.console.print(f"[red]{exc}[/red]; try again: ", end="")

    def _hint(self, view: SeatView, legal: Legal) -> str:
        from cardlab.bots.equity import hand_equity, one_thread

        with one_thread():
            eq = hand_equity(view, random.Random(view.total_pot), 4000)
        call = legal.call or 0
        odds = call / (view.total_pot + call) if call else 0.0
        return f"hint: your equity ≈ {eq:.1%} against random hands; pot odds {odds:.1%}"

    def render(self, view: SeatView) -> str:
        names = self.session.names()
        lines = [f"[bold]{view.street}[/bold]  pot {view.total_pot}"]
        if view.board:
            lines.append(f"board: {format_cards(view.board)}")
        for pl in view.players:
            cards = " ".join("??" if c is None else str(c) for c in pl.cards)
            mark = "→ " if pl.position == view.actor else "  "
            state = "" if pl.in_hand else " (folded)"
            lines.append(
                f"{mark}{names[pl.position]:<12} stack {pl.stack:>6}  bet {pl.bet:>5}  "
                f"{cards}{state}"
            )
        return "\n".join(lines)

    def show_result(self, hand: HandState) -> None:
        result = hand.result
        assert result is not None
        names = self.session.names()
        best = result.best_hands()
        for p, cards in sorted(result.shown.items()):
            value = best[p]
            self.console.print(
                f"  {names[p]} shows {format_cards(cards)}: {value.describe()} "
                f"(best five {format_cards(value.cards)})"
            )
        for a in result.awards:
            who = ", ".join(names[p] for p in a.players)
            label = "main pot" if a.pot == 0 else f"side pot {a.pot}"
            self.console.print(
                f"[bold]{label}: {who} win(s) {sum(a.amounts)}[/bold] (decided by {a.decided_by})"
            )

    def keep(self, hand: HandState) -> None:
        self.store.add_hand(record(hand, players=self.session.names(), source="play"))


def menu(legal: Legal) -> str:
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
        word = "complete" if legal.complete else "raise"
        if legal.raise_min == legal.raise_max:
            items.append(f"r {legal.raise_min} {word}")
        else:
            items.append(f"r {legal.raise_min}..{legal.raise_max} {word} to")
    return ", ".join(items)
