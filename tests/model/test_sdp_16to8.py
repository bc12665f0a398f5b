"""SDP INT16 -> INT8 as NVIDIA's hardware does it: the MRDMA's 16to8 mode (SDP_RDMA IN_PRECISION INT16,
PROC_PRECISION INT8). Checked against NVIDIA's nv_full RTL (nvdla-ref): whole int16 values enter the
datapath, the INT8 processing pads to its own lanes (lanes past the input compute on 0), operands follow the
INT8 lanes, the output is int8; PROC INT16 with OUT INT8 (which that RTL never completes) is an advisory."""

from __future__ import annotations

import numpy as np
import pytest

from models.common.cube import CubeLayout
from models.common.memory import Memory
from models.errors import ConfigError
from models.sdp.model import INT8, INT16, SdpConfig, advisories, run_sdp
from tests.model.sdp_regs import bs_regs, sdp_fields

BOTH = ("INT8", "INT16")
MODE_16TO8 = {"RDMA__D_FEATURE_MODE_CFG__IN_PRECISION": INT16,
              "RDMA__D_FEATURE_MODE_CFG__PROC_PRECISION": INT8}


def test_16to8_reads_int16_lanes_and_pads_to_int8_lanes() -> None:
    # nv_small's 8-byte atom: the input has 4 lanes of two bytes, the INT8 processing 8 lanes of one byte
    cfg = SdpConfig.from_fields(sdp_fields(w=1, h=2, c=10, **MODE_16TO8), precisions=BOTH)
    assert (cfg.src_precision, cfg.src_lanes, cfg.lanes, cfg.padded_channels) == (INT16, 4, 8, 16)
    mem = Memory()
    src = CubeLayout(0x1000, 0x100, 0x1000, 1, 2, 10, 4, 2)
    values = np.arange(-500, 500, 50)[:20].reshape(10, 2, 1)
    src.write(mem, values)
    res = run_sdp(cfg, mem)
    assert res.output[:10].tolist() == np.clip(values, -128, 127).tolist()   # whole values, int8 output
    assert not res.output[10:].any()                                         # padding lanes: 0 in, 0 out


def test_16to8_operand_per_element_follows_the_int8_lanes() -> None:
    regs = {**MODE_16TO8, **bs_regs(alu=0), "D_DP_BS_ALU_CFG__BS_ALU_SRC": 1,
            "RDMA__D_BRDMA_CFG__BRDMA_DISABLE": 0, "RDMA__D_BRDMA_CFG__BRDMA_DATA_USE": 1,
            "RDMA__D_BRDMA_CFG__BRDMA_DATA_MODE": 1, "RDMA__D_BS_BASE_ADDR_LOW__BS_BASE_ADDR_LOW": 0x3000,
            "RDMA__D_BS_LINE_STRIDE__BS_LINE_STRIDE": 0x40,
            "RDMA__D_BS_SURFACE_STRIDE__BS_SURFACE_STRIDE": 0x400}
    cfg = SdpConfig.from_fields(sdp_fields(w=2, h=1, c=6, **regs), precisions=BOTH)
    mem = Memory()
    CubeLayout(0x1000, 0x100, 0x1000, 2, 1, 6, 4, 2).write(mem, np.zeros((6, 1, 2), dtype=np.int64))
    mem.write(0x3000, np.arange(16, dtype=np.int8).view(np.uint8))      # 2 elements x 8 lanes, one byte
    out = run_sdp(cfg, mem).output
    assert out[:, 0, 0].tolist() == list(range(8)) and out[:, 0, 1].tolist() == list(range(8, 16))


def test_proc_int16_with_int8_out_is_an_advisory_and_16to8_needs_int8_processing() -> None:
    old = SdpConfig.from_fields(sdp_fields(**{"RDMA__D_FEATURE_MODE_CFG__IN_PRECISION": INT16,
                                              "RDMA__D_FEATURE_MODE_CFG__PROC_PRECISION": INT16,
                                              "D_DATA_FORMAT__PROC_PRECISION": INT16}), precisions=BOTH)
    assert any("never completes" in a for a in advisories(old))
    with pytest.raises(ConfigError, match="IN_PRECISION and PROC_PRECISION must equal"):
        # IN INT8 with PROC INT16 is no mode of the MRDMA
        SdpConfig.from_fields(sdp_fields(**{"RDMA__D_FEATURE_MODE_CFG__PROC_PRECISION": INT16,
                                            "D_DATA_FORMAT__PROC_PRECISION": INT16}), precisions=BOTH)


def test_ew_lut_runs_at_int16_as_at_int8() -> None:
    """The cmod's Y path tells only FP16 apart, so the EW LUT takes INT16 data's 32-bit values the same way
    (40 sdplut programs of traces/nv_full_ref agree with NVIDIA's RTL)."""
    from models.lut.model import LINEAR, LutConfig, lut_lookup
    from models.lut.regs import lut_fields
    from models.sdp.model import sdp_compute

    table = LutConfig(le_function=LINEAR, le_index_select=10, le_start=-(1 << 15),
                      le_end=(1 << 16) - (1 << 15), lo_index_select=8, lo_start=-(1 << 15), lo_end=1 << 15,
                      unit="SDP",
                      le=np.arange(65) * 7, lo=np.arange(257) - 128)
    regs = {"D_DP_EW_CFG__EW_BYPASS": 0, "D_DP_EW_CFG__EW_LUT_BYPASS": 0,
            "RDMA__D_FEATURE_MODE_CFG__IN_PRECISION": INT16,
            "RDMA__D_FEATURE_MODE_CFG__PROC_PRECISION": INT16,
            "RDMA__D_FEATURE_MODE_CFG__OUT_PRECISION": INT16,
            "D_DATA_FORMAT__PROC_PRECISION": INT16, "D_DATA_FORMAT__OUT_PRECISION": INT16,
            **{k.replace(".", "__"): v for k, v in lut_fields(table).items()}}
    cfg = SdpConfig.from_fields(sdp_fields(c=4, **regs), precisions=BOTH)
    x = np.array([-32768, -300, 5000, 32767]).reshape(4, 1, 1)
    got = sdp_compute(x, cfg, lut_tables=(table.le, table.lo)).data
    assert got.tolist() == lut_lookup(x, table).output.tolist()
    assert cfg.in_elem_bytes == 2
