"""Sparse byte-addressed memory (32-bit addresses); the feature-cube layout in it is models/common/cube.py.

Memory never written reads as zero, like NVDLA's trace player after ALL_ZERO.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

PAGE_BITS = 16
PAGE = 1 << PAGE_BITS
ADDRESS_SPACE = 1 << 32


class Memory:
    """Pages of 64 KiB allocated on first write; reads of untouched pages return zeros."""

    def __init__(self) -> None:
        self._pages: dict[int, NDArray[np.uint8]] = {}

    def _check(self, addr: int, n: int) -> None:
        if n < 0 or addr < 0 or addr + n > ADDRESS_SPACE:
            raise ValueError(f"access [{addr:#x}, {addr + n:#x}) is outside the 32-bit address space")

    def _spans(self, addr: int, n: int) -> list[tuple[int, int, int, int]]:
        """(page, offset in page, offset in buffer, length) for each page the access touches."""
        spans, done = [], 0
        while done < n:
            a = addr + done
            page, off = a >> PAGE_BITS, a & (PAGE - 1)
            length = min(PAGE - off, n - done)
            spans.append((page, off, done, length))
            done += length
        return spans

    def read(self, addr: int, n: int) -> NDArray[np.uint8]:
        self._check(addr, n)
        out = np.zeros(n, dtype=np.uint8)
        for page, off, pos, length in self._spans(addr, n):
            data = self._pages.get(page)
            if data is not None:
                out[pos:pos + length] = data[off:off + length]
        return out

    def write(self, addr: int, data: ArrayLike) -> None:
        buf = np.asarray(data).astype(np.uint8, copy=False).reshape(-1)
        self._check(addr, buf.size)
        for page, off, pos, length in self._spans(addr, buf.size):
            target = self._pages.get(page)
            if target is None:
                target = self._pages[page] = np.zeros(PAGE, dtype=np.uint8)
            target[off:off + length] = buf[pos:pos + length]

    def fill(self, addr: int, n: int, value: int = 0) -> None:
        self._check(addr, n)
        for page, off, _pos, length in self._spans(addr, n):
            target = self._pages.get(page)
            if target is None:
                if value == 0:
                    continue  # untouched pages already read as zero
                target = self._pages[page] = np.zeros(PAGE, dtype=np.uint8)
            target[off:off + length] = value

    def copy(self) -> Memory:
        other = Memory()
        other._pages = {k: v.copy() for k, v in self._pages.items()}
        return other



def memory_index(ram_mc: bool, second_memory: bool) -> int:
    """Index of the memory (0 primary, 1 CV SRAM) a DMA side with this RAM type uses (pick_memory's rule)."""
    return 1 if (second_memory and not ram_mc) else 0


def pick_memory(ram_mc: bool, mem: object, sec_mem: object | None) -> object:
    """The memory a DMA client uses, by its RAM_TYPE register as NVDLA routes it (nocif NV_NVDLA_DMAIF_*):
    MC is `mem`, the primary memory; CV is `sec_mem`, the CV SRAM, when the configuration has one. Without
    it (sec_mem None) everything stays in the primary memory, as this project's top with SEC_MEM = 0 does."""
    return sec_mem if memory_index(ram_mc, sec_mem is not None) else mem
