"""Any replayed hand written as PokerStars-style text, for tools that read only that.

:func:`dumps` writes a finished hand of a button game (Hold'em and Omaha, high and
high/low, any betting) the way PokerStars does: the first line with the game and the
blinds, the table and the button's seat, a ``Seat`` line per player, the forced bets,
``*** HOLE CARDS ***`` with each hand whose cards are known, the actions street by
street (``raises 4 to 6``), the boards, the uncalled bet, the shows, what each player
collected and the summary with the total pot. Reading the text back
(:mod:`.pokerstars`) gives the same stacks: ``tests/table/test_site_histories.py``
checks it. A site's hand keeps its hand number and rake; any other is numbered by
``hand_id``.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal

from cardlab.errors import HistoryError
from cardlab.table import events as ev
from cardlab.table.history import Replay
from cardlab.table.phh_actions import format_amount

_GAMES = {
    "NT": "Hold'em No Limit",
    "PT": "Hold'em Pot Limit",
    "FT": "Hold'em Limit",
    "NO": "Omaha No Limit",
    "PO": "Omaha Pot Limit",
    "FO": "Omaha Limit",
    "NO/8": "Omaha Hi/Lo No Limit",
    "PO/8": "Omaha Hi/Lo Pot Limit",
    "FO/8": "Omaha Hi/Lo Limit",
}
_STREETS = {1: "FLOP", 2: "TURN", 3: "RIVER"}
_BY_LENGTH = {0: "FLOP", 3: "TURN", 4: "RIVER"}  # a run's street by the board before it
_RUNS = ("FIRST", "SECOND", "THIRD")
_TIMES = {2: "two", 3: "three"}


def dumps(r: Replay, hand_id: str | int = 1) -> str:
    """The hand of ``r`` as PokerStars text; :class:`HistoryError` for a game
    PokerStars' text cannot say (stud, draw, another deck)."""
    history = r.history
    game = _GAMES.get(history.variant)
    if game is None or history.deck.name.lower() != "standard52":
        raise HistoryError(
            f"variant {history.variant!r} on {history.deck.name} is not written as PokerStars "
            f"text (Hold'em and Omaha on the standard deck are)"
        )
    if r.infinite:
        raise HistoryError("PokerStars text cannot say an unknown (inf) stack")
    if history.ante_trimming_status and any(history.antes):
        raise HistoryError("PokerStars text cannot say ante trimming (antes as bets)")
    n = r.hand.players
    names = list(history.players or [f"p{i + 1}" for i in range(n)])
    seats = list(history.seats or range(1, n + 1))
    money = _say
    blinds = [b for b in history.blinds_or_straddles or () if b > 0]
    if game.endswith(" Limit") and "Pot" not in game and "No" not in game:
        stakes = (history.small_bet, history.big_bet)
    else:
        stakes = (min(blinds, default=0), history.min_bet)
    number = history.hand if history.user_fields.get("_site") == "pokerstars" else hand_id
    lines = [
        f"PokerStars Hand #{number}:  {game} ({money(stakes[0])}/{money(stakes[1])})"
        f" - 2000/01/01 00:00:00 ET",
        f"Table 'cardlab' {max(n, 2)}-max Seat #{seats[1 if n == 2 else n - 1]} is the button",
    ]
    order = sorted(range(n), key=lambda i: seats[i])
    for i in order:
        lines.append(f"Seat {seats[i]}: {names[i]} ({money(r.starting_stacks[i])} in chips)")
    lines += _body(r, names)
    won = r.winnings
    rake = sum((_rake_share(r, i) for i in range(n)), Decimal(0))
    coin = _coin(r)
    for i in order:
        if won[i]:  # a split finer than the coin in whole coins, as the sites pay it
            paid = (Decimal(won[i]) - _rake_share(r, i)).quantize(coin, ROUND_HALF_EVEN)
            lines.append(f"{names[i]} collected {money(paid)} from pot")
    total = sum((Decimal(w) for w in won), Decimal(0))
    lines += ["*** SUMMARY ***", f"Total pot {money(total)} | Rake {money(rake)}"]
    board = [str(c) for c in r.hand.runouts()[0]]
    if board:
        lines.append(f"Board [{' '.join(board)}]")
    return "\n".join(lines) + "\n"


def _coin(r: Replay) -> Decimal:
    """The smallest amount of the hand's own figures (a cent for 0.25, 1 for chips)."""
    h = r.history
    places = 0
    amounts = [*h.starting_stacks, *h.antes, *(h.blinds_or_straddles or ()), *(h.winnings or ())]
    for value in amounts + [a for a in (h.min_bet, h.small_bet, h.big_bet) if a is not None]:
        exponent = Decimal(value).as_tuple().exponent
        if isinstance(exponent, int):
            places = max(places, -exponent)
    return Decimal(1).scaleb(-places)


def _rake_share(r: Replay, i: int) -> Decimal:
    """A site's hand: what player ``i`` paid of the rake (its text's winnings)."""
    recorded = r.history.winnings
    if recorded is None or "_site" not in r.history.user_fields:
        return Decimal(0)
    return Decimal(r.winnings[i]) - Decimal(recorded[i])


def _say(value: int | Decimal | None) -> str:
    """An amount in the file's units as the text writes it."""
    return "0" if value is None else format_amount(value)


def _body(r: Replay, names: list[str]) -> list[str]:
    """The forced bets, hole cards, actions and shows, street by street."""

    def chips(value: int) -> str:  # engine chips in the file's units
        return _say(r.amounts([value])[0])

    n = r.hand.players
    lines: list[str] = []
    street = [0] * n
    posted = [e.amount for e in r.hand.history if isinstance(e, ev.PostBlind)]
    small = min(posted[:2], default=0)  # heads-up the big blind posts first
    returned = [0] * n
    awarded = [0] * n
    board: list[str] = []
    for e in r.hand.history:
        if isinstance(e, ev.NewStreet):
            if e.index > 0:
                street = [0] * n
        elif isinstance(e, ev.PostAnte):
            lines.append(f"{names[e.player]}: posts the ante {chips(e.amount)}")
        elif isinstance(e, ev.PostBlind):
            first_two = sum(street) < sum(posted[:2]) and e.amount in posted[:2]
            big = max(posted[:2], default=0)
            kind = "small blind" if first_two and e.amount == small else "big blind"
            if not first_two and e.amount > big:
                kind = "straddle"  # a post of the big blind or less: a live post
            if kind == "small blind":
                small = -1  # one small blind
            street[e.player] += e.amount
            lines.append(f"{names[e.player]}: posts {kind} {chips(e.amount)}")
        elif isinstance(e, ev.DealHole) and "*** HOLE CARDS ***" not in lines:
            _hole_header(lines)
            for i, held in enumerate(r.hand.hole):  # each hand whose every card is known
                if held and None not in held:
                    lines.append(f"Dealt to {names[i]} [{' '.join(map(str, held))}]")
        elif isinstance(e, ev.NewRun):  # GGPoker's run it twice: "*** SECOND FLOP ***"
            board = board[: r.hand.all_in_board or 0]
        elif isinstance(e, ev.DealBoard):
            _hole_header(lines)
            shown = [str(c) for c in e.cards]
            title = _STREETS.get(len([x for x in lines if x.startswith("*** ")]), "RIVER")
            shared = r.hand.all_in_board
            if r.hand.runs > 1 and shared is not None and len(board) >= shared:
                run = sum(
                    1 for x in r.hand.history[: r.hand.history.index(e)] if isinstance(x, ev.NewRun)
                )
                if run == 0 and len(board) == shared:
                    lines.append(f"Hand was run {_TIMES.get(r.hand.runs, r.hand.runs)} times")
                title = f"{_RUNS[run]} {_BY_LENGTH.get(len(board), 'RIVER')}"
            before = f"[{' '.join(board)}] " if board else ""
            lines.append(f"*** {title} *** {before}[{' '.join(shown)}]")
            board += shown
        elif isinstance(e, ev.Fold):
            lines.append(f"{names[e.player]}: folds")
        elif isinstance(e, ev.CheckCall):
            if e.amount:
                street[e.player] += e.amount
                lines.append(f"{names[e.player]}: calls {chips(e.amount)}")
            else:
                lines.append(f"{names[e.player]}: checks")
        elif isinstance(e, ev.CompleteBetRaiseTo):
            facing = max(street)
            if facing:
                raised = f"raises {chips(e.chips - facing)} to {chips(e.chips)}"
                lines.append(f"{names[e.player]}: {raised}")
            else:
                lines.append(f"{names[e.player]}: bets {chips(e.chips)}")
            street[e.player] = e.chips
        elif isinstance(e, ev.ReturnBet):
            returned[e.player] += e.amount
        elif isinstance(e, ev.Award):
            for p, a in zip(e.players, e.amounts, strict=True):
                awarded[p] += a
        elif isinstance(e, ev.ShowMuck):
            if "*** SHOW DOWN ***" not in lines and r.hand.result and r.hand.result.showdown:
                lines.append("*** SHOW DOWN ***")
            if e.cards:
                lines.append(f"{names[e.player]}: shows [{' '.join(map(str, e.cards))}]")
            else:
                lines.append(f"{names[e.player]}: mucks hand")
    won = r.winnings
    for i in range(n):
        # the engine gives back a lone winner's whole last bet; PokerStars only the
        # part nobody called (the rest is collected with the pot)
        called = Decimal(won[i]) - Decimal(r.amounts([awarded[i]])[0])
        back = Decimal(r.amounts([returned[i]])[0]) - called
        if back > 0:
            lines.append(f"Uncalled bet ({_say(back)}) returned to {names[i]}")
    return lines


def _hole_header(lines: list[str]) -> None:
    if "*** HOLE CARDS ***" not in lines:
        lines.append("*** HOLE CARDS ***")
