"""How the workers of a parallel loop share memory and work (private).

numba's ``prange`` splits a loop's range into one equal share per thread; units of
work of very different sizes (the suit-count vectors of an exact walk differ a
thousandfold) leave one thread working while the other waits. So a walk runs a
parallel loop over its *workers*, each taking the next unit from a shared counter
(:func:`fetch_add`) until none is left, the units in decreasing order of their
estimated size: the largest are started first and the small ones fill the gaps, on any
number of threads. Which worker takes which unit varies from run to run; the tallies
are integer sums, so the answer does not.

The workers read the shared arrays through :func:`borrowed` views, and each tallies into
an array of its own, added up once at the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from numba import types
from numba.core import cgutils, config
from numba.extending import intrinsic

_T = TypeVar("_T")


def _null(context: Any, builder: Any, ty: Any) -> Any:
    """A null pointer of an LLVM pointer type."""
    return cgutils.get_null_value(ty)  # type: ignore[no-untyped-call]


@intrinsic
def _fetch_add(typingctx: Any, counter: Any, value: Any) -> Any:  # pragma: no cover
    """Add ``value`` to ``counter[0]`` (an int64 array) atomically; returns the value
    before. The workers of a parallel loop take their units of work with it."""
    if not (
        isinstance(counter, types.Array)
        and counter.dtype == types.int64
        and isinstance(value, types.Integer)
    ):
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        array = context.make_array(counter)(context, builder, args[0])
        amount = context.cast(builder, args[1], value, types.int64)
        return builder.atomic_rmw("add", array.data, amount, "monotonic")

    return types.int64(counter, value), codegen


def _borrow_array(context: Any, builder: Any, ty: Any, value: Any) -> Any:
    """The array ``value`` (numba type ``ty``) without its owner: same data, shape and
    strides, no meminfo and no parent object."""
    source = context.make_array(ty)(context, builder, value)
    view = context.make_array(ty)(context, builder)
    view.data = source.data
    view.shape = source.shape
    view.strides = source.strides
    view.itemsize = source.itemsize
    view.nitems = source.nitems
    view.meminfo = _null(context, builder, view.meminfo.type)
    view.parent = _null(context, builder, view.parent.type)
    return view._getvalue()


@intrinsic
def _borrowed(typingctx: Any, value: Any) -> Any:  # pragma: no cover - compiled
    """An array, or a named tuple of arrays (and numbers, passed as they are), seen
    without reference counting: the same memory, but no owner for numba to count
    references on.

    numba counts a reference (an atomic add on a word of the array's owner) each time
    compiled code takes an array into a new variable or call; threads reading the same
    arrays thus take turns for the cache line of that word, millions of times in a walk.
    A worker of a parallel loop reads the shared look-ups through borrowed views, for
    which the counting is a test of a null pointer. Only for the length of a call whose
    caller holds the arrays (a borrowed view must not be kept or returned)."""
    if isinstance(value, types.Array):

        def one(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            return _borrow_array(context, builder, value, args[0])

        return value(value), one
    if isinstance(value, types.BaseNamedTuple) and all(
        isinstance(t, types.Array | types.Number)
        for t in value.types  # type: ignore[attr-defined]
    ):

        def each(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            items = [
                _borrow_array(context, builder, t, item) if isinstance(t, types.Array) else item
                for t, item in (
                    (t, builder.extract_value(args[0], i))
                    for i, t in enumerate(value.types)  # type: ignore[attr-defined]
                )
            ]
            return context.make_tuple(builder, value, items)

        return value(value), each
    return None


if TYPE_CHECKING:  # the signatures compiled code calls them with

    def fetch_add(counter: Any, value: int) -> int: ...

    def borrowed(value: _T) -> _T: ...

elif config.DISABLE_JIT:  # interpreted (numba's jit off): the same meaning in Python

    def fetch_add(counter: Any, value: int) -> int:
        before = int(counter[0])
        counter[0] += value
        return before

    def borrowed(value: _T) -> _T:
        return value

else:
    fetch_add = _fetch_add
    borrowed = _borrowed
