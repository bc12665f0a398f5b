"""The benchmark report's bookkeeping: area per unit from Yosys's `stat -json` (scripts/area.py) and the
per-configuration table and merge of reports/bench.json (scripts/config_figures.py). No synthesis runs
here."""

from __future__ import annotations

from typing import Any

from scripts.area import by_unit
from scripts.config_figures import merge, table


def stat(modules: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"modules": modules}


def test_area_counts_sub_modules_once_per_instance() -> None:
    lane = "$paramod$ab\\nvdla_cvt"
    modules = {
        "\\nvdla_pp_top": {"num_cells": 4, "num_cells_by_type": {"$and": 1, "$paramod$1\\nvdla_sdp": 1,
                                                                  "nvdla_sdp_regs": 1, "nvdla_axi_memif": 1}},
        "$paramod$1\\nvdla_sdp": {"num_cells": 5, "num_memory_bits": 64,
                                  "num_cells_by_type": {"$mux": 2, lane: 3}},
        lane: {"num_cells": 7, "num_memory_bits": 8, "num_cells_by_type": {"$alu": 7}},
        "\\nvdla_sdp_regs": {"num_cells": 10, "num_cells_by_type": {"$dff": 10}},
        "\\nvdla_axi_memif": {"num_cells": 1, "num_cells_by_type": {"$mux": 1}},
    }
    cells = by_unit(stat(modules), "num_cells")
    assert cells["SDP"] == 2 + 3 * 7          # its own cells, not its three instances, plus theirs
    assert cells["csb_regs"] == 10 and cells["memif"] == 1 and cells["top"] == 1
    assert cells["total"] == 2 + 21 + 10 + 1 + 1
    bits = by_unit(stat(modules), "num_memory_bits")
    assert bits["SDP"] == 64 + 3 * 8 and bits["total"] == 88


def layer(config: str, unit: str, name: str, cycles: int, bound: int, check: str = "ok") -> dict[str, Any]:
    return {"kind": "layer", "config": config, "unit": unit, "name": name, "cycles": cycles,
            "bound_cycles": bound, "bus_bytes": 32, "check": check, "memory": "memory latency 0, no stalls"}


def test_merge_replaces_only_the_configurations_run() -> None:
    old = [layer("nv_small", "sdp", "cube64_pass", 10, 10), layer("nv_large", "sdp", "cube64_pass", 20, 10)]
    new = [layer("nv_large", "sdp", "cube64_pass", 11, 10)]
    merged = merge(old, new)
    assert [r["cycles"] for r in merged if r["config"] == "nv_large"] == [11]
    assert any(r["config"] == "nv_small" for r in merged)


def test_table_ratio_range_area_and_failures() -> None:
    records = [layer("nv_large", "sdp", "cube64_pass", 1005, 1000),
               layer("nv_large", "sdp", "cube64_eql", 1010, 1000),
               layer("nv_large", "pdp", "cube64_max", 1036, 1000),
               layer("nv_large", "cdp", "cdp_trace", 50, 10, "bad"),
               {"kind": "area", "config": "nv_large", "unit": "SDP", "cells": 23372, "memory_bits": 2048,
                "synthesis": "coarse"}]
    text = table(records)
    row = next(line for line in text.splitlines() if line.startswith("| nv_large"))
    assert "1.005-1.010" in row and "1.036" in row and "256-bit" in row
    assert "FAILED: cdp_trace" in row and "23,372 (2.0 Kbit)" in row


def test_table_cpp_loop_median_per_configuration() -> None:
    """Issue 32's figure: the C++ loop's median cycles/s over a configuration's 64^3 layers, with min-max,
    and the median per second of its CPU time."""
    rates = {"nv_small": (300_000, 100_000, 250_000), "nv_full": (4_000, 6_000)}
    records = [{**layer(config, "sdp", f"cube64_{i}", 1000, 1000), "cpp_cycles_per_s": rate,
                "cpp_cpu_cycles_per_s": 2 * rate}
               for config, config_rates in rates.items() for i, rate in enumerate(config_rates)]
    lines = table(records).splitlines()
    rows = {line.split(" | ")[0][2:]: line for line in lines if line.startswith("| nv_")}
    assert "| 250.0 k (100-300 k) | 500.0 k |" in rows["nv_small"]
    assert "| 5.0 k (4-6 k) | 10.0 k |" in rows["nv_full"]
