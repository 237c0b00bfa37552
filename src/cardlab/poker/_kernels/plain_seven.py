"""Seven-card hands where only ranks and flushes matter: the batch loop at full speed.

Where suits never break ties and there is no Mixwell (standard52 and every rule set
like it), the best five of seven cards is the rank look-up of :mod:`.hashed` unless a
suit holds five cards, then the better of that and the suit's flush. The general loop
(:mod:`.hashed_batch`) pays for what other rule sets need on every row; this one does
the least a row can cost, in two passes over a block of rows:

1. each row's hash sum (seven per-card digits, the suit counts riding in their top
   nibbles), its plain key ``rank_keys[hi_index[hi] + lo_index[lo]]``, and the sum kept
   in a small buffer. No branch and no list of noted rows: a rare-row test in this loop
   (a branch or a conditional store) cost a third of its speed;
2. over the buffer, the rows whose suit counts allow a flush (3% of random hands) take
   their flush: the ranks of the suit holding five or more, ``flush_keys[ranks]``.

For uint8 codes (the fast input) the first pass runs sixteen rows at a time in vector
code (:mod:`.vector_keys`, with a look-up of card pairs); other integer codes, and the
rows past the last sixteen, take the scalar loop. Same keys as
:func:`~.hashed_batch.best_hashed` (tests compare both with the plain subset kernel and
the reference evaluator).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numba import njit, prange

from cardlab.poker._kernels.hashed import hash_masks
from cardlab.poker._kernels.vector_keys import WIDTH, lowest_bit, sixteen_keys

if TYPE_CHECKING:
    from cardlab.poker._kernels.hashed import HashLookups
    from cardlab.poker._kernels.rule_arrays import KernelLookups

Array = Any
_BLOCK = 4096  # rows a pass: the sums' buffer (32 KB) stays in the first-level cache


class PlainSeven(NamedTuple):
    """The look-ups the loop reads (see :class:`~.hashed.HashLookups`)."""

    digits: Array  # per card: its hash digits and its suit's count (per_card[:, 0])
    pairs: Array  # [a << 6 | b]: digits[a] + digits[b]; [c << 6 | c]: digits[c] alone
    lo_index: Array
    hi_index: Array
    lo_index32: Array  # the same as int32, for the vector loop's gathers
    hi_index32: Array
    rank_keys: Array
    suit_ranks: Array  # per card: 1 << (16 * its suit's index + its rank's index)
    flush_keys: Array
    suit_strength: Array
    n_lo_bits: int
    suit_shift: int
    flush_test: int  # 3 in each suit's nibble: a nibble reaching 8 holds five


def applies(h: HashLookups, lookups: KernelLookups) -> bool:
    """Whether this loop gives the keys of seven-card hands for the rule set: suits never
    break ties and no hand is a Mixwell (then a row's key is its ranks' or a flush's)."""
    deck = lookups.rules.deck
    return (
        h.k == 7
        and not lookups.rules.suit_tiebreak
        and not lookups.mixwell
        and len(deck.suits) <= 4  # a board of 16 ranks a suit in one int64
        and len(deck.ranks) <= 16
    )


def plain_seven(h: HashLookups, lookups: KernelLookups) -> PlainSeven:
    """The loop's look-ups, taken from the hash path's (``h``, seven cards)."""
    per_card = h.per_card
    digits = np.ascontiguousarray(per_card[:, 0])
    n = len(digits)  # at most 64 (applies)
    pairs = np.zeros((64, 64), np.int64)
    pairs[:n, :n] = digits[:, None] + digits[None, :]
    pairs[np.arange(n), np.arange(n)] = digits  # a card never pairs with itself
    return PlainSeven(
        digits=digits,
        pairs=pairs.reshape(-1),
        lo_index=h.lo_index,
        hi_index=h.hi_index,
        lo_index32=h.lo_index.astype(np.int32),
        hi_index32=h.hi_index.astype(np.int32),
        rank_keys=h.rank_keys,
        suit_ranks=np.ascontiguousarray(per_card[:, 5] << (16 * per_card[:, 4])),
        flush_keys=h.flush_keys,
        suit_strength=lookups.suit_strength,
        n_lo_bits=h.n_lo_bits,
        suit_shift=h.suit_shift,
        flush_test=h.flush_test,
    )


@njit(cache=True, parallel=True)
def best_plain_seven(codes: Array, p: PlainSeven, out: Array) -> None:  # pragma: no cover
    """out[i] = the key of the best five of the seven cards of row i of ``codes`` (any
    integer codes), one row at a time."""
    n = codes.shape[0]
    for block in prange((n + _BLOCK - 1) // _BLOCK):
        start = block * _BLOCK
        sums = np.empty(_BLOCK, np.int64)
        noted = np.empty(_BLOCK, np.int64)
        _plain_keys(codes, start, min(n, start + _BLOCK), p, sums, out)
        _flushes(codes, start, min(n, start + _BLOCK), p, sums, noted, out)


@njit(cache=True, parallel=True)
def best_plain_seven_bytes(codes: Array, p: PlainSeven, out: Array) -> None:  # pragma: no cover
    """The same for uint8 codes (C-contiguous, seven columns), sixteen rows at a time
    (:func:`~.vector_keys.sixteen_keys`); the last rows short of sixteen one at a time."""
    n = codes.shape[0]
    whole = n - n % WIDTH
    for block in prange((whole + _BLOCK - 1) // _BLOCK):
        start = block * _BLOCK
        noted = np.empty(_BLOCK // WIDTH, np.int64)
        _vector_keys(codes, start, min(whole, start + _BLOCK), p, noted, out)
    if whole < n:
        sums = np.empty(WIDTH, np.int64)
        noted = np.empty(WIDTH, np.int64)
        _plain_keys(codes, whole, n, p, sums, out)
        _flushes(codes, whole, n, p, sums, noted, out)


@njit(cache=True)
def best_plain_seven_few(codes: Array, p: PlainSeven, out: Array) -> None:  # pragma: no cover
    """The same for a few rows (uint8 codes), on the calling thread only: a parallel
    loop's start wakes the other threads, which on a busy machine took milliseconds for
    one hand."""
    n = codes.shape[0]
    whole = n - n % WIDTH
    noted = np.empty(_BLOCK // WIDTH, np.int64)
    for start in range(0, whole, _BLOCK):
        _vector_keys(codes, start, min(whole, start + _BLOCK), p, noted, out)
    if whole < n:
        sums = np.empty(WIDTH, np.int64)
        rows = np.empty(WIDTH, np.int64)
        _plain_keys(codes, whole, n, p, sums, out)
        _flushes(codes, whole, n, p, sums, rows, out)


@njit(cache=True)
def _vector_keys(
    codes: Array, start: int, stop: int, p: PlainSeven, noted: Array, out: Array
) -> None:  # pragma: no cover - compiled
    """Rows start..stop (a multiple of WIDTH): the plain keys sixteen at a time, then
    the flushes of the rows whose suit counts allow one."""
    pairs = p.pairs
    lo_index = p.lo_index32
    hi_index = p.hi_index32
    rank_keys = p.rank_keys
    n_lo_bits = p.n_lo_bits
    suit_shift = p.suit_shift
    flush_test = p.flush_test
    n_noted = 0  # groups with a row that may hold a flush: first row << 16 | mask
    for i in range(start, stop, WIDTH):
        mask = sixteen_keys(
            codes, i, pairs, lo_index, hi_index, rank_keys, out, n_lo_bits, suit_shift, flush_test
        )
        noted[n_noted] = i << 16 | mask
        n_noted += mask != 0
    digits = p.digits
    suit_ranks = p.suit_ranks
    flush_keys = p.flush_keys
    suit_strength = p.suit_strength
    flush_bits = (flush_test // 3) << 3
    for q in range(n_noted):
        first = noted[q] >> 16
        mask = noted[q] & 0xFFFF
        while mask:
            i = first + lowest_bit(mask)
            mask &= mask - 1
            total = 0
            for j in range(7):
                total += digits[codes[i, j]]
            flushes = ((total >> suit_shift) + flush_test) & flush_bits
            out[i] = _with_flush(codes, i, flushes, out[i], suit_ranks, flush_keys, suit_strength)


@njit(cache=True)
def _plain_keys(
    codes: Array, start: int, stop: int, p: PlainSeven, sums: Array, out: Array
) -> None:  # pragma: no cover - compiled
    """out[i] = the plain key of row i (its ranks); sums[i - start] = its hash sum."""
    digits = p.digits
    lo_index = p.lo_index
    hi_index = p.hi_index
    rank_keys = p.rank_keys
    n_lo_bits = p.n_lo_bits
    lo_mask, hi_mask = hash_masks(n_lo_bits, p.suit_shift)
    for i in range(start, stop):
        total = (
            digits[codes[i, 0]]
            + digits[codes[i, 1]]
            + digits[codes[i, 2]]
            + digits[codes[i, 3]]
            + digits[codes[i, 4]]
            + digits[codes[i, 5]]
            + digits[codes[i, 6]]
        )
        out[i] = rank_keys[hi_index[total >> n_lo_bits & hi_mask] + lo_index[total & lo_mask]]
        sums[i - start] = total


@njit(cache=True)
def _flushes(
    codes: Array, start: int, stop: int, p: PlainSeven, sums: Array, noted: Array, out: Array
) -> None:  # pragma: no cover - compiled
    """Raise out[i] to row i's flush where its suit counts (in ``sums``) allow one."""
    suit_shift = p.suit_shift
    flush_test = p.flush_test
    flush_bits = (flush_test // 3) << 3  # the top bit of each suit's nibble
    # the rows that may hold a flush, listed without a branch (``noted``: row << 32 | its
    # suits of five or more)
    n_noted = 0
    for i in range(stop - start):
        flushes = ((sums[i] >> suit_shift) + flush_test) & flush_bits
        noted[n_noted] = i << 32 | flushes
        n_noted += flushes != 0
    # read out of the tuple once: each read counts a reference (an atomic operation)
    suit_ranks = p.suit_ranks
    flush_keys = p.flush_keys
    suit_strength = p.suit_strength
    for q in range(n_noted):
        i = start + (noted[q] >> 32)
        flushes = noted[q] & 0xFFFFFFFF
        out[i] = _with_flush(codes, i, flushes, out[i], suit_ranks, flush_keys, suit_strength)


@njit(cache=True, inline="always")
def _with_flush(
    codes: Array,
    i: int,
    flushes: int,
    key: int,
    suit_ranks: Array,
    flush_keys: Array,
    suit_strength: Array,
) -> int:  # pragma: no cover - compiled
    """``key`` raised to row i's flush; ``flushes``: the top bit of the nibble of its
    suit holding five or more cards (seven cards hold at most one such suit)."""
    suit = (flushes >> 7 & 1) + 2 * (flushes >> 11 & 1) + 3 * (flushes >> 15 & 1)
    board = (
        suit_ranks[codes[i, 0]]
        | suit_ranks[codes[i, 1]]
        | suit_ranks[codes[i, 2]]
        | suit_ranks[codes[i, 3]]
        | suit_ranks[codes[i, 4]]
        | suit_ranks[codes[i, 5]]
        | suit_ranks[codes[i, 6]]
    )
    ranks = board >> (16 * suit) & 0xFFFF
    return int(max(key, flush_keys[ranks] | suit_strength[suit] * 0x11111))
