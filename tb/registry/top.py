"""The subsystem top level: NVDLA trace replay on the RTL (tb/test_trace_rtl.py), run on the top with the
simulation memory and a Verilog clock (TOP_MEM)."""

from __future__ import annotations

from pathlib import Path

from tb.benches import COMMON, Bench

ROOT = Path(__file__).resolve().parents[2]

PDP = (
    "rtl/dma/nvdla_cube_walker.v",
    "rtl/pdp/nvdla_pdp_split.v", "rtl/pdp/nvdla_pdp_dma_seq.v", "rtl/pdp/nvdla_pdp_lbuf.v",
    "rtl/pdp/nvdla_pdp_core.v", "rtl/pdp/nvdla_pdp.v",
)
# The CDP datapath core (rtl/cdp/nvdla_cdp_core.v and its parts) with the hybrid LUT and the convertor.
CDP_CORE = (
    "rtl/prec/nvdla_cvt.v",
    "rtl/lut/nvdla_lut_index.v", "rtl/lut/nvdla_lut_ram.v", "rtl/lut/nvdla_lut_interp.v",
    "rtl/lut/nvdla_lut.v",
    "rtl/cdp/nvdla_cdp_walk.v", "rtl/cdp/nvdla_cdp_sqsum.v", "rtl/common/nvdla_fifo.v",
    "rtl/cdp/nvdla_cdp_ocvt.v", "rtl/cdp/nvdla_cdp_core.v",
)
CDP = CDP_CORE + ("rtl/cdp/nvdla_cdp_dma_seq.v", "rtl/cdp/nvdla_cdp.v")
# SDP: every rtl/sdp file (the core, its lanes and the read DMA are separate files; nvdla_sdp.v is the unit).
SDP = tuple(sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rtl" / "sdp").glob("*.v")))

TOP = COMMON + (
    "rtl/common/nvdla_layer_ctrl.v",
    "rtl/prec/nvdla_round_sat.v", "rtl/prec/nvdla_trunc.v", "rtl/prec/nvdla_shl.v",
    "rtl/csb/nvdla_csb_slave.v",
    "rtl/regs/nvdla_reg_groups.v",
    "rtl/gen/nvdla_glb_regs.v", "rtl/glb/nvdla_glb.v",
    "rtl/gen/nvdla_pdp_regs.v", "rtl/gen/nvdla_pdp_rdma_regs.v",
    "rtl/gen/nvdla_cdp_regs.v", "rtl/gen/nvdla_cdp_rdma_regs.v",
    "rtl/gen/nvdla_sdp_regs.v", "rtl/gen/nvdla_sdp_rdma_regs.v",
    "rtl/dma/nvdla_dma_burst_split.v", "rtl/dma/nvdla_axi_rd.v", "rtl/dma/nvdla_axi_wr.v",
    "rtl/dma/nvdla_axi_arb.v",
) + PDP + CDP + SDP + (
    "rtl/top/nvdla_pp_top.v",
)

# The top with the simulation memory and a clock generated in Verilog (tb/hdl/nvdla_pp_top_mem.v): the
# benchmarks run on it. Verilator needs --timing for the clock, and C++20 for --timing with g++ 12. Without
# cocotb's --public-flat-rw only the signals marked public in tb/hdl are visible to Python: every public
# signal's logic is re-evaluated on each eval, which made the whole top 20x slower.
TOP_MEM = TOP + ("tb/hdl/nvdla_sim_axi_mem.v", "tb/hdl/nvdla_pp_top_mem.v")
TIMING_ARGS = ("--timing", "-CFLAGS", "-std=c++20", "--no-public-flat-rw")

BENCHES = (
    Bench("top_traces", "nvdla_pp_top_mem", TOP_MEM, "tb.test_trace_rtl", ({"PDP_MAX_W": 64},),
          build_args=TIMING_ARGS),
)
