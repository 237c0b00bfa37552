"""The report's postflop comparison of decks: one single-raised-pot spot solved on a
dry and on a wet flop of each deck (standard52 and FESCA78 by default), and how often
each player bets, check-raises and folds, and how the EV moves.

**The spot** (:class:`PostflopSettings`): IP is the preflop raiser, OOP the big blind
who called; the pot and the stack are in chips (55 and 245 by default: 5.5 big blinds
of 10 chips with 24.5 behind), one bet size per street, a raise on the flop only (so
OOP can check-raise), nothing else, and narrow ranges, so that each solve stays small
(minutes, not hours, on two shared cores). Each deck's spot is
solved by :func:`cardlab.solve.postflop.solve` to ``target`` % of the pot (at most
``iterations``).

**The flops** (:func:`pick_flops`), by a rule read off the deck's own ranks, suits and
straights, so that it means the same on any deck:

- *dry*: three suits (the first three of the deck's main group of interchangeable
  suits, in deck order), the deck's second-highest rank as the high card, and two low
  ranks (the lower half of the rank ladder, index below ranks // 2) that share no
  straight of the rules with each other; of those, the pair that leaves the fewest pairs
  of the flop's ranks in a common straight, then the highest low ranks. On standard52
  this is K72 rainbow (no two ranks in one straight). FESCA78's straights wrap around a
  ring of 13 ranks, so every three ranks have two in one straight: its dry flop keeps
  one such pair (12 with 1, through 10-11-12-Z-1);
- *wet*: the three ranks just above the middle of the ladder (indices ranks // 2 to
  ranks // 2 + 2: T98 on standard52, 987 on FESCA78), the two highest of the first
  main suit, the lowest of the second: two-tone, and all three in one straight.

**The ranges** are given in standard52's notation (:data:`IP_RANGE`, :data:`OOP_RANGE`).
On another deck each is carried *by share* (:mod:`cardlab.analysis.hand_order`): both
decks' starting hands are ordered by their equity against one random hand (sampled,
10,000 deals a class, the deck's own rules), and the deck's range takes the hands at the
same places of its order as the standard52 range's hands in standard52's (a class cut at
a boundary with the fraction it overlaps as its weight). Each range holds the same share
of the deck's starting hands as on standard52, and the same part of the order: the
raiser's range stays the top of it, the caller's the band below the top it calls with.
Each range's share is reported beside it.

**The figures** per deck and flop, all read from the solution's nodes
(:meth:`cardlab.solve.postflop.PostflopSolution.node`), each a frequency of the acting
player's range weighted by reach × the opponent hands it meets
(:meth:`~cardlab.solve.postflop.Node.frequencies`):

- ``oop_lead``: OOP bets at the root (every size and all in);
- ``ip_bet``: IP bets after OOP checks;
- ``oop_check_raise``, ``oop_fold``: OOP raises / folds after checking and facing IP's
  bet (the first bet size);
- ``ip_raise``, ``ip_fold``: IP raises / folds facing OOP's lead;
- each player's EV (chips, and % of the pot) and equity at the root, the
  exploitability reached (% of the pot), the iterations and the seconds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from cardlab.cards import Card, format_cards
from cardlab.errors import GameError
from cardlab.poker.games import Game

DECKS = ("standard52", "FESCA78")
"""The decks the section compares."""
FLOPS = ("dry", "wet")
REFERENCE = "standard52"
IP_RANGE = "88+,ATs+,KQs,JTs,AQo+"
"""The raiser's range (standard52 notation; carried by share to other decks)."""
OOP_RANGE = "22-99,A9s-AJs,KJs,QJs,T9s,98s,87s,76s,AJo,KQo"
"""The big blind's calling range (standard52 notation)."""


@dataclass(frozen=True, slots=True)
class PostflopSettings:
    """The spot the section solves on every deck and flop, and how far."""

    ip: str = IP_RANGE
    oop: str = OOP_RANGE
    pot: int = 55
    stack: int = 245
    bets: str = "50%"
    flop_raises: str = "2.5x"
    target: float = 2.0  # % of the pot
    iterations: int = 150

    def __post_init__(self) -> None:
        if not 0 < self.target < 100:
            raise GameError(f"the postflop target is a % of the pot above 0, got {self.target!r}")
        if isinstance(self.iterations, bool) or not 1 <= self.iterations <= 100_000:
            raise GameError(f"postflop iterations must be 1 to 100,000, got {self.iterations!r}")

    def spot(self, game: Game, board: str) -> Any:
        """The :class:`~cardlab.solve.postflop.Spot` on ``game``'s deck and ``board``."""
        from cardlab.solve.postflop import Spot

        oop, ip = deck_range(self.oop, game), deck_range(self.ip, game)
        no_raise = {"raises": ""}
        return Spot(
            game.key,
            board,
            oop,
            ip,
            self.pot,
            self.stack,
            bets=self.bets,
            raises=self.flop_raises,
            streets={"turn": dict(no_raise), "river": dict(no_raise)},
        )

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# --- the flops ---------------------------------------------------------------------


def _main_suits(game: Game) -> tuple[Any, ...]:
    from cardlab.poker.classes import suit_groups

    groups = suit_groups(game.rules)
    sizes = [len(g) for g in groups]
    return groups[sizes.index(max(sizes))]


def _share_straight(game: Game, ranks: Sequence[int]) -> bool:
    mask = sum(1 << r for r in ranks)
    return any(bin(mask & s).count("1") == len(set(ranks)) for s in game.rules.straights)


def pick_flops(game: Game) -> dict[str, str]:
    """The dry and the wet flop of ``game``'s deck by the module's rule, as text."""
    deck = game.deck
    suits = _main_suits(game)
    n = len(deck.ranks)
    if len(suits) < 3 or n < 6:
        raise GameError(
            f"the postflop section needs 3 interchangeable suits and 6 ranks, "
            f"{deck.name} has {len(suits)} and {n}"
        )
    high = n - 2
    best: tuple[tuple[int, int, int], tuple[int, int]] | None = None
    for a, b in combinations(range(n // 2), 2):
        lo, hi = a, b
        if _share_straight(game, (lo, hi)):
            continue
        linked = sum(_share_straight(game, pair) for pair in combinations((high, hi, lo), 2))
        score = (-linked, hi, lo)
        if best is None or score > best[0]:
            best = (score, (hi, lo))
    if best is None:
        raise GameError(f"no two low ranks of {deck.name} share no straight: no dry flop")
    hi, lo = best[1]
    dry = (Card(suits[0], deck.ranks[high]), Card(suits[1], deck.ranks[hi]),
           Card(suits[2], deck.ranks[lo]))  # fmt: skip
    m = n // 2
    wet = (Card(suits[0], deck.ranks[m + 2]), Card(suits[0], deck.ranks[m + 1]),
           Card(suits[1], deck.ranks[m]))  # fmt: skip
    return {"dry": format_cards(dry), "wet": format_cards(wet)}


# --- the ranges --------------------------------------------------------------------


def deck_range(text: str, game: Game) -> str:
    """A standard52 range on ``game``'s deck: itself on standard52, else the deck's
    classes that hold the same share of its starting hands, at the same places of its
    order by equity (:func:`cardlab.analysis.hand_order.range_by_share`)."""
    from cardlab.analysis.hand_order import hand_order, range_by_share
    from cardlab.poker.classes import hand_classes
    from cardlab.poker.games import get_game
    from cardlab.solve.postflop import parse_weighted_range

    reference = get_game(f"{REFERENCE}-holdem")
    if game.deck.name.lower() == REFERENCE and game.rules == reference.rules:
        return text
    held = parse_weighted_range(text, reference)
    weight_of = {frozenset(c): w for c, w in zip(held.combos, held.weights, strict=True)}
    weights = {
        c.name: sum(weight_of.get(frozenset(h), 0.0) for h in c.combos) / c.count
        for c in hand_classes(reference.rules)
    }
    chosen = range_by_share(weights, hand_order(reference), hand_order(game))
    if not chosen:
        raise GameError(f"no class of {game.deck.name} matches the range {text!r}")
    return ",".join(name if w == 1.0 else f"{name}:{w:g}" for name, w in chosen.items())


def range_share(text: str, game: Game) -> float:
    """The share of ``game``'s starting hands (two cards of the whole deck) in a range."""
    from cardlab.solve.postflop import parse_weighted_range

    r = parse_weighted_range(text, game)
    return sum(r.weights) / math.comb(len(game.deck), 2)


# --- one solve, and its figures ------------------------------------------------------


def _bets(actions: Sequence[str]) -> list[str]:
    return [a for a in actions if a[:1] in ("b", "a")]


def _raises(actions: Sequence[str]) -> list[str]:
    return [a for a in actions if a[:1] in ("r", "a")]


def _freq(node: Any, wanted: Sequence[str]) -> float:
    freqs = dict(zip(node.actions, node.frequencies(), strict=True))
    return float(sum(freqs[a] for a in wanted))


def spot_figures(solution: Any) -> dict[str, Any]:
    """The section's figures of one solved spot (see the module text)."""
    root = solution.root()
    lead = _bets(root.actions)
    after_check = solution.node("k")
    ip_bet = _bets(after_check.actions)
    out: dict[str, Any] = {
        "oop_lead": _freq(root, lead),
        "ip_bet": _freq(after_check, ip_bet),
        "oop_check_raise": math.nan,
        "oop_fold": math.nan,
        "ip_raise": math.nan,
        "ip_fold": math.nan,
    }
    if ip_bet:
        facing = solution.node(f"k {ip_bet[0]}")
        out["oop_check_raise"] = _freq(facing, _raises(facing.actions))
        out["oop_fold"] = _freq(facing, ["f"])
        out["facing_ip_bet"] = f"k {ip_bet[0]}"
    if lead:
        facing = solution.node(lead[0])
        out["ip_raise"] = _freq(facing, _raises(facing.actions))
        out["ip_fold"] = _freq(facing, ["f"])
        out["facing_oop_lead"] = lead[0]
    ev, equity = solution.ev(), solution.equity()
    pot = solution.spot.pot
    out.update(
        ev={"oop": ev.oop, "ip": ev.ip},
        ev_pot={"oop": 100 * ev.oop / pot, "ip": 100 * ev.ip / pot},
        equity={"oop": equity.oop, "ip": equity.ip},
        exploitability_pot_percent=solution.exploitability_pot_percent,
        iterations=solution.iterations,
    )
    return out


@dataclass(frozen=True)
class PostflopSpotTask:
    """One deck's spot on one flop, solved and summed up (a task of
    :mod:`cardlab.tasks`, so its result is kept in the cache)."""

    game: Game
    flop: str  # "dry" or "wet"
    settings: PostflopSettings

    def key(self) -> str:
        from cardlab.analysis.chart import game_text

        s = self.settings
        return (
            f"report-postflop|{game_text(self.game)}|{self.flop}|ip={s.ip}|oop={s.oop}|"
            f"pot={s.pot}|stack={s.stack}|bets={s.bets}|raises={s.flop_raises}|"
            f"target={s.target!r}|iterations={s.iterations}"
        )

    def run(self) -> dict[str, Any]:
        from cardlab.solve.postflop import solve

        board = pick_flops(self.game)[self.flop]
        spot = self.settings.spot(self.game, board)
        start = time.perf_counter()
        solution = solve(spot, self.settings.iterations, target=self.settings.target)
        seconds = time.perf_counter() - start
        return {
            "deck": self.game.deck.name,
            "game": self.game.key,
            "flop": self.flop,
            "board": board,
            "oop_range": spot.oop,
            "ip_range": spot.ip,
            "oop_share": range_share(spot.oop, self.game),
            "ip_share": range_share(spot.ip, self.game),
            **spot_figures(solution),
            "seconds": seconds,
        }


def build_section(
    decks: Sequence[str] = DECKS,
    *,
    settings: PostflopSettings | None = None,
    client: Any = None,
    cache: Path | str | None = None,
    progress: Any = None,
) -> dict[str, Any]:
    """The section's data: the spot, the flop rule and one row per deck and flop."""
    from cardlab.poker.games import get_game
    from cardlab.tasks import run_tasks

    settings = settings or PostflopSettings()
    games = [get_game(f"{d}-holdem") for d in decks]
    tasks = [PostflopSpotTask(g, flop, settings) for g in games for flop in FLOPS]
    rows = run_tasks(tasks, client=client, cache=cache, progress=progress)
    return {"spot": settings.as_dict(), "rows": rows, "flop_rule": FLOP_RULE}


FLOP_RULE = (
    "dry: three suits, the second-highest rank with two low ranks (lower half of the "
    "ladder) that share no straight, the fewest linked pairs of ranks, then the highest; "
    "wet: the three ranks just above the middle of the ladder, two of one suit."
)


# --- presentation ------------------------------------------------------------------

HEADERS = ["deck", "flop", "OOP leads", "IP bets", "OOP check-raises", "OOP folds",
           "IP raises", "IP folds", "EV OOP", "EV IP", "EV OOP % pot", "equity OOP",
           "exploitability % pot", "iterations", "seconds"]  # fmt: skip


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.1%}"


def rows(section: dict[str, Any]) -> list[list[str]]:
    """The table's rows, one per deck and flop."""
    out = []
    for r in section["rows"]:
        out.append(
            [
                r["deck"],
                f"{r['flop']} {r['board']}",
                _pct(r["oop_lead"]),
                _pct(r["ip_bet"]),
                _pct(r["oop_check_raise"]),
                _pct(r["oop_fold"]),
                _pct(r["ip_raise"]),
                _pct(r["ip_fold"]),
                f"{r['ev']['oop']:.2f}",
                f"{r['ev']['ip']:.2f}",
                f"{r['ev_pot']['oop']:.1f}%",
                _pct(r["equity"]["oop"]),
                f"{r['exploitability_pot_percent']:.2f}%",
                str(r["iterations"]),
                f"{r['seconds']:.1f}",
            ]
        )
    return out


def spot_line(section: dict[str, Any]) -> str:
    s = section["spot"]
    return (
        f"pot {s['pot']}, stack {s['stack']}, bets {s['bets']} every street, flop raise "
        f"{s['flop_raises']}, solved to {s['target']:g}% of the pot (at most "
        f"{s['iterations']} iterations)"
    )


def range_lines(section: dict[str, Any]) -> list[str]:
    """Each deck's two ranges and their shares of the deck's starting hands."""
    seen: dict[str, str] = {}
    for r in section["rows"]:
        seen.setdefault(
            r["deck"],
            f"{r['deck']}: OOP {r['oop_share']:.1%} of hands, IP {r['ip_share']:.1%} "
            f"(OOP {r['oop_range']}; IP {r['ip_range']})",
        )
    return list(seen.values())
