"""Directed PDP layers on the subsystem top for the fixed widths of average pooling that NVIDIA's hardware
has whatever the register values (models/pdp/model.py WIDTHS, docs/pdp_arithmetic.md; nvdlav1 and nv_small
NV_NVDLA_PDP_CORE_cal1d.v and cal2d.v): raw PAD_VALUE_{n}X and RECIP_KERNEL_* values (not what a driver
writes) and a constant input make one width wrap per layer. Each layer's output is scored byte for byte
against the model (tb/env/pdp.py run_layer), and its first element must be the value worked out by hand
below, so the RTL, the model and the arithmetic written here have to agree. INT16 layers run where the top
has INT16.
"""

from __future__ import annotations

from typing import NamedTuple

import cocotb
import numpy as np
from cocotb.handle import SimHandleBase

from models.common.precision import as_signed
from models.pdp.driver import PdpProgram, Surface, pdp_layer, with_raw_fields
from tb.env.pdp import DST_REGION, SRC_REGION, prepare, run_layer, setup, src_span
from tb.env.top import ATOM, Top

ONE = 1 << 16


class Case(NamedTuple):
    what: str
    precision: str
    kernel: tuple[int, int]
    pads: tuple[int, int, int, int]
    raw: dict[int | str, int]      # PAD_VALUE_{n}X by n, "w"/"h" for RECIP_KERNEL_WIDTH/HEIGHT
    element: int                   # every input element
    expected: int                  # the first output element


CASES = (
    # 127 + PAD_VALUE_1X 1000 = 1127 -> 11 bits: -921; / 8 = -115.1 -> -115
    Case("INT8 row sum wraps at 11 bits", "INT8", (2, 1), (1, 0, 0, 0), {1: 1000, "w": 0x2000, "h": ONE},
         127, -115),
    # 0x7F805: 19-bit value -2043, bits [10:0] 5: 10 + 5
    Case("INT8 row adds bits [10:0] of PAD_VALUE_1X", "INT8", (2, 1), (1, 0, 0, 0),
         {1: 0x7F805, "w": ONE, "h": ONE}, 10, 15),
    # padded row: 0x1000 * 2 = 8192 -> 14 bits: -8192; the row: 1 + 4096 -> 11 bits: 1; -8191 / 64 -> -128
    Case("INT8 window sum wraps at 14 bits", "INT8", (2, 2), (1, 0, 1, 0), {1: 0x1000, "w": 0x400, "h": ONE},
         1, -128),
    # 127 * 1.99998 -> 254 (stage 1 keeps 10 bits of a positive integer part); * 1.99998 -> 508 -> 7 bits: 124
    Case("INT8 reciprocal stages keep 11 and 8 bits", "INT8", (1, 1), (0, 0, 0, 0),
         {"w": 0x1FFFF, "h": 0x1FFFF}, 127, 124),
    # 127 + 128 = 255, * 0.5 = 127.5 -> 128 (11 bits); * 1.0: 7 bits of 128 are 0 -> 0
    Case("INT8 second stage keeps 7 bits of a positive value", "INT8", (2, 1), (1, 0, 0, 0),
         {1: 128, "w": 0x8000, "h": ONE}, 127, 0),
    # the row adds PAD_VALUE_7X -262144, the padded row PAD_VALUE_1X -262144 x 8: -2359296 -> 22 bits:
    # 1835008; / 16 = 114688 (19-bit stage 1), then 15 bits: 16384
    Case("INT16 window sum wraps at 22 bits", "INT16", (8, 2), (7, 0, 1, 0),
         {1: 0x40000, 7: 0x40000, "w": 0x1000, "h": ONE}, 0, 16384),
    # 4 x 30000 = 120000, * 1.0 twice: stage 2 keeps 15 bits of a positive value: 21696
    Case("INT16 reciprocal stages keep 19 and 16 bits", "INT16", (2, 2), (0, 0, 0, 0), {"w": ONE, "h": ONE},
         30000, 120000 % 32768),
    # PAD_VALUE_1X 0x40000 is -262144 (19-bit signed), / 1024 = -256
    Case("INT16 pad values are 19-bit signed", "INT16", (2, 1), (1, 0, 0, 0),
         {1: 0x40000, "w": 0x40, "h": ONE}, 0, -256),
)


def case_program(case: Case, group: int) -> PdpProgram:
    """A 1-surface layer whose one output element pools the whole (small) input with the case's pads."""
    (kw, kh), (pl, pr, pt, pb) = case.kernel, case.pads
    width, height = kw - pl - pr, kh - pt - pb
    lanes = ATOM // (2 if case.precision == "INT16" else 1)
    prog = pdp_layer(width, height, lanes, method="average", kernel=case.kernel, pads=case.pads,
                     src=Surface(SRC_REGION, width * ATOM, width * height * ATOM),
                     dst=Surface(DST_REGION, ATOM, ATOM), precision=case.precision, group=group)
    raw = {f"D_POOLING_PADDING_VALUE_{n}_CFG.PAD_VALUE_{n}X": v
           for n, v in case.raw.items() if isinstance(n, int)}
    raw["D_RECIP_KERNEL_WIDTH.RECIP_KERNEL_WIDTH"] = case.raw["w"]
    raw["D_RECIP_KERNEL_HEIGHT.RECIP_KERNEL_HEIGHT"] = case.raw["h"]
    return with_raw_fields(prog, raw)


def fill_constant(top: Top, prog: PdpProgram, element: int) -> None:
    """Every input element (gaps included) = element, in the RAM and the model's memory."""
    cfg = prog.config
    lo, hi = src_span(cfg)
    elem = cfg.widths.elem_bytes
    one = (element & ((1 << (8 * elem)) - 1)).to_bytes(elem, "little")
    data = one * ((hi - lo) // elem)
    mem = top.index(cfg.src_ram_mc)
    top.rams[mem].write(lo, data)
    top.mems[mem].write(lo, np.frombuffer(data, dtype=np.uint8))


@cocotb.test()
async def average_pooling_widths(dut: SimHandleBase) -> None:
    top = await setup(dut, "average_pooling_widths")
    ran = 0
    for i, case in enumerate(CASES):
        if case.precision not in top.precisions:
            continue
        prog = case_program(case, group=ran % 2)   # both units' groups alternate layer by layer
        prepare(top, prog)
        fill_constant(top, prog, case.element)
        label = f"case {i} ({case.what})"
        await run_layer(top, prog, label, fresh=False)   # the RTL against the model, every byte
        cfg = prog.config
        elem = cfg.widths.elem_bytes
        first = top.mems[top.index(cfg.dst_ram_mc)].read(cfg.dst_base, elem)
        got = int(as_signed(int.from_bytes(first.tobytes(), "little"), 8 * elem))
        assert got == case.expected, f"{label}: the model's first output element is {got}, worked out " \
                                     f"{case.expected}"
        ran += 1
    dut._log.info("%d directed width layers, RTL = model = hand-computed", ran)
