"""The drivers' precision argument: INT16 where the run's configuration has it (nv_full), refused where it
does not (nv_small, the tests' default), the precision fields of both units, and the INT16 value ranges."""

from __future__ import annotations

import pytest

from models.cdp.driver import Convertor, cdp_layer
from models.errors import ConfigError
from models.lut.model import LutConfig
from models.pdp.driver import Surface, pdp_layer
from models.sdp.driver import sdp_layer

SRC, DST = Surface(0x1000, 0x400, 0x1000), Surface(0x8000, 0x400, 0x1000)


@pytest.mark.configuration("nv_small")
def test_nv_small_refuses_int16() -> None:
    with pytest.raises(ConfigError, match="precision"):
        pdp_layer(2, 2, 8, src=SRC, dst=DST, precision="INT16")
    with pytest.raises(ConfigError, match="in_precision"):
        sdp_layer(2, 2, 8, src=SRC, dst=DST, in_precision="INT16", out_precision="INT16")
    with pytest.raises(ConfigError, match="precision"):
        cdp_layer(2, 2, 8, lut=LutConfig(), src=SRC, dst=DST, precision="INT16")


@pytest.mark.configuration("nv_full")
def test_pdp_int16_fields_and_pad_range() -> None:
    prog = pdp_layer(2, 2, 8, method="average", kernel=(2, 2), stride=(1, 1), pads=(1, 0, 0, 0),
                     pad_value=-30000, src=SRC, dst=DST, precision="INT16")
    assert prog.fields["PDP"]["D_DATA_FORMAT.INPUT_DATA"] == 1
    assert prog.fields["PDP_RDMA"]["D_DATA_FORMAT.INPUT_DATA"] == 1
    assert prog.fields["PDP"]["D_POOLING_PADDING_VALUE_7_CFG.PAD_VALUE_7X"] == (7 * -30000) & 0x7FFFF
    with pytest.raises(ConfigError, match="int16"):
        pdp_layer(2, 2, 8, src=SRC, dst=DST, pad_value=40000, precision="INT16")
    with pytest.raises(ConfigError, match="int8"):
        pdp_layer(2, 2, 8, src=SRC, dst=DST, pad_value=200)


@pytest.mark.configuration("nv_full")
def test_sdp_precision_fields() -> None:
    prog = sdp_layer(2, 2, 8, src=SRC, dst=DST, in_precision="INT16", out_precision="INT8")
    rdma, sdp = prog.fields["SDP_RDMA"], prog.fields["SDP"]
    assert (rdma["D_FEATURE_MODE_CFG.IN_PRECISION"], rdma["D_FEATURE_MODE_CFG.PROC_PRECISION"],
            rdma["D_FEATURE_MODE_CFG.OUT_PRECISION"]) == (1, 0, 0)      # the 16to8 mode: read INT16,
    assert (sdp["D_DATA_FORMAT.PROC_PRECISION"], sdp["D_DATA_FORMAT.OUT_PRECISION"]) == (0, 0)  # INT8 after
    cfg = prog.config
    assert (cfg.src_elem_bytes, cfg.src_lanes, cfg.lanes, cfg.out_elem_bytes) == (2, 16, 32, 1)  # 32 B atom
    keep = sdp_layer(2, 2, 8, src=SRC, dst=DST, in_precision="INT16", out_precision="INT16").config
    assert (keep.in_precision, keep.src_precision, keep.src_elem_bytes) == (1, None, 2)
    with pytest.raises(ConfigError, match="out_precision"):
        sdp_layer(2, 2, 8, src=SRC, dst=DST, out_precision="INT4")


@pytest.mark.configuration("nv_full")
def test_cdp_int16_convertor_ranges() -> None:
    lut = LutConfig()
    prog = cdp_layer(2, 2, 8, lut=lut, src=SRC, dst=DST, precision="INT16", datin=Convertor(-30000, 1, 0),
                     datout=Convertor(-(1 << 30), 1, 0))
    assert prog.fields["CDP"]["D_DATA_FORMAT.INPUT_DATA_TYPE"] == 1
    assert prog.fields["CDP_RDMA"]["D_DATA_FORMAT.INPUT_DATA"] == 1
    assert prog.config.widths.out_bits == 16
    with pytest.raises(ConfigError, match="DATIN_OFFSET is a signed 8-bit value at INT8"):
        cdp_layer(2, 2, 8, lut=lut, src=SRC, dst=DST, datin=Convertor(-30000, 1, 0))
    with pytest.raises(ConfigError, match="DATIN_OFFSET is a signed 16-bit value at INT16"):
        cdp_layer(2, 2, 8, lut=lut, src=SRC, dst=DST, precision="INT16", datin=Convertor(40000, 1, 0))
