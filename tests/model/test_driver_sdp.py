"""The SDP driver layer (models/sdp/driver.py): write order, register values, validation (every rejection
names its rule), the round trip description -> fields -> SdpConfig.from_fields, and that the writes, replayed
on the model's register interface, run exactly the layer the driver's configuration describes."""

from __future__ import annotations

import dataclasses
import functools
import random
from pathlib import Path

import numpy as np
import pytest

from models import registers
from models.common.memory import Memory
from models.errors import ConfigError
from models.lut import program as lut_program
from models.lut.model import EXPONENT, LE_ENTRIES, LINEAR, LO_ENTRIES, LutConfig, LutRam
from models.sdp.datapath import ALU_EQL, ALU_SUM, EwBlock, EwConverter, OutputCvt, XBlock
from models.sdp.driver import (
    OperandDma,
    SdpProgram,
    Surface,
    lut_fields,
    operand_dma,
    program_fields,
    sdp_layer,
    signed_blocks,
)
from models.sdp.model import USE_ALU, USE_BOTH, USE_MUL, SdpConfig, run_sdp
from models.steps import RegWrite
from models.subsystem import ModelTarget
from models.trace import default_trace_folders, trace_roots, trace_steps

# written to nv_small's sizes (8-byte atom, 448-column PDP line buffer): strides and expected fields
pytestmark = pytest.mark.configuration("nv_small")

SRC = Surface(0x1000, 0x100, 0x1000)
DST = Surface(0x40000, 0x100, 0x1000)
OPND = Surface(0x80000, 0x200, 0x2000)
BS_BLOCK = Surface(0x60000, 0, 0)        # a per-kernel operand block: strides unused

# ---- random legal descriptions --------------------------------------------------------------------------


def random_lut(rng: random.Random) -> LutConfig:
    """A valid SDP LUT (linear or exponential LE) with random tables, slopes and priorities."""
    lo_sel = rng.randint(-8, 21)
    lo_start = rng.randint(-(1 << 30), (1 << 30) - (1 << (lo_sel + 8)))
    slopes = {f"{t}_{f}_{k}": (rng.randint(-32768, 32767) if k == "scale" else rng.randint(-16, 15))
              for t in ("le", "lo") for f in ("uflow", "oflow") for k in ("scale", "shift")}
    if rng.random() < 0.5:
        le_sel = rng.randint(-6, 22)
        le_start = rng.randint(-(1 << 30), (1 << 30) - (1 << (le_sel + 6)))
        le = {"le_function": LINEAR, "le_index_select": le_sel, "le_start": le_start,
              "le_end": le_start + (1 << (le_sel + 6))}
    else:
        off = rng.randint(-64, 31)
        le_start = rng.randint(-(1 << 20), 1 << 20)
        le = {"le_function": EXPONENT, "le_index_offset": off, "le_start": le_start,
              "le_end": min(le_start + (1 << max(off + 64, 0)), (1 << 31) - 1)}
    table = lambda n: np.array([rng.randint(-32768, 32767) for _ in range(n)], dtype=np.int64)  # noqa: E731
    return LutConfig(unit="SDP", lo_index_select=lo_sel, lo_start=lo_start,
                     lo_end=lo_start + (1 << (lo_sel + 8)), uflow_priority=rng.randint(0, 1),
                     oflow_priority=rng.randint(0, 1), hybrid_priority=rng.randint(0, 1),
                     le=table(LE_ENTRIES), lo=table(LO_ENTRIES), **le, **slopes)


def _random_xblock(rng: random.Random) -> XBlock:
    alu_bypass, mul_bypass = rng.random() < 0.3, rng.random() < 0.3
    return XBlock(bypass=rng.random() < 0.3, alu_bypass=alu_bypass, alu_algo=rng.randint(0, 2),
                  alu_from_mem=rng.random() < 0.5, alu_shift=rng.randint(0, 63),
                  alu_operand=rng.randint(-32768, 32767), mul_bypass=mul_bypass,
                  mul_prelu=alu_bypass and rng.random() < 0.5, mul_from_mem=rng.random() < 0.5,
                  mul_shift=rng.randint(0, 63), mul_operand=rng.randint(-32768, 32767),
                  relu_bypass=rng.random() < 0.5)


def _random_cvt(rng: random.Random) -> EwConverter:
    return EwConverter(rng.random() < 0.5, rng.randint(-(1 << 31), (1 << 31) - 1), rng.randint(-32768, 32767),
                       rng.randint(0, 63))


def _random_ew(rng: random.Random, eql: bool) -> EwBlock:
    alu_bypass = not eql and rng.random() < 0.3
    alu_from_mem = rng.random() < 0.5
    # EQL: the ALU convertor of a memory operand bypassed, the LUT bypassed (seed 001, S2/S3)
    alu_cvt = EwConverter() if eql and alu_from_mem else _random_cvt(rng)
    return EwBlock(bypass=not eql and rng.random() < 0.3, alu_bypass=alu_bypass,
                   alu_algo=ALU_EQL if eql else rng.randint(0, 2), alu_from_mem=alu_from_mem,
                   alu_operand=rng.randint(-(1 << 31), (1 << 31) - 1), alu_cvt=alu_cvt,
                   mul_bypass=rng.random() < 0.3, mul_prelu=alu_bypass and rng.random() < 0.5,
                   mul_from_mem=rng.random() < 0.5, mul_operand=rng.randint(-(1 << 31), (1 << 31) - 1),
                   mul_cvt=_random_cvt(rng), truncate=rng.randint(0, 1023),
                   lut_bypass=eql or rng.random() < 0.5)


def _dma_for(rng: random.Random, blk: XBlock | EwBlock, base: int, w: int, h: int, c: int) -> OperandDma:
    """The read DMA a block needs: enabled exactly when an active ALU or MUL reads memory."""
    alu, mul = blk.alu_active and blk.alu_from_mem, blk.mul_active and blk.mul_from_mem
    if not (alu or mul):
        return OperandDma()
    use = "both" if alu and mul else rng.choice(["alu" if alu else "mul", "both"])
    two_byte, per_element = rng.random() < 0.5, rng.random() < 0.5
    bpe = (2 if use == "both" else 1) * (2 if two_byte else 1)
    line = w * 8 * bpe + 8 * rng.randint(0, 3)
    return operand_dma(Surface(base, line, line * h + 8 * rng.randint(0, 3)), use, two_byte=two_byte,
                       per_element=per_element)


def random_description(rng: random.Random, eql: bool | None = None) -> dict[str, object]:
    """Keyword arguments of a legal sdp_layer call, every part random (legal by construction); `eql` forces
    the EW compare mode on or off."""
    w, h, c = rng.randint(1, 12), rng.randint(1, 4), rng.randint(1, 40)
    if rng.random() < 0.2:
        w = h = 1
    eql = rng.random() < 0.2 if eql is None else eql
    bs, bn, ew = _random_xblock(rng), _random_xblock(rng), _random_ew(rng, eql)
    desc: dict[str, object] = {
        "width": w, "height": h, "channels": c, "bs": bs, "bn": bn, "ew": ew,
        "cvt": OutputCvt() if eql else OutputCvt(rng.randint(-(1 << 31), (1 << 31) - 1),
                                                 rng.randint(-32768, 32767), rng.randint(0, 63)),
        "brdma": _dma_for(rng, bs, 0x100000, w, h, c), "nrdma": _dma_for(rng, bn, 0x200000, w, h, c),
        "erdma": _dma_for(rng, ew, 0x300000, w, h, c),
        "src": Surface(0x1000, w * 8 + 8 * rng.randint(0, 2), 0x800),
        "dst": None if eql and rng.random() < 0.5 else Surface(0x40000, w * 8, 0x800),
        "group": rng.randint(0, 1), "perf": rng.random() < 0.5,
    }
    if not ew.bypass and not ew.lut_bypass or rng.random() < 0.2:
        desc["lut"] = random_lut(rng)
    return desc


@functools.cache
def sigmoid() -> lut_program.LutProgram:
    """The LUT helper's SDP sigmoid (its placement search takes a moment: built once)."""
    return lut_program.sigmoid()


@functools.cache
def tanh() -> lut_program.LutProgram:
    return lut_program.tanh()


def layer(**kw: object) -> SdpProgram:
    """A small valid layer (BS ALU+MUL from memory, BN from registers, EW MUL from memory with the LUT);
    keyword arguments override any part of it."""
    args: dict[str, object] = {
        "width": 9, "height": 3, "channels": 20,
        "bs": XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_from_mem=True, alu_shift=3,
                     mul_bypass=False, mul_from_mem=True, mul_shift=9, relu_bypass=False),
        "bn": XBlock(bypass=False, alu_bypass=False, alu_algo=1, alu_operand=-5, mul_bypass=False,
                     mul_operand=-300, mul_shift=4),
        "ew": EwBlock(bypass=False, mul_bypass=False, mul_from_mem=True,
                      mul_cvt=EwConverter(False, -3, 77, 2), truncate=7, lut_bypass=False),
        "cvt": OutputCvt(-100, -3, 5),
        "brdma": operand_dma(BS_BLOCK, "both", two_byte=True),
        "erdma": operand_dma(OPND, "mul", per_element=True),
        "lut": sigmoid(), "src": SRC, "dst": DST,
    }
    args.update(kw)
    width, height, channels = args.pop("width"), args.pop("height"), args.pop("channels")
    return sdp_layer(width, height, channels, **args)  # type: ignore[arg-type]


# ---- writes: order, content ------------------------------------------------------------------------------

def test_writes_in_kmd_order_and_decode_to_the_fields() -> None:
    prog = layer(group=1)
    regs = [(u, r) for u, r, _v in prog.writes]
    assert regs[:2] == [("SDP", "S_POINTER"), ("SDP_RDMA", "S_POINTER")]
    assert regs[-3:] == [("SDP", "D_PERF_ENABLE"), ("SDP_RDMA", "D_OP_ENABLE"), ("SDP", "D_OP_ENABLE")]
    assert all(v == 1 for _u, _r, v in prog.writes[:2] + prog.writes[-2:])
    # the SDP_RDMA group (feature mode first, then cube, source, BRDMA, NRDMA, ERDMA), then the LUT, then SDP
    first_lut = regs.index(("SDP", "S_LUT_ACCESS_CFG"))
    rdma = [r for u, r in regs[2:first_lut]]
    assert all(u == "SDP_RDMA" for u, _r in regs[2:first_lut])
    assert rdma[0] == "D_FEATURE_MODE_CFG" and rdma.index("D_SRC_BASE_ADDR_LOW") < rdma.index("D_BRDMA_CFG") \
        < rdma.index("D_BS_BASE_ADDR_LOW") < rdma.index("D_NRDMA_CFG") < rdma.index("D_ERDMA_CFG")
    access = [r for _u, r in regs if r.startswith("S_LUT_ACCESS")]
    assert access == ["S_LUT_ACCESS_CFG"] + ["S_LUT_ACCESS_DATA"] * LE_ENTRIES + \
        ["S_LUT_ACCESS_CFG"] + ["S_LUT_ACCESS_DATA"] * LO_ENTRIES
    last_lut = max(i for i, (_u, r) in enumerate(regs) if r.startswith("S_LUT"))
    sdp = [r for _u, r in regs[last_lut + 1:-2]]
    assert all(u == "SDP" and r.startswith("D_") for u, r in regs[last_lut + 1:-2])
    # KMD order inside SDP: cube, destination (HIGH before LOW), BS, BN, EW, feature mode, format, convertor
    order = ["D_DATA_CUBE_WIDTH", "D_DST_BASE_ADDR_HIGH", "D_DST_BASE_ADDR_LOW", "D_DP_BS_CFG", "D_DP_BN_CFG",
             "D_DP_EW_CFG", "D_DP_EW_TRUNCATE_VALUE", "D_FEATURE_MODE_CFG", "D_DATA_FORMAT", "D_CVT_SHIFT"]
    assert [sdp.index(r) for r in order] == sorted(sdp.index(r) for r in order)
    others = [ur for ur in regs if not ur[1].startswith("S_LUT_ACCESS")]
    assert len(set(others)) == len(others)
    for unit, reg, value in prog.writes:
        assert 0 <= value < (1 << 32) and reg in registers.registers(unit)
    decoded = program_fields(prog.writes)
    for unit, fields in prog.fields.items():
        dual = {k: v for k, v in fields.items() if k.startswith("D_")}
        assert {k: decoded[unit][k] for k in dual} == dual
    # every dual register the model reads is written (no stale value of an earlier layer can leak in)
    assert SdpConfig.from_fields(decoded) == prog.config


def test_layer_without_lut_load_writes_no_lut_register() -> None:
    prog = layer(load_lut=False)
    assert not [r for _u, r, _v in prog.writes if r.startswith("S_LUT")]
    assert prog.config == layer().config


def test_signed_values_written_twos_complement() -> None:
    prog = layer(bn=XBlock(bypass=False, alu_bypass=False, alu_operand=-5, mul_bypass=False,
                           mul_operand=-300),
                 ew=EwBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_operand=-1,
                            mul_bypass=False, mul_from_mem=True, mul_cvt=EwConverter(False, -3, -2, 1)),
                 cvt=OutputCvt(-100, -3, 5), lut=None)
    sdp = registers.encode_fields("SDP", prog.fields["SDP"])
    got = (sdp["D_DP_BN_ALU_SRC_VALUE"], sdp["D_DP_BN_MUL_SRC_VALUE"], sdp["D_DP_EW_ALU_SRC_VALUE"],
           sdp["D_DP_EW_MUL_CVT_OFFSET_VALUE"], sdp["D_DP_EW_MUL_CVT_SCALE_VALUE"], sdp["D_CVT_OFFSET"],
           sdp["D_CVT_SCALE"])
    assert got == (0xFFFB, 0xFED4, 0xFFFFFFFF, 0xFFFFFFFD, 0xFFFE, 0xFFFFFF9C, 0xFFFD)
    # nv_small's fixed fields: INT8 everywhere, memory input and output, external memory (MC)
    rdma = registers.encode_fields("SDP_RDMA", prog.fields["SDP_RDMA"])
    assert rdma["D_FEATURE_MODE_CFG"] == 0 and sdp["D_FEATURE_MODE_CFG"] == 0 and sdp["D_DATA_FORMAT"] == 0
    assert rdma["D_SRC_DMA_CFG"] == 1 and sdp["D_DST_DMA_CFG"] == 1


@pytest.mark.parametrize("seed", range(40))
def test_round_trip_fields_give_the_description(seed: int) -> None:
    """fields -> SdpConfig.from_fields (read back as signed values) equals the description."""
    desc = random_description(random.Random(seed))
    prog = sdp_layer(**desc)  # type: ignore[arg-type]
    cfg = SdpConfig.from_fields(prog.fields)
    assert cfg == prog.config
    assert signed_blocks(cfg) == (desc["bs"], desc["bn"], desc["ew"], desc["cvt"])
    assert (cfg.brdma, cfg.nrdma, cfg.erdma) == (desc["brdma"], desc["nrdma"], desc["erdma"])
    src, dst = desc["src"], desc["dst"] or Surface(0, 0, 0)
    assert (cfg.width, cfg.height, cfg.channels) == (desc["width"], desc["height"], desc["channels"])
    assert (cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride) == dataclasses.astuple(src)[:3]
    assert (cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride) == dataclasses.astuple(dst)[:3]
    assert not cfg.flying_in and not cfg.to_pdp
    if "lut" in desc:
        assert LutConfig.from_fields({"SDP": lut_fields(desc["lut"])}, "SDP") == desc["lut"]  # type: ignore


@pytest.mark.parametrize("seed", range(8))
def test_lut_fields_round_trip(seed: int) -> None:
    lut = random_lut(random.Random(seed))
    assert LutConfig.from_fields({"SDP": lut_fields(lut)}, "SDP", (lut.le, lut.lo)) == lut


def test_lut_program_accepted_as_is() -> None:
    prog = layer(lut=tanh())
    assert prog.lut == tanh().lut_config()
    assert {k: v for k, v in prog.fields["SDP"].items() if k.startswith("S_LUT")} == tanh().fields()


def test_output_to_pdp_and_eql_need_no_destination() -> None:
    pdp = layer(to_pdp=True, dst=None, cvt=OutputCvt())
    assert pdp.fields["SDP"]["D_FEATURE_MODE_CFG.OUTPUT_DST"] == 1 and pdp.config.to_pdp
    eql = layer(ew=EwBlock(bypass=False, alu_bypass=False, alu_algo=ALU_EQL, alu_from_mem=True),
                cvt=OutputCvt(),
                brdma=OperandDma(), bs=XBlock(), erdma=operand_dma(OPND, "alu", per_element=True), dst=None,
                lut=None)
    assert eql.config.ew.eql and eql.fields["SDP"]["D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW"] == 0


# ---- the writes, replayed on the model's register interface ------------------------------------------------

def _run_on_target(target: ModelTarget, writes: tuple[tuple[str, str, int], ...]) -> None:
    for unit, reg, value in writes:
        target.reg_write(unit, reg, value)


@pytest.mark.parametrize("seed", range(12))
def test_writes_replayed_on_the_model_run_the_drivers_config(seed: int) -> None:
    """Every write through the register model (LUT access port included): the layer it runs is the one
    prog.config describes (run_sdp with the driver's LUT), output, statistics and D_STATUS."""
    rng = random.Random(1000 + seed)
    desc = random_description(rng, eql=True if seed % 4 == 3 else None)
    desc["group"] = 0
    prog = sdp_layer(**desc)  # type: ignore[arg-type]
    data = np.frombuffer(rng.randbytes(0x4000), dtype=np.uint8)
    target, mem = ModelTarget(), Memory()
    for m in (target.memories[0], mem):
        for base in (0x1000, 0x40000, 0x100000, 0x200000, 0x300000):
            m.write(base, data)
    _run_on_target(target, prog.writes)
    res = run_sdp(prog.config, mem, lut_tables=prog.lut_tables)
    assert [r.group for r in target.runs] == [0]
    np.testing.assert_array_equal(target.mem_read(0, 0x40000, 0x4000), mem.read(0x40000, 0x4000))
    stats = target.runs[-1].stats
    # the first layer after reset: an enabled counter holds its count, a disabled one its reset value 0
    sat, lut = (res.saturation_count, res.lut_stats) if desc["perf"] else (0, dict.fromkeys(res.lut_stats, 0))
    assert stats["D_PERF_OUT_SATURATION"] == sat
    assert stats["D_STATUS"] == int(res.status_unequal)
    assert {k: stats[f"D_PERF_LUT_{k.upper()}"] for k in res.lut_stats} == lut


def test_group_one_and_shared_lut() -> None:
    """Group 1 behind group 0, the LUT loaded once (load_lut=False for the second layer)."""
    a, b = layer(group=0), layer(group=1, load_lut=False, cvt=OutputCvt(5, 2, 3))
    target, mem = ModelTarget(), Memory()
    data = np.frombuffer(random.Random(3).randbytes(0x1000), dtype=np.uint8)
    for m in (target.memories[0], mem):
        for base in (0x1000, 0x80000):
            m.write(base, data)
    _run_on_target(target, a.writes)
    _run_on_target(target, b.writes)
    run_sdp(a.config, mem, lut_tables=a.lut_tables)
    res = run_sdp(b.config, mem, lut_tables=a.lut_tables)
    assert [r.group for r in target.runs] == [0, 1]
    np.testing.assert_array_equal(target.mem_read(0, 0x40000, 0x1000), mem.read(0x40000, 0x1000))
    assert target.runs[-1].stats["D_PERF_OUT_SATURATION"] == res.saturation_count


# ---- NVIDIA's traces: the same layer description gives NVIDIA's registers --------------------------------

def _trace_program(folder: Path) -> tuple[dict[str, dict[str, int]], LutRam]:
    values: dict[str, dict[str, int]] = {}
    ram = LutRam(saturating=False)
    for step in trace_steps(folder):
        if not isinstance(step, RegWrite) or step.unit not in ("SDP", "SDP_RDMA"):
            continue
        if step.reg == "S_LUT_ACCESS_CFG":
            ram.write_cfg(step.value)
        elif step.reg == "S_LUT_ACCESS_DATA":
            ram.write_data(step.value)
        else:
            values.setdefault(step.unit, {})[step.reg] = step.value
    return {u: registers.decode_fields(u, regs) for u, regs in values.items()}, ram


SDP_TRACES = [f for f in default_trace_folders("nv_small") if f.name.startswith("sdp_")]
# Rules this driver keeps that NVIDIA's trace generator does not (the model runs those traces as they are).
# (the overlap rule compares bounding ranges: a trace may interleave cubes whose bytes never meet)
_STRICTER = ("operands come from external memory", "MUST be bypassed", "is enabled but no active ALU",
             "must not overlap")
# Fields the driver computes from the description (D_PERF_*, D_CYA and status registers are the generator's).
_COMPARED = ("D_DATA_CUBE", "D_SRC_BASE_ADDR_LOW", "D_SRC_LINE", "D_SRC_SURFACE", "D_DST_BASE_ADDR_LOW",
             "D_DST_LINE", "D_DST_SURFACE", "D_DP_", "D_CVT", "D_DATA_FORMAT", "D_FEATURE_MODE_CFG",
             "D_BRDMA_CFG", "D_NRDMA_CFG", "D_ERDMA_CFG", "S_LUT_CFG", "S_LUT_INFO", "S_LUT_L")


def _trace_dma(dma: OperandDma) -> OperandDma:
    """The trace's DMA as a description: a disabled one keeps nothing (traces write random addresses)."""
    return dma if dma.enabled else OperandDma()


def _generator_choice(cfg: SdpConfig, unit: str, key: str) -> bool:
    """Fields NVIDIA's trace generator sets at random because the layer does not use them: the
    configuration of a disabled operand DMA, the destination when nothing is written, NAN_TO_ZERO (FP16
    data only; nv_small is INT8)."""
    dmas = {"D_BRDMA_CFG": cfg.brdma, "D_NRDMA_CFG": cfg.nrdma, "D_ERDMA_CFG": cfg.erdma}
    reg = key.split(".", 1)[0]
    if unit == "SDP_RDMA" and reg in dmas and not key.endswith("_DISABLE"):
        return not dmas[reg].enabled
    if unit == "SDP" and reg.startswith("D_DST_"):
        return cfg.ew.eql or cfg.to_pdp
    return key.endswith("NAN_TO_ZERO")


@pytest.mark.skipif(not SDP_TRACES, reason=f"no NVDLA SDP traces under {trace_roots('nv_small')}")
@pytest.mark.parametrize("folder", SDP_TRACES, ids=[f.name for f in SDP_TRACES])
def test_driver_reproduces_nvidia_trace_registers(folder: Path) -> None:
    f, ram = _trace_program(folder)
    cfg = SdpConfig.from_fields(f)
    bs, bn, ew, cvt = signed_blocks(cfg)
    # traces program LUT registers they do not use: the LUT is part of the layer only when the EW LUT runs
    lut = None if cfg.ew.bypass or cfg.ew.lut_bypass else LutConfig.from_fields(f, "SDP", ram.tables())
    try:
        prog = sdp_layer(cfg.width, cfg.height, cfg.channels, bs=bs, bn=bn, ew=ew, cvt=cvt,
                         brdma=_trace_dma(cfg.brdma), nrdma=_trace_dma(cfg.nrdma),
                         erdma=_trace_dma(cfg.erdma), lut=lut,
                         src=Surface(cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride),
                         dst=None if cfg.to_pdp or cfg.ew.eql else
                         Surface(cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride),
                         to_pdp=cfg.to_pdp)
    except ConfigError as err:
        assert any(s in err.rule for s in _STRICTER), f"{folder.name}: rejected by {err}"
        pytest.skip(f"the driver keeps a rule this trace breaks: {err.rule}")
    for unit in ("SDP", "SDP_RDMA"):
        trace = f[unit]
        for key, value in prog.fields[unit].items():
            if key.startswith(_COMPARED) and key in trace and not _generator_choice(cfg, unit, key):
                assert value == trace[key], \
                    f"{folder.name}: {unit}.{key} driver {value:#x}, trace {trace[key]:#x}"
    # the trace's own configuration is the driver's, up to what the generator chose at random
    unused = {k: getattr(prog.config, k) for k in ("brdma", "nrdma", "erdma")
              if not getattr(cfg, k).enabled}
    if cfg.ew.eql or cfg.to_pdp:
        unused |= {k: getattr(prog.config, k) for k in ("dst_base", "dst_line_stride", "dst_surface_stride")}
    assert prog.config == dataclasses.replace(cfg, **unused)


# ---- validation: every rejection names its rule --------------------------------------------------------

_X_ON = XBlock(bypass=False, alu_bypass=False, mul_bypass=False)
_EQL = EwBlock(bypass=False, alu_bypass=False, alu_algo=ALU_EQL)


@pytest.mark.parametrize(("change", "rule"), [
    ({"width": 0}, "cube width, height and channels must be >= 1"),
    ({"channels": 8193}, "CHANNEL does not fit its 13-bit register field"),
    ({"group": 2}, "register group must be 0 or 1"),
    ({"src": None}, "the input comes from memory (src) or on the fly from the convolution pipeline"),
    ({"dst": None}, "an output to memory needs its dst surface"),
    ({"bn": dataclasses.replace(_X_ON, alu_algo=ALU_EQL)}, "BN_ALU_ALGO must be MAX, MIN or SUM"),
    ({"ew": EwBlock(bypass=False, alu_bypass=False, alu_algo=4)}, "EW_ALU_ALGO must be MAX, MIN, SUM or EQL"),
    ({"bn": dataclasses.replace(_X_ON, alu_operand=40000)}, "BN_ALU_OPERAND is a signed 16-bit value"),
    ({"bn": dataclasses.replace(_X_ON, mul_operand=-32769)}, "BN_MUL_OPERAND is a signed 16-bit value"),
    ({"bn": dataclasses.replace(_X_ON, alu_shift=64)}, "BN_ALU_SHIFT_VALUE is 0..63"),
    ({"bn": dataclasses.replace(_X_ON, mul_shift=64)}, "BN_MUL_SHIFT_VALUE is 0..63"),
    ({"ew": EwBlock(bypass=False, alu_bypass=False, alu_operand=1 << 31)},
     "EW_ALU_OPERAND is a signed 32-bit value"),
    ({"ew": EwBlock(bypass=False, mul_bypass=False, mul_operand=-(1 << 31) - 1)},
     "EW_MUL_OPERAND is a signed 32-bit value"),
    ({"ew": EwBlock(bypass=False, mul_bypass=False, mul_cvt=EwConverter(False, 1 << 31, 1, 0))},
     "EW_MUL_CVT_OFFSET is a signed 32-bit value"),
    ({"ew": EwBlock(bypass=False, alu_cvt=EwConverter(False, 0, 1 << 15, 0))},
     "EW_ALU_CVT_SCALE is a signed 16-bit value"),
    ({"ew": EwBlock(bypass=False, alu_cvt=EwConverter(False, 0, 1, 64))}, "EW_ALU_CVT_TRUNCATE is 0..63"),
    ({"ew": EwBlock(bypass=False, truncate=1024)}, "EW_TRUNCATE is 0..1023"),
    ({"cvt": OutputCvt(1 << 31, 1, 0)}, "CVT_OFFSET is a signed 32-bit value"),
    ({"cvt": OutputCvt(0, -32769, 0)}, "CVT_SCALE is a signed 16-bit value"),
    ({"cvt": OutputCvt(0, 1, 64)}, "CVT_SHIFT is 0..63"),
    ({"brdma": dataclasses.replace(operand_dma(OPND, "both"), data_use=3)},
     "BRDMA_DATA_USE must be MUL (0), ALU (1) or BOTH (2)"),
    ({"lut": LutConfig(unit="CDP")}, "the LUT must be an SDP LUT"),
    ({"lut": LutConfig(unit="SDP", le_start=1 << 31, le_end=(1 << 31) + 64)},
     "LUT_LE_START is a signed 32-bit value"),
    ({"lut": LutConfig(unit="SDP", lo_uflow_shift=16)}, "LUT_LO_UFLOW_SHIFT is a signed 5-bit value"),
    ({"lut": LutConfig(unit="SDP", lo_end=300)}, "LO_END-LO_START == 1<<(LO_INDEX_SELECT+8)"),
    ({"lut": LutConfig(unit="SDP", le_index_select=26, le_end=1 << 32)},
     "LUT_LE_END is a signed 32-bit value"),
    ({"lut": None}, "the EW LUT is not bypassed, so the layer needs a LUT"),
    # models/sdp.validate (seed 001), through SdpConfig.from_fields
    ({"bn": dataclasses.replace(_X_ON, alu_from_mem=True)},
     "an operand from memory needs its read DMA enabled"),
    ({"nrdma": operand_dma(OPND, "alu")},
     "when SRC is configured as REG, corresponding RDMA shouldn't be enabled"),
    ({"brdma": operand_dma(BS_BLOCK, "alu", two_byte=True)},
     "RDMA DATA_USE must match the operands taken from memory"),
    ({"ew": dataclasses.replace(_EQL, alu_from_mem=True, alu_cvt=EwConverter(False, 1, 1, 0)),
      "erdma": operand_dma(OPND, "alu", per_element=True), "cvt": OutputCvt(), "lut": None},
     "SDP EQL: Y ALU convertor must be bypassed"),
    ({"ew": dataclasses.replace(_EQL, mul_bypass=False, mul_from_mem=True, lut_bypass=False),
      "cvt": OutputCvt()}, "SDP EQL: all the operations after ALU should be bypassed"),
    ({"ew": dataclasses.replace(_EQL, mul_bypass=False, mul_from_mem=True), "lut": None},
     "precision conversion is not allowed if SDP output to PDP or EQL mode"),
    ({"to_pdp": True, "dst": None}, "precision conversion is not allowed if SDP output to PDP or EQL mode"),
    # sdp.advisories: the model runs it (an NVIDIA trace does it), the driver keeps the rule
    ({"bn": XBlock(bypass=False, alu_bypass=False, mul_bypass=False, mul_prelu=True)},
     "if PReLU is enabled for one sub-unit, the ALU in that unit MUST be bypassed"),
    ({"nrdma": operand_dma(OPND, "alu"), "bn": XBlock()}, "NRDMA is enabled but no active ALU or MUL of BN"),
    # models/sdp.check_memory_layout (seed 001 data format)
    ({"src": Surface(0x1004, 0x100, 0x1000)}, "alignment for SRC address/line_stride/surf_stride"),
    ({"dst": Surface(0x40000, 0x40, 0x1000)},
     "DST_LINE_STRIDE has to be bigger than the actual size per line"),
    ({"dst": Surface(0x40000, 0x100, 0x200)}, "DST_SURFACE_STRIDE must hold a whole surface"),
    ({"erdma": operand_dma(Surface(0x80000, 0x40, 0x800), "mul", per_element=True)},
     "EW_LINE_STRIDE has to be bigger than the actual size per line"),
    ({"brdma": operand_dma(Surface(0x60004, 0, 0), "both", two_byte=True)}, "alignment for BS address"),
    # placement
    ({"dst": Surface(0xFFFFFF00, 0x100, 0x1000)}, "DST cube must lie inside the 32-bit address space"),
    ({"erdma": operand_dma(Surface(0xFFFFF000, 0x200, 0x2000), "mul", per_element=True)},
     "EW cube must lie inside the 32-bit address space"),
    ({"dst": Surface(0x1100, 0x100, 0x1000)}, "the destination must not overlap the SRC cube"),
    # the BS block: 3 surfaces of 4-byte elements per channel = 96 bytes from its base
    ({"dst": Surface(BS_BLOCK.base + 0x58, 0x100, 0x1000)}, "the destination must not overlap the BS cube"),
    ({"dst": OPND}, "the destination must not overlap the EW cube"),
])
def test_invalid_layers_rejected_with_the_rule(change: dict[str, object], rule: str) -> None:
    with pytest.raises(ConfigError) as info:
        layer(**change)
    assert rule in info.value.rule, info.value


def test_operand_dma_use_names() -> None:
    assert operand_dma(OPND, "alu").data_use == USE_ALU and operand_dma(OPND, "mul").data_use == USE_MUL
    assert operand_dma(OPND, "both", two_byte=True).bytes_per_element == 4
    assert operand_dma(OPND, "both").data_use == USE_BOTH
    with pytest.raises(ConfigError, match="use is 'alu', 'mul' or 'both'"):
        operand_dma(OPND, "sum")
