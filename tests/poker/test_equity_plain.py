"""A trivial exact question (a full or nearly full board) is answered by the plain
evaluator, at once, without loading a compiled kernel; its answer is the kernels'."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest

from cardlab.poker import equity
from cardlab.poker.games import get_game


@pytest.mark.parametrize(
    ("game", "hands", "board"),
    [
        # turns (rivers too are answered plainly; the compiled loops are compared with
        # the reference on rivers nowhere: they never see one)
        ("standard52-holdem", ["As Ac", "Kd Kh", "Qs Jh"], "2c 3c Kc 9h"),
        ("fesca78-holdem", ["木1 火1", "水12 金11"], "土3 木7 陰陽9 火12"),
        ("fesca60-omaha", ["木1 火1 土2 金3", "水12 金12 木11 火10"], "木5 火6 土7 金8"),
    ],
)
def test_the_plain_answer_is_the_kernels(
    monkeypatch: Any, game: str, hands: list[str], board: str
) -> None:
    g = get_game(game)
    monkeypatch.setattr(equity, "PLAIN_SHOWDOWNS", 10_000)
    plain = equity.exact_equity(g, hands, board)
    monkeypatch.setattr(equity, "PLAIN_SHOWDOWNS", 0)
    compiled = equity.exact_equity(g, hands, board)
    assert plain.players == compiled.players  # win, tie, lose and equity, as fractions
    assert plain.deals == compiled.deals


def test_a_river_is_one_showdown_by_hand(monkeypatch: Any) -> None:
    monkeypatch.setattr(equity, "PLAIN_SHOWDOWNS", 100)
    """Aces against kings on 2c 3c 4d 9h Ts: one showdown, the aces win it."""
    r = equity.exact_equity(get_game("standard52-holdem"), ["As Ac", "Kd Kh"], "2c 3c 4d 9h Ts")
    assert r.deals == 1
    assert [p.equity for p in r.players] == [Fraction(1), Fraction(0)]


def test_which_answers_plainly(monkeypatch: Any) -> None:
    monkeypatch.setattr(equity, "PLAIN_SHOWDOWNS", 100)
    monkeypatch.setattr(equity, "PLAIN_SHOWDOWNS_COLD", 2_000)
    assert equity._plain_is_quicker(1) and equity._plain_is_quicker(44)  # a river, a turn
    # a flop's boards: plainly only while the compiled loops are not loaded
    from cardlab.poker._kernels import showdowns  # noqa: F401 (loaded now)

    assert not equity._plain_is_quicker(990)


def test_a_full_board_loads_no_compiled_kernel() -> None:
    code = (
        "import sys\n"
        "from cardlab.poker.games import get_game\n"
        "from cardlab.poker.equity import exact_equity\n"
        "r = exact_equity(get_game('standard52-holdem'), ['As Ac', 'Kd Kh'], '2c 3c 4d 9h Ts')\n"
        "loaded = [m for m in sys.modules if m.startswith('cardlab.poker._kernels.')"
        " and m.rsplit('.', 1)[1] not in ('bundle', 'rule_arrays', 'warm')]\n"
        "print(r.players[0].equity, sorted(loaded), 'numba' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "[]", "False"]


def test_the_share_unit_is_the_kernels() -> None:
    from cardlab.poker._kernels import showdowns

    assert equity.SHARE_UNIT == showdowns.SHARE_UNIT
