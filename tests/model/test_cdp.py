"""The CDP (LRN) model: hand-computed convertor, square-sum window, LUT, multiply and output values, the
saturation count, bypass modes, memory layout, and every CDP Limitation rule."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from models.cdp.model import CdpConfig, advisories, cdp_compute, input_convert, run_cdp, square_sum
from models.common.memory import Memory
from models.errors import ConfigError
from tests.model.cdp_fields import IDENTITY_LO, cdp_fields


def make(lo: Any = IDENTITY_LO, **kw: Any) -> CdpConfig:
    return CdpConfig.from_fields(cdp_fields(**kw), tables=(np.zeros(65), np.asarray(lo)))


def column(values: list[int]) -> np.ndarray:
    """A [len(values), 1, 1] int8 cube."""
    return np.array(values, dtype=np.int8).reshape(-1, 1, 1)


def out_of(cfg: CdpConfig, values: list[int]) -> list[int]:
    cube = np.zeros((cfg.padded_channels, 1, 1), dtype=np.int8)
    cube[:len(values), 0, 0] = values
    return cdp_compute(cube, cfg).output[:, 0, 0].tolist()


# --- input convertor ---------------------------------------------------------------------------------------

def test_input_offset_is_truncated_to_int8() -> None:
    # DATIN_OFFSET 0x0180 -> int8 -128: x - (-128).
    cfg = make(datin=(0x0180, 1, 0))
    assert input_convert(column([0, -128, 127, 0, 0, 0, 0, 0]), cfg)[:3, 0, 0].tolist() == [128, 0, 255]


def test_input_convertor_rounds_half_away_and_saturates_to_9_bits() -> None:
    cfg = make(datin=(0, 3, 1))  # x * 3 / 2
    got = input_convert(column([1, -1, 127, -128, 5, 0, 0, 0]), cfg)[:5, 0, 0].tolist()
    assert got == [2, -2, 191, -192, 8]
    sat = make(datin=(0xFF, 0x7FFF, 0))  # offset -1, huge scale: saturates at the 9-bit limits
    assert input_convert(column([3, -3, 0, 0, 0, 0, 0, 0]), sat)[:3, 0, 0].tolist() == [255, -256, 255]


def test_lanes_beyond_channel_read_as_the_offset() -> None:
    # C = 3: lanes 3..7 of the atom are padding; they read as DATIN_OFFSET and convert to 0.
    cfg = make(c=3, datin=(5, 1, 0))
    got = input_convert(column([7, 7, 7, 7, 7, 7, 7, 7]), cfg)[:, 0, 0].tolist()
    assert got == [2, 2, 2, 0, 0, 0, 0, 0]


# --- square sum ---------------------------------------------------------------------------------------------

def test_square_sum_windows_at_the_channel_edges() -> None:
    x = np.array([1, 2, 3, 4, 5], dtype=np.int64).reshape(-1, 1, 1)
    assert square_sum(x, 3)[:, 0, 0].tolist() == [1 + 4, 1 + 4 + 9, 4 + 9 + 16, 9 + 16 + 25, 16 + 25]
    assert square_sum(x, 9)[:, 0, 0].tolist() == [55] * 5
    assert square_sum(x, 5)[:, 0, 0].tolist() == [14, 30, 55, 54, 50]


# --- whole data path --------------------------------------------------------------------------------------

def test_lrn_value_hand_computed() -> None:
    # C = 2, x = (3, 4): square sum 25 for both; LO[25] = 25; times x: 75, 100; out shift 2: 18.75 -> 19, 25.
    # Padding lane 2 sees 4^2 = 16 from its neighbour but multiplies by its own 0.
    cfg = make(c=2, datout=(0, 1, 2))
    assert out_of(cfg, [3, 4])[:3] == [19, 25, 0]


def test_mul_bypass_outputs_the_lut_and_shows_the_padding_lanes() -> None:
    cfg = make(c=2, mul_bypass=1, datout=(0, 1, 2))
    # LUT values 25, 25, 16 (lane 2: 4^2), 0 ... -> shift 2: 6.25 -> 6, 6, 4.
    assert out_of(cfg, [3, 4])[:4] == [6, 6, 4, 0]


def test_sqsum_bypass_looks_up_the_converted_value() -> None:
    # LO covers [-128, 128) with step 1 and LO[i] = i - 128: the LUT returns x itself; times x = x^2.
    cfg = make(lo=np.arange(257) - 128, sqsum_bypass=1, lo_start=-128, datout=(0, 1, 4))
    assert out_of(cfg, [-8, 12, 0, 5])[:4] == [4, 9, 0, 2]  # 64/16, 144/16, 0, 25/16 = 1.5625 -> 2


def test_lrn_length_9_reaches_four_channels_each_way() -> None:
    cfg3, cfg9 = make(mul_bypass=1), make(mul_bypass=1, normalz=3)
    values = [0, 0, 0, 0, 0, 0, 0, 4]
    assert out_of(cfg3, values) == [0, 0, 0, 0, 0, 0, 16, 16]
    assert out_of(cfg9, values) == [0, 0, 0, 16, 16, 16, 16, 16]


def test_output_offset_keeps_25_bits() -> None:
    # 0x02000005 keeps 5 (bit 25 dropped); 0x01000000 is -2^24 in 25 bits.
    cfg = make(mul_bypass=1, datout=(0x02000005, 1, 0))
    assert out_of(cfg, [3])[0] == 9 - 5
    cfg = make(mul_bypass=1, datout=(0x01000000, 1, 0))
    assert out_of(cfg, [3])[0] == 127


def test_output_scale_is_signed_and_shift_rounds_half_away() -> None:
    cfg = make(mul_bypass=1, datout=(0, 0xFFFF, 1))  # scale -1, shift 1: -9/2 = -4.5 -> -5
    assert out_of(cfg, [3])[0] == -5


def test_saturation_count_follows_the_hls_flag() -> None:
    # MUL bypass with LO[i] = i: the output convertor sees the square sums directly (shift 0).
    # 128 and -129 are clamped but not counted (within one of the limit); 129 and -130 are counted.
    lo = np.arange(257)
    lo[128:131] = [128, 129, 129]
    cfg = make(lo=lo, mul_bypass=1, sqsum_bypass=1, lo_start=-128, datout=(0, 1, 0))
    cube = column([0] * 8)
    for x, counted in ((128 - 128, 0), (129 - 128, 1)):
        cube[0, 0, 0] = x
        cube[1:] = -128
        res = cdp_compute(cube, cfg)
        assert int(res.output[0, 0, 0]) == 127
        assert res.out_saturation == counted
    neg = make(lo=np.arange(257) * 0 - 129, mul_bypass=1, sqsum_bypass=1, lo_start=-128)
    assert cdp_compute(column([0] * 8), neg).out_saturation == 0
    neg = make(lo=np.arange(257) * 0 - 130, mul_bypass=1, sqsum_bypass=1, lo_start=-128)
    assert cdp_compute(column([0] * 8), neg).out_saturation == 8


def test_lut_statistics_reach_the_result() -> None:
    # Square sums 0 (LO underflows too: x - start <= 0), 25, 25, 16, 0...: LE underflows everywhere.
    cfg = make(c=2)
    res = cdp_compute(column([3, 4, 0, 0, 0, 0, 0, 0]), cfg)
    assert res.lut_counts == {"le_hit": 0, "lo_hit": 3, "uflow": 5, "oflow": 0, "hybrid": 0}


# --- memory -------------------------------------------------------------------------------------------------

def test_run_cdp_reads_and_writes_the_strided_layout() -> None:
    # 2x2x10 cube: two surfaces; the second holds channels 8, 9 and six padding lanes, all written.
    cfg = make(w=2, h=2, c=10, mul_bypass=1, line=0x40, surf=0x200)
    mem = Memory()
    mem.fill(0x8000, 0x400, 0x5A)
    rng = np.random.default_rng(7)
    cube = rng.integers(-15, 16, (16, 2, 2)).astype(np.int8)
    cube[10:] = 0
    for c in range(10):
        for hh in range(2):
            for ww in range(2):
                addr = 0x1000 + (c // 8) * 0x200 + hh * 0x40 + ww * 8 + c % 8
                mem.write(addr, np.array([cube[c, hh, ww]], dtype=np.int8).view(np.uint8))
    res = run_cdp(cfg, mem)
    want = cdp_compute(cube, cfg).output
    assert np.array_equal(res.output, want)
    for c in range(16):
        for hh in range(2):
            for ww in range(2):
                addr = 0x8000 + (c // 8) * 0x200 + hh * 0x40 + ww * 8 + c % 8
                assert int(mem.read(addr, 1).view(np.int8)[0]) == int(want[c, hh, ww])
    # Gaps between lines and surfaces are left alone.
    assert mem.read(0x8000 + 16, 0x40 - 16).tolist() == [0x5A] * (0x40 - 16)
    assert int(mem.read(0x8000 + 0x40 + 16, 1)[0]) == 0x5A



@pytest.mark.parametrize("atom", [8, 32])
@pytest.mark.parametrize("src_mc, dst_mc", [(1, 1), (0, 0), (1, 0), (0, 1)])
def test_run_cdp_ram_type_picks_the_memory(atom: int, src_mc: int, dst_mc: int) -> None:
    # RAM_TYPE 1 (MC) is the primary memory, 0 (CV) the secondary one (CV SRAM), for the read (CDP_RDMA
    # SRC_RAM_TYPE) and the write (CDP DST_RAM_TYPE) independently: NVIDIA's DMAIF_rdreq/DMAIF_wr steer
    # each request by the bit. nv_large's cdp_8x8x64_lrn9_int8_0 reads and writes CV.
    fields = cdp_fields(w=2, h=1, c=2 * atom, sqsum_bypass=1, mul_bypass=1, line=2 * atom, surf=2 * atom,
                        CDP_RDMA__D_SRC_DMA_CFG_DOT_SRC_RAM_TYPE=src_mc,
                        CDP__D_DST_DMA_CFG_DOT_DST_RAM_TYPE=dst_mc)
    cfg = CdpConfig.from_fields(fields, atom, (np.zeros(65), IDENTITY_LO))
    pri, sec = Memory(), Memory()
    data = (np.arange(4 * atom) % 100 + 1).astype(np.uint8)  # bypassed LRN, identity LO: out = in
    (pri if src_mc else sec).write(0x1000, data)
    run_cdp(cfg, pri, sec_mem=sec)
    written, untouched = (pri, sec) if dst_mc else (sec, pri)
    assert written.read(0x8000, 4 * atom).tolist() == data.tolist()
    assert not untouched.read(0x8000, 4 * atom).any()
    # One memory given (a design without CV SRAM): both sides use it.
    one = Memory()
    one.write(0x1000, data)
    run_cdp(cfg, one)
    assert one.read(0x8000, 4 * atom).tolist() == data.tolist()

# --- Limitation rules -----------------------------------------------------------------------------------

@pytest.mark.parametrize("extra, rule", [
    ({"CDP__D_DATA_FORMAT_DOT_INPUT_DATA_TYPE": 1}, "not a precision of this configuration"),
    ({"CDP_RDMA__D_DATA_FORMAT_DOT_INPUT_DATA": 2}, "not a precision of this configuration"),
    ({"CDP__D_LRN_CFG_DOT_NORMALZ_LEN": 4}, "maximum supported local_size is 9"),
])
def test_format_and_local_size_rules(extra: dict[str, int], rule: str) -> None:
    with pytest.raises(ConfigError) as err:
        CdpConfig.from_fields(cdp_fields(**extra))
    assert rule in err.value.rule


def test_line_stride_must_hold_a_line() -> None:
    with pytest.raises(ConfigError, match="LINE_STRIDE has to be bigger"):
        make(w=9, h=2, line=0x40, surf=0x1000)
    make(w=8, h=2, line=0x40, surf=0x1000)


def test_surfaces_must_not_overlap() -> None:
    with pytest.raises(ConfigError, match="SURFACE_STRIDE must hold a whole surface"):
        make(w=8, h=2, c=16, line=0x40, surf=0x60)


def test_lut_rules_apply_through_cdp() -> None:
    bad = cdp_fields()
    bad["CDP"]["S_LUT_LO_END_LOW.LUT_LO_END_LOW"] = 255
    with pytest.raises(ConfigError, match=r"LO_END-LO_START == 1<<\(LO_INDEX_SELECT\+8\)"):
        CdpConfig.from_fields(bad)


def test_unpacked_1x1_cube_is_an_advisory() -> None:
    # NVIDIA's cdp_1x1x1_lrn3_int8_0 uses 256-byte lines for a 1x1x1 cube.
    assert any("line_packed" in a for a in advisories(make(line=0x100)))
    assert advisories(make(line=8, surf=8)) == []
