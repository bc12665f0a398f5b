"""Random configurations of the SDP datapath core bench (tb/tests/test_sdp_core.py): a `Case` is a set of raw
SDP /
SDP_RDMA register fields, the model's SdpConfig of them, the input cube, the memory operands and their
streams, and the LUT tables. The SDP top-level layers (tb/stimulus/sdp_top.py) reuse its aimed LUT, output
convertor, programs and data.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.common.precision import as_signed
from models.lut import program as lut_program
from models.lut.model import EXPONENT, LE_ENTRIES, LINEAR, LO_ENTRIES, LutConfig, lut_lookup, validate
from models.lut.regs import lut_fields
from models.sdp.datapath import (
    ALU_EQL,
    DatapathResult,
    Operands,
    ew_convert,
    x_block,
    y_block,
)
from models.sdp.model import USE_ALU, USE_BOTH, USE_MUL, SdpConfig, sdp_compute
from tb.common import nightly
from tb.stimulus.lut import Shape, random_config, random_slopes, random_table

Fields = dict[str, dict[str, int]]
IntArray = NDArray[np.int64]
Streams = dict[str, IntArray | None]
BLOCKS = ("BS", "BN", "EW")
# (input, output) precisions of the INT16 layers: INT16 processing, the 16to8 mode (SDP_RDMA IN_PRECISION
# INT16, INT8 processing), INT8 -> INT16 (models/sdp/model.py)
INT16_PAIRS = (("INT16", "INT16"), ("INT16", "INT8"), ("INT8", "INT16"))
PRECISION_CODES = {"INT8": 0, "INT16": 1}


def draw_precisions(rng: random.Random, precisions: tuple[str, ...] | list[str],
                    eql: bool = False) -> tuple[str, str]:
    """A layer's (input, output) precisions: INT8 -> INT8 without INT16 (no draw, so an INT8-only run draws
    exactly what it drew before INT16 existed); with INT16 a third of them INT16 ones (in EQL mode none
    converts INT8 to INT16: seed 001 allows no precision conversion there)."""
    if "INT16" not in precisions or rng.random() >= 1 / 3:
        return "INT8", "INT8"
    return rng.choice([p for p in INT16_PAIRS if not (eql and p == ("INT8", "INT16"))])


def precision_fields(in_p: str, out_p: str) -> Fields:
    """SDP's and SDP_RDMA's precision fields as the driver sets them (INT16 -> INT8: the 16to8 mode)."""
    proc = PRECISION_CODES["INT16" if (in_p, out_p) == ("INT16", "INT16") else "INT8"]
    i, o = PRECISION_CODES[in_p], PRECISION_CODES[out_p]
    return {"SDP": {"D_DATA_FORMAT.PROC_PRECISION": proc, "D_DATA_FORMAT.OUT_PRECISION": o},
            "SDP_RDMA": {"D_FEATURE_MODE_CFG.IN_PRECISION": i, "D_FEATURE_MODE_CFG.PROC_PRECISION": proc,
                         "D_FEATURE_MODE_CFG.OUT_PRECISION": o}}


# ------------------------------------------------------------------------------------------ a case
@dataclass(frozen=True)
class Case:
    fields: Fields
    cfg: SdpConfig
    cube: IntArray
    """[padded channels, h, w] int8 (or int16) values; padding lanes hold random bytes, as memory would
    (the 16to8 mode's processing lanes past its 16-bit input surfaces: 0, models/sdp/model.py read_inputs)."""
    ops: Operands
    """What the model reads (None where the block takes nothing from memory)."""
    streams: Streams
    """Per stream (bs, bn, ew): [padded channels, h, w, 2] raw 16-bit (ALU, MUL) lane values, or None."""
    tables: tuple[IntArray, IntArray]
    label: str

    @property
    def atom(self) -> int:
        return self.cube.shape[0] // self.cfg.surfaces

    def order(self) -> Iterator[tuple[int, int, int]]:
        """(surface, line, column) of every atom in stream order."""
        for s in range(self.cfg.surfaces):
            for y in range(self.cfg.height):
                for x in range(self.cfg.width):
                    yield s, y, x

    def op_en(self, stream: str) -> bool:
        return self.streams[stream] is not None

    @property
    def precisions(self) -> tuple[str, str]:
        """(input, output) precision: the input's is SDP_RDMA IN_PRECISION's (the 16to8 mode's INT16)."""
        names = {0: "INT8", 1: "INT16"}
        return (names[self.fields["SDP_RDMA"].get("D_FEATURE_MODE_CFG.IN_PRECISION", 0)],
                names[self.cfg.out_precision])

    def in_beats(self) -> list[int]:
        """Input atoms: 8-bit lanes, or 16-bit ones for INT16 input (the INT16 core's input port)."""
        a, bits = self.atom, 16 if self.precisions[0] == "INT16" else 8
        return [pack(self.cube[s * a:(s + 1) * a, y, x], bits) for s, y, x in self.order()]

    def op_beats(self, stream: str) -> list[int]:
        raw = self.streams[stream]
        assert raw is not None
        a = self.atom
        return [pack(raw[s * a:(s + 1) * a, y, x].reshape(-1), 16) for s, y, x in self.order()]

    def model(self) -> DatapathResult:
        return sdp_compute(self.cube, self.cfg, self.ops, lut_tables=self.tables)


def pack(values: NDArray[np.integer], width: int) -> int:
    mask = (1 << width) - 1
    return sum((int(v) & mask) << (i * width) for i, v in enumerate(values.tolist()))


def unpack_atom(word: int, atom: int) -> IntArray:
    return np.frombuffer(word.to_bytes(atom, "little"), dtype=np.int8).astype(np.int64)


# ------------------------------------------------------------------------------------------ stimulus
@dataclass
class Wants:
    """Features one configuration is forced to have (the rest stays random)."""

    algo: dict[str, int] = dataclasses.field(default_factory=dict)
    prelu: dict[str, bool] = dataclasses.field(default_factory=dict)     # block -> with ALU
    stream: dict[str, bool] = dataclasses.field(default_factory=dict)    # block -> operand from memory
    lut: str | None = None                                               # LUT kind
    eql: str | None = None                                               # "equal" / "unequal"
    wrap: str | None = None                                              # block: PReLU pass of a 33-bit sum


def operand16(rng: random.Random) -> int:
    """A signed 16-bit operand: int8-sized, small, any, or an extreme."""
    return rng.choice([rng.randint(-128, 127), rng.randint(-8, 8), rng.randint(-32768, 32767),
                       rng.choice([-32768, -1, 0, 1, 32767])])


def _sources(rng: random.Random, alu_on: bool, mul_on: bool,
             want: bool | None) -> tuple[bool, bool, int, int]:
    """(alu_on, mul_on, alu_src, mul_src): random, or forced to read memory (want True) or not (False)."""
    alu_src, mul_src = rng.randint(0, 1), rng.randint(0, 1)
    if want is False:
        return alu_on, mul_on, 0, 0
    if want and not ((alu_on and alu_src) or (mul_on and mul_src)):
        if not (alu_on or mul_on):
            alu_on = True
        if alu_on and (not mul_on or rng.random() < 0.5):
            alu_src = 1
        else:
            mul_src = 1
    return alu_on, mul_on, alu_src, mul_src


def x_fields(rng: random.Random, p: str, wants: Wants) -> dict[str, int]:
    """Random D_DP_{BS,BN}_* fields; shifts mostly small, sometimes up to the field maximum."""
    algo = wants.algo.get(p, rng.randint(0, 3))
    alu_on = p in wants.algo or (wants.prelu[p] if p in wants.prelu else rng.random() < 0.7)
    mul_on = p in wants.prelu or rng.random() < 0.7
    prelu = p in wants.prelu or rng.random() < 0.3
    forced = p in wants.algo or p in wants.prelu or wants.stream.get(p, False)
    bypass = not forced and rng.random() < 0.15
    alu_on, mul_on, alu_src, mul_src = _sources(rng, alu_on, mul_on, wants.stream.get(p))
    cfg, alu, mul = f"D_DP_{p}_CFG.{p}_", f"D_DP_{p}_ALU_", f"D_DP_{p}_MUL_"
    if wants.wrap == p:
        # a large positive register operand << 17 or more saturates to 2^31 - 1: adding x > 0 needs
        # 33 bits, and PReLU passes that sum untruncated (NVDLA keeps its low 32 bits)
        return {cfg + "BYPASS": 0, cfg + "ALU_BYPASS": 0, cfg + "ALU_ALGO": rng.choice([2, 3]),
                cfg + "MUL_BYPASS": 0, cfg + "MUL_PRELU": 1, cfg + "RELU_BYPASS": rng.randint(0, 1),
                f"{alu}CFG.{p}_ALU_SRC": 0, f"{alu}CFG.{p}_ALU_SHIFT_VALUE": rng.randint(17, 63),
                f"{alu}SRC_VALUE.{p}_ALU_OPERAND": rng.randint(0x4000, 0x7FFF),
                f"{mul}CFG.{p}_MUL_SRC": mul_src, f"{mul}CFG.{p}_MUL_SHIFT_VALUE": rng.randint(0, 255),
                f"{mul}SRC_VALUE.{p}_MUL_OPERAND": operand16(rng) & 0xFFFF}
    return {
        cfg + "BYPASS": int(bypass), cfg + "ALU_BYPASS": int(not alu_on), cfg + "ALU_ALGO": algo,
        cfg + "MUL_BYPASS": int(not mul_on), cfg + "MUL_PRELU": int(prelu),
        cfg + "RELU_BYPASS": int(rng.random() < 0.6),
        f"{alu}CFG.{p}_ALU_SRC": alu_src,
        f"{alu}CFG.{p}_ALU_SHIFT_VALUE": rng.choice([0, rng.randint(0, 4), rng.randint(0, 16),
                                                      rng.randint(0, 63)]),
        f"{alu}SRC_VALUE.{p}_ALU_OPERAND": operand16(rng) & 0xFFFF,
        f"{mul}CFG.{p}_MUL_SRC": mul_src,
        f"{mul}CFG.{p}_MUL_SHIFT_VALUE": rng.choice([0, rng.randint(0, 8), rng.randint(4, 20),
                                                      rng.randint(0, 255)]),
        f"{mul}SRC_VALUE.{p}_MUL_OPERAND": operand16(rng) & 0xFFFF,
    }


def ew_fields(rng: random.Random, wants: Wants) -> dict[str, int]:
    """Random D_DP_EW_* fields (EW_TRUNCATE is aimed later); EQL keeps the seed's EQL rules."""
    algo = ALU_EQL if wants.eql else wants.algo.get("EW", rng.randint(0, 3))
    alu_on = ("EW" in wants.algo or wants.eql is not None
              or (wants.prelu["EW"] if "EW" in wants.prelu else rng.random() < 0.7))
    mul_on = "EW" in wants.prelu or (rng.random() < 0.7 and wants.eql != "equal")
    forced = bool("EW" in wants.algo or "EW" in wants.prelu or wants.stream.get("EW") or wants.lut
                  or wants.eql)
    bypass = not forced and rng.random() < 0.15
    want_mem = True if wants.eql == "equal" else wants.stream.get("EW")
    alu_on, mul_on, alu_src, mul_src = _sources(rng, alu_on, mul_on, want_mem)
    if wants.eql == "equal":
        alu_src = 1
    eql = alu_on and algo == ALU_EQL
    lut_on = (wants.lut is not None or rng.random() < 0.5) and not eql
    f = {"D_DP_EW_CFG.EW_BYPASS": int(bypass), "D_DP_EW_CFG.EW_ALU_BYPASS": int(not alu_on),
         "D_DP_EW_CFG.EW_ALU_ALGO": algo, "D_DP_EW_CFG.EW_MUL_BYPASS": int(not mul_on),
         "D_DP_EW_CFG.EW_MUL_PRELU": int("EW" in wants.prelu or rng.random() < 0.3),
         "D_DP_EW_CFG.EW_LUT_BYPASS": int(not lut_on), "D_DP_EW_TRUNCATE_VALUE.EW_TRUNCATE": 0,
         "D_DP_EW_ALU_CFG.EW_ALU_SRC": alu_src, "D_DP_EW_MUL_CFG.EW_MUL_SRC": mul_src}
    for op in ("ALU", "MUL"):
        operand = rng.choice([rng.randint(-128, 127), rng.randint(-(1 << 15), 1 << 15),
                              rng.randint(-(1 << 31), (1 << 31) - 1), rng.randint(-4, 4)])
        # EQL: the seed wants the ALU convertor bypassed
        cvt_bypass = rng.random() < 0.5 or (eql and op == "ALU")
        offset = rng.choice([0, rng.randint(-128, 127), rng.randint(-(1 << 31), (1 << 31) - 1)])
        scale = rng.choice([1, rng.randint(-300, 300), rng.randint(-32768, 32767)])
        f.update({f"D_DP_EW_{op}_CFG.EW_{op}_CVT_BYPASS": int(cvt_bypass),
                  f"D_DP_EW_{op}_SRC_VALUE.EW_{op}_OPERAND": operand & 0xFFFFFFFF,
                  f"D_DP_EW_{op}_CVT_OFFSET_VALUE.EW_{op}_CVT_OFFSET": offset & 0xFFFFFFFF,
                  f"D_DP_EW_{op}_CVT_SCALE_VALUE.EW_{op}_CVT_SCALE": scale & 0xFFFF,
                  f"D_DP_EW_{op}_CVT_TRUNCATE_VALUE.EW_{op}_CVT_TRUNCATE":
                      rng.choice([0, rng.randint(0, 16), rng.randint(0, 63)])})
    return f


def base_fields(w: int, h: int, c: int, atom: int) -> Fields:
    """Cube, INT8 formats, input from memory, identity output convertor (the core ignores addresses)."""
    line, surf = w * atom, w * h * atom
    sdp = {"D_DATA_CUBE_WIDTH.WIDTH": w - 1, "D_DATA_CUBE_HEIGHT.HEIGHT": h - 1,
           "D_DATA_CUBE_CHANNEL.CHANNEL": c - 1, "D_DST_LINE_STRIDE.DST_LINE_STRIDE": line,
           "D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": surf,
           "D_CVT_OFFSET.CVT_OFFSET": 0, "D_CVT_SCALE.CVT_SCALE": 1, "D_CVT_SHIFT.CVT_SHIFT": 0,
           # the LUT and saturation counters on, as the KMD sets them with statistics enabled
           "D_PERF_ENABLE.PERF_LUT_EN": 1, "D_PERF_ENABLE.PERF_SAT_EN": 1}
    rdma = {"D_DATA_CUBE_WIDTH.WIDTH": w - 1, "D_DATA_CUBE_HEIGHT.HEIGHT": h - 1,
            "D_DATA_CUBE_CHANNEL.CHANNEL": c - 1, "D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": line,
            "D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": surf}
    return {"SDP": sdp, "SDP_RDMA": rdma}


def dma_fields(rng: random.Random, fields: Fields, p: str, two_byte: bool = False) -> dict[str, int]:
    """SDP_RDMA D_{B,N,E}RDMA_CFG as the driver sets it: enabled exactly when the block reads memory;
    `two_byte`: two-byte operands (INT16 processing: the RTL reads no one-byte operand there)."""
    s = fields["SDP"]
    blk_on = not s[f"D_DP_{p}_CFG.{p}_BYPASS"]
    alu_mem = blk_on and not s[f"D_DP_{p}_CFG.{p}_ALU_BYPASS"] and s[f"D_DP_{p}_ALU_CFG.{p}_ALU_SRC"]
    mul_mem = blk_on and not s[f"D_DP_{p}_CFG.{p}_MUL_BYPASS"] and s[f"D_DP_{p}_MUL_CFG.{p}_MUL_SRC"]
    use = USE_BOTH if (alu_mem and mul_mem) or rng.random() < 0.2 else (USE_ALU if alu_mem else USE_MUL)
    d = {"BS": "B", "BN": "N", "EW": "E"}[p]
    r = f"D_{d}RDMA_CFG.{d}RDMA_"
    return {r + "DISABLE": int(not (alu_mem or mul_mem)), r + "DATA_USE": use,
            r + "DATA_SIZE": rng.randint(0, 1) | int(two_byte), r + "DATA_MODE": rng.randint(0, 1)}


def random_cube(rng: random.Random, atom: int) -> tuple[int, int, int]:
    """(W, H, C): edges (1, the atom and one past it) and random sizes, larger in NIGHTLY runs."""
    big = 2 if nightly() else 1
    w = rng.choice([1, 2, rng.randint(1, 8), rng.randint(4, 16 * big)])
    h = rng.choice([1, 2, rng.randint(1, 4 * big)])
    c = rng.choice([1, atom - 1, atom, atom + 1, rng.randint(1, 5 * big * atom)])
    return w, h, max(c, 1)


def random_data(rng: random.Random, shape: tuple[int, ...], lo: int, hi: int) -> IntArray:
    nprng = np.random.default_rng(rng.getrandbits(32))
    kind = rng.choice(["uniform", "uniform", "small", "extremes"])
    if kind == "small":
        return nprng.integers(max(lo, -12), min(hi, 12) + 1, size=shape).astype(np.int64)
    if kind == "extremes":
        return nprng.choice([lo, lo + 1, -1, 0, 1, hi - 1, hi], size=shape).astype(np.int64)
    return nprng.integers(lo, hi + 1, size=shape).astype(np.int64)


def make_operands(rng: random.Random, cfg: SdpConfig, c_pad: int) -> tuple[Operands, Streams]:
    """Memory operands of every block that reads memory, and the raw lane values of each stream."""
    found: dict[str, IntArray] = {}
    streams: Streams = {}
    shape = (c_pad, cfg.height, cfg.width)
    for name, blk, dma in (("bs", cfg.bs, cfg.brdma), ("bn", cfg.bn, cfg.nrdma), ("ew", cfg.ew, cfg.erdma)):
        alu_mem = blk.alu_active and blk.alu_from_mem
        mul_mem = blk.mul_active and blk.mul_from_mem
        if not (dma.enabled and (alu_mem or mul_mem)):
            streams[name] = None
            continue
        lo, hi = (-32768, 32767) if dma.two_byte else (-128, 127)
        op_shape = shape if dma.per_element else (c_pad, 1, 1)
        # the halves the block does not use carry junk, which must change nothing
        raw = random_data(rng, (*op_shape, 2), -32768, 32767)
        for k, (comp, used) in enumerate((("alu", alu_mem), ("mul", mul_mem))):
            if used:
                values = random_data(rng, op_shape, lo, hi)
                raw[..., k] = values
                found[f"{name}_{comp}"] = values
        streams[name] = np.broadcast_to(raw, (*shape, 2)).copy()
    return Operands(**found), streams


def aimed_lut(rng: random.Random, values: IntArray) -> LutConfig:
    """A random SDP LUT whose tables sit on the layer's LUT inputs, so hits and every flow case occur."""
    lim_lo, lim_hi = -(1 << 31), (1 << 31) - 1
    lo_v, hi_v = (int(np.percentile(values, q)) for q in (rng.choice([0, 5, 20]), rng.choice([60, 90, 100])))
    span = max(hi_v - lo_v, 1)
    lo_sel = max(-8, min(23, span.bit_length() - 8 + rng.randint(-1, 1)))
    lo_span = 1 << (lo_sel + 8)
    lo_start = max(lim_lo, min(lim_hi - lo_span, lo_v + rng.randint(-span // 4, span // 4)))
    slopes = random_slopes(rng)
    common = dict(unit="SDP", lo_index_select=lo_sel, lo_start=lo_start, lo_end=lo_start + lo_span,
                  uflow_priority=rng.randint(0, 1), oflow_priority=rng.randint(0, 1),
                  hybrid_priority=rng.randint(0, 1), le=random_table(rng, LE_ENTRIES),
                  lo=random_table(rng, LO_ENTRIES), **slopes)
    if rng.random() < 0.5:
        le_sel = max(-6, min(25, span.bit_length() - 6 + rng.randint(-2, 1)))
        le_span = 1 << (le_sel + 6)
        le_start = max(lim_lo, min(lim_hi - le_span, lo_v + rng.randint(-span // 2, span // 2)))
        cfg = LutConfig(le_function=LINEAR, le_index_select=le_sel, le_start=le_start,
                        le_end=le_start + le_span, **common)
    else:
        offset = rng.randint(-3, max(-3, min(31, span.bit_length() - 4)))
        le_start = max(lim_lo, lo_v - rng.randint(0, 1 << max(offset, 0)))
        le_end = min(lim_hi, le_start + rng.choice([span, 1 << 20, (1 << 31) - 1]))
        cfg = LutConfig(le_function=EXPONENT, le_index_offset=offset, le_index_select=rng.randint(-128, 127),
                        le_start=le_start, le_end=le_end, **common)
    validate(cfg)
    return cfg


@functools.cache
def programs() -> dict[str, lut_program.LutProgram]:
    """The LUT helper's SDP sigmoid and tanh (16-bit outputs over a 2^12-scaled input; about 1.5 s)."""
    return {"sigmoid": lut_program.sigmoid(unit="SDP"), "tanh": lut_program.tanh(unit="SDP")}


def magnitude_bits(values: IntArray) -> int:
    """Bits of the largest magnitude in `values` (0 for none)."""
    return int(np.max(np.abs(values))).bit_length() if values.size else 0


def _shift_for(rng: random.Random, magnitude_bits: int, target_bits: int, max_shift: int) -> int:
    """A right shift that brings magnitude_bits down to about target_bits, give or take."""
    return max(0, min(max_shift, magnitude_bits - target_bits + rng.randint(-2, 2)))


def _pre_lut(cube: IntArray, cfg: SdpConfig, ops: Operands) -> tuple[IntArray, IntArray]:
    """BN output and the EW output before the LUT."""
    x = x_block(x_block(cube, cfg.bs, ops.bs_alu, ops.bs_mul, "BS"), cfg.bn, ops.bn_alu, ops.bn_mul, "BN")
    ew = dataclasses.replace(cfg.ew, lut_bypass=True)
    return x, y_block(x, ew, ops.ew_alu, ops.ew_mul, None)[0]


def make_case(rng: random.Random, atom: int, index: int, wants: Wants,
              precisions: tuple[str, ...] = ("INT8",)) -> Case:
    """A random configuration meeting `wants`; `precisions`: those the core computes (draw_precisions)."""
    in_p, out_p = draw_precisions(rng, precisions, wants.eql is not None)
    lanes = atom // 2 if (in_p, out_p) == ("INT16", "INT16") else atom   # processing lanes
    w, h, c = random_cube(rng, atom)
    fields = base_fields(w, h, c, atom)
    for unit, values in precision_fields(in_p, out_p).items():
        fields[unit].update(values)
    s = fields["SDP"]
    s.update(x_fields(rng, "BS", wants))
    s.update(x_fields(rng, "BN", wants))
    s.update(ew_fields(rng, wants))
    s.update(lut_fields(LutConfig(unit="SDP")))
    if wants.wrap:
        # nothing after the wrapping block, so that the wrapped values reach the output convertor
        s["D_DP_EW_CFG.EW_BYPASS"] = 1
        s["D_DP_BN_CFG.BN_BYPASS" if wants.wrap == "BS" else "D_DP_BS_CFG.BS_BYPASS"] = 1
    if wants.eql == "equal":
        # keep the compared data within the 16-bit operand range, so that all of it can be equal
        s["D_DP_BS_CFG.BS_BYPASS"] = s["D_DP_BN_CFG.BN_BYPASS"] = 1
    for p in BLOCKS:
        fields["SDP_RDMA"].update(dma_fields(rng, fields, p, lanes != atom))
    # now and then a counter off: it must neither clear nor count (models/perf.py)
    for enable in ("D_PERF_ENABLE.PERF_LUT_EN", "D_PERF_ENABLE.PERF_SAT_EN"):
        s[enable] = int(rng.random() < 0.8)
    c_pad = -(-c // lanes) * lanes
    src_lanes = atom // 2 if in_p == "INT16" else atom
    lo, hi = (-32768, 32767) if in_p == "INT16" else (-128, 127)
    cube = np.zeros((c_pad, h, w), dtype=np.int64)
    c_src = -(-c // src_lanes) * src_lanes
    cube[:c_src] = random_data(rng, (c_src, h, w), lo, hi)
    have = tuple(precisions)
    cfg = SdpConfig.from_fields(fields, atom, have)
    ops, streams = make_operands(rng, cfg, c_pad)

    # EW truncate aimed at the product (mostly), or anywhere up to 1023
    bn_out, _ = _pre_lut(cube, cfg, ops)
    if cfg.ew.mul_active:
        mul_op = (ew_operand(cfg, ops, "mul") if cfg.ew.mul_from_mem
                  else np.array([int(as_signed(cfg.ew.mul_operand, 32))]))
        bits = magnitude_bits(bn_out) + magnitude_bits(mul_op)
        target = 17 if wants.lut in programs() else rng.randint(8, 30)
        aimed = _shift_for(rng, bits, target, 1023)
        trunc = rng.choice([aimed, aimed, aimed, rng.randint(0, 1023), rng.randint(60, 70)])
        s["D_DP_EW_TRUNCATE_VALUE.EW_TRUNCATE"] = trunc
    else:
        s["D_DP_EW_TRUNCATE_VALUE.EW_TRUNCATE"] = rng.randint(0, 1023)
    cfg = SdpConfig.from_fields(fields, atom, have)
    if wants.eql is not None and cfg.ew.eql and cfg.ew.alu_from_mem:
        ops, streams = _eql_operands(rng, cube, cfg, ops, streams, wants.eql == "equal")
    _, lut_in = _pre_lut(cube, cfg, ops)

    kind = "bypass"
    tables = (np.array(random_table(rng, LE_ENTRIES)), np.array(random_table(rng, LO_ENTRIES)))
    if not cfg.ew.lut_bypass and not cfg.ew.bypass:
        kind = wants.lut or rng.choice(["random", "aimed", "aimed", "program"])
        if kind == "program":
            kind = rng.choice(sorted(programs()))
        if kind in programs():
            prog = programs()[kind]
            s.update(prog.fields())
            tables = (prog.le.astype(np.int64), prog.lo.astype(np.int64))
        else:
            lut = (random_config(Shape(atom, 32, 32, True), rng) if kind == "random"
                   else aimed_lut(rng, lut_in.reshape(-1)))
            s.update(lut_fields(lut))
            tables = (lut.le.astype(np.int64), lut.lo.astype(np.int64))
        cfg = SdpConfig.from_fields(fields, atom, have)
    if not cfg.ew.eql:
        s.update(output_convertor(rng, before_cvt(cube, cfg, ops, tables), 16 if out_p == "INT16" else 8))
    cfg = SdpConfig.from_fields(fields, atom, have)
    label = f"config {index} (LUT {kind}{'' if in_p == out_p == 'INT8' else f', {in_p} -> {out_p}'})"
    return Case(fields, cfg, cube, ops, streams, tables, label)


def before_cvt(cube: IntArray, cfg: SdpConfig, ops: Operands, tables: tuple[IntArray, IntArray]) -> IntArray:
    """The data the output convertor takes (after the LUT)."""
    bn_out, y = _pre_lut(cube, cfg, ops)
    if cfg.ew.bypass or cfg.ew.lut_bypass:
        return y
    return lut_lookup(y, LutConfig.from_fields({"SDP": cfg.lut_fields}, "SDP", tables)).output


def ew_operand(cfg: SdpConfig, ops: Operands, comp: str) -> IntArray:
    raw = getattr(ops, f"ew_{comp}")
    assert raw is not None
    return ew_convert(raw, getattr(cfg.ew, f"{comp}_cvt"))


def _eql_operands(rng: random.Random, cube: IntArray, cfg: SdpConfig, ops: Operands,
                  streams: Streams, equal: bool) -> tuple[Operands, Streams]:
    """EQL with a memory ALU operand: copy the compared data into the operand where it fits 16 bits (all of
    it for "equal" when possible), so that both compare outcomes occur."""
    raw = streams["ew"]
    assert raw is not None and cfg.ew.alu_cvt.bypass
    before_alu = y_block(x_block(x_block(cube, cfg.bs, ops.bs_alu, ops.bs_mul, "BS"), cfg.bn, ops.bn_alu,
                                 ops.bn_mul, "BN"),
                         dataclasses.replace(cfg.ew, alu_bypass=True, lut_bypass=True),
                         None, ops.ew_mul, None)[0]
    before_alu = np.broadcast_to(before_alu, raw.shape[:3])
    fits = (before_alu >= -32768) & (before_alu <= 32767)
    pick = fits if equal else fits & (np.random.default_rng(rng.getrandbits(32)).random(raw.shape[:3]) < 0.9)
    alu = np.where(pick, before_alu, raw[..., 0])
    if not equal and not (alu != before_alu).any():
        alu.flat[rng.randrange(alu.size)] += 1
    raw = raw.copy()
    raw[..., 0] = as_signed(alu, 16)
    streams = {**streams, "ew": raw}
    return dataclasses.replace(ops, ew_alu=raw[..., 0].copy()), streams


def output_convertor(rng: random.Random, v: IntArray, out_bits: int = 8) -> dict[str, int]:
    """Output convertor aimed at the data: mostly in range of the output's `out_bits` (8, or 16 for INT16),
    some saturating, sometimes anything."""
    centre = int(np.median(v)) if v.size else 0
    offset = rng.choice([0, centre, rng.randint(-(1 << 31), (1 << 31) - 1)])
    scale = rng.choice([1, rng.randint(1, 2000), rng.randint(-2000, -1), rng.randint(-32768, 32767)])
    spread = float(np.percentile(np.abs(v - offset), 90)) if v.size else 1.0
    mag_bits = max(int(spread * abs(scale)), 1).bit_length()
    # mostly to about the output's width, sometimes past the 17-bit stage D_PERF_OUT_SATURATION counts
    target = rng.choice([out_bits, out_bits, out_bits, 18])
    shift = _shift_for(rng, mag_bits, target, 63) if rng.random() < 0.85 else rng.randint(0, 63)
    return {"D_CVT_OFFSET.CVT_OFFSET": offset & 0xFFFFFFFF, "D_CVT_SCALE.CVT_SCALE": scale & 0xFFFF,
            "D_CVT_SHIFT.CVT_SHIFT": shift}
