"""Real sites' PHH conventions, each replayed on cardlab and on pokerkit: ``inf``
starting stacks (HandHQ iPoker), ``pN sm ????`` in all-in runouts and face-down
showdowns (HandHQ PokerStars), a winner showing after an uncontested pot, posts
written as negative blinds, split pots in chips and in money, and ``net`` beside PHH's
``winnings``."""

from __future__ import annotations

import re
import warnings
from decimal import Decimal
from pathlib import Path
from typing import Any

import pokerkit as pk
import pytest
from pokerkit.state import ChipsPushing

from cardlab.table import phh
from cardlab.table.history import replay

DATA = Path(__file__).parent.parent / "data" / "phh"
IPN = DATA / "ipn-nlh-handhq-1-sample.phhs"


def _pokerkit(text: str) -> pk.State:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, state = pk.HandHistory.loads(text)
    return state


def _pushed(state: pk.State) -> list[Any]:
    """What pokerkit pushed to each player from the pots."""
    out: list[Any] = [0] * len(state.stacks)
    for operation in state.operations:
        if isinstance(operation, ChipsPushing):
            out = [a + b for a, b in zip(out, operation.amounts, strict=True)]
    return out


def _finite(text: str, stack: int) -> str:
    """The same hand with each ``inf`` starting stack written as ``stack``."""
    return re.sub(r"\binf\b", str(stack), text)


# --- inf starting stacks -------------------------------------------------------------


def _ipn_hands() -> list[tuple[int, str]]:
    out = []
    for entry in phh.iter_file(IPN):
        assert entry.history is not None
        out.append((entry.number, phh.dumps(entry.history)))
    return out


@pytest.mark.parametrize(("number", "text"), _ipn_hands()[:4], ids=lambda x: str(x)[:6])
def test_inf_stacks_replay_like_pokerkit(number: int, text: str) -> None:
    assert "inf" in text
    r = replay(phh.loads(text))
    assert r.starting_stacks == r.finishing_stacks == [Decimal("Infinity")] * r.hand.players
    state = _pokerkit(text)
    assert list(state.stacks) == r.finishing_stacks  # inf, as pokerkit has them
    # net, as pokerkit plays the same hand with stacks no bet reaches
    big = 10**6
    finite = _pokerkit(_finite(text, big))
    assert r.net == [s - big for s in finite.stacks]
    # and the chips each won from the pots at a showdown, as pokerkit pushes them
    if r.hand.result is not None and r.hand.result.showdown:
        assert r.winnings == _pushed(state)


def test_inf_stacks_in_replay_json(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from cardlab.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["replay", str(IPN), "--format", "json"])
    assert exc.value.code == 1  # the fifth hand stops on the river
    hands = json.loads(capsys.readouterr().out)["hands"]
    assert [h["hand"] for h in hands] == [1, 2, 3, 4, 5]
    first = hands[0]
    assert first["starting_stacks"] == ["inf"] * 6 and first["finishing_stacks"] == ["inf"] * 6
    # p4 raised to 4 and folded; p1 and p2 put in 24 each and split the pot face down
    assert first["net"] == [2, 2, 0, -4, 0, 0]
    assert first["winnings"] == [24, 24, 0, 0, 0, 0]
    assert "ends before the hand does" in hands[4]["error"] and hands[4]["line"] == 85


# --- pN sm ???? ------------------------------------------------------------------------

RUNOUT = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 150, 80]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cbr 100', 'p2 cc',
  'p1 sm ????', 'p2 sm ????', 'd db 4s3hQh', 'p1 sm ????', 'p2 sm ????', 'd db Qd',
  'p1 sm ????', 'p2 sm ????', {river}]
"""


ENDS = [
    "'d db 9h', 'p1 sm AcAd', 'p2 sm KcKd'",  # HandHQ: face down on each street, then shown
    "'d db 9h', 'p1 sm KcKd', 'p2 sm AcAd'",
    "'d db 9h', 'p1 sm ????', 'p2 sm AcAd'",  # one hand never shown: the other wins
    "'d db 9h', 'p2 sm AcAd'",
    "'d db 9h', 'p1 sm ????', 'p2 sm ????'",  # nobody shown: pokerkit splits the pot
    "'d db 2h', 'p1 sm Ah2c', 'p2 sm ????'",
]


@pytest.mark.parametrize(
    ("end", "hero"),
    [(end, False) for end in ENDS] + [(end, True) for end in ENDS if "'p1 sm ??" not in end],
)
def test_face_down_shows_in_an_all_in_runout_like_pokerkit(end: str, hero: bool) -> None:
    text = RUNOUT.format(river=end)
    hole = re.search(r"'p1 sm (\w+)'", text)
    if hero and hole is not None:  # the history's owner: dealt face up, "????" in the runout
        text = text.replace("'d dh p1 ????'", f"'d dh p1 {hole.group(1)}'")
    elif hero:  # p1 never shows: the owner's cards are in the file, shown down as "????"
        text = text.replace("'d dh p1 ????'", "'d dh p1 JcJd'")
    state = _pokerkit(text)
    r = replay(phh.loads(text))
    assert r.finishing_stacks == list(state.stacks)
    assert sum(r.finishing_stacks) == 330  # and no chip is lost


def test_an_all_face_down_showdown_splits_each_pot_among_its_players() -> None:
    text = RUNOUT.format(river="'d db 9h', 'p1 sm ????', 'p2 sm ????'")
    r = replay(phh.loads(text))
    assert r.hand.result is not None
    (award,) = r.hand.result.awards
    assert award.players == (0, 1) and award.amounts == (100, 100)
    assert award.decided_by == "unknown"


def test_a_face_down_show_by_a_player_who_folded_is_refused() -> None:
    text = RUNOUT.format(river="'d db 9h', 'p3 sm ????'")
    with pytest.raises(phh.HistoryError, match=r"p3 sm \?\?\?\?.*not at the showdown"):
        replay(phh.loads(text))


# --- shows after an uncontested pot, negative blinds (real-style hands) ---------------

POKERSTARS_STYLE = """variant = 'NT'
antes = [0, 0, 0, 0]
blinds_or_straddles = [0.25, 0.50, -0.50, 0]
min_bet = 0.50
starting_stacks = [50, 48.20, 25, 61.35]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'd dh p4 AsTd', 'p3 cc', 'p4 cbr 2',
  'p1 f', 'p2 f', 'p3 f', 'p4 sm AsTd']
venue = 'PokerStars'
"""


def test_a_post_and_a_show_after_an_uncontested_pot_like_pokerkit() -> None:
    state = _pokerkit(POKERSTARS_STYLE)
    r = replay(phh.loads(POKERSTARS_STYLE))
    assert r.finishing_stacks == list(state.stacks)
    # p4 wins the blinds and p3's post: 0.25 + 0.50 + 0.50
    assert r.net == [Decimal("-0.25"), Decimal("-0.50"), Decimal("-0.50"), Decimal("1.25")]
    assert r.hand.has_shown(3)


# --- split pots ----------------------------------------------------------------------

SPLIT = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [{sb}, {bb}, 0]
min_bet = {bb}
starting_stacks = [{stack}, {stack}, {stack}]
actions = ['d dh p1 2c3d', 'd dh p2 4h5h', 'd dh p3 6d7c', 'p3 cc', 'p1 f', 'p2 cbr {to}',
  'p3 cc', 'd db AsKsQs', 'p2 cc', 'p3 cc', 'd db Js', 'p2 cc', 'p3 cc', 'd db Ts', 'p2 cc',
  'p3 cc']
"""


@pytest.mark.parametrize(
    ("amounts", "shares"),
    [
        # a 119 pot (59 + 59 + the small blind's 1) tied by p2 and p3 (a royal on board)
        (("1", "2", "200", "59"), ("60", "59")),  # chips: the odd chip to the first winner
        (("1.00", "2.00", "200.00", "59.00"), ("59.5", "59.5")),  # money: exactly
        (("1.0", "2.0", "200.0", "59.0"), ("59.5", "59.5")),  # money without cents too
        (("0.01", "0.02", "2.00", "0.59"), ("0.595", "0.595")),  # finer than a cent
    ],
)
def test_split_pots_split_like_pokerkit(
    amounts: tuple[str, str, str, str], shares: tuple[str, str]
) -> None:
    sb, bb, stack, to = amounts
    text = SPLIT.format(sb=sb, bb=bb, stack=stack, to=to)
    state = _pokerkit(text)
    r = replay(phh.loads(text))
    assert r.finishing_stacks == list(state.stacks)
    assert r.winnings[1:] == [Decimal(s) for s in shares]
    assert r.winnings == _pushed(state)
    assert sum(r.net) == 0


def test_net_and_winnings_of_an_uncontested_pot() -> None:
    # p1 raises to 3 over the big blind's 1 and takes the pot: net +1, collected 2 (their
    # own called 1 and the big blind's 1), as the HandHQ record writes it
    (hand, *_) = phh.load_all(DATA / "abs-nlh-handhq-1-first10.phhs")
    r = replay(hand)
    assert r.net == [1, -1, 0]
    assert r.winnings == list(hand.winnings or ()) == [2, 0, 0]
