"""Logic depth (scripts/timing.py, scripts/timing_paths.py) and the FPGA flow (scripts/fpga.py) on
small designs: the depth analyser counts what Yosys's `ltp -noff` counts, a path through sub-modules is
counted whole, and a small module places and routes on the ECP5 (the smoke test of `make fpga`, seconds)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from scripts import rtl_check, timing
from scripts.timing_paths import REG, Model, analyse
from tb.rtl_deps import dependencies, module_names


# leaf modules (no sub-modules: the netlist is analysed alone)
@pytest.mark.parametrize("module", ["nvdla_lzc", "nvdla_round_sat", "nvdla_skid"])
def test_depth_equals_yosys_ltp(module: str) -> None:
    """On one mapped netlist, the analyser's deepest path equals `ltp -noff`'s longest path."""
    work = rtl_check.ROOT / "build" / "test_timing" / module
    work.mkdir(parents=True, exist_ok=True)
    rel = work.relative_to(rtl_check.ROOT)
    files = " ".join(map(str, dependencies(module, module_names(rtl_check.rtl_files()))))
    mapping = timing.MAP.replace("\\m0", module)
    script = (f"read_verilog -sv {' '.join(rtl_check.INCLUDES)} {files}; hierarchy -top {module}; {mapping}; "
              f"write_json {rel}/net.json; tee -q -o {rel}/ltp.txt ltp -noff")
    subprocess.run([rtl_check.yosys_exe(), "-q", "-p", script], cwd=rtl_check.ROOT, check=True)
    length = int(re.search(r"length=(\d+)", (work / "ltp.txt").read_text()).group(1))
    netlist = json.loads((work / "net.json").read_text())["modules"][module]
    _, report = analyse(netlist, {})
    assert report.deepest()[0] == length, (report, length)


def gate(kind: str, a: int, b: int, y: int) -> dict:
    return {"type": kind, "port_directions": {"A": "input", "B": "input", "Y": "output"},
            "connections": {"A": [a], "B": [b], "Y": [y]}}


def ff(d: int, q: int) -> dict:
    return {"type": "$_DFF_P_", "port_directions": {"C": "input", "D": "input", "Q": "output"},
            "connections": {"C": [1], "D": [d], "Q": [q]}}


def test_path_through_submodules_is_whole() -> None:
    """A register, two instances of a 3-gate combinational child in series, a register: 6 levels between
    registers, the start and the end named; the child's input-to-output arc is 3 levels."""
    child = {"ports": {"a": {"direction": "input", "bits": [2]}, "y": {"direction": "output", "bits": [5]}},
             "cells": {"g1": gate("$_AND_", 2, 2, 3), "g2": gate("$_OR_", 3, 2, 4),
                       "g3": gate("$_XOR_", 4, 3, 5)},
             "netnames": {"a": {"bits": [2]}, "y": {"bits": [5]}}}
    model, rep = analyse(child, {})
    assert model.out_arcs["y"][0] == {"a": (3, "a")} and rep.in_to_out and rep.in_to_out[0] == 3
    inst = {"port_directions": {"a": "input", "y": "output"}}
    parent = {"ports": {"clk": {"direction": "input", "bits": [1]}, "d": {"direction": "input", "bits": [10]},
                        "q": {"direction": "output", "bits": [14]}},
              "cells": {"r0": ff(10, 11), "u0": {"type": "c", **inst, "connections": {"a": [11], "y": [12]}},
                        "u1": {"type": "c", **inst, "connections": {"a": [12], "y": [13]}}, "r1": ff(13, 14)},
              "netnames": {"s0": {"bits": [11]}, "q": {"bits": [14]}}}
    pmodel, prep = analyse(parent, {"c": ("child", model)})
    assert prep.reg_to_reg == (6, "s0", "q")
    assert pmodel.in_end["d"][0] == 0 and pmodel.out_arcs["q"][0] == {REG: (0, "q")}
    # the parent's own model seen from above: a child register path is carried up with its instance name
    dirs = {"d": "input", "q": "output", "clk": "input"}
    grand = {"ports": {}, "cells": {"p": {"type": "p", "port_directions": dirs,
                                         "connections": {"d": [3], "q": [3], "clk": [2]}}}, "netnames": {}}
    _, grep = analyse(grand, {"p": ("parent", pmodel)})
    assert grep.reg_to_reg == (6, "p/s0", "p/q")


def test_combinational_loop_is_reported() -> None:
    loop = {"ports": {}, "cells": {"g1": gate("$_AND_", 3, 2, 4), "g2": gate("$_OR_", 4, 2, 3)},
            "netnames": {"n": {"bits": [3]}}}
    loop["cells"]["r"] = ff(3, 2)
    with pytest.raises(ValueError, match="combinational loop"):
        analyse(loop, {"unused": ("x", Model())})


def test_fpga_smoke_small_module_places() -> None:
    """scripts/fpga.py on nvdla_skid: synth_ecp5, out-of-context nextpnr, placed and above 100 MHz."""
    proc = subprocess.run([sys.executable, "-m", "scripts.fpga", "--top", "nvdla_skid"], cwd=rtl_check.ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    line = next(ln for ln in proc.stdout.splitlines() if ln.strip().startswith("total"))
    fmax = float(re.search(r"fmax ([\d.]+) MHz", line).group(1))
    assert "placed yes" in line and fmax >= 100.0, line
