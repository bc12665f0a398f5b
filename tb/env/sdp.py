"""The SDP top-level environment: its start-up on the common `StatsTop` (tb/env/top.py: what each SDP
register group's statistics registers must hold, exact interrupt waits), and how an SDP layer's input and
operand cubes are written in memory, run and scored against models/sdp/model.py run_sdp.
"""

from __future__ import annotations

import numpy as np
from cocotb.handle import SimHandleBase
from numpy.typing import NDArray

from models.common.cube import CubeLayout
from models.common.memory import Memory
from models.perf import sdp_counts
from models.regfile import intr_bit
from models.sdp.driver import SdpProgram
from models.sdp.model import OperandDma, SdpConfig, SdpResult, dst_layout, run_sdp, sdp_compute
from tb.env.top import GUARD, SDP_STATS, StatsTop, check_idle, make_top
from tb.stimulus.sdp_top import (
    ATOM,
    Layer,
    OperandData,
    describe,
    padded,
)

SDP_INTR_BIT = intr_bit("SDP", 0)     # GLB S_INTR_STATUS: group 1 = the next bit
SDP_AXI_ID = 2                       # the top's AXI IDs: PDP 0, CDP 1, SDP 2


async def setup(dut: SimHandleBase, salt: str) -> StatsTop:
    return await make_top(dut, salt)


# ---- memory, running, scoring --------------------------------------------------------------------------

def cube_span(base: int, line: int, surf: int, cfg: SdpConfig, packed: bool,
              elem: int = 1, atom_bytes: int | None = None) -> tuple[int, int]:
    """[first, last + 1) bytes a cube of cfg's geometry can touch; `packed`: one atom per surface back to back
    (a per-kernel operand block, a 1x1 input or output; a 1x1 per-element operand cube keeps its strides).
    An atom is ATOM * elem bytes, or `atom_bytes` (an INT16 operand's: ATOM/2 elements of 1, 2 or 4 bytes)."""
    atom = ATOM * elem if atom_bytes is None else atom_bytes
    if packed:
        return base, base + cfg.surfaces * atom
    return base, base + (cfg.surfaces - 1) * surf + (cfg.height - 1) * line + cfg.width * atom


def dst_span(cfg: SdpConfig) -> tuple[int, int]:
    """The output cube's bytes (in the output precision's atoms: INT16 ATOM/2 channels each) and guards."""
    lo, hi = dst_layout(cfg).extent()
    return lo - GUARD, hi + GUARD


def src_layout(cfg: SdpConfig) -> CubeLayout:
    """The input cube as SDP_RDMA reads it (INT16 input: ATOM/2 two-byte lanes an atom; 1x1: packed)."""
    if cfg.is_1x1:
        return CubeLayout.packed(cfg.src_base, 1, 1, cfg.channels, cfg.src_lanes, cfg.src_elem_bytes)
    return CubeLayout(cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride, cfg.width, cfg.height,
                      cfg.channels, cfg.src_lanes, cfg.src_elem_bytes)


def write_feature(mem: Memory, base: int, line: int, surf: int, packed: bool,
                  lanes: NDArray[np.uint8]) -> None:
    """Store [surfaces, h, w, bytes per atom] in the feature layout of docs/CONTRACTS.md (one write per line;
    packed: all surfaces back to back from the base)."""
    if packed:
        mem.write(base, lanes.reshape(-1))
        return
    for s in range(lanes.shape[0]):
        for y in range(lanes.shape[1]):
            mem.write(base + s * surf + y * line, lanes[s, y].reshape(-1))


def operand_bytes(od: OperandData, lanes: int = ATOM) -> NDArray[np.uint8]:
    """[surfaces, h, w, lanes * bytes per element]: element i of an atom at i * bpe, its components (ALU
    then MUL) adjacent, each 1 or 2 bytes little endian; `lanes`: the processing precision's per atom."""
    vals = np.stack(od.comps, axis=-1)                       # [c_pad, h, w, ways]
    c_pad, h, w, ways = vals.shape
    vals = vals.reshape(c_pad // lanes, lanes, h, w, ways).transpose(0, 2, 3, 1, 4)
    dtype = "<i2" if od.dma.two_byte else "i1"
    return np.ascontiguousarray(vals.astype(dtype)).view(np.uint8).reshape(c_pad // lanes, h, w, -1)


def packed(dma: OperandDma, cfg: SdpConfig) -> bool:
    """An operand read as one block from its base: per kernel, or per element of a 1x1 cube (packed like
    the input: nvdlav1's operand RDMAs, models/sdp/model.py)."""
    return not dma.per_element or cfg.is_1x1


def prepare(top: StatsTop, layer: Layer) -> None:
    """Random background over every cube the layer touches (and around the destination), then the input
    cube and the operand cubes, in the model's memory, copied to the RAM."""
    cfg = layer.prog.config
    # (lo, hi, memory): each cube in the memory its RAM type names, the destination's background in both
    src_mem = top.index(cfg.src_ram_mc)
    src = src_layout(cfg)
    spans = [(*src.extent(), src_mem), (*dst_span(cfg), 0), (*dst_span(cfg), 1)]
    for od in layer.operands.values():
        if od is not None:
            d = od.dma
            # an operand atom: the processing precision's lanes (INT16: ATOM/2) of bpe bytes
            spans.append((*cube_span(d.base, d.line_stride, d.surface_stride, cfg, packed(d, cfg),
                                     atom_bytes=d.bytes_per_element * cfg.lanes), top.index(d.ram_mc)))
    for lo, hi, m in spans:
        top.fill(lo, hi, mem=m)
    dtype = "<i2" if cfg.src_elem_bytes == 2 else "i1"
    vals = layer.cube.reshape(src.surfaces, src.atom_bytes, cfg.height, cfg.width).transpose(0, 2, 3, 1)
    atoms = np.ascontiguousarray(vals.astype(dtype)).view(np.uint8)   # [surfaces, h, w, ATOM bytes]
    write_feature(top.mems[src_mem], cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride, cfg.is_1x1,
                  atoms)
    for od in layer.operands.values():
        if od is not None:
            d = od.dma
            write_feature(top.mems[top.index(d.ram_mc)], d.base, d.line_stride, d.surface_stride,
                          packed(d, cfg), operand_bytes(od, cfg.lanes))
    for lo, hi, m in spans:
        top.rams[m].write(lo, top.mems[m].read(lo, hi - lo).tobytes())


def locate(cfg: SdpConfig, addr: int) -> str:
    """Name an output byte: (surface, line, column, channel) of the output cube, or a gap/guard byte."""
    out = dst_layout(cfg)
    found = out.coordinate(addr)
    if found is None:
        return "a gap or guard byte outside the output cube (must stay untouched)"
    c, y, col = found
    byte = (addr - out.address(c, y, col)) if out.elem_bytes > 1 else 0
    return (f"surface {c // out.atom_bytes}, line {y}, column {col}, channel {c}"
            + (f" (byte {byte} of its int16)" if out.elem_bytes > 1 else ""))


def compare(top: StatsTop, layer: Layer, label: str) -> None:
    """The destination region (gaps and guards included) against the model; names the first wrong element."""
    cfg = layer.prog.config
    eql = " (nothing may be written in EQL mode)" if cfg.ew.eql else ""
    top.check_region(*dst_span(cfg), label, lambda addr: locate(cfg, addr), signed=True,
                     detail=f"{eql}\n  {describe(layer)}", mem=top.index(cfg.dst_ram_mc))


def expect(top: StatsTop, layer: Layer) -> SdpResult:
    """Run the model on the mirror (after the RTL ran) and record what the group's registers must hold. The
    model reads the operands from memory itself: they must be the ones the bench wrote."""
    prog = layer.prog
    res = run_sdp(prog.config, top.mem, sec_mem=top.sec_mem, lut_tables=prog.lut_tables)
    cube = padded(layer.cube, prog.config.padded_channels)   # 16to8: the processing lanes past the input: 0
    mine = sdp_compute(cube, prog.config, layer.ops, lut_tables=prog.lut_tables)
    assert np.array_equal(mine.data, res.output), \
        f"bench bug: the operands the bench wrote are not what the model reads back\n  {describe(layer)}"
    layer.res = res
    record_stats(top, prog, res)
    return res


def record_stats(top: StatsTop, prog: SdpProgram, res: SdpResult) -> None:
    """What the layer's group's statistics registers must hold after it: the LUT and saturation counters as
    D_PERF_ENABLE gates them (models/perf.py; layers must be recorded in the order they ran), D_STATUS."""
    counted = top.counters.layer(prog.fields, sdp_counts(res.lut_stats, res.saturation_count))
    top.sdp_stats[prog.group] = {**{reg: counted["SDP", reg] for reg in SDP_STATS if reg != "D_STATUS"},
                                 "D_STATUS": int(res.status_unequal)}


async def run_layer(top: StatsTop, layer: Layer, label: str) -> int:
    """Program over CSB, start, wait for the interrupt, score output and statistics; the cycles waited."""
    prepare(top, layer)
    top.new_pauses()
    await top.issue(layer.prog.writes)
    waited = await top.wait_intr(1 << (SDP_INTR_BIT + layer.prog.group))
    assert waited is not None, f"{label}: no SDP_{layer.prog.group} interrupt\n  {describe(layer)}"
    expect(top, layer)
    compare(top, layer, label)
    await top.check_sdp_stats(f"{label} ({describe(layer)})")
    await check_idle(top, label, "SDP")
    return waited
