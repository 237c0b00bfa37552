"""Uniform random draws for Monte Carlo (private): a generator and exact ranges.

The generator is SplitMix64 (every one of its 64 bits passes BigCrush), one stream per
block of trials, seeded from the caller's numpy ``Generator``. A draw in ``0 .. n-1`` is
Lemire's multiply-shift with its rejection step, so every card and combo is picked
with exactly equal probability (no modulo bias): on 32 bits of an output
(:func:`below`), on 16 bits, four draws an output (:func:`draw16`), or five chained
draws of a partial shuffle from one output (:func:`draw5`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
LOW32 = (1 << 32) - 1


@njit(cache=True, inline="always")
def mix(state: Any) -> tuple[Any, Any]:
    """SplitMix64: (the next state, 64 random bits)."""
    state = state + GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def scale(bits: Any, n: int, state: Any) -> tuple[int, Any]:
    """(a uniform integer in 0 .. n-1, the state) from 32 random ``bits``: Lemire's
    multiply-shift, drawing again in the rare case (probability < n / 2**32) that the
    low half of the product falls in the few values that would bias it."""
    product = bits * n
    low = product & LOW32
    if low < n:
        floor = (LOW32 + 1 - n) % n
        while low < floor:
            state, z = mix(state)
            product = np.int64(z >> np.uint64(32)) * n
            low = product & LOW32
    return product >> 32, state


@njit(cache=True, inline="always")
def below(state: Any, n: int) -> tuple[int, Any]:
    """(a uniform integer in 0 .. n-1, the state), one draw."""
    state, z = mix(state)
    return scale(np.int64(z >> np.uint64(32)), n, state)


@njit(cache=True, inline="always")
def draw16(state: Any, buf: Any, left: int, n: int) -> tuple[Any, Any, Any, int]:
    """(a uniform integer in 0 .. n-1 (n <= 2**16), the state, the buffer, its draws
    left): Lemire's multiply-shift on the next 16 bits of the buffer ``buf`` (four draws
    per generator output, refilled when ``left`` is 0), drawing again in the rare case
    (probability < n / 2**16) that the low half of the product falls in the few values
    that would bias it."""
    if left == 0:
        state, buf = mix(state)
        left = 4
    product = np.int64(buf & np.uint64(0xFFFF)) * n
    buf = buf >> np.uint64(16)
    left -= 1
    low = product & 0xFFFF
    if low < n:
        floor = (0x10000 - n) % n
        while low < floor:
            if left == 0:
                state, buf = mix(state)
                left = 4
            product = np.int64(buf & np.uint64(0xFFFF)) * n
            buf = buf >> np.uint64(16)
            left -= 1
            low = product & 0xFFFF
    return product >> 16, state, buf, left


@njit(cache=True)
def draw5_floors(n: int) -> tuple[int, int]:
    """The two rejection floors of :func:`draw5` for ``n`` cards left (n >= 5): 2**32 mod
    n (n - 1) (n - 2), and 2**32 mod (n - 3) (n - 4)."""
    three = n * (n - 1) * (n - 2)
    two = (n - 3) * (n - 4)
    return ((1 << 32) - three) % three, ((1 << 32) - two) % two


@njit(cache=True, inline="always")
def draw5(state: Any, n: int, floor3: int, floor2: int) -> tuple[Any, Any, Any, Any, Any, Any]:
    """Five uniform draws below n, n - 1, ..., n - 4 (a partial shuffle's) and the state,
    from one generator output: three from its low 32 bits, two from its high 32, each
    by a chain of multiply-shifts (Brackett-Rozinsky and Lemire, "Batched ranged random
    integer generation", 2024): the product of a 32-bit number and a range gives a draw
    in its upper half and the bits for the next range in its lower; the chain is exactly
    uniform when the last lower half is at least its floor (2**32 mod the product of the
    ranges, :func:`draw5_floors`), drawn again otherwise (less than once in 8,000 for
    n <= 80). Two generator outputs a trial fewer than :func:`draw16`'s five draws, and
    no branch per draw."""
    while True:
        state, z = mix(state)
        r = np.int64(z & np.uint64(LOW32))
        x = r * n
        d0 = x >> 32
        x = (x & LOW32) * (n - 1)
        d1 = x >> 32
        x = (x & LOW32) * (n - 2)
        d2 = x >> 32
        if (x & LOW32) < floor3:
            continue
        r = np.int64(z >> np.uint64(32))
        x = r * (n - 3)
        d3 = x >> 32
        x = (x & LOW32) * (n - 4)
        d4 = x >> 32
        if (x & LOW32) < floor2:
            continue
        return d0, d1, d2, d3, d4, state
