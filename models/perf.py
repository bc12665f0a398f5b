"""NVDLA's performance counters from one layer to the next, as NVIDIA's RTL keeps them
(docs/perf_counters.md): which D_PERF_ENABLE field gates each counter, and when the hardware clears it.

A counter counts only while its enable (the running layer's group) is set, and a layer's start clears it:
- never (PDP, PDP_RDMA, CDP, CDP_RDMA stall counts: NVIDIA's clear condition, an accepted request, excludes
  the stalled cycle its count enable needs, so the count runs on from reset, wrapping at 32 bits);
- when the layer starts with it enabled (SDP's B/N/E RDMA and WDMA stall counts, LUT and saturation counts:
  a disabled counter keeps the value it had, and the group's register takes that value again);
- at every start (SDP's MRDMA stall count, whose enable is sampled at the start: disabled, it reads 0).
An operand RDMA (B/N/E) also counts only while its *_DISABLE is 0 (NVIDIA's op_en of that DMA).
CDP's LUT counters are not here: NVIDIA's CDP counts whatever LUT_EN says (models/cdp/model.py).

The model knows a layer's LUT and saturation counts; a DMA stall count depends on the memory's timing, so a
bench measures it on the bus (tb/perf.py) and hands it in. Each layer's value of a counter is what the
statistics register of the layer's group takes at its end ("latch" or "hold", models/regfile.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

NEVER, WHEN_ENABLED, ALWAYS = "never", "when enabled", "always"
MASK32 = (1 << 32) - 1


@dataclass(frozen=True)
class Counter:
    unit: str                  # the unit whose statistics register shows it
    reg: str                   # that register (one 32-bit field)
    enable: str                # "REG.FIELD" of the unit's enable
    clear: str                 # NEVER, WHEN_ENABLED or ALWAYS
    disable: str | None = None  # "REG.FIELD" of the unit that also stops it when 1 (an operand RDMA's)
    saturate: bool = False     # stops at 2^32 - 1 (event counts) instead of wrapping (stall counts)

    @property
    def key(self) -> tuple[str, str]:
        return self.unit, self.reg


def _rdma(letter: str) -> Counter:
    return Counter("SDP_RDMA", f"D_PERF_{letter}RDMA_READ_STALL", "D_PERF_ENABLE.PERF_DMA_EN", WHEN_ENABLED,
                   disable=f"D_{letter}RDMA_CFG.{letter}RDMA_DISABLE")


COUNTERS: tuple[Counter, ...] = (
    Counter("PDP_RDMA", "D_PERF_READ_STALL", "D_PERF_ENABLE.DMA_EN", NEVER),
    Counter("PDP", "D_PERF_WRITE_STALL", "D_PERF_ENABLE.DMA_EN", NEVER),
    Counter("CDP_RDMA", "D_PERF_READ_STALL", "D_PERF_ENABLE.DMA_EN", NEVER),
    Counter("CDP", "D_PERF_WRITE_STALL", "D_PERF_ENABLE.DMA_EN", NEVER),
    Counter("SDP_RDMA", "D_PERF_MRDMA_READ_STALL", "D_PERF_ENABLE.PERF_DMA_EN", ALWAYS),
    _rdma("B"), _rdma("N"), _rdma("E"),
    Counter("SDP", "D_PERF_WDMA_WRITE_STALL", "D_PERF_ENABLE.PERF_DMA_EN", WHEN_ENABLED),
    *(Counter("SDP", f"D_PERF_LUT_{name}", "D_PERF_ENABLE.PERF_LUT_EN", WHEN_ENABLED, saturate=True)
      for name in ("LE_HIT", "LO_HIT", "UFLOW", "OFLOW", "HYBRID")),
    Counter("SDP", "D_PERF_OUT_SATURATION", "D_PERF_ENABLE.PERF_SAT_EN", WHEN_ENABLED, saturate=True),
)
BY_KEY = {c.key: c for c in COUNTERS}
# the DMA stall counters, (unit, register); a bench measures what they count
STALLS = tuple(c.key for c in COUNTERS if c.reg.endswith("_STALL"))


def counting(counter: Counter, fields: Mapping[str, int]) -> bool:
    """Whether the counter counts in a layer whose unit's fields ("REG.FIELD" -> value) are these."""
    if not fields[counter.enable]:
        return False
    return counter.disable is None or not fields[counter.disable]


class PerfCounters:
    """The hardware's counters from reset (all 0), layer after layer."""

    def __init__(self) -> None:
        self.values = dict.fromkeys(BY_KEY, 0)

    def layer(self, fields: Mapping[str, Mapping[str, int]],
              counts: Mapping[tuple[str, str], int]) -> dict[tuple[str, str], int]:
        """One layer ran: `fields` holds each unit's fields of the group it ran ("REG.FIELD" -> value),
        `counts` what each counter of theirs saw happen while it ran ((unit, register) -> events, whatever the
        enables say). Returns each of those counters' value at the layer's end: what the statistics register
        of the layer's group takes. Counters left out of `counts` (unknown) are left alone."""
        out: dict[tuple[str, str], int] = {}
        for key, n in counts.items():
            counter = BY_KEY[key]
            on = counting(counter, fields[counter.unit])
            value = self.values[key]
            if counter.clear == ALWAYS or (counter.clear == WHEN_ENABLED and on):
                value = 0
            if on:
                value = min(value + n, MASK32) if counter.saturate else (value + n) & MASK32
            self.values[key] = out[key] = value
        return out


def sdp_counts(lut_stats: Mapping[str, int], saturation: int) -> dict[tuple[str, str], int]:
    """An SDP layer's LUT and saturation counts (models/sdp/model.py SdpResult: lut_stats, saturation_count)
    by
    counter; a LUT the layer does not use counts nothing."""
    counts = {("SDP", f"D_PERF_LUT_{name}"): int(lut_stats.get(name.lower(), 0))
              for name in ("LE_HIT", "LO_HIT", "UFLOW", "OFLOW", "HYBRID")}
    counts["SDP", "D_PERF_OUT_SATURATION"] = int(saturation)
    return counts
