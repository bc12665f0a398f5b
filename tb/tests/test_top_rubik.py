"""Random Rubik layers on the top with the simulation memory (tb/hdl/nvdla_pp_top_mem.v), model against RTL.

Each layer is one of scripts/ref_programs/rubik.py's programs (the modes in turn at every precision, contract
strides over 1..32, odd sizes, widths across the 64-element chunks, planes at the 64-byte limit, either
memory), drawn from the run's seed, run on the RTL with a new random memory latency and backpressure and on
the model (models/rubik/model.py); the whole destination span (gaps included) must be the model's bytes. 12
layers
at the run's own configuration, 6 (BENCH_LAYERS) on nv_full from another one, 150 under NIGHTLY=1. Needs a
top built with RUBIK = 1 (nv_full); elsewhere SKIP.
"""

from __future__ import annotations

import cocotb
import numpy as np

from models import configs
from models.steps import MemCheck, MemWrite, RegWrite, WaitInterrupt
from models.subsystem import ModelTarget
from scripts.ref_programs.common import CVSRAM, REGION
from scripts.ref_programs.rubik import MODES, PRECISIONS, rubik_program
from tb import outcome
from tb.bench_target import BenchTarget, batch_count, start_top
from tb.bfm.sim_memory import MemTiming
from tb.common import bench_params, make_rng

FAST, LONG = 12, 150


def _mem_of(addr: int) -> int:
    """The memory of an address as the programs place cubes (0x5xxxxxxx: the CV SRAM)."""
    return 1 if addr & ~(REGION * 0x100 - 1) == CVSRAM else 0


def _steps(prog: object, expected_from: ModelTarget) -> list[object]:
    """The program as replay steps, its output span checked against the model's bytes."""
    loads = [MemWrite(_mem_of(addr), addr, data) for addr, _name, data in prog.loads]  # type: ignore[attr-defined]
    writes = list(prog.writes)  # type: ignore[attr-defined]
    for step in loads:
        expected_from.mem_write(step.mem, step.addr, step.data)
    for w in writes:
        expected_from.reg_write(w.unit, w.reg, w.value)
    addr, size = prog.dump  # type: ignore[attr-defined]
    mem = _mem_of(addr)
    check = MemCheck(mem, addr, expected_from.mem_read(mem, addr, size), f"{prog.name}: output")  # type: ignore[attr-defined]
    return [*loads, *writes, WaitInterrupt("RUBIK", 0, prog.name), check]  # type: ignore[attr-defined]


@cocotb.test()
async def random_layers(dut) -> None:
    if not bench_params().get("RUBIK", 0):
        outcome.skip("the top was built without Rubik (RUBIK = 0): only nv_full has it")
    rng = make_rng("rubik")
    count = batch_count(dut, FAST, LONG)
    mem = await start_top(dut, MemTiming())
    target = BenchTarget(dut, mem)
    config = configs.load().with_second_memory(target.second_memory)
    failed = []
    for i in range(count):
        seed = rng.randrange(1 << 30)
        prog = rubik_program(np.random.default_rng(seed), f"layer{i}_s{seed}", MODES[i % 3],
                             PRECISIONS[(i // 3) % 3])
        target.timing = MemTiming.random(rng)
        mem.configure(target.timing)
        await target.start_case()
        steps = _steps(prog, ModelTarget(config))
        row = await target.run_steps(prog.name, steps, score_layers=False)  # type: ignore[arg-type]
        dut._log.info("%s %s %s %s cycles %d %s", prog.name, prog.about["mode"], prog.about["precision"],
                      prog.about["cube"], row.cycles, "PASS" if row.ok else f"FAIL {row.message}")
        if not row.ok:
            failed.append(f"{prog.name} ({prog.about}): {row.message}")
        assert all(w.unit == "RUBIK" for w in steps if isinstance(w, RegWrite))
    outcome.checked(count, "Rubik layers")
    assert not failed, "Rubik layers differ from the model:\n" + "\n".join(failed)
