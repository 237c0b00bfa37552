"""Many hands at once: numpy arrays of card codes in, hand keys out.

A row of ``codes`` is one hand, each entry a card's code in the rule set's deck (its
index in ``deck.cards``, see :meth:`~cardlab.decks.Deck.code`). The keys are exactly
those of the single-hand evaluator (:func:`cardlab.poker.hands.evaluate` for five cards,
:func:`~cardlab.poker.hands.best_hand` for six or seven), so higher wins and equal keys
split, and :func:`cardlab.poker.keys.unpack_key` reads them.

>>> import numpy as np
>>> from cardlab.poker import RuleSet
>>> rules = RuleSet.for_deck("standard52")
>>> deck = rules.deck
>>> codes = np.array([deck.codes(deck.parse_cards("As Ks Qs Js Ts 2c 2d"))])
>>> keys, ids, categories = evaluate_batch(codes, rules, categories=True)
>>> categories[ids[0]].english
'straight flush'

Games: ``"best"`` takes the best five of each row (k = 5, 6 or 7 columns; Hold'em
is two hole cards + five board cards in one row, Stud its seven cards); ``"omaha"``
takes rows of nine, four hole cards then five board cards, and uses exactly two of the
hole cards and three of the board.

The work runs in compiled kernels (numba) on every core. The look-ups behind them are
built from the rule set the first time it is used and kept on disk (a later process maps
them: :mod:`cardlab.poker._lookup_cache`) and in memory; the compiled code is cached on
disk too, so a second process neither builds nor compiles again.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np

from cardlab.errors import CardError, HandError
from cardlab.poker.categories import Category
from cardlab.poker.keys import PRIMARY_SHIFT

_FEW_CHECKED = 32  # rows checked in Python (a parallel kernel's start took milliseconds)
_FEW = 20_000  # rows the seven-card loop scores on the calling thread alone (about 50 us)
COMPILE_SECONDS = 20  # the hash path's kernels, compiled on a first run (2-core machine)

if TYPE_CHECKING:
    from cardlab.poker._kernels.hashed import HashLookups
    from cardlab.poker._kernels.omaha_lookup import OmahaLookups
    from cardlab.poker._kernels.plain_seven import PlainSeven
    from cardlab.poker._kernels.rule_arrays import KernelLookups
    from cardlab.poker.rules import RuleSet

Game = Literal["best", "omaha"]
Method = Literal["auto", "subsets", "direct", "hashed"]

__all__ = ["best_keys", "evaluate_batch", "method_for"]


@overload
def evaluate_batch(
    codes: Any,
    rules: RuleSet,
    *,
    game: Game = ...,
    check: bool = ...,
    categories: Literal[False] = ...,
    method: Method = ...,
    out: np.ndarray[Any, np.dtype[np.int64]] | None = ...,
) -> np.ndarray[Any, np.dtype[np.int64]]: ...


@overload
def evaluate_batch(
    codes: Any,
    rules: RuleSet,
    *,
    game: Game = ...,
    check: bool = ...,
    categories: Literal[True],
    method: Method = ...,
    out: np.ndarray[Any, np.dtype[np.int64]] | None = ...,
) -> tuple[
    np.ndarray[Any, np.dtype[np.int64]], np.ndarray[Any, np.dtype[np.int8]], tuple[Category, ...]
]: ...


def evaluate_batch(
    codes: Any,
    rules: RuleSet,
    *,
    game: Game = "best",
    check: bool = True,
    categories: bool = False,
    method: Method = "auto",
    out: np.ndarray[Any, np.dtype[np.int64]] | None = None,
) -> Any:
    """The key of the best five-card hand of every row of ``codes``.

    ``codes``: an integer array of shape (n, k), k = 5, 6 or 7 for ``game="best"``,
    k = 9 for ``game="omaha"`` (four hole cards, then five board cards). ``uint8`` and
    ``int64`` arrays are used as they are (``uint8`` is the fastest); other integer
    types are copied to ``int64``.
    Returns an int64 array of n keys. With ``categories=True`` returns
    ``(keys, ids, categories)``: ``ids`` an int8 array indexing the tuple ``categories``
    (every :class:`Category`, in its listing order).

    ``check=True`` refuses a wrong dtype or shape, a code outside the deck and a card
    repeated within a row (:class:`HandError`, :class:`CardError`). ``check=False``
    skips the scan of the codes: the caller promises every code is in the deck and no
    row repeats a card; otherwise the keys are meaningless (or the call may crash).

    ``method`` picks the kernel, for tests and benchmarks: ``"subsets"`` (the best key
    of every five-card subset, plain), ``"direct"`` (best five of k straight from the
    rank and suit masks), ``"hashed"`` (a perfect hash of the rank multiset into a look-up
    of best keys, then suits, flushes and Mixwells), ``"auto"`` the fastest exact one.
    ``"direct"`` and ``"hashed"`` are exact only for orders where a hand's Mixwell
    version never ranks below its plain one (every built-in default); elsewhere
    ``"auto"`` uses ``"subsets"``.

    ``out``: a C-contiguous int64 array of n entries to write the keys into (and
    return), for callers scoring batch after batch: a fresh array of millions of rows
    costs the system's zeroing of its memory, about a tenth of the time of scoring it.
    """
    array = _as_codes(codes, game, check)
    if out is not None and not (
        isinstance(out, np.ndarray)
        and out.dtype == np.int64
        and out.shape == (array.shape[0],)
        and out.flags.c_contiguous
        and out.flags.writeable
    ):
        raise HandError(
            f"out must be a writable C-contiguous int64 array of {array.shape[0]} keys, got "
            + (f"{out.dtype} of shape {out.shape}" if isinstance(out, np.ndarray) else repr(out))
        )
    lookups = kernel_lookups(rules)
    if check:
        _check_codes(array, lookups)
    keys = _run(array, lookups, game, _resolve(method, lookups, array.shape[1], game), out)
    if not categories:
        return keys
    category_of = np.zeros(32, np.int8)
    for base in range(10):
        for mix in range(2):
            prefix, category, _ = lookups.shapes[base, mix]
            if prefix:
                category_of[int(prefix) >> PRIMARY_SHIFT] = category
    ids = category_of[keys >> PRIMARY_SHIFT] if len(keys) else np.zeros(0, np.int8)
    return keys, ids, tuple(Category)


def best_keys(
    hole: Any, board: Any, rules: RuleSet, *, game: Game = "best", check: bool = True
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Every player's key at showdown: ``hole`` (n, players, h) and ``board`` (n, b)
    card codes give an (n, players) array of keys.

    ``game="best"``: best five of h + b = 5..7 cards (Hold'em: h = 2, b = 5);
    ``game="omaha"``: h = 4, b = 5, exactly two hole cards and three board cards.
    With ``check=True`` a card dealt twice anywhere in a deal (two players, or a player
    and the board) is refused too.
    """
    hole_array = np.asarray(hole)
    board_array = np.asarray(board)
    if hole_array.ndim != 3 or board_array.ndim != 2:
        raise HandError(
            f"hole cards must have shape (n, players, h) and the board (n, b), "
            f"not {hole_array.shape} and {board_array.shape}"
        )
    n, players, h = hole_array.shape
    if board_array.shape[0] != n:
        raise HandError(f"{n} deals of hole cards but {board_array.shape[0]} boards")
    if check and n:
        deal = np.concatenate([hole_array.reshape(n, players * h), board_array], axis=1)
        lookups = kernel_lookups(rules)
        _check_codes(_as_codes(deal, "best", check, any_width=True), lookups)
    rows = np.concatenate(
        [hole_array, np.broadcast_to(board_array[:, None, :], (n, players, board_array.shape[1]))],
        axis=2,
    ).reshape(n * players, h + board_array.shape[1])
    # the deal was checked as a whole above; the shape and dtype are checked here
    keys = evaluate_batch(rows, rules, game=game, check=False)
    return keys.reshape(n, players)


def method_for(rules: RuleSet, k: int = 7, game: Game = "best") -> str:
    """The kernel ``method="auto"`` uses for this rule set and hand size."""
    return _resolve("auto", kernel_lookups(rules), k, game)


# The look-ups below are built once per deck, rules and code, and mapped from the disk
# cache after that (cardlab.poker._lookup_cache). It is imported as a name of the package:
# its code is no input of the compiled kernels, so it stays out of their cache digest.


@lru_cache(maxsize=64)
def kernel_lookups(rules: RuleSet) -> KernelLookups:
    """The kernel look-ups of a rule set, once per process (from the disk cache)."""
    from cardlab.poker import _lookup_cache
    from cardlab.poker._kernels.rule_arrays import build_lookups

    return _lookup_cache.cached(build_lookups, rules)


@lru_cache(maxsize=64)
def hash_lookups(rules: RuleSet, k: int) -> HashLookups | None:
    """The hash path's look-ups for k-card hands (None if too big), once per process."""
    from cardlab.poker import _lookup_cache
    from cardlab.poker._kernels.hashed import build_hash

    return _lookup_cache.cached(
        build_hash, rules, k, build=lambda: build_hash(kernel_lookups(rules), k)
    )


@lru_cache(maxsize=64)
def omaha_lookups(rules: RuleSet) -> OmahaLookups | None:
    """Omaha's best plain key per board and hole pair (None where the hash path or the
    look-up does not fit), once per process (from the disk cache)."""
    from cardlab.poker import _lookup_cache
    from cardlab.poker._kernels import omaha_lookup

    h = hash_lookups(rules, 5)
    if h is None:
        return None
    build = omaha_lookup.omaha_lookups
    return _lookup_cache.cached(build, rules, build=lambda: build(kernel_lookups(rules), h))


@lru_cache(maxsize=64)
def _plain_seven(rules: RuleSet) -> PlainSeven | None:
    """The seven-card loop's look-ups where it applies (suits break no ties, no
    Mixwell: :mod:`cardlab.poker._kernels.plain_seven`), else None; once per process."""
    from cardlab.poker._kernels import plain_seven

    lookups = kernel_lookups(rules)
    h = hash_lookups(rules, 7) if lookups.direct_ok else None
    if h is None or not plain_seven.applies(h, lookups):
        return None
    return plain_seven.plain_seven(h, lookups)


# --- internals ---------------------------------------------------------------


def _as_codes(
    codes: Any, game: Game, check: bool, *, any_width: bool = False
) -> np.ndarray[Any, Any]:
    if game not in ("best", "omaha"):
        raise HandError(f"unknown game {game!r} (expected 'best' or 'omaha')")
    array = np.asarray(codes)
    if array.dtype.kind not in "iu":
        raise HandError(f"card codes must be an integer array, not dtype {array.dtype}")
    if array.ndim != 2:
        raise HandError(f"card codes must have shape (n, k), not {array.shape}")
    k = array.shape[1]
    if any_width:
        pass  # a whole deal: only the codes are checked
    elif game == "omaha" and k != 9:
        raise HandError(f"Omaha rows are 4 hole + 5 board = 9 cards, not {k}")
    elif game == "best" and not 5 <= k <= 7:
        raise HandError(f"rows must hold 5, 6 or 7 cards, not {k}")
    if array.dtype not in (np.uint8, np.int64):
        # the kernels are compiled for these two only; widening keeps bad codes visible
        # to the check (uint64 codes past 2**63 turn negative, and are refused)
        array = array.astype(np.int64)
    return np.ascontiguousarray(array)


def _check_codes(array: np.ndarray[Any, Any], lookups: KernelLookups) -> None:
    from cardlab.poker._kernels.five import first_bad

    if array.shape[0] == 0:
        return
    if array.shape[0] <= _FEW_CHECKED:  # in Python: the kernel's start costs more
        row, col, problem = _first_bad_few(array, lookups.n_cards)
    else:
        row, col, problem = (int(x) for x in first_bad(array, lookups.n_cards))
    if row < 0:
        return
    deck = lookups.rules.deck
    given = array[row].tolist()
    if problem == 1:
        raise CardError(
            f"code {given[col]} in row {row} {given} is not a card of {deck.name} "
            f"(codes 0..{len(deck) - 1})"
        )
    card = deck.cards[given[col]]
    raise CardError(f"card {card} (code {given[col]}) is repeated in row {row} {given}")


def _first_bad_few(array: np.ndarray[Any, Any], n_cards: int) -> tuple[int, int, int]:
    """What ``five.first_bad`` answers, for a few rows: (row, column, problem) of the
    first code outside the deck (problem 1) or repeating a card of its row (2), or
    (-1, 0, 0)."""
    for i, row in enumerate(array.tolist()):
        seen: set[int] = set()
        for j, c in enumerate(row):
            if not 0 <= c < n_cards:
                return i, j, 1
            if c in seen:
                return i, j, 2
            seen.add(c)
    return -1, 0, 0


def _resolve(method: Method, lookups: KernelLookups, k: int, game: Game) -> str:
    if method not in ("auto", "subsets", "direct", "hashed"):
        raise HandError(f"unknown method {method!r} (expected auto, subsets, direct or hashed)")
    h = hash_lookups(lookups.rules, 5 if game == "omaha" else k) if lookups.direct_ok else None
    usable = {
        "subsets": True,
        "direct": game == "best" and lookups.direct_ok,
        "hashed": h is not None and (game == "best" or h.mix_hash),
    }
    if method == "auto":
        return "hashed" if usable["hashed"] else "direct" if usable["direct"] else "subsets"
    if not usable[method]:
        raise HandError(f"method {method!r} is not exact for {lookups.rules.name} ({game})")
    return method


def _run(
    array: np.ndarray[Any, Any],
    lookups: KernelLookups,
    game: Game,
    method: str,
    out: np.ndarray[Any, np.dtype[np.int64]] | None = None,
) -> np.ndarray[Any, np.dtype[np.int64]]:
    from cardlab.poker._kernels import five
    from cardlab.poker._kernels.rule_arrays import left_out, subsets

    n, k = array.shape
    out = np.empty(n, np.int64) if out is None else out
    if n == 0:
        return out
    if method == "hashed" and game == "best" and k == 7:
        plain = _plain_seven(lookups.rules)
        if plain is not None:  # only ranks and flushes matter (standard52)
            from cardlab.poker._kernels import plain_seven

            if array.dtype == np.uint8 and n <= _FEW:  # not worth waking other threads
                plain_seven.best_plain_seven_few(array, plain, out)
            elif array.dtype == np.uint8:  # sixteen rows at a time in vector code
                plain_seven.best_plain_seven_bytes(array, plain, out)
            else:
                plain_seven.best_plain_seven(array, plain, out)
            return out
    choices = subsets(k, omaha=game == "omaha")
    if method == "direct":
        from cardlab.poker._kernels import direct

        direct.best_direct(
            array,
            len(lookups.rules.deck.ranks),
            lookups.cards,
            lookups.shapes,
            lookups.straights,
            lookups.heights,
            lookups.bit_strength,
            lookups.suit_strength,
            choices,
            lookups.mixwell,
            out,
        )
    elif method == "hashed":
        from cardlab.poker._kernels import hashed_batch, omaha
        from cardlab.poker._kernels.bundle import HASHED, OMAHA, key_lookups

        h = hash_lookups(lookups.rules, 5 if game == "omaha" else k)
        assert h is not None  # _resolve checked it
        extra = omaha_lookups(lookups.rules) if game == "omaha" else None
        arrays, scalars = key_lookups(
            OMAHA if game == "omaha" else HASHED,
            lookups,
            h,
            choices,
            left_out(5 if game == "omaha" else k),
            extra,
        )
        if game == "omaha":
            omaha.best_omaha(array, arrays, scalars, out)
        else:
            hashed_batch.best_hashed(array, arrays, scalars, out)
    else:
        five.best_of_subsets(
            array, choices, lookups.cards, lookups.shapes, lookups.straights, lookups.heights, out
        )
    return out
