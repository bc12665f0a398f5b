"""The CDP driver layer (models/cdp/driver.py): register values, write order, validation, and that the writes
program exactly the layer the driver's model configuration describes."""

from __future__ import annotations

import dataclasses
import functools
import random
from pathlib import Path

import numpy as np
import pytest

from models import registers
from models.cdp.driver import CdpProgram, Convertor, Surface, cdp_layer, lut_fields, program_fields
from models.cdp.model import CdpConfig, run_cdp
from models.common.memory import Memory
from models.common.precision import as_signed
from models.errors import ConfigError
from models.lut.model import EXPONENT, LE_ENTRIES, LINEAR, LO_ENTRIES, LutConfig, LutRam
from models.steps import RegWrite
from models.subsystem import ModelTarget
from models.trace import default_trace_folders, trace_roots, trace_steps

# written to nv_small's sizes (8-byte atom, 448-column PDP line buffer): strides and expected fields
pytestmark = pytest.mark.configuration("nv_small")

SRC = Surface(0x1000, 0x100, 0x1000)
DST = Surface(0x40000, 0x100, 0x1000)


def random_lut(rng: random.Random, exponent: bool = False, aimed: bool = False) -> LutConfig:
    """A valid CDP LUT: random tables, slopes and priorities, START of either sign and past 32 bits; or,
    `aimed`, tables over the square sums of int8 data (up to 2^20) so that most inputs hit them."""
    if aimed:
        # LE from about 0 over the small sums, LO from a little higher up: sums below LO_START hit LE alone,
        # and LO wins where both hit (HYBRID_PRIORITY below)
        lo_sel, le_sel = rng.randint(9, 12), rng.randint(8, 10)
        lo_start, le_start = rng.randint(500, 3000), rng.randint(-4096, 0)
    else:
        lo_sel, le_sel = rng.randint(-8, 13), rng.randint(-6, 15)
        lo_start, le_start = rng.randint(-(1 << 36), 1 << 36), rng.randint(-(1 << 36), 1 << 36)
    table = lambda n: np.array([rng.randint(-32768, 32767) for _ in range(n)], dtype=np.int64)  # noqa: E731
    slopes = {f"{t}_{f}_{k}": (rng.randint(-32768, 32767) if k == "scale" else rng.randint(-16, 15))
              for t in ("le", "lo") for f in ("uflow", "oflow") for k in ("scale", "shift")}
    offset = rng.randint(0, 6) if aimed else rng.randint(-64, 20)
    le = ({"le_function": EXPONENT, "le_index_offset": offset, "le_end": le_start + 12345}
          if exponent else
          {"le_function": LINEAR, "le_index_select": le_sel, "le_end": le_start + (1 << (le_sel + 6))})
    return LutConfig(unit="CDP", le_start=le_start, lo_index_select=lo_sel, lo_start=lo_start,
                     lo_end=lo_start + (1 << (lo_sel + 8)), uflow_priority=rng.randint(0, 1),
                     oflow_priority=rng.randint(0, 1), hybrid_priority=1 if aimed else rng.randint(0, 1),
                     le=table(LE_ENTRIES), lo=table(LO_ENTRIES), **le, **slopes)


@functools.cache
def small_lut() -> LutConfig:
    return random_lut(random.Random(6))


def layer(**kw: object) -> CdpProgram:
    """A small valid layer; keyword arguments override any part of it."""
    args: dict[str, object] = {"width": 9, "height": 3, "channels": 20, "local_size": 5,
                               "datin": Convertor(-3, 300, 4), "datout": Convertor(1000, -77, 9),
                               "lut": small_lut(), "src": SRC, "dst": DST}
    args.update(kw)
    width, height, channels = args.pop("width"), args.pop("height"), args.pop("channels")
    return cdp_layer(width, height, channels, **args)  # type: ignore[arg-type]


# ---- writes: order, content ------------------------------------------------------------------------------

def test_writes_in_kmd_order_and_decode_to_the_fields() -> None:
    prog = layer(group=1)
    regs = [(u, r) for u, r, _v in prog.writes]
    assert regs[:2] == [("CDP", "S_POINTER"), ("CDP_RDMA", "S_POINTER")]
    assert regs[-2:] == [("CDP_RDMA", "D_OP_ENABLE"), ("CDP", "D_OP_ENABLE")]
    assert all(v == 1 for _u, _r, v in prog.writes[:2] + prog.writes[-2:])
    # the RDMA group, then the LUT (tables, then its registers), then the CDP group
    first_lut = regs.index(("CDP", "S_LUT_ACCESS_CFG"))
    assert all(u == "CDP_RDMA" for u, _r in regs[2:first_lut])
    access = [r for _u, r in regs if r.startswith("S_LUT_ACCESS")]
    assert access == ["S_LUT_ACCESS_CFG"] + ["S_LUT_ACCESS_DATA"] * LE_ENTRIES + \
        ["S_LUT_ACCESS_CFG"] + ["S_LUT_ACCESS_DATA"] * LO_ENTRIES
    last_lut = max(i for i, (_u, r) in enumerate(regs) if r.startswith("S_LUT"))
    assert all(u == "CDP" and r.startswith("D_") for u, r in regs[last_lut + 1:-2])
    others = [ur for ur in regs if not ur[1].startswith("S_LUT_ACCESS")]
    assert len(set(others)) == len(others)
    for unit, reg, value in prog.writes:
        assert 0 <= value < (1 << 32) and reg in registers.registers(unit)
    decoded = program_fields(prog.writes)
    for unit, fields in prog.fields.items():
        dual = {k: v for k, v in fields.items() if k.startswith("D_")}
        assert {k: decoded[unit][k] for k in dual} == dual


def test_layer_without_lut_load_writes_no_lut_register() -> None:
    prog = layer(load_lut=False)
    assert not [r for _u, r, _v in prog.writes if r.startswith("S_LUT")]
    assert prog.config == layer().config


def test_signed_values_sign_extended_like_nvidia_traces() -> None:
    # cdp_8x8x64_lrn3_int8_12: DATIN_OFFSET -100 is 0xff9c, DATIN_SCALE -2 is 0xfffe;
    # cdp_8x8x64_lrn3_int8_11: DATOUT_OFFSET -33 is 0xffffffdf
    prog = layer(datin=Convertor(-100, -2, 3), datout=Convertor(-33, 9, 2), local_size=3)
    cdp = registers.encode_fields("CDP", prog.fields["CDP"])
    got = (cdp["D_DATIN_OFFSET"], cdp["D_DATIN_SCALE"], cdp["D_DATOUT_OFFSET"])
    assert got == (0xFF9C, 0xFFFE, 0xFFFFFFDF)
    assert cdp["D_LRN_CFG"] == 0 and cdp["D_DATIN_SHIFTER"] == 3 and cdp["D_DATOUT_SHIFTER"] == 2


@pytest.mark.parametrize("seed", range(6))
def test_lut_fields_round_trip(seed: int) -> None:
    lut = random_lut(random.Random(seed), exponent=bool(seed % 2))
    back = LutConfig.from_fields({"CDP": lut_fields(lut)}, "CDP", (lut.le, lut.lo))
    assert back == lut


@pytest.mark.parametrize("seed", range(4))
def test_writes_replayed_on_the_model_run_the_drivers_config(seed: int) -> None:
    """Every write through the register model (LUT access port included): the layer it runs is the one
    prog.config describes, output and statistics."""
    rng = random.Random(seed)
    w, h, c = rng.randint(3, 12), rng.randint(1, 4), rng.randint(9, 30)
    prog = layer(width=w, height=h, channels=c, local_size=rng.choice([3, 5, 7, 9]), group=seed % 2,
                 datin=Convertor(rng.randint(-3, 3), 1, 0),
                 mul_bypass=rng.random() < 0.3,
                 src=Surface(0x1000, w * 8 + 8, (w * 8 + 8) * h + 64), dst=Surface(0x40000, w * 8, w * h * 8),
                 lut=random_lut(rng, exponent=rng.random() < 0.5, aimed=True))
    data = np.frombuffer(rng.randbytes(0x3000), dtype=np.uint8)
    target, mem = ModelTarget(), Memory()
    for m in (target.memories[0], mem):
        m.write(0x1000, data)
        m.write(0x40000, data)
    if seed % 2:
        # group 1 runs only after a group-0 layer: a first layer of this same program in group 0
        first = dataclasses.replace(prog, writes=tuple((u, r, 0 if r == "S_POINTER" else v)
                                                       for u, r, v in prog.writes))
        for unit, reg, value in first.writes:
            target.reg_write(unit, reg, value)
        run_cdp(prog.config, mem)
    for unit, reg, value in prog.writes:
        target.reg_write(unit, reg, value)
    res = run_cdp(prog.config, mem)
    assert [r.group for r in target.runs] == list(range(seed % 2 + 1))
    np.testing.assert_array_equal(target.mem_read(0, 0x40000, 0x3000), mem.read(0x40000, 0x3000))
    # both tables in use (LUT result taken from each), or one of them would go unchecked
    assert res.lut is not None and {0, 1} <= set(np.unique(res.lut.table).tolist())
    stats = target.runs[-1].stats
    assert stats["D_OUT_SATURATION"] == res.out_saturation
    assert {k: stats[f"D_PERF_LUT_{k.upper()}"] for k in res.lut_counts} == res.lut_counts


# ---- NVIDIA's traces: the same layer description gives NVIDIA's registers --------------------------------

def _trace_program(folder: Path) -> tuple[dict[str, dict[str, int]], LutRam]:
    values: dict[str, dict[str, int]] = {}
    ram = LutRam(saturating=True)
    for step in trace_steps(folder):
        if not isinstance(step, RegWrite) or step.unit not in ("CDP", "CDP_RDMA"):
            continue
        if step.reg == "S_LUT_ACCESS_CFG":
            ram.write_cfg(step.value)
        elif step.reg == "S_LUT_ACCESS_DATA":
            ram.write_data(step.value)
        else:
            values.setdefault(step.unit, {})[step.reg] = step.value
    return {u: registers.decode_fields(u, regs) for u, regs in values.items()}, ram


CDP_TRACES = [f for f in default_trace_folders("nv_small") if f.name.startswith("cdp_")]
# Fields the driver computes from the description; D_PERF_ENABLE and D_CYA are the trace generator's choice.
_COMPARED = ("D_DATA_CUBE", "D_SRC", "D_DST", "D_DATA_FORMAT", "D_LRN_CFG", "D_DATIN", "D_DATOUT",
             "D_FUNC_BYPASS", "S_LUT_CFG", "S_LUT_INFO", "S_LUT_L")


@pytest.mark.skipif(not CDP_TRACES, reason=f"no NVDLA CDP traces under {trace_roots('nv_small')}")
@pytest.mark.parametrize("folder", CDP_TRACES, ids=[f.name for f in CDP_TRACES])
def test_driver_reproduces_nvidia_trace_registers(folder: Path) -> None:
    f, ram = _trace_program(folder)
    c, r = f["CDP"], f["CDP_RDMA"]
    lut = LutConfig.from_fields(f, "CDP", ram.tables())
    prog = cdp_layer(
        r["D_DATA_CUBE_WIDTH.WIDTH"] + 1, r["D_DATA_CUBE_HEIGHT.HEIGHT"] + 1,
        r["D_DATA_CUBE_CHANNEL.CHANNEL"] + 1,
        local_size=2 * c["D_LRN_CFG.NORMALZ_LEN"] + 3, sqsum_bypass=bool(c["D_FUNC_BYPASS.SQSUM_BYPASS"]),
        mul_bypass=bool(c["D_FUNC_BYPASS.MUL_BYPASS"]),
        datin=Convertor(int(as_signed(c["D_DATIN_OFFSET.DATIN_OFFSET"] & 0xFF, 8)),
                        int(as_signed(c["D_DATIN_SCALE.DATIN_SCALE"], 16)),
                        c["D_DATIN_SHIFTER.DATIN_SHIFTER"]),
        datout=Convertor(int(as_signed(c["D_DATOUT_OFFSET.DATOUT_OFFSET"] & 0x1FFFFFF, 25)),
                         int(as_signed(c["D_DATOUT_SCALE.DATOUT_SCALE"], 16)),
                         c["D_DATOUT_SHIFTER.DATOUT_SHIFTER"]),
        lut=lut,
        src=Surface(r["D_SRC_BASE_ADDR_LOW.SRC_BASE_ADDR_LOW"], r["D_SRC_LINE_STRIDE.SRC_LINE_STRIDE"],
                    r["D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE"]),
        dst=Surface(c["D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW"], c["D_DST_LINE_STRIDE.DST_LINE_STRIDE"],
                    c["D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE"]))
    offsets = {"D_DATIN_OFFSET.DATIN_OFFSET": 0xFF, "D_DATOUT_OFFSET.DATOUT_OFFSET": 0x1FFFFFF}
    for unit, trace in (("CDP", c), ("CDP_RDMA", r)):
        for key, value in prog.fields[unit].items():
            if key.startswith(_COMPARED):
                mask = offsets.get(key, -1)   # offsets: the bits the datapath uses (one trace does not
                assert value & mask == trace[key] & mask, f"{unit}.{key}"   # sign-extend DATIN_OFFSET)
    # the trace's own CDP_RDMA and CDP configuration is the driver's
    trace_cfg = CdpConfig.from_fields(f, tables=ram.tables())
    norm = lambda cfg: dataclasses.replace(  # noqa: E731
        cfg, datin_offset=int(as_signed(cfg.datin_offset & 0xFF, 8)),
        datout_offset=int(as_signed(cfg.datout_offset & 0x1FFFFFF, 25)))
    assert norm(prog.config) == norm(trace_cfg)
    np.testing.assert_array_equal(prog.config.lut.le, trace_cfg.lut.le)
    np.testing.assert_array_equal(prog.config.lut.lo, trace_cfg.lut.lo)


# ---- validation: every rejection names its rule --------------------------------------------------------

@pytest.mark.parametrize(("change", "rule"), [
    ({"width": 0}, "cube width, height and channels must be >= 1"),
    ({"channels": 8193}, "CHANNEL does not fit its 13-bit register field"),
    ({"local_size": 4}, "local_size must be 3, 5, 7 or 9"),
    ({"local_size": 11}, "local_size must be 3, 5, 7 or 9"),
    ({"group": 2}, "register group must be 0 or 1"),
    ({"datin": Convertor(128, 1, 0)}, "DATIN_OFFSET is a signed 8-bit value at INT8"),
    ({"datin": Convertor(0, 40000, 0)}, "DATIN_SCALE is a signed 16-bit value"),
    ({"datin": Convertor(0, 1, 32)}, "DATIN_SHIFTER is 0..31"),
    ({"datout": Convertor(1 << 24, 1, 0)}, "DATOUT_OFFSET is a signed 25-bit value"),
    ({"datout": Convertor(0, -32769, 0)}, "DATOUT_SCALE is a signed 16-bit value"),
    ({"datout": Convertor(0, 1, 64)}, "DATOUT_SHIFTER is 0..63"),
    ({"lut": LutConfig(unit="SDP")}, "the LUT must be a CDP LUT"),
    ({"lut": dataclasses.replace(LutConfig(unit="CDP"), lo_end=300)},
     "LO_END-LO_START == 1<<(LO_INDEX_SELECT+8)"),
    ({"src": Surface(0x1004, 0x100, 0x1000)}, "alignment for SRC address/line_stride/surf_stride"),
    ({"dst": Surface(0x40000, 0x40, 0x1000)}, "DST_LINE_STRIDE has to be bigger than the actual size"),
    ({"dst": Surface(0x40000, 0x100, 0x200)}, "DST_SURFACE_STRIDE must hold a whole surface"),
    ({"dst": Surface(0x1100, 0x100, 0x1000)}, "the destination must not overlap the SRC cube"),
    ({"dst": Surface(0xFFFFFF00, 0x100, 0x1000)}, "DST cube must lie inside the 32-bit address space"),
])
def test_invalid_layers_rejected_with_the_rule(change: dict[str, object], rule: str) -> None:
    with pytest.raises(ConfigError) as info:
        layer(**change)
    assert rule in info.value.rule, info.value
