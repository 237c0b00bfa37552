"""Exact equity: the compiled enumeration against the reference, and the laws.

:func:`_brute` counts every player's wins, ties and losses board by board through the
public showdown (:func:`cardlab.poker.showdown.settle`), independently of the equity
module's tallies: a loss is counted when it happens, not taken as the remainder.
"""

import itertools
from fractions import Fraction

import pytest

from cardlab.errors import CardlabError
from cardlab.poker.equity import EquityResult, exact_equity, reference_equity
from cardlab.poker.games import Game, get_game
from cardlab.poker.showdown import settle


def _brute(game: Game, hands: list[str], board: str, dead: str = "") -> list[tuple[Fraction, ...]]:
    """(win, tie, lose, equity) per player over every completion of the board."""
    deck = game.deck
    holes = [deck.parse_cards(h) for h in hands]
    known = deck.parse_cards(board) if board else ()
    out_of_play = {*known, *(deck.parse_cards(dead) if dead else ()), *itertools.chain(*holes)}
    rest = [c for c in deck.cards if c not in out_of_play]
    counts = [[0, 0, 0, Fraction(0)] for _ in hands]
    deals = 0
    for extra in itertools.combinations(rest, game.base.board_cards - len(known)):
        showdown = settle(game, [" ".join(map(str, h)) for h in holes], (*known, *extra))
        deals += 1
        for p, player in enumerate(showdown.players):
            if p not in showdown.winners:
                counts[p][2] += 1
            elif len(showdown.winners) == 1:
                counts[p][0] += 1
            else:
                counts[p][1] += 1
            counts[p][3] += player.share
    return [
        (Fraction(w, deals), Fraction(t, deals), Fraction(lo, deals), e / deals)
        for w, t, lo, e in counts
    ]


def _fields(result: EquityResult) -> list[tuple[Fraction, ...]]:
    return [
        (Fraction(p.win), Fraction(p.tie), Fraction(p.lose), Fraction(p.equity))
        for p in result.players
    ]


@pytest.mark.parametrize(
    ("game", "hands", "board"),
    [
        ("standard52-holdem", ["As Ac", "Kd Kh"], "2c 7d 9h Ks"),
        ("standard52-holdem", ["As Ks", "Qh Qd", "7c 8c"], "2c 7d 9h Tc"),
        ("fesca78-holdem", ["木1 火1", "水12 金12"], "木5 火6 土7 金8"),
        ("fesca60-omaha", ["木1 火1 土2 金3", "水12 金12 木11 火10"], "木5 火6 土7 金8"),
        ("fesca42-holdem", ["木1 火1", "水2 金2", "陰陽3 太極"], "木5 火6 土Z 金4"),
    ],
)
def test_exact_equals_reference(game: str, hands: list[str], board: str) -> None:
    g = get_game(game)
    fast = exact_equity(g, hands, board=board)
    slow = reference_equity(g, hands, board=board)
    assert fast.players == slow.players
    assert fast.deals == slow.deals


@pytest.mark.parametrize(
    ("game", "hands", "board"),
    [
        ("standard52-holdem", ["As Ac", "Kd Kh"], "2c 7d 9h Ks"),
        ("standard52-holdem", ["As Ks", "Qh Qd", "7c 8c"], "2c 7d 9h Tc"),
        ("standard52-holdem", ["Ah Kh", "Qs Qd"], "2h 7h 9c"),  # flush draws, 990 boards
        ("fesca42-holdem", ["木1 火1", "水2 金2", "陰陽3 太極"], "木5 火6 土Z 金4"),
    ],
)
def test_exact_equals_settled_boards(game: str, hands: list[str], board: str) -> None:
    g = get_game(game)
    assert _fields(exact_equity(g, hands, board=board)) == _brute(g, hands, board)


def test_swapping_players_swaps_results() -> None:
    g = get_game("fesca54-holdem")
    a = exact_equity(g, ["木1 火1", "水8 金8"], board="木5 火6 土7")
    b = exact_equity(g, ["水8 金8", "木1 火1"], board="木5 火6 土7")
    assert a.players[0].equity == b.players[1].equity
    assert a.players[1].win == b.players[0].win


def test_dead_cards_leave_the_deck() -> None:
    g = get_game("standard52-holdem")
    r = exact_equity(g, ["As Ac", "Kd Kh"], board="2c 7d 9h", dead="Ks")
    assert r.deals == 44 * 43 // 2  # C(44, 2): the turn and river without the dead king
    assert _fields(r) == _brute(g, ["As Ac", "Kd Kh"], "2c 7d 9h", dead="Ks")
    # the kings win only with the last king (Kc: 43 of the 946 boards) and no ace beside
    # it (a set of aces beats their set): 41 boards; no straight or flush is possible
    assert r.players[1].win == Fraction(41, 946)
    assert r.players[0].lose == Fraction(41, 946)


@pytest.mark.parametrize(
    ("hands", "board", "dead", "message"),
    [
        (["As Ac", "As Kh"], "", "", "As is dealt"),
        (["As Ac", "Kd Kh"], "Ac 2d 3d", "", "Ac"),
        (["As Ac", "Kd Kh"], "", "Kd", "Kd"),
        (["As Ac", "Kd"], "", "", "player 2 must hold 2 cards"),
        (["As Ac", "Kd Kh"], "2c 3c 4c 5c 6c 7c", "", "at most 5"),
        (["As Ac", "ZZ+"], "", "", "malformed range item"),
        (["As Ac", ""], "", "", "empty range"),
    ],
)
def test_bad_input_is_refused(hands: list[str], board: str, dead: str, message: str) -> None:
    with pytest.raises(CardlabError, match=message):
        exact_equity(get_game("standard52-holdem"), hands, board=board, dead=dead)


@pytest.mark.parametrize(
    ("game", "options", "hands", "board"),
    [
        # compound=mixwell: the hashed kernel is not exact, the plain subsets are used
        (
            "fesca65-holdem",
            {"compound": "mixwell", "order": "classic"},
            ["木1 火1", "水2 金2"],
            "木5 火6 土7",
        ),
        ("fesca78-stud", {}, ["木1 火1 土1 金2 水3 木4 火5", "水8 金8 木8 火9 土10 金11 水12"], ""),
        ("fesca78-draw", {}, ["木1 火1 土1 金2 水3", "水8 金8 木8 火9 土10"], ""),
    ],
)
def test_every_kernel_path_equals_reference(
    game: str, options: dict[str, str], hands: list[str], board: str
) -> None:
    g = get_game(game, **options)
    fast = exact_equity(g, hands, board=board)
    assert fast == reference_equity(g, hands, board=board)


def test_a_random_hand_that_takes_the_rest_of_the_deck() -> None:
    """Stud on a 14-card deck: a random opponent gets exactly the 7 cards left, so the
    equity equals the one against those cards (the empty remainder once crashed)."""
    from pathlib import Path

    game = get_game(f"{Path(__file__).parent.parent / 'data' / 'decks' / 'duo14.toml'}-stud")
    cards = list(game.deck.cards)
    mine, theirs = cards[::2], cards[1::2]
    against_random = exact_equity(game, [mine, "random"])
    against_rest = exact_equity(game, [mine, theirs])
    assert against_random.players[0].equity == against_rest.players[0].equity
