"""Move one of NVIDIA's `.cfg` convolution traces (nv_small/nv_large, master's CSB map) to nv_full's map as a
`.txn` folder that nvdla-ref (../shared/nvdla-ref, built with CONV=1) plays: a development tool for comparing
NVIDIA's configurations (docs/conv_configs.md), not part of any test.

    nvidia_cfg_to_txn.py TRACE_DIR OUT_DIR [--nv-full-entries] [--mirror GIT_DIR]

Register names become nv_full CSB word addresses through nvdlav1's `cmod/include/arnvdla.h`, read from the git
mirror of github.com/nvdla/hw when the tool runs (nothing of it is kept). `mem_load`/`mem_init` become
`load_mem` of flat `.dat` images; `poll_reg_equal` a `read_reg` (retried, plusargs.txt); the interrupts the
trace waits for are the only ones GLB leaves unmasked, and one `wait` follows the last OP_ENABLE, so the dump
comes after SDP's (or PDP's) done and not after CDMA's. `check_crc` regions become `dump_mem` of a file of
zeros: the harness then reports a mismatch, and this tool's `crc` command compares the CRC of what NVIDIA's
RTL wrote (`<out>/<file>.actual`) with the trace's.

--any-interrupt leaves GLB's mask as the trace sets it, without the trace's own GLB writes (every done
interrupt unmasked): the one `wait` then ends at the first done of any unit.

--nv-full-entries rewrites CDMA/CSC D_ENTRY_PER_SLICE for nv_full's CBUF (128-byte entries of four 32-byte
atoms, nvdlav1 cmod/cdma/NV_NVDLA_cdma.cpp) instead of nv_large's (64-byte entries of two atoms).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import zlib
from pathlib import Path

MIRROR = Path("/work/.mirror/nvdla+hw/repo")
_CALL = re.compile(r"^\s*([a-z_]+)\s*\((.*)\)\s*;")
_ADDR = re.compile(r"^#define\s+NVDLA_([A-Z0-9_]+)_0\s+_MK_ADDR_CONST\((0x[0-9a-fA-F]+)\)", re.M)
_RECORD = re.compile(r"\{\s*offset\s*:\s*(0x[0-9a-fA-F]+|\d+)\s*,\s*size\s*:\s*(\d+)\s*,"
                     r"\s*payload\s*:\s*([^}]*)\}")
# GLB S_INTR_MASK/S_INTR_STATUS bits (both register groups) of the units whose done a trace may wait for
INTR_BITS = {"SDP": 0x3, "CDP": 0xC, "PDP": 0x30, "BDMA": 0xC0, "RUBIK": 0x300, "CDMA_DAT": 0x30000,
             "CDMA_WT": 0xC0000, "CACC": 0x300000}
ALL_INTR = sum(INTR_BITS.values())
_INTR_NAME = {"sdp": "SDP", "cdp": "CDP", "pdp": "PDP", "bdma": "BDMA", "rubik": "RUBIK",
              "cdma_dat": "CDMA_DAT", "cdma_wt": "CDMA_WT", "cacc": "CACC"}


def nv_full_addresses(mirror: Path) -> dict[str, int]:
    """'CDMA_D_BANK' -> byte address in nv_full's map (nvdlav1 arnvdla.h)."""
    text = subprocess.run(["git", "-C", str(mirror), "show", "nvdlav1:cmod/include/arnvdla.h"],
                          capture_output=True, text=True, check=True).stdout
    return {name: int(addr, 16) for name, addr in _ADDR.findall(text)}


def load_records(path: Path) -> dict[int, int]:
    """offset -> byte of a `{offset:, size:, payload:}` image."""
    out: dict[int, int] = {}
    for off, _size, payload in _RECORD.findall(path.read_text()):
        base = int(off, 0)
        for i, tok in enumerate(payload.split()):
            out[base + i] = int(tok, 16)
    return out


def dat_text(data: bytes, header: dict[str, str]) -> str:
    lines = [f"{k} = {v}" for k, v in header.items()]
    lines += [" ".join(f"0x{b:02x}" for b in data[i:i + 32]) for i in range(0, len(data), 32)]
    return "\n".join(lines) + "\n"


def entries_per_slice(width: int, channels: int, bytes_per_elem: int, atoms_per_entry: int) -> int:
    """CBUF entries one input line takes (nvdlav1 cmod/cdma/NV_NVDLA_cdma.cpp; master's for two atoms)."""
    atoms = -(-channels * bytes_per_elem // 32)
    entries = atoms // atoms_per_entry * width
    rest = atoms % atoms_per_entry
    if rest:
        per = atoms_per_entry // rest if atoms_per_entry % rest == 0 else 1
        entries += -(-width // per)
    return entries


def _name(text: str) -> str:
    """`NVDLA_CDMA.D_BANK_0` -> `CDMA_D_BANK`."""
    return text.removeprefix("NVDLA_").replace(".", "_").removesuffix("_0")


def convert(trace: Path, out: Path, mirror: Path, nv_full_entries: bool, any_interrupt: bool = False) -> None:
    addrs = nv_full_addresses(mirror)

    def word(name: str) -> int:
        return 0xFFFF0000 | addrs[name] >> 2
    cfg = next(trace.glob("*.cfg"))
    out.mkdir(parents=True, exist_ok=True)
    memory: dict[int, int] = {}
    regs: list[tuple[str, int]] = []
    polls: list[tuple[str, int]] = []
    waits: set[str] = set()
    checks: list[tuple[int, int, int]] = []
    for raw in cfg.read_text().splitlines():
        m = _CALL.match(raw)
        if not m:
            continue
        op, args = m.group(1), [a.strip() for a in m.group(2).split(",")]
        if op == "reg_write":
            regs.append((_name(args[0]), int(args[1], 0)))
        elif op == "poll_reg_equal":
            polls.append((_name(args[0]), int(args[1], 0)))
        elif op == "mem_init":
            base, size = int(args[1], 0), int(args[2], 0)
            if args[3] != "ALL_ZERO":
                raise SystemExit(f"{cfg}: mem_init pattern {args[3]} not handled")
            memory.update(dict.fromkeys(range(base, base + size), 0))
        elif op == "mem_load":
            base = int(args[1], 0)
            for off, b in load_records(trace / args[2].strip('"')).items():
                memory[base + off] = b
        elif op == "intr_notify":
            unit = args[0].rsplit("_", 1)[0].lower()
            waits.add(_INTR_NAME[unit])
        elif op == "check_crc":
            checks.append((int(args[2], 0), int(args[3], 0), int(args[4], 0)))
    values = dict(regs)
    if nv_full_entries:
        w = (values["CDMA_D_DATAIN_SIZE_0"] & 0x1FFF) + 1
        c = (values["CDMA_D_DATAIN_SIZE_1"] & 0x1FFF) + 1
        prec = (values.get("CDMA_D_MISC_CFG", 0) >> 8) & 3
        e = entries_per_slice(w, c, 1 if prec == 0 else 2, 4) - 1
        regs = [(n, e if n in ("CDMA_D_ENTRY_PER_SLICE", "CSC_D_ENTRY_PER_SLICE") else v) for n, v in regs]
    lines = [f"# {trace.name}: NVIDIA's {cfg.name} moved to nv_full's CSB map by scripts/nvidia_cfg_to_txn.py"
             + (" (D_ENTRY_PER_SLICE for nv_full's 128-byte CBUF entries)" if nv_full_entries else "")]
    # memory: runs of contiguous bytes, one image each
    addrs_sorted = sorted(memory)
    runs: list[tuple[int, int]] = []
    for a in addrs_sorted:
        if runs and runs[-1][0] + runs[-1][1] == a:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((a, 1))
    for i, (base, size) in enumerate(runs):
        name = f"mem{i}.dat"
        data = bytes(memory[base + j] for j in range(size))
        (out / name).write_text(dat_text(data, {"Address": hex(base), "Data_size": hex(size)}))
        lines.append(f"load_mem {base:#x} {size:#x} {name}")
    unmask = sum(INTR_BITS[u] for u in (waits & {"SDP", "PDP", "CDP"}) or waits)
    if any_interrupt:
        regs = [(n, v) for n, v in regs if not n.startswith("GLB_")]
    else:
        lines.append(f"write_reg {word('GLB_S_INTR_MASK'):#010x} {ALL_INTR & ~unmask:#x} # GLB_S_INTR_MASK")
    ops = [(n, v) for n, v in regs if n.endswith("_D_OP_ENABLE")]
    for name, value in [(n, v) for n, v in regs if not n.endswith("_D_OP_ENABLE")]:
        if name not in addrs:
            raise SystemExit(f"{cfg}: {name} is not a register of nvdlav1's map")
        lines.append(f"write_reg {word(name):#010x} {value:#x} # {name}")
    for name, value in polls:
        lines.append(f"read_reg {word(name):#010x} 0xffffffff {value:#x} # {name}")
    for name, value in ops:
        lines.append(f"write_reg {word(name):#010x} {value:#x} # {name}")
    lines.append("wait")
    lines.append(f"write_reg {word('GLB_S_INTR_STATUS'):#010x} 0xffffffff # GLB_S_INTR_STATUS")
    for i, (base, size, crc) in enumerate(checks):
        name = f"check{i}.dat"
        (out / name).write_text(dat_text(bytes(size), {"Address": hex(base), "CRC": hex(crc)}))
        lines.append(f"dump_mem {base:#x} {size:#x} {name}")
    (out / "input.txn").write_text("\n".join(lines) + "\n")
    (out / "plusargs.txt").write_text("+read_reg_poll_retries=1000\n")
    print(f"{out}: {len(regs)} writes, {len(runs)} images, waits for {sorted(waits)}, "
          f"{len(checks)} CRC regions")


def crc(out: Path) -> int:
    """Compare the CRC of each dumped region (nvdla-ref's <file>.actual in OUT) with the trace's."""
    bad = 0
    for check in sorted(out.glob("check*.dat")):
        want = int(re.search(r"^CRC = (0x[0-9a-f]+)", check.read_text(), re.M).group(1), 16)  # type: ignore[union-attr]
        actual = out / (check.name + ".actual")
        if not actual.is_file():
            print(f"{check.name}: no {actual.name}")
            bad += 1
            continue
        data = bytes(int(t, 16) for t in re.findall(r"0x[0-9a-fA-F]{2}\b", actual.read_text()))
        got = zlib.crc32(data)
        verdict = "PASS" if got == want else "FAIL"
        print(f"{check.name}: CRC {got:#010x}, NVIDIA's golden {want:#010x}: {verdict}")
        bad += got != want
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("convert")
    c.add_argument("trace", type=Path)
    c.add_argument("out", type=Path)
    c.add_argument("--nv-full-entries", action="store_true")
    c.add_argument("--any-interrupt", action="store_true")
    c.add_argument("--mirror", type=Path, default=MIRROR)
    k = sub.add_parser("crc")
    k.add_argument("out", type=Path, help="the converted folder, with nvdla-ref's .actual files in it")
    args = ap.parse_args(argv)
    if args.cmd == "convert":
        convert(args.trace, args.out, args.mirror, args.nv_full_entries, args.any_interrupt)
        return 0
    return 1 if crc(args.out) else 0


if __name__ == "__main__":
    sys.exit(main())
