"""BDMA, nv_full's bridge DMA: the reference model of its copies and of its command-queue protocol.

A BDMA operation copies a cube of SURF_REPEAT+1 surfaces of LINE_REPEAT+1 lines of (LINE.SIZE+1)*32 bytes,
line by line, from one memory to another (NVIDIA's NV_NVDLA_BDMA_load.v / _store.v, nvdlav1):
- every address and stride register keeps bits [31:5] only (NV_NVDLA_BDMA_reg.v stores reg_wdata[31:5]), so
  a copy starts on a 32-byte boundary and the low 5 bits written read back 0; the 64-bit address is
  {ADDR_HIGH, ADDR_LOW[31:5], 5'b0};
- line l of surface s is read at src + s*SRC_SURF + l*SRC_LINE and written at dst + s*DST_SURF + l*DST_LINE,
  surfaces outer, lines inner; a stride of 0 reads (or writes) the same line again, and the line written last
  stays;
- CFG_CMD.SRC_RAM_TYPE / DST_RAM_TYPE pick the memory: MC (1) is the primary memory, memory 0 of
  models/subsystem.py ModelTarget.memories; CVSRAM (0) the second memory, memory 1 (memory_of).

Protocol (NV_NVDLA_BDMA_csb.v): writing CFG_OP with EN=1 pushes the CFG_ registers as one operation into a
20-entry queue (a push into a full queue is dropped, as NVIDIA's FIFO drops it); writing CFG_LAUNCH0/1 with
GRPn_LAUNCH=1 closes group n: the operations pushed since the previous launch run in order, then group n's
done sets GLB BDMA_DONE<n>. A launch with no operation pushed sets STATUS.GRPn_BUSY and never finishes (NVIDIA
loads a zero operation count). The model runs a group at once, so STATUS shows the queue empty again and the
stall counters read 0 (there is no memory to stall on).

Pure Python + numpy: no simulator imports.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from models import registers as regmap
from models.common.memory import Memory, memory_index
from models.regfile import RegisterFile

UNIT = "BDMA"
LINE_UNIT = 32  # CFG_LINE.SIZE counts 32-byte units; addresses and strides are 32-byte multiples
ADDR_SHIFT = 5  # the low address bits NVIDIA's register block does not store
QUEUE_DEPTH = 20  # NV_NVDLA_BDMA_csb.v: free_slot = 20 - csb_fifo_wr_count
RAM_CVSRAM = 0
RAM_MC = 1


def memory_of(ram_type: int) -> int:
    """The memory a BDMA side uses: the one RAM-type rule of every DMA (BDMA exists only with a CV SRAM)."""
    return memory_index(ram_type == RAM_MC, second_memory=True)

GROUPS = (0, 1)
LAUNCH = {0: ("CFG_LAUNCH0", "GRP0_LAUNCH"), 1: ("CFG_LAUNCH1", "GRP1_LAUNCH")}


def _get(fields: Mapping[str, int], key: str) -> int:
    return int(fields.get(key, 0))


@dataclass(frozen=True)
class BdmaOp:
    """One queued operation, in bytes (register values decoded: +1 on counts, << 5 on addresses)."""

    src: int
    dst: int
    line_bytes: int
    lines: int
    surfaces: int
    src_line: int
    dst_line: int
    src_surf: int
    dst_surf: int
    src_ram: int = RAM_MC
    dst_ram: int = RAM_MC

    @classmethod
    def from_fields(cls, fields: Mapping[str, int]) -> BdmaOp:
        """From "REG.FIELD" -> value of the BDMA registers (models/registers.py decode_fields)."""
        def addr(side: str) -> int:
            return (_get(fields, f"CFG_{side}_ADDR_HIGH.V8") << 32
                    | _get(fields, f"CFG_{side}_ADDR_LOW.V32") << ADDR_SHIFT)

        def stride(reg: str) -> int:
            return _get(fields, f"{reg}.STRIDE") << ADDR_SHIFT

        return cls(src=addr("SRC"), dst=addr("DST"),
                   line_bytes=(_get(fields, "CFG_LINE.SIZE") + 1) * LINE_UNIT,
                   lines=_get(fields, "CFG_LINE_REPEAT.NUMBER") + 1,
                   surfaces=_get(fields, "CFG_SURF_REPEAT.NUMBER") + 1,
                   src_line=stride("CFG_SRC_LINE"), dst_line=stride("CFG_DST_LINE"),
                   src_surf=stride("CFG_SRC_SURF"), dst_surf=stride("CFG_DST_SURF"),
                   src_ram=_get(fields, "CFG_CMD.SRC_RAM_TYPE"), dst_ram=_get(fields, "CFG_CMD.DST_RAM_TYPE"))

    @classmethod
    def from_registers(cls, values: Mapping[str, int]) -> BdmaOp:
        """From register name -> 32-bit value (what software wrote; the unstored bits are dropped here)."""
        return cls.from_fields(regmap.decode_fields(UNIT, values))

    def line_pairs(self) -> Iterator[tuple[int, int]]:
        """(source, destination) byte address of every line, in the order the hardware copies them."""
        for s in range(self.surfaces):
            for ln in range(self.lines):
                yield (self.src + s * self.src_surf + ln * self.src_line,
                       self.dst + s * self.dst_surf + ln * self.dst_line)

    @property
    def total_bytes(self) -> int:
        return self.line_bytes * self.lines * self.surfaces


def run_op(op: BdmaOp, memories: Sequence[Memory]) -> None:
    """Copy one operation's lines in hardware order: each line is read, then written."""
    src_mem, dst_mem = memories[memory_of(op.src_ram)], memories[memory_of(op.dst_ram)]
    for src, dst in op.line_pairs():
        dst_mem.write(dst, src_mem.read(src, op.line_bytes))


@dataclass
class GroupRun:
    """A group that finished: its number and its operations (for a bench's or a trace's checks)."""

    group: int
    ops: list[BdmaOp] = field(default_factory=list)


class Bdma:
    """BDMA behind its registers: the register file, the command queue, the two groups, the copies."""

    def __init__(self, memories: Sequence[Memory]) -> None:
        self.memories = memories
        self.regs = RegisterFile(UNIT)
        self.queue: list[BdmaOp] = []  # pushed, not yet launched
        self.busy = [False, False]
        self.dropped = 0  # pushes into a full queue
        self.runs: list[GroupRun] = []

    def write(self, reg: str, value: int) -> list[int]:
        """A CSB write; returns the groups it finished (their GLB BDMA_DONE bits are the caller's)."""
        self.regs.write(reg, value)
        if reg == "CFG_OP" and value & 1:
            self.push()
            return []
        for group, (name, _fname) in LAUNCH.items():
            if reg == name and value & 1:
                return self.launch(group)
        return []

    def push(self) -> None:
        if len(self.queue) >= QUEUE_DEPTH:
            self.dropped += 1
            return
        self.queue.append(BdmaOp.from_fields(self.regs.fields(0)))

    def launch(self, group: int) -> list[int]:
        self.busy[group] = True
        if not self.queue:
            return []  # NVIDIA: a zero operation count never reaches the store, so no done
        ops, self.queue = self.queue, []
        for op in ops:
            run_op(op, self.memories)
        self.busy[group] = False
        self.runs.append(GroupRun(group, ops))
        return [group]

    def read(self, reg: str) -> int:
        if reg == "STATUS":
            idle = not self.queue
            return regmap.encode_fields(UNIT, {
                "STATUS.FREE_SLOT": QUEUE_DEPTH - len(self.queue), "STATUS.IDLE": int(idle),
                "STATUS.GRP0_BUSY": int(self.busy[0]), "STATUS.GRP1_BUSY": int(self.busy[1])})["STATUS"]
        if reg.startswith("STATUS_GRP"):
            return 0
        return self.regs.read(reg)
