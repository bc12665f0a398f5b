"""The second memory (NVDLA's CV SRAM interface, c_axi) on the subsystem top: every DMA client of every unit
in each memory (bench top_secmem, on tb/hdl/nvdla_pp_top_mem.v whose u_cmem sits on c_axi; built with
SEC_MEM=1 and SEC_MEM=0).

- every_client_each_memory: PDP and CDP layers with their source and destination in each combination of
  RAM_TYPE MC and CV; SDP layers reading the input and all three operand streams from memory, with each of
  its five DMA sides alone in CV, none, and all. With SEC_MEM=1 a CV side must use memory 1 (c_axi) and an MC
  side memory 0; with SEC_MEM=0 everything memory 0 (c_axi idle). Checked three ways per layer: the output
  against the model in both memories (the written one and the untouched one: models.common.memory.pick_memory
  decides which), the source regions holding different random data in the other memory (a read from the
  wrong memory gives a wrong output), and the bytes each memory served and stored (zero where no side of
  that direction uses it, non-zero where one does). The layers of one unit are the same layer (one seed)
  in different memories, so the cycles each took (logged) show what a memory switch costs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import cocotb
from cocotb.handle import SimHandleBase

from models import configs
from models.cdp.model import cube_layouts
from models.pdp.model import run_pdp
from tb import outcome
from tb.bfm.sim_memory import SimMemory
from tb.env import cdp as cdp_env
from tb.env import pdp as pdp_env
from tb.env import sdp as sdp_env
from tb.env.top import StatsTop
from tb.stimulus.cdp_top import make_layer as make_cdp_layer
from tb.stimulus.sdp_top import Wants
from tb.stimulus.sdp_top import make_layer as make_sdp_layer

SDP_SIDES = ("src", "dst", "BS", "BN", "EW")
# every operand stream reads memory (element-wise or per kernel), the EW LUT off: the layer's five DMAs
ALL_OPERANDS = Wants(block={"BS": "per element", "BN": "per kernel", "EW": "per element"})


def combos(sides: tuple[str, ...]) -> list[dict[str, bool]]:
    """None in CV, each side alone in CV, all in CV (RAM_TYPE MC: True)."""
    out = [dict.fromkeys(sides, True)]
    out += [{s: s != alone for s in sides} for alone in sides]
    if len(sides) > 1:
        out.append(dict.fromkeys(sides, False))
    return out


def decoys(top: StatsTop, spans: list[tuple[int, int]]) -> None:
    """Different random data over each source span in both memories (the layer's own fill then overwrites
    the memory its RAM type names): a read served by the other memory cannot give the model's output."""
    for lo, hi in spans:
        top.fill(lo, hi, mem=0)
        top.fill(lo, hi, mem=1)


class Traffic:
    """Bytes each simulation memory served (R) and stored (W) during one layer."""

    def __init__(self, top: StatsTop) -> None:
        self.mems = [m for m in top.rams if isinstance(m, SimMemory)]
        assert len(self.mems) == 2, "this bench runs on the wrapper with both simulation memories"
        self.before = [(m.read_bytes, m.write_bytes) for m in self.mems]

    def check(self, top: StatsTop, reads: Mapping[str, bool], writes: Mapping[str, bool], label: str) -> None:
        """reads/writes: the side -> RAM_TYPE MC of the layer's read and write DMAs."""
        for k, (m, (r0, w0)) in enumerate(zip(self.mems, self.before, strict=True)):
            used_r = any(top.index(mc) == k for mc in reads.values())
            used_w = any(top.index(mc) == k for mc in writes.values())
            r, w = m.read_bytes - r0, m.write_bytes - w0
            assert (r > 0) == used_r, f"{label}: memory {k} served {r} bytes; reads {dict(reads)}"
            assert (w > 0) == used_w, f"{label}: memory {k} stored {w} bytes; writes {dict(writes)}"


def name_of(rams: Mapping[str, bool]) -> str:
    return ", ".join(f"{side} {'MC' if mc else 'CV'}" for side, mc in rams.items())


async def pdp_layer(top: StatsTop, rng: random.Random, rams: dict[str, bool], group: int, label: str) -> int:
    desc, prog = pdp_env.random_program(rng, top.max_w, group, ram_mc=rams)
    cfg = prog.config
    decoys(top, [pdp_env.src_span(cfg)])
    pdp_env.prepare(top, prog)
    traffic = Traffic(top)
    await top.issue(prog.writes)
    waited = await top.wait_intr(1 << (cdp_env.INTR_BIT["PDP"] + group))
    assert waited is not None, f"{label}: no PDP_{group} interrupt ({pdp_env.describe(desc, prog)})"
    run_pdp(cfg, top.mem, sec_mem=top.sec_mem)
    pdp_env.compare(top, cfg, f"{label} ({pdp_env.describe(desc, prog)})")
    traffic.check(top, {"src": cfg.src_ram_mc}, {"dst": cfg.dst_ram_mc}, label)
    return waited


async def cdp_layer(top: StatsTop, rng: random.Random, rams: dict[str, bool], group: int, label: str) -> int:
    layer = make_cdp_layer(rng, 0, group, ram_mc=rams)
    cfg = layer.prog.config
    decoys(top, [cube_layouts(cfg)[0].extent()])
    traffic = Traffic(top)
    cycles = await cdp_env.run_layer(top, layer, label)
    traffic.check(top, {"src": cfg.src_ram_mc}, {"dst": cfg.dst_ram_mc}, label)
    return cycles


async def sdp_layer(top: StatsTop, rng: random.Random, rams: dict[str, bool], group: int, label: str) -> int:
    layer = make_sdp_layer(rng, group, ALL_OPERANDS, ram_mc=rams)
    cfg = layer.prog.config
    ods = {name: od for name, od in layer.operands.items() if od is not None}
    # every operand stream the configuration's SDP has (nv_medium_512 has no EW: its layers read BS and BN)
    streams = {"BS", "BN"} | ({"EW"} if configs.load().sdp.ew else set())
    assert set(ods) == streams, f"{label}: the layer must read every operand stream ({sorted(streams)})"
    spans = [sdp_env.cube_span(cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride, cfg, cfg.is_1x1)]
    spans += [sdp_env.cube_span(od.dma.base, od.dma.line_stride, od.dma.surface_stride, cfg,
                                not od.dma.per_element, od.dma.bytes_per_element) for od in ods.values()]
    decoys(top, spans)
    traffic = Traffic(top)
    cycles = await sdp_env.run_layer(top, layer, label)
    reads = {"src": cfg.src_ram_mc, **{name: od.dma.ram_mc for name, od in ods.items()}}
    traffic.check(top, reads, {"dst": cfg.dst_ram_mc}, label)
    return cycles


@cocotb.test()
async def every_client_each_memory(dut: SimHandleBase) -> None:
    top = await sdp_env.setup(dut, "every_client_each_memory")
    groups = {"PDP": 0, "CDP": 0, "SDP": 0}   # each unit's next group: its CONSUMER alternates per layer
    layers = 0

    def next_group(unit: str) -> int:
        g = groups[unit]
        groups[unit] ^= 1
        return g

    runs = (("PDP", ("src", "dst"), pdp_layer), ("CDP", ("src", "dst"), cdp_layer),
            ("SDP", SDP_SIDES, sdp_layer))
    for unit, sides, run in runs:
        seed = top.rng.getrandbits(32)   # one layer per unit, in every combination of memories
        for rams in combos(sides):
            label = f"{unit} layer, {name_of(rams)}"
            cycles = await run(top, random.Random(seed), rams, next_group(unit), label)
            dut._log.info("%s: %d cycles", label, cycles)
            layers += 1
    outcome.checked(layers, "layers")
