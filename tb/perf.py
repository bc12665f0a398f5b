"""The performance counters on the subsystem top, scored by the benches (docs/perf_counters.md).

`StallMonitor` counts, every cycle, the DMA stalls of each unit as NVDLA defines them, at the unit's own AXI
port (the top's arb_* vectors between the units and the memory interface): a read stall is a cycle in which
the unit's AR request is valid and not ready, a write stall one in which its AW request or a W beat is valid
and not ready. SDP's read streams share one AR channel: each SDP burst is kept with the cycles it waited, and
tb/env/sdp.py attributes it to the stream whose cube holds its address. `PerfCheck` turns the measured
counts into the register values with the counter rules of models/perf.py and reads both register groups.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import cocotb
from cocotb.handle import SimHandleBase
from cocotb.triggers import ReadOnly, RisingEdge

from models import registers as regmap
from models.perf import BY_KEY, PerfCounters, counting
from models.steps import RegWrite
from tb.reg_shadow import RegShadow

MASTER = {"PDP": 0, "CDP": 1, "SDP": 2}    # the units' memory-interface ports (rtl/top/nvdla_pp_top.v M_*)
RDMA = {"PDP": "PDP_RDMA", "CDP": "CDP_RDMA", "SDP": "SDP_RDMA"}
# the stall counter each unit's DMA side feeds ((unit, register); SDP's reads per stream: tb/env/sdp.py)
READ_STALL = {"PDP": ("PDP_RDMA", "D_PERF_READ_STALL"), "CDP": ("CDP_RDMA", "D_PERF_READ_STALL")}
WRITE_STALL = {"PDP": ("PDP", "D_PERF_WRITE_STALL"), "CDP": ("CDP", "D_PERF_WRITE_STALL"),
               "SDP": ("SDP", "D_PERF_WDMA_WRITE_STALL")}
ADDR_W = 32


@dataclass(frozen=True)
class ArBurst:
    """One AR request of a unit: its address, RAM type (aruser: True MC) and the cycles it waited."""

    addr: int
    ram_mc: bool
    stalled: int


@dataclass
class Stalls:
    """What the monitor saw since the last `take`: stall cycles per unit and side, SDP's AR bursts."""

    reads: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MASTER, 0))
    writes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MASTER, 0))
    sdp_bursts: list[ArBurst] = field(default_factory=list)


class StallMonitor:
    """Counts the units' DMA stalls every cycle from its creation (a background coroutine)."""

    def __init__(self, dut: SimHandleBase) -> None:
        self.dut = dut
        self.seen = Stalls()
        self._waiting = 0     # cycles the SDP AR request now shown has waited
        cocotb.start_soon(self._run())

    def take(self) -> Stalls:
        """The stalls since the last take (a layer's, when called between layers)."""
        seen, self.seen = self.seen, Stalls()
        return seen

    async def _run(self) -> None:
        dut, sdp = self.dut, 1 << MASTER["SDP"]
        while True:
            await ReadOnly()
            arv, arr = int(dut.arb_arvalid.value), int(dut.arb_arready.value)
            aw_wait = int(dut.arb_awvalid.value) & ~int(dut.arb_awready.value)
            w_wait = int(dut.arb_wvalid.value) & ~int(dut.arb_wready.value)
            ar_wait = arv & ~arr
            if ar_wait | aw_wait | w_wait:
                for unit, m in MASTER.items():
                    self.seen.reads[unit] += (ar_wait >> m) & 1
                    self.seen.writes[unit] += ((aw_wait | w_wait) >> m) & 1
            if ar_wait & sdp:
                self._waiting += 1
            elif arv & arr & sdp:
                addr = (int(dut.arb_araddr.value) >> (ADDR_W * MASTER["SDP"])) & ((1 << ADDR_W) - 1)
                user = (int(dut.arb_aruser.value) >> MASTER["SDP"]) & 1
                self.seen.sdp_bursts.append(ArBurst(addr, bool(user), self._waiting))
                self._waiting = 0
            await RisingEdge(dut.clk)


# ---- D_PERF_ENABLE values ------------------------------------------------------------------------------

def random_enables(rng: random.Random, units: Iterable[str]) -> list[tuple[str, str, int]]:
    """A D_PERF_ENABLE write per unit with each of its enable fields drawn on its own."""
    writes = []
    for unit in units:
        fields = regmap.registers(unit)["D_PERF_ENABLE"]["fields"]
        value = sum(rng.getrandbits(1) << lsb for _msb, lsb, _a in fields.values())
        writes.append((unit, "D_PERF_ENABLE", value))
    return writes


class Program(Protocol):
    """A driver's register program (models/{pdp,cdp,sdp}/driver.py)."""

    fields: dict[str, dict[str, int]]
    writes: tuple[RegWrite, ...]


ProgramT = TypeVar("ProgramT", bound=Program)


def with_enables(prog: ProgramT, enables: Sequence[tuple[str, str, int]]) -> ProgramT:
    """The program with `enables` (D_PERF_ENABLE writes) written just before its first D_OP_ENABLE, where
    they land in its group, replacing any write of theirs it had; its fields say the same."""
    writes = prog.writes
    first = next(i for i, w in enumerate(writes) if w[1] == "D_OP_ENABLE")
    replaced = {(u, r) for u, r, _v in enables}
    head = [w for w in writes[:first] if (w[0], w[1]) not in replaced]
    fields = {u: dict(f) for u, f in prog.fields.items()}
    for unit, reg, value in enables:
        fields.setdefault(unit, {}).update(regmap.decode_fields(unit, {reg: value}))
    new_writes = (*head, *(RegWrite(*w) for w in enables), *writes[first:])
    return dataclasses.replace(prog, writes=new_writes, fields=fields)  # type: ignore[type-var]


# ---- expected register values ----------------------------------------------------------------------------

class GroupReader(Protocol):
    async def check_group_registers(self, unit: str, want: Sequence[Mapping[str, int]],
                                    label: str) -> None: ...


class PerfCheck:
    """The counters of models/perf.py fed with what a layer counted, and what each register group must hold
    of the counters scored (`keys`: (unit, register)): a statistics register of a group takes the counter's
    value at the end of the group's last layer (0 before its first)."""

    def __init__(self, keys: Iterable[tuple[str, str]]) -> None:
        self.keys = tuple(keys)
        self.reset()

    def reset(self) -> None:
        """After a reset of the design: every counter and register 0."""
        self.counters = PerfCounters()
        self.last_on: dict[tuple[str, str], bool] = {}   # which counters counted in the last layer
        self.want: dict[str, list[dict[str, int]]] = {}
        for unit, reg in self.keys:
            for group in self.want.setdefault(unit, [{}, {}]):
                group[reg] = 0

    def ran(self, shadow: RegShadow, units: Iterable[str],
            counts: Mapping[tuple[str, str], int]) -> dict[tuple[str, str], int]:
        """A layer of `units` (a unit and, reading memory, its RDMA) finished: each ran its CONSUMER group
        of the register-file model (tb/reg_shadow.py), which this moves on. Feeds the counters of `keys`
        their `counts` (models/perf.py) and returns their values at the layer's end."""
        groups = {u: shadow[u].consumer for u in units}
        fields = {u: shadow[u].fields(g) for u, g in groups.items()}
        for unit in groups:
            shadow.done(unit, {})
        values = self.counters.layer(fields, {k: n for k, n in counts.items() if k in self.keys})
        self.last_on = {k: counting(BY_KEY[k], fields[k[0]]) for k in values}
        for (unit, reg), value in values.items():
            self.want[unit][groups[unit]][reg] = value
        return values

    async def check(self, top: GroupReader, label: str) -> None:
        """Both register groups of every unit scored hold what the counters say."""
        for unit, want in self.want.items():
            await top.check_group_registers(unit, want, f"{label}: performance counters")
