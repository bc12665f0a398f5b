"""Directed PDP layers on the subsystem top for the line buffer of accumulators (rtl/pdp/nvdla_pdp_vacc.v):
bands one and two columns wide, where an output row's accumulator is read again one or two results after it
was written (the read-after-write the core waits for), with 1, 2, 3-4 and 5-8 output rows in flight, top and
bottom padding (the flush pass reads what the last input row just wrote), every pooling method and every
precision the top computes; and bands exactly as wide as the line buffer holds for the kernel (MAX_W / 1, 2,
4, 8 columns). Each layer's output is scored byte for byte against the model (tb/env/pdp.py run_layer).
"""

from __future__ import annotations

import cocotb
from cocotb.handle import SimHandleBase

from models.pdp.driver import PdpProgram, Surface, pdp_layer
from tb import outcome
from tb.env.pdp import DST_REGION, SRC_REGION, band_limit, run_layer, setup
from tb.env.top import ATOM

# (kernel, stride, pads (left, right, top, bottom)): rows in flight 1, 2, 2, 3, 4, 5, 8
KERNELS = (
    ((1, 2), (1, 2), (0, 0, 0, 0)),
    ((2, 2), (2, 1), (0, 0, 1, 1)),
    ((1, 3), (1, 2), (0, 0, 1, 1)),
    ((2, 3), (2, 1), (0, 0, 2, 2)),
    ((1, 4), (1, 1), (0, 0, 3, 1)),
    ((2, 5), (2, 1), (0, 0, 0, 4)),
    ((1, 8), (1, 1), (0, 0, 4, 7)),
)
METHODS = ("average", "max", "min")


def narrow_program(kernel: tuple[int, int], stride: tuple[int, int], pads: tuple[int, int, int, int],
                   out_w: int, band_w: int | None, method: str, precision: str, group: int,
                   max_w: int) -> PdpProgram:
    """A layer of out_w output columns (kernel width = stride x: no overlap between bands), cut into bands
    of band_w columns (None: one band), 10 input lines, two surfaces."""
    kh, (sx, sy) = kernel[1], stride
    width, height = out_w * sx, 10
    lanes = ATOM // (1 if precision == "INT8" else 2)
    out_h = (height + pads[2] + pads[3] - kh) // sy + 1
    src = Surface(SRC_REGION, width * ATOM, width * height * ATOM)
    dst = Surface(DST_REGION, out_w * ATOM, out_w * out_h * ATOM)
    pad_value = 0 if precision == "FP16" else 3
    return pdp_layer(width, height, 2 * lanes, method=method, kernel=kernel, stride=stride, pads=pads,
                     pad_value=pad_value, src=src, dst=dst, split=band_w, group=group,
                     max_out_width=band_limit(max_w, kh, sy), precision=precision)


@cocotb.test()
async def narrow_bands(dut: SimHandleBase) -> None:
    """Bands of 1 and 2 columns: each output row's accumulator read right after it was written."""
    top = await setup(dut, "narrow_bands")
    ran = 0
    for precision in top.precisions:
        for i, (kernel, stride, pads) in enumerate(KERNELS):
            # one column (no split), 3 columns in bands of 1, 5 columns in bands of 2 (the last 1)
            for out_w, band_w in ((1, None), (3, 1), (5, 2)):
                method = METHODS[(i + out_w) % 3]
                prog = narrow_program(kernel, stride, pads, out_w, band_w, method, precision, ran % 2,
                                      top.max_w)
                label = (f"{precision} {method} kernel {kernel} stride {stride} pads {pads}, "
                         f"{out_w} columns in bands of {band_w or out_w}")
                await run_layer(top, prog, label)
                ran += 1
    dut._log.info("%d narrow-band layers, RTL = model", ran)
    outcome.checked(ran, "layers")


@cocotb.test()
async def bands_at_the_limit(dut: SimHandleBase) -> None:
    """Bands exactly as wide as the line buffer holds for the kernel's rows in flight, and one band that
    wide followed by a narrower one (a slot's last bank, then its first again)."""
    top = await setup(dut, "bands_at_the_limit")
    ran = 0
    for precision in top.precisions:
        for i, (kernel, stride, pads) in enumerate(KERNELS):
            limit = band_limit(top.max_w, kernel[1], stride[1])
            for out_w, band_w in ((limit, None), (limit + 3, limit)):
                method = METHODS[(i + ran) % 3]
                prog = narrow_program(kernel, stride, pads, out_w, band_w, method, precision, ran % 2,
                                      top.max_w)
                label = (f"{precision} {method} kernel {kernel} stride {stride} pads {pads}, "
                         f"{out_w} columns in bands of {band_w or out_w} (limit {limit})")
                await run_layer(top, prog, label)
                ran += 1
    dut._log.info("%d layers at the band limit, RTL = model", ran)
    outcome.checked(ran, "layers")
