"""The hybrid LUT's bench library (tb/tests/test_lut.py, tb/tests/test_lut_fp16.py): the driver of nvdla_lut's
configuration, table port and statistics inputs, the scoring of every lane (output and debug word) and of the
five counters against models/lut/model.py, and integer samples aimed at a configuration's boundaries."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import cocotb
import numpy as np
from cocotb.handle import SimHandleBase
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from models import registers as regs
from models.lut.model import EXPONENT, HIT, LINEAR, OFLOW, UFLOW, LutConfig, LutResult, lut_lookup
from tb.bfm.stream import StreamBus, StreamMonitor, StreamSink, StreamSource, never_pause, pick_pause
from tb.common import start_clock_and_reset
from tb.lanes import pack, unpack
from tb.lut_port import wait_tables_cleared
from tb.stimulus.lut import Shape

DBG_W = 12
STATE_NAME = {HIT: "hit", UFLOW: "uflow", OFLOW: "oflow"}

LUT_CFG = "LUT_CFG"  # nvdla_lut's configuration sub-bundle (regmap "sub_bundles")


def _config_name(member: str) -> str:
    """LutConfig's attribute for a LUT_CFG member: LE_SLOPE_UFLOW_SCALE -> le_uflow_scale."""
    return member.lower().replace("slope_", "")


# ------------------------------------------------------------------------------------------ DUT driver
class LutDriver:
    """Drives the configuration inputs, the access port and the statistics inputs of nvdla_lut."""

    def __init__(self, dut: SimHandleBase, shape: Shape) -> None:
        self.dut, self.shape = dut, shape
        self.clk = dut.clk

    async def reset(self) -> None:
        d = self.dut
        idle = [d.in_valid, d.out_ready, d.acc_we, d.cnt_clr]
        await start_clock_and_reset(d.clk, d.rst_n, idle=idle)
        # one BFM per stream for the whole test; the monitor checks the DUT's output protocol throughout
        out = StreamBus(d, "out", sideband=["dbg"])
        self.source = StreamSource(StreamBus(d, "in"), d.clk)
        self.sink = StreamSink(out, d.clk)
        self.out_monitor = StreamMonitor(out, d.clk, reset=d.rst_n, record=False)
        d.cnt_en.value = 1
        d.int16.value = 0
        d.fp16.value = 0
        d.cnt_half.value = 0
        d.acc_table.value = 0
        d.acc_addr.value = 0
        d.acc_next.value = 0
        d.acc_wdata.value = 0
        # the tables are cleared after reset; the access port waits for it (the register block's CSB is
        # held off so at the top level)
        await wait_tables_cleared(d.clk, d.busy)

    def apply(self, cfg: LutConfig) -> None:
        """Drive lut_cfg with cfg's raw encodings, packed as the unit's cfg assembles it (the LUT_CFG
        sub-bundle at the unit's START/END width, models/registers.py BUNDLES[unit]["LUT_CFG"])."""
        unit = self.shape.unit
        layout = regs.BUNDLES[unit][LUT_CFG]
        bound_w = layout["LE_START"][0] - layout["LE_START"][1] + 1
        if bound_w != self.shape.cfg_w:
            raise ValueError(f"{unit}'s LUT_CFG has {bound_w}-bit START/END, the bench's CFG_W is "
                             f"{self.shape.cfg_w}")
        # LutConfig holds signed values: keep each member's two's-complement bits
        values = {m: getattr(cfg, _config_name(m)) & ((1 << (msb - lsb + 1)) - 1)
                  for m, (msb, lsb) in layout.items()}
        self.dut.lut_cfg.value = regs.pack_bundle(unit, LUT_CFG, values)

    async def _strobe(self, signal: SimHandleBase) -> None:
        signal.value = 1
        await RisingEdge(self.clk)
        signal.value = 0

    async def write_entry(self, table: int, addr: int, value: int) -> None:
        d = self.dut
        d.acc_table.value, d.acc_addr.value, d.acc_wdata.value = table, addr, value & 0xFFFF
        await self._strobe(d.acc_we)

    async def read_entry(self, table: int, addr: int) -> int:
        """The read data at [table][addr] in the cycle the pointer holds addr."""
        d = self.dut
        # as the register block does: the pointer's next value the cycle before (the RAM registers it)
        d.acc_next.value = addr
        await RisingEdge(self.clk)
        d.acc_table.value, d.acc_addr.value = table, addr
        await ReadOnly()
        value = int(d.acc_rdata.value)
        await FallingEdge(self.clk)
        return value

    async def load_tables(self, le: Iterable[int], lo: Iterable[int]) -> None:
        for table, values in ((0, le), (1, lo)):
            for addr, v in enumerate(values):
                await self.write_entry(table, addr, int(v))

    async def clear_counters(self) -> None:
        await self._strobe(self.dut.cnt_clr)

    async def counters(self) -> dict[str, int]:
        await ReadOnly()
        d = self.dut
        got = {"le_hit": int(d.cnt_le_hit.value), "lo_hit": int(d.cnt_lo_hit.value),
               "uflow": int(d.cnt_uflow.value), "oflow": int(d.cnt_oflow.value),
               "hybrid": int(d.cnt_hybrid.value)}
        await FallingEdge(self.clk)
        return got


def describe(cfg: LutConfig) -> str:
    mode = "EXP" if cfg.le_function == EXPONENT else "LIN"
    return (f"{cfg.unit} LE {mode} start={cfg.le_start} end={cfg.le_end} sel={cfg.le_index_select} "
            f"off={cfg.le_index_offset} | LO start={cfg.lo_start} end={cfg.lo_end} "
            f"sel={cfg.lo_index_select} | "
            f"pri u/o/h={cfg.uflow_priority}/{cfg.oflow_priority}/{cfg.hybrid_priority} | slopes LE "
            f"u={cfg.le_uflow_scale}>>{cfg.le_uflow_shift} o={cfg.le_oflow_scale}>>{cfg.le_oflow_shift} LO "
            f"u={cfg.lo_uflow_scale}>>{cfg.lo_uflow_shift} o={cfg.lo_oflow_scale}>>{cfg.lo_oflow_shift}")


def score(shape: Shape, cfg: LutConfig, samples: Sequence[int], got: Sequence[tuple[int, ...]]) -> LutResult:
    """Compare every lane of every beat with the model; raise with the details of the first mismatch."""
    res = lut_lookup(np.array(samples, dtype=np.int64), cfg, shape.lane_kinds(len(samples)))
    values = [v for word, _ in got for v in unpack(word, shape.out_w, shape.lanes)]
    dbgs = [v for _, dbg in got for v in unpack(dbg, DBG_W, shape.lanes, signed=False)]
    for i, x in enumerate(samples):
        exp_table, exp_index = int(res.table[i]), int(res.index[i])
        exp_u, exp_o = bool(res.uflow[i]), bool(res.oflow[i])
        dbg = dbgs[i]
        got_table, got_u, got_o, got_index = dbg >> 11, (dbg >> 10) & 1, (dbg >> 9) & 1, dbg & 0x1FF
        if values[i] != int(res.output[i]) or (got_table, got_u, got_o, got_index) != (
                exp_table, exp_u, exp_o, exp_index):
            raise AssertionError(
                f"sample {i} (beat {i // shape.lanes}, lane {i % shape.lanes}) x={x}: "
                f"expected {int(res.output[i])} "
                f"(table {'LO' if exp_table else 'LE'}, index {exp_index}, fraction {int(res.fraction[i])}, "
                f"uflow {exp_u}, oflow {exp_o}; LE {STATE_NAME[int(res.le_state[i])]}, "
                f"LO {STATE_NAME[int(res.lo_state[i])]}), "
                f"got {values[i]} (table {'LO' if got_table else 'LE'}, "
                f"index {got_index}, uflow {bool(got_u)}, oflow {bool(got_o)})\n  config: {describe(cfg)}")
    return res


async def stream(drv: LutDriver, cfg: LutConfig, samples: list[int], rng: random.Random,
                 backpressure: bool = True, cnt_en: bool = True) -> LutResult:
    """Stream samples (padded to whole beats) through the DUT under cfg; score outputs and counters."""
    shape, dut = drv.shape, drv.dut
    samples = samples + [samples[-1]] * (-len(samples) % shape.lanes)
    drv.apply(cfg)
    dut.cnt_en.value = int(cnt_en)
    await drv.clear_counters()
    beats = [pack(samples[i:i + shape.lanes], shape.in_w) for i in range(0, len(samples), shape.lanes)]
    drv.source.set_pause_generator(pick_pause(rng) if backpressure else never_pause())
    drv.sink.set_pause_generator(pick_pause(rng) if backpressure else never_pause())
    send = cocotb.start_soon(drv.source.send(beats))
    got = await drv.sink.recv(len(beats))
    await send
    res = score(shape, cfg, samples, got)
    counts = await drv.counters()
    want = res.counts if cnt_en else dict.fromkeys(res.counts, 0)
    if counts != want:
        raise AssertionError(f"statistics: RTL {counts}, model {want} ({len(samples)} samples)\n"
                             f"  config: {describe(cfg)}")
    return res


def anchors(cfg: LutConfig) -> list[int]:
    """Input values where the behaviour changes: table bounds, entry boundaries, exponent steps."""
    pts = [cfg.le_start, cfg.le_end, cfg.lo_start, cfg.lo_end]
    lo_step = 1 << max(cfg.lo_index_select, 0)
    pts += [cfg.lo_start + k * lo_step for k in (1, 2, 128, 255, 256, 257)]
    if cfg.le_function == LINEAR:
        le_step = 1 << max(cfg.le_index_select, 0)
        pts += [cfg.le_start + k * le_step for k in (1, 2, 32, 63, 64, 65)]
    else:
        off = cfg.le_index_offset
        pts += [cfg.le_start + (1 << p) for p in range(max(off, 0), min(off + 66, 62))]
    return pts


def samples_for(cfg: LutConfig, shape: Shape, rng: random.Random, n: int) -> list[int]:
    pts = anchors(cfg)
    span = max(cfg.lo_end - cfg.lo_start, 64)
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.35:
            v = rng.choice(pts) + rng.randint(-3, 3)
        elif r < 0.75:
            v = rng.choice(pts) + rng.randint(-2 * span, 2 * span)
        elif r < 0.9:
            v = rng.randint(shape.x_min, shape.x_max)
        else:
            v = rng.choice([shape.x_min, shape.x_min + 1, -1, 0, 1, shape.x_max - 1, shape.x_max])
        out.append(max(shape.x_min, min(shape.x_max, v)))
    return out


