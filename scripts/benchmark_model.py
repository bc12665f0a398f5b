"""Throughput of the model (elements of input per second) on ~1M-element cubes: LUT, CDP, PDP, SDP; and the
convolution of a 64x64x64 cube with 64 3x3 kernels (MACs per second and the time of the layer).

Usage: .venv/bin/python -m scripts.benchmark_model [--repeat N]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from models.cdp.model import CdpConfig, cdp_compute
from models.conv.conv import ConvConfig, conv_compute
from models.lut.model import LutConfig, lut_lookup
from models.pdp.driver import recip_kernel
from models.pdp.model import PdpConfig, pdp_pool
from models.sdp.datapath import Operands
from models.sdp.model import SdpConfig, sdp_compute

C, H, W = 64, 128, 128   # 1,048,576 elements


def pdp_config(method: int) -> PdpConfig:
    pdp = {
        "D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH": W - 1, "D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT": H - 1,
        "D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL": C - 1,
        # 3x3 stride 2, one padded column/row before: (128 + 1 - 3) / 2 + 1 = 64 outputs per axis.
        "D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH": 63, "D_DATA_CUBE_OUT_HEIGHT.CUBE_OUT_HEIGHT": 63,
        "D_DATA_CUBE_OUT_CHANNEL.CUBE_OUT_CHANNEL": C - 1,
        "D_OPERATION_MODE_CFG.POOLING_METHOD": method, "D_OPERATION_MODE_CFG.FLYING_MODE": 1,
        "D_POOLING_KERNEL_CFG.KERNEL_WIDTH": 2, "D_POOLING_KERNEL_CFG.KERNEL_HEIGHT": 2,
        "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH": 1, "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_HEIGHT": 1,
        "D_RECIP_KERNEL_WIDTH.RECIP_KERNEL_WIDTH": recip_kernel(3),
        "D_RECIP_KERNEL_HEIGHT.RECIP_KERNEL_HEIGHT": recip_kernel(3),
        "D_POOLING_PADDING_CFG.PAD_LEFT": 1, "D_POOLING_PADDING_CFG.PAD_TOP": 1,
        "D_POOLING_PADDING_VALUE_1_CFG.PAD_VALUE_1X": 3, "D_POOLING_PADDING_VALUE_2_CFG.PAD_VALUE_2X": 6,
    }
    rdma = {k: pdp[k] for k in ("D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH", "D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT",
                                "D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL", "D_POOLING_KERNEL_CFG.KERNEL_WIDTH",
                                "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH")}
    return PdpConfig.from_fields({"PDP": pdp, "PDP_RDMA": rdma})


def sdp_config() -> SdpConfig:
    sdp = {
        "D_DATA_CUBE_WIDTH.WIDTH": W - 1, "D_DATA_CUBE_HEIGHT.HEIGHT": H - 1,
        "D_DATA_CUBE_CHANNEL.CHANNEL": C - 1,
        "D_DP_BS_CFG.BS_BYPASS": 0, "D_DP_BS_CFG.BS_ALU_BYPASS": 0, "D_DP_BS_CFG.BS_ALU_ALGO": 2,
        "D_DP_BS_CFG.BS_MUL_BYPASS": 0, "D_DP_BS_CFG.BS_MUL_PRELU": 0, "D_DP_BS_CFG.BS_RELU_BYPASS": 0,
        "D_DP_BS_ALU_CFG.BS_ALU_SRC": 1, "D_DP_BS_ALU_CFG.BS_ALU_SHIFT_VALUE": 3,
        "D_DP_BS_MUL_CFG.BS_MUL_SRC": 1, "D_DP_BS_MUL_CFG.BS_MUL_SHIFT_VALUE": 5,
        "D_DP_BN_CFG.BN_BYPASS": 0, "D_DP_BN_CFG.BN_ALU_BYPASS": 0, "D_DP_BN_CFG.BN_ALU_ALGO": 0,
        "D_DP_BN_ALU_SRC_VALUE.BN_ALU_OPERAND": 0xFFF0, "D_DP_BN_CFG.BN_MUL_BYPASS": 1,
        "D_DP_EW_CFG.EW_BYPASS": 0, "D_DP_EW_CFG.EW_MUL_BYPASS": 0, "D_DP_EW_CFG.EW_ALU_BYPASS": 0,
        "D_DP_EW_MUL_SRC_VALUE.EW_MUL_OPERAND": 3, "D_DP_EW_TRUNCATE_VALUE.EW_TRUNCATE": 1,
        "D_DP_EW_ALU_SRC_VALUE.EW_ALU_OPERAND": 7, "D_DP_EW_ALU_CFG.EW_ALU_SRC": 0,
        "D_CVT_OFFSET.CVT_OFFSET": 5, "D_CVT_SCALE.CVT_SCALE": 300, "D_CVT_SHIFT.CVT_SHIFT": 8,
    }
    rdma = {"D_BRDMA_CFG.BRDMA_DISABLE": 0, "D_BRDMA_CFG.BRDMA_DATA_USE": 2, "D_BRDMA_CFG.BRDMA_DATA_MODE": 1}
    return SdpConfig.from_fields({"SDP": sdp, "SDP_RDMA": rdma})


def lut_fields(unit: str, le_function: int) -> dict[str, int]:
    """A hybrid program: LE exponential (or linear) over the low range, LO linear over a wider one."""
    lut = {"S_LUT_CFG.LUT_LE_FUNCTION": le_function, "S_LUT_CFG.LUT_HYBRID_PRIORITY": 1,
           "S_LUT_INFO.LUT_LE_INDEX_SELECT": 4, "S_LUT_INFO.LUT_LO_INDEX_SELECT": 6,
           "S_LUT_INFO.LUT_LE_INDEX_OFFSET": 0,
           "S_LUT_LE_SLOPE_SCALE.LUT_LE_SLOPE_UFLOW_SCALE": 3,
           "S_LUT_LO_SLOPE_SCALE.LUT_LO_SLOPE_OFLOW_SCALE": 5,
           "S_LUT_LO_SLOPE_SHIFT.LUT_LO_SLOPE_OFLOW_SHIFT": 2}
    ends = {"LE_START": 0, "LE_END": 1 << 10, "LO_START": -(1 << 13), "LO_END": 1 << 13}
    for name, value in ends.items():
        if unit == "SDP":
            lut[f"S_LUT_{name}.LUT_{name}"] = value & 0xFFFFFFFF
        else:
            lut[f"S_LUT_{name}_LOW.LUT_{name}_LOW"] = value & 0xFFFFFFFF
            lut[f"S_LUT_{name}_HIGH.LUT_{name}_HIGH"] = (value >> 32) & 0x3F
    return lut


def lut_tables() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(2)
    return rng.integers(-(1 << 15), 1 << 15, 65), rng.integers(-(1 << 15), 1 << 15, 257)


def lut_config(unit: str, le_function: int) -> LutConfig:
    return LutConfig.from_fields({unit: lut_fields(unit, le_function)}, unit, lut_tables())


def cdp_config() -> CdpConfig:
    """LRN-5 with input/output convertors and the hybrid LUT (exponential LE)."""
    cdp = {**lut_fields("CDP", 0), "D_DATA_FORMAT.INPUT_DATA_TYPE": 0, "D_LRN_CFG.NORMALZ_LEN": 1,
           "D_DATIN_SCALE.DATIN_SCALE": 3,
           "D_DATIN_SHIFTER.DATIN_SHIFTER": 1, "D_DATOUT_SCALE.DATOUT_SCALE": 5,
           "D_DATOUT_SHIFTER.DATOUT_SHIFTER": 12, "D_DST_LINE_STRIDE.DST_LINE_STRIDE": W * 8,
           "D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": W * H * 8}
    rdma = {"D_DATA_FORMAT.INPUT_DATA": 0, "D_DATA_CUBE_WIDTH.WIDTH": W - 1,
            "D_DATA_CUBE_HEIGHT.HEIGHT": H - 1,
            "D_DATA_CUBE_CHANNEL.CHANNEL": C - 1, "D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": W * 8,
            "D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": W * H * 8}
    return CdpConfig.from_fields({"CDP": cdp, "CDP_RDMA": rdma}, tables=lut_tables())


def conv_config() -> ConvConfig:
    """64x64x64, 64 3x3 kernels, padding 1 (64x64 outputs), at nv_large's geometry (one hardware layer)."""
    import os

    from models.common.driver import Surface
    from models.conv.driver import ConvLayer, SdpStage, conv_layer

    saved = os.environ.get("CONFIG")
    os.environ["CONFIG"] = "nv_large"
    try:
        layer = ConvLayer(64, 64, 64, 64, 3, 3, src=Surface(0, 64 * 32, 64 * 64 * 32), weight_base=1 << 24,
                          sdp=SdpStage(dst=Surface(1 << 25, 64 * 32, 64 * 64 * 32)), pads=(1, 1, 1, 1),
                          truncate=8)
        return conv_layer(layer).layers[0].config
    finally:
        if saved is None:
            os.environ.pop("CONFIG")
        else:
            os.environ["CONFIG"] = saved


def rate(fn: Callable[[], object], elements: int, repeat: int) -> float:
    fn()   # warm-up
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return elements / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    cube = rng.integers(-128, 128, size=(C, H, W)).astype(np.int8)
    x = rng.integers(-(1 << 14), 1 << 14, size=C * H * W)
    for unit, le_function, mode in (("CDP", 0, "exponential"), ("SDP", 1, "linear")):
        lcfg = lut_config(unit, le_function)
        r = rate(lambda lcfg=lcfg: lut_lookup(x, lcfg), x.size, args.repeat)
        print(f"LUT {unit} (LE {mode:11s}): {r / 1e6:8.2f} M elements/s ({x.size} elements)")
    ccfg = cdp_config()
    r = rate(lambda: cdp_compute(cube, ccfg), cube.size, args.repeat)
    print(f"CDP LRN-5, hybrid LUT   : {r / 1e6:8.2f} M elements/s ({cube.size} elements)")
    for name, method in (("average", 0), ("max", 1)):
        cfg = pdp_config(method)
        x = cube[:, :cfg.in_height, :cfg.in_width]
        r = rate(lambda cfg=cfg, x=x: pdp_pool(x, cfg), x.size, args.repeat)
        print(f"PDP {name:7s} 3x3/2 pad: {r / 1e6:8.2f} M elements/s ({x.size} elements)")
    scfg = sdp_config()
    ops = Operands(bs_alu=rng.integers(-128, 128, size=(C, H, W)),
                   bs_mul=rng.integers(-128, 128, size=(C, H, W)))
    r = rate(lambda: sdp_compute(cube, scfg, ops), cube.size, args.repeat)
    print(f"SDP BS(mem)+BN+EW+cvt  : {r / 1e6:8.2f} M elements/s ({cube.size} elements)")
    vcfg = conv_config()
    data = rng.integers(-128, 128, size=(64, 64, 64))
    weights = rng.integers(-128, 128, size=(64, 64, 3, 3))
    macs = 64 * 64 * 64 * 64 * 9
    r = rate(lambda: conv_compute(data, weights, vcfg), macs, args.repeat)
    print(f"Conv 64^3 x 64 3x3      : {r / 1e6:8.2f} M MACs/s ({macs / r:.3f} s a layer)")


if __name__ == "__main__":
    main()
