"""Hand-computed cases for the PDP model (pooling, padding, recip rounding, split width, Limitation rules)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from models.errors import ConfigError
from models.pdp.model import AVERAGE, MAX, MIN, PdpConfig, max_band_width, pad_term, pdp_pool, run_pdp

ONE = 1 << 16  # recip 1.0 in the 16-bit fraction format


def pdp_fields(w: int, h: int, c: int = 1, *, kw: int = 1, kh: int = 1, sw: int = 1, sh: int = 1,
               pl: int = 0, pr: int = 0, pt: int = 0, pb: int = 0, method: int = AVERAGE,
               out_w: int | None = None, out_h: int | None = None, recip_w: int = ONE, recip_h: int = ONE,
               pads: tuple[int, ...] = (0,) * 7, flying: bool = False, split: int = 0,
               part_in: tuple[int, int, int] = (1, 1, 1), part_out: tuple[int, int, int] = (1, 1, 1),
               src: int = 0x1000, dst: int = 0x8000) -> dict[str, dict[str, int]]:
    """Register fields (as stored: sizes minus one) of a PDP layer."""
    if out_w is None:
        out_w = (w + pl + pr - kw) // sw + 1
    if out_h is None:
        out_h = (h + pt + pb - kh) // sh + 1
    pdp = {
        "D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH": w - 1, "D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT": h - 1,
        "D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL": c - 1, "D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH": out_w - 1,
        "D_DATA_CUBE_OUT_HEIGHT.CUBE_OUT_HEIGHT": out_h - 1,
        "D_DATA_CUBE_OUT_CHANNEL.CUBE_OUT_CHANNEL": c - 1,
        "D_OPERATION_MODE_CFG.POOLING_METHOD": method, "D_OPERATION_MODE_CFG.FLYING_MODE": 0 if flying else 1,
        "D_OPERATION_MODE_CFG.SPLIT_NUM": split,
        "D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_FIRST": part_in[0] - 1,
        "D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_MID": part_in[1] - 1,
        "D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_LAST": part_in[2] - 1,
        "D_PARTIAL_WIDTH_OUT.PARTIAL_WIDTH_OUT_FIRST": part_out[0] - 1,
        "D_PARTIAL_WIDTH_OUT.PARTIAL_WIDTH_OUT_MID": part_out[1] - 1,
        "D_PARTIAL_WIDTH_OUT.PARTIAL_WIDTH_OUT_LAST": part_out[2] - 1,
        "D_POOLING_KERNEL_CFG.KERNEL_WIDTH": kw - 1, "D_POOLING_KERNEL_CFG.KERNEL_HEIGHT": kh - 1,
        "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH": sw - 1,
        "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_HEIGHT": sh - 1,
        "D_RECIP_KERNEL_WIDTH.RECIP_KERNEL_WIDTH": recip_w,
        "D_RECIP_KERNEL_HEIGHT.RECIP_KERNEL_HEIGHT": recip_h,
        "D_POOLING_PADDING_CFG.PAD_LEFT": pl, "D_POOLING_PADDING_CFG.PAD_RIGHT": pr,
        "D_POOLING_PADDING_CFG.PAD_TOP": pt, "D_POOLING_PADDING_CFG.PAD_BOTTOM": pb,
        "D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW": dst, "D_DST_LINE_STRIDE.DST_LINE_STRIDE": 0x100,
        "D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": 0x1000, "D_DATA_FORMAT.INPUT_DATA": 0,
    }
    for n, v in enumerate(pads, start=1):
        pdp[f"D_POOLING_PADDING_VALUE_{n}_CFG.PAD_VALUE_{n}X"] = v
    rdma = {
        "D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH": w - 1, "D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT": h - 1,
        "D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL": c - 1, "D_OPERATION_MODE_CFG.SPLIT_NUM": split,
        "D_POOLING_KERNEL_CFG.KERNEL_WIDTH": kw - 1, "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH": sw - 1,
        "D_SRC_BASE_ADDR_LOW.SRC_BASE_ADDR_LOW": src, "D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": 0x100,
        "D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": 0x1000,
    }
    return {"PDP": pdp, "PDP_RDMA": rdma}


def cfg_of(*args: int, **kw: object) -> PdpConfig:
    return PdpConfig.from_fields(pdp_fields(*args, **kw))  # type: ignore[arg-type]


def cube_row(values: list[int]) -> np.ndarray:
    """A [8, 1, w] cube: channel 0 holds `values`, the other lanes 0."""
    x = np.zeros((8, 1, len(values)), dtype=np.int8)
    x[0, 0] = values
    return x


# ---- pooled size formula -------------------------------------------------------------------------------

@pytest.mark.parametrize(("w", "k", "s", "pl", "pr", "expected"), [
    (7, 3, 2, 1, 1, 4),    # (7+1+1-3)/2+1
    (8, 2, 2, 0, 0, 4),
    (5, 3, 1, 2, 2, 7),
    (1, 3, 1, 1, 1, 1),
    (24, 8, 8, 0, 0, 3),
])
def test_pooled_width_formula(w: int, k: int, s: int, pl: int, pr: int, expected: int) -> None:
    cfg = cfg_of(w, 1, kw=k, sw=s, pl=pl, pr=pr)
    assert cfg.out_width == expected
    with pytest.raises(ConfigError, match="CUBE_OUT_WIDTH"):
        cfg_of(w, 1, kw=k, sw=s, pl=pl, pr=pr, out_w=expected + 1)


def test_pooled_height_formula() -> None:
    assert cfg_of(1, 9, kh=3, sh=2, pt=2, pb=2).out_height == 6   # (9+2+2-3)/2+1
    with pytest.raises(ConfigError, match="CUBE_OUT_HEIGHT"):
        cfg_of(1, 9, kh=3, sh=2, pt=2, pb=2, out_h=5)


# ---- average pooling, padding and recip rounding -------------------------------------------------------

def test_average_with_left_and_right_padding() -> None:
    # Windows [pad,10,20], [10,20,30], [20,30,pad]; PAD_VALUE_1X = 5; recip 0x5555 ~ 1/3.
    cfg = cfg_of(3, 1, kw=3, pl=1, pr=1, recip_w=0x5555, pads=(5, 10, 15, 20, 25, 30, 35))
    out = pdp_pool(cube_row([10, 20, 30]), cfg)
    # 35*21845/65536 = 11.67 -> 12; 60*21845/65536 = 19.9997 -> 20; 55*21845/65536 = 18.33 -> 18
    assert out[0, 0].tolist() == [12, 20, 18]


def test_padding_runs_use_the_run_length_table() -> None:
    # PAD_VALUE_2X is not twice PAD_VALUE_1X: a run of two padded columns must use 2X itself.
    cfg = cfg_of(4, 1, kw=3, pl=2, pads=(1, 100, 0, 0, 0, 0, 0))
    out = pdp_pool(cube_row([0, 0, 0, 0]), cfg)
    assert out[0, 0].tolist() == [100, 1, 0, 0]


def test_window_padded_on_both_sides_adds_the_combined_run() -> None:
    cfg = cfg_of(1, 1, kw=3, pl=1, pr=1, pads=(1, 50, 0, 0, 0, 0, 0))
    assert pdp_pool(cube_row([7]), cfg)[0, 0].tolist() == [57]   # 7 + PAD_VALUE_2X, not 7 + 2*1X


def test_padded_rows_add_pad_value_times_kernel_width() -> None:
    # rows [[1, 2], [3, 4]], kernel 2x3, one padded row on top: 1+2+3+4 + 3*2 = 16;
    # 16 * 0.5 = 8, then 8 * 21845/65536 = 2.67 -> 3.
    cfg = cfg_of(2, 2, kw=2, kh=3, pt=1, recip_w=0x8000, recip_h=0x5555, pads=(3, 0, 0, 0, 0, 0, 0))
    x = np.zeros((8, 2, 2), dtype=np.int8)
    x[0] = [[1, 2], [3, 4]]
    assert pdp_pool(x, cfg)[0].tolist() == [[3]]


def test_padded_columns_count_once_per_real_row() -> None:
    # 2 real rows, kernel 2x2, one padded column on the left: sum = 4 + 6 + 2 * PAD_VALUE_1X(10) = 30.
    cfg = cfg_of(1, 2, kw=2, kh=2, pl=1, pads=(10, 0, 0, 0, 0, 0, 0))
    x = np.zeros((8, 2, 1), dtype=np.int8)
    x[0, :, 0] = [4, 6]
    assert pdp_pool(x, cfg)[0].tolist() == [[30]]


@pytest.mark.parametrize(("values", "expected"), [
    ([1, 2], 2), ([-1, -2], -2),   # +-1.5: ties round away from zero
    ([1, 0], 1), ([-1, 0], -1),    # +-0.5
    ([2, 2], 2), ([-3, 2], -1),    # exact, and -0.5 -> -1
])
def test_recip_rounding_half_away_from_zero(values: list[int], expected: int) -> None:
    cfg = cfg_of(2, 1, kw=2, recip_w=0x8000)
    assert int(pdp_pool(cube_row(values), cfg)[0, 0, 0]) == expected


def test_recip_applies_width_then_height_with_two_roundings() -> None:
    # sum 5: 5 * 0.5 = 2.5 -> 3, then 3 * 0.5 = 1.5 -> 2 (one rounding of 5 * 0.25 would give 1).
    cfg = cfg_of(1, 1, recip_w=0x8000, recip_h=0x8000)
    assert int(pdp_pool(cube_row([5]), cfg)[0, 0, 0]) == 2


@pytest.mark.parametrize(("x", "recip_w", "recip_h", "expected"), [
    # recip_w = 0x1ffff ~ 2.0: 100 -> 199.998 -> 200 (fits the 11-bit first stage); the second stage keeps 7
    # bits of a positive result's integer part: 200 -> 72 (not the int8 -56 a plain wrap gives)
    (100, 0x1FFFF, ONE, 72),
    # negative results keep their low 8 bits: -100 * 2 = -200 -> 0x38 = 56
    (-100, 0x1FFFF, ONE, 56),
    # the first stage keeps 10 bits of a positive integer part: 127 * 1.99998 * 1.99998 = 508 (exact 507.99)
    # -> stage 1: 254, stage 2: 508 mod 128 = 124
    (127, 0x1FFFF, 0x1FFFF, 124),
])
def test_average_stages_have_the_rtl_widths(x: int, recip_w: int, recip_h: int, expected: int) -> None:
    cfg = cfg_of(1, 1, recip_w=recip_w, recip_h=recip_h)
    assert int(pdp_pool(cube_row([x]), cfg)[0, 0, 0]) == expected


def test_second_stage_rounding_into_the_sign_bit_wraps() -> None:
    # window sum 255 (1X pad 128 + 127), recip_w 0.5 -> 127.5 -> 128 in the 11-bit stage; recip_h 1.0 -> the
    # positive integer part 128 keeps 7 bits (0), then + 0 -> 0. Sum 254: 127 -> 127.
    cfg = cfg_of(1, 1, kw=2, pl=1, recip_w=0x8000, pads=(128, 0, 0, 0, 0, 0, 0))
    assert int(pdp_pool(cube_row([127]), cfg)[0, 0, 0]) == 0
    assert int(pdp_pool(cube_row([126]), cfg)[0, 0, 0]) == 127


@pytest.mark.parametrize(("raw", "expected"), [
    (0x7F, 127), (0xFF, 255), (0x7FFFF, -1), (0x7FF80, -128), (0x3FFFF, 262143), (0x40000, -262144),
])
def test_pad_values_are_19_bit_signed(raw: int, expected: int) -> None:
    assert pad_term(raw) == expected


def test_int8_row_sum_wraps_at_11_bits() -> None:
    # one real column 127 + PAD_VALUE_1X 1000 = 1127 -> 11 bits: -921; / 8 = -115.1 -> -115 (unwrapped: 141,
    # whose second stage would keep 13)
    cfg = cfg_of(1, 1, kw=2, pl=1, recip_w=0x2000, pads=(1000, 0, 0, 0, 0, 0, 0))
    assert int(pdp_pool(cube_row([127]), cfg)[0, 0, 0]) == -115


def test_int8_horizontal_pad_uses_bits_10_to_0() -> None:
    # 0x7F800 + 5: bits [10:0] are 5 (the 19-bit value is -2043, which the 11-bit row sum wraps to 5)
    cfg = cfg_of(1, 1, kw=2, pl=1, pads=(0x7F805, 0, 0, 0, 0, 0, 0))
    assert int(pdp_pool(cube_row([10]), cfg)[0, 0, 0]) == 15


def test_int8_window_sum_wraps_at_14_bits() -> None:
    # 1x1 input 1, kernel 2x2, one padded row on top: PAD_VALUE_1X 0x1000 (4096) x kernel width 2 = 8192 ->
    # 14 bits: -8192; the row adds 1X once more (4096 + 1 -> 11 bits: 1). -8192 + 1 = -8191;
    # * 1/64 = -127.98 -> -128.
    cfg = cfg_of(1, 1, kw=2, kh=2, pl=1, pt=1, recip_w=0x400, pads=(0x1000, 0, 0, 0, 0, 0, 0))
    assert int(pdp_pool(cube_row([1]), cfg)[0, 0, 0]) == -128


def test_negative_pad_value_in_average() -> None:
    cfg = cfg_of(1, 1, kw=2, pl=1, pads=(0xFB, 0, 0, 0, 0, 0, 0))   # PAD_VALUE_1X = -5
    assert int(pdp_pool(cube_row([20]), cfg)[0, 0, 0]) == 15


# ---- max / min -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("method", "expected"), [(MAX, [-3, -3, -3]), (MIN, [-5, -7, -7])])
def test_max_min_ignore_padding(method: int, expected: list[int]) -> None:
    # All inputs negative and pad values large: neither 0 nor the pad value may win.
    cfg = cfg_of(3, 1, kw=3, pl=1, pr=1, method=method, pads=(100,) * 7)
    assert pdp_pool(cube_row([-5, -3, -7]), cfg)[0, 0].tolist() == expected


def test_max_pooling_2d_with_stride() -> None:
    x = np.zeros((8, 4, 4), dtype=np.int8)
    x[3] = np.arange(16).reshape(4, 4) * np.array([1, -1, 1, -1])
    cfg = cfg_of(4, 4, 4, kw=2, kh=2, sw=2, sh=2, method=MAX)
    # blocks [[0,-1],[4,-5]] -> 4, [[2,-3],[6,-7]] -> 6, [[8,-9],[12,-13]] -> 12, [[10,-11],[14,-15]] -> 14
    assert pdp_pool(x, cfg)[3].tolist() == [[4, 6], [12, 14]]


def test_stride_larger_than_kernel_skips_columns() -> None:
    cfg = cfg_of(5, 1, kw=1, sw=2, method=MAX)
    assert pdp_pool(cube_row([1, 2, 3, 4, 5]), cfg)[0, 0].tolist() == [1, 3, 5]


# ---- split width -----------------------------------------------------------------------------------------

def test_split_width_without_overlap() -> None:
    cfg = cfg_of(8, 1, kw=2, sw=2, method=MAX, split=1, part_in=(4, 1, 4), part_out=(2, 1, 2))
    assert [(b.in_start, b.in_width, b.out_start, b.out_width) for b in cfg.bands()] == [(0, 4, 0, 2),
                                                                                         (4, 4, 2, 2)]
    assert pdp_pool(cube_row([1, 2, 3, 4, 5, 6, 7, 8]), cfg)[0, 0].tolist() == [2, 4, 6, 8]


def test_split_width_with_overlap_rereads_kernel_minus_stride_columns() -> None:
    cfg = cfg_of(6, 1, kw=3, method=MAX, split=1, part_in=(4, 1, 2), part_out=(2, 1, 2))
    assert [(b.in_start, b.in_width) for b in cfg.bands()] == [(0, 4), (2, 4)]
    assert pdp_pool(cube_row([3, 1, 4, 1, 5, 9]), cfg)[0, 0].tolist() == [4, 4, 5, 9]


def test_split_width_three_bands_average_with_padding_matches_unsplit() -> None:
    # Independent check: a valid split must not change the result of the unsplit pooling.
    rng = np.random.default_rng(7)
    x = rng.integers(-128, 128, size=(8, 3, 10)).astype(np.int8)
    common = dict(kw=3, kh=2, sw=1, pl=1, pr=2, recip_w=0x5555, recip_h=0x8000,
                  pads=(3, 7, 11, 0, 0, 0, 0))
    whole = cfg_of(10, 3, **common)  # type: ignore[arg-type]
    # out = 11 = 4 + 3 + 4. first_in + PL = (4-1)*1 + 3 -> 5; mid_in + 2 = (3-1) + 3 -> 3;
    # last_in + PR + 2 = (4-1) + 3 -> 2; and 5 + 3 + 2 = 10 input columns.
    split = cfg_of(10, 3, split=2, part_in=(5, 3, 2), part_out=(4, 3, 4), **common)  # type: ignore[arg-type]
    assert np.array_equal(pdp_pool(x, split), pdp_pool(x, whole))


@pytest.mark.parametrize(("w", "common", "part_in", "part_out"), [
    # kernel 3, stride 1: the last band's 1 column is narrower than the 2-column overlap (no band follows it)
    (7, dict(kw=3, method=AVERAGE, recip_w=0x5555), (4, 2, 1), (2, 2, 1)),
    # stride 3 > kernel 1: the first band's 1 column is not wider than stride - kernel (no band before it)
    (7, dict(kw=1, sw=3, method=MAX), (1, 3, 3), (1, 1, 1)),
])
def test_split_reading_leaves_the_outer_band_unconstrained(w: int, common: dict[str, Any],
                                                            part_in: tuple[int, int, int],
                                                            part_out: tuple[int, int, int]) -> None:
    """docs/limitations.md, "Split width: which bands P10 names": accepted, and pooled as without split."""
    x = np.random.default_rng(3).integers(-128, 128, size=(8, 1, w)).astype(np.int8)
    split = cfg_of(w, 1, split=2, part_in=part_in, part_out=part_out, **common)
    assert np.array_equal(pdp_pool(x, split), pdp_pool(x, cfg_of(w, 1, **common)))


# ---- Limitation rules ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "rule"), [
    (dict(w=4, kw=9), "maximum supported pooling kernel size is 8"),
    (dict(w=4, kw=2, pl=2), "PL/PR should be less than kernel_width"),
    (dict(w=4, kw=2, pr=2), "PL/PR should be less than kernel_width"),
    (dict(w=4, kw=3, sw=2, out_w=1), r"\(PL\+W\+PR-Kernel_W\)%stride_x == 0"),
    (dict(w=4, kw=2, out_w=4), "CUBE_OUT_WIDTH must be"),
    (dict(w=2, kh=2, pt=2), "PT/PB should be less than kernel_height"),
    (dict(w=1000, out_w=1000), "maximum flying width"),
    (dict(w=4, flying=True, split=1, part_in=(2, 1, 2), part_out=(2, 1, 2)),
     "on-the-fly mode needs SPLIT_NUM=0"),
    (dict(w=8, split=1, part_in=(4, 1, 4), part_out=(3, 1, 4)), "first_out \\+ last_out"),
    (dict(w=8, kw=2, sw=2, split=1, part_in=(5, 1, 3), part_out=(2, 1, 2)), "first_in_width \\+ PL"),
    (dict(w=8, kw=2, sw=2, split=1, part_in=(4, 1, 5), part_out=(2, 1, 2)), "last_in_width \\+ PR"),
    (dict(w=9, kw=1, split=2, part_in=(2, 4, 4), part_out=(2, 3, 4)), "mid_in_width \\+ overlap"),
    (dict(w=6, kw=1, split=1, part_in=(4, 1, 1), part_out=(4, 1, 1)), "in_width == CUBE_IN_WIDTH|first_out"),
    (dict(w=9, kw=3, split=2, part_in=(3, 1, 5), part_out=(1, 1, 5)), "kernel_w - stride_x"),
])
def test_limitation_rules_raise(kwargs: dict[str, object], rule: str) -> None:
    w = kwargs.pop("w")
    with pytest.raises(ConfigError, match=rule):
        cfg_of(w, 1, **kwargs)  # type: ignore[arg-type]


@pytest.mark.configuration("nv_small")
def test_split_band_width_limit() -> None:
    limit = max_band_width()
    assert limit == 128   # NVIDIA's cal2d: 8 banks of 16 columns, one output row in flight
    assert (max_band_width(2, 1), max_band_width(3, 1), max_band_width(8, 1)) == (64, 32, 16)
    with pytest.raises(ConfigError, match="first/mid/last_out_width"):
        cfg_of(2 * limit + 2, 1, split=1, part_in=(limit + 1, 1, limit + 1),
               part_out=(limit + 1, 1, limit + 1))


def test_int16_input_rejected_where_the_configuration_lacks_it() -> None:
    fields = pdp_fields(2, 1)
    fields["PDP"]["D_DATA_FORMAT.INPUT_DATA"] = 1
    fields["PDP_RDMA"]["D_DATA_FORMAT.INPUT_DATA"] = 1
    with pytest.raises(ConfigError, match="INT16 is not a precision of this configuration"):
        PdpConfig.from_fields(fields)
    fields["PDP"]["D_DATA_FORMAT.INPUT_DATA"] = 2
    fields["PDP_RDMA"]["D_DATA_FORMAT.INPUT_DATA"] = 2
    with pytest.raises(ConfigError, match="FP16 is not a precision"):
        PdpConfig.from_fields(fields, 32, ("INT8", "INT16"))
    assert PdpConfig.from_fields(fields, 32, ("INT8", "INT16", "FP16")).precision == 2   # modelled


def int16_cfg(*args: int, **kw: object) -> PdpConfig:
    fields = pdp_fields(*args, **kw)  # type: ignore[arg-type]
    fields["PDP"]["D_DATA_FORMAT.INPUT_DATA"] = 1
    fields["PDP_RDMA"]["D_DATA_FORMAT.INPUT_DATA"] = 1
    return PdpConfig.from_fields(fields, 32, ("INT8", "INT16"))


@pytest.mark.parametrize("method", [AVERAGE, MAX, MIN])
def test_int16_equals_int8_where_int8_neither_wraps_nor_overflows(method: int) -> None:
    """The same template at twice the widths: int8-range data pools alike at both precisions (the sums of a
    3x3 window of int8 stay in 16 bits and the averages in int8)."""
    rng = np.random.default_rng(16)
    x = rng.integers(-128, 128, (16, 6, 7))
    kw = dict(kw=3, kh=3, sw=2, sh=1, pl=1, pr=1, pt=1, pb=1, method=method, recip_w=0x5555,
              recip_h=0x5555, pads=(3, 6, 9, 12, 15, 18, 21))
    i8, i16 = cfg_of(7, 6, 16, **kw), int16_cfg(7, 6, 16, **kw)
    assert i16.lanes == 16 and i16.widths.acc_bits == 22
    assert np.array_equal(pdp_pool(x, i8).astype(np.int64), pdp_pool(x, i16).astype(np.int64))


def test_int16_max_pooling_is_the_window_maximum_over_the_whole_range() -> None:
    rng = np.random.default_rng(17)
    x = rng.integers(-32768, 32768, (16, 8, 8))
    out = pdp_pool(x, int16_cfg(8, 8, 16, kw=2, kh=2, sw=2, sh=2, method=MAX))
    assert out.dtype == np.int16
    assert np.array_equal(out, x.reshape(16, 4, 2, 4, 2).max(axis=(2, 4)))


def test_int16_average_keeps_22_bit_sums_and_the_rtl_stage_widths() -> None:
    x = np.full((16, 2, 2), 30000)
    avg = int16_cfg(2, 2, 16, kw=2, kh=2, method=AVERAGE, recip_w=ONE // 2, recip_h=ONE // 2)
    assert int(pdp_pool(x, avg)[0, 0, 0]) == 30000       # 120000 needs more than 16 bits: no wrap
    # recip 1.0: the sum itself; stage 1 keeps 18 bits of a positive integer part (120000 fits), stage 2
    # 15 bits: 120000 mod 32768
    wide = int16_cfg(2, 2, 16, kw=2, kh=2, method=AVERAGE)
    assert int(pdp_pool(x, wide)[0, 0, 0]) == 120000 % 32768
    neg = int16_cfg(2, 2, 16, kw=2, kh=2, method=AVERAGE)   # negative: the low 16 bits
    assert int(pdp_pool(-x, neg)[0, 0, 0]) == -120000 + 131072


def test_int16_window_sum_wraps_at_22_bits() -> None:
    # 1x1 input 0, kernel 8x2, 7 padded columns and one padded row: the row adds PAD_VALUE_7X (-262144), the
    # padded row PAD_VALUE_1X (-262144) x 8 = -2^21: -2359296 -> 22 bits: 1835008; * recip 1/16 (0x1000) =
    # 114688 (stage 1 keeps 18 bits), then * 1.0 -> 15 bits: 16384. Unwrapped it would be -147456 -> -16384.
    cfg = int16_cfg(1, 1, 16, kw=8, kh=2, pl=7, pt=1, recip_w=0x1000, pads=(0x40000,) + (0,) * 5 + (0x40000,))
    assert int(pdp_pool(np.zeros((16, 1, 1), dtype=np.int64), cfg)[0, 0, 0]) == 16384


def test_int16_cube_layout_is_two_byte_little_endian_lanes() -> None:
    from models.common.cube import CubeLayout
    from models.common.memory import Memory

    mem = Memory()
    layout = CubeLayout.packed(0x100, 2, 1, 20, atom_bytes=16, elem_bytes=2)
    cube = np.arange(-20, 20).reshape(20, 1, 2) * 1000
    layout.write(mem, cube)
    assert bytes(mem.read(0x100, 2)) == (-20000 & 0xFFFF).to_bytes(2, "little")  # c0 w0 first
    assert np.array_equal(layout.read(mem), cube)
    assert np.array_equal(layout.read_lanes(mem)[20:], np.zeros((12, 1, 2)))  # padding lanes are zero


def test_rdma_geometry_must_match() -> None:
    fields = pdp_fields(4, 1)
    fields["PDP_RDMA"]["D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH"] = 5
    with pytest.raises(ConfigError, match="PDP_RDMA CUBE_IN_WIDTH"):
        PdpConfig.from_fields(fields)


# ---- memory ----------------------------------------------------------------------------------------------

class DictMemory:
    """Byte memory filled with a sentinel, to see exactly what a run writes."""

    def __init__(self, fill: int = 0xA5) -> None:
        self.data: dict[int, int] = {}
        self.fill = fill

    def read(self, addr: int, n: int) -> np.ndarray:
        return np.array([self.data.get(addr + i, self.fill) for i in range(n)], dtype=np.uint8)

    def write(self, addr: int, data: np.ndarray) -> None:
        for i, b in enumerate(np.asarray(data, dtype=np.uint8).tolist()):
            self.data[addr + i] = b


def test_run_pdp_writes_every_lane_and_no_gap() -> None:
    mem = DictMemory()
    cfg = cfg_of(2, 1, 3, kw=2, method=MAX, src=0x1000, dst=0x8000)
    # input: lane l of atom w holds 10*w + l (padding lanes 3..7 included)
    mem.write(0x1000, np.array([10 * w + lane for w in range(2) for lane in range(8)], dtype=np.uint8))
    res = run_pdp(cfg, mem)
    assert res.output[:, 0, 0].tolist() == [10 + lane for lane in range(8)]
    assert mem.read(0x8000, 8).tolist() == [10 + lane for lane in range(8)]
    written = sorted(a for a in mem.data if a >= 0x8000)
    assert written == list(range(0x8000, 0x8008))   # one atom, nothing else


def test_run_pdp_on_the_fly_takes_the_given_cube() -> None:
    mem = DictMemory()
    cfg = cfg_of(2, 1, 1, kw=2, method=MIN, flying=True)
    res = run_pdp(cfg, mem, flying_input=cube_row([4, -9]))
    assert int(res.output[0, 0, 0]) == -9
    assert not any(0x1000 <= a < 0x2000 for a in mem.data)   # nothing read-only was written
    with pytest.raises(ValueError, match="flying_input"):
        run_pdp(cfg, mem)


# ---- random configurations against a per-window reference written with plain Python loops -----------------

def _round_div(num: int, den: int) -> int:
    """num / den rounded half away from zero, in exact integers."""
    q, r = divmod(abs(num), den)
    q += 2 * r >= den
    return q if num >= 0 else -q


def _signed(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _rtl_round(v: int, recip: int, bits: int) -> int:
    """v * recip / 2^16 as one of cal2d.v's stages: negative products round half away from zero into `bits`
    bits; positive ones keep bits-1 bits of their integer part and add the rounding bit."""
    product = v * recip
    if product < 0:
        return _signed(_round_div(product, 1 << 16), bits)
    return _signed((product >> 16) % (1 << (bits - 1)) + ((product >> 15) & 1), bits)


def _reference_pool(x: np.ndarray, p: dict[str, Any]) -> np.ndarray:
    c_num, h_num, w_num = x.shape
    kw, kh, sw, sh, pl, pt = p["kw"], p["kh"], p["sw"], p["sh"], p["pl"], p["pt"]
    pv = [0] + [_signed(v, 19) for v in p["pads"]]

    def run(start: int, size: int, k: int) -> int:
        before, after = max(0, -start), max(0, start + k - size)
        return before + after if before and after else max(before, after)

    out = np.zeros((c_num, p["out_h"], p["out_w"]), dtype=np.int64)
    for c in range(c_num):
        for oy in range(p["out_h"]):
            for ox in range(p["out_w"]):
                ys, xs = oy * sh - pt, ox * sw - pl
                rows = [y for y in range(ys, ys + kh) if 0 <= y < h_num]
                cols = [xx for xx in range(xs, xs + kw) if 0 <= xx < w_num]
                vals = [int(x[c, y, xx]) for y in rows for xx in cols]
                if p["method"] == MAX:
                    out[c, oy, ox] = max(vals)
                elif p["method"] == MIN:
                    out[c, oy, ox] = min(vals)
                else:
                    # NVIDIA's RTL (cal1d.v, cal2d.v): each row's sum + its pad in 11 bits, the window's in 14
                    row_sums = [_signed(sum(int(x[c, y, xx]) for xx in cols) + pv[run(xs, w_num, kw)], 11)
                                for y in rows]
                    total = _signed(sum(row_sums) + kw * pv[run(ys, h_num, kh)], 14)
                    out[c, oy, ox] = _rtl_round(_rtl_round(total, p["recip_w"], 11), p["recip_h"], 8)
    return out


def _random_geometry(rng: np.random.Generator) -> dict[str, Any] | None:
    kw, kh = (int(v) for v in rng.integers(1, 9, size=2))
    sw, sh = (int(v) for v in rng.integers(1, 9, size=2))
    pl, pr = (int(v) for v in rng.integers(0, min(kw, 8), size=2))
    pt, pb = (int(v) for v in rng.integers(0, min(kh, 8), size=2))
    out_w, out_h = (int(v) for v in rng.integers(1, 6, size=2))
    w = (out_w - 1) * sw + kw - pl - pr
    h = (out_h - 1) * sh + kh - pt - pb
    if w < 1 or h < 1:
        return None
    pads = tuple(int(rng.integers(0, 1 << 19)) for _ in range(7))   # any register value
    return dict(w=w, h=h, kw=kw, kh=kh, sw=sw, sh=sh, pl=pl, pr=pr, pt=pt, pb=pb, out_w=out_w, out_h=out_h,
                method=int(rng.integers(0, 3)), pads=pads,
                recip_w=int(rng.integers(0, 1 << 17)), recip_h=int(rng.integers(0, 1 << 17)))


def test_random_configurations_match_the_window_reference() -> None:
    rng = np.random.default_rng(2024)
    checked = 0
    while checked < 150:
        p = _random_geometry(rng)
        if p is None:
            continue
        cfg = cfg_of(p["w"], p["h"], 8, kw=p["kw"], kh=p["kh"], sw=p["sw"], sh=p["sh"], pl=p["pl"],
                     pr=p["pr"], pt=p["pt"], pb=p["pb"], method=p["method"], pads=p["pads"],
                     recip_w=p["recip_w"], recip_h=p["recip_h"])
        x = rng.integers(-128, 128, size=(8, p["h"], p["w"])).astype(np.int8)
        assert np.array_equal(pdp_pool(x, cfg), _reference_pool(x, p)), p
        checked += 1


@pytest.mark.configuration("nv_full")
@pytest.mark.parametrize("method", ["average", "max", "min"])
@pytest.mark.parametrize(("kernel", "stride", "pads"), [((3, 3), (1, 1), (0, 0, 0, 0)),
                                                        ((2, 2), (2, 2), (0, 0, 0, 0)),
                                                        ((3, 3), (2, 2), (1, 1, 1, 1))])
def test_fp16_pooling_is_within_seed_002_thresholds_of_a_float64_reference(
        method: str, kernel: tuple[int, int], stride: tuple[int, int], pads: tuple[int, ...]) -> None:
    """Seed 002's PDP threshold, per output: |a - b| <= 0.0001 and |a - b| / max_value <= 0.001, max_value the
    largest magnitude in the pooling window, against float64 pooling of the same FP16 inputs (pads count 0 in
    an average over the whole kernel, as NVDLA's reciprocals do, and are left out of max/min)."""
    from models.pdp.driver import Surface, pdp_layer

    rng = np.random.default_rng(2)
    c, h, w = 16, 11, 13
    x = rng.uniform(-0.1, 0.1, (c, h, w)).astype(np.float16)
    (kw, kh), (sw, sh), (pl, pr, pt, pb) = kernel, stride, pads
    if (w + pl + pr - kw) % sw:
        w -= (w + pl + pr - kw) % sw
        x = x[:, :, :w]
    prog = pdp_layer(w, h, c, method=method, kernel=kernel, stride=stride, pads=pads,
                     src=Surface(0x10000, 0x1000, 0x10000), dst=Surface(0x100000, 0x1000, 0x10000),
                     precision="FP16")
    pooled = pdp_pool(x.view(np.uint16).astype(np.int64), prog.config).astype(np.int64)
    a = (pooled & 0xFFFF).astype(np.uint16).view(np.float16).astype(np.float64)
    # pads are 0 in an average (NVDLA divides by the whole kernel) and not there for max/min
    xp = np.pad(x.astype(np.float64), ((0, 0), (pt, pb), (pl, pr)),
                constant_values=0.0 if method == "average" else np.nan)
    oh, ow = a.shape[1:]
    windows = np.stack([xp[:, i * sh:i * sh + kh, j * sw:j * sw + kw].reshape(c, -1)
                        for i in range(oh) for j in range(ow)], axis=1).reshape(c, oh, ow, kh * kw)
    b = {"average": np.mean, "max": np.nanmax, "min": np.nanmin}[method](windows, axis=-1)
    diff = np.abs(a - b)
    max_value = np.nanmax(np.abs(windows), axis=-1)
    worst = np.unravel_index(diff.argmax(), diff.shape)
    assert diff.max() <= 1e-4, f"|a-b| up to {diff.max():.3g} at (c, y, x) {worst}: {a[worst]}, {b[worst]}"
    assert (diff / max_value).max() <= 1e-3
