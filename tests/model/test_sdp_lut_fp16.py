"""SDP's EW LUT at FP16 (models/lut/fp16.py, SDP flavour: sdp_y_idx / sdp_y_inp) and where nv_full keeps SDP's
FP16 statistics (models/subsystem.py); the whole is checked against NVIDIA's RTL by the sdplutfp16 and sdpfp16
programs (tests/model/test_ref_programs.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from models import configs
from models.common import nvfloat
from models.common.nvfloat import FP17
from models.lut.fp16 import fp32_bits, lookup_fp16
from models.lut.model import EXPONENT, LINEAR, LutConfig
from models.replay import replay_on_model
from models.sdp.datapath import EwBlock
from models.sdp.fp16 import sdp_fp16


def f16(values: Any) -> np.ndarray:
    return np.asarray(values, dtype=np.float16).view(np.uint16).astype(np.int64)


def f32(values: Any) -> np.ndarray:
    return np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.int64)


def v17(bits: Any) -> np.ndarray:
    s, e, m = FP17.split(bits)
    return np.where(e == 0, 0.0, (1 + m / 1024) * 2.0 ** (e - 31.0)) * np.where(s == 1, -1.0, 1.0)


def sdp_lut(**kw: Any) -> LutConfig:
    """LE over [0, 64) step 1 with T[i] = i; LO far above (underflows): LE decides."""
    base: dict[str, Any] = dict(
        le_function=LINEAR, le_index_select=0, lo_index_select=0, le_start=fp32_bits(0.0),
        le_end=fp32_bits(64.0), lo_start=fp32_bits(1024.0), lo_end=fp32_bits(1280.0), unit="SDP",
        precision="FP16", le=f16(np.arange(65)), lo=f16(np.zeros(257)))
    return LutConfig(**{**base, **kw})


def test_fraction_is_35_bits_and_the_weights_interpolate() -> None:
    x = np.array([2.25, 5.0, 63.5], dtype=np.float32)
    res = lookup_fp16(f32(x), sdp_lut())
    assert res.index.tolist() == [2, 5, 63]
    assert res.fraction.tolist() == [1 << 33, 0, 1 << 34]
    assert v17(res.output).tolist() == [2.25, 5.0, 63.5]      # (1 - f) y0 + f y1, exact here


def test_a_zero_fraction_still_multiplies_the_next_entry() -> None:
    """(1 - f) y0 + f y1 with f = 0: y0 x 1.0 plus +0 x y1, so a NaN next entry poisons an exact hit."""
    table = f16(np.arange(65))
    table[6] = 0x7E00
    res = lookup_fp16(f32([5.0, 4.0]), sdp_lut(le=table))
    assert nvfloat.FP17.is_nan(res.output[0]) and v17(res.output[1]) == 4.0


def test_exponential_underflow_measures_from_start_plus_two_to_the_offset() -> None:
    cfg = sdp_lut(le_function=EXPONENT, le_index_offset=-2, le_start=fp32_bits(1.0),
                  le_end=fp32_bits(2.0 ** 62), le_uflow_scale=int(f16(-4.0)), le=f16(np.full(65, 10.0)))
    res = lookup_fp16(f32([1.125]), cfg)                      # d = 2^-3 < 2^-2: underflow
    assert res.le_state.tolist() == [1]
    assert v17(res.output).tolist() == [10.0 + (1.125 - 1.25) * -4.0]


def test_sdp_counts_the_chosen_table() -> None:
    res = lookup_fp16(f32([1.0, 2000.0, -1.0]), sdp_lut(oflow_priority=1))
    assert res.counts == {"le_hit": 1, "lo_hit": 0, "uflow": 1, "oflow": 1, "hybrid": 1}


def test_the_lut_ends_the_y_block_and_widens_to_fp32() -> None:
    ew = EwBlock(bypass=False, lut_bypass=False)
    res = sdp_fp16(f16([2.5, 70.0]), _bypassed(), _bypassed(), ew, lut=sdp_lut(le_oflow_scale=int(f16(0.5))))
    assert res.data.astype(np.uint16).view(np.float16).tolist() == [2.5, 67.0]   # 64 + (70 - 64) / 2
    assert res.lut_stats["oflow"] == 1


def _bypassed() -> Any:
    from models.sdp.datapath import XBlock
    return XBlock()


def _trace(tmp: Path, name: str, enable: int) -> Path:
    """sdpfp16_s16_002 of traces/nv_full_ref (5 NaN inputs read back from SDP_RDMA) with SDP_RDMA's
    D_PERF_ENABLE set to `enable`."""
    src = Path(__file__).resolve().parents[2] / "traces" / "nv_full_ref" / "fp16" / "sdpfp16_s16_002"
    dst = tmp / name
    dst.mkdir()
    for f in src.iterdir():
        text = f.read_text()
        if f.name == "input.txn":
            text = text.replace("0x3 # SDP_RDMA.D_PERF_ENABLE", f"{enable:#x} # SDP_RDMA.D_PERF_ENABLE")
        (dst / f.name).write_text(text)
    return dst


def test_sdp_rdma_counts_fp16_inputs_only_while_enabled(tmp_path: Path) -> None:
    """nv_full: the counts are SDP_RDMA's (SDP's two read 0); with counting off they hold (0 after reset),
    so the program's recorded 5 no longer matches."""
    text = (_trace(tmp_path, "probe", 3) / "input.txn").read_text()
    assert "0x00000005 # SDP_RDMA.D_STATUS_NAN_INPUT_NUM" in text
    assert "0x00000000 # SDP.D_STATUS_NAN_INPUT_NUM" in text
    full = configs.load("nv_full")
    assert replay_on_model(_trace(tmp_path, "on", 3), full).passed
    res = replay_on_model(_trace(tmp_path, "off", 1), full)
    assert not res.passed and "SDP_RDMA.D_STATUS_NAN_INPUT_NUM reads 0x00000000" in res.message
