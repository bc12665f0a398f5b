"""The PDP driver layer (models/pdp/driver.py): register values, write order, validation, split planning."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from models import registers
from models.common.cube import CubeLayout
from models.common.driver import program_fields
from models.common.memory import Memory
from models.errors import ConfigError
from models.pdp.driver import (
    PdpProgram,
    SplitWidths,
    Surface,
    pad_value_field,
    pdp_layer,
    plan_split,
    recip_kernel,
)
from models.pdp.model import AVERAGE, MAX, max_band_width, pad_term, run_pdp
from models.steps import RegWrite
from models.trace import default_trace_folders, trace_roots, trace_steps

# written to nv_small's sizes (8-byte atom, 448-column PDP line buffer): strides and expected fields
pytestmark = pytest.mark.configuration("nv_small")

SRC = Surface(0x1000, 0x100, 0x1000)
DST = Surface(0x40000, 0x100, 0x1000)


def layer(**kw: object) -> PdpProgram:
    """A small valid layer; keyword arguments override any part of it."""
    args: dict[str, object] = {"width": 8, "height": 6, "channels": 16, "method": "average",
                               "kernel": (3, 3), "stride": (1, 1), "pads": (1, 1, 1, 1), "pad_value": 0,
                               "src": SRC, "dst": DST}
    args.update(kw)
    width, height, channels = args.pop("width"), args.pop("height"), args.pop("channels")
    return pdp_layer(width, height, channels, **args)  # type: ignore[arg-type]


# ---- values computed as NVIDIA's software does ----------------------------------------------------------

@pytest.mark.parametrize("kernel", range(1, 9))
def test_recip_is_the_kmd_int8_table(kernel: int) -> None:
    # kmd/firmware/pdp.c recip_kernel_size[0]: 2^16/k truncated (0x10000 ... 0x2000)
    table = (0x10000, 0x8000, 0x5555, 0x4000, 0x3333, 0x2AAA, 0x2492, 0x2000)
    assert recip_kernel(kernel) == table[kernel - 1]
    prog = layer(kernel=(kernel, 9 - kernel), pads=(0, 0, 0, 0), width=8, height=8)
    assert prog.fields["PDP"]["D_RECIP_KERNEL_WIDTH.RECIP_KERNEL_WIDTH"] == table[kernel - 1]
    assert prog.fields["PDP"]["D_RECIP_KERNEL_HEIGHT.RECIP_KERNEL_HEIGHT"] == table[8 - kernel]


@pytest.mark.parametrize("pad", [-128, -77, -1, 0, 1, 85, 127])
def test_pad_values_are_multiples_the_model_reads_back(pad: int) -> None:
    prog = layer(pad_value=pad)
    for n in range(1, 8):
        raw = prog.fields["PDP"][f"D_POOLING_PADDING_VALUE_{n}_CFG.PAD_VALUE_{n}X"]
        assert raw == pad_value_field(pad, n) < (1 << 19)
        assert pad_term(raw) == n * pad  # the 19-bit field read as signed gives n * pad back
    assert prog.config.pad_values == tuple(pad_value_field(pad, n) for n in range(1, 8))


def test_hand_computed_average_with_pad_value() -> None:
    # 2x2 input, kernel 2x2, stride 1, pad right 1 column of value -4: window (0,1) holds x[0,1], x[1,1]
    # and one padded column of 2 rows -> sum = 3 + 5 + 2 * (-4) = 0; window (0,0) = 1+3+2+5 = 11 ->
    # rnd(rnd(11 * 0x8000 / 2^16) * 0x8000 / 2^16) = rnd(rnd(5.5) / 2) = rnd(3) = 3.
    prog = pdp_layer(2, 2, 1, kernel=(2, 2), pads=(0, 1, 0, 0), pad_value=-4,
                     src=Surface(0x100, 16, 32), dst=Surface(0x200, 16, 16))
    mem = Memory()
    CubeLayout(0x100, 16, 32, 2, 2, 1).write(mem, np.array([[[1, 3], [2, 5]]], dtype=np.int8))
    run_pdp(prog.config, mem)
    out = CubeLayout(0x200, 16, 16, 2, 1, 1).read(mem)
    assert out[0, 0].tolist() == [3, 0]


# ---- writes: order, content, groups --------------------------------------------------------------------

def test_writes_in_kmd_order_and_decode_to_the_fields() -> None:
    prog = layer(group=1)
    units_regs = [(u, r) for u, r, _v in prog.writes]
    assert units_regs[:2] == [("PDP", "S_POINTER"), ("PDP_RDMA", "S_POINTER")]
    assert units_regs[-2:] == [("PDP_RDMA", "D_OP_ENABLE"), ("PDP", "D_OP_ENABLE")]
    assert all(v == 1 for _u, _r, v in prog.writes[:2] + prog.writes[-2:])
    # RDMA group before the PDP group, each register once
    first_pdp = units_regs.index(("PDP", "D_DATA_CUBE_IN_WIDTH"))
    assert all(u == "PDP_RDMA" for u, _r in units_regs[2:first_pdp])
    assert len(set(units_regs)) == len(units_regs)
    for unit, reg, value in prog.writes:
        assert 0 <= value < (1 << 32) and reg in registers.registers(unit)
    decoded = program_fields(prog.writes)
    for unit, fields in prog.fields.items():
        assert {k: decoded[unit][k] for k in fields} == fields


def test_on_the_fly_layer_leaves_the_rdma_alone() -> None:
    prog = layer(src=None)
    assert prog.config.flying
    assert [(u, r) for u, r, _v in prog.writes if u == "PDP_RDMA"] == [("PDP_RDMA", "S_POINTER")]
    assert prog.fields["PDP"]["D_OPERATION_MODE_CFG.FLYING_MODE"] == 0


def _trace_fields(folder: Path) -> dict[str, dict[str, int]]:
    values: dict[str, dict[str, int]] = {}
    for step in trace_steps(folder):
        if isinstance(step, RegWrite) and step.unit in ("PDP", "PDP_RDMA"):
            values.setdefault(step.unit, {})[step.reg] = step.value
    return {u: registers.decode_fields(u, regs) for u, regs in values.items()}


PDP_TRACES = [f for f in default_trace_folders("nv_small") if f.name.startswith("pdp_")]


@pytest.mark.skipif(not PDP_TRACES, reason=f"no NVDLA PDP traces under {trace_roots('nv_small')}")
@pytest.mark.parametrize("folder", PDP_TRACES, ids=[f.name for f in PDP_TRACES])
def test_driver_reproduces_nvidia_trace_registers(folder: Path) -> None:
    """Rebuild each average-pooling trace's layer from its geometry: the driver's reciprocals, pad values and
    output sizes must be the ones NVIDIA's tools wrote (max/min traces carry random reciprocals)."""
    f = _trace_fields(folder)
    p, r = f["PDP"], f["PDP_RDMA"]
    if p["D_OPERATION_MODE_CFG.POOLING_METHOD"] != AVERAGE:
        pytest.skip("reciprocals and pad values are don't-care for max/min pooling")
    split = None
    if p["D_OPERATION_MODE_CFG.SPLIT_NUM"]:
        ins = [p[f"D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_{k}"] + 1 for k in ("FIRST", "MID", "LAST")]
        outs = [p[f"D_PARTIAL_WIDTH_OUT.PARTIAL_WIDTH_OUT_{k}"] + 1 for k in ("FIRST", "MID", "LAST")]
        split = SplitWidths(p["D_OPERATION_MODE_CFG.SPLIT_NUM"] + 1, *ins, *outs)
    prog = pdp_layer(
        p["D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH"] + 1, p["D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT"] + 1,
        p["D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL"] + 1, method=AVERAGE,
        kernel=(p["D_POOLING_KERNEL_CFG.KERNEL_WIDTH"] + 1, p["D_POOLING_KERNEL_CFG.KERNEL_HEIGHT"] + 1),
        stride=(p["D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH"] + 1,
                p["D_POOLING_KERNEL_CFG.KERNEL_STRIDE_HEIGHT"] + 1),
        pads=tuple(p[f"D_POOLING_PADDING_CFG.PAD_{s}"] for s in ("LEFT", "RIGHT", "TOP", "BOTTOM")),  # type: ignore[arg-type]
        pad_value=pad_term(p["D_POOLING_PADDING_VALUE_1_CFG.PAD_VALUE_1X"]),
        src=Surface(r["D_SRC_BASE_ADDR_LOW.SRC_BASE_ADDR_LOW"], r["D_SRC_LINE_STRIDE.SRC_LINE_STRIDE"],
                    r["D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE"]),
        dst=Surface(p["D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW"], p["D_DST_LINE_STRIDE.DST_LINE_STRIDE"],
                    p["D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE"]),
        split=split)
    keys = [k for k in prog.fields["PDP"] if k.startswith(("D_RECIP", "D_POOLING", "D_DATA_CUBE_OUT"))]
    assert {k: prog.fields["PDP"][k] for k in keys} == {k: p[k] for k in keys}


# ---- validation: every rejection names its rule --------------------------------------------------------

@pytest.mark.parametrize(("change", "rule"), [
    ({"kernel": (9, 3)}, "maximum supported pooling kernel size is 8"),
    ({"kernel": (0, 3)}, "kernel and stride sizes must be >= 1"),
    ({"pads": (3, 1, 1, 1)}, "PL/PR should be less than kernel_width"),
    ({"pads": (1, 1, 3, 1)}, "PT/PB should be less than kernel_height"),
    ({"pads": (8, 1, 1, 1), "kernel": (8, 3)}, "PAD_LEFT does not fit its 3-bit register field"),
    ({"stride": (2, 1)}, "(PL+W+PR-Kernel_W)%stride_x == 0"),
    ({"pads": (1, 1, 0, 0), "height": 2}, "CUBE_OUT_HEIGHT must be (H+PT+PB-kernel_h)/stride_y + 1"),
    ({"stride": (17, 1)}, "KERNEL_STRIDE_WIDTH does not fit its 4-bit register field"),
    ({"width": 0}, "cube width, height and channels must be >= 1"),
    ({"channels": 8193}, "CUBE_IN_CHANNEL does not fit its 13-bit register field"),
    ({"method": "median"}, "POOLING_METHOD must be AVERAGE, MAX or MIN"),
    ({"method": 3}, "POOLING_METHOD must be AVERAGE, MAX or MIN"),
    ({"pad_value": 128}, "the pad value is an int8"),
    ({"group": 2}, "register group must be 0 or 1"),
    ({"max_out_width": 7}, "each band's output width must fit the core's line buffer (MAX_W)"),
    ({"src": Surface(0x1004, 0x100, 0x1000)}, "alignment for SRC address/line_stride/surf_stride"),
    ({"dst": Surface(0x40000, 0x38, 0x1000)}, "DST_LINE_STRIDE has to be bigger than the actual size"),
    ({"dst": Surface(0x40000, 0x100, 0x400)}, "DST_SURFACE_STRIDE must hold a whole surface"),
    ({"dst": Surface(0x1100, 0x100, 0x1000)}, "the destination must not overlap the SRC cube"),
    ({"dst": Surface(0xFFFFFF00, 0x100, 0x1000)}, "DST cube must lie inside the 32-bit address space"),
    ({"split": SplitWidths(2, 4, 0, 4, 4, 0, 4)}, "first_in_width + PL == (first_out_width-1)*stride_x"),
    ({"split": SplitWidths(2, 0, 0, 8, 0, 0, 8)}, "split mode needs >= 2 bands, each band width >= 1"),
    ({"split": SplitWidths(2, 3, 0, 5, 2, 0, 5)}, "first_out + last_out + mid_out*(split_num-2)"),
    ({"split": 1, "pads": (2, 2, 1, 1)}, "no split-width bands satisfy the split rules"),
])
def test_invalid_layers_rejected_with_the_rule(change: dict[str, object], rule: str) -> None:
    with pytest.raises(ConfigError) as info:
        layer(**change)
    assert rule in info.value.rule, info.value


def test_output_width_limit_is_the_callers_max_w() -> None:
    assert layer(max_out_width=8).config.out_width == 8
    with pytest.raises(ConfigError, match="MAX_W"):
        layer(max_out_width=7)
    # the same layer in bands of at most 3 outputs fits a 3-column line buffer
    prog = layer(max_out_width=3, split=3)
    assert all(b.out_width <= 3 for b in prog.config.bands())


# ---- split planning --------------------------------------------------------------------------------------

def _random_layer(rng: random.Random) -> dict[str, object]:
    kw, kh = rng.randint(1, 8), rng.randint(1, 8)
    sw, sh = rng.randint(1, 8), rng.randint(1, 8)
    pads = (rng.randrange(kw), rng.randrange(kw), rng.randrange(kh), rng.randrange(kh))
    out_w, out_h = rng.randint(2, min(40, max_band_width(kh, sh))), rng.randint(1, 4)   # one band fits
    width = (out_w - 1) * sw + kw - pads[0] - pads[1]
    height = (out_h - 1) * sh + kh - pads[2] - pads[3]
    return {"width": width, "height": height, "channels": rng.randint(1, 20), "kernel": (kw, kh),
            "stride": (sw, sh), "pads": pads, "method": rng.choice(["average", "max", "min"]),
            "pad_value": rng.randint(-128, 127)}


def test_split_bands_give_the_unsplit_result() -> None:
    """Random layers: split into bands by the planner, the model's output equals the one-band output, and
    every band fits the requested width (split-width mode is a memory-traffic choice, not a new result).
    A band width can be impossible (a last band too narrow for kernel - stride overlap columns with the
    right padding): the planner must then say so, and that may happen only rarely."""
    rng = random.Random(5)
    checked = refused = 0
    while checked < 80:
        desc = _random_layer(rng)
        w, h, c = int(desc["width"]), int(desc["height"]), int(desc["channels"])  # type: ignore[call-overload]
        if w < 1 or h < 1:
            continue
        src = Surface(0x1000, w * 8, w * 8 * h)
        dst = Surface(0x100000, 0x200, 0x1000)  # out_w <= 40, out_h <= 4
        base = {**desc, "src": src, "dst": dst}
        whole = layer(**base)
        band_w = rng.randint(1, max(1, whole.config.out_width - 1))
        try:
            banded = layer(**base, split=band_w, max_out_width=band_w)
        except ConfigError as err:
            assert "no split-width bands" in err.rule, err
            refused += 1
            continue
        assert banded.config.passes >= 2
        assert all(b.out_width <= band_w for b in banded.config.bands())
        cube = np.array([rng.randint(-128, 127) for _ in range(c * h * w)], dtype=np.int8).reshape(c, h, w)
        outs = []
        for prog in (whole, banded):
            mem = Memory()
            src.layout(w, h, c).write(mem, cube)
            outs.append(run_pdp(prog.config, mem).output)
        np.testing.assert_array_equal(outs[0], outs[1], err_msg=str(desc))
        checked += 1
    assert refused < checked // 4, f"planner refused {refused} of {checked + refused} band widths"


def test_plan_split_refuses_a_layer_that_fits_one_band() -> None:
    with pytest.raises(ConfigError, match="wider than one band"):
        plan_split(8, 6, 16, method=MAX, kernel=(3, 3), stride=(1, 1), pads=(1, 1, 1, 1), src=SRC, dst=DST,
                   band_out_width=8)
