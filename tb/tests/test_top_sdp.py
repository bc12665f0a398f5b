"""Top-level tests of the SDP slice (rtl/top/nvdla_pp_top.v), driven the way software drives NVDLA.

Layers are programmed over CSB from the SDP driver layer's register writes (models/sdp/driver.py: SDP_RDMA
group, LUT tables through S_LUT_ACCESS_CFG/DATA and the S_LUT_* registers, SDP group, both register groups),
the AXI memory (cocotbext-axi AxiRam) stalls every channel at random, and each layer's destination region,
guard bytes and line/surface gaps included, is compared byte for byte with models.sdp.model.run_sdp run on a
mirror of the memory. The input cube and the operand cubes (BS/BN/EW, per channel or per element, 1 or 2
bytes, DATA_USE ALU/MUL/BOTH) are written by this bench in the layout of docs/CONTRACTS.md; the model reads
them back from the mirror itself, and the bench checks that it read what was written (sdp_compute on the
bench's own operands gives the same output). After every layer D_PERF_LUT_{LE_HIT,LO_HIT,UFLOW,OFLOW,HYBRID},
D_PERF_OUT_SATURATION and D_STATUS.STATUS_UNEQUAL of BOTH register groups are read over CSB: the group
that ran must hold the model's SdpResult (the LUT and saturation counts as D_PERF_ENABLE gates them, the
layers drawing it on or off: models/perf.py), the other one what its own last layer left (per-group latching).
Tests:
- random_layers: random legal layers in groups 0 and 1 alternately: cubes with W, C mostly not multiples of
  8 (1x1 included), every block combination (BS/BN/EW bypassed or not, ALU MAX/MIN/SUM, PReLU, ReLU,
  operands from registers or memory, per channel and per element, 1 and 2 bytes, DATA_USE both), EW input
  convertors, the EW LUT (models.lut.program sigmoid/tanh, random legal tables with exponential and linear
  LE, tables aimed at the layer's LUT inputs), random output convertors aimed at the data, EQL mode (nothing
  written, STATUS_UNEQUAL equal and unequal); the first layers and a bounded continuation aim at coverage
  goals still missing; NIGHTLY >= 100 layers; where the top has INT16 (nv_full), a third of the layers are
  INT16 -> INT16, INT16 -> INT8 or INT8 -> INT16 (tb/stimulus/sdp_top.py draw_precisions); where it has FP16
  too, a third of all layers are FP16 -> FP16 / INT16, most with the EW LUT at FP16
  (tb/stimulus/sdp_top_fp16.py);
- lut_readback: both SDP tables written and read back over CSB (auto-increment), then random accesses
  (any start address, past the end, reads in write mode, writes in read mode) scored against
  models.lut.model.LutRam (the SDP port's wrapping pointer);
- queued_groups: group 1 programmed while group 0 runs (LUT kept: load_lut=False), enabled behind it:
  S_STATUS RUNNING/PENDING, both outputs and each group's statistics right although group 1 starts at once;
- sdp_with_cdp_or_pdp: an SDP layer and a CDP (even rounds) or PDP (odd rounds) layer running at the same
  time through the AXI arbiters (their read bursts interleave), all outputs and statistics correct.
The bench never uses OUTPUT_DST = PDP (no on-the-fly SDP->PDP path in this RTL).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

import cocotb
from cocotb.handle import SimHandleBase

from models import registers as regmap
from models.lut.model import EXPONENT
from models.pdp.model import run_pdp
from models.sdp.driver import sdp_layer
from models.sdp.model import USE_BOTH
from tb import lut_access, outcome
from tb.batch import Batch
from tb.bench_target import batch_count, short_batch
from tb.bfm.axi_ram import set_memory_pauses
from tb.common import scaled
from tb.env.cdp import INTR_BIT
from tb.env.cdp import compare as compare_cdp
from tb.env.cdp import expect_stats as expect_cdp_stats
from tb.env.cdp import prepare as prepare_cdp
from tb.env.pdp import compare as compare_pdp
from tb.env.pdp import fixed_program, random_rams
from tb.env.pdp import prepare as prepare_pdp
from tb.env.sdp import SDP_AXI_ID, SDP_INTR_BIT, compare, expect, prepare, run_layer, setup
from tb.env.top import check_idle, check_queued, record_reads
from tb.funcov import Covergroup
from tb.stimulus.cdp_top import make_layer as make_cdp_layer
from tb.stimulus.sdp_top import (
    ATOM,
    BLOCKS,
    CUBE_GOALS,
    FEATURES,
    LUT_GOALS,
    LUT_KINDS,
    REGIONS,
    Layer,
    Wants,
    block_goals,
    describe,
    make_layer,
    operand_reads,
    plan,
    random_wants,
)
from tb.stimulus.sdp_top_fp16 import make_fp16_layer

# ---- coverage -----------------------------------------------------------------------------------------

class Coverage(Covergroup):
    """SDP blocks (per block: ALU algorithms, PReLU/ReLU, operands from registers or memory, the operand
    DMA's shapes), LUT kinds and statistics, EQL, cube shapes, register groups."""

    def __init__(self) -> None:
        super().__init__("top_sdp", "SDP", {
            **{f"{b} block": tuple(f"{b} {g}" for g in block_goals(b)) for b in BLOCKS},
            "LUT / EQL": LUT_GOALS, "cube": CUBE_GOALS, "register group": ("group 0", "group 1"),
            "output": ("saturation",)})

    def add(self, layer: Layer) -> None:
        cfg, res = layer.prog.config, layer.res
        assert res is not None
        flags: dict[str, bool] = {f"group {layer.prog.group}": True, "saturation": res.saturation_count > 0,
                                  "1x1": cfg.is_1x1, "C % 8 != 0": cfg.channels % ATOM != 0,
                                  "several surfaces": cfg.surfaces > 1}
        parts = (("BS", cfg.bs, cfg.brdma), ("BN", cfg.bn, cfg.nrdma), ("EW", cfg.ew, cfg.erdma))
        for name, blk, dma in parts:
            alu, mul = operand_reads(blk)
            flags |= {f"{name} ALU {blk.alu_algo}": blk.alu_active, f"{name} bypassed": blk.bypass,
                      f"{name} PReLU": blk.mul_active and blk.mul_prelu, f"{name} ALU mem": alu,
                      f"{name} MUL mem": mul, f"{name} ALU reg": blk.alu_active and not alu,
                      f"{name} MUL reg": blk.mul_active and not mul}
            if dma.enabled:
                flags |= {f"{name} per element": dma.per_element, f"{name} per kernel": not dma.per_element,
                          f"{name} 2-byte": dma.two_byte, f"{name} 1-byte": not dma.two_byte,
                          f"{name} use both": dma.data_use == USE_BOTH}
        flags |= {"BS ReLU": not cfg.bs.bypass and not cfg.bs.relu_bypass,
                  "BN ReLU": not cfg.bn.bypass and not cfg.bn.relu_bypass,
                  "EW ALU cvt": operand_reads(cfg.ew)[0] and not cfg.ew.alu_cvt.bypass,
                  "EW MUL cvt": operand_reads(cfg.ew)[1] and not cfg.ew.mul_cvt.bypass}
        if cfg.ew.eql:
            flags["EQL unequal" if res.status_unequal else "EQL equal"] = True
        lut = layer.prog.lut
        if lut is not None and not cfg.ew.bypass and not cfg.ew.lut_bypass:
            flags |= {f"LUT {layer.kind}": True, "LUT exponential": lut.le_function == EXPONENT,
                      "LUT linear": lut.le_function != EXPONENT,
                      **{k: v > 0 for k, v in res.lut_stats.items()}}
        self.sample(flags)


# ---- tests --------------------------------------------------------------------------------------------

@cocotb.test()
async def random_layers(dut: SimHandleBase) -> None:
    top = await setup(dut, "random_layers")
    count = batch_count(dut, 24, 13000)  # NIGHTLY: with sdp_core ~1e7 samples, on the simulation memory
    goals = not short_batch()            # a short batch (another configuration's) requires no coverage goal
    batch = Batch(dut, after_reset=top.after_reset)  # a failed layer alone fails: expectations reset too
    with Coverage().written("random_layers") as cov:
        def draw(i: int) -> Layer:
            # planned layers aim at goals still missing (most of the time); past the planned count the run
            # continues, bounded, while a goal is missing
            missing = cov.missing()
            wants = plan(missing, top.rng) if missing and top.rng.random() < 0.8 else random_wants(top.rng)
            # Both units are enabled every layer, so their CONSUMER pointers alternate 0, 1, 0, ...
            rams = random_rams(top.rng, ("src", "dst", "BS", "BN", "EW"))
            if "FP16" in top.precisions and top.rng.random() < 1 / 3:
                return make_fp16_layer(top.rng, group=batch.group, ram_mc=rams)
            return make_layer(top.rng, group=batch.group, wants=wants, ram_mc=rams, precisions=top.precisions)

        i = await batch.run_covering(cov, count, goals, draw, partial(run_layer, top), describe)
        assert not goals or not cov.missing(), f"coverage holes after {i} layers: {cov.missing()}"


@cocotb.test()
async def lut_readback(dut: SimHandleBase) -> None:
    top = await setup(dut, "lut_readback")
    await lut_access.lut_readback(top, "SDP", top.rng, saturating=False)


@cocotb.test()
async def queued_groups(dut: SimHandleBase) -> None:
    """Group 1 programmed while group 0 runs (the LUT loaded by group 0 and kept: load_lut=False), enabled
    behind it: S_STATUS shows group 0 RUNNING and group 1 PENDING, both outputs and each group's statistics
    are right although group 1 starts right after group 0's done."""
    top = await setup(dut, "queued_groups")
    rng = top.rng
    for rounds in range(scaled(2, 10)):
        kind = rng.choice(["sigmoid", "tanh"])
        a = make_layer(rng, 0, Wants(lut=kind, cube="big"))     # still running once group 1 is programmed
        b = make_layer(rng, 1, Wants(lut=kind), offset=0x400_0000)
        w, h, c = b.desc["dims"]  # type: ignore[misc]
        keywords = {k: v for k, v in b.desc.items() if k != "dims"}
        b.prog = sdp_layer(w, h, c, **keywords, load_lut=False)  # type: ignore[arg-type]
        assert not any(r.startswith("S_LUT") for _u, r, _v in b.prog.writes)
        prepare(top, a)
        prepare(top, b)
        set_memory_pauses(top.ram, rng)
        await top.issue(a.prog.writes)
        await top.issue(b.prog.writes)
        await check_queued(top, f"round {rounds}", "SDP")
        bits = sum(1 << (SDP_INTR_BIT + g) for g in (0, 1))
        assert await top.wait_intr(bits) is not None, f"round {rounds}: no SDP_0 and SDP_1 interrupts"
        for layer, name in ((a, "A (group 0)"), (b, "B (group 1)")):
            expect(top, layer)
            compare(top, layer, f"round {rounds}, layer {name}")
        await top.check_sdp_stats(f"round {rounds}")
        await check_idle(top, f"round {rounds}", "SDP")


def interleaved(cycles: Mapping[int, Sequence[int]], a: int, b: int) -> bool:
    return a in cycles and b in cycles and cycles[a][0] < cycles[b][-1] and cycles[b][0] < cycles[a][-1]


@cocotb.test()
async def sdp_with_cdp_or_pdp(dut: SimHandleBase) -> None:
    """An SDP layer and a CDP (even rounds) or PDP (odd rounds) layer at once through the arbiters."""
    top = await setup(dut, "sdp_with_cdp_or_pdp")
    rng = top.rng
    for rounds in range(scaled(2, 8)):
        # Each unit's CONSUMER pointer moves on with each of its own layers: SDP runs every round, CDP and
        # PDP every other one.
        group, partner_group = rounds % 2, (rounds // 2) % 2
        wants = Wants(lut=rng.choice([None, *LUT_KINDS]), cube="several surfaces",
                      block={"BS": "per element", "EW": "MUL mem"})
        sdp = make_layer(rng, group, wants)
        while sdp.prog.config.width * sdp.prog.config.height < 24:   # long enough to overlap the partner
            sdp = make_layer(rng, group, wants)
        prepare(top, sdp)
        if rounds % 2 == 0:
            partner_id, cdp = 1, make_cdp_layer(rng, rounds + 4, group=partner_group,
                                                dims=(rng.randint(17, 30), 3,
                                                      rng.randint(2 * ATOM + 1, 5 * ATOM)))
            prepare_cdp(top, cdp)
            partner_writes, bit = cdp.prog.writes, 1 << (INTR_BIT["CDP"] + partner_group)
        else:
            partner_id, pdp = 0, fixed_program(rng, partner_group, 32, 8, 3 * ATOM, rng.choice([1, 2, 4]),
                                               REGIONS["SRC"] + 0x800_0000, REGIONS["DST"] + 0x800_0000)
            prepare_pdp(top, pdp)
            partner_writes, bit = pdp.writes, 1 << (INTR_BIT["PDP"] + partner_group)
        set_memory_pauses(top.ram, rng)
        cycles: dict[int, list[int]] = {}
        monitor = cocotb.start_soon(record_reads(dut, cycles))
        # everything but the enables, then the four enables back to back in a random order
        await top.issue([wr for wr in sdp.prog.writes if wr[1] != "D_OP_ENABLE"])
        await top.issue([wr for wr in partner_writes if wr[1] != "D_OP_ENABLE"])
        enables = [wr for wr in (*sdp.prog.writes, *partner_writes) if wr[1] == "D_OP_ENABLE"]
        await top.issue(enables if rng.random() < 0.5 else enables[::-1])
        waited = await top.wait_intr(bit | (1 << (SDP_INTR_BIT + group)))
        monitor.cancel()
        assert waited is not None, f"round {rounds}: not both interrupts\n  {describe(sdp)}"
        spans = {i: (c[0], c[-1]) for i, c in cycles.items()}
        assert interleaved(cycles, SDP_AXI_ID, partner_id), \
            f"round {rounds}: the SDP (ID {SDP_AXI_ID}) and partner (ID {partner_id}) reads did not " \
            f"interleave (first/last AR cycle per ID: {spans})"
        expect(top, sdp)
        compare(top, sdp, f"round {rounds}, SDP")
        if rounds % 2 == 0:
            expect_cdp_stats(top, cdp)
            compare_cdp(top, cdp, f"round {rounds}, CDP")
            await top.check_stats(f"round {rounds}")
        else:
            run_pdp(pdp.config, top.mem, sec_mem=top.sec_mem)
            compare_pdp(top, pdp.config, f"round {rounds}, PDP")
        await top.check_sdp_stats(f"round {rounds}")
        await check_idle(top, f"round {rounds}", "SDP")
        dut._log.info("round %d: SDP and %s done in %d cycles, read bursts per ID %s", rounds,
                      "CDP" if rounds % 2 == 0 else "PDP", waited, {i: len(c) for i, c in cycles.items()})


def _enable_missing(write: tuple[str, str, int], rng_bits: int) -> tuple[str, str, int]:
    """A write of the layer with the blocks the configuration lacks switched on anyway: EW (ALU, MUL, the
    LUT) and ERDMA (its operand stream) where there is no EW, the LUT where there is none."""
    unit, reg, value = write
    on = {("SDP", "D_DP_EW_CFG"): ["EW_BYPASS", "EW_ALU_BYPASS", "EW_MUL_BYPASS", "EW_LUT_BYPASS"],
          ("SDP_RDMA", "D_ERDMA_CFG"): ["ERDMA_DISABLE"]}.get((unit, reg), [])
    if not FEATURES.ew:
        value = rng_bits if on else value     # random field values, then the enables forced on
    elif (unit, reg) == ("SDP", "D_DP_EW_CFG") and not (value & 1):
        on = ["EW_LUT_BYPASS"]                # EW runs; the missing LUT switched on
    else:
        on = []
    for name in on:
        msb, lsb, _access = regmap.registers(unit)[reg]["fields"][name]
        value &= ~(((1 << (msb - lsb + 1)) - 1) << lsb)
    return unit, reg, value


@cocotb.test()
async def missing_blocks_are_bypassed(dut: SimHandleBase) -> None:
    """A configuration whose SDP lacks EW or the LUT (configs/<name>.json "sdp"; NVIDIA's SDP_EW_DISABLE /
    SDP_LUT_DISABLE) runs a layer whose registers switch them on anyway as if they were bypassed: no EW
    operand is fetched, nothing hangs, and the output is the bypassed layer's (the model's)."""
    if FEATURES.ew and FEATURES.lut:
        outcome.skip("this configuration's SDP has EW and the LUT: nothing is missing")
    top = await setup(dut, "missing_blocks_are_bypassed")
    rng = top.rng
    count = scaled(6, 60)
    for i in range(count):
        layer = make_layer(rng, i % 2, random_wants(rng))   # legal here: EW (or its LUT) bypassed
        prepare(top, layer)
        top.new_pauses()
        await top.issue([_enable_missing(w, rng.getrandbits(32)) for w in layer.prog.writes])
        waited = await top.wait_intr(1 << (SDP_INTR_BIT + layer.prog.group))
        assert waited is not None, f"layer {i}: no SDP_{layer.prog.group} interrupt\n  {describe(layer)}"
        expect(top, layer)
        compare(top, layer, f"layer {i} (missing blocks switched on)")
    outcome.checked(count, "layers")
