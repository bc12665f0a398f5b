"""The LUT helper at FP16 (models/lut/fp16_program.py): its registers satisfy the FP16 Limitation rows, its
entries are f at the table positions in FP16, and the programmed sigmoid/tanh stay within the precision
`make lut-report` reports (units of 2^-15 on the SDP's FP16 output)."""

from __future__ import annotations

import numpy as np
import pytest

from models.lut import fp16_program as fp
from models.lut import program as lp
from models.lut.fp16 import fp32_value


def test_lo_only_table_holds_f_at_its_positions_and_fp32_bounds() -> None:
    prog = fp.sigmoid_fp16(layout="lo_only")
    cfg = prog.lut_config()
    assert (fp32_value(cfg.lo_start), fp32_value(cfg.lo_end), cfg.lo_index_select) == (-16.0, 16.0, -3)
    pos = -16.0 + np.arange(257) * 0.125
    want = lp.sigmoid_fn(pos).astype(np.float16)
    assert np.array_equal(cfg.lo.astype(np.uint16).view(np.float16), want)
    slope = float(np.uint16(cfg.lo_oflow_scale & 0xFFFF).view(np.float16))
    assert slope == pytest.approx(float(lp.sigmoid_fn(16.0) * (1 - lp.sigmoid_fn(16.0))), abs=2.0 ** -24)


def test_fp16_sigmoid_precision_with_the_searched_density_table() -> None:
    rep = fp.error_report(fp.sigmoid_fp16(layout="lo_density"), lp.sigmoid_fn)
    assert rep.max_lsb <= 24.0 and rep.beyond_max_lsb <= 1.0


def test_fp16_tanh_and_lrn_precision() -> None:
    tanh = fp.program_fp16(lp.tanh_fn, -8.0, 8.0, layout="lo_density", density=(-4.6875, 3.3125))
    assert fp.error_report(tanh, lp.tanh_fn).max_lsb <= 25.0
    lrn = fp.program_fp16(lp.lrn_fn(), 0.0, 2.0 ** 24, unit="CDP", layout="lo_density",
                          density=(0.0, 2.0 ** 20), domain=(0.0, None))
    assert lrn.lut_config().unit == "CDP" and fp.error_report(lrn, lp.lrn_fn()).max_lsb <= 64.0


def test_density_range_is_kept() -> None:
    prog = fp.program_fp16(lp.tanh_fn, -8.0, 8.0, layout="le_density", density=(-1.0, 1.0))
    cfg = prog.lut_config()
    assert (fp32_value(cfg.le_start), fp32_value(cfg.le_end)) == (-1.0, 1.0)
