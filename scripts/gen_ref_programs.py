"""Random INT16 register programs run on NVIDIA's nv_full RTL (nvdla-ref), kept as regression data.

    generate --unit UNIT --count N --seed S --out DIR   write N programs (.txn folders, no golden; UNITS
                                  below: sdplut is SDP with the EW LUT, pdppad/pdppad8 PDP, raw pad values)
    run --ref BUILD DIR...        play each program on nvdla-ref (BUILD/obj_dir/nvdla_ref, see
                                  ../shared/nvdla-ref/README.md) and make its output the golden output.dat;
                                  --jobs N at once, --nice N (the simulator's niceness), --cheapest-first
    store DIR... --dest traces/nv_full_ref/int16   copy programs that have a golden into the repository and
                                  rewrite their rows of traces/manifest.tsv
    check DIR...                  replay programs that have a golden on the model; each difference located
                                  (scripts/ref_programs/check.py)

A program is seeded by (seed, unit, index), so `generate` with the same arguments writes the same files; the
seed is printed and written into each input.txn. The register writes come from the project's drivers
(models/*/driver.py, which refuse what seed 001's Limitation rules forbid) encoded at nv_full's CSB addresses
(models/txn.py csb_word). The model takes no part in making the golden data: output.dat is what NVIDIA's RTL
wrote (nvdla-ref's FILE.actual), so `make traces TRACES=traces/nv_full_ref` compares the model with NVIDIA.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np

# The programs are nv_full's (32-byte atom): the drivers encode for the run's configuration, set before
# anything reads it.
os.environ["CONFIG"] = "nv_full"
from scripts.ref_programs.common import GOLDEN, UNREAD, Program, dat_text, write_program  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# sdplut: SDP programs with the EW LUT (its own series, so that adding it changed no sdp program)
# pdpfp16: PDP at FP16
# sdpfp16: SDP at FP16 (FP16 or INT16 out)
# cdpfp16: CDP at FP16 (reads back the LUT, NaN and infinity counters)
# sdplutfp16: SDP at FP16 with the EW LUT (reads back the statistics)
# lutfn: the FP16 LUT helper's sigmoid/tanh (SDP) and LRN (CDP) tables
# sdpcvt: SDP INT16 -> FP16 (reads back the saturation and NaN counters); FP16 -> INT8 and INT8 -> FP16 are
# refused (models/sdp/model.py advisories: NVIDIA's RTL hangs on the one and misplaces the other's output)
# pdppad, pdppad8: PDP average pooling with padding and raw pad values / reciprocals, INT16 and INT8
# cdprange, cdprange8: CDP with LUT selects, index offsets, START and END over their whole legal ranges
# pdpsplit: PDP split width with a band narrower than the kernel overlap (INT16)
# pdpwidth: PDP bands exactly as wide as NVIDIA's line buffer holds for the kernel (INT8, INT16, FP16:
# scripts/ref_programs/pdp.py WIDTH_CASES, a fixed list of 108 programs; index 108 is program 0's case)
# rubik: Rubik contract, split and merge at INT8, INT16 and FP16 (scripts/ref_programs/rubik.py; stored in
# traces/nv_full_ref/rubik)
# pdpband3: PDP average pooling 32x4x16, kernel 6x6, stride 2x1, pads 4/4/4/2 in three bands, raw pad values
# (INT16, INT8, FP16 in turn)
# conv: INT8 direct convolution, CDMA to SDP on the fly (scripts/ref_programs/conv.py; needs nvdla-ref built
# with CONV=1), stored under traces/nv_full_ref/conv
UNITS = ("pdp", "sdp", "cdp", "sdplut", "pdpfp16", "sdpfp16", "cdpfp16", "sdplutfp16", "sdpcvt", "lutfn",
         "pdppad", "pdppad8", "cdprange", "cdprange8", "pdpsplit", "pdpwidth", "rubik", "pdpband3", "conv")
# each unit's random stream: its position in UNITS, except conv's, which was generated (and run on NVIDIA's
# RTL) while it was 16th, on a branch beside rubik's: its programs stay reproducible with 16
STREAM = {unit: i for i, unit in enumerate(UNITS)} | {"conv": 16}
NVIDIA_BRANCH = "nvdlav1"
MIRROR = Path("/work/.mirror/nvdla+hw/repo")
TRACES = ROOT / "traces"
MANIFEST = TRACES / "manifest.tsv"
REF_DATA = "nv_full_ref/"          # the manifest rows this script owns
HARNESS = ("nvdla-ref (../shared/nvdla-ref: nv_full RTL under Verilator 5.048, harness defaults but "
           "--max-cycles 100000)")
# The programs finish within some 10^4 cycles; a layer the hardware never completes is cut short here (the
# harness's default, 2e7 cycles, is half an hour of simulation).
MAX_CYCLES = 100_000
_ACTUAL_BYTE = re.compile(r"0x[0-9a-fA-F]{2}")


def make_program(unit: str, seed: int, index: int) -> Program:
    """Program `index` of `unit` for `seed`: the same arguments always give the same program."""
    rng = np.random.default_rng([seed, STREAM[unit], index])
    name = f"{unit}_s{seed}_{index:03d}"
    if unit == "conv":
        from scripts.ref_programs.conv import conv_program
        prog = conv_program(rng, name, index)
    elif unit == "pdpband3":
        from scripts.ref_programs.pdp import pdp_band3_program
        prog = pdp_band3_program(rng, name, ("INT16", "INT8", "FP16")[index % 3])
    elif unit == "rubik":
        from scripts.ref_programs.rubik import MODES, PRECISIONS, rubik_program
        # every mode at every precision in turn; contracts walk x stride (then y stride) through 1..32 with
        # the other one drawn; the rest drawn
        walk = 1 + (index // 6) % 32
        strides = (walk, None) if (index // 3) % 2 == 0 else (None, walk)
        prog = rubik_program(rng, name, MODES[index % 3], PRECISIONS[(index // 3) % 3], strides)
    elif unit == "pdpwidth":
        from scripts.ref_programs.pdp import pdp_width_program
        prog = pdp_width_program(rng, name, index)
    elif unit == "pdpsplit":
        from scripts.ref_programs.pdp import pdp_split_program
        prog = pdp_split_program(rng, name)
    elif unit in ("cdprange", "cdprange8"):
        from scripts.ref_programs.cdp import cdp_range_program
        prog = cdp_range_program(rng, name, "INT8" if unit == "cdprange8" else "INT16")
    elif unit in ("pdppad", "pdppad8"):
        from scripts.ref_programs.pdp import pdp_pad_program
        prog = pdp_pad_program(rng, name, "INT8" if unit == "pdppad8" else "INT16")
    elif unit in ("pdp", "pdpfp16"):
        from scripts.ref_programs.pdp import pdp_program
        prog = pdp_program(rng, name, "FP16" if unit == "pdpfp16" else "INT16")
    elif unit == "sdpfp16":
        from scripts.ref_programs.sdp_fp16 import sdp_fp16_program
        prog = sdp_fp16_program(rng, name)
    elif unit == "sdplutfp16":
        from scripts.ref_programs.sdp_fp16_lut import sdp_fp16_lut_program
        prog = sdp_fp16_lut_program(rng, name)
    elif unit == "sdpcvt":
        from scripts.ref_programs.sdp import sdp_program
        from scripts.ref_programs.sdp_fp16 import READS
        prog = sdp_program(rng, name, precisions=(("INT16", "FP16"),))
        prog.reads = [r for r in READS if "NAN_OUTPUT" in r[1] or "SATURATION" in r[1]]
    elif unit == "lutfn":
        from scripts.ref_programs.lut_fn import lut_fn_program
        prog = lut_fn_program(rng, name, index)
    elif unit == "cdpfp16":
        from scripts.ref_programs.cdp_fp16 import cdp_fp16_program
        prog = cdp_fp16_program(rng, name)
    elif unit in ("sdp", "sdplut"):
        from scripts.ref_programs.sdp import sdp_program
        prog = sdp_program(rng, name, lut=unit == "sdplut")
    else:
        from scripts.ref_programs.cdp import cdp_program
        prog = cdp_program(rng, name)
    prog.about = {"seed": seed, "index": index, **prog.about}
    return prog


def generate(unit: str, count: int, seed: int, out: Path, start: int = 0) -> list[Path]:
    print(f"generating {count} {unit} programs, seed {seed}")
    folders = []
    for i in range(start, start + count):
        prog = make_program(unit, seed, i)
        folder = out / prog.name
        write_program(folder, prog)
        folders.append(folder)
    return folders


def run_on_ref(build: Path, folder: Path, timeout: int = 300, max_cycles: int = MAX_CYCLES,
               nice: int = 10) -> str:
    """Play one program on nvdla-ref (at niceness `nice`); on completion its output becomes the folder's
    golden output.dat. Returns 'ok', or why there is no golden (the interrupt never came, the player
    failed)."""
    binary = build / "obj_dir" / "nvdla_ref"
    work = folder / ".ref"
    work.mkdir(exist_ok=True)
    (folder / GOLDEN).unlink(missing_ok=True)
    cmd = ["nice", "-n", str(nice), str(binary), str(folder), "--out", str(work),
           "--max-cycles", str(max_cycles)]
    try:
        log = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        return "the simulator ran out of time"
    (work / "run.log").write_text(log)
    actual = work / f"{GOLDEN}.actual"
    if "TIMEOUT" in log or not actual.is_file():
        return "no interrupt (TIMEOUT)" if "TIMEOUT" in log else "no dump"
    record_reads(folder / "input.txn", log)
    data = np.array([int(t, 16) for t in _ACTUAL_BYTE.findall(actual.read_text())], dtype=np.uint8)
    cycles = re.search(r"trace .*?: (\d+) cycles after reset", log)
    header = {"Source": f"NVIDIA nv_full RTL ({NVIDIA_BRANCH} {nvidia_commit()[:12]}) under nvdla-ref",
              "Cycles": cycles.group(1) if cycles else "?", "Data_size": f"{data.size:#x}"}
    (folder / GOLDEN).write_text(dat_text(data, header))
    shutil.rmtree(work)
    return "ok"


def _cost(folder: Path) -> int:
    m = re.search(r"^# cost = (\d+)$", (folder / "input.txn").read_text(), re.M)
    return int(m.group(1)) if m else 0


def run_all(build: Path, folders: list[Path], timeout: int, max_cycles: int, nice: int, jobs: int,
            cheapest_first: bool) -> int:
    """run_on_ref over the folders, `jobs` at a time; prints each status with its wall time; returns how many
    have no golden."""
    from concurrent.futures import ThreadPoolExecutor

    if cheapest_first:
        folders = sorted(folders, key=_cost)

    def one(folder: Path) -> str:
        start = time.monotonic()
        status = run_on_ref(build, folder, timeout, max_cycles, nice)
        print(f"{folder.name}: {status} ({time.monotonic() - start:.0f} s)", flush=True)
        return status

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        bad = sum(status != "ok" for status in pool.map(one, folders))
    print(f"{len(folders) - bad} of {len(folders)} programs have NVIDIA's output")
    return bad


_READ_LOG = re.compile(r"read_reg 0x([0-9a-f]{4}) = (0x[0-9a-f]{8}) mask")
_READ_TXN = re.compile(rf"^read_reg 0xffff([0-9a-f]{{4}}) 0xffffffff {UNREAD:#010x}( #.*)?$", re.M)


def record_reads(txn: Path, log: str) -> None:
    """Put what NVIDIA's RTL read into the program's read_regs still expecting UNREAD, in order: nvdla-ref
    prints every read that differs from its expected value (a counter never reads 0xdeadbeef)."""
    read = iter(_READ_LOG.findall(log))
    text = txn.read_text()
    if len(_READ_TXN.findall(text)) != len(_READ_LOG.findall(log)):
        raise RuntimeError(f"{txn}: nvdla-ref printed {len(_READ_LOG.findall(log))} reads, the program has "
                           f"{len(_READ_TXN.findall(text))}")

    def answer(m: re.Match[str]) -> str:
        addr, value = next(read)
        if addr != m.group(1):
            raise RuntimeError(f"{txn}: nvdla-ref read {addr} where the program reads {m.group(1)}")
        return f"read_reg 0xffff{addr} 0xffffffff {value}{m.group(2) or ''}"

    txn.write_text(_READ_TXN.sub(answer, text))


def nvidia_commit() -> str:
    try:
        return subprocess.run(["git", "-C", str(MIRROR), "rev-parse", NVIDIA_BRANCH], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _made_by(folder: Path) -> str:
    """The generate command that writes this program: its series (the folder name's unit) and the seed and
    index written into its input.txn."""
    text = (folder / "input.txn").read_text()

    def about(key: str) -> str:
        m = re.search(rf"^# {key} = (\S+)$", text, re.M)
        return m.group(1) if m else "?"

    unit = folder.name.rsplit("_", 2)[0]
    return (f"scripts/gen_ref_programs.py generate --unit {unit} --seed {about('seed')} "
            f"(program {about('index')})")


def store(folders: list[Path], dest: Path) -> None:
    """Copy programs with a golden output into dest and rewrite the manifest's rows of traces/nv_full_ref/."""
    dest.mkdir(parents=True, exist_ok=True)
    for folder in folders:
        if not (folder / GOLDEN).is_file():
            print(f"{folder.name}: no golden output, not stored")
            continue
        target = dest / folder.name
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(folder, target, ignore=shutil.ignore_patterns(".ref"))
    write_manifest()


def write_manifest() -> None:
    """traces/manifest.tsv with one row per file under traces/nv_full_ref/ (the others kept as they are)."""
    commit = nvidia_commit()
    kept = [line for line in MANIFEST.read_text().splitlines() if not line.startswith(REF_DATA)]
    rows = []
    for path in sorted((TRACES / REF_DATA).rglob("*")):
        if not path.is_file():
            continue
        rel = str(path.relative_to(TRACES))
        if path.name == GOLDEN:
            source = f"{HARNESS}: output of input.txn"
        elif path.parent.parent.parent == TRACES / REF_DATA.rstrip("/"):
            source = _made_by(path.parent)
        else:
            source = "this project (notes on the data)"
        rows.append("\t".join((rel, _blob_sha1(path.read_bytes()), NVIDIA_BRANCH, commit, source)))
    MANIFEST.write_text("\n".join(kept + rows) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--unit", choices=UNITS, required=True)
    g.add_argument("--count", type=int, default=10)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--start", type=int, default=0)
    g.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("run")
    r.add_argument("--ref", type=Path, required=True, help="nvdla-ref build directory")
    r.add_argument("--timeout", type=int, default=300, help="seconds of simulation a program may take")
    r.add_argument("--max-cycles", type=int, default=MAX_CYCLES)
    r.add_argument("--nice", type=int, default=10, help="niceness of the simulator (below 0 needs root)")
    r.add_argument("--jobs", type=int, default=1, help="programs simulated at once")
    r.add_argument("--cheapest-first", action="store_true",
                   help="in order of the `# cost` the generator wrote into input.txn (conv), so that a "
                        "run cut short has the most programs")
    r.add_argument("folders", nargs="+", type=Path)
    s = sub.add_parser("store")
    s.add_argument("--dest", type=Path, default=TRACES / "nv_full_ref" / "int16")
    s.add_argument("folders", nargs="+", type=Path)
    sub.add_parser("manifest")
    k = sub.add_parser("check", help="replay programs that have NVIDIA's output on the model")
    k.add_argument("folders", nargs="+", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "generate":
        generate(args.unit, args.count, args.seed, args.out, args.start)
    elif args.cmd == "run":
        run_all(args.ref, args.folders, args.timeout, args.max_cycles, args.nice, args.jobs,
                args.cheapest_first)
    elif args.cmd == "store":
        store(args.folders, args.dest)
    elif args.cmd == "check":
        from scripts.ref_programs.check import check
        return 1 if check([f for f in args.folders if (f / GOLDEN).is_file()]) else 0
    else:
        write_manifest()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
