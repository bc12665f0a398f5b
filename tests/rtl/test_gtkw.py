"""The committed GTKWave save file docs/waves/nvdla_pp_top.gtkw names signals that exist.

Two checks: against the design's hierarchy as Verilator elaborates it (always; `verilator --json-only` takes a
fraction of a second), and against the signal list of an FST of the top level that `WAVES=1` left (when one
exists: the trace replay's waves/verilator/top_traces/<params>/replay_traces.fst, else any
waves/verilator/top_*/<params>/<test>.fst). A renamed wire, a changed width or a moved instance shows up here
instead of as a silently missing trace in GTKWave. Also: the groups the view promises, and every trace
aliased `<unit>:<signal>` (GTKWave's `+{alias} path`) so that e.g. PDP's and CDP's `running` are told apart.

The FST reader below reads only the hierarchy block (gzip or LZ4, as fstapi writes it), enough for the
signal names; it needs no package beyond the standard library.
"""

from __future__ import annotations

import json
import re
import struct
import subprocess
import zlib
from pathlib import Path
from typing import Any

import pytest

from scripts.rtl_check import INCLUDES, verilator
from tb.benches import BENCHES, find
from tb.runner import ROOT, wave_path

GTKW = ROOT / "docs" / "waves" / "nvdla_pp_top.gtkw"
BENCH = "top_pdp"          # a bench whose toplevel is nvdla_pp_top itself (the save file's root)
TEST = "random_layers"

# What the save file is for: every one of these must be in it (CSB, the five AXI channels, the PDP control
# and the pooling core's input and output streams, the interrupt).
REQUIRED = (
    "nvdla_pp_top.csb_req_valid", "nvdla_pp_top.csb_req_ready", "nvdla_pp_top.csb_resp_valid",
    "nvdla_pp_top.csb_wr_complete",
    "nvdla_pp_top.m_axi_arvalid", "nvdla_pp_top.m_axi_arready", "nvdla_pp_top.m_axi_rvalid",
    "nvdla_pp_top.m_axi_rready", "nvdla_pp_top.m_axi_awvalid", "nvdla_pp_top.m_axi_awready",
    "nvdla_pp_top.m_axi_wvalid", "nvdla_pp_top.m_axi_wready", "nvdla_pp_top.m_axi_bvalid",
    "nvdla_pp_top.m_axi_bready",
    "nvdla_pp_top.u_pdp.start", "nvdla_pp_top.u_pdp.done", "nvdla_pp_top.intr",
    "nvdla_pp_top.u_pdp.rd_valid", "nvdla_pp_top.u_pdp.rd_ready", "nvdla_pp_top.u_pdp.pool_valid",
    "nvdla_pp_top.u_pdp.pool_ready",
    "nvdla_pp_top.u_cdp.start", "nvdla_pp_top.u_cdp.running", "nvdla_pp_top.u_cdp.done",
    "nvdla_pp_top.u_glb.mask", "nvdla_pp_top.u_glb.status", "nvdla_pp_top.u_glb.set_sw",
    "nvdla_pp_top.u_glb.intr",
)
GROUPS = ("CSB", "GLB interrupt", "PDP control", "CDP control", "SDP control and streams", "AXI read (AR/R)",
          "AXI write (AW/W/B)", "Convolution control", "CDMA", "CBUF", "CSC", "CMAC", "CACC")
# alias prefixes: a signal inside instance u_<unit> must read <unit>:*; top-level wires may read any of them.
# The convolution pipeline (generate block g_conv, instance u_conv): its own wires read conv:* or a unit's
# name, a signal inside u_<unit>... (u_cdma_dat, u_csc_wt, ...) reads <unit>:*
CONV_UNITS = ("conv", "cdma", "cbuf", "csc", "cmac", "cacc")
UNITS = ("top", "csb", "axi", "glb", "pdp", "cdp", "sdp", *CONV_UNITS)
CONV_PATH = "nvdla_pp_top.g_conv.u_conv."


def gtkw_traces(path: Path) -> list[tuple[str | None, str]]:
    """(alias, signal path) of every trace of a .gtkw file: every line that is not a [setting], @flags,
    -group or *zoom line; `+{alias} path` gives the alias."""
    traces: list[tuple[str | None, str]] = []
    for line in (ln.strip() for ln in path.read_text().splitlines()):
        if not line or line[0] in "[@-*#":
            continue
        alias = re.fullmatch(r"\+\{([^}]*)\}\s+(\S+)", line)
        traces.append((alias[1], alias[2]) if alias else (None, line))
    return traces


def gtkw_signals(path: Path) -> list[str]:
    return [signal for _, signal in gtkw_traces(path)]


def gtkw_groups(path: Path) -> list[str]:
    """Group names: a group opens with `-name` after `@800200` and closes with `-name` after `@1000200`."""
    return [ln[1:] for ln in path.read_text().splitlines()[1:] if ln.startswith("-")][::2]


def base_name(signal: str) -> str:
    return re.sub(r"\[\d+:\d+\]$", "", signal)


# ---------------------------------------------------------------------------------------------------------
# The design's hierarchy, from Verilator's JSON netlist
# ---------------------------------------------------------------------------------------------------------
def design_signals(top: str, sources: tuple[str, ...], workdir: Path,
                   params: dict[str, int] | None = None) -> set[str]:
    """Every variable of every instance under `top` (at `params`: generate blocks such as the convolution
    pipeline's exist only where a parameter builds them), spelled as GTKWave shows it (`name[msb:lsb]`)."""
    exe, env = verilator()
    cmd = [exe, "--json-only", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-Mdir", str(workdir), *INCLUDES,
           "--top-module", top, *(f"-G{k}={v}" for k, v in (params or {}).items()), *sources]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    tree = json.loads((workdir / f"V{top}.tree.json").read_text())
    modules = {m["addr"]: m for m in tree["modulesp"]}
    types = {t["addr"]: t for misc in tree["miscsp"] if misc["type"] == "TYPETABLE" for t in misc["typesp"]}
    root = next(m for m in tree["modulesp"] if m["name"] == top)
    found: set[str] = set()
    _walk(root, top, modules, types, found)
    return found


def _walk(module: dict[str, Any], prefix: str, modules: dict[str, Any], types: dict[str, Any],
          found: set[str]) -> None:
    for stmt in module.get("stmtsp", []):
        if stmt["type"] == "VAR":
            rng = types.get(stmt.get("dtypep", ""), {}).get("range")
            found.add(f"{prefix}.{stmt['name']}" + (f"[{rng}]" if rng else ""))
        elif stmt["type"] == "CELL" and stmt.get("modp") in modules:
            _walk(modules[stmt["modp"]], f"{prefix}.{stmt['name']}", modules, types, found)
        elif stmt["type"] == "GENBLOCK" and stmt.get("name"):     # a named generate block (its items)
            _walk({"stmtsp": stmt.get("itemsp", [])}, f"{prefix}.{stmt['name']}", modules, types, found)


# ---------------------------------------------------------------------------------------------------------
# FST signal list
# ---------------------------------------------------------------------------------------------------------
FST_BL_HIER, FST_BL_HIER_LZ4, FST_BL_HIER_LZ4DUO = 4, 6, 7
FST_ST_ATTRBEGIN, FST_ST_ATTREND, FST_ST_SCOPE, FST_ST_UPSCOPE = 252, 253, 254, 255


def lz4_block(src: bytes, size: int) -> bytes:
    """Decompress one LZ4 block (the raw block format, no frame header) of known decompressed size."""
    out = bytearray()
    i = 0
    while i < len(src):
        token = src[i]
        i += 1
        literals, i = _lz4_length(src, i, token >> 4)
        out += src[i:i + literals]
        i += literals
        if i >= len(src):
            break  # the last sequence has literals only
        offset = src[i] | (src[i + 1] << 8)
        i += 2
        match, i = _lz4_length(src, i, token & 15)
        match += 4
        start = len(out) - offset
        if offset >= match:
            out += out[start:start + match]
        else:  # overlapping copy: repeats the last `offset` bytes
            for k in range(match):
                out.append(out[start + k])
    if len(out) != size:
        raise ValueError(f"LZ4 block gave {len(out)} bytes, expected {size}")
    return bytes(out)


def _lz4_length(src: bytes, i: int, nibble: int) -> tuple[int, int]:
    n = nibble
    if nibble == 15:
        while True:
            b = src[i]
            i += 1
            n += b
            if b != 255:
                break
    return n, i


def _varint(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, i


def _cstr(data: bytes, i: int) -> tuple[str, int]:
    end = data.index(0, i)
    return data[i:end].decode(), end + 1


def fst_hierarchy_bytes(path: Path) -> bytes:
    """The uncompressed hierarchy block of an FST file (blocks: type byte, 8-byte big-endian length)."""
    data = path.read_bytes()
    i = 0
    while i < len(data):
        kind = data[i]
        length = struct.unpack(">Q", data[i + 1:i + 9])[0]
        payload = data[i + 9:i + 1 + length]
        i += 1 + length
        if kind not in (FST_BL_HIER, FST_BL_HIER_LZ4, FST_BL_HIER_LZ4DUO):
            continue
        size = struct.unpack(">Q", payload[:8])[0]
        if kind == FST_BL_HIER:
            return zlib.decompress(payload[8:], 16 + zlib.MAX_WBITS)  # a gzip stream
        if kind == FST_BL_HIER_LZ4:
            return lz4_block(payload[8:], size)
        once, j = _varint(payload, 8)  # compressed twice: the size after the first pass, then the data
        return lz4_block(lz4_block(payload[j:], once), size)
    raise ValueError(f"{path}: no hierarchy block")


def fst_signals(path: Path) -> set[str]:
    """Full names of the FST's variables, spelled as GTKWave shows them (`scope.name[msb:lsb]`)."""
    hier = fst_hierarchy_bytes(path)
    scope: list[str] = []
    names: set[str] = set()
    i = 0
    while i < len(hier):
        tag = hier[i]
        i += 1
        if tag == FST_ST_SCOPE:
            name, i = _cstr(hier, i + 1)          # scope type byte, then name and component
            _, i = _cstr(hier, i)
            scope.append(name)
        elif tag == FST_ST_UPSCOPE:
            scope.pop()
        elif tag == FST_ST_ATTRBEGIN:
            _, i = _cstr(hier, i + 2)             # attribute type and subtype bytes, name, argument
            _, i = _varint(hier, i)
        elif tag == FST_ST_ATTREND:
            continue
        else:                                     # a variable: type tag, direction, name, length, alias
            name, i = _cstr(hier, i + 1)
            _, i = _varint(hier, i)
            _, i = _varint(hier, i)
            names.add(".".join([*scope, name.replace(" [", "[")]))
    return names


# ---------------------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------------------
def test_gtkw_covers_csb_axi_and_datapath() -> None:
    names = {base_name(s) for s in gtkw_signals(GTKW)}
    missing = [s for s in REQUIRED if s not in names]
    assert not missing, f"{GTKW.name} lacks {missing}"


def test_gtkw_groups_and_unit_aliases() -> None:
    groups = gtkw_groups(GTKW)
    assert not [g for g in GROUPS if g not in groups], f"{GTKW.name} has groups {groups}, wants {GROUPS}"
    aliases = [alias for alias, _ in gtkw_traces(GTKW)]
    repeated = sorted({a for a in aliases if aliases.count(a) > 1 and a is not None})
    assert not repeated, f"{GTKW.name}: several traces read {repeated}"
    for alias, signal in gtkw_traces(GTKW):
        # GTKWave shows a name from its last '.' on (so `pdp.running` would read `running`): a colon instead
        named = re.fullmatch(r"(\w+):([^.]+)", alias or "")
        assert named and named[1] in UNITS, \
            f"{GTKW.name}: {signal} reads {alias!r}, not <unit>:<signal> (no '.') with a unit of {UNITS}"
        if signal.startswith(CONV_PATH):
            inner = signal.removeprefix(CONV_PATH).split(".")
            ok = named[1] in CONV_UNITS if len(inner) == 1 else inner[0].startswith(f"u_{named[1]}")
            assert ok, f"{GTKW.name}: {signal} (inside {inner[0]}) reads {alias}"
            continue
        inside = signal.split(".")[1] if signal.count(".") > 1 else None
        assert inside in (None, f"u_{named[1]}"), f"{GTKW.name}: {signal} (inside {inside}) reads {alias}"


def test_gtkw_signals_exist_in_the_design(tmp_path: Path) -> None:
    bench = find(BENCH)
    design = design_signals(bench.toplevel, bench.sources, tmp_path, bench.param_sets[0])
    assert len(design) > 500, "the design hierarchy looks empty: the JSON walk is broken"
    missing = [s for s in gtkw_signals(GTKW) if s not in design]
    assert not missing, f"{GTKW.name} names signals the design does not have: {missing}"


def top_fst() -> Path | None:
    """The FST of BENCH's TEST, else any FST a bench built on nvdla_pp_top left (not the wrapper benches:
    their root is nvdla_pp_top_mem)."""
    bench = find(BENCH)
    fst = wave_path("verilator", BENCH, bench.tag(bench.param_sets[0]), TEST)
    if fst.exists():
        return fst
    on_top = [b.name for b in BENCHES if b.toplevel == bench.toplevel]
    dumps = sorted(f for name in on_top for f in (ROOT / "waves" / "verilator" / name).glob("*/*.fst"))
    return dumps[0] if dumps else None


def test_gtkw_signals_exist_in_the_fst() -> None:
    fst = top_fst()
    if fst is None:
        pytest.skip("no FST of the top level: make one with "
                    "make BENCH=top_pdp TESTCASE=random_layers WAVES=1")
    dumped = fst_signals(fst)
    assert len(dumped) > 500, "the FST signal list looks empty: the reader is broken"
    missing = [s for s in gtkw_signals(GTKW) if s not in dumped]
    assert not missing, f"{GTKW.name} names signals {fst.name} does not have: {missing}"


def test_lz4_block_literals_and_overlapping_match() -> None:
    # token 0x31: 3 literals "abc", then a match of 1+4 = 5 bytes at offset 3 (overlapping), then a final
    # sequence of 2 literals
    block = bytes([0x31]) + b"abc" + bytes([3, 0]) + bytes([0x20]) + b"xy"
    assert lz4_block(block, 10) == b"abcabcabxy"
