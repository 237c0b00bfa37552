"""The kernels' look-ups on disk (:mod:`cardlab.poker._lookup_cache`).

- the file is keyed by what built it: the builder's code and the code it imports (an
  edit of either gives another file, an edit elsewhere does not), the rule set (every
  option, the deck) and the hand size;
- a file that is cut short, has a flipped byte, a foreign header or another layout is
  built again and replaced, and the answer is still right;
- look-ups read back equal the look-ups built (values, dtypes, shapes, the types numba
  compiles for, so no kernel compiles again), on standard52, FESCA78, FESCA60 and user
  decks; keys and exact equities with the cache equal those without it and the
  reference evaluator's;
- ``CARDLAB_LOOKUP_CACHE=off`` (or its old name ``CARDLAB_TABLE_CACHE=off``) switches
  the cache off, and the files live under ``<cache>/lookups/``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pytest

from cardlab._sources import PACKAGE
from cardlab.poker import RuleSet, batch, equity, plan
from cardlab.poker import _lookup_cache as tc
from cardlab.poker._kernels.hashed import build_hash
from cardlab.poker._kernels.omaha_lookup import omaha_lookups
from cardlab.poker._kernels.rule_arrays import build_lookups
from cardlab.poker.games import Game, get_game
from cardlab.poker.hands import best_hand

USER_DECKS = Path(__file__).parent.parent / "data" / "decks"
DECKS = ["standard52", "FESCA78", "FESCA60", str(USER_DECKS / "short24.toml")]
DECK_IDS = ["standard52", "FESCA78", "FESCA60", "short24"]


@pytest.fixture(autouse=True)
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache directory, and no look-ups left in this process's memory."""
    monkeypatch.setenv(tc.ENV_DIR, str(tmp_path))
    monkeypatch.delenv(tc.ENV_SWITCH, raising=False)
    monkeypatch.delenv(tc.ENV_SWITCH_ALIAS, raising=False)
    _forget()
    yield tmp_path
    _forget()


def _forget() -> None:
    for fn in (batch.kernel_lookups, batch.hash_lookups, batch.omaha_lookups):
        fn.cache_clear()
    plan._plan.cache_clear()
    omaha_lookups.cache_clear()


# every set of look-ups the process caches: (builder, params, how to build it from rules)
def _lookup_builders(rules: RuleSet) -> list[tuple[Callable[..., Any], tuple[int, ...], Any]]:
    kt = build_lookups(rules)
    h5 = build_hash(kt, 5)
    return [
        (build_lookups, (), lambda: build_lookups(rules)),
        (build_hash, (7,), lambda: build_hash(build_lookups(rules), 7)),
        (build_hash, (5,), lambda: build_hash(build_lookups(rules), 5)),
        (omaha_lookups, (), lambda: omaha_lookups.__wrapped__(kt, h5) if h5 else None),
    ]


def _same(built: Any, loaded: Any) -> None:
    """Equal values, and the same types to numba (arrays writable, same layout)."""
    if built is None:
        assert loaded is None
        return
    assert type(loaded) is type(built)
    pairs = (
        [
            (f.name, getattr(built, f.name), getattr(loaded, f.name))
            for f in dataclasses.fields(built)
        ]
        if dataclasses.is_dataclass(built)
        else [("value", built, loaded)]
    )
    for name, a, b in pairs:
        if isinstance(a, np.ndarray):
            assert isinstance(b, np.ndarray) and type(b) is np.ndarray, name
            assert a.dtype == b.dtype and a.shape == b.shape, name
            assert np.array_equal(a, b), name
            assert b.flags.writeable and b.flags.c_contiguous and b.flags.aligned, name
            assert numba.typeof(b) == numba.typeof(a), name
        else:
            assert type(a) is type(b) and a == b, name


# --- keys ------------------------------------------------------------------------


def test_equal_rule_sets_share_a_file_and_any_option_or_deck_changes_it() -> None:
    base = RuleSet.for_deck("FESCA78")
    assert tc.cache_path(build_lookups, base) == tc.cache_path(
        build_lookups, RuleSet.for_deck("FESCA78")
    )
    variants = [
        base,
        base.with_options(suit_tiebreak=False),
        base.with_options(compound="base"),
        base.with_options(order="classic"),
        base.with_options(wrap="line"),
        RuleSet.for_deck("FESCA60"),
        RuleSet.for_deck("standard52"),
        RuleSet.for_deck(str(USER_DECKS / "short24.toml")),
    ]
    assert len(set(variants)) == len(variants)  # the options above all exist and differ
    paths = {tc.cache_path(build_lookups, r) for r in variants}
    assert len(paths) == len(variants)


def test_the_hand_size_and_the_builder_name_the_file() -> None:
    rules = RuleSet.for_deck("standard52")
    paths = {
        tc.cache_path(build_hash, rules, 5),
        tc.cache_path(build_hash, rules, 7),
        tc.cache_path(build_lookups, rules),
        tc.cache_path(omaha_lookups, rules),
    }
    assert len(paths) == 4


class _Edited(dict[Path, bytes]):
    """The package's sources with one file's text changed."""

    def __init__(self, edited: Path) -> None:
        super().__init__()
        self.edited = edited

    def __missing__(self, path: Path) -> bytes:
        text = path.read_bytes() + (b"\n# edited\n" if path == self.edited else b"")
        self[path] = text
        return text


@pytest.mark.parametrize(
    ("module", "edited", "changes"),
    [
        ("cardlab.poker._kernels.rule_arrays", "poker/_kernels/rule_arrays.py", True),
        ("cardlab.poker._kernels.rule_arrays", "poker/order.py", True),  # imported inside
        ("cardlab.poker._kernels.rule_arrays", "poker/_counting.py", True),  # by order.py
        ("cardlab.poker._kernels.rule_arrays", "poker/_lookup_cache.py", True),
        ("cardlab.poker._kernels.hashed", "poker/_kernels/hashed.py", True),
        ("cardlab.poker._kernels.hashed", "poker/_kernels/rule_arrays.py", True),
        ("cardlab.poker._kernels.omaha_lookup", "poker/_kernels/hashed.py", True),  # its input
        ("cardlab.poker._kernels.rule_arrays", "poker/_kernels/hashed.py", False),
        ("cardlab.poker._kernels.rule_arrays", "table/state.py", False),
        ("cardlab.poker._kernels.hashed", "web/table_routes.py", False),
    ],
)
def test_the_code_digest_follows_the_builder_and_its_imports(
    module: str, edited: str, changes: bool
) -> None:
    plain = tc.digest_of(module, _Edited(PACKAGE / "no such file"))
    assert plain == tc.code_digest(module)
    assert (tc.digest_of(module, _Edited(PACKAGE / edited)) != plain) is changes


def test_a_new_code_digest_is_a_new_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = RuleSet.for_deck("FESCA60")
    before = tc.cache_path(build_lookups, rules)
    monkeypatch.setattr(tc, "code_digest", lambda module: "0123456789abcdef")
    after = tc.cache_path(build_lookups, rules)
    assert before.name == after.name and before.parent != after.parent
    assert after.parent.name == "0123456789abcdef"


# --- files: written once, read back, rebuilt when damaged ---------------------------


@pytest.mark.parametrize("deck", DECKS, ids=DECK_IDS)
def test_lookups_read_back_equal_the_lookups_built(deck: str, fresh_cache: Path) -> None:
    rules = RuleSet.for_deck(deck)
    for builder, params, build in _lookup_builders(rules):
        path = tc.cache_path(builder, rules, *params)
        assert not path.exists()
        first = tc.cached(builder, rules, *params, build=build)
        assert path.is_file()
        _same(build(), first)
        loaded = tc.cached(builder, rules, *params, build=_never)  # from the file
        _same(build(), loaded)
        if dataclasses.is_dataclass(loaded) and hasattr(loaded, "rules"):
            assert loaded.rules is rules


def _never() -> Any:
    raise AssertionError("built again though a whole file was there")


def _damage_cut(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _damage_flip(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-100] ^= 0x10  # inside the last array
    path.write_bytes(bytes(data))


def _damage_header(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[40:48] = b"{garbage"
    path.write_bytes(bytes(data))


def _damage_magic(path: Path) -> None:
    path.write_bytes(b"not a look-up file at all" * 10)


def _damage_empty(path: Path) -> None:
    path.write_bytes(b"")


def _damage_layout(path: Path) -> None:
    """A whole, checksummed file of another layout (a field renamed)."""

    @dataclasses.dataclass(frozen=True)
    class Other:
        renamed: Any

    tc.save(path, Other(np.zeros(3, np.int64)))


@pytest.mark.parametrize(
    "damage",
    [_damage_cut, _damage_flip, _damage_header, _damage_magic, _damage_empty, _damage_layout],
    ids=lambda f: f.__name__.removeprefix("_damage_"),
)
def test_a_damaged_file_is_built_again_and_replaced(damage: Callable[[Path], None]) -> None:
    rules = RuleSet.for_deck("FESCA78")
    build = lambda: build_hash(build_lookups(rules), 7)  # noqa: E731
    tc.cached(build_hash, rules, 7, build=build)
    path = tc.cache_path(build_hash, rules, 7)
    damage(path)
    assert tc.load(path, rules) is tc._MISSING
    rebuilt: list[bool] = []

    def counting() -> Any:
        rebuilt.append(True)
        return build()

    _same(build(), tc.cached(build_hash, rules, 7, build=counting))
    assert rebuilt == [True]
    _same(build(), tc.cached(build_hash, rules, 7, build=_never))  # replaced by a whole file


def test_switched_off_it_builds_every_time_and_writes_nothing(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(tc.ENV_SWITCH, "off")
    rules = RuleSet.for_deck("FESCA60")
    calls: list[int] = []

    def build() -> Any:
        calls.append(1)
        return build_lookups(rules)

    tc.cached(build_lookups, rules, build=build)
    tc.cached(build_lookups, rules, build=build)
    assert len(calls) == 2
    assert not any(fresh_cache.rglob("*"))


@pytest.mark.parametrize(
    ("new", "old", "used"),
    [
        (None, None, True),
        ("off", None, False),
        (None, "off", False),  # the old name still switches it off
        (None, "no", False),
        ("on", "off", True),  # the new name wins
        ("false", "on", False),
    ],
)
def test_the_switch_and_its_old_name(
    new: str | None, old: str | None, used: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (tc.ENV_SWITCH, tc.ENV_SWITCH_ALIAS) == ("CARDLAB_LOOKUP_CACHE", "CARDLAB_TABLE_CACHE")
    for name, value in ((tc.ENV_SWITCH, new), (tc.ENV_SWITCH_ALIAS, old)):
        if value is not None:
            monkeypatch.setenv(name, value)
    assert tc.enabled() is used


def test_files_live_under_the_lookups_directory(fresh_cache: Path) -> None:
    rules = RuleSet.for_deck("FESCA60")
    tc.cached(build_lookups, rules)
    written = [p.relative_to(fresh_cache) for p in fresh_cache.rglob("*") if p.is_file()]
    assert written and all(p.parts[0] == "lookups" for p in written)
    assert tc.load(fresh_cache / written[0], rules) is not tc._MISSING


def test_an_unwritable_cache_still_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a file, not a directory"
    blocker.write_text("")
    monkeypatch.setenv(tc.ENV_DIR, str(blocker))
    rules = RuleSet.for_deck("FESCA60")
    _same(build_lookups(rules), tc.cached(build_lookups, rules))


# --- answers with the cache equal answers without it --------------------------------


def _keys(rules: RuleSet, rows: np.ndarray[Any, Any], game: str) -> list[int]:
    return batch.evaluate_batch(rows, rules, game=game).tolist()  # type: ignore[arg-type]


@pytest.mark.parametrize("deck", DECKS, ids=DECK_IDS)
def test_keys_with_the_cache_equal_keys_without_it(
    deck: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = RuleSet.for_deck(deck)
    rng = np.random.default_rng(7)
    rows = np.argsort(rng.random((400, len(rules.deck))), axis=1)[:, :9].astype(np.int64)
    cards = rules.deck.cards
    expected = [best_hand([cards[c] for c in row[:7]], rules).key for row in rows.tolist()]

    monkeypatch.setenv(tc.ENV_SWITCH, "off")
    without = _keys(rules, rows[:, :7], "best"), _keys(rules, rows, "omaha")
    monkeypatch.delenv(tc.ENV_SWITCH)
    _forget()
    cold = _keys(rules, rows[:, :7], "best"), _keys(rules, rows, "omaha")  # builds, writes
    _forget()
    warm = _keys(rules, rows[:, :7], "best"), _keys(rules, rows, "omaha")  # reads
    assert without[0] == expected
    assert cold == without and warm == without


def _exact(game: Game, hands: list[str], board: str = "") -> list[Fraction]:
    result = equity.exact_equity(game, hands, board)
    return [p.equity for p in result.players]


@pytest.mark.parametrize(
    ("name", "hands", "board"),
    [
        ("standard52-holdem", ["As Ah", "Ks Kh"], ""),
        ("fesca78-holdem", ["木1 火1", "水12 金11"], "木2 木3 土5"),
        ("fesca60-holdem", ["木1 火1", "水12 金11"], "土4"),
        (f"{USER_DECKS / 'short24.toml'}-holdem", ["As Ah", "Ks Kh"], ""),
        ("standard52-omaha", ["As Ah Kd Qc", "Ks Kh 7d 6c"], "2c 3c 4d"),
    ],
    ids=["standard52", "fesca78", "fesca60", "short24", "omaha"],
)
def test_exact_equities_with_the_cache_equal_those_without_it(
    name: str, hands: list[str], board: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = get_game(name)
    monkeypatch.setenv(tc.ENV_SWITCH, "off")
    without = _exact(game, hands, board)
    monkeypatch.delenv(tc.ENV_SWITCH)
    _forget()
    cold = _exact(game, hands, board)
    _forget()
    warm = _exact(game, hands, board)
    assert cold == without and warm == without
    assert sum(without) == 1
    if name == "standard52-holdem":  # the published figure: 82.64% for aces
        assert without[0] == Fraction(707495, 856152)
