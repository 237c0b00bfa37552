"""Per player statistics of hand histories, and the all-in luck adjustment.

The statistics are checked on hand-built hands whose answers were counted by hand (the
comments say what each action counts for); the luck adjustment against a brute force
written here: every remaining board dealt, the pots (layered here from the stacks) paid
by the reference evaluator, each player's average taken.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from cardlab.cards import Card
from cardlab.cli import main
from cardlab.poker.games import Game
from cardlab.poker.hands import compare
from cardlab.poker.showdown import best_five
from cardlab.store import Store
from cardlab.table import Betting, HandState, TableGame, phh
from cardlab.table.history import imported, replay, to_history
from cardlab.table.player_stats import EquityCache, Rate, player_stats, summarize

HEADER = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
"""


def _hand(players: str, *actions: str) -> phh.HandHistory:
    lines = ", ".join(repr(a).replace("'", '"') for a in actions)
    names = ", ".join(f'"{n}"' for n in players.split())
    return phh.loads(f"{HEADER}actions = [{lines}]\nplayers = [{names}]\n")


# p1 small blind, p2 big blind, p3 the button (first to act preflop)
HAND_A = _hand(
    "Ann Bob Cy",
    "d dh p1 AsKs",
    "d dh p2 7c2d",
    "d dh p3 QdQh",
    "p3 cbr 6",  # Cy opens: VPIP, PFR
    "p1 cbr 20",  # Ann 3-bets (a chance: one raise, raising legal)
    "p2 f",  # Bob folds to a 3-bet: no 3-bet chance
    "p3 cc",  # Cy calls the 3-bet: no 3-bet chance
    "d db 2c3d4h",
    "p1 cbr 20",  # Ann bets
    "p3 cbr 60",  # Cy raises
    "p1 cc",  # Ann calls
    "d db 8s",
    "p1 cc",  # a check: no aggression count
    "p3 cbr 120",  # Cy is all in
    "p1 f",  # Ann folds: Cy +82, Ann -80, Bob -2
)
HAND_B = _hand(
    "Bob Cy Ann",
    "d dh p1 AhAd",
    "d dh p2 KhKd",
    "d dh p3 9c9d",
    "p3 f",  # Ann folds first in
    "p1 cc",  # Bob completes the small blind: VPIP
    "p2 cc",  # Cy checks the big blind: a decision, not VPIP
    "d db 2c3d4h",
    "p1 cc",
    "p2 cbr 4",  # Cy bets
    "p1 cc",  # Bob calls
    "d db 8s",
    "p1 cc",
    "p2 cc",
    "d db 9s",
    "p1 cc",
    "p2 cc",
    "p1 sm AhAd",
    "p2 sm KhKd",  # Bob wins 12: +6, Cy -6
)
HAND_C = _hand(
    "Ann Bob Cy",
    "d dh p1 ????",
    "d dh p2 ????",
    "d dh p3 ????",
    "p3 f",
    "p1 f",  # a walk: Bob never decides (not in his VPIP count); Ann -1, Bob +1
)
HAND_D = _hand(
    "Cy Ann Bob",
    "d dh p1 AsAh",
    "d dh p2 7c2d",
    "d dh p3 KsKh",
    "p3 cbr 6",  # Bob opens
    "p1 cbr 18",  # Cy 3-bets
    "p2 f",  # Ann: no chance (two raises)
    "p3 cc",
    "d db 2c8dKd",
    "p1 cbr 182",  # Cy is all in on the flop
    "p3 cc",  # Bob calls: every chip is in with two cards to come
    "d db 3h",
    "d db 9s",
    "p1 sm AsAh",
    "p3 sm KsKh",  # Bob's set wins 402: Bob +202, Cy -200, Ann -2
)


def test_stats_counted_by_hand() -> None:
    summaries = [summarize(h) for h in (HAND_A, HAND_B, HAND_C, HAND_D)]
    stats = {p.name: p for p in player_stats(summaries)}
    ann, bob, cy = stats["Ann"], stats["Bob"], stats["Cy"]
    assert (ann.hands, bob.hands, cy.hands) == (4, 4, 4)
    # VPIP: Ann raised in A only (folded B, C, D); Bob limped B, opened D, not A (walk C
    # has no decision); Cy opened A, 3-bet D, checked B, folded C
    assert ann.vpip == Rate(1, 4) and bob.vpip == Rate(2, 3) and cy.vpip == Rate(2, 4)
    assert ann.pfr == Rate(1, 4) and bob.pfr == Rate(1, 3) and cy.pfr == Rate(2, 4)
    # 3-bet chances: Ann in A (took it); Cy in D (took it); Bob never faced one raise
    assert ann.three_bet == Rate(1, 1) and cy.three_bet == Rate(1, 1)
    assert bob.three_bet == Rate(0, 0) and bob.three_bet.value is None
    # after the first round: Ann bet, called, folded (A); Cy raised, bet (A), bet (B),
    # bet all in (D); Bob called (B), called (D)
    assert (ann.bets_raises, ann.calls, ann.folds) == (1, 1, 1)
    assert (cy.bets_raises, cy.calls, cy.folds) == (4, 0, 0)
    assert (bob.bets_raises, bob.calls, bob.folds) == (0, 2, 0)
    assert ann.aggression_factor == 1 and ann.aggression_frequency == Rate(1, 3)
    assert cy.aggression_factor is None and cy.aggression_frequency == Rate(4, 4)
    assert bob.aggression_factor == 0 and bob.aggression_frequency == Rate(0, 2)
    # saw the flop: Ann A; Bob B, D; Cy A, B, D. Showdowns: B (Bob won), D (Bob won)
    assert ann.went_to_showdown == Rate(0, 1) and ann.won_at_showdown == Rate(0, 0)
    assert bob.went_to_showdown == Rate(2, 2) and bob.won_at_showdown == Rate(2, 2)
    assert cy.went_to_showdown == Rate(2, 3) and cy.won_at_showdown == Rate(0, 2)
    # nets: A Ann -80 Bob -2 Cy +82; B Bob +6 Cy -6; C Ann -1 Bob +1; D Cy -200 Ann -2 Bob +202
    assert (ann.net, bob.net, cy.net) == (-83, 207, -124)
    assert ann.net_bb == Fraction(-83, 2) and ann.bb_per_100 == Fraction(-8300, 8)
    assert bob.bb_per_100 == Fraction(100 * 207, 2 * 4)
    assert [s.showdown for s in summaries] == [False, True, False, True]


def _brute_force_expected(
    game: Game,
    holes: list[tuple[Card, ...]],
    board: tuple[Card, ...],
    dead: list[Card],
    stacks_in: list[int],
    alive: list[bool],
    starting: list[int],
) -> list[Fraction]:
    """Every remaining board dealt: each player's average finishing stack less their
    starting stack. The pots are layered here from what each player put in
    (``stacks_in``); a folded player's chips are dead money in the layers they reach."""
    n = len(holes)
    known = {*board, *dead, *(c for i in range(n) if alive[i] for c in holes[i])}
    rest = [c for c in game.deck.cards if c not in known]
    need = game.base.board_cards - len(board)
    levels = sorted({stacks_in[i] for i in range(n) if alive[i]})
    pots: list[tuple[int, list[int]]] = []
    below = 0
    for level in levels:
        amount = sum(max(0, min(s, level) - below) for s in stacks_in)
        pots.append((amount, [i for i in range(n) if alive[i] and stacks_in[i] >= level]))
        below = level
    total = [Fraction(0)] * n
    runs = 0
    for more in itertools.combinations(rest, need):
        full = (*board, *more)
        values = {i: best_five(game, holes[i], full) for i in range(n) if alive[i]}
        for amount, players in pots:
            if len(players) == 1:
                total[players[0]] += amount
                continue
            winners, _ = compare([values[i] for i in players])
            for w in winners:
                total[players[w]] += Fraction(amount, len(winners))
        runs += 1
    return [total[i] / runs - stacks_in[i] for i in range(n)]


def test_hand_d_against_the_brute_force() -> None:
    summary = summarize(HAND_D)
    assert summary.all_in is not None and summary.all_in.street == "flop"
    game = TableGame.create("standard52-holdem").game
    deck = game.deck
    holes = [deck.parse_cards(c) for c in ("As Ah", "7c 2d", "Ks Kh")]
    want = _brute_force_expected(
        game, holes, deck.parse_cards("2c 8d Kd"), list(holes[1]), [200, 2, 200],
        [True, False, True], [200, 200, 200],
    )  # fmt: skip
    assert [s.expected_net for s in summary.seats] == want
    assert summary.all_in.expected_net == tuple(want)
    assert sum(want) == 0 and want[0] < 0 < want[2]  # the set is far ahead
    stats = {p.name: p for p in player_stats([summary])}
    assert stats["Cy"].luck == -200 - want[0] and stats["Cy"].all_ins == 1
    assert stats["Ann"].all_ins == 0 and stats["Ann"].expected_net == -2


def _side_pot_hand(
    deck_game: str, rng: random.Random, street: int, unknown: bool = False
) -> tuple[HandState, list[tuple[Card, ...]], int]:
    """Three players of different stacks (50, 120, 200) limp, then on ``street`` (1 the
    flop, 2 the turn) p1 and p2 go all in and p3 calls: a main pot of three and a side
    pot of two. Four players are dealt; p4 folds preflop (their cards are dead)."""
    game = TableGame.create(deck_game, blinds=(1, 2), betting=Betting.NO_LIMIT)
    base = game.game.base
    hand = HandState(game, [50, 120, 200, 300], deal="manual", showdown="manual")
    cards = list(game.game.deck.cards)
    rng.shuffle(cards)
    holes = [tuple(cards[k * base.hole_cards : (k + 1) * base.hole_cards]) for k in range(4)]
    board = cards[4 * base.hole_cards : 4 * base.hole_cards + 5]
    for i, h in enumerate(holes):
        hand.deal_hole(i, [None] * len(h) if unknown and i == 1 else h)
    hand.check_or_call()  # p3 limps
    hand.fold()  # p4
    hand.check_or_call()  # p1
    hand.check_or_call()  # p2 checks
    hand.deal_board(board[:3])
    if street == 2:
        for _ in range(3):
            hand.check_or_call()
        hand.deal_board(board[3:4])
    hand.bet_or_raise_to(48)  # p1 all in
    hand.bet_or_raise_to(118)  # p2 all in
    hand.check_or_call()  # p3 covers
    while len(hand.board) < 5:
        hand.deal_board(board[len(hand.board) : len(hand.board) + 1])
    while not hand.is_over:  # p2 mucks unknown cards
        hand.show_or_muck(not (unknown and hand.actor == 1))
    return hand, holes, 3 if street == 1 else 4


@pytest.mark.parametrize(
    ("game", "street", "seed"),
    [
        ("fesca42-holdem", 1, 1),
        ("fesca42-holdem", 2, 2),
        ("fesca54-holdem", 2, 3),
        ("standard52-holdem", 1, 4),
        ("fesca42-omaha", 2, 5),
    ],
)
def test_side_pots_against_the_brute_force(game: str, street: int, seed: int) -> None:
    hand, holes, known = _side_pot_hand(game, random.Random(seed), street)
    names = ["Ann Lee", "Bob", "陳", "Dora"]  # real names, one of them CJK
    history = phh.loads(phh.dumps(to_history(hand, players=names)))
    cache = EquityCache()
    summary = summarize(history, cache=cache)
    assert summary.all_in is not None
    assert [p.players for p in summary.all_in.pots] == [(0, 1, 2), (1, 2)]
    want = _brute_force_expected(
        hand.game.game, holes, tuple(hand.board[:known]), list(holes[3]),
        [50, 120, 120, 0], [True, True, True, False], [50, 120, 200, 300],
    )  # fmt: skip
    assert [s.expected_net for s in summary.seats] == want
    assert [s.net for s in summary.seats] == [
        f - s for f, s in zip(hand.stacks, hand.starting_stacks, strict=True)
    ]
    assert [s.name for s in summary.seats] == names
    # the same situation again costs no enumeration
    assert summarize(history, cache=cache).seats == summary.seats
    assert cache.reused >= 1 and cache.computed == 2


def test_unknown_cards_are_not_adjusted() -> None:
    hand, _, _ = _side_pot_hand("fesca42-holdem", random.Random(7), 1, unknown=True)
    # p2's cards were never known: shown at the showdown as "????" they win nothing
    history = phh.loads(phh.dumps(to_history(hand)))
    summary = summarize(history)
    assert summary.all_in is None and summary.not_adjusted is not None
    assert "p2" in summary.not_adjusted
    assert all(s.expected_net == s.net for s in summary.seats)


def test_an_all_in_on_the_river_is_not_adjusted() -> None:
    history = _hand(
        "Ann Bob Cy",
        "d dh p1 AsKs",
        "d dh p2 7c2d",
        "d dh p3 QdQh",
        "p3 cc",
        "p1 cc",
        "p2 cc",
        "d db 2c3d4h",
        "p1 cc",
        "p2 cc",
        "p3 cc",
        "d db 8s",
        "p1 cc",
        "p2 cc",
        "p3 cc",
        "d db 9s",
        "p1 cbr 198",
        "p2 f",
        "p3 cc",
        "p1 sm AsKs",
        "p3 sm QdQh",
    )
    summary = summarize(history)
    assert summary.all_in is None and summary.not_adjusted is None
    assert [s.net for s in summary.seats] == [-200, -2, 202]
    assert [s.expected_net for s in summary.seats] == [-200, -2, 202]


def _store_with(path: Path, histories: list[phh.HandHistory]) -> None:
    with Store.open(path) as store:
        store.add_hands([imported(replay(h)) for h in histories])


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "hands.sqlite3"
    _store_with(db, [HAND_A, HAND_B, HAND_C, HAND_D])
    code, out, err = _run(capsys, "history", "--db", str(db), "stats", "--format", "json")
    assert code == 0, err
    report = json.loads(out)["standard52-holdem"]
    assert report["hands"] == 4 and report["showdowns"] == 2 and report["all_ins_adjusted"] == 1
    rows = {p["name"]: p for p in report["players"]}
    assert rows["Bob"]["vpip"] == {"count": 2, "chances": 3, "percent": pytest.approx(66.6667)}
    assert rows["Ann"]["three_bet"]["count"] == 1 and rows["Cy"]["net"] == -124
    assert rows["Bob"]["bb_per_100"] == pytest.approx(100 * 207 / 2 / 4)
    assert rows["Ann"]["aggression_factor"] == 1 and rows["Cy"]["aggression_factor"] is None
    assert rows["Cy"]["expected_net"] + rows["Bob"]["expected_net"] == pytest.approx(-124 + 207)
    assert rows["Cy"]["expected_net"] > rows["Cy"]["net"]  # aces all in against kings
    code, out, _ = _run(
        capsys, "history", "stats", "--db", str(db), "--format", "csv", "--player", "Ann"
    )
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 2 and lines[1].startswith("standard52-holdem,Ann,4,0.25,")
    picture = tmp_path / "luck.png"
    code, out, err = _run(capsys, "history", "--db", str(db), "stats", "--plot", str(picture))
    assert code == 0, err
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Bob" in out and "VPIP" in out and "66.7%" in out
    code, _, err = _run(capsys, "history", "--db", str(db), "stats", "--plot", str(tmp_path / "x"))
    assert code == 2 and "name the file .png" in err and "Traceback" not in err


def test_the_cache_knows_a_situation_under_other_suits() -> None:
    from cardlab.poker.equity import exact_equity
    from cardlab.poker.games import get_game

    game = get_game("standard52-holdem")
    cards = game.deck.parse_cards
    cache = EquityCache()
    first = cache.equities(game, [cards("As Ah"), cards("Kd Kc")], cards("2s 7h 9d"), cards("3c"))
    direct = exact_equity(game, ["As Ah", "Kd Kc"], "2s 7h 9d", "3c")
    assert first == tuple(p.equity for p in direct.players)
    # the same with the suits renamed (s->d, h->c, d->h, c->s) and the hands swapped
    again = cache.equities(game, [cards("Kh Ks"), cards("Ad Ac")], cards("9h 2d 7c"), cards("3s"))
    assert again == (first[1], first[0])
    assert (cache.computed, cache.reused) == (1, 1)
    # a different situation (the dead card's suit changes the flush draws) is computed
    cache.equities(game, [cards("As Ah"), cards("Kd Kc")], cards("2s 7h 9d"), cards("3s"))
    assert cache.computed == 2
