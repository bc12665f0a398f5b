"""The PDP top-level environment, shared by its tests (tb/tests/test_top_pdp.py: bench top_pdp on
cocotbext-axi's AxiRam, top_pdp_mem on the simulation memory of tb/hdl/nvdla_pp_top_mem.v) and the CDP/SDP
top tests: the start-up on the common `Top` (tb/env/top.py), random legal layers, and running one layer and
scoring it byte for byte against the model (models/pdp/model.py run_pdp).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence

from cocotb.handle import SimHandleBase

from models import configs
from models.errors import ConfigError
from models.pdp.driver import PdpProgram, SplitWidths, Surface, band_inputs, pdp_layer, with_raw_fields
from models.pdp.model import PdpConfig, dst_layout, max_band_width, run_pdp, src_layout
from models.regfile import intr_bit
from tb.batch import Batch
from tb.env.top import ATOM, DONE_BOUND, GUARD, Top, start
from tb.pdp_coverage import aimed

SDP_INTR_BIT = intr_bit("SDP", 0)
SRC_REGION, DST_REGION = 0x1000_0000, 0x8000_0000
FEED_REGION = 0xC000_0000           # input of the SDP layers that feed on-the-fly PDP layers


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
