"""Per-configuration figures from reports/bench.json's records: the 64x64x64 layers' cycles against the busier
channel's bound, per unit, and the area per unit (scripts/area.py), as one Markdown table (the README's
"Benchmarks per configuration" table is this output). Records of several configurations live side by side in
reports/bench.json: a run at one configuration replaces only that configuration's records (`merge`).

Usage: .venv/bin/python -m scripts.config_figures [reports/bench.json]   (printed by scripts/benchmark.py too)
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "reports" / "bench.json"
CUBE_PREFIX = "cube64"   # the 64x64x64 layers of every unit (cube64_*, cube64x64x64_lrn5)
LAYER_UNITS = ("sdp", "pdp", "cdp")
AREA_UNITS = ("SDP", "PDP", "CDP", "BDMA", "CONV", "memif", "csb_regs", "total")
# the convolution throughput layer (tb/tests/test_benchmark_conv.py)
CONV_LAYER = "conv3x3_64x64x64_k64"


def load(path: Path = REPORT) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    data = json.loads(path.read_text())
    return data if isinstance(data, list) else []


def merge(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The new records, and the old ones of every configuration (and memory timing) the new ones do not
    cover: figures at another latency are not the same measurement, so they are kept apart."""
    covered = {(r.get("config"), r.get("memory")) for r in new}
    return [r for r in old if (r.get("config"), r.get("memory")) not in covered] + new


def ratio_range(records: list[dict[str, Any]]) -> str:
    """min-max of cycles / bound_cycles (the busier channel's beats) over the layers; '-' when none."""
    ratios = sorted(r["cycles"] / r["bound_cycles"] for r in records if r.get("bound_cycles"))
    if not ratios:
        return "-"
    low, high = f"{ratios[0]:.3f}", f"{ratios[-1]:.3f}"
    return low if low == high else f"{low}-{high}"


def cpp_range(records: list[dict[str, Any]]) -> str:
    """The median simulated cycles/s of the plain C++ loop over the 64x64x64 layers (issue 32's figure), and
    min-max in brackets (wall-clock: the machine's load shows in it)."""
    rates = sorted(int(r["cpp_cycles_per_s"]) for r in records if r.get("cpp_cycles_per_s"))
    if not rates:
        return "-"
    return f"{statistics.median(rates) / 1000:.1f} k ({rates[0] / 1000:.0f}-{rates[-1] / 1000:.0f} k)"


def cpp_cpu_median(records: list[dict[str, Any]]) -> str:
    """The same median per second of the loop's own CPU time: the machine's other jobs leave it nearly
    unchanged, so runs on a busy machine compare."""
    rates = [int(r["cpp_cpu_cycles_per_s"]) for r in records if r.get("cpp_cpu_cycles_per_s")]
    return f"{statistics.median(rates) / 1000:.1f} k" if rates else "-"


def area_cell(record: dict[str, Any]) -> str:
    """Cells, and the memory arrays' Kbit (a memory is one cell at the coarse level, whatever its size)."""
    bits = record.get("memory_bits")
    return f"{record['cells']:,}" + (f" ({bits / 1024:.1f} Kbit)" if bits else "")


def table(records: list[dict[str, Any]]) -> str:
    """One row per configuration and memory timing of the layer records; the area columns from its area
    records (the same for every memory timing)."""
    layers = [r for r in records if r.get("kind", "layer") == "layer"]
    area = {(r["config"], r["unit"]): r for r in records if r.get("kind") == "area"}
    keys = sorted({(r["config"], r.get("memory", "")) for r in layers}
                  | {(c, "") for c, _ in area if not any(r["config"] == c for r in layers)})
    head = ["configuration", "bus", "memory", *(f"{u.upper()} 64^3 cycles/busier" for u in LAYER_UNITS),
            "conv 3x3 64^3 MAC util", "checks", "C++ loop 64^3 cycles/s: median (min-max)",
            "C++ loop 64^3 cycles per CPU second: median",
            *(f"{u} cells" for u in AREA_UNITS)]
    rows = []
    for config, memory in keys:
        mine = [r for r in layers if r["config"] == config and r.get("memory", "") == memory]
        bus = next((r.get("bus_bytes") for r in mine if r.get("bus_bytes")), None)
        cube = {u: [r for r in mine if r["unit"] == u and r["name"].startswith(CUBE_PREFIX)]
                for u in LAYER_UNITS}
        skipped = sum(r["check"].startswith("SKIP") for r in mine)
        bad = [r["name"] for r in mine if r["check"] != "ok" and not r["check"].startswith("SKIP")]
        checks = f"{len(mine) - skipped} ok" + (f", {skipped} skipped" if skipped else "")
        checks = "-" if not mine else (checks if not bad else f"FAILED: {', '.join(bad)}")
        cells = [area_cell(area[(config, u)]) if (config, u) in area else "-" for u in AREA_UNITS]
        conv = next((f"{r['mac_util']:.3f}" for r in mine if r["name"] == CONV_LAYER and r.get("mac_util")),
                    "-")
        rows.append([config, f"{bus * 8}-bit" if bus else "-", memory or "-",
                     *(ratio_range(cube[u]) for u in LAYER_UNITS), conv, checks, cpp_range(mine),
                     cpp_cpu_median(mine), *cells])
    level = next((r["synthesis"] for r in area.values()), "")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    note = f"\n\nArea: Yosys cells ({level}); in brackets the bits of its memories." if level else ""
    return "\n".join(lines) + note


def main() -> int:
    print(table(load(Path(sys.argv[1]) if len(sys.argv) > 1 else REPORT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
