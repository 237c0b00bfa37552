"""A command imports only what it runs: reading ``--game`` needs no table engine, and
``cardlab equity`` loads numba only when a compiled kernel answers."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cardlab.cli import _common
from cardlab.errors import GameError


def _modules_after(code: str) -> dict[str, bool]:
    """Run ``code`` in a fresh process; which of numba and cardlab.table it loaded."""
    probe = (
        f"import json, sys\n{code}\n"
        "print(json.dumps({m: m in sys.modules for m in ('numba', 'cardlab.table', 'scipy')}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    loaded: dict[str, bool] = json.loads(done.stdout.strip().splitlines()[-1])
    return loaded


def test_the_variant_names_are_the_tables() -> None:
    from cardlab.table.structure import VARIANTS

    assert list(_common.VARIANTS) == list(VARIANTS)


@pytest.mark.parametrize(
    ("game", "deck", "key"),
    [
        ("holdem", "standard52", "standard52-holdem"),
        ("razz", "standard52", "standard52-razz"),
        ("27-single-draw", "FESCA78", "FESCA78-27-single-draw"),
        ("fesca78-holdem", None, "fesca78-holdem"),
        ("standard52-27-triple-draw", "standard52", "standard52-27-triple-draw"),
        (" Badugi ", "fesca60", "fesca60-badugi"),
    ],
)
def test_game_keys(game: str, deck: str | None, key: str) -> None:
    assert _common.game_key(game, deck) == key


@pytest.mark.parametrize(
    ("game", "deck", "says"),
    [
        ("razz", None, "needs --deck"),
        ("27-triple-draw", None, "needs --deck"),
        ("fesca78-holdem", "standard52", "names its own deck"),
        ("standard52-27-single-draw", "fesca78", "names its own deck"),
    ],
)
def test_game_key_errors(game: str, deck: str | None, says: str) -> None:
    with pytest.raises(GameError, match=says):
        _common.game_key(game, deck)


def test_reading_the_game_does_not_import_the_table_engine() -> None:
    loaded = _modules_after(
        "from cardlab.cli._common import game_from, game_key\n"
        "game_from('fesca78-holdem', ('compound=base',))\n"
        "assert game_key('razz', 'standard52') == 'standard52-razz'"
    )
    assert loaded == {"numba": False, "cardlab.table": False, "scipy": False}


def test_the_equity_command_module_loads_no_kernel() -> None:
    loaded = _modules_after("import cardlab.cli.equity")
    assert not loaded["numba"] and not loaded["cardlab.table"]


def test_a_full_board_is_answered_without_numba() -> None:
    loaded = _modules_after(
        "from click.testing import CliRunner\n"
        "from cardlab.cli import cli\n"
        "r = CliRunner().invoke(cli, ['equity', 'As Ac', 'Kd Kh', '--board', '2c 3c 4d 9h Ts',"
        " '--format', 'json'])\n"
        "assert r.exit_code == 0, r.output\n"
        "players = json.loads(r.stdout)['players']\n"
        "assert [p['equity'] for p in players] == ['1', '0'], players"
    )
    assert not loaded["numba"] and not loaded["cardlab.table"]


def test_the_draw_command_still_draws() -> None:
    from click.testing import CliRunner

    from cardlab.cli import cli

    r = CliRunner().invoke(
        cli, ["draw", "--game", "tesca54-draw", "木7 火7 水2 陰陽9 木11", "--format", "json"]
    )
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["keeps"][0]["keep"] == "木7 火7"


def test_the_equity_progress_announces_a_compile_once_numba_is_loaded(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from numba.core import event

    from cardlab.cli.equity import _progress

    with _progress(False, "dealing") as progress:
        with event.trigger_event("numba:compile", data={}):  # before any progress: unheard
            pass
        assert capsys.readouterr().err == ""
        progress(0, 10)  # the compiled work starts: listening from here
        for _ in range(2):
            with event.trigger_event("numba:compile", data={}):
                pass
        progress(10, 10)
    with event.trigger_event("numba:compile", data={}):  # after the work: unheard again
        pass
    err = capsys.readouterr().err
    assert err.count("preparing the equity kernels (first run after install") == 1, err


class _Node:
    """A tracked object that can sit in a reference cycle."""

    def __init__(self) -> None:
        self.other: object = None


def test_the_collector_is_paused_inside_and_restored_after() -> None:
    import gc

    was = gc.isenabled()
    try:
        for state in (True, False):
            (gc.enable if state else gc.disable)()
            with _common.collector_paused():
                assert not gc.isenabled()
            assert gc.isenabled() is state
        gc.enable()
        with pytest.raises(RuntimeError), _common.collector_paused():
            raise RuntimeError("a failing command")
        assert gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_what_was_made_inside_goes_to_the_oldest_generation_and_is_still_collected() -> None:
    import gc
    import weakref

    # the move happens only when nothing else is frozen (a caller's frozen objects stay
    # so): release anything another part of this process froze, so the test sees the move
    gc.unfreeze()
    with _common.collector_paused():
        kept = _Node()
        a, b = _Node(), _Node()
        a.other, b.other = b, a  # a cycle: garbage once the names go
        gone = weakref.ref(a)
    assert any(o is kept for o in gc.get_objects(generation=2))
    assert not any(o is kept for o in gc.get_objects(generation=0))
    del a, b
    assert gone() is not None  # no collection ran in between
    gc.collect()
    assert gone() is None  # the oldest generation is collected as usual


def _frozen(o: object) -> bool:
    """Whether ``o`` (a tracked object) is frozen: :func:`gc.get_objects` lists every
    generation but the permanent one, where :func:`gc.freeze` puts objects."""
    import gc

    return not any(x is o for x in gc.get_objects())


def test_a_callers_frozen_objects_stay_frozen() -> None:
    # what matters is that this caller's own frozen object stays frozen, whatever other
    # objects of the process die or are made meanwhile (a count of the frozen objects
    # falls when one dies by reference counting: it failed a correct run once)
    import gc

    mine = _Node()  # alive throughout: this reference holds it
    gc.freeze()
    try:
        assert _frozen(mine)
        with _common.collector_paused():
            made = _Node()
        assert _frozen(mine)  # the pause did not unfreeze the caller's objects
        assert not _frozen(made)  # what was made inside is tracked as usual...
        assert not any(o is made for o in gc.get_objects(generation=2))  # ...and not moved
    finally:
        gc.unfreeze()
    assert not _frozen(mine)  # the check above can tell a frozen object from a tracked one


def test_the_process_exit_skips_the_last_collection() -> None:
    # atexit runs its handlers last registered first: this one sees the freeze done
    code = (
        "import atexit, gc\n"
        "atexit.register(lambda: print('frozen at exit', gc.get_freeze_count() > 0))\n"
        "from cardlab.cli._common import collector_paused\n"
        "with collector_paused():\n"
        "    pass\n"
        "print('frozen before exit', gc.get_freeze_count() > 0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split("\n")[:2] == ["frozen before exit False", "frozen at exit True"]
