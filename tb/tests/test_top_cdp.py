"""Top-level tests of the CDP slice (rtl/top/nvdla_pp_top.v), driven the way software drives NVDLA.

Layers are programmed over CSB from the CDP driver layer's register writes (models/cdp/driver.py: the LUT
tables through S_LUT_ACCESS_CFG/DATA, the S_LUT_* registers, both register groups), the AXI memory
(cocotbext-axi AxiRam) stalls every channel at random, and each layer's destination region, guard bytes and
line/surface gaps included, is compared byte for byte with models.cdp.model.run_cdp run on a mirror of the
memory.
After every layer the LUT statistics (D_PERF_LUT_LE_HIT, _LO_HIT, _UFLOW, _OFLOW, _HYBRID),
D_OUT_SATURATION and the NaN/Inf counters (D_NAN_INPUT_NUM, D_INF_INPUT_NUM: 0; D_NAN_OUTPUT_NUM: the NaN
outputs of the CDP layer before) of BOTH register groups are read over CSB: the group that ran must hold the
model's CdpResult, the other one what its own last layer left (per-group latching). Tests:
- random_layers: random legal layers in groups 0 and 1 alternately: every NORMALZ_LEN, the bypass modes,
  random convertors, the LUT helper's LRN (exponential and default LE) and sigmoid programs and random /
  aimed LUT configurations, cube sizes with C and W mostly not multiples of 8, strided placements; a few
  layers by default, NIGHTLY >= 100 (bigger cubes); where the top computes INT16 (INT16 = 1: nv_full) a
  third of them INT16, and where it computes FP16 (FP16 = 1: nv_full) a third FP16 (FP16 data with specials,
  NaN flush, the FP16 LUT programs and random FP16 LUTs; the NaN/Inf counters read back too);
- lut_readback: both tables written and read back over CSB with the access pointer's auto-increment, then
  random accesses (any start address, past the end, reads in write mode and writes in read mode) scored
  against the model of the access port (models.lut.model.LutRam);
- queued_groups: group 1 programmed while group 0 runs (LUT kept), enabled behind it: both outputs and
  each group's statistics correct although group 1 starts right after group 0's done;
- pdp_and_cdp_concurrent: a PDP layer and a CDP layer running at the same time through the AXI arbiter
  (their read bursts interleave), both outputs correct.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

import cocotb
from cocotb.handle import SimHandleBase

from models.cdp.driver import cdp_layer
from models.lut.model import EXPONENT
from models.pdp.model import run_pdp
from tb import lut_access
from tb.batch import Batch
from tb.bench_target import batch_count, short_batch
from tb.bfm.axi_ram import set_memory_pauses
from tb.common import scaled
from tb.env.cdp import INTR_BIT, compare, expect_stats, prepare, run_layer, setup
from tb.env.pdp import compare as compare_pdp
from tb.env.pdp import fixed_program, random_rams
from tb.env.pdp import prepare as prepare_pdp
from tb.env.top import check_idle, check_queued, record_reads
from tb.funcov import Covergroup
from tb.stimulus.cdp_top import (
    ATOM,
    CHUNK,
    DST_REGION,
    LUT_KINDS,
    SRC_REGION,
    Layer,
    describe,
    make_fp16_layer,
    make_layer,
    programs,
    random_dims,
)
from tb.trace_rtl import RTL_FP16_UNITS, RTL_INT16_UNITS

# ---- tests --------------------------------------------------------------------------------------------

class Coverage(Covergroup):
    def __init__(self, precisions: Sequence[str] = ("INT8",)) -> None:
        super().__init__("top_cdp", "CDP", {
            "precision": tuple(precisions),
            "LRN size": tuple(f"LRN{n}" for n in (3, 5, 7, 9)),
            "bypass": ("sqsum bypass", "mul bypass", "both bypass"),
            # nv_small's names: C not a whole atom, W not a whole CDP width chunk
            "cube": ("C % 8 != 0", "W % 8 != 0", "several surfaces"),
            "register group": ("group 0", "group 1"),
            "LUT program": (*(f"LUT {k}" for k in LUT_KINDS), "exponential LE"),
            "LUT statistics": ("le_hit", "lo_hit", "uflow", "oflow", "hybrid"),
            "output": ("saturation",)})

    def add(self, layer: Layer) -> None:
        cfg, res = layer.prog.config, layer.res
        assert res is not None
        self.hit(str(layer.desc.get("precision", "INT8")))
        self.sample({f"LRN{cfg.local_size}": True, "sqsum bypass": cfg.sqsum_bypass,
                     "mul bypass": cfg.mul_bypass, "both bypass": cfg.sqsum_bypass and cfg.mul_bypass,
                     "C % 8 != 0": cfg.channels % ATOM != 0, "W % 8 != 0": cfg.width % CHUNK != 0,
                     "several surfaces": cfg.surfaces > 1, "exponential LE": cfg.lut.le_function == EXPONENT,
                     f"group {layer.prog.group}": True, f"LUT {layer.kind}": True,
                     "saturation": res.out_saturation > 0, **{k: v > 0 for k, v in res.lut_counts.items()}})


@cocotb.test()
async def random_layers(dut: SimHandleBase) -> None:
    top = await setup(dut, "random_layers")
    count = batch_count(dut, 8, 16000)  # NIGHTLY: with cdp_core ~1e7 samples, on the simulation memory
    goals = not short_batch()           # a short batch (another configuration's) requires no coverage goal
    batch = Batch(dut, after_reset=top.after_reset)  # a failed layer alone fails: expectations reset too
    fp16_layers = 0
    # the top's precisions that its CDP computes (the top has them: tb/env/top.py Top.precisions)
    units = {"INT16": RTL_INT16_UNITS, "FP16": RTL_FP16_UNITS}
    precisions = tuple(p for p in top.precisions if p == "INT8" or "CDP" in units.get(p, ()))
    with Coverage(precisions).written("random_layers") as cov:
        def draw(i: int) -> Layer:
            nonlocal fp16_layers
            # Both units are enabled every layer, so their CONSUMER pointers alternate 0, 1, 0, ...
            # past the planned layers, a missing LE-only / LO-only hit is aimed at with a one-table LUT
            aim = "one table" if i >= count and {"le_hit", "lo_hit"} & set(cov.missing()) else None
            # a third INT16 and a third FP16 where the top computes them (an INT8-only top draws the layers
            # it always drew)
            precision = "INT8"
            if "INT16" in precisions:
                r = top.rng.random()
                precision = "INT16" if r < 1 / 3 else "FP16" if "FP16" in precisions and r < 2 / 3 else "INT8"
            rams = random_rams(top.rng, ("src", "dst"))
            if precision == "FP16":
                fp16_layers += 1
                return make_fp16_layer(top.rng, fp16_layers - 1, group=batch.group, ram_mc=rams)
            return make_layer(top.rng, i, group=batch.group, kind=aim, ram_mc=rams, precision=precision)

        await batch.run_covering(cov, count, goals, draw, partial(run_layer, top), describe)
        if goals:
            cov.check()


@cocotb.test()
async def lut_readback(dut: SimHandleBase) -> None:
    top = await setup(dut, "lut_readback")
    await lut_access.lut_readback(top, "CDP", top.rng, saturating=True)


@cocotb.test()
async def queued_groups(dut: SimHandleBase) -> None:
    """Group 1 programmed (same LUT, not reloaded) while group 0 runs and enabled behind it."""
    top = await setup(dut, "queued_groups")
    rng = top.rng
    for rounds in range(scaled(2, 10)):
        a = make_layer(rng, 0, group=0, kind="lrn exp", dims=(24, 4, 5 * ATOM))  # long: 5 surfaces
        b = make_layer(rng, rounds + 1, group=1, kind="lrn exp", dims=random_dims(rng, False),
                       src_region=SRC_REGION + 0x400_0000, dst_region=DST_REGION + 0x400_0000)
        b.prog = cdp_layer(*b.desc["dims"], lut=programs()["lrn exp"], group=1, load_lut=False,  # type: ignore[misc]
                           **{k: v for k, v in b.desc.items() if k != "dims"})  # type: ignore[arg-type]
        prepare(top, a)
        prepare(top, b)
        await top.issue(a.prog.writes)
        await top.issue(b.prog.writes)
        await check_queued(top, f"round {rounds}")
        bits = sum(1 << (INTR_BIT["CDP"] + g) for g in (0, 1))
        assert await top.wait_intr(bits) is not None, "no CDP_0 and CDP_1 interrupts"
        for layer, name in ((a, "A (group 0)"), (b, "B (group 1)")):
            expect_stats(top, layer)
            compare(top, layer, f"round {rounds}, layer {name}")
        await top.check_stats(f"round {rounds}")
        await check_idle(top, f"round {rounds}")


def overlapped(cycles: Mapping[int, Sequence[int]]) -> bool:
    return len(cycles) == 2 and all(cycles[i][0] < cycles[1 - i][-1] for i in (0, 1))


@cocotb.test()
async def pdp_and_cdp_concurrent(dut: SimHandleBase) -> None:
    top = await setup(dut, "pdp_and_cdp_concurrent")
    rng = top.rng
    for rounds in range(scaled(2, 8)):
        group = rounds % 2
        # kernel = stride, a divisor of the 32 x 8 input (every input sample used)
        pdp = fixed_program(rng, group, 32, 8, 3 * ATOM, rng.choice([1, 2, 4]), SRC_REGION + 0x800_0000,
                            DST_REGION + 0x800_0000)
        cdp = make_layer(rng, rounds + 4, group=group,
                         dims=(rng.randint(17, 30), 3, rng.randint(2 * ATOM + 1, 5 * ATOM)))
        prepare_pdp(top, pdp)
        prepare(top, cdp)
        set_memory_pauses(top.ram, rng)
        cycles: dict[int, list[int]] = {}
        monitor = cocotb.start_soon(record_reads(dut, cycles))
        # everything but the enables, then the four enables back to back
        await top.issue([w for w in cdp.prog.writes if w[1] != "D_OP_ENABLE"])
        await top.issue([w for w in pdp.writes if w[1] != "D_OP_ENABLE"])
        enables = [w for w in cdp.prog.writes + pdp.writes if w[1] == "D_OP_ENABLE"]
        await top.issue(enables if rng.random() < 0.5 else enables[::-1])
        bits = (1 << (INTR_BIT["CDP"] + group)) | (1 << (INTR_BIT["PDP"] + group))
        waited = await top.wait_intr(bits)
        monitor.cancel()
        assert waited is not None, \
            f"round {rounds}: not both of the PDP and CDP interrupts\n  {describe(cdp)}"
        spans = {i: (c[0], c[-1]) for i, c in cycles.items()}
        assert overlapped(cycles), \
            f"round {rounds}: the PDP (ID 0) and CDP (ID 1) reads did not interleave (first/last AR cycle " \
            f"per ID: {spans})"
        expect_stats(top, cdp)
        compare(top, cdp, f"round {rounds}, CDP")
        run_pdp(pdp.config, top.mem, sec_mem=top.sec_mem)
        compare_pdp(top, pdp.config, f"round {rounds}, PDP")
        await top.check_stats(f"round {rounds}")
        dut._log.info("round %d: both done in %d cycles, %d PDP and %d CDP read bursts", rounds, waited,
                      len(cycles.get(0, [])), len(cycles.get(1, [])))
