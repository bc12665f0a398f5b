"""Lint and synthesis of all RTL are part of the test suite; so are the modules' parameter checks."""

from __future__ import annotations

import re
import shutil

import pytest

from scripts import rtl_check


def test_lint_clean() -> None:
    assert rtl_check.lint(rtl_check.rtl_files()) == 0


def test_synthesizes() -> None:
    # `make synth` and the nightly run map to gates with ABC; here the same flow stops before ABC (time).
    assert rtl_check.synth(rtl_check.rtl_files(), level="fast") == 0


# (module, good parameters, bad parameters). Each bad set breaks only what the module's check guards and
# would otherwise elaborate without a word: a FIFO, or the W length queue, whose pointers do not wrap at
# its depth; two CSB units answering the same window; a memory router told of a third memory; a float
# narrowing whose subnormal range leaves the input's exponents; a LUT's FP16 path on samples under 32 bits; a
# CDP FP16 path without the INT16 lanes it lives in.
PARAM_CASES = [
    ("nvdla_fifo", {"WIDTH": "8", "DEPTH": "32"}, {"WIDTH": "8", "DEPTH": "24"}),
    ("nvdla_axi_wr", {"MAX_OUTSTANDING": "8"}, {"MAX_OUTSTANDING": "6"}),
    ("nvdla_pdp_lbuf", {"DEPTH": "64", "AW": "6"}, {"DEPTH": "65", "AW": "6"}),
    # PDP's line buffer: 8 banks of MAX_W / 8 words (100 would build 96 words: 12-column slots, silently)
    ("nvdla_pdp_vacc", {"MAX_W": "128"}, {"MAX_W": "100"}),
    ("nvdla_sdp_rdma", {"FIFO_DEPTH": "32"}, {"FIFO_DEPTH": "8"}),
    ("nvdla_cdp_walk", {"CHUNK": "8"}, {"CHUNK": "8", "P_W": "2"}),
    ("nvdla_axi_route", {"SEC_MEM": "1"}, {"SEC_MEM": "2"}),
    ("nvdla_csb_slave", {"NUNITS": "2", "UNIT_IDS": "{6'h08, 6'h01}"},
     {"NUNITS": "2", "UNIT_IDS": "{6'h01, 6'h01}"}),
    # a narrowing whose output subnormal range would reach below the input's exponent 0
    ("nvdla_fp_narrow", {"EI": "6", "MI": "10", "EO": "5", "MO": "10"},
     {"EI": "6", "MI": "20", "EO": "5", "MO": "20"}),
    # the LUT's FP16 path reads FP32 samples in the lower half of the lanes: an INT8-shaped CDP LUT has none
    ("nvdla_lut", {"FP16": "1", "SDP": "0", "IN_W": "37", "CFG_W": "38", "LANES": "4"},
     {"FP16": "1", "SDP": "0", "IN_W": "21", "CFG_W": "38", "LANES": "4"}),
    # CDP's FP16 path is built in the INT16 lanes: without them it would be left out silently
    ("nvdla_cdp_icvt", {"INT16": "1", "FP16": "1"}, {"INT16": "0", "FP16": "1"}),
    # CSC reads slices ENTRY_PER_SLICE x EPR entries apart (a shift): three atomic C an entry would misplace
    # them
    ("nvdla_csc_dat", {"AC": "64", "ATOM": "32", "EPR": "2"}, {"AC": "64", "ATOM": "32", "EPR": "3"}),
]


def check_place(module: str) -> str:
    """'<file>:<line>:' of the $finish of the module's parameter check: where Yosys says it stopped."""
    path = rtl_check.module_names(rtl_check.rtl_files())[module]
    lines = (rtl_check.ROOT / path).read_text().splitlines()
    start = next(i for i, ln in enumerate(lines) if f'$display("ERROR: {module} %m' in ln)
    finish = next(i for i in range(start, len(lines)) if "$finish;" in lines[i])
    return f"{path}:{finish + 1}:"


def test_every_parameterized_module_checks_its_parameters() -> None:
    """A hand-written module with parameters has an elaboration-time check, or says why it needs none."""
    missing = []
    for path in sorted((rtl_check.ROOT / "rtl").rglob("*.v")):
        text = path.read_text()
        if path.parent.name == "gen" or "parameter" not in text.split(");", 1)[0]:
            continue
        if "$finish" not in text and "parameter check: none" not in text:
            missing.append(str(path.relative_to(rtl_check.ROOT)))
    assert not missing, f"parameterized modules without an elaboration-time check: {missing}"


@pytest.mark.parametrize(("module", "good", "bad"), PARAM_CASES, ids=[c[0] for c in PARAM_CASES])
def test_param_check_yosys(module: str, good: dict[str, str], bad: dict[str, str]) -> None:
    passed, log = rtl_check.elaborate(module, good)
    assert passed, log
    passed, log = rtl_check.elaborate(module, bad)
    assert not passed, f"{module} {bad} elaborated"
    # Yosys executes the $finish during elaboration, before the $display is emitted: the place names the check
    assert re.search(re.escape(check_place(module)) + r" ERROR: ?System task `\$finish' executed", log), log


@pytest.mark.parametrize(("module", "good", "bad"), PARAM_CASES, ids=[c[0] for c in PARAM_CASES])
def test_param_check_icarus(module: str, good: dict[str, str], bad: dict[str, str]) -> None:
    if shutil.which("iverilog") is None or shutil.which("vvp") is None:
        pytest.skip("Icarus Verilog (iverilog, vvp) is not installed: the time-0 message is not checked")
    passed, out = rtl_check.elaborate(module, good, tool="icarus")
    assert passed, out
    passed, out = rtl_check.elaborate(module, bad, tool="icarus")
    assert not passed, f"{module} {bad} ran without an error"
    assert f"ERROR: {module} {rtl_check.WRAPPER_TOP}.dut: " in out, out
