"""Random legal SDP layers for the top-level benches, programmed through the SDP driver layer
(models/sdp/driver.py): per block (BS, BN, EW) ALU algorithms, PReLU/ReLU, operands from registers or
memory (per channel or per element, 1 or 2 bytes), EW convertors, LUT kinds, EQL, cube shapes; `Wants`
steers a layer at coverage goals still missing. Where the top computes INT16 (its INT16 parameter), a third
of the layers are INT16 -> INT16, INT16 -> INT8 (the 16to8 mode) or INT8 -> INT16 (draw_precisions).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from models import configs
from models.common.cube import run_atom_bytes
from models.common.precision import as_signed
from models.lut.model import EXPONENT, LutConfig, lut_lookup
from models.sdp.datapath import ALU_EQL, Operands, ew_convert, x_block, y_block
from models.sdp.driver import (
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
from models.sdp.model import USE_BOTH, SdpResult
from tb.common import nightly
from tb.stimulus.lut import Shape, random_config
from tb.stimulus.sdp_core import (
    aimed_lut,
    draw_precisions,
    magnitude_bits,
    operand16,
    output_convertor,
    programs,
    random_data,
)

# The configuration's memory atom ($CONFIG, the run's or the bench's): bases, strides and channel counts
# follow it, as the driver's alignment rule does.
ATOM = run_atom_bytes()
REGIONS = {"SRC": 0x3000_0000, "DST": 0xA000_0000, "BS": 0x4000_0000, "BN": 0x5000_0000, "EW": 0x6000_0000}
# What the configuration's SDP has (configs/<name>.json "sdp"): without EW the layers bypass it (no EW,
# LUT or EQL goals), without the LUT they bypass the LUT.
FEATURES = configs.load().sdp
BLOCKS = ("BS", "BN", "EW") if FEATURES.ew else ("BS", "BN")
LUT_KINDS = ("sigmoid", "tanh", "aimed", "random") if FEATURES.ew and FEATURES.lut else ()
EQL_SLOTS = ("EQL equal", "EQL unequal") if FEATURES.ew else ()
DMA_GOALS = ("per element", "per kernel", "2-byte", "1-byte", "use both")
DMA_ARG = {"BS": "brdma", "BN": "nrdma", "EW": "erdma"}     # sdp_layer's argument of each block's DMA
IntArray = NDArray[np.int64]


def processing_lanes(in_p: str, out_p: str) -> int:
    """Elements per atom of the processing precision (INT16 only for INT16 -> INT16: 16to8 processes INT8)."""
    return ATOM // 2 if (in_p, out_p) == ("INT16", "INT16") else ATOM



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


LUT_GOALS = (*(f"LUT {k}" for k in LUT_KINDS),
             *(("LUT exponential", "LUT linear", "le_hit", "lo_hit", "uflow", "oflow", "hybrid")
               if LUT_KINDS else ()), *EQL_SLOTS)
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
    slot = rng.choice([None, None, None, None, *LUT_KINDS, *LUT_KINDS, *EQL_SLOTS])
    w = Wants(lut=slot)
    if slot == "EQL equal":
        w.block = {"BS": "bypassed", "BN": "bypassed"}
    return w


# ---- layers: building one ------------------------------------------------------------------------------

def _operand32(rng: random.Random) -> int:
    return rng.choice([rng.randint(-128, 127), rng.randint(-(1 << 15), 1 << 15),
                       rng.randint(-(1 << 31), (1 << 31) - 1), rng.randint(-4, 4)])


def _needs_memory(goal: str) -> bool:
    return goal in DMA_GOALS or goal in ("ALU cvt", "MUL cvt")


def random_xblock(rng: random.Random, goal: str | None) -> XBlock:
    """A legal BS/BN block (ALU MAX/MIN/SUM; PReLU only with its ALU bypassed) meeting `goal`."""
    if goal == "bypassed":
        return XBlock(alu_operand=operand16(rng), mul_operand=operand16(rng))
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
                  alu_operand=operand16(rng), mul_bypass=not mul_on, mul_prelu=prelu, mul_from_mem=mul_mem,
                  mul_shift=rng.choice([0, rng.randint(0, 8), rng.randint(4, 20), rng.randint(0, 63)]),
                  mul_operand=operand16(rng), relu_bypass=relu_bypass)


def _ew_cvt(rng: random.Random, bypass: bool) -> EwConverter:
    offset = rng.choice([0, rng.randint(-128, 127), rng.randint(-(1 << 31), (1 << 31) - 1)])
    return EwConverter(bypass, offset,
                       rng.choice([1, rng.randint(-300, 300), rng.randint(-32768, 32767)]),
                       rng.choice([0, rng.randint(0, 16), rng.randint(0, 63)]))


def random_ew(rng: random.Random, goal: str | None, lut: str | None) -> EwBlock:
    """A legal EW block meeting `goal` and the LUT/EQL slot `lut` (EW truncate is aimed later)."""
    eql = lut is not None and lut.startswith("EQL")
    if not FEATURES.ew or (lut is None and (goal == "bypassed" or (goal is None and rng.random() < 0.15))):
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


def operand_reads(blk: XBlock | EwBlock) -> tuple[bool, bool]:
    return blk.alu_active and blk.alu_from_mem, blk.mul_active and blk.mul_from_mem


def random_operand(rng: random.Random, name: str, blk: XBlock | EwBlock, goal: str | None,
                   dims: tuple[int, int, int], offset: int = 0, lanes: int = ATOM) -> OperandData | None:
    """The read DMA and data of a block that reads memory (None when it reads none): DATA_USE covers what is
    read (BOTH sometimes with one half unused: junk there must change nothing). `lanes`: elements per atom
    of the processing precision (INT16: ATOM/2; one-byte operands then half an atom's bytes)."""
    alu, mul = operand_reads(blk)
    if not (alu or mul):
        return None
    w, h, c = dims
    both = (alu and mul) or goal == "use both" or rng.random() < 0.25
    use = "both" if both else "alu" if alu else "mul"
    two_byte = goal == "2-byte" or (goal != "1-byte" and rng.random() < 0.5)
    per_element = goal == "per element" or (goal != "per kernel" and rng.random() < 0.5)
    bpe = (2 if both else 1) * (2 if two_byte else 1)
    surface, shape = operand_surface(rng, name, dims, offset, lanes, bpe, per_element)
    lo, hi = (-32768, 32767) if two_byte else (-128, 127)
    comps = [random_data(rng, shape, lo, hi) for _ in range(2 if both else 1)]
    dma = operand_dma(surface, use, two_byte=two_byte, per_element=per_element)
    return OperandData(dma, comps)


def operand_surface(rng: random.Random, name: str, dims: tuple[int, int, int], offset: int, lanes: int,
                    bpe: int, per_element: bool) -> tuple[Surface, tuple[int, int, int]]:
    """Where an operand block lives (its region, line and surface strides, random padding) and the shape of
    its data: per element a (C, H, W) cube of `bpe` bytes an element, per kernel one value a channel."""
    w, h, c = dims
    region = REGIONS[name] + offset + ATOM * rng.randrange(1 << 17)
    c_pad = -(-c // lanes) * lanes
    if per_element:
        line = w * ATOM * bpe + ATOM * rng.choice([0, 0, 1, rng.randint(2, 8)])
        surf = line * h + ATOM * rng.choice([0, 0, 1, rng.randint(2, 32)])
        return Surface(region, line, surf), (c_pad, h, w)
    # per kernel: one block from the base; the strides are unused, junk must change nothing
    line, surf = ATOM * rng.randrange(1 << 10), ATOM * rng.randrange(1 << 12)
    return Surface(region, line, surf), (c_pad, 1, 1)


def operands_of(data: Mapping[str, OperandData | None], blocks: Mapping[str, XBlock | EwBlock]) -> Operands:
    """The model's Operands of what the bench writes (only what the blocks read)."""
    found: dict[str, IntArray] = {}
    for name, od in data.items():
        if od is None:
            continue
        alu, mul = operand_reads(blocks[name])
        both = od.dma.data_use == USE_BOTH
        if alu:
            found[f"{name.lower()}_alu"] = od.comps[0]
        if mul:
            found[f"{name.lower()}_mul"] = od.comps[1 if both else 0]
    return Operands(**found)


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
    bits = magnitude_bits(bn_out) + magnitude_bits(_ew_mul_operand(ew, ops))
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
    """(W, H, C): C mostly not a multiple of the atom (edges around one and two atoms), sometimes 1x1;
    bigger under NIGHTLY; "big": 640 atoms or more. Channels count in atoms (INT8: one lane per byte)."""
    if goal == "big":
        return rng.randint(32, 48), rng.randint(4, 8), rng.randint(4 * ATOM + 1, 8 * ATOM)
    scale = 3 if nightly() else 1
    w = rng.choice([1, 7, 8, 9, 15, 17, rng.randint(1, 24 * scale)])
    h = rng.choice([1, 2, rng.randint(1, 3 * scale)])
    c = rng.choice([1, 3, ATOM - 1, ATOM, ATOM + 1, 2 * ATOM + 1, rng.randint(1, 5 * ATOM * scale)])
    if goal == "1x1" or (goal is None and rng.random() < 0.1):
        w = h = 1
    if goal == "C % 8 != 0" and c % ATOM == 0:   # the goal's name is nv_small's: C not a whole atom
        c += rng.randint(1, ATOM - 1)
    if goal == "several surfaces" and c <= ATOM:
        c += ATOM
    return w, h, c


def placement(rng: random.Random, region: int, width: int, height: int) -> Surface:
    """Random atom-aligned base in a 2^17-atom window, line/surface strides packed or with gaps; a 1x1 cube
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
    """[channels padded to the input's atoms, h, w] int8 or int16 values written at the source (padding
    lanes random, as memory holds); the 16to8 mode's processing pads it further with 0
    (models/sdp/model.py)."""
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
    """tb/stimulus/sdp_core.py's aimed output convertor (raw fields) as the driver's signed values."""
    return OutputCvt(int(as_signed(raw["D_CVT_OFFSET.CVT_OFFSET"], 32)),
                     int(as_signed(raw["D_CVT_SCALE.CVT_SCALE"], 16)), raw["D_CVT_SHIFT.CVT_SHIFT"])


def make_layer(rng: random.Random, group: int, wants: Wants, offset: int = 0,
               ram_mc: Mapping[str, bool] | None = None, precisions: Sequence[str] = ("INT8",)) -> Layer:
    """A random legal layer through the driver, meeting `wants`: the data first, then the EW truncate, the
    EQL operand, the LUT and the output convertor aimed at what the data gives at each stage. `offset` moves
    every cube of the layer (layers in flight together keep apart). ram_mc: the memory (RAM_TYPE MC True,
    CV False) of the input "src", the output "dst" and each operand "BS", "BN", "EW" (a layer may read
    both memories); MC when not named. `precisions`: those the top computes (draw_precisions)."""
    eql = wants.lut is not None and wants.lut.startswith("EQL")
    in_p, out_p = draw_precisions(rng, tuple(precisions), eql)
    lanes, src_lanes = processing_lanes(in_p, out_p), ATOM // 2 if in_p == "INT16" else ATOM
    w, h, c = random_dims(rng, wants.cube)
    lo, hi = (-32768, 32767) if in_p == "INT16" else (-128, 127)
    cube = random_data(rng, (-(-c // src_lanes) * src_lanes, h, w), lo, hi)
    proc = padded(cube, -(-c // lanes) * lanes)
    bs = random_xblock(rng, wants.block.get("BS"))
    bn = random_xblock(rng, wants.block.get("BN"))
    ew = random_ew(rng, wants.block.get("EW"), wants.lut)
    blocks = {"BS": bs, "BN": bn, "EW": ew}
    # "EQL equal": the operand follows the data element by element
    goals = {**wants.block, **({"EW": "per element"} if wants.lut == "EQL equal" else {})}
    data = {name: random_operand(rng, name, blk, goals.get(name), (w, h, c), offset, lanes)
            for name, blk in blocks.items()}
    if ram_mc is not None:
        data = {name: od if od is None or name not in ram_mc else
                dataclasses.replace(od, dma=dataclasses.replace(od.dma, ram_mc=ram_mc[name]))
                for name, od in data.items()}
    ops = operands_of(data, blocks)
    bn_out = _pre_ew(proc, bs, bn, ops)
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
        cvt = _signed_cvt(output_convertor(rng, v, 16 if out_p == "INT16" else 8))
    desc = {"bs": bs, "bn": bn, "ew": ew, "cvt": cvt, "lut": lut, "group": group, "perf": rng.random() < 0.5,
            "src": placement(rng, REGIONS["SRC"] + offset, w, h),
            "dst": placement(rng, REGIONS["DST"] + offset, w, h),
            **{DMA_ARG[n]: od.dma for n, od in data.items() if od is not None},
            **({"in_precision": in_p, "out_precision": out_p} if (in_p, out_p) != ("INT8", "INT8") else {})}
    for side in ("src", "dst"):
        if ram_mc is not None and side in ram_mc:
            desc[side] = dataclasses.replace(desc[side], ram_mc=ram_mc[side])  # type: ignore[type-var]
    prog = sdp_layer(w, h, c, **desc)  # type: ignore[arg-type]
    return Layer(prog, cube, data, ops, "EQL" if ew.eql else kind, desc={"dims": (w, h, c), **desc})


def padded(cube: IntArray, channels: int) -> IntArray:
    """The cube with channels up to `channels` of 0 (the 16to8 mode's processing lanes past the input)."""
    out = np.zeros((channels, *cube.shape[1:]), dtype=np.int64)
    out[:cube.shape[0]] = cube
    return out


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
        parts.append(f"DMA {'MC' if d.ram_mc else 'CV'} use {('MUL', 'ALU', 'BOTH')[d.data_use]} "
                     f"{2 if d.two_byte else 1}-byte "
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
    names = {0: "INT8", 1: "INT16", 2: "FP16"}
    src_p = names[1] if cfg.src_precision is not None else names[cfg.in_precision]
    precision = "" if (src_p, cfg.out_precision) == ("INT8", 0) else f" {src_p} -> {names[cfg.out_precision]}"
    return (f"group {layer.prog.group}: {cfg.width}x{cfg.height}x{cfg.channels}{precision}; {blocks}; "
            f"out cvt {cvt}"
            f"{lut_text}; src {'MC' if cfg.src_ram_mc else 'CV'} {tuple(hex(v) for v in src)}, "
            f"dst {'MC' if cfg.dst_ram_mc else 'CV'} {tuple(hex(v) for v in dst)}")
