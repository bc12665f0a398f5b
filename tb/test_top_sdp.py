"""Top-level tests of the SDP slice (rtl/top/nvdla_pp_top.v), driven the way software drives NVDLA.

Layers are programmed over CSB from the SDP driver layer's register writes (models/driver_sdp.py: SDP_RDMA
group, LUT tables through S_LUT_ACCESS_CFG/DATA and the S_LUT_* registers, SDP group, both register groups),
the AXI memory (cocotbext-axi AxiRam) stalls every channel at random, and each layer's destination region,
guard bytes and line/surface gaps included, is compared byte for byte with models.sdp.run_sdp run on a
mirror of the memory. The input cube and the operand cubes (BS/BN/EW, per channel or per element, 1 or 2
bytes, DATA_USE ALU/MUL/BOTH) are written by this bench in the layout of docs/CONTRACTS.md; the model reads
them back from the mirror itself, and the bench checks that it read what was written (sdp_compute on the
bench's own operands gives the same output). After every layer D_PERF_LUT_{LE_HIT,LO_HIT,UFLOW,OFLOW,HYBRID},
D_PERF_OUT_SATURATION and D_STATUS.STATUS_UNEQUAL of BOTH register groups are read over CSB: the group
that ran must hold the model's SdpResult, the other one what its own last layer left (per-group latching).
Tests:
- random_layers: random legal layers in groups 0 and 1 alternately: cubes with W, C mostly not multiples of
  8 (1x1 included), every block combination (BS/BN/EW bypassed or not, ALU MAX/MIN/SUM, PReLU, ReLU,
  operands from registers or memory, per channel and per element, 1 and 2 bytes, DATA_USE both), EW input
  convertors, the EW LUT (models.lut_program sigmoid/tanh, random legal tables with exponential and linear
  LE, tables aimed at the layer's LUT inputs), random output convertors aimed at the data, EQL mode (nothing
  written, STATUS_UNEQUAL equal and unequal); the first layers and a bounded continuation aim at coverage
  goals still missing; NIGHTLY >= 100 layers;
- lut_readback: both SDP tables written and read back over CSB (auto-increment), then random accesses
  (any start address, past the end, reads in write mode, writes in read mode) scored against
  models.lut.LutRam (the SDP port's wrapping pointer);
- queued_groups: group 1 programmed while group 0 runs (LUT kept: load_lut=False), enabled behind it:
  S_STATUS RUNNING/PENDING, both outputs and each group's statistics right although group 1 starts at once;
- sdp_with_cdp_or_pdp: an SDP layer and a CDP (even rounds) or PDP (odd rounds) layer running at the same
  time through the AXI arbiters (their read bursts interleave), all outputs and statistics correct.
The bench never uses OUTPUT_DST = PDP (no on-the-fly SDP->PDP path in this RTL).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import cocotb
import numpy as np
from cocotb.handle import SimHandleBase
from numpy.typing import NDArray

from models.driver_sdp import (
    EwBlock,
    EwConverter,
    OperandDma,
    OutputCvt,
    SdpProgram,
    Surface,
    XBlock,
    operand_dma,
    sdp_layer,
    signed_blocks,
)
from models.lut import EXPONENT, LutConfig, lut_lookup
from models.memory import Memory
from models.pdp import run_pdp
from models.precision import as_signed
from models.regfile import intr_bit
from models.sdp import USE_BOTH, SdpConfig, SdpResult, run_sdp, sdp_compute
from models.sdp_datapath import ALU_EQL, Operands, ew_convert, x_block, y_block
from tb import lut_access
from tb.batch import Batch
from tb.bench_target import batch_count
from tb.bfm.axi_ram import set_memory_pauses
from tb.bfm.sim_memory import SimMemory
from tb.common import nightly, scaled
from tb.funcov import Covergroup
from tb.lut_stimulus import Shape, random_config
from tb.pdp_top import compare as compare_pdp
from tb.pdp_top import fixed_program
from tb.pdp_top import prepare as prepare_pdp
from tb.test_sdp_core import aimed_lut, output_convertor, programs, random_data
from tb.test_top_cdp import INTR_BIT, CdpTop, check_idle, check_queued, make_top, record_reads
from tb.test_top_cdp import compare as compare_cdp
from tb.test_top_cdp import expect_stats as expect_cdp_stats
from tb.test_top_cdp import make_layer as make_cdp_layer
from tb.test_top_cdp import prepare as prepare_cdp

ATOM = 8
SDP_INTR_BIT = intr_bit("SDP", 0)     # GLB S_INTR_STATUS: group 1 = the next bit
SDP_AXI_ID = 2                       # the top's AXI IDs: PDP 0, CDP 1, SDP 2
GUARD = 64                           # bytes checked untouched before and after each destination cube
REGIONS = {"SRC": 0x3000_0000, "DST": 0xA000_0000, "BS": 0x4000_0000, "BN": 0x5000_0000, "EW": 0x6000_0000}
STATS = {"D_PERF_LUT_LE_HIT": "le_hit", "D_PERF_LUT_LO_HIT": "lo_hit", "D_PERF_LUT_UFLOW": "uflow",
         "D_PERF_LUT_OFLOW": "oflow", "D_PERF_LUT_HYBRID": "hybrid",
         "D_PERF_OUT_SATURATION": "out_saturation", "D_STATUS": "status_unequal"}
BLOCKS = ("BS", "BN", "EW")
LUT_KINDS = ("sigmoid", "tanh", "aimed", "random")
DMA_GOALS = ("per element", "per kernel", "2-byte", "1-byte", "use both")
DMA_ARG = {"BS": "brdma", "BN": "nrdma", "EW": "erdma"}     # sdp_layer's argument of each block's DMA
IntArray = NDArray[np.int64]


# ---- the DUT ------------------------------------------------------------------------------------------

class SdpTop(CdpTop):
    """tb/test_top_cdp.py's top (CSB master, AxiRam with random stalls, model memory, interrupt waits, the
    CDP statistics) plus what each SDP register group's statistics registers must hold (reset: 0)."""

    def __init__(self, dut: SimHandleBase, rng: random.Random, sim_mem: SimMemory | None = None) -> None:
        super().__init__(dut, rng, sim_mem)
        self.sdp_stats: list[dict[str, int]] = [dict.fromkeys(STATS, 0), dict.fromkeys(STATS, 0)]

    async def read_sdp_stats(self, group: int) -> dict[str, int]:
        """The statistics registers of one SDP register group (selected with S_POINTER.PRODUCER)."""
        await self.write("SDP", "S_POINTER", group)
        return {reg: await self.read("SDP", reg) for reg in STATS}

    async def check_sdp_stats(self, label: str) -> None:
        for group in (0, 1):
            got = await self.read_sdp_stats(group)
            want = self.sdp_stats[group]
            bad = {reg: (got[reg], want[reg]) for reg in STATS if got[reg] != want[reg]}
            assert not bad, f"{label}: SDP group {group} registers (read, model): {bad}"


async def setup(dut: SimHandleBase, salt: str) -> SdpTop:
    return await make_top(dut, salt, SdpTop)


# ---- layers: what each layer is asked to have --------------------------------------------------------

@dataclass
class Wants:
    """Coverage goals one layer is built to meet (the rest of it stays random)."""

    block: dict[str, str] = field(default_factory=dict)    # BS/BN/EW -> a goal of that block
    lut: str | None = None                                 # a LUT kind, or "EQL equal" / "EQL unequal"
    cube: str | None = None                                # "1x1", "C % 8 != 0", "several surfaces"


def block_goals(name: str) -> tuple[str, ...]:
    algos = (0, 1, 2)
    common = (*(f"ALU {a}" for a in algos), "PReLU", "ALU mem", "MUL mem", "ALU reg", "MUL reg", *DMA_GOALS,
              "bypassed")
    return common + (("ALU cvt", "MUL cvt") if name == "EW" else ("ReLU",))


LUT_GOALS = (*(f"LUT {k}" for k in LUT_KINDS), "LUT exponential", "LUT linear", "EQL equal", "EQL unequal",
             "le_hit", "lo_hit", "uflow", "oflow", "hybrid")
CUBE_GOALS = ("1x1", "C % 8 != 0", "several surfaces")
# EW goals a layer in EQL mode cannot have (EQL: EW ALU on with algo EQL, convertor of a memory ALU
# operand bypassed, LUT bypassed)
_NOT_WITH_EQL = (*(f"ALU {a}" for a in (0, 1, 2)), "PReLU", "ALU cvt", "bypassed")


def plan(missing: Sequence[str], rng: random.Random) -> Wants:
    """One missing goal per slot (LUT/EQL, each block, cube), compatible with each other."""
    w = Wants()
    lut = [g for g in missing if g in LUT_GOALS]
    if lut:
        goal = rng.choice(lut)
        kind = goal.removeprefix("LUT ")
        w.lut = goal if goal.startswith("EQL") else kind if kind in LUT_KINDS else \
            rng.choice(["aimed", "random"]) if kind in ("exponential", "linear") else "aimed"
    for name in BLOCKS:
        goals = [g.removeprefix(f"{name} ") for g in missing if g.startswith(f"{name} ")]
        if name == "EW" and w.lut and w.lut.startswith("EQL"):
            goals = [] if w.lut == "EQL equal" else [g for g in goals if g not in _NOT_WITH_EQL]
        elif name == "EW" and w.lut:
            goals = [g for g in goals if g != "bypassed"]
        if w.lut == "EQL equal" and name != "EW":
            goals = ["bypassed"]
        if goals:
            w.block[name] = rng.choice(goals)
    cube = [g for g in missing if g in CUBE_GOALS]
    if cube:
        w.cube = rng.choice(cube)
    return w


def random_wants(rng: random.Random) -> Wants:
    """A layer without aims: the LUT/EQL slot random (LUT bypassed 40% of the time)."""
    slot = rng.choice([None, None, None, None, *LUT_KINDS, *LUT_KINDS, "EQL equal", "EQL unequal"])
    w = Wants(lut=slot)
    if slot == "EQL equal":
        w.block = {"BS": "bypassed", "BN": "bypassed"}
    return w


# ---- layers: building one ------------------------------------------------------------------------------

def _operand16(rng: random.Random) -> int:
    return rng.choice([rng.randint(-128, 127), rng.randint(-8, 8), rng.randint(-32768, 32767),
                       rng.choice([-32768, -1, 0, 1, 32767])])


def _operand32(rng: random.Random) -> int:
    return rng.choice([rng.randint(-128, 127), rng.randint(-(1 << 15), 1 << 15),
                       rng.randint(-(1 << 31), (1 << 31) - 1), rng.randint(-4, 4)])


def _needs_memory(goal: str) -> bool:
    return goal in DMA_GOALS or goal in ("ALU cvt", "MUL cvt")


def random_xblock(rng: random.Random, goal: str | None) -> XBlock:
    """A legal BS/BN block (ALU MAX/MIN/SUM; PReLU only with its ALU bypassed) meeting `goal`."""
    if goal == "bypassed":
        return XBlock(alu_operand=_operand16(rng), mul_operand=_operand16(rng))
    alu_on, mul_on, prelu = rng.random() < 0.7, rng.random() < 0.7, rng.random() < 0.3
    alu_mem, mul_mem, relu_bypass = rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.6
    algo = rng.randint(0, 2)
    if goal and goal.startswith("ALU ") and goal[4:].isdigit():
        alu_on, algo = True, int(goal[4:])
    elif goal == "PReLU":
        alu_on, mul_on, prelu = False, True, True
    elif goal == "ReLU":
        relu_bypass = False
    elif goal in ("ALU mem", "ALU reg"):
        alu_on, alu_mem = True, goal == "ALU mem"
    elif goal in ("MUL mem", "MUL reg"):
        mul_on, mul_mem = True, goal == "MUL mem"
    elif goal and _needs_memory(goal) and not ((alu_on and alu_mem) or (mul_on and mul_mem)):
        alu_on = alu_mem = True
    if alu_on and mul_on:
        prelu = prelu and goal == "PReLU"   # seed 001: PReLU only with the block's ALU bypassed
    return XBlock(bypass=goal is None and rng.random() < 0.2, alu_bypass=not alu_on, alu_algo=algo,
                  alu_from_mem=alu_mem,
                  alu_shift=rng.choice([0, rng.randint(0, 4), rng.randint(0, 16), rng.randint(0, 63)]),
                  alu_operand=_operand16(rng), mul_bypass=not mul_on, mul_prelu=prelu, mul_from_mem=mul_mem,
                  mul_shift=rng.choice([0, rng.randint(0, 8), rng.randint(4, 20), rng.randint(0, 63)]),
                  mul_operand=_operand16(rng), relu_bypass=relu_bypass)


def _ew_cvt(rng: random.Random, bypass: bool) -> EwConverter:
    offset = rng.choice([0, rng.randint(-128, 127), rng.randint(-(1 << 31), (1 << 31) - 1)])
    return EwConverter(bypass, offset,
                       rng.choice([1, rng.randint(-300, 300), rng.randint(-32768, 32767)]),
                       rng.choice([0, rng.randint(0, 16), rng.randint(0, 63)]))


def random_ew(rng: random.Random, goal: str | None, lut: str | None) -> EwBlock:
    """A legal EW block meeting `goal` and the LUT/EQL slot `lut` (EW truncate is aimed later)."""
    eql = lut is not None and lut.startswith("EQL")
    if lut is None and (goal == "bypassed" or (goal is None and rng.random() < 0.15)):
        return EwBlock(alu_operand=_operand32(rng), mul_operand=_operand32(rng))
    alu_on, mul_on, prelu = rng.random() < 0.7, rng.random() < 0.7, rng.random() < 0.3
    alu_mem, mul_mem = rng.random() < 0.5, rng.random() < 0.5
    algo = rng.randint(0, 2)
    alu_cvt_bypass, mul_cvt_bypass = rng.random() < 0.5, rng.random() < 0.5
    if goal and goal.startswith("ALU ") and goal[4:].isdigit():
        alu_on, algo = True, int(goal[4:])
    elif goal == "PReLU":
        alu_on, mul_on, prelu = False, True, True
    elif goal in ("ALU mem", "ALU cvt"):
        alu_on = alu_mem = True
        alu_cvt_bypass = goal == "ALU mem" and alu_cvt_bypass
    elif goal in ("MUL mem", "MUL cvt"):
        mul_on = mul_mem = True
        mul_cvt_bypass = goal == "MUL mem" and mul_cvt_bypass
    elif goal in ("ALU reg", "MUL reg"):
        alu_on, alu_mem = (True, False) if goal == "ALU reg" else (alu_on, alu_mem)
        mul_on, mul_mem = (True, False) if goal == "MUL reg" else (mul_on, mul_mem)
    elif goal and _needs_memory(goal) and not ((alu_on and alu_mem) or (mul_on and mul_mem)):
        mul_on = mul_mem = True
    if lut in LUT_KINDS:
        mul_on = True       # the EW product and its truncate bring the data onto the LUT's inputs
    if eql:
        alu_on, algo, prelu = True, ALU_EQL, False
        alu_cvt_bypass = alu_cvt_bypass or alu_mem     # seed 001: EQL's memory ALU operand unconverted
        if lut == "EQL equal":
            alu_mem, mul_on, alu_cvt_bypass = True, False, True
    if alu_on and mul_on:
        prelu = False
    return EwBlock(bypass=False, alu_bypass=not alu_on, alu_algo=algo, alu_from_mem=alu_mem,
                   alu_operand=_operand32(rng), alu_cvt=_ew_cvt(rng, alu_cvt_bypass), mul_bypass=not mul_on,
                   mul_prelu=prelu, mul_from_mem=mul_mem, mul_operand=_operand32(rng),
                   mul_cvt=_ew_cvt(rng, mul_cvt_bypass), truncate=0, lut_bypass=lut not in LUT_KINDS)


@dataclass
class OperandData:
    """One operand cube in memory: its DMA and its components (ALU, MUL; [c_pad, h, w] or [c_pad, 1, 1])."""

    dma: OperandDma
    comps: list[IntArray]


def _reads(blk: XBlock | EwBlock) -> tuple[bool, bool]:
    return blk.alu_active and blk.alu_from_mem, blk.mul_active and blk.mul_from_mem


def random_operand(rng: random.Random, name: str, blk: XBlock | EwBlock, goal: str | None,
                   dims: tuple[int, int, int], offset: int = 0) -> OperandData | None:
    """The read DMA and data of a block that reads memory (None when it reads none): DATA_USE covers what is
    read (BOTH sometimes with one half unused: junk there must change nothing)."""
    alu, mul = _reads(blk)
    if not (alu or mul):
        return None
    w, h, c = dims
    both = (alu and mul) or goal == "use both" or rng.random() < 0.25
    use = "both" if both else "alu" if alu else "mul"
    two_byte = goal == "2-byte" or (goal != "1-byte" and rng.random() < 0.5)
    per_element = goal == "per element" or (goal != "per kernel" and rng.random() < 0.5)
    bpe = (2 if both else 1) * (2 if two_byte else 1)
    region = REGIONS[name] + offset + ATOM * rng.randrange(1 << 17)
    c_pad = -(-c // ATOM) * ATOM
    if per_element:
        line = w * ATOM * bpe + ATOM * rng.choice([0, 0, 1, rng.randint(2, 8)])
        surf = line * h + ATOM * rng.choice([0, 0, 1, rng.randint(2, 32)])
        shape = (c_pad, h, w)
    else:
        # per kernel: one block from the base; the strides are unused, junk must change nothing
        line, surf = ATOM * rng.randrange(1 << 10), ATOM * rng.randrange(1 << 12)
        shape = (c_pad, 1, 1)
    lo, hi = (-32768, 32767) if two_byte else (-128, 127)
    comps = [random_data(rng, shape, lo, hi) for _ in range(2 if both else 1)]
    dma = operand_dma(Surface(region, line, surf), use, two_byte=two_byte, per_element=per_element)
    return OperandData(dma, comps)


def operands_of(data: Mapping[str, OperandData | None], blocks: Mapping[str, XBlock | EwBlock]) -> Operands:
    """The model's Operands of what the bench writes (only what the blocks read)."""
    found: dict[str, IntArray] = {}
    for name, od in data.items():
        if od is None:
            continue
        alu, mul = _reads(blocks[name])
        both = od.dma.data_use == USE_BOTH
        if alu:
            found[f"{name.lower()}_alu"] = od.comps[0]
        if mul:
            found[f"{name.lower()}_mul"] = od.comps[1 if both else 0]
    return Operands(**found)


def _bits(values: IntArray) -> int:
    return int(np.max(np.abs(values))).bit_length() if values.size else 0


def _pre_ew(cube: IntArray, bs: XBlock, bn: XBlock, ops: Operands) -> IntArray:
    return x_block(x_block(cube, bs, ops.bs_alu, ops.bs_mul, "BS"), bn, ops.bn_alu, ops.bn_mul, "BN")


def _ew_mul_operand(ew: EwBlock, ops: Operands) -> IntArray:
    if ew.mul_from_mem:
        assert ops.ew_mul is not None
        return ew_convert(ops.ew_mul, ew.mul_cvt)
    return np.array([ew.mul_operand], dtype=np.int64)


def aim_truncate(rng: random.Random, ew: EwBlock, bn_out: IntArray, ops: Operands, lut: str | None) -> int:
    """EW_TRUNCATE aimed at the product (mostly; the LUT helper's programs want about 17 bits) or not."""
    if not ew.mul_active:
        return rng.randint(0, 1023)
    bits = _bits(bn_out) + _bits(_ew_mul_operand(ew, ops))
    target = 17 if lut in ("sigmoid", "tanh") else rng.randint(8, 30)
    aimed = max(0, min(1023, bits - target + rng.randint(-2, 2)))
    return rng.choice([aimed, aimed, aimed, rng.randint(0, 1023), rng.randint(60, 70)])


def eql_operand(rng: random.Random, x: IntArray, od: OperandData, equal: bool) -> None:
    """EQL with a memory ALU operand: the compared data copied into it where the operand can hold it (all
    of it for "equal"), otherwise random, and at least one element different for "unequal"."""
    lo, hi = (-32768, 32767) if od.dma.two_byte else (-128, 127)
    alu = od.comps[0]
    if alu.shape != x.shape:
        return       # per kernel: one value per channel cannot follow the data; stays random (unequal)
    fits = (x >= lo) & (x <= hi)
    keep = fits if equal else fits & (np.random.default_rng(rng.getrandbits(32)).random(x.shape) < 0.9)
    new = np.where(keep, x, alu)
    if not equal and not (new != x).any():
        i = rng.randrange(new.size)
        new.flat[i] = new.flat[i] + 1 if new.flat[i] < hi else new.flat[i] - 1
    alu[...] = new


def random_dims(rng: random.Random, goal: str | None) -> tuple[int, int, int]:
    """(W, H, C): mostly not multiples of 8, sometimes 1x1; bigger under NIGHTLY; "big": 640 atoms or more."""
    if goal == "big":
        return rng.randint(32, 48), rng.randint(4, 8), rng.randint(33, 64)
    scale = 3 if nightly() else 1
    w = rng.choice([1, 7, 8, 9, 15, 17, rng.randint(1, 24 * scale)])
    h = rng.choice([1, 2, rng.randint(1, 3 * scale)])
    c = rng.choice([1, 3, 7, 8, 9, 17, rng.randint(1, 40 * scale)])
    if goal == "1x1" or (goal is None and rng.random() < 0.1):
        w = h = 1
    if goal == "C % 8 != 0" and c % ATOM == 0:
        c += rng.randint(1, 7)
    if goal == "several surfaces" and c <= ATOM:
        c += ATOM
    return w, h, c


def placement(rng: random.Random, region: int, width: int, height: int) -> Surface:
    """Random 8-byte aligned base in a 1 MiB window, line/surface strides packed or with gaps; a 1x1 cube
    sometimes gets junk strides (it is read and written packed whatever they say)."""
    if width == height == 1 and rng.random() < 0.5:
        return Surface(region + ATOM * rng.randrange(1 << 17), ATOM * rng.randrange(1 << 10),
                       ATOM * rng.randrange(1 << 12))
    line = width * ATOM + ATOM * rng.choice([0, 0, 1, rng.randint(2, 16)])
    surf = line * height + ATOM * rng.choice([0, 0, 1, rng.randint(2, 64)])
    return Surface(region + ATOM * rng.randrange(1 << 17), line, surf)


@dataclass
class Layer:
    prog: SdpProgram
    cube: IntArray
    """[padded channels, h, w] int8 values written at the source (padding lanes random, as memory holds)."""
    operands: dict[str, OperandData | None]
    ops: Operands
    kind: str
    desc: dict[str, object] = field(default_factory=dict)
    """sdp_layer's arguments ("dims": (W, H, C), then the keywords)."""
    res: SdpResult | None = field(default=None, repr=False)


def choose_lut(rng: random.Random, kind: str, lut_in: IntArray) -> LutConfig:
    if kind in ("sigmoid", "tanh"):
        return programs()[kind].lut_config()
    if kind == "random":
        return random_config(Shape(ATOM, 32, 32, True), rng)
    return aimed_lut(rng, lut_in.reshape(-1))


def _signed_cvt(raw: Mapping[str, int]) -> OutputCvt:
    """tb/test_sdp_core's aimed output convertor (raw fields) as the driver's signed values."""
    return OutputCvt(int(as_signed(raw["D_CVT_OFFSET.CVT_OFFSET"], 32)),
                     int(as_signed(raw["D_CVT_SCALE.CVT_SCALE"], 16)), raw["D_CVT_SHIFT.CVT_SHIFT"])


def make_layer(rng: random.Random, group: int, wants: Wants, offset: int = 0) -> Layer:
    """A random legal layer through the driver, meeting `wants`: the data first, then the EW truncate, the
    EQL operand, the LUT and the output convertor aimed at what the data gives at each stage. `offset` moves
    every cube of the layer (layers in flight together keep apart)."""
    w, h, c = random_dims(rng, wants.cube)
    c_pad = -(-c // ATOM) * ATOM
    cube = random_data(rng, (c_pad, h, w), -128, 127)
    bs = random_xblock(rng, wants.block.get("BS"))
    bn = random_xblock(rng, wants.block.get("BN"))
    ew = random_ew(rng, wants.block.get("EW"), wants.lut)
    blocks = {"BS": bs, "BN": bn, "EW": ew}
    # "EQL equal": the operand follows the data element by element
    goals = {**wants.block, **({"EW": "per element"} if wants.lut == "EQL equal" else {})}
    data = {name: random_operand(rng, name, blk, goals.get(name), (w, h, c), offset)
            for name, blk in blocks.items()}
    ops = operands_of(data, blocks)
    bn_out = _pre_ew(cube, bs, bn, ops)
    ew = dataclasses.replace(ew, truncate=aim_truncate(rng, ew, bn_out, ops, wants.lut))
    if ew.eql and ew.alu_from_mem:
        no_alu = dataclasses.replace(ew, alu_bypass=True, lut_bypass=True)
        before_alu = y_block(bn_out, no_alu, None, ops.ew_mul, None)[0]
        od = data["EW"]
        assert od is not None
        eql_operand(rng, before_alu, od, wants.lut == "EQL equal")
    ops = operands_of(data, {**blocks, "EW": ew})
    lut_in = y_block(bn_out, dataclasses.replace(ew, lut_bypass=True), ops.ew_alu, ops.ew_mul, None)[0]
    kind, lut = "bypass", None
    if not ew.bypass and not ew.lut_bypass:
        kind = wants.lut if wants.lut in LUT_KINDS else rng.choice(LUT_KINDS)
        lut = choose_lut(rng, kind, lut_in)
    cvt = OutputCvt()
    if not ew.eql:
        v = lut_in if lut is None else lut_lookup(lut_in, lut).output
        cvt = _signed_cvt(output_convertor(rng, v))
    desc = {"bs": bs, "bn": bn, "ew": ew, "cvt": cvt, "lut": lut, "group": group, "perf": rng.random() < 0.5,
            "src": placement(rng, REGIONS["SRC"] + offset, w, h),
            "dst": placement(rng, REGIONS["DST"] + offset, w, h),
            **{DMA_ARG[n]: od.dma for n, od in data.items() if od is not None}}
    prog = sdp_layer(w, h, c, **desc)  # type: ignore[arg-type]
    return Layer(prog, cube, data, ops, "EQL" if ew.eql else kind, desc={"dims": (w, h, c), **desc})


def _block_text(name: str, blk: XBlock | EwBlock, od: OperandData | None) -> str:
    if blk.bypass:
        return f"{name} bypassed"
    algo = ("MAX", "MIN", "SUM", "EQL")[blk.alu_algo]
    parts = [f"ALU {algo} {'mem' if blk.alu_from_mem else blk.alu_operand}" if blk.alu_active else "ALU off",
             (f"MUL {'mem' if blk.mul_from_mem else blk.mul_operand}{' PReLU' if blk.mul_prelu else ''}"
              if blk.mul_active else "MUL off")]
    if isinstance(blk, XBlock):
        parts.append(f"shifts {blk.alu_shift}/{blk.mul_shift}{'' if blk.relu_bypass else ' ReLU'}")
    else:
        parts.append(f"truncate {blk.truncate}, cvts alu {blk.alu_cvt} mul {blk.mul_cvt}, "
                     f"LUT {'off' if blk.lut_bypass else 'on'}")
    if od is not None:
        d = od.dma
        parts.append(f"DMA use {('MUL', 'ALU', 'BOTH')[d.data_use]} {2 if d.two_byte else 1}-byte "
                     f"{'per element' if d.per_element else 'per kernel'} at "
                     f"{(hex(d.base), hex(d.line_stride), hex(d.surface_stride))}")
    return f"{name} " + ", ".join(parts)


def describe(layer: Layer) -> str:
    cfg = layer.prog.config
    lut = layer.prog.lut
    lut_text = "" if lut is None else (
        f"; LUT {layer.kind}: LE {'EXP' if lut.le_function == EXPONENT else 'LIN'} [{lut.le_start}, "
        f"{lut.le_end}] sel={lut.le_index_select} off={lut.le_index_offset}, "
        f"LO [{lut.lo_start}, {lut.lo_end}] sel={lut.lo_index_select}, "
        f"priorities u/o/h={lut.uflow_priority}/{lut.oflow_priority}/{lut.hybrid_priority}")
    bs, bn, ew, cvt = signed_blocks(cfg)      # the driver's description: operands, offsets, scales signed
    blocks = "; ".join(_block_text(n, b, layer.operands.get(n))
                       for n, b in (("BS", bs), ("BN", bn), ("EW", ew)))
    src = (cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride)
    dst = (cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride)
    return (f"group {layer.prog.group}: {cfg.width}x{cfg.height}x{cfg.channels}; {blocks}; out cvt {cvt}"
            f"{lut_text}; src {tuple(hex(v) for v in src)}, dst {tuple(hex(v) for v in dst)}")


# ---- memory, running, scoring --------------------------------------------------------------------------

def cube_span(base: int, line: int, surf: int, cfg: SdpConfig, packed: bool,
              elem: int = 1) -> tuple[int, int]:
    """[first, last + 1) bytes a cube of cfg's geometry can touch; `packed`: one atom per surface back to back
    (a per-kernel operand block, a 1x1 input or output; a 1x1 per-element operand cube keeps its strides)."""
    atom = ATOM * elem
    if packed:
        return base, base + cfg.surfaces * atom
    return base, base + (cfg.surfaces - 1) * surf + (cfg.height - 1) * line + cfg.width * atom


def dst_span(cfg: SdpConfig) -> tuple[int, int]:
    lo, hi = cube_span(cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride, cfg, cfg.is_1x1)
    return lo - GUARD, hi + GUARD


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


def operand_bytes(od: OperandData) -> NDArray[np.uint8]:
    """[surfaces, h, w, 8 * bytes per element]: element i of an atom at i * bpe, its components (ALU then
    MUL) adjacent, each 1 or 2 bytes little endian."""
    vals = np.stack(od.comps, axis=-1)                       # [c_pad, h, w, ways]
    c_pad, h, w, ways = vals.shape
    vals = vals.reshape(c_pad // ATOM, ATOM, h, w, ways).transpose(0, 2, 3, 1, 4)
    dtype = "<i2" if od.dma.two_byte else "i1"
    return np.ascontiguousarray(vals.astype(dtype)).view(np.uint8).reshape(c_pad // ATOM, h, w, -1)


def prepare(top: SdpTop, layer: Layer) -> None:
    """Random background over every cube the layer touches (and around the destination), then the input
    cube and the operand cubes, in the model's memory, copied to the RAM."""
    cfg = layer.prog.config
    spans = [cube_span(cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride, cfg, cfg.is_1x1),
             dst_span(cfg)]
    for od in layer.operands.values():
        if od is not None:
            d = od.dma
            spans.append(cube_span(d.base, d.line_stride, d.surface_stride, cfg, not d.per_element,
                                   d.bytes_per_element))
    for lo, hi in spans:
        top.fill(lo, hi)
    lanes = (layer.cube & 0xFF).astype(np.uint8).reshape(cfg.surfaces, ATOM, cfg.height, cfg.width)
    write_feature(top.mem, cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride, cfg.is_1x1,
                  lanes.transpose(0, 2, 3, 1))
    for od in layer.operands.values():
        if od is not None:
            d = od.dma
            write_feature(top.mem, d.base, d.line_stride, d.surface_stride, not d.per_element,
                          operand_bytes(od))
    for lo, hi in spans:
        top.ram.write(lo, top.mem.read(lo, hi - lo).tobytes())


def locate(cfg: SdpConfig, addr: int) -> str:
    """Name an output byte: (surface, line, column, channel) of the output cube, or a gap/guard byte."""
    for s in range(cfg.surfaces):
        for y in range(cfg.height):
            start = (cfg.dst_base + s * cfg.width * cfg.height * ATOM if cfg.is_1x1
                     else cfg.dst_base + s * cfg.dst_surface_stride + y * cfg.dst_line_stride)
            if start <= addr < start + cfg.width * ATOM:
                col, lane = divmod(addr - start, ATOM)
                return f"surface {s}, line {y}, column {col}, channel {s * ATOM + lane}"
    return "a gap or guard byte outside the output cube (must stay untouched)"


def compare(top: SdpTop, layer: Layer, label: str) -> None:
    """The destination region (gaps and guards included) against the model; names the first wrong element."""
    cfg = layer.prog.config
    lo, hi = dst_span(cfg)
    actual = np.frombuffer(top.ram.read(lo, hi - lo), dtype=np.uint8)
    expected = top.mem.read(lo, hi - lo)
    bad = np.flatnonzero(actual != expected)
    if not bad.size:
        return
    addr = lo + int(bad[0])
    e, a = (int(as_signed(int(x[bad[0]]), 8)) for x in (expected, actual))
    what = "nothing may be written in EQL mode; " if cfg.ew.eql else ""
    raise AssertionError(f"{label}: {bad.size} wrong bytes in [{lo:#x}, {hi:#x}); {what}first at {addr:#x}, "
                         f"{locate(cfg, addr)}: expected {e}, actual {a}\n  {describe(layer)}")


def expect(top: SdpTop, layer: Layer) -> SdpResult:
    """Run the model on the mirror (after the RTL ran) and record what the group's registers must hold. The
    model reads the operands from memory itself: they must be the ones the bench wrote."""
    prog = layer.prog
    res = run_sdp(prog.config, top.mem, lut_tables=prog.lut_tables)
    mine = sdp_compute(layer.cube, prog.config, layer.ops, lut_tables=prog.lut_tables)
    assert np.array_equal(mine.data, res.output), \
        f"bench bug: the operands the bench wrote are not what the model reads back\n  {describe(layer)}"
    layer.res = res
    counts = {**dict.fromkeys(("le_hit", "lo_hit", "uflow", "oflow", "hybrid"), 0), **res.lut_stats,
              "out_saturation": res.saturation_count, "status_unequal": int(res.status_unequal)}
    top.sdp_stats[prog.group] = {reg: counts[name] for reg, name in STATS.items()}
    return res


async def run_layer(top: SdpTop, layer: Layer, label: str) -> int:
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
            alu, mul = _reads(blk)
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
                  "EW ALU cvt": _reads(cfg.ew)[0] and not cfg.ew.alu_cvt.bypass,
                  "EW MUL cvt": _reads(cfg.ew)[1] and not cfg.ew.mul_cvt.bypass}
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
    batch = Batch(dut, after_reset=lambda: top.write("GLB", "S_INTR_MASK", 0, nposted=True))
    i = 0
    with Coverage().written("random_layers") as cov:
        # planned layers aim at goals still missing (most of the time); past the planned count the run
        # continues, bounded, while a goal is missing
        while i < count or (cov.missing() and i < 4 * count):
            missing = cov.missing()
            wants = plan(missing, top.rng) if missing and top.rng.random() < 0.8 else random_wants(top.rng)
            # Both units are enabled every layer, so their CONSUMER pointers alternate 0, 1, 0, ...
            layer = make_layer(top.rng, group=batch.group, wants=wants)
            label = f"layer {i}"
            cycles = await batch.run(f"{label} ({describe(layer)})", run_layer(top, layer, label))
            if cycles is not None:
                cov.add(layer)
                dut._log.info("layer %d ok in %d cycles: %s", i, cycles, describe(layer))
            i += 1
        dut._log.info("%d layers, coverage: %s", i, cov.summary())
        batch.finish()
        assert not cov.missing(), f"coverage holes after {i} layers: {cov.missing()}"


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
                                                dims=(rng.randint(17, 30), 3, rng.randint(17, 40)))
            prepare_cdp(top, cdp)
            partner_writes, bit = cdp.prog.writes, 1 << (INTR_BIT["CDP"] + partner_group)
        else:
            partner_id, pdp = 0, fixed_program(rng, partner_group, 32, 8, 24, rng.choice([1, 2, 4]),
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
            run_pdp(pdp.config, top.mem)
            compare_pdp(top, pdp.config, f"round {rounds}, PDP")
        await top.check_sdp_stats(f"round {rounds}")
        await check_idle(top, f"round {rounds}", "SDP")
        dut._log.info("round %d: SDP and %s done in %d cycles, read bursts per ID %s", rounds,
                      "CDP" if rounds % 2 == 0 else "PDP", waited, {i: len(c) for i, c in cycles.items()})
