"""NVIDIA's older `.txn` traceplayer format (models/txn.py): the real traces, a synthetic INT8 trace that
runs end to end on the model, and the parser's errors (file and line named, no traceback)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from models import registers as regmap
from models.common.driver import Surface
from models.replay import replay_on_own_config
from models.sdp.driver import sdp_layer
from models.trace import REPO_TRACES, TraceError, find_traces
from models.txn import csb_register, csb_word, load_txn_dat, parse_txn, txn_trace

REPO_TXN = REPO_TRACES / "nv_full"
SHARED_TXN = Path("/work/shared/nvdla/traceplayer")  # the team's copy; CI has only the in-repo one
REAL = sorted({*find_traces(REPO_TXN), *(find_traces(SHARED_TXN) if SHARED_TXN.is_dir() else [])})
# NVIDIA's comments name the register: "#NVDLA_SDP_RDMA.D_DATA_CUBE_WIDTH_0", sometimes with text glued on
_COMMENT = re.compile(r"#\s*NVDLA_([A-Z0-9_]+?)\.([A-Z0-9_]+?)_0")


@pytest.mark.skipif(not REAL, reason=f"no .txn trace under {REPO_TXN} or {SHARED_TXN}")
@pytest.mark.parametrize("folder", REAL, ids=[f"{f.parent.name}/{f.name}" for f in REAL])
def test_real_trace_runs_or_skips_with_a_reason(folder: Path) -> None:
    result = replay_on_own_config(folder)
    assert result.passed or result.message.startswith("SKIP: needs "), result.message
    if not result.passed:
        assert re.search(r"needs (INT16|FP16|[A-Z_]+ \(a unit this subsystem lacks\))", result.message)


@pytest.mark.skipif(not REAL, reason=f"no .txn trace under {REPO_TXN} or {SHARED_TXN}")
def test_addresses_map_to_the_registers_nvidia_names() -> None:
    """The nv_full windows are checked against NVIDIA's own comment on every register access."""
    checked = lacking = 0
    for folder in REAL:
        lines = (folder / "input.txn").read_text().splitlines()
        for cmd in parse_txn(folder / "input.txn"):
            m = _COMMENT.search(lines[cmd.line - 1])
            if cmd.op not in ("write_reg", "read_reg") or not m:
                continue
            unit, reg = m.groups()
            found = csb_register(cmd.args[0], cmd.where())
            if unit in regmap.UNITS:
                assert found == (unit, reg), f"{cmd.where()}: {found} but NVIDIA says {unit}.{reg}"
                checked += 1
            else:
                assert found == unit, f"{cmd.where()}: {found} but NVIDIA says {unit}"
                lacking += 1
    # every unit of the in-repo traces (GLB, BDMA, SDP, PDP) is in the description since BDMA joined it
    assert checked >= 50, (checked, lacking)


@pytest.mark.skipif(not REAL, reason=f"no .txn trace under {REPO_TXN} or {SHARED_TXN}")
def test_dat_images_hold_what_their_headers_say() -> None:
    """Data_size = W*H*C*element bytes where a header gives the cube, and the image holds at least that."""
    seen = 0
    for folder in REAL:
        for dat in sorted(folder.glob("*.dat")):
            header, data = load_txn_dat(dat, str(dat))
            assert data.size > 0, dat
            if {"Data_size", "W", "H", "C", "Precision"} <= header.keys():
                elem = {"INT8": 1, "INT16": 2, "FP16": 2}[header["Precision"]]
                size = int(header["Data_size"], 0)
                assert size == int(header["W"], 0) * int(header["H"], 0) * int(header["C"], 0) * elem, dat
                assert data.size >= size, dat
                assert "#" not in header["Data_type"], dat  # comments are not values
                seen += 1
    assert seen >= 3


# --- a synthetic INT8 trace: SDP with every block bypassed copies its input, so the dump is the input ---

def _write_identity_trace(folder: Path, corrupt: bool = False, plusargs: str = "") -> None:
    src, dst = Surface(0x1000, 0x80, 0x100), Surface(0x3000, 0x80, 0x100)
    # 4x2x32 INT8, dense at nv_full's 32-byte atom: 256 bytes in and out
    program = sdp_layer(4, 2, 32, src=src, dst=dst)
    data = np.random.default_rng(13).integers(0, 256, 256, dtype=np.uint8)
    lines = [f"load_mem {src.base:#x} {data.size:#x} in.dat"]
    for w in program.writes:
        lines.append(f"write_reg {csb_word(w.unit, w.reg):#010x} {w.value:#x} # {w.unit}.{w.reg}")
    width = csb_word("SDP", "D_DATA_CUBE_WIDTH")
    lines += ["wait", f"read_reg {width:#010x} 0x1fff 0x3", f"dump_mem {dst.base:#x} {data.size:#x} out.dat"]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "input.txn").write_text("# synthetic\n" + "\n".join(lines) + "\n")
    if plusargs:
        (folder / "plusargs.txt").write_text(plusargs)
    expected = data.copy()
    if corrupt:
        expected[77] ^= 1

    def image(values: np.ndarray) -> str:
        rows = [" ".join(f"0x{b:02x}" for b in values[i:i + 32]) for i in range(0, values.size, 32)]
        return f"Data_size = {values.size:#x}\nPrecision = INT8\n" + "\n".join(rows) + "\n\ndump done\n"

    (folder / "in.dat").write_text(image(data))
    (folder / "out.dat").write_text(image(expected))


def test_synthetic_int8_trace_passes(tmp_path: Path) -> None:
    _write_identity_trace(tmp_path / "identity", plusargs="+read_reg_poll_retries=10 +continue_on_fail\n")
    trace = txn_trace(tmp_path / "identity")
    assert not trace.skip
    assert any(getattr(s, "retries", None) == 10 for s in trace.steps)
    result = replay_on_own_config(tmp_path / "identity")
    assert result.passed, result.message
    assert result.checks == 2  # the polled read_reg and the dump_mem


def test_synthetic_trace_fails_on_a_wrong_byte(tmp_path: Path) -> None:
    _write_identity_trace(tmp_path / "bad", corrupt=True)
    result = replay_on_own_config(tmp_path / "bad")
    assert not result.passed and not result.message.startswith("SKIP")
    assert "input.txn" in result.message and "1 bytes, first at 0x304d" in result.message


def test_synthetic_trace_fails_on_a_wrong_read(tmp_path: Path) -> None:
    _write_identity_trace(tmp_path / "read")
    txn = tmp_path / "read" / "input.txn"
    txn.write_text(txn.read_text().replace(" 0x1fff 0x3\n", " 0x1fff 0x4\n"))
    result = replay_on_own_config(tmp_path / "read")
    assert not result.passed and "SDP.D_DATA_CUBE_WIDTH reads 0x00000003" in result.message


def test_a_running_layer_reads_enabled_until_its_interrupt(tmp_path: Path) -> None:
    """As NVIDIA's pdp_max_pooling_int16 does: read D_OP_ENABLE back right after the enable. The hardware is
    still running and reads 1; the model ran at once but must read the same until the wait; after the
    wait the group is idle (0)."""
    _write_identity_trace(tmp_path / "busy")
    txn = tmp_path / "busy" / "input.txn"
    enable = csb_word("SDP", "D_OP_ENABLE")
    text = txn.read_text().replace("\nwait\n", f"\nread_reg {enable:#010x} 0x1 0x1\nwait\n"
                                                 f"read_reg {enable:#010x} 0x1 0x0\n")
    txn.write_text(text)
    result = replay_on_own_config(tmp_path / "busy")
    assert result.passed, result.message


def test_a_precision_the_model_lacks_skips_naming_the_field(tmp_path: Path) -> None:
    _write_identity_trace(tmp_path / "fp16")
    txn = tmp_path / "fp16" / "input.txn"
    fmt = csb_word("CDP", "D_DATA_FORMAT")
    txn.write_text(txn.read_text() + f"write_reg {fmt:#010x} 0x3\n")  # no precision: the model lacks it
    result = replay_on_own_config(tmp_path / "fp16")
    assert result.message.startswith("SKIP: needs precision 3: CDP.D_DATA_FORMAT.INPUT_DATA_TYPE at ")
    assert f"input.txn:{len(txn.read_text().splitlines())}" in result.message


# --- errors: file and line, and what was wrong -----------------------------------------------------------

def _one_line_trace(tmp_path: Path, line: str) -> Path:
    (tmp_path / "input.txn").write_text(f"# a comment\n{line}\n")
    return tmp_path


@pytest.mark.parametrize(("line", "error"), [
    ("poke_reg 0xffff2c0f 0x7", r"input.txn:2: unknown command 'poke_reg'"),
    ("write_reg 0xffff2c0f", r"input.txn:2: write_reg takes 2 arguments, got 1"),
    ("write_reg 0x2c0f 0x7", r"input.txn:2: '0x2c0f' is not a CSB word address 0xffffNNNN"),
    ("write_reg 0xffff2bff 0x7", r"input.txn:2: 0xffff2bff \(byte 0xaffc, SDP_RDMA offset 0xffc\) is not a "
                                 r"register of SDP_RDMA"),
    ("write_reg 0xffff2c0f seven", r"input.txn:2: 'seven' is not a number"),
    ("load_mem 0x1000 0x10 missing.dat", r"input.txn:2: memory image .*missing.dat not found"),
    ("wait", r"input.txn:2: wait, but no SDP/CDP/PDP/BDMA operation was started before it"),
])
def test_errors_name_file_and_line(tmp_path: Path, line: str, error: str) -> None:
    folder = _one_line_trace(tmp_path, line)
    with pytest.raises(TraceError, match=error):
        txn_trace(folder)
    result = replay_on_own_config(folder)  # the replay reports it as this trace's failure, no traceback
    assert not result.passed and re.search(error, result.message)


def test_dat_errors_name_file_and_line(tmp_path: Path) -> None:
    dat = tmp_path / "x.dat"
    dat.write_text("W = 8\n0x01 0x02\n0x03 0xzz\n")
    with pytest.raises(TraceError, match=r"x.dat:3: '0xzz' is not a byte"):
        load_txn_dat(dat, "here")
    dat.write_text("0x01 0x02\ndump done\n0x03\n")
    with pytest.raises(TraceError, match=r"x.dat:3: bytes after the text at line 2"):
        load_txn_dat(dat, "here")
    (tmp_path / "input.txn").write_text("load_mem 0x1000 0x10 x.dat\n")
    dat.write_text("0x01 0x02\n")
    with pytest.raises(TraceError, match=r"input.txn:1: x.dat holds 2 bytes, load_mem needs 0x10"):
        txn_trace(tmp_path)
