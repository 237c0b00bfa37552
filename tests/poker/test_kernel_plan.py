"""The kernel plan (:mod:`cardlab.poker.plan`): the method it picks for every registry
game, the counters it allows, and named fields that fail loudly when misspelled."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

from cardlab import _prepare
from cardlab.poker._kernels import bundle
from cardlab.poker._kernels.bundle import KernelArrays, KernelScalars
from cardlab.poker.games import Game, game_names, get_game
from cardlab.poker.plan import KernelPlan, KeyMethod, counts_vs_random, key_method

HASHED, OMAHA = KeyMethod.HASHED, KeyMethod.OMAHA

# The method each registry game used before the plan (the kernel wing's own choice, read
# from showdowns.showdown_tables and vs_random.applies of the code the plan replaced):
# every built-in deck has at most 16 ranks and 8 suits, so the hash path applies; Omaha
# takes its own 2 + 3 kernel; only classic standard52 (no suit tie-break, no Mixwell)
# counts a hand against a random hand by classes.
BEFORE: dict[str, tuple[KeyMethod, bool]] = {
    "fesca78-holdem": (HASHED, False),
    "fesca78-omaha": (OMAHA, False),
    "fesca78-stud": (HASHED, False),
    "fesca78-draw": (HASHED, False),
    "fesca73-holdem": (HASHED, False),
    "fesca73-omaha": (OMAHA, False),
    "fesca73-stud": (HASHED, False),
    "fesca73-draw": (HASHED, False),
    "fesca65-holdem": (HASHED, False),
    "fesca65-omaha": (OMAHA, False),
    "fesca65-stud": (HASHED, False),
    "fesca65-draw": (HASHED, False),
    "fesca60-holdem": (HASHED, False),
    "fesca60-omaha": (OMAHA, False),
    "fesca60-stud": (HASHED, False),
    "fesca60-draw": (HASHED, False),
    "fesca54-holdem": (HASHED, False),
    "fesca54-omaha": (OMAHA, False),
    "fesca54-stud": (HASHED, False),
    "fesca54-draw": (HASHED, False),
    "fesca42-holdem": (HASHED, False),
    "fesca42-omaha": (OMAHA, False),
    "fesca42-stud": (HASHED, False),
    "fesca42-draw": (HASHED, False),
    "tesca52-holdem": (HASHED, False),
    "tesca52-omaha": (OMAHA, False),
    "tesca52-stud": (HASHED, False),
    "tesca52-draw": (HASHED, False),
    "tesca54-holdem": (HASHED, False),
    "tesca54-omaha": (OMAHA, False),
    "tesca54-stud": (HASHED, False),
    "tesca54-draw": (HASHED, False),
    "standard52-holdem": (HASHED, True),
    "standard52-omaha": (OMAHA, False),
    "standard52-stud": (HASHED, False),
    "standard52-draw": (HASHED, False),
}


def test_the_listing_covers_the_registry() -> None:
    assert sorted(BEFORE) == sorted(game_names())


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_the_plan_picks_the_method_of_before(name: str) -> None:
    game = get_game(name)
    method, vs_random = BEFORE[name]
    plan = KernelPlan.for_game(game)
    assert plan.method is method
    assert key_method(game) is method
    assert plan.scalars.method == int(method)
    assert plan.vs_random is vs_random
    assert counts_vs_random(game) is vs_random
    assert plan.counts_by_rank is (method is HASHED)
    # the rules say the same: the class counter needs Hold'em's shape, no suit
    # tie-break and no Mixwell; the scalars carry the rules' flags
    rules = game.rules
    assert plan.scalars.suits_count is bool(rules.suit_tiebreak)
    assert plan.scalars.mixwell is bool(rules.mixwell_possible)
    holdem = name.endswith("-holdem")
    assert vs_random is (holdem and not rules.suit_tiebreak and not rules.mixwell_possible)
    assert (method is OMAHA) is name.endswith("-omaha")


def test_the_plan_is_built_once_per_game() -> None:
    game = get_game("standard52-holdem")
    assert KernelPlan.for_game(game) is KernelPlan.for_game(game)


def test_the_key_methods_are_the_kernels_constants() -> None:
    assert tuple(KeyMethod) == (bundle.SUBSETS, bundle.HASHED, bundle.OMAHA)


def test_the_plan_lists_its_kernels() -> None:
    plan = KernelPlan.for_game(get_game("standard52-holdem"))
    names = [k.__name__ for k in plan.exact_kernels()]
    assert names == ["exact_units", "exact_by_rank", "hand_vs_random"]
    fesca = KernelPlan.for_game(get_game("fesca78-omaha"))
    assert [k.__name__ for k in fesca.exact_kernels()] == ["exact_units"]
    assert [k.__name__ for k in plan.chart_kernels(True)] == ["hand_vs_random"]
    loops = ["plain_loop", "dealt_loop", "ranges_loop", "omaha_loop", "omaha_mixwell_loop"]
    loops.append("subsets_loop")
    assert [k.__name__ for k in plan.chart_kernels(False)] == loops


def test_a_misspelled_field_fails_when_built() -> None:
    fields = dict(KernelPlan.for_game(get_game("standard52-holdem")).scalars._asdict())
    fields["suit_shfit"] = fields.pop("suit_shift")
    with pytest.raises(TypeError, match="suit_shfit"):
        KernelScalars(**fields)
    with pytest.raises(TypeError):
        KernelArrays(*[np.zeros(1)] * (len(KernelArrays._fields) - 1))  # one missing


def test_a_misspelled_field_fails_when_compiled() -> None:
    plan = KernelPlan.for_game(get_game("standard52-holdem"))

    @numba.njit
    def good(arr: KernelArrays, sc: KernelScalars) -> int:
        return arr.per_card.shape[0] + sc.suit_shift

    @numba.njit
    def typo(arr: KernelArrays, sc: KernelScalars) -> int:
        return arr.per_card.shape[0] + sc.suit_shfit  # type: ignore[attr-defined]

    assert good(plan.arrays, plan.scalars) == 52 + plan.scalars.suit_shift
    with pytest.raises(numba.core.errors.TypingError, match="suit_shfit"):
        typo(plan.arrays, plan.scalars)


def test_monte_carlo_runs_one_loop_and_ties_never_the_general_one() -> None:
    """Each sampling loop is a kernel of its own, compiled only when a question runs it:
    ``cardlab ties`` (one random hand a player, suits on and off) the dealt loops, ranges
    and Omaha the general one; the kernel sets name the loops they prepare."""
    from cardlab import _prepare
    from cardlab.poker._kernels import sampling

    def loop(game: Game, n_combos: tuple[int, ...] = (1, 1), general: bool = False) -> str:
        scalars = KernelPlan.for_game(game).scalars
        counts = np.array(n_combos, np.int64)
        return str(sampling.loop_for(counts, len(game.deck), scalars, general).__name__)

    standard = get_game("standard52-holdem")
    assert loop(standard) == "plain_loop"
    assert loop(standard.with_options(suit_tiebreak=True)) == "dealt_loop"
    assert loop(get_game("fesca78-holdem")) == "dealt_loop"
    assert loop(get_game("fesca78-holdem").with_options(suit_tiebreak=False)) == "dealt_loop"
    assert loop(standard, (3, 1)) == "ranges_loop"
    assert loop(standard, general=True) == "ranges_loop"
    assert loop(get_game("standard52-omaha")) == "omaha_loop"
    assert loop(get_game("standard52-omaha"), general=True) == "omaha_loop"
    assert loop(get_game("fesca78-omaha")) == "omaha_mixwell_loop"  # Mixwells possible
    subsets = get_game("fesca78-holdem").with_options(compound="mixwell")
    assert KernelPlan.for_game(subsets).scalars.method == bundle.SUBSETS
    assert loop(subsets) == "subsets_loop"
    loops = {f"cardlab.poker._kernels.sampling.{k.__name__}" for k in sampling.LOOPS}
    # the equity set prepares every loop but the subsets path's (rule options only) and
    # Omaha's of decks with Mixwells (its warm-up samples standard52's Omaha)
    assert loops - set(_prepare.SETS["equity"].kernels) == {
        "cardlab.poker._kernels.sampling.subsets_loop",
        "cardlab.poker._kernels.sampling.omaha_mixwell_loop",
    }
    bots = loops & set(_prepare.SETS["bots"].kernels)
    assert {b.rsplit(".", 1)[1] for b in bots} == {"plain_loop", "dealt_loop"}


_RUN_AND_LIST = """
import sys
from cardlab.cli import main
from cardlab.poker import plan
from cardlab.poker.games import get_game

if __name__ == "__main__":
    try:
        main(sys.argv[2:])
    except SystemExit:
        pass
    kernels = {
        "bots": plan.bot_kernels(),
        "report": plan.report_kernels(),
        "chart": plan.KernelPlan.for_game(get_game("standard52-holdem")).chart_kernels(True),
    }[sys.argv[1]]
    print("unused:", *(k.py_func.__name__ for k in kernels if not k.signatures))
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("listed", "command"),
    [
        ("bots", "arena --bots equity,station --hands 3"),
        ("report", "report --decks standard52 --no-pushfold --workers 0 --no-cache --out {out}"),
        ("chart", "chart --hands AA,72o --workers 0"),
    ],
)
def test_a_commands_first_run_notice_checks_only_kernels_it_runs(
    listed: str, command: str, tmp_path: Path
) -> None:
    """The first-run notice of ``arena``, ``report`` and ``chart`` checks that a list of
    kernels is in numba's disk cache: every kernel listed must be one the command runs,
    or the notice (a kernel never compiled: never cached) shows on every later run, as
    it did with the look-ups' builder and the Omaha and subsets loops in the lists."""
    script = tmp_path / "run.py"
    script.write_text(_RUN_AND_LIST)
    args = command.format(out=tmp_path / "r.html").split()
    # compiled kernels, as a command that finds them cached runs them: none of the
    # first-run switches another test of this process may have left in the environment
    off = ("NUMBA_DISABLE_JIT", "CARDLAB_PREPARE", "CARDLAB_SERIAL_FIRST")
    env = {k: v for k, v in os.environ.items() if k not in off} | {"CARDLAB_DAEMON": "off"}
    # the kernels as compiled so far (numba's cache), but no answer kept from another
    # test: the chart's finished tasks and the report's sections live in the user cache
    env["NUMBA_CACHE_DIR"] = str(_prepare.cache_dir())
    env["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")
    done = subprocess.run(
        [sys.executable, str(script), listed, *args],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    unused = [line for line in done.stdout.splitlines() if line.startswith("unused:")]
    assert unused == ["unused:"], done.stdout[-500:]
