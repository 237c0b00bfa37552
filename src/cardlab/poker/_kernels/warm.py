"""Whether compiled kernels are already in numba's disk cache (a first run compiles them,
which takes a while: the command line says so before it starts)."""

from __future__ import annotations

from typing import Any


def in_disk_cache(*kernels: Any) -> bool:
    """True when numba's cache holds compiled code of every kernel (for some signature)
    that matches its current source; False when the next call will compile."""
    for kernel in kernels:
        cache = getattr(kernel, "_cache", None)
        index_file = getattr(cache, "_cache_file", None)
        try:
            index = index_file._load_index()  # type: ignore[union-attr]
        except Exception:  # an unreadable or foreign index: the call will compile
            return False
        if kernel.signatures or index:
            continue
        return False
    return True
