"""A small game's equilibrium strategy as a table to play from, solved once and kept.

:func:`solved_strategy` runs CFR+ (:func:`cardlab.solve.solve`) to an exploitability of
:data:`TARGET_MBB` milli-big-blinds per hand the first time a game is asked for, and
keeps the average strategy on disk (``<cache>/small-solve/<key>.json``), keyed by the
digest of the solver's code (:func:`cardlab._sources.code_digest`), the game's
definition, its deck and rules and the target: a second process reads it back in
milliseconds, and a change to the solver solves again.

A strategy is looked up by an information set: the player (0 acts first in every
round), the private cards, the public cards and the betting so far, written as the
solver writes them (``Js``; ``Qh``; ``kb``, rounds separated by ``/``).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardlab._sources import code_digest
from cardlab.solve.cfr import solve
from cardlab.solve.games import PokerGame

TARGET_MBB = 1.0  # milli-big-blinds per hand: the exploitability a bot's strategy reaches
MAX_ITERATIONS = 20_000

InfoKey = tuple[int, str, str, str]  # player, private cards, public cards, betting


@dataclass(frozen=True, eq=False)
class SolvedStrategy:
    """The average strategy of a solve: for each information set, each action's
    probability (``fold``, ``check``, ``call``, ``bet``, ``raise``)."""

    game: str
    value: float  # player 1's chips per hand
    exploitability: float  # chips per hand
    exploitability_mbb: float
    iterations: int
    table: dict[InfoKey, dict[str, float]] = field(repr=False)
    cached: bool = False  # read from the disk cache

    def at(self, player: int, hand: str, board: str, history: str) -> dict[str, float] | None:
        """The action probabilities of one information set (None: no such set)."""
        return self.table.get((player, hand, board, history))

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "value": self.value,
            "exploitability": self.exploitability,
            "exploitability_mbb": self.exploitability_mbb,
            "iterations": self.iterations,
            "strategy": [
                {"player": p, "hand": h, "board": b, "history": s, "strategy": probs}
                for (p, h, b, s), probs in self.table.items()
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, cached: bool = False) -> SolvedStrategy:
        table = {
            (int(r["player"]), str(r["hand"]), str(r["board"]), str(r["history"])): {
                str(k): float(v) for k, v in r["strategy"].items()
            }
            for r in data["strategy"]
        }
        return cls(
            str(data["game"]),
            float(data["value"]),
            float(data["exploitability"]),
            float(data["exploitability_mbb"]),
            int(data["iterations"]),
            table,
            cached,
        )


def strategy_key(game: PokerGame, target_mbb: float = TARGET_MBB) -> str:
    """The disk-cache name of a game's strategy."""
    text = json.dumps(
        {
            "code": code_digest("cardlab.solve.cfr"),
            "game": game.definition(),
            "deck": game.deck.definition(),
            "rules": repr(game.rules),
            "cards": [str(c) for c in game.cards],
            "target_mbb": target_mbb,
        },
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]


_MEMORY: dict[str, SolvedStrategy] = {}


def solved_strategy(
    game: PokerGame, cache: Path | str | None = None, *, target_mbb: float = TARGET_MBB
) -> SolvedStrategy:
    """``game``'s CFR+ average strategy at ``target_mbb`` (see the module text): from
    memory, from ``cache``, or solved now and kept there."""
    key = strategy_key(game, target_mbb)
    if key in _MEMORY:
        return _MEMORY[key]
    path = Path(cache) / "small-solve" / f"{key}.json" if cache is not None else None
    if path is not None and path.is_file():
        try:
            found = SolvedStrategy.from_dict(json.loads(path.read_text("utf-8")), cached=True)
        except (OSError, ValueError, KeyError, TypeError):
            pass  # a damaged file is solved again
        else:
            _MEMORY[key] = found
            return found
    solution = solve(game, MAX_ITERATIONS, target=target_mbb * game.unit / 1000)
    table: dict[InfoKey, dict[str, float]] = {
        (i.player, i.hand, i.board, i.history): dict(zip(i.actions, i.probabilities, strict=True))
        for i in solution.infosets()
    }
    out = SolvedStrategy(
        str(game),
        solution.value,
        solution.exploitability,
        solution.exploitability_mbb,
        solution.iterations,
        table,
    )
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(out.as_dict(), ensure_ascii=False), "utf-8")
        tmp.replace(path)
    _MEMORY[key] = out
    return out
