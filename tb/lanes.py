"""Lanes packed in one bus word: lane i in bits [i*width, (i+1)*width)."""

from __future__ import annotations

from collections.abc import Sequence

from models.common.precision import as_signed


def pack(values: Sequence[int], width: int) -> int:
    mask = (1 << width) - 1
    return sum((int(v) & mask) << (i * width) for i, v in enumerate(values))


def unpack(word: int, width: int, lanes: int, signed: bool = True) -> list[int]:
    mask = (1 << width) - 1
    raw = [(word >> (i * width)) & mask for i in range(lanes)]
    return [int(as_signed(v, width)) for v in raw] if signed else raw
