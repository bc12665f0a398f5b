"""The CDP top-level environment: its start-up on the common `StatsTop` (tb/env/top.py: the statistics each
CDP register group must hold, exact interrupt waits), and how a CDP layer is placed in memory, run and
scored against models/cdp/model.py run_cdp.
"""

from __future__ import annotations

from cocotb.handle import SimHandleBase

from models.cdp.model import CdpConfig, cube_layouts, run_cdp
from models.regfile import intr_bit
from tb.env.top import CDP_STATS, GUARD, STATS_DONE_BOUND, StatsTop, check_idle, make_top
from tb.stimulus.cdp_top import (
    Layer,
    describe,
)

INTR_BIT = {u: intr_bit(u, 0) for u in ("CDP", "PDP")}  # GLB S_INTR_STATUS: group 1 = bit + 1


async def setup(dut: SimHandleBase, salt: str) -> StatsTop:
    return await make_top(dut, salt)


# ---- memory, running, scoring --------------------------------------------------------------------------

def dst_span(cfg: CdpConfig) -> tuple[int, int]:
    lo, hi = cube_layouts(cfg)[1].extent()
    return lo - GUARD, hi + GUARD


def prepare(top: StatsTop, layer: Layer) -> None:
    """Random background at the source and around the destination, then the layer's cube at the source, in
    the RAM and in the model's memory alike."""
    cfg = layer.prog.config
    src = cube_layouts(cfg)[0]
    lo, hi = src.extent()
    m = top.index(cfg.src_ram_mc)   # the memory the source is read from (RAM_TYPE), background in both
    top.fill(lo, hi, mem=m)
    top.fill(*dst_span(cfg), mem=0)
    top.fill(*dst_span(cfg), mem=1)
    src.write(top.mems[m], layer.cube)
    top.rams[m].write(lo, top.mems[m].read(lo, hi - lo).tobytes())


def locate(layer: Layer, addr: int) -> str:
    """Name an output byte: its (h, w, c) in the output cube, or a gap/guard byte."""
    cfg = layer.prog.config
    where = cube_layouts(cfg)[1].coordinate(addr)
    if where is None:
        return "a gap or guard byte (must stay untouched)"
    c, h, w = where
    return f"h={h}, w={w}, c={c}"


def compare(top: StatsTop, layer: Layer, label: str) -> None:
    """The destination region (gaps and guards included) against the model; names the first wrong element."""
    cfg = layer.prog.config
    top.check_region(*dst_span(cfg), label, lambda addr: locate(layer, addr), signed=True,
                     detail=f"\n  {describe(layer)}", mem=top.index(cfg.dst_ram_mc))


def expect_stats(top: StatsTop, layer: Layer) -> None:
    """Run the model on the mirror (after the RTL ran) and record what the group's registers must hold (the
    layers in the order they ran)."""
    res = run_cdp(layer.prog.config, top.mem, sec_mem=top.sec_mem)
    layer.res = res
    counts = {**res.lut_counts, "out_saturation": res.out_saturation, "nan_input": 0, "inf_input": 0,
              "nan_output": top.nan_before}
    top.nan_before = res.nan_output
    top.group_stats[layer.prog.group] = {reg: counts[name] for reg, name in CDP_STATS.items()}


async def run_layer(top: StatsTop, layer: Layer, label: str) -> int:
    """Program over CSB, start, wait for the interrupt, score output and statistics; the cycles waited."""
    prepare(top, layer)
    top.new_pauses()
    await top.issue(layer.prog.writes)
    waited = await top.wait_intr(1 << (INTR_BIT["CDP"] + layer.prog.group))
    assert waited is not None, \
        f"{label}: no CDP_{layer.prog.group} interrupt within {STATS_DONE_BOUND} cycles\n  {describe(layer)}"
    expect_stats(top, layer)
    compare(top, layer, label)
    await top.check_stats(label)
    await check_idle(top, label)
    return waited
