"""PDP layers on the subsystem top, shared by its tests (tb/tests/test_top_pdp.py: bench top_pdp on
cocotbext-axi's
AxiRam, top_pdp_mem on the simulation memory of tb/hdl/nvdla_pp_top_mem.v) and the CDP/SDP top tests:
the `Top` harness (CSB master, the memory, its model mirror, interrupt waits), random legal layers, and
running one layer and scoring it byte for byte against the model (models/pdp.run_pdp).

`setup` picks the memories from the toplevel: on nvdla_pp_top, a cocotb clock and an AxiRam on m_axi and one
on c_axi (the CV SRAM) whose pauses change every layer (they also check the AXI protocol); on the wrapper,
its Verilog clock and the simulation memories with one seeded random latency/stall timing per test (they
sample it in reset), so the design runs free while a layer computes. Memory index 1 is the CV SRAM: a DMA
side whose RAM_TYPE is CV uses it when the top was built with SEC_MEM=1, memory 0 otherwise (the model
decides the same way: `Top.sec_mem`, `Top.index`).
"""

from __future__ import annotations

import dataclasses
import logging
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

import numpy as np
from cocotb.handle import SimHandleBase
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiBus, AxiRam

from models import configs
from models import registers as regmap
from models.common.cube import run_atom_bytes
from models.common.memory import Memory, memory_index
from models.common.precision import as_signed
from models.errors import ConfigError
from models.pdp.driver import PdpProgram, SplitWidths, Surface, band_inputs, pdp_layer, with_raw_fields
from models.pdp.model import PdpConfig, dst_layout, max_band_width, run_pdp, src_layout
from models.regfile import intr_bit
from tb import pdp_coverage
from tb.batch import Batch
from tb.bench_target import on_wrapper, start_top, wait_status_bit
from tb.bfm.axi_ram import ErrorRam, set_memory_pauses
from tb.bfm.csb import CsbMaster, CsbMonitor
from tb.bfm.sim_memory import MemTiming, SimMemory
from tb.common import bench_params, make_rng, start_clock_and_reset
from tb.pdp_coverage import aimed
from tb.reg_shadow import SIDE_EFFECT_READS, RegShadow


def csb_address(unit: str, reg: str) -> int:
    """A register's byte address on the CSB of the run's configuration ($CONFIG)."""
    return configs.load().csb_address(unit, reg)


ATOM = run_atom_bytes()  # the configuration's memory atom: bases, strides and channel counts follow it
# The units whose register block the top has at the run's configuration (others answer as unmapped addresses).
TOP_UNITS = configs.load().units
PDP_INTR_BIT = intr_bit("PDP", 0)   # GLB S_INTR_STATUS: group 1 is the next bit
SDP_INTR_BIT = intr_bit("SDP", 0)
IDLE, RUNNING, PENDING = 0, 1, 2    # S_STATUS.STATUS_{0,1}
GUARD = 64                          # bytes checked untouched before and after each destination cube
# A layer of the sizes used here takes a few thousand cycles even with heavy AXI stalls; this only bounds
# a hang. Random register programs are bounded by their (small) cube sizes the same way.
DONE_BOUND = 400_000
SRC_REGION, DST_REGION = 0x1000_0000, 0x8000_0000
FEED_REGION = 0xC000_0000           # input of the SDP layers that feed on-the-fly PDP layers


# ---- the DUT with its memory, its model mirror and the CSB master ------------------------------------

class Top:
    def __init__(self, dut: SimHandleBase, rng: random.Random, sim_mem: SimMemory | None = None) -> None:
        self.dut = dut
        self.rng = rng
        self.csb = CsbMaster(dut.clk, dut)
        self.rams: list[AxiRam | SimMemory]
        if sim_mem is not None:
            self.rams = [sim_mem, SimMemory(dut, sim_mem.clk, instance="u_cmem")]
            self.csb_monitor = None
        else:
            self.rams = []
            for prefix in ("m_axi", "c_axi"):
                # an AxiRam that can answer chosen windows with error responses (none unless a test sets them)
                ram = ErrorRam(AxiBus.from_prefix(dut, prefix), dut.clk, dut.rst_n, reset_active_level=False,
                               size=2**32)
                for port in (ram.write_if, ram.read_if):
                    port.log.setLevel(logging.WARNING)    # one INFO line per burst slows the simulation down
                self.rams.append(ram)
            # the CSB protocol checked on every access; not on the simulation-memory wrapper, whose point is
            # that no Python runs per cycle while a layer computes
            self.csb_monitor: CsbMonitor | None = CsbMonitor(dut.clk, dut, reset=dut.rst_n)
        self.ram = self.rams[0]
        # the model's memories, kept equal to the RAMs before each layer runs
        self.mems = [Memory(), Memory()]
        self.mem = self.mems[0]
        self.second_memory = bool(bench_params().get("SEC_MEM", 0))   # the top has c_axi (SEC_MEM=1)
        self.max_w = int(bench_params().get("PDP_MAX_W", 64))
        # the precisions the top's PDP computes: INT16 / FP16 where it was built with it (the configuration
        # has it)
        self.precisions = ("INT8", *(p for p in ("INT16", "FP16") if bench_params().get(p, 0)))
        # the AxiRam's stalls each layer: random shapes (None), about half the cycles on every channel (True),
        # none (False)
        self.stall: bool | None = None
        self.new_pauses()
        self.cov = pdp_coverage.pdp_coverage()
        self.test = ""               # the test's name, for its functional coverage file (setup sets it)
        # every register block as the register-file model sees it (tb/reg_shadow.py), from reset on: exact
        # until a layer runs (the model does not know a layer's statistics), so expect() refuses after that
        self.shadow = RegShadow(TOP_UNITS)
        self.shadow_exact = True

    @property
    def sec_mem(self) -> Memory | None:
        """The model's CV SRAM, as run_pdp / run_cdp / run_sdp take it: None when the top has none."""
        return self.mems[1] if self.second_memory else None

    def index(self, ram_mc: bool) -> int:
        """The memory a DMA side with this RAM type uses on this top."""
        return memory_index(ram_mc, self.second_memory)

    def cover(self, cfg: PdpConfig, group: int) -> None:
        """Count a scored PDP layer in the test's functional coverage (its file is rewritten each time, so
        a test that fails later still leaves what it covered)."""
        pdp_coverage.sample(self.cov, cfg, group)
        self.cov.write(self.test)

    async def write(self, unit: str, reg: str, value: int, nposted: bool = False) -> None:
        await self.csb.write(csb_address(unit, reg), value, nposted=nposted)
        self.shadow.write(unit, reg, value)
        if reg == "D_OP_ENABLE" and value & 1:
            self.shadow_exact = False

    def reset_shadow(self) -> None:
        """The design was reset: the register-file model starts over from its reset state."""
        self.shadow = RegShadow(TOP_UNITS)
        self.shadow_exact = True

    async def expect(self, unit: str, reg: str, what: str = "") -> None:
        """Read `unit`.`reg` and compare it with the register-file model."""
        assert self.shadow_exact, "the register-file model is exact only until a layer runs: reset first"
        self.shadow.expect(unit, reg, await self.read(unit, reg), what)

    async def expect_all(self, what: str = "") -> None:
        """Every register of every unit of the top (the producer group's D_ registers) against the model."""
        for unit in TOP_UNITS:
            for reg in self.shadow.readable(unit):
                await self.expect(unit, reg, what)

    async def read(self, unit: str, reg: str) -> int:
        return await self.csb.read(csb_address(unit, reg))

    async def issue(self, writes: tuple[tuple[str, str, int], ...] | list[tuple[str, str, int]]) -> None:
        # D_OP_ENABLE is non-posted, as NVIDIA's traces write it: the start is acknowledged.
        for unit, reg, value in writes:
            await self.write(unit, reg, value, nposted=reg == "D_OP_ENABLE")

    def fill(self, lo: int, hi: int, mem: int = 0) -> None:
        """Random bytes in [lo, hi) of both the RAM and the model's memory (index `mem`)."""
        data = self.rng.randbytes(hi - lo)
        self.rams[mem].write(lo, data)
        self.mems[mem].write(lo, np.frombuffer(data, dtype=np.uint8))

    async def group_registers(self, unit: str, group: int, regs: Iterable[str]) -> dict[str, int]:
        """Registers of one register group of `unit` (selected with S_POINTER.PRODUCER)."""
        await self.write(unit, "S_POINTER", group)
        return {reg: await self.read(unit, reg) for reg in regs}

    async def check_group_registers(self, unit: str, want: Sequence[Mapping[str, int]], label: str) -> None:
        """Each register group of `unit` holds what the model says (want[group]: register -> value)."""
        for group, regs in enumerate(want):
            got = await self.group_registers(unit, group, regs)
            bad = {reg: (got[reg], value) for reg, value in regs.items() if got[reg] != value}
            assert not bad, f"{label}: {unit} group {group} registers (read, model): {bad}"

    def check_region(self, lo: int, hi: int, label: str, where: Callable[[int], str], *, signed: bool = False,
                     detail: str = "", mem: int = 0) -> None:
        """RAM `mem`'s [lo, hi) equals the model's memory; else fail naming the first wrong byte (`where`:
        what that byte is), its values as int8 (`signed`) or hex bytes, then `detail`. The same region of
        the other memory must equal the model's too (a request routed to the wrong memory shows there)."""
        for m in (mem, 1 - mem):
            self._check_one(lo, hi, f"{label} (memory {m})", where, signed, detail, m)

    def _check_one(self, lo: int, hi: int, label: str, where: Callable[[int], str], signed: bool, detail: str,
                   mem: int) -> None:
        actual = np.frombuffer(self.rams[mem].read(lo, hi - lo), dtype=np.uint8)
        expected = self.mems[mem].read(lo, hi - lo)
        bad = np.flatnonzero(actual != expected)
        if not bad.size:
            return
        addr = lo + int(bad[0])
        e, a = (int(x[bad[0]]) for x in (expected, actual))
        values = f"expected {int(as_signed(e, 8))}, actual {int(as_signed(a, 8))}" if signed else \
            f"expected {e:#04x}, actual {a:#04x}"
        raise AssertionError(f"{label}: {bad.size} wrong bytes in [{lo:#x}, {hi:#x}); first at {addr:#x}, "
                             f"{where(addr)}: {values}{detail}")

    async def wait_done(self, group: int, bound: int = DONE_BOUND) -> tuple[int, int] | None:
        """Wait for PDP's done interrupt of `group`, clear it (W1C); (cycles waited, status seen) or None."""
        return await self.wait_intr(1 << (PDP_INTR_BIT + group), bound)

    async def wait_intr(self, bit: int, bound: int = DONE_BOUND) -> tuple[int, int] | None:
        """Wait for an S_INTR_STATUS bit, clear it (W1C); (cycles waited, status seen) or None."""
        return await wait_status_bit(self.dut, self.csb, bit, bound)

    def new_pauses(self) -> None:
        """New random AXI pauses for the next layer on the AxiRam; the simulation memory keeps the timing
        it sampled in reset (one seeded draw per test, logged by start_top)."""
        for ram in self.rams:
            if isinstance(ram, AxiRam):
                set_memory_pauses(ram, self.rng, self.stall)

    async def status(self, unit: str) -> tuple[int, int]:
        value = await self.read(unit, "S_STATUS")
        return value & 3, (value >> 16) & 3

    async def pointer(self, unit: str) -> tuple[int, int]:
        """(PRODUCER, CONSUMER) of S_POINTER."""
        value = await self.read(unit, "S_POINTER")
        return value & 1, (value >> 16) & 1

    async def snapshot(self) -> dict[int, int]:
        """Every register of the top's units (D_ registers of the current producer group)."""
        return {csb_address(u, r): await self.read(u, r) for u in TOP_UNITS for r in regmap.registers(u)
                if r not in SIDE_EFFECT_READS}


TopT = TypeVar("TopT", bound=Top)


async def start(dut: SimHandleBase, salt: str, cls: type[TopT]) -> TopT:
    """Clock, reset and a `cls` top (Top or a subclass): on the wrapper (tb/hdl/nvdla_pp_top_mem.v) with its
    simulation memory at a seeded random timing, else on nvdla_pp_top with an AxiRam."""
    rng = make_rng(salt)
    if on_wrapper(dut):
        top = cls(dut, rng, await start_top(dut, MemTiming.random(rng)))
    else:
        await start_clock_and_reset(dut.clk, dut.rst_n, idle=[dut.csb_req_valid])
        top = cls(dut, rng)
        # Reset again now that the AxiRam drives its outputs: on a 4-state simulator (Icarus) the DMA
        # counters would otherwise clock in the X of the undriven AXI inputs between reset and the AxiRam.
        dut.rst_n.value = 0
        await ClockCycles(dut.clk, 3)
        dut.rst_n.value = 1
        await ClockCycles(dut.clk, 2)
    top.test = salt
    return top


async def setup(dut: SimHandleBase, salt: str) -> Top:
    return await start(dut, salt, Top)


# ---- layers: extents, running, scoring ----------------------------------------------------------------

def dst_span(cfg: PdpConfig) -> tuple[int, int]:
    lo, hi = dst_layout(cfg).extent()
    return lo - GUARD, hi + GUARD


def src_span(cfg: PdpConfig) -> tuple[int, int]:
    return src_layout(cfg).extent()


def locate(cfg: PdpConfig, addr: int) -> str:
    """Name an output byte: (surface, line, column, lane) of the output cube, or a gap/guard byte."""
    for s in range(cfg.surfaces):
        for h in range(cfg.out_height):
            start = cfg.dst_base + s * cfg.dst_surface_stride + h * cfg.dst_line_stride
            if start <= addr < start + cfg.out_width * ATOM:
                col, byte = divmod(addr - start, ATOM)
                lane = byte // cfg.widths.elem_bytes   # INT16: two bytes a lane, half as many lanes
                return (f"surface {s}, line {h}, column {col}, lane {lane} (channel {s * cfg.lanes + lane}, "
                        f"byte {byte})")
    return "a gap or guard byte outside the output cube (must stay untouched)"


def describe(desc: Mapping[str, object], prog: PdpProgram) -> str:
    bands = [(b.in_start, b.in_width, b.out_start, b.out_width) for b in prog.config.bands()]
    return (f"layer {dict(desc)}; group {prog.group}; bands (in_start, in_width, out_start, out_width) "
            f"{bands}")


def compare(top: Top, cfg: PdpConfig, label: str) -> None:
    top.check_region(*dst_span(cfg), label, lambda addr: locate(cfg, addr), mem=top.index(cfg.dst_ram_mc))


def prepare(top: Top, prog: PdpProgram) -> None:
    """Random input and random destination background (gaps and guards) in the RAMs and the model, each in
    the memory its RAM type names (the destination's background in both, so a misrouted write shows)."""
    cfg = prog.config
    top.fill(*src_span(cfg), mem=top.index(cfg.src_ram_mc))
    top.fill(*dst_span(cfg), mem=0)
    top.fill(*dst_span(cfg), mem=1)


async def run_layer(top: Top, prog: PdpProgram, label: str, fresh: bool = True) -> int:
    """Program, start, wait for the interrupt, score against the model; returns the cycles waited.
    fresh=False keeps the memory as it is (the RAM and its mirror must already hold the input)."""
    if fresh:
        prepare(top, prog)
    top.new_pauses()
    await top.issue(prog.writes)
    done = await top.wait_done(prog.group)
    assert done is not None, f"{label}: no PDP_{prog.group} interrupt within {DONE_BOUND} cycles"
    run_pdp(prog.config, top.mem, sec_mem=top.sec_mem)
    compare(top, prog.config, label)
    top.cover(prog.config, prog.group)
    return done[0]


# ---- random legal layers --------------------------------------------------------------------------------

def placement(rng: random.Random, region: int, width: int, height: int) -> Surface:
    """Random atom-aligned base in a 2^17-atom window, line/surface strides packed or with random gaps."""
    line = width * ATOM + ATOM * rng.choice([0, 0, 1, rng.randint(2, 16)])
    surf = line * height + ATOM * rng.choice([0, 0, 1, rng.randint(2, 64)])
    return Surface(region + ATOM * rng.randrange(1 << 17), line, surf)


def random_description(rng: random.Random, max_w: int, aim: Sequence[str] = (),
                       precisions: Sequence[str] = ("INT8",)) -> tuple[dict[str, object], int, int]:
    """Kernel, stride, pads and an output size first; the input size that makes them legal follows.
    `aim`: functional coverage bins still missing, which kernel sizes, strides and method mostly take.
    `precisions`: those the top's PDP computes; with INT16 a third of the layers are INT16, with FP16 a third
    FP16 (random bytes in memory: every FP16 pattern, NaNs and infinities included); an INT8-only top draws
    exactly the layers it drew before INT16 existed."""
    while True:
        roll = rng.random()
        precision = ("INT16" if "INT16" in precisions and roll < 1 / 3
                     else "FP16" if "FP16" in precisions and roll >= 2 / 3 else "INT8")
        lanes = ATOM if precision == "INT8" else ATOM // 2   # channels per atom
        pad_lo, pad_hi = (-128, 127) if precision == "INT8" else (-32768, 32767)
        kw, kh = aimed(rng, aim, "kernel width", 1, 8), aimed(rng, aim, "kernel height", 1, 8)
        sw = aimed(rng, aim, "stride x", 1, 8) if rng.random() < 0.9 else rng.randint(9, 16)
        sh = aimed(rng, aim, "stride y", 1, 8) if rng.random() < 0.9 else rng.randint(9, 16)
        methods = [m for m in ("average", "max", "min") if m in aim] or ["average", "max", "min"]
        pads = (rng.randrange(kw), rng.randrange(kw), rng.randrange(kh), rng.randrange(kh))
        wide = rng.random() < 0.1     # wider than the line buffer: split-width mode is required
        band_w = band_limit(max_w, kh, sh)
        out_w = rng.randint(band_w + 1, band_w + 24) if wide else rng.randint(1, 12)
        out_h = rng.randint(1, 3 if wide else 6)
        width = (out_w - 1) * sw + kw - pads[0] - pads[1]
        # The height rule floors (H+PT+PB-kernel_h)/stride_y: sometimes leave rows no window reaches.
        height = (out_h - 1) * sh + kh - pads[2] - pads[3] + (rng.randrange(sh) if rng.random() < 0.2 else 0)
        if width >= 1 and height >= 1:
            # channels count in atoms (INT8: one lane per byte, INT16: per two): up to one surface when
            # wide, else three
            channels = rng.randint(1, lanes if wide else 3 * lanes)
            desc = {"width": width, "height": height, "channels": channels,
                    "method": rng.choice(methods), "kernel": (kw, kh), "stride": (sw, sh),
                    "pads": pads, "pad_value": rng.randint(pad_lo, pad_hi)}
            if precision != "INT8":
                desc["precision"] = precision
            return desc, out_w, out_h


def band_limit(max_w: int, kernel_h: int, stride_h: int) -> int:
    """The widest band a layer may have: the RTL core's line buffer (max_w words, its MAX_W, one group of
    banks per output row in flight: max_w / 1, 2, 4 or 8 columns, rtl/pdp/nvdla_pdp_vacc.v) or NVDLA's
    flying width for the kernel height and vertical stride (128/64/32/16 columns), whichever is narrower
    (the same at MAX_W = 128, every configuration's PDP_MAX_W)."""
    return min(max_w // configs.pdp_row_groups(kernel_h, stride_h), max_band_width(kernel_h, stride_h))


def random_rams(rng: random.Random, sides: Iterable[str]) -> dict[str, bool]:
    """A memory per DMA side (RAM_TYPE MC: True, CV: False), each drawn over both values."""
    return {side: rng.random() < 0.5 for side in sides}


def with_ram(surface: Surface, ram_mc: Mapping[str, bool] | None, side: str) -> Surface:
    """The surface in the memory `ram_mc` names for `side` (unchanged, MC, when it names none)."""
    if ram_mc is None or side not in ram_mc:
        return surface
    return dataclasses.replace(surface, ram_mc=ram_mc[side])


PAD_FIELD_BITS, RECIP_BITS = 19, 17


def raw_pad_fields(rng: random.Random, elem_bits: int) -> dict[str, int]:
    """PAD_VALUE_{1..7}X over the whole 19-bit field (uniform, near a power of two of either sign, or a
    driver's n x element), and in a third of the draws RECIP_KERNEL_{WIDTH,HEIGHT} over their 17 bits: the
    register values no driver writes, which the hardware computes with at fixed widths
    (models/pdp/model.py)."""
    def pad(n: int) -> int:
        pick = rng.random()
        if pick < 0.4:
            value = rng.randrange(1 << PAD_FIELD_BITS)
        elif pick < 0.7:
            edge = 1 << rng.randint(elem_bits - 2, PAD_FIELD_BITS - 1)
            value = (edge + rng.randint(-3, 3)) * rng.choice((1, -1))
        else:
            value = n * rng.randint(-(1 << (elem_bits - 1)), (1 << (elem_bits - 1)) - 1)
        return value & ((1 << PAD_FIELD_BITS) - 1)

    fields = {f"D_POOLING_PADDING_VALUE_{n}_CFG.PAD_VALUE_{n}X": pad(n) for n in range(1, 8)}
    if rng.random() < 1 / 3:
        fields["D_RECIP_KERNEL_WIDTH.RECIP_KERNEL_WIDTH"] = rng.randrange(1 << RECIP_BITS)
        fields["D_RECIP_KERNEL_HEIGHT.RECIP_KERNEL_HEIGHT"] = rng.randrange(1 << RECIP_BITS)
    return fields


def random_bands(rng: random.Random, desc: Mapping[str, object], out_w: int,
                 max_w: int) -> SplitWidths | None:
    """Split-width bands drawn on their own (not a driver's cut): 2 to 5 bands, first, mid and last output
    widths each anywhere from 1 to the line buffer's `max_w`, the input widths the split rules give; the
    driver may still refuse them (P10: a first or mid band narrower than the kernel overlap). None when no
    draw adds up to `out_w`."""
    kw, sw = desc["kernel"][0], desc["stride"][0]  # type: ignore[index]
    pads = desc["pads"]
    for _ in range(20):
        bands = rng.randint(2, min(out_w, 5))
        mid = rng.randint(1, min(max_w, out_w)) if bands > 2 else 0
        rest = out_w - mid * (bands - 2)
        if rest < 2 or rest > 2 * max_w:
            continue
        first = rng.randint(max(1, rest - max_w), min(max_w, rest - 1))
        ins = band_inputs((first, mid, rest - first), bands, kw, sw, pads[0], pads[1])  # type: ignore[index]
        return SplitWidths(bands, ins[0], ins[1], ins[2], first, mid, rest - first)
    return None


def random_program(rng: random.Random, max_w: int, group: int, aim: Sequence[str] = (),
                   ram_mc: Mapping[str, bool] | None = None,
                   precisions: Sequence[str] = ("INT8",)) -> tuple[dict[str, object], PdpProgram]:
    """A random legal layer through the driver (split width when too wide, sometimes when not).
    ram_mc: the memory of the "src" and "dst" sides (RAM_TYPE MC True, CV False); MC when not named.
    precisions: those the layer may have (random_description). A third of the average-pooling layers then
    get raw pad values (and some raw reciprocals) over their whole fields (raw_pad_fields; desc "raw")."""
    while True:
        desc, out_w, out_h = random_description(rng, max_w, aim, precisions)
        band_w = band_limit(max_w, desc["kernel"][1], desc["stride"][1])  # type: ignore[index]
        src = placement(rng, SRC_REGION, int(desc["width"]), int(desc["height"]))  # type: ignore[call-overload]
        dst = placement(rng, DST_REGION, out_w, out_h)
        desc["src"], desc["dst"] = with_ram(src, ram_mc, "src"), with_ram(dst, ram_mc, "dst")
        drawn = None
        if out_w >= 2 and rng.random() < (0.5 if out_w > band_w else 0.1):
            drawn = random_bands(rng, desc, out_w, band_w)   # bands of any widths, not a driver's cut
        if drawn is not None:
            desc["split"] = drawn
        elif out_w > band_w:
            desc["split"] = rng.randint(max(1, band_w // 2), band_w)
        elif out_w >= 2 and rng.random() < 0.3:
            desc["split"] = rng.randint(1, out_w - 1)
        try:
            prog = pdp_layer(**desc, group=group, max_out_width=band_w)  # type: ignore[arg-type]
        except ConfigError as err:
            # only a split rule may refuse the layer: the planner finding no bands, or drawn bands breaking
            # one (P10: a first or mid band narrower than the kernel overlap)
            assert drawn is not None or "no split-width bands" in err.rule, \
                f"generated layer rejected: {err} ({desc})"
            continue
        if desc["method"] == "average" and rng.random() < 1 / 3:
            raw = raw_pad_fields(rng, 8 * prog.config.widths.elem_bytes)
            desc["raw"] = {k.split(".")[1]: hex(v) for k, v in raw.items()}
            prog = with_raw_fields(prog, raw)
        return desc, prog


def fixed_program(rng: random.Random, group: int, width: int, height: int, channels: int,
                  kernel: int, src_region: int, dst_region: int) -> PdpProgram:
    """A square-kernel layer with stride = kernel and no padding (so every size is legal)."""
    out_w, out_h = width // kernel, height // kernel
    return pdp_layer(width, height, channels, method=rng.choice(["average", "max", "min"]),
                     kernel=(kernel, kernel), stride=(kernel, kernel), pad_value=rng.randint(-128, 127),
                     src=Surface(src_region, width * ATOM, width * height * ATOM),
                     dst=Surface(dst_region, out_w * ATOM, out_w * out_h * ATOM), group=group)


async def random_layers(dut: SimHandleBase, count: int) -> None:
    """`count` random legal layers, each scored against the model; a failing layer stays local (Batch)."""
    top = await setup(dut, "random_layers")
    batch = Batch(dut)
    for i in range(count):
        # Both units are enabled every layer, so their CONSUMER pointers alternate 0, 1, 0, ...
        desc, prog = random_program(top.rng, top.max_w, group=batch.group, aim=top.cov.missing(),
                                    ram_mc=random_rams(top.rng, ("src", "dst")), precisions=top.precisions)
        label = f"layer {i}: {describe(desc, prog)}"
        cycles = await batch.run(label, run_layer(top, prog, label))
        if cycles is not None:
            dut._log.info("layer %d ok in %d cycles: %s", i, cycles, describe(desc, prog))
    batch.finish()
