"""SDP layers of a mapped operator as plan steps: the fitted setting's layer (inputs and operands loaded
into memory first), and the clamp layer that applies a fused activation to an int8 result in memory.

A fused activation clamps TFLite's int8 result to [lo, hi] after the zero point is added; the int8 result
an unclamped layer writes is that value saturated to [-128, 127], and clamping it again to [lo, hi] (inside
[-128, 127]) gives exactly TFLite's output. So where an operator's last arithmetic stage leaves no clamp
stage free (ADD's sum is formed in the EW ALU; PDP has no clamp), a second SDP layer clamps: BN ALU MAX lo,
EW ALU MIN hi, identity output convertor.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from models.common.cube import CubeLayout
from models.common.driver import run_atom_bytes
from models.sdp.datapath import ALU_MAX, ALU_MIN, EwBlock, XBlock
from models.sdp.driver import NO_DMA, operand_dma, sdp_layer
from tflite_nvdla.hw_plan import (
    INPUT_BASES,
    OUTPUT_BASE,
    SCRATCH_BASE,
    HwPlan,
    Step,
    cube_dims,
    cube_writes,
    layer_steps,
    packed,
    surface,
    to_cube,
)
from tflite_nvdla.sdp_fit import SdpSetting
from tflite_nvdla.tflite_arith import INT8_MAX, INT8_MIN


def clamps(clamp: tuple[int, int]) -> bool:
    """Whether a clamp does anything to int8 values."""
    return clamp != (INT8_MIN, INT8_MAX)


def clamp_steps(src: CubeLayout, dst: CubeLayout, clamp: tuple[int, int], group: int) -> list[Step]:
    """One SDP layer: dst = min(max(src, lo), hi) on int8 cubes of src's size."""
    lo, hi = clamp
    bn, ew = XBlock(), EwBlock()
    if lo > INT8_MIN:
        bn = XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_MAX, alu_operand=lo)
    if hi < INT8_MAX:
        ew = EwBlock(bypass=False, alu_bypass=False, alu_algo=ALU_MIN, alu_operand=hi)
    prog = sdp_layer(src.width, src.height, src.channels, bn=bn, ew=ew, src=surface(src), dst=surface(dst),
                     group=group)
    return layer_steps(prog.writes, "SDP", "SDP clamp (fused activation)")


def sdp_plan(setting: SdpSetting, x: NDArray[np.integer], operand: NDArray[np.integer] | None,
             out_shape: tuple[int, ...], layout: str, clamp: tuple[int, int] = (INT8_MIN, INT8_MAX),
             per_kernel_operand: bool = False) -> HwPlan:
    """The setting's SDP layer on x (and the EW operand: a cube like x, or with per_kernel_operand one value
    per channel read once per kernel); with a clamp, a clamp layer after it (the first layer then writes a
    scratch cube)."""
    dims = cube_dims(x.shape)
    src = packed(INPUT_BASES[0], dims)
    dst = packed(OUTPUT_BASE, dims)
    first_dst = packed(SCRATCH_BASE, dims) if clamps(clamp) else dst
    steps = cube_writes(src, to_cube(x))
    erdma = nrdma = NO_DMA
    if setting.operand is not None:
        assert operand is not None
        if per_kernel_operand:
            op_layout = CubeLayout.packed(INPUT_BASES[1], 1, 1, dims[0], run_atom_bytes())
            steps += cube_writes(op_layout, np.asarray(operand).reshape(-1, 1, 1))
        else:
            op_layout = packed(INPUT_BASES[1], dims)
            steps += cube_writes(op_layout, to_cube(operand))
        erdma = operand_dma(surface(op_layout), setting.operand, per_element=not per_kernel_operand)
    if setting.bn_operand is not None:
        # one 16-bit value per channel, read once per kernel: a packed 1 x 1 x C cube of two-byte elements
        kernel = CubeLayout.packed(INPUT_BASES[2], 1, 1, dims[0], run_atom_bytes(), 2)
        steps += cube_writes(kernel, np.asarray(setting.bn_operand).reshape(-1, 1, 1))
        nrdma = operand_dma(surface(kernel), "mul", two_byte=True)
    c, h, w = dims
    prog = sdp_layer(w, h, c, bs=setting.bs, bn=setting.bn, ew=setting.ew, cvt=setting.cvt, erdma=erdma,
                     nrdma=nrdma, lut=setting.lut, src=surface(src), dst=surface(first_dst))
    steps += layer_steps(prog.writes, "SDP", layout)
    layers = 1
    if clamps(clamp):
        # the consumer pointer moved to the other register group after the first layer
        steps += clamp_steps(first_dst, dst, clamp, group=1)
        layers, layout = 2, f"{layout}, then SDP clamp"
    return HwPlan(steps, dst, out_shape, layout, layers)
