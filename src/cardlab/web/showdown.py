"""A showdown to play on the page: a seeded deal, streets revealed one by one, your
equity against random hands, and the settled showdown at the end.

The opponents' cards stay on the server until the showdown, so the equity shown is
against *random* hands: the library's Monte Carlo (:func:`~cardlab.poker.equity.sample_equity`
with ``"random"`` opponents) over every unseen card (the opponents' holes and the rest
of the board), with its standard error.
"""

from __future__ import annotations

import math
import random
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardlab.cards import Card
from cardlab.errors import GameError
from cardlab.poker.equity import RANDOM, HandLike, sample_equity
from cardlab.poker.games import Game, game_names, get_game
from cardlab.poker.showdown import best_five, settle
from cardlab.web.hands import card_payload, value_payload
from cardlab.web.live_games import LiveGames
from cardlab.web.payload import chance

STREETS = (("preflop", 0), ("flop", 3), ("turn", 4), ("river", 5))
DEFAULT_SAMPLES = 200_000  # Hold'em showdowns per street, shared among the players
MAX_SAMPLES = 2_000_000  # per street, however often "more samples" is asked for


@dataclass
class Deal:
    """One deal: seat 0 is you; ``stage`` indexes STREETS, len(STREETS) = showdown."""

    game: Game
    seed: int
    holes: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    stage: int = 0
    equities: dict[int, Tally] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def over(self) -> bool:
        return self.stage >= len(STREETS)

    @property
    def shown(self) -> tuple[Card, ...]:
        return self.board[: STREETS[min(self.stage, len(STREETS) - 1)][1]]


def board_games() -> list[dict[str, Any]]:
    """The games the page deals: those with a shared board (Hold'em, Omaha)."""
    out = []
    for key in game_names():
        game = get_game(key)
        if game.base.has_board:
            out.append({"key": key, "name": game.name, "max_opponents": game.max_players - 1})
    return out


def board_game(name: str) -> Game:
    """A built-in game with a board; the page does not read deck files from the server."""
    if name.strip().lower() not in game_names():
        examples = ", ".join(g for g in game_names() if g.endswith(("-holdem", "-omaha")))
        raise GameError(f"unknown game {name!r} (the page deals {examples})")
    game = get_game(name)
    if not game.base.has_board or game.base.board_cards != 5:
        raise GameError(f"the page deals games with a five-card board (holdem, omaha): {name!r}")
    return game


def new_deal(
    deals: LiveGames[Deal], name: str, opponents: int, seed: int | None, samples: int
) -> dict[str, Any]:
    game = board_game(name)
    most = game.max_players - 1
    if isinstance(opponents, bool) or not 1 <= opponents <= most:
        raise GameError(f"{game.name} takes 1 to {most} opponents: {opponents!r}")
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    if not 0 <= seed < 2**63:
        raise GameError(f"a seed is a whole number 0..2**63-1: {seed!r}")
    cards = list(game.deck.cards)
    random.Random(seed).shuffle(cards)
    h = game.base.hole_cards
    holes = tuple(tuple(cards[i * h : (i + 1) * h]) for i in range(opponents + 1))
    board = tuple(cards[(opponents + 1) * h : (opponents + 1) * h + 5])
    deal = Deal(game, seed, holes, board)
    deal_id = deals.add(deal)
    return deal_payload(deal_id, deal, samples)


def view(deals: LiveGames[Deal], deal_id: str, samples: int) -> dict[str, Any]:
    deal = deals.get(deal_id)
    with deal.lock:
        return deal_payload(deal_id, deal, samples)


def advance(deals: LiveGames[Deal], deal_id: str, samples: int) -> dict[str, Any]:
    deal = deals.get(deal_id)
    with deal.lock:
        if deal.over:
            raise GameError(f"the deal is over; start a new deal: {deal_id!r}")
        deal.stage += 1
        return deal_payload(deal_id, deal, samples)


def deal_payload(deal_id: str, deal: Deal, samples: int) -> dict[str, Any]:
    """What you may see: your cards, the board so far, your equity; all at the showdown
    (the seed too: it would give away every hidden card while the deal is live)."""
    game = deal.game
    out: dict[str, Any] = {
        "id": deal_id,
        "game": game.key,
        "game_name": game.name,
        "opponents": len(deal.holes) - 1,
        "hole": [card_payload(c) for c in deal.holes[0]],
        "board": [card_payload(c) for c in deal.shown],
        "street": "showdown" if deal.over else STREETS[deal.stage][0],
        "next": None if deal.over else _next_name(deal.stage),
    }
    if deal.shown and len(deal.shown) + len(deal.holes[0]) >= 5:
        out["current"] = value_payload(best_five(game, deal.holes[0], deal.shown))
    if deal.over:
        # the seed gives every card of the deal: shown only once nothing is hidden
        out["seed"] = deal.seed
        out["showdown"] = _showdown(deal)
        return out
    if deal.stage not in deal.equities:
        deal.equities[deal.stage] = _sample(deal, samples)
    out["equity"] = deal.equities[deal.stage].payload()
    out["equity_by_street"] = [
        {"street": STREETS[stage][0]} | deal.equities[stage].payload()
        for stage in sorted(deal.equities)
    ]
    out["more_samples"] = deal.equities[deal.stage].samples < MAX_SAMPLES
    return out


def _sample(deal: Deal, samples: int) -> Tally:
    """One more batch for the current street; batch k of a street always draws the same."""
    batch = deal.equities[deal.stage].samples if deal.stage in deal.equities else 0
    rng = np.random.default_rng([deal.seed, deal.stage, batch])
    others = len(deal.holes) - 1
    return equity_vs_random(deal.game, deal.holes[0], deal.shown, others, samples, rng)


def refine(deals: LiveGames[Deal], deal_id: str, samples: int) -> dict[str, Any]:
    """Sample the current street again and pool the results (a smaller error)."""
    deal = deals.get(deal_id)
    with deal.lock:
        if deal.over:
            raise GameError(f"the deal is over; start a new deal: {deal_id!r}")
        tally = deal.equities.get(deal.stage)
        if tally is not None and tally.samples >= MAX_SAMPLES:
            raise GameError(
                f"this street has {tally.samples} samples already (at most {MAX_SAMPLES})"
            )
        if tally is None:
            deal.equities[deal.stage] = _sample(deal, samples)
        else:
            tally.add(_sample(deal, samples))
        return deal_payload(deal_id, deal, samples)


def _next_name(stage: int) -> str:
    return STREETS[stage + 1][0] if stage + 1 < len(STREETS) else "showdown"


def _showdown(deal: Deal) -> dict[str, Any]:
    result = settle(deal.game, [list(h) for h in deal.holes], list(deal.board))
    return {
        "winners": [w + 1 for w in result.winners],
        "split": result.split,
        "decided_by": result.decided_by,
        "players": [
            {
                "seat": p.seat + 1,
                "you": p.seat == 0,
                "hole": [card_payload(c) for c in p.hole],
                "best_five": [card_payload(c) for c in p.best_five],
                "value": value_payload(p.value),
                "share": chance(p.share),
            }
            for p in result.players
        ],
    }


@dataclass
class Tally:
    """Sampled showdowns from one street: counts and the sums behind the estimate."""

    samples: int = 0
    wins: int = 0
    ties: int = 0
    total: float = 0.0  # sum of your pot shares
    total_sq: float = 0.0

    def add(self, other: Tally) -> None:
        self.samples += other.samples
        self.wins += other.wins
        self.ties += other.ties
        self.total += other.total
        self.total_sq += other.total_sq

    def payload(self) -> dict[str, Any]:
        n = self.samples
        eq = self.total / n
        se = math.sqrt(max(self.total_sq / n - eq * eq, 0.0) / (n - 1))
        return {
            "samples": n,
            "win": self.wins / n,
            "tie": self.ties / n,
            "equity": eq,
            "equity_se": se,
            "text": f"{eq * 100:.1f}% ± {se * 100:.1f}%",
        }


def equity_vs_random(
    game: Game,
    hole: tuple[Card, ...],
    board: tuple[Card, ...],
    opponents: int,
    samples: int,
    rng: np.random.Generator,
) -> Tally:
    """Your wins, ties and pot shares against ``opponents`` random hands, sampled by
    the library (:func:`~cardlab.poker.equity.sample_equity`).

    Each sample deals the opponents' holes and the rest of the board from the unseen
    cards; a pot split m ways counts 1/m. ``samples`` is the Hold'em heads-up budget,
    shared among the players and scaled by the five-card choices of the base game, so a
    street costs about the same whatever the game and the number of players.
    """
    h = game.base.hole_cards
    # cost ~ players x five-card choices each (21 in Hold'em, 60 in Omaha)
    choices = len(game.base.five_card_choices(h, 5))
    n = max(20, samples * 21 // (choices * (opponents + 1)))
    hands: list[HandLike] = [list(hole), *([RANDOM] * opponents)]
    result = sample_equity(game, hands, board=list(board), samples=n, rng=rng)
    you = result.players[0]
    n = result.deals
    eq, se = float(you.equity), float(you.equity_se or 0.0)
    return Tally(
        samples=n,
        wins=round(float(you.win) * n),
        ties=round(float(you.tie) * n),
        total=eq * n,
        # the sum of squared shares behind the library's standard error
        total_sq=n * (se * se * n + eq * eq),
    )
