"""Copying a block of bytes from one record to another in one ``memcpy``.

A search and every heuristic copy a partnership's table (about 300 bytes) into a scratch area
many times per turn. Written as an element loop the copy is ~90 scalar loads and stores: the
compiler cannot widen them, since it cannot prove two records do not overlap. A ``memcpy`` of
a size known when compiling becomes a handful of vector moves. ``field_block`` works out the
byte offsets from the record dtypes, and checks the two sides have the same element type and
shape, so a layout change cannot silently copy the wrong bytes.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def copy_bytes(typingctx, dst, dst_offset, src, src_offset, nbytes):
    """``nbytes`` bytes from ``src`` at ``src_offset`` to ``dst`` at ``dst_offset`` (records;
    offsets and size in bytes). The caller guarantees the ranges lie inside the records."""
    if not (isinstance(dst, types.Record) and isinstance(src, types.Record)):
        return None
    sig = types.void(dst, dst_offset, src, src_offset, nbytes)

    def codegen(context, builder, signature, args):
        d, d_off, s, s_off, n = args
        d_ptr = builder.gep(builder.bitcast(d, cgutils.voidptr_t), [d_off])
        s_ptr = builder.gep(builder.bitcast(s, cgutils.voidptr_t), [s_off])
        cgutils.raw_memcpy(builder, d_ptr, s_ptr, n, 1)
        return context.get_dummy_value()

    return sig, codegen


def field_block(dtype: np.dtype, name: str, per_row: bool) -> tuple[int, int]:
    """(byte offset, bytes) of field ``name``: of one row of its first axis when ``per_row``
    (a seat's or a partnership's part), else of the whole field."""
    sub, offset = dtype.fields[name][:2]
    shape = sub.shape[1:] if per_row else sub.shape
    return offset, sub.base.itemsize * int(np.prod(shape, dtype=np.int64))


def same_layout(dtype_a: np.dtype, name_a: str, dtype_b: np.dtype, name_b: str,
                a_per_row: bool, b_per_row: bool) -> None:
    """Refuse (at import) a copy between fields of different element types or shapes."""
    a, b = dtype_a.fields[name_a][0], dtype_b.fields[name_b][0]
    shape_a = a.shape[1:] if a_per_row else a.shape
    shape_b = b.shape[1:] if b_per_row else b.shape
    if a.base != b.base or shape_a != shape_b:
        raise AssertionError(f"{name_a} {a.base}{shape_a} and {name_b} {b.base}{shape_b} "
                             "cannot be copied byte for byte")
