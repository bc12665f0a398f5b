"""CDP and its LUT at FP16 (models/cdp/fp16.py, models/lut/fp16.py): the float conversions the LUT adds, the
LUT's FP16 index and interpolation, LRN against a float64 reference within seed 002's thresholds, what FP16
ignores (convertors, padding), NaN handling and the counters as NVIDIA's nv_full RTL keeps them."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest

from models.cdp.fp16 import InputCounter, cdp_fp16
from models.cdp.model import FP16, CdpConfig, cdp_compute
from models.common import nvfloat
from models.common.nvfloat import FP17
from models.errors import ConfigError
from models.lut.fp16 import cdp_lookup_fp16, fp32_bits
from models.lut.model import EXPONENT, LINEAR, LutConfig, validate
from models.lut.regs import lut_fields
from tests.model.cdp_fields import cdp_fields


def f16(values: Any) -> np.ndarray:
    return np.asarray(values, dtype=np.float16).view(np.uint16).astype(np.int64)


def v16(bits: Any) -> np.ndarray:
    return np.asarray(bits, dtype=np.int64).astype(np.uint16).view(np.float16).astype(np.float64)


def v17(bits: Any) -> np.ndarray:
    s, e, m = FP17.split(bits)
    return np.where(e == 0, 0.0, (1 + m / 1024) * 2.0 ** (e - 31.0)) * np.where(s == 1, -1.0, 1.0)


def f32(values: Any) -> np.ndarray:
    return np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.int64)


def lut(**kw: Any) -> LutConfig:
    """A linear FP16 LUT: LE and LO over [0, 64) with entries equal to their positions (y = x where hit)."""
    base: dict[str, Any] = dict(
        le_function=LINEAR, le_index_select=0, lo_index_select=-2, le_start=fp32_bits(0.0),
        le_end=fp32_bits(64.0), lo_start=fp32_bits(0.0), lo_end=fp32_bits(64.0), unit="CDP", precision="FP16",
        le=f16(np.arange(65)), lo=f16(np.arange(257) / 4))
    return LutConfig(**{**base, **kw})


def fp16_config(cfg_lut: LutConfig | None = None, **kw: Any) -> CdpConfig:
    """A CDP FP16 layer (cdp_fields) with the S_LUT_* fields and tables of an FP16 LUT (default: lut())."""
    table = cfg_lut or lut()
    fields = cdp_fields(**kw, CDP__D_DATA_FORMAT_DOT_INPUT_DATA_TYPE=FP16,
                        CDP_RDMA__D_DATA_FORMAT_DOT_INPUT_DATA=FP16)
    fields["CDP"].update(lut_fields(table))
    return CdpConfig.from_fields(fields, atom_bytes=32, tables=(table.le, table.lo),
                                 precisions=("INT8", "INT16", "FP16"))


def test_uint16_fraction_becomes_fp17_rounded_to_eleven_bits() -> None:
    u = np.arange(1 << 16)
    got = v17(nvfloat.uint16_to_fp17(u))
    want = [0.0 if k == 0 else round(k / 65536 * 2.0 ** (10 - math.floor(math.log2(k / 65536))))
            * 2.0 ** (math.floor(math.log2(k / 65536)) - 10) for k in u.tolist()]
    assert np.array_equal(got, np.array(want))


def test_fp32_to_fp17_has_no_subnormals() -> None:
    tiny = 2.0 ** -30                                      # FP17's smallest normal
    got = v17(nvfloat.fp32_to_fp17(f32([tiny, tiny * 0.75, tiny * (1 - 2 ** -12), -tiny * 0.5, 3.0e10])))
    assert got.tolist() == [tiny, 0.0, tiny, -0.0, (2 - 2 ** -10) * 2.0 ** 31]
    back = nvfloat.fp17_to_fp32(nvfloat.fp32_to_fp17(f32([1.5, -2.0 ** -20])))
    assert np.array_equal(back, f32([1.5, -2.0 ** -20]))


def test_sub_flips_a_nan_subtrahend_sign() -> None:
    nan = 0x7FC00001
    assert int(nvfloat.sub(nvfloat.FP32, f32(1.0), nan)) == nan | (1 << 31)
    assert int(nvfloat.sub(nvfloat.FP32, nan, f32(1.0))) == nan


def test_linear_index_and_fraction_are_exact() -> None:
    x = np.array([3.3, 0.25, 63.99, 64.0, -1.0, 0.0], dtype=np.float32)
    res = cdp_lookup_fp16(f32(x), lut(hybrid_priority=0))
    d = x.astype(np.float64)
    assert res.index[:3].tolist() == np.floor(d[:3]).astype(int).tolist()
    assert res.fraction[:3].tolist() == np.floor((d[:3] % 1) * 65536).astype(int).tolist()
    assert res.le_state.tolist() == [0, 0, 0, 2, 1, 1]    # 64 overflows, -1 and +0 underflow
    assert np.allclose(v17(res.output[:3]), d[:3], rtol=2 ** -10)


def test_exponential_index_uses_the_exponent_and_underflows_below_the_offset() -> None:
    cfg = lut(le_function=EXPONENT, le_index_offset=-3, le_start=fp32_bits(0.0), le_end=fp32_bits(2.0 ** 61),
              le=f16(np.arange(65)), le_uflow_scale=int(f16(2.0)), lo_start=fp32_bits(32.0),
              lo_end=fp32_bits(96.0), uflow_priority=0)
    x = np.array([0.125, 0.1875, 1.0, 0.0625], dtype=np.float32)   # 2^-3, 1.5 x 2^-3, 2^0, 2^-4
    res = cdp_lookup_fp16(f32(x), cfg)
    assert res.le_state.tolist() == [0, 0, 0, 1]
    assert res.index[:3].tolist() == [0, 0, 3] and res.fraction[1] == 1 << 15
    # underflow: T[0] + (x - (START + 2^offset)) * slope = 0 + (2^-4 - 2^-3) * 2
    assert v17(res.output[3]) == -0.125


def test_lrn_is_within_seed_002_thresholds_of_a_float64_reference() -> None:
    """x * LUT(sum of squares) with a realistic (1 + a s)^-b table: the model against float64 arithmetic on
    the same FP16 table (linear interpolation between its entries)."""
    rng = np.random.default_rng(5)
    x = f16(rng.uniform(-0.1, 0.1, size=(16, 4, 4)))
    le_pos = np.arange(65) * 2.0 ** -6                     # linear LE over [0, 1)
    table = f16((1 + 0.5 * le_pos) ** -0.75)
    cfg = lut(le_index_select=-6, le_end=fp32_bits(1.0), le=table, hybrid_priority=0, oflow_priority=0)
    out, _ = cdp_fp16(x, 16, 5, False, False, False, cfg)
    xf = v16(x)
    sq = np.concatenate([np.zeros((2, 4, 4)), xf * xf, np.zeros((2, 4, 4))])
    s = sum(sq[k:k + 16] for k in range(5))
    want = xf * np.interp(s, le_pos, v16(table))
    diff = np.abs(v16(out) - want)
    assert diff.max() <= 1e-4 and diff.max() / np.abs(want).max() <= 1e-3


def test_padding_lanes_and_edge_channels_are_zero_and_convertors_are_ignored() -> None:
    cfg = fp16_config(c=3, datin=(0x3C00, 7, 5), datout=(1234, 0xFFFD, 9))
    plain = CdpConfig(**{**cfg.__dict__, "datin_offset": 0, "datin_scale": 1, "datin_shifter": 0,
                         "datout_offset": 0, "datout_scale": 1, "datout_shifter": 0})
    cube = np.zeros((16, 1, 1), dtype=np.int64)
    cube[:, 0, 0] = f16(np.linspace(-3, 3, 16))            # lanes 3..15 hold data the layer must not read
    a, b = cdp_compute(cube, cfg), cdp_compute(cube, plain)
    assert np.array_equal(a.output, b.output)
    cube[3:] = f16(100.0)
    assert np.array_equal(cdp_compute(cube, cfg).output[:3], a.output[:3])


def test_nan_flush_and_nan_propagation_past_a_bypassed_multiplier() -> None:
    cube = np.zeros((16, 1, 1), dtype=np.int64)
    cube[0, 0, 0] = 0x7E01
    flushed, _ = cdp_fp16(cube, 16, 3, False, True, True, lut())
    assert not np.any(nvfloat.FP16.is_nan(flushed))
    kept, _ = cdp_fp16(cube, 16, 3, False, True, False, lut())
    assert int(kept[0, 0, 0]) == 0x7E01                    # the element's NaN, not the LUT's result
    assert nvfloat.FP16.is_nan(kept[1, 0, 0])              # its square reaches the neighbours' sums


def test_hybrid_counts_one_more_per_element_and_saturation_counts_65504() -> None:
    cfg = fp16_config(lut(le=f16(np.full(65, 65504.0)), hybrid_priority=0), c=3, mul_bypass=1)
    res = cdp_compute(np.zeros((16, 1, 1), dtype=np.int64), cfg)
    assert res.lut is not None and res.hybrid == res.lut.hybrid + 16
    assert res.out_saturation == int(np.count_nonzero((res.output.view(np.uint16) & 0x7FFF) == 0x7BFF))


@pytest.mark.parametrize("beats, reports", [(4, [0, 0, 0]), (1, [0, 5, 7])])
def test_input_counter_reports_the_previous_layer_and_clears_on_the_last_command(beats: int,
                                                                                  reports: list[int]) -> None:
    counter = InputCounter()
    assert [counter.layer(n, beats) for n in (5, 7, 9)] == reports


@pytest.mark.parametrize("change, rule", [
    ({"le_end": fp32_bits(65.0)}, "LE_END = LE_START + pow(2, LE_INDEX_SELECT+6)"),
    ({"lo_start": 0x7FC00000}, "must not be NaN"),
    ({"le_index_select": 122}, "LE_INDEX_SELECT must be in [-128, 121]"),
    ({"le_function": EXPONENT, "le_index_offset": -127}, "LE_INDEX_OFFSET must be in [-126, 127]"),
    ({"lo_index_select": 20, "lo_start": fp32_bits(2.0 ** 53), "lo_end": fp32_bits(2.0 ** 53 + 2.0 ** 28)},
     "LO_START < pow(2, LO_INDEX_SELECT+32)"),
])
def test_fp16_lut_limitation_rules_are_named(change: dict[str, int], rule: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(rule)):
        validate(lut(**change))
