"""Sixteen seven-card rows at once, in vector instructions numba cannot write itself.

numba compiles a loop one row at a time: each row's seven digit look-ups, its hash and
its key are about thirty scalar instructions, which caps the loop near 300 M rows a
second a core. Here one call takes sixteen rows of :mod:`.plain_seven` as LLVM vector
code (``llvm.masked.gather``, which x86 with AVX2 or AVX-512 runs as gather instructions
and other targets as plain loads; every other operation is generic LLVM):

1. load the sixteen rows' 112 bytes at once and split them into seven columns (a
   shuffle per column);
2. gather the hash digits of the pairs (columns 0+1, 2+3, 4+5: ``pairs[a << 6 | b]``,
   the sum of both cards' digits) and of column 6 alone (``pairs[c << 6 | c]`` holds
   one card's): four look-ups a row instead of seven;
3. gather ``lo_index`` and ``hi_index`` of the sums' two halves, then ``rank_keys`` of
   their sum, and store the sixteen keys;
4. return the mask of the rows whose suit counts allow a flush (3% of random hands).

Same arithmetic as :func:`.plain_seven._plain_keys`, which tests compare it with.
Requires ``codes`` uint8 and C-contiguous with seven columns, rows ``i..i+15`` present,
every code below 64, and ``lo_index``/``hi_index`` int32.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

WIDTH = 16  # rows a call
_I1 = ir.IntType(1)
_I8 = ir.IntType(8)
_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_ROWS = ir.VectorType(_I64, WIDTH)


def _splat(builder: Any, scalar: Any) -> Any:
    """A vector of WIDTH copies of an int64."""
    one = builder.insert_element(ir.Constant(_ROWS, None), scalar, ir.Constant(_I32, 0))
    zeros = ir.Constant(ir.VectorType(_I32, WIDTH), [0] * WIDTH)
    return builder.shuffle_vector(one, ir.Constant(_ROWS, None), zeros)


class _VectorGep(ir.instructions.Instruction):  # type: ignore[misc]
    """``getelementptr`` of one pointer and a vector of indexes: a vector of pointers
    (llvmlite's own ``gep`` takes scalar indexes only). The gathers' addresses as base +
    index * size let LLVM fold them into the gather instruction."""

    def __init__(self, parent: Any, pointer: Any, index: Any, item: Any) -> None:
        super().__init__(
            parent, ir.VectorType(item.as_pointer(), WIDTH), "getelementptr", [pointer, index]
        )
        self.item = item

    def descr(self, buf: list[str]) -> None:
        pointer, index = self.operands
        buf.append(
            f"getelementptr {self.item}, {pointer.type} {pointer.get_reference()}, "
            f"{index.type} {index.get_reference()}\n"
        )


def _gather(builder: Any, data: Any, index: Any, bits: int) -> Any:
    """``data[index]`` for each of the WIDTH int32 indexes (``data``: the array's data
    pointer, its items ``bits`` wide)."""
    item = ir.IntType(bits)
    values = ir.VectorType(item, WIDTH)
    pointers = ir.VectorType(item.as_pointer(), WIDTH)
    name = f"llvm.masked.gather.v{WIDTH}i{bits}.v{WIDTH}p0"
    signature = ir.FunctionType(values, [pointers, _I32, ir.VectorType(_I1, WIDTH), values])
    gather = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
        builder.module, signature, name
    )
    addresses = _VectorGep(builder.block, builder.bitcast(data, item.as_pointer()), index, item)
    builder._insert(addresses)
    every = ir.Constant(ir.VectorType(_I1, WIDTH), [1] * WIDTH)
    return builder.call(
        gather, [addresses, ir.Constant(_I32, bits // 8), every, ir.Constant(values, None)]
    )


def _sixteen_keys(
    typingctx: Any,
    codes: Any,
    i: Any,
    pairs: Any,
    lo_index: Any,
    hi_index: Any,
    rank_keys: Any,
    out: Any,
    n_lo_bits: Any,
    suit_shift: Any,
    flush_test: Any,
) -> Any:
    """out[i..i+15] = the plain keys of rows i..i+15 of ``codes``; returns the mask of
    the rows among them (bit r: row i + r) whose suit counts allow a flush."""
    arrays = (codes, pairs, lo_index, hi_index, rank_keys, out)
    if not all(isinstance(a, types.Array) for a in arrays) or codes.dtype != types.uint8:
        return None
    sig = types.int64(
        codes,
        i,
        pairs,
        lo_index,
        hi_index,
        rank_keys,
        out,
        n_lo_bits,
        suit_shift,
        flush_test,
    )

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        def data(k: int) -> Any:
            return context.make_array(signature.args[k])(context, builder, args[k]).data

        row = args[1]
        raw_type = ir.VectorType(_I8, 7 * WIDTH)
        start = builder.gep(data(0), [builder.mul(row, ir.Constant(_I64, 7))])
        raw = builder.load(builder.bitcast(start, raw_type.as_pointer()))
        raw.align = 1
        lanes32 = ir.VectorType(_I32, WIDTH)
        columns = []
        for j in range(7):
            pick = ir.Constant(lanes32, [7 * r + j for r in range(WIDTH)])
            column = builder.shuffle_vector(raw, ir.Constant(raw_type, None), pick)
            columns.append(builder.zext(column, lanes32))
        six = ir.Constant(lanes32, [6] * WIDTH)
        total = None
        for a, b in ((0, 1), (2, 3), (4, 5), (6, 6)):
            index = builder.or_(builder.shl(columns[a], six), columns[b])
            digits = _gather(builder, data(2), index, 64)
            total = digits if total is None else builder.add(total, digits)
        n_lo = _splat(builder, args[7])
        shift = _splat(builder, args[8])
        one = _splat(builder, ir.Constant(_I64, 1))
        lo_mask = builder.sub(builder.shl(one, n_lo), one)
        hi_mask = builder.sub(builder.shl(one, builder.sub(shift, n_lo)), one)
        lo = builder.trunc(builder.and_(total, lo_mask), lanes32)
        hi = builder.trunc(builder.and_(builder.ashr(total, n_lo), hi_mask), lanes32)
        place = builder.add(_gather(builder, data(3), lo, 32), _gather(builder, data(4), hi, 32))
        keys = _gather(builder, data(5), place, 64)
        target = builder.gep(data(6), [row])
        store = builder.store(keys, builder.bitcast(target, _ROWS.as_pointer()))
        store.align = 8
        test = _splat(builder, args[9])
        three = _splat(builder, ir.Constant(_I64, 3))
        flush_bits = builder.shl(builder.sdiv(test, three), three)  # each nibble's top bit
        flushes = builder.and_(builder.add(builder.ashr(total, shift), test), flush_bits)
        some = builder.icmp_unsigned("!=", flushes, ir.Constant(_ROWS, [0] * WIDTH))
        bits = ir.IntType(WIDTH)
        return builder.zext(builder.bitcast(some, bits), _I64)

    return sig, codegen


def _lowest_bit(typingctx: Any, x: Any) -> Any:
    """The index of the lowest set bit of the int64 ``x`` (``llvm.cttz``; 64 for 0)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        count_type = ir.FunctionType(_I64, [_I64, _I1])
        count = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, count_type, "llvm.cttz.i64"
        )
        return builder.call(count, [args[0], ir.Constant(_I1, 0)])

    return sig, codegen


# numba calls these from compiled code; to mypy they are plain functions of numbers
sixteen_keys: Callable[..., int] = intrinsic(_sixteen_keys)
lowest_bit: Callable[..., int] = intrinsic(_lowest_bit)
