"""CDP at INT16 (nvdlav1 cmod lookup_lut widths): the int16 DATIN_OFFSET, the 17-bit input convertor, square
sums past 32 bits, the 32-bit DATOUT_OFFSET, int16 outputs, two-byte lanes in memory, the precision rules,
and the LUT's INT16 Limitation rows."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from models.cdp.model import INT16, CdpConfig, cdp_compute, cube_layouts, input_convert, run_cdp
from models.common.memory import Memory
from models.errors import ConfigError
from tests.model.cdp_fields import IDENTITY_LO, cdp_fields

BOTH = ("INT8", "INT16")
FORMAT = {"CDP__D_DATA_FORMAT_DOT_INPUT_DATA_TYPE": INT16, "CDP_RDMA__D_DATA_FORMAT_DOT_INPUT_DATA": INT16}


def make16(lo: Any = IDENTITY_LO, **kw: Any) -> CdpConfig:
    return CdpConfig.from_fields(cdp_fields(**{**FORMAT, **kw}), atom_bytes=32,
                                 tables=(np.zeros(65), np.asarray(lo)), precisions=BOTH)


def column16(values: list[int], cfg: CdpConfig) -> np.ndarray:
    cube = np.zeros((cfg.padded_channels, 1, 1), dtype=np.int64)
    cube[:len(values), 0, 0] = values
    return cube


def test_int16_has_sixteen_lanes_of_two_bytes() -> None:
    cfg = make16(c=20)
    assert (cfg.lanes, cfg.surfaces, cfg.padded_channels) == (16, 2, 32)
    src, _dst = cube_layouts(cfg)
    assert (src.atom_bytes, src.elem_bytes) == (16, 2)


def test_input_offset_is_int16_and_result_saturates_to_17_bits() -> None:
    # offset 0x8000 is int16 -32768 (at INT8 it would be the low byte, 0): x - (-32768), then sat17
    cfg = make16(datin=(0x8000, 1, 0))
    got = input_convert(column16([0, -32768, 32767, 100], cfg), cfg)[:4, 0, 0].tolist()
    assert got == [32768, 0, 65535, 32868]
    doubled = make16(datin=(0, 3, 0))  # 3 x: 98301 saturates to 65535, -98304 to -65536
    got = input_convert(column16([32767, -32768, 5], doubled), doubled)[:3, 0, 0].tolist()
    assert got == [65535, -65536, 15]


def test_square_sum_exceeds_32_bits_and_output_saturates_to_int16() -> None:
    # x17 = 65535 in three neighbouring channels: a square sum of 3 * 65535^2 > 2^32 (the 38-bit LUT input).
    # LO spans [0, 2^(28+8)) linearly with LO[i] = i, so the LUT returns about sum / 2^28.
    lo_select = 28
    cfg = make16(datin=(0, 2, 0), lo_select=lo_select, mul_bypass=1)
    res = cdp_compute(column16([32767, 32767, 32767], cfg), cfg)
    s = 3 * 65534 ** 2
    expected = (s >> lo_select)  # LO[index] with LO[i] = i, plus the interpolated fraction
    frac = (s & ((1 << lo_select) - 1)) >> (lo_select - 16)
    expected += (frac + (1 << 15)) >> 16
    assert res.output.dtype == np.int16
    assert int(res.output[1, 0, 0]) == expected
    big = make16(datout=(0, 0x7FFF, 0), sqsum_bypass=1, mul_bypass=1)   # LO[100] * 32767 -> 32767
    assert int(cdp_compute(column16([100], big), big).output[0, 0, 0]) == 32767


def test_output_offset_takes_32_bits_at_int16() -> None:
    # DATOUT_OFFSET -2^30: INT8 keeps 25 bits of it (0), INT16 all 32; (0 + 2^30) >> 15 = 32768 -> 32767
    cfg = make16(datout=(0xC0000000, 1, 15), mul_bypass=1)
    assert int(cdp_compute(column16([0], cfg), cfg).output[0, 0, 0]) == 32767
    cfg = make16(datout=(0xFFFF0000, 1, 4), mul_bypass=1)   # -65536 >> 4 -> +4096
    assert int(cdp_compute(column16([0], cfg), cfg).output[0, 0, 0]) == 4096


def test_run_cdp_reads_and_writes_two_byte_lanes() -> None:
    cfg = make16(w=2, c=18, datin=(0, 1, 0), sqsum_bypass=1, mul_bypass=1, line=0x40, surf=0x80,
                 dst=0x9000)
    src, dst = cube_layouts(cfg)
    mem = Memory()
    cube = np.arange(-18, 18, dtype=np.int64).reshape(18, 1, 2)
    src.write(mem, cube)
    run_cdp(cfg, mem)
    out = dst.read_lanes(mem)
    # sqsum and mul bypassed, LO[i] = i from 0: positive x comes back; x <= 0 underflows to LO[0] = 0
    assert out[:18].tolist() == np.maximum(cube, 0).tolist()


@pytest.mark.parametrize("fields, rule", [
    ({"CDP__D_DATA_FORMAT_DOT_INPUT_DATA_TYPE": INT16}, "must equal CDP's INPUT_DATA_TYPE"),
    ({**FORMAT, "CDP__D_DATA_FORMAT_DOT_INPUT_DATA_TYPE": 2,
      "CDP_RDMA__D_DATA_FORMAT_DOT_INPUT_DATA": 2}, "not a precision of this configuration"),
])
def test_precision_rules(fields: dict[str, int], rule: str) -> None:
    with pytest.raises(ConfigError, match=rule):
        CdpConfig.from_fields(cdp_fields(**fields), atom_bytes=32, tables=(np.zeros(65), IDENTITY_LO),
                              precisions=BOTH)


def test_int16_refused_where_the_configuration_lacks_it() -> None:
    with pytest.raises(ConfigError, match="not a precision of this configuration"):
        CdpConfig.from_fields(cdp_fields(**FORMAT), atom_bytes=32, tables=(np.zeros(65), IDENTITY_LO))


def test_lut_index_select_ranges_are_the_int16_rows() -> None:
    # CDP LO_INDEX_SELECT: INT8 stops at 13, INT16 at 29 (seed 001 Limitation / LUT)
    assert make16(lo_select=29, lo_start=-(1 << 36)).lut.lo_index_select == 29
    with pytest.raises(ConfigError, match=r"LO_INDEX_SELECT must be in \[-8, 29\] \(INT16\)"):
        make16(lo_select=30)
    with pytest.raises(ConfigError, match=r"\[-8, 13\] \(INT8\)"):
        CdpConfig.from_fields(cdp_fields(lo_select=14), tables=(np.zeros(65), IDENTITY_LO))
