"""Open Seven for the page: new games, moves, hints, the reveal and the odds table.

The browser only ever gets the player's :class:`~cardlab.openseven.View`; the face-down
values are sent once the game is over.
"""

from __future__ import annotations

from typing import Any

from cardlab.openseven import Game, Model, Start, State, hints, odds, solve
from cardlab.openseven.game import OpenSevenError, check_cards, parse_move
from cardlab.web.live_games import LiveGames
from cardlab.web.payload import chance

MAX_CARDS = 13  # the page plays one suit at most

MODEL_NAMES = {
    Model.OPTIMAL: "optimal",
    Model.SIGHTED_RANDOM: "sighted random",
    Model.BLIND: "blind caller",
    Model.PERFECT_INFORMATION: "perfect information",
}


def new_game(games: LiveGames[State], cards: int, seed: int | None = None) -> dict[str, Any]:
    check_cards(cards, high=MAX_CARDS, what="the page")
    state = Game(cards).deal(seed)
    return state_payload(games.add(state), state)


def move(games: LiveGames[State], game_id: str, text: str) -> dict[str, Any]:
    state = games.get(game_id)
    after = state.apply(parse_move(text))
    games.put(game_id, after)
    return state_payload(game_id, after)


def state_payload(game_id: str, state: State) -> dict[str, Any]:
    """What the player may see; the whole row and its counts only when the game is over."""
    view = state.view()
    targets = state.targets()
    out: dict[str, Any] = {
        "id": game_id,
        "cards": state.game.cards,
        "faces": list(view.faces),
        "turned": list(state.turned),
        "last": view.last,
        "named": list(view.named),
        "targets": {str(side): position for side, position in targets.items()},
        "status": state.status,
        "hints": [] if state.is_over else _hints(state),
    }
    if state.is_over:
        out["reveal"] = _reveal(state)
    return out


def _hints(state: State) -> list[dict[str, Any]]:
    """Each legal move's exact chance to win under optimal play (from the view only)."""
    rows = []
    for m, p in hints(state, Model.OPTIMAL).items():
        if isinstance(m, Start):
            rows.append({"move": str(m), "position": m.position} | chance(p))
        else:
            rows.append({"move": str(m), "position": state.targets()[m.side]} | chance(p))
    return rows


def _reveal(state: State) -> dict[str, Any]:
    solved = solve(state.arrangement)
    return {
        "arrangement": list(state.arrangement),
        "solutions": solved.solutions,
        "lines": solved.lines,
        "per_start": [
            {"position": s.position, "solutions": s.solutions, "lines": s.lines}
            for s in solved.per_start
        ],
    }


def odds_table(cards: int) -> dict[str, Any]:
    """The exact winning chance per start position and overall, for every model."""
    check_cards(cards, high=MAX_CARDS, what="the page")
    table = odds(cards)
    models = [m for m in MODEL_NAMES if m in table]
    return {
        "cards": cards,
        "models": [{"id": m.value, "name": MODEL_NAMES[m]} for m in models],
        "overall": {m.value: chance(table[m].overall) for m in models},
        "starts": [
            {"position": p, "chances": {m.value: chance(table[m].per_start[p - 1]) for m in models}}
            for p in range(1, cards + 1)
        ],
    }


__all__ = ["MAX_CARDS", "OpenSevenError", "move", "new_game", "odds_table", "state_payload"]
