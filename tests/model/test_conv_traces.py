"""NVIDIA's convolution traces beyond the default family (tests/model/test_traces.py runs traces/nv_small*):
nv_large's two on the model of their own configuration, and on a configuration whose atomic C differs a SKIP
naming the weight layout they were written for, never a pass or a failure."""

from __future__ import annotations

from pathlib import Path

import pytest

from models import configs
from models.replay import replay_on_model, replay_on_own_config
from models.trace import REPO_TRACES

NV_LARGE = sorted((REPO_TRACES / "nv_large").glob("dc_*"))


@pytest.mark.skipif(not NV_LARGE, reason="no convolution trace under traces/nv_large")
@pytest.mark.parametrize("folder", NV_LARGE, ids=[f.name for f in NV_LARGE])
def test_nv_large_convolution_trace_on_model(folder: Path) -> None:
    result = replay_on_own_config(folder)
    assert result.passed and result.checks >= 1, result.message


@pytest.mark.skipif(not NV_LARGE, reason="no convolution trace under traces/nv_large")
def test_other_weight_layout_is_a_skip_naming_it() -> None:
    result = replay_on_model(NV_LARGE[0], configs.load("nv_medium_1024_full"))
    assert result.message.startswith("SKIP") and "atomic C 64, K 32" in result.message, result.message


CONV_TRACES = sorted(REPO_TRACES.glob("nv_*/dc_*"))


@pytest.mark.skipif(not CONV_TRACES, reason="no convolution trace under traces/")
@pytest.mark.parametrize("folder", CONV_TRACES, ids=[f"{f.parent.name}/{f.name}" for f in CONV_TRACES])
def test_driver_entry_per_slice_is_nvidias(folder: Path) -> None:
    """The driver's ENTRY_PER_SLICE for each trace's input (its configuration's atom and CBUF entry) is the
    value NVIDIA's trace programs, and the trace's DATA_BANK holds the cube at that rate."""
    from models import registers
    from models.conv.driver import entry_per_slice
    from models.steps import RegWrite
    from models.trace import trace_steps

    cfg = configs.load(folder.parent.name)
    values = {s.reg: s.value for s in trace_steps(folder) if isinstance(s, RegWrite) and s.unit == "CDMA"}
    f = registers.decode_fields("CDMA", values)
    width, height = f["D_DATAIN_SIZE_0.DATAIN_WIDTH"] + 1, f["D_DATAIN_SIZE_0.DATAIN_HEIGHT"] + 1
    eps = entry_per_slice(width, f["D_DATAIN_SIZE_1.DATAIN_CHANNEL"] + 1, cfg.conv, cfg.atom_bytes)
    assert eps == f["D_ENTRY_PER_SLICE.ENTRIES"] + 1
    assert eps * height <= (f["D_BANK.DATA_BANK"] + 1) * cfg.conv.cbuf_bank_entries


def test_convolution_trace_commands_parse(tmp_path: Path) -> None:
    """poll_reg_equal becomes a register read that must match; sync_wait needs an earlier sync_notify (file
    order); intr_notify names are matched whatever their case (cdma_dat_0)."""
    from models.steps import RegRead, WaitInterrupt
    from models.trace import TraceError, trace_steps

    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "t.cfg").write_text(
        "poll_reg_equal(NVDLA_CDMA.S_CBUF_FLUSH_STATUS_0,0x1);\n"
        "sync_notify(NVDLA_CACC, a);\nsync_wait(NVDLA_CSC, a);\n"
        "intr_notify(cdma_dat_0, d);\ncheck_nothing(d);\n")
    steps = trace_steps(folder)
    assert steps == [RegRead("CDMA", "S_CBUF_FLUSH_STATUS", 0xFFFFFFFF, 1, steps[0].retries, steps[0].where),
                     WaitInterrupt("CDMA_DAT", 0, steps[1].where)]
    (folder / "t.cfg").write_text("sync_wait(NVDLA_CSC, b);\n")
    with pytest.raises(TraceError, match="no earlier sync_notify"):
        trace_steps(folder)
