"""The simulation AXI memory (tb/hdl/nvdla_sim_axi_mem.v) and its Python side (tb/bfm/sim_memory.py), on the
top-level wrapper tb/hdl/nvdla_pp_top_mem.v:
  python_side         random loads and read-backs (unaligned, across pages, far apart in the 32-bit space)
                      against a Python byte map; never-written bytes read 0; fill_zero; clear empties it all;
  traces_with_stalls  small NVIDIA traces of every unit replayed through tb/bench_target.py with random
                      latency and ready/valid stalls on every channel (a new draw per trace, from the seed),
                      outputs checked against their golden CRCs and the model (each layer lets only
                      its last interrupt reach `intr`, as tb/tests/test_benchmark_sdp.py does).
"""

from __future__ import annotations

from typing import Any

import cocotb

from models import configs
from models.trace import REPO_TRACES, trace_steps
from tb import outcome
from tb.bench_target import BenchTarget, start_top, with_interrupt_masks
from tb.bfm.sim_memory import MemTiming
from tb.common import make_rng, scaled

# small traces, one or more per unit (SDP->PDP on the fly included)
TRACES = ("pdp_8x8x64_2x2_ave_int8_0", "pdp_16x6x16_4x2_split_max_int8_0", "cdp_8x8x32_lrn3_int8_1",
          "sdp_3x3x33_bn_int8_mem_0", "sdp_5x24x18_bs_int8_mem_0", "sdp_pdp_32x16x32_pass_through_int8_0")


@cocotb.test()
async def python_side(dut: Any) -> None:
    rng = make_rng("sim_memory")
    mem = await start_top(dut, MemTiming())
    page = mem.page_bytes
    bases = [0x0, 0x5000_0000, 0x8000_0000 - 5, 0x80FF_FFF0, 0x9000_0000, 0xFFFF_FF00, 3 * page - 1]

    def pick() -> int:
        return (rng.choice(bases) + rng.randrange(0, 2 * page if rng.random() < 0.3 else 64)) & 0xFFFF_FFFF

    for _ in range(scaled(3, 10)):
        ref: dict[int, int] = {}
        for _ in range(scaled(40, 200)):
            addr = pick()
            n = min(rng.randrange(1, 300), 0x1_0000_0000 - addr)
            data = bytes(rng.getrandbits(8) for _ in range(n))
            if rng.random() < 0.2:
                mem.fill_zero(addr, n)
                data = bytes(n)
            else:
                mem.write(addr, data)
            for i, b in enumerate(data):
                ref[addr + i] = b
        for _ in range(scaled(60, 300)):
            addr = pick()
            n = min(rng.randrange(1, 300), 0x1_0000_0000 - addr)
            want = bytes(ref.get(addr + i, 0) for i in range(n))
            got = mem.read(addr, n)
            assert got == want, f"read {n} bytes at {addr:#x}: first difference at byte " \
                f"{next(i for i in range(n) if got[i] != want[i])}"
        touched = sorted(ref)
        await mem.clear()
        for addr in rng.sample(touched, min(50, len(touched))):
            assert mem.read(addr, 1) == b"\0", f"{addr:#x} not cleared"
        assert mem.read_bytes == 0 and mem.write_bytes == 0 and not mem.error


@cocotb.test()
async def traces_with_stalls(dut: Any) -> None:
    cfg = configs.load()
    if (cfg.atom_bytes, cfg.csb_map) != (8, "nv_small"):
        # the traces' addresses, strides and register addresses are nv_small's: another atom's driver rules
        # reject them, another CSB map misplaces them (the configuration's own traces run in top_traces)
        outcome.skip(f"nv_small's traces need an 8-byte atom and nv_small's CSB map; {cfg.name} has a "
                     f"{cfg.atom_bytes}-byte atom and the {cfg.csb_map} map")
    rng = make_rng("sim_memory_traces")
    mem = await start_top(dut, MemTiming())
    target = BenchTarget(dut, mem)
    failed = []
    for name in TRACES:
        timing = MemTiming.random(rng)
        mem.configure(timing)
        await target.start_case()
        row = await target.run_steps(name, with_interrupt_masks(trace_steps(REPO_TRACES / "nv_small" / name)))
        dut._log.info("%s: %s, %d cycles, %s %s", name, timing.describe(), row.cycles,
                      "ok" if row.ok else "FAIL", row.message)
        if not row.ok:
            failed.append(f"{name} ({timing.describe()}): {row.message}")
        outcome.checked(TRACES.index(name) + 1, "traces")
    assert not failed, "; ".join(failed)
