"""The bench registry's source lists come from the RTL dependency graph (tb/rtl_deps.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts import gen_regs
from tb import rtl_deps
from tb.benches import BENCHES, find


@pytest.mark.parametrize("bench", BENCHES, ids=lambda b: b.name)
def test_sources_are_the_toplevels_closure(bench) -> None:  # type: ignore[no-untyped-def]
    """The toplevel's file is in, every file exists, and every project module a source instantiates is in."""
    modules = rtl_deps.module_names([*rtl_deps.verilog_files(rtl_deps.RTL_DIR),
                                     *rtl_deps.verilog_files(rtl_deps.SIM_DIR)])
    files = {str(modules[bench.toplevel])} | {str(modules[m]) for s in bench.sources
                                              for m in rtl_deps.instantiated(Path(s), modules)}
    assert files <= set(bench.sources), f"{bench.name} misses {sorted(files - set(bench.sources))}"
    assert all((rtl_deps.ROOT / s).is_file() for s in (*bench.sources, *bench.headers))


def test_top_level_sources_and_headers() -> None:
    """The top needs every unit's generated register block and the CSB map header it `include`s; the
    wrapper in tb/hdl brings the simulation memory; modules nothing instantiates stay out."""
    top, top_mem = find("top_pdp"), find("top_mem")
    # BDMA's, Rubik's and the convolution units' blocks too: the top instantiates them in generate branches
    # (configurations with BDMA, RUBIK, CONV)
    units = ("glb", "sdp_rdma", "sdp", "pdp_rdma", "pdp", "cdp_rdma", "cdp", "bdma", "rubik",
             "cdma", "csc", "cmac_a", "cmac_b", "cacc")
    assert {f"rtl/gen/nvdla_{u}_regs.v" for u in units} <= set(top.sources)
    fields = {f"rtl/gen/nvdla_{u}_fields.vh" for u in units if u != "glb"}  # GLB has no bundles
    # the sub-bundle layouts (nvdla_lut_cfg.vh, nvdla_dma_surf.vh): each has a consumer in the top
    subs = {f"rtl/gen/nvdla_{name.lower()}.vh" for name in gen_regs.load()["sub_bundles"]}
    assert set(top.headers) == {"rtl/gen/nvdla_csb_map.vh", "rtl/include/nvdla_axi_macros.vh"} | fields | subs
    assert set(top_mem.sources) == {*top.sources, "tb/hdl/nvdla_pp_top_mem.v", "tb/hdl/nvdla_sim_axi_mem.v"}
    assert "rtl/prec/nvdla_trunc.v" not in top.sources      # a bench's own module, unused by the top
    assert "rtl/prec/nvdla_trunc.v" in find("truncate").sources


def test_missing_header_is_an_error(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(rtl_deps, "ROOT", tmp_path)
    (tmp_path / "a.v").write_text('module a;\n`include "nowhere.vh"\nendmodule\n')
    with pytest.raises(FileNotFoundError, match="nowhere.vh"):
        rtl_deps.included(Path("a.v"))
