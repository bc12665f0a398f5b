"""The drivers at FP16 (nv_full): FP16 layers that keep seed 001's Limitation rules are accepted, the others
refused with the rule named; the SDP precision conversions NVIDIA's RTL runs (INT16 -> FP16, modelled: the
output convertor's 17-bit result rounded to FP16) and the ones it does not (FP16 -> INT8, INT8 -> FP16)."""

from __future__ import annotations

import numpy as np
import pytest

from models.cdp.driver import cdp_layer
from models.common import nvfloat
from models.errors import ConfigError
from models.lut.fp16 import fp32_bits
from models.lut.model import LINEAR, LutConfig
from models.pdp.driver import Surface
from models.sdp.datapath import ALU_EQL, ALU_SUM
from models.sdp.driver import EwBlock, EwConverter, OutputCvt, operand_dma, sdp_layer
from models.sdp.model import sdp_compute

SRC, DST, OPS = (Surface(0x80000000, 0x400, 0x1000), Surface(0x80100000, 0x400, 0x1000),
                 Surface(0x80200000, 0x400, 0x1000))


pytestmark = pytest.mark.configuration("nv_full")


def _ew_mem(cvt_bypass: bool, algo: int = ALU_SUM) -> EwBlock:
    return EwBlock(bypass=False, alu_bypass=False, alu_algo=algo, alu_from_mem=True,
                   alu_cvt=EwConverter(bypass=cvt_bypass))


def test_fp16_memory_operand_needs_its_convertor() -> None:
    sdp_layer(2, 2, 8, ew=_ew_mem(False), erdma=operand_dma(OPS, "alu", two_byte=True), src=SRC, dst=DST,
              in_precision="FP16", out_precision="FP16")
    rule = "for PROC_PRECISION==FP16, if EW_ALU_BYPASS==NO && EW_ALU_SRC==MEM"
    with pytest.raises(ConfigError, match=rule):
        sdp_layer(2, 2, 8, ew=_ew_mem(True), erdma=operand_dma(OPS, "alu", two_byte=True), src=SRC, dst=DST,
                  in_precision="FP16", out_precision="FP16")


def test_eql_keeps_its_convertor_at_fp16_only() -> None:
    sdp_layer(2, 2, 8, ew=_ew_mem(False, ALU_EQL), erdma=operand_dma(OPS, "alu", two_byte=True), src=SRC,
              in_precision="FP16", out_precision="FP16")
    with pytest.raises(ConfigError, match=r"Y ALU convertor must be bypassed \(except FP16\)"):
        sdp_layer(2, 2, 8, ew=_ew_mem(False, ALU_EQL), erdma=operand_dma(OPS, "alu", two_byte=True), src=SRC,
                  in_precision="INT16", out_precision="INT16")


def test_no_precision_conversion_in_eql_mode() -> None:
    with pytest.raises(ConfigError, match="precision conversion is not allowed"):
        sdp_layer(2, 2, 8, ew=_ew_mem(False, ALU_EQL), erdma=operand_dma(OPS, "alu", two_byte=True), src=SRC,
                  in_precision="FP16", out_precision="INT16")


@pytest.mark.parametrize("pair, why", [(("FP16", "INT8"), "never completes"),
                                       (("INT8", "FP16"), "misplaces")])
def test_conversions_nvidias_rtl_does_not_run_are_refused(pair: tuple[str, str], why: str) -> None:
    with pytest.raises(ConfigError, match=why):
        sdp_layer(2, 2, 8, src=SRC, dst=DST, in_precision=pair[0], out_precision=pair[1])


def test_int16_to_fp16_rounds_the_convertors_17_bit_result() -> None:
    prog = sdp_layer(1, 1, 16, cvt=OutputCvt(0, 3, 0), src=SRC, dst=DST, in_precision="INT16",
                     out_precision="FP16")
    x = np.zeros((16, 1, 1), dtype=np.int64)
    # x3: 3, -6147, 90000 (saturates to 65535), -98304 (to -65536), 65535
    x[:5, 0, 0] = [1, -2049, 30000, -32768, 21845]
    res = sdp_compute(x, prog.config)
    got = (res.data[:5, 0, 0] & 0xFFFF).astype(np.uint16).view(np.float16).tolist()
    assert got == [3.0, -6148.0, 65504.0, -65504.0, 65504.0]
    assert res.saturation_count == 2                  # the 17-bit stage saturated twice (65535 did not)
    assert int(nvfloat.int_to_fp16(2049)) == int(np.float16(2048).view(np.uint16))   # ties to even


def test_cdp_fp16_lut_rules_are_named() -> None:
    good = LutConfig(le_function=LINEAR, le_index_select=0, lo_index_select=-2, le_start=fp32_bits(0.0),
                     le_end=fp32_bits(64.0), lo_start=fp32_bits(0.0), lo_end=fp32_bits(64.0), unit="CDP",
                     precision="FP16")
    cdp_layer(2, 2, 8, lut=good, src=SRC, dst=DST, precision="FP16", nan_to_zero=True)
    bad = LutConfig(**{**good.__dict__, "lo_end": fp32_bits(65.0)})
    with pytest.raises(ConfigError, match="LO_END = LO_START"):
        cdp_layer(2, 2, 8, lut=bad, src=SRC, dst=DST, precision="FP16")
    with pytest.raises(ConfigError, match="NaN flush to zero is an FP16 setting"):
        cdp_layer(2, 2, 8, lut=LutConfig(), src=SRC, dst=DST, precision="INT16", nan_to_zero=True)
