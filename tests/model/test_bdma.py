"""BDMA model (models/bdma/model.py): random copies against a plain numpy reference, the queue/launch
protocol,
the driver's rules (models/bdma/driver.py), and NVIDIA's BDMA traces."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from models import configs
from models import registers as regmap
from models.bdma.driver import BdmaCopy, group_writes, program_writes
from models.bdma.model import QUEUE_DEPTH, Bdma, BdmaOp
from models.common.memory import Memory
from models.errors import ConfigError
from models.regfile import intr_bit
from models.replay import load_steps, replay_on_own_config
from models.steps import RegRead
from models.subsystem import ModelTarget
from models.trace import REPO_TRACES

SRC_BASE, DST_BASE, WINDOW = 0x1000_0000, 0x2000_0000, 1 << 20
SANITY = [REPO_TRACES / "nv_full" / n for n in ("sanity0", "sanity1", "sanity2", "sanity1_cvsram",
                                                 "sanity2_cvsram")]


def _random_regs(rng: np.random.Generator) -> dict[str, int]:
    """Register values of one copy inside the windows (any stride, 0 included; low address bits set too,
    which the hardware drops)."""
    size = int(rng.integers(0, 8))
    lines, surfs = int(rng.integers(1, 6)), int(rng.integers(1, 4))
    def stride() -> int:
        return int(rng.choice([0, int(rng.integers(0, 40)) * 32, 0x8000]))
    fields = {"CFG_LINE.SIZE": size, "CFG_LINE_REPEAT.NUMBER": lines - 1,
              "CFG_SURF_REPEAT.NUMBER": surfs - 1, "CFG_CMD.SRC_RAM_TYPE": int(rng.integers(0, 2)),
              "CFG_CMD.DST_RAM_TYPE": int(rng.integers(0, 2))}
    regs = regmap.encode_fields("BDMA", fields)
    for side, base in (("SRC", SRC_BASE), ("DST", DST_BASE)):
        regs[f"CFG_{side}_ADDR_LOW"] = base + int(rng.integers(0, 0x4000))  # low 5 bits random
        regs[f"CFG_{side}_ADDR_HIGH"] = 0
        regs[f"CFG_{side}_LINE"] = stride() | int(rng.integers(0, 32))
        regs[f"CFG_{side}_SURF"] = stride() | int(rng.integers(0, 32))
    return regs


def _reference(regs: dict[str, int], src: np.ndarray, dst: np.ndarray) -> None:
    """The copy as index arithmetic on flat windows: every byte's source and destination at once, in the
    hardware's order (surface, line, byte), so that with a zero stride the line written last stays."""
    def field(reg: str, lo: int, width: int) -> int:
        return (regs.get(reg, 0) >> lo) & ((1 << width) - 1)
    nbytes = (field("CFG_LINE", 0, 13) + 1) * 32
    lines, surfs = field("CFG_LINE_REPEAT", 0, 24) + 1, field("CFG_SURF_REPEAT", 0, 24) + 1
    s, ln, b = np.meshgrid(np.arange(surfs), np.arange(lines), np.arange(nbytes), indexing="ij")

    def index(side: str, base: int) -> np.ndarray:
        addr = (regs[f"CFG_{side}_ADDR_LOW"] & ~31) - base
        line, surf = regs[f"CFG_{side}_LINE"] & ~31, regs[f"CFG_{side}_SURF"] & ~31
        return (addr + s * surf + ln * line + b).ravel()

    dst[index("DST", DST_BASE)] = src[index("SRC", SRC_BASE)]


def _program(bdma: Bdma, regs: dict[str, int]) -> None:
    for name, value in regs.items():
        bdma.write(name, value)
    bdma.write("CFG_OP", 1)


@pytest.mark.parametrize("seed", range(6))
def test_random_copies_match_a_numpy_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    memories = [Memory(), Memory()]
    windows = {m: rng.integers(0, 256, WINDOW, dtype=np.uint8) for m in (0, 1)}
    for m, data in windows.items():
        memories[m].write(SRC_BASE, data)
    bdma = Bdma(memories)
    expected = {m: memories[m].read(DST_BASE, WINDOW) for m in (0, 1)}
    for _ in range(12):
        regs = _random_regs(rng)
        op = BdmaOp.from_registers(regs)
        src_mem, dst_mem = 1 - (regs["CFG_CMD"] & 1), 1 - (regs["CFG_CMD"] >> 1 & 1)  # MC (1) is memory 0
        assert (op.src_ram, op.dst_ram) == (1 - src_mem, 1 - dst_mem)
        _reference(regs, windows[src_mem], expected[dst_mem])
        _program(bdma, regs)
    assert bdma.write("CFG_LAUNCH1", 1) == [1]
    for m in (0, 1):
        np.testing.assert_array_equal(memories[m].read(DST_BASE, WINDOW), expected[m])


def test_registers_drop_the_low_address_bits_and_read_back() -> None:
    bdma = Bdma([Memory(), Memory()])
    bdma.write("CFG_SRC_ADDR_LOW", 0x1234_567F)
    bdma.write("CFG_DST_LINE", 0xFFFF_FFFF)
    bdma.write("CFG_OP", 0)
    assert bdma.read("CFG_SRC_ADDR_LOW") == 0x1234_5660
    assert bdma.read("CFG_DST_LINE") == 0xFFFF_FFE0
    assert bdma.read("STATUS") == regmap.UNITS["BDMA"]["registers"]["STATUS"]["reset"] == 0x114
    bdma.write("CFG_OP", 1)  # EN reads back as written (NVIDIA's trace sanity1 reads it)
    assert bdma.read("CFG_OP") == 1 and bdma.read("STATUS") == QUEUE_DEPTH - 1  # a slot taken, not idle


def test_queue_drops_the_21st_push_and_an_empty_launch_never_finishes() -> None:
    mem = Memory()
    mem.write(0, np.arange(64, dtype=np.uint8))
    bdma = Bdma([mem, Memory()])
    for reg, v in regmap.encode_fields("BDMA", {"CFG_CMD.SRC_RAM_TYPE": 1, "CFG_CMD.DST_RAM_TYPE": 1,
                                                "CFG_DST_ADDR_LOW.V32": 4}).items():
        bdma.write(reg, v)
    for _ in range(QUEUE_DEPTH + 1):
        bdma.write("CFG_OP", 1)
    assert bdma.dropped == 1 and len(bdma.queue) == QUEUE_DEPTH
    assert bdma.write("CFG_LAUNCH0", 0) == []  # NO launches nothing
    assert bdma.write("CFG_LAUNCH0", 1) == [0] and len(bdma.runs[-1].ops) == QUEUE_DEPTH
    np.testing.assert_array_equal(mem.read(128, 32), np.arange(32))
    assert bdma.write("CFG_LAUNCH1", 1) == [] and bdma.busy == [False, True]
    assert bdma.read("STATUS") >> 10 & 1 == 1


def test_subsystem_sets_the_glb_bit_of_the_group() -> None:
    t = ModelTarget(configs.load("nv_full"))
    for w in group_writes([BdmaCopy(0x1000, 0x2000, 64)], 1):
        t.reg_write(w.unit, w.reg, w.value)
    assert t.reg_read("GLB", "S_INTR_STATUS") == 1 << intr_bit("BDMA", 1)
    assert t.wait_interrupt("BDMA", 1) and not t.wait_interrupt("BDMA", 1)
    with pytest.raises(Exception, match="no BDMA"):
        ModelTarget(configs.load("nv_small")).reg_write("BDMA", "CFG_OP", 1)


def test_driver_program_copies_what_it_describes() -> None:
    rng = np.random.default_rng(7)
    t = ModelTarget(configs.load("nv_full"))
    data = rng.integers(0, 256, 0x4000, dtype=np.uint8)
    t.mem_write(0, 0x10000, data)
    a = BdmaCopy(0x10000, 0x20000, 96, lines=3, surfaces=2, src_line=128, src_surf=512, dst_ram="CVSRAM")
    b = BdmaCopy(0x20000, 0x30000, 32, lines=2, dst_line=64, src_ram="CVSRAM", dst_ram="CVSRAM")
    for w in program_writes([(0, [a]), (1, [b])]):
        t.reg_write(w.unit, w.reg, w.value)
    got = t.mem_read(1, 0x20000, 576)
    for s in range(2):
        for ln in range(3):
            src = s * 512 + ln * 128
            np.testing.assert_array_equal(got[(s * 3 + ln) * 96:][:96], data[src:src + 96])
    # b's second line is a's bytes 32..63, written one 64-byte stride on
    np.testing.assert_array_equal(t.mem_read(1, 0x30000, 96)[64:], data[32:64])


GOOD = BdmaCopy(0x1000, 0x8000, 64, lines=2, surfaces=2)
RULES = [
    (BdmaCopy(0x1000, 0x8000, 48), "CFG_LINE = valid_bytes_per_line/32-1"),
    (BdmaCopy(0x1000, 0x8000, 32 * 8193), "CFG_LINE = valid_bytes_per_line/32-1"),
    (BdmaCopy(0x1010, 0x8000, 64), "alignment"),
    (BdmaCopy(0x1000, 0x8000, 64, lines=2, dst_line=80), "alignment"),
    (BdmaCopy(0x1000, 0x8000, 64, lines=2, src_line=32), "LINE_STRIDE has to be at least"),
    (BdmaCopy(0x1000, 0x8000, 64, lines=2, surfaces=2, dst_surf=96), "CFG_SRC/DST_SURF is the bytes per"),
    (BdmaCopy(0x1000, 0x8000, 32, lines=8193, src_line=0x10000, dst_line=0x10000), "13 bits of LINE_REPEAT"),
    (BdmaCopy(0x1000, 0xFFFF_FFE0, 64), "32 bits"),
    (BdmaCopy(0x1000, 0x1020, 64), "must not overlap"),
    (BdmaCopy(0x1000, 0x8000, 64, dst_ram="DRAM"), "MC or CVSRAM"),
]


@pytest.mark.parametrize(("copy", "rule"), RULES, ids=[r for _c, r in RULES])
def test_driver_rejects_each_rule(copy: BdmaCopy, rule: str) -> None:
    with pytest.raises(ConfigError, match=rule.replace("/", ".").replace("(", ".")):
        group_writes([copy], 0)
    group_writes([GOOD], 0)  # the rule, not the group, rejects it


def test_driver_rejects_the_group_rules() -> None:
    other = BdmaCopy(0x20000, 0x28000, 32, dst_ram="CVSRAM")
    with pytest.raises(ConfigError, match="same destination memory type"):
        group_writes([GOOD, other], 0)
    with pytest.raises(ConfigError, match="20 slots"):
        group_writes([GOOD] * (QUEUE_DEPTH + 1), 0)
    with pytest.raises(ConfigError, match="20 slots"):
        group_writes([], 1)
    with pytest.raises(ConfigError, match="both group0 and group1 are busy"):
        program_writes([(0, [GOOD]), (0, [GOOD])])
    with pytest.raises(ConfigError, match="both group0 and group1 are busy"):
        program_writes([(0, [GOOD] * 10), (1, [GOOD] * 11)])
    assert len(program_writes([(0, [GOOD] * 10), (1, [other] * 10)])) == 20 * 13 + 2


@pytest.mark.parametrize("folder", SANITY, ids=[f.name for f in SANITY])
def test_nvidia_bdma_traces_pass_with_their_copies_checked(folder: Path) -> None:
    result = replay_on_own_config(folder)
    assert result.passed, result.message
    # every read_reg and the copy check (sanity0 reads registers only: no copy)
    steps, _skip = load_steps(folder)
    reads = sum(isinstance(s, RegRead) for s in steps)
    assert result.checks == reads + (0 if folder.name == "sanity0" else 1)


def test_a_wrong_copy_fails_the_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    """The copy check is real: a model that skips the last line fails sanity2 naming the copy."""
    original = BdmaOp.line_pairs

    def short(self: BdmaOp) -> Iterator[tuple[int, int]]:
        return iter(list(original(self))[:-1])

    monkeypatch.setattr(BdmaOp, "line_pairs", short)
    result = replay_on_own_config(REPO_TRACES / "nv_full" / "sanity2")
    assert not result.passed and "BDMA copy" in result.message, result.message
