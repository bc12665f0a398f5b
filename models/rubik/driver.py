"""Rubik driver: a contract, split or merge layer -> RUBIK register writes, refusing what NVDLA forbids; and
seed 001's deconvolution (`deconv_layer`: stride_x*stride_y convolution layers of the split, reversed kernels
through models/conv/driver.py, then one contract; rules DV1..DV3, docs/rubik.md "Deconvolution").

Seed 001, "Rubik programming" (the registers each mode needs and the contract formulas) and Limitation /
Rubik. Each rule broken raises ConfigError("Rubik RBn: ...") naming it (docs/limitations.md, Rubik section):
- RB1 the register fields: mode, precision (INT8, INT16, FP16: it only sets the bytes per element), sizes
  1..8192, deconvolution strides 1..32 (5-bit fields), RAM types MC or CV;
- RB2 "For contract mode, the address/line_stride for both input/output should be 32bytes aligned" (and the
  surface strides, contract strides: every register is [31:5]);
- RB3 "For split/merge mode, the address/line_stride should be 64bytes aligned for planar data (output of
  split mode, input of merge mode)", the planar stride too; the feature-cube side 32 bytes as RB2;
- RB4 "deconv_x_stride * datain_width should be <=8192" (NVIDIA's RTL: a contract line write is 13 bits of
  atoms, seq_gen contract_wr_size);
- RB5 the contract table: DATAOUT_CHANNEL = (DATAIN_CHANNEL+1)/((DECONV_X_STRIDE+1)*(DECONV_Y_STRIDE+1))-1
  (the input channels a whole number of output channel sets), CONTRACT_STRIDE_0 at least the input surfaces
  of one output channel set (seed: ceil(Cout*BPE/32) * DAIN_SURF_STRIDE, the driver's default),
  CONTRACT_STRIDE_1 = (DECONV_Y_STRIDE+1) * DAOUT_LINE_STRIDE;
- RB6 split: "DATAOUT_CHANNEL ... equals output planar number" (= DATAIN_CHANNEL); merge: the same (the RTL
  counts the read side's surfaces from DATAIN_CHANNEL and the write side's from DATAOUT_CHANNEL);
- RB7 strides that hold what they step over (Limitation / Data Format: a line stride at least a line, a
  surface stride at least its lines, a planar stride at least a plane's lines), the cubes inside the 32-bit
  address space (this subsystem's AXI), and the output overlapping no input (the unit reads ahead of its
  writes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models import configs, registers
from models.common.driver import ADDRESS_SPACE, Surface, check_fits
from models.conv.cdma import pack_weights, weight_image_bytes
from models.conv.driver import WEIGHT_BYTES_ALIGN, ConvLayer, ConvProgram, SdpStage, conv_layer
from models.errors import ConfigError
from models.rubik.model import ATOM, MAX_CONTRACT_LINE_ATOMS, UNIT
from models.steps import MemWrite, RegWrite, Step, WaitInterrupt

MODES = {"CONTRACT": 0, "SPLIT": 1, "MERGE": 2}
PRECISIONS = {"INT8": 0, "INT16": 1, "FP16": 2}
MAX_SIZE = 1 << 13
MAX_DECONV_STRIDE = 32
PLANAR_ALIGN = 64
# the order of seed 001's programming steps (mode, input, output, strides), op_en last
WRITE_ORDER = ("D_MISC_CFG", "D_DAIN_RAM_TYPE", "D_DATAIN_SIZE_0", "D_DATAIN_SIZE_1", "D_DAIN_ADDR_HIGH",
               "D_DAIN_ADDR_LOW", "D_DAIN_LINE_STRIDE", "D_DAIN_SURF_STRIDE", "D_DAIN_PLANAR_STRIDE",
               "D_DAOUT_RAM_TYPE", "D_DATAOUT_SIZE_1", "D_DAOUT_ADDR_HIGH", "D_DAOUT_ADDR_LOW",
               "D_DAOUT_LINE_STRIDE", "D_CONTRACT_STRIDE_0", "D_CONTRACT_STRIDE_1", "D_DAOUT_SURF_STRIDE",
               "D_DAOUT_PLANAR_STRIDE", "D_DECONV_STRIDE", "D_PERF_ENABLE")


@dataclass(frozen=True)
class Side:
    """One side of a layer in bytes: base, line stride, surface stride (feature cube) or planar stride
    (planes), and the memory (MC: the primary memory; CV: the CV SRAM)."""

    base: int
    line: int
    surf: int = 0
    planar: int = 0
    ram_mc: bool = True


@dataclass(frozen=True)
class RubikLayer:
    """A layer as software describes it. width/height/channels are the input cube's (contract: the
    convolution output holding x_stride*y_stride channel sets of out_channels each); contract_stride0/1
    default to seed 001's formulas."""

    mode: str
    precision: str
    width: int
    height: int
    channels: int
    src: Side
    dst: Side
    x_stride: int = 1
    y_stride: int = 1
    contract_stride0: int | None = None
    contract_stride1: int | None = None
    perf: bool = False

    @property
    def bpe(self) -> int:
        return 1 if self.precision == "INT8" else 2

    @property
    def epa(self) -> int:
        return ATOM // self.bpe

    @property
    def out_channels(self) -> int:
        return self.channels // (self.x_stride * self.y_stride) if self.mode == "CONTRACT" else self.channels

    def strides(self) -> tuple[int, int]:
        """(CONTRACT_STRIDE_0, CONTRACT_STRIDE_1) in bytes."""
        cs0 = self.contract_stride0
        if cs0 is None:
            cs0 = -(-self.out_channels * self.bpe // ATOM) * self.src.surf
        cs1 = self.y_stride * self.dst.line if self.contract_stride1 is None else self.contract_stride1
        return cs0, cs1

    def src_span(self) -> tuple[int, int]:
        """[first byte, end) of what the layer reads."""
        s = self.src
        if self.mode == "MERGE":
            end = s.base + (self.channels - 1) * s.planar + (self.height - 1) * s.line + _plane_line(self)
            return s.base, end
        surfs = -(-self.out_channels // self.epa)
        end = s.base + (surfs - 1) * s.surf + (self.height - 1) * s.line + self.width * ATOM
        if self.mode == "CONTRACT":
            end += (self.x_stride * self.y_stride - 1) * self.strides()[0]
        return s.base, end

    def dst_span(self) -> tuple[int, int]:
        d = self.dst
        surfs = -(-self.out_channels // self.epa)
        if self.mode == "SPLIT":
            end = d.base + (self.channels - 1) * d.planar + (self.height - 1) * d.line + _plane_line(self)
            return d.base, end
        lines = self.height * (self.y_stride if self.mode == "CONTRACT" else 1)
        width = self.width * (self.x_stride if self.mode == "CONTRACT" else 1)
        return d.base, d.base + (surfs - 1) * d.surf + (lines - 1) * d.line + width * ATOM


def _plane_line(layer: RubikLayer) -> int:
    """Bytes of one plane line as the unit writes (split) or reads (merge) it: whole atoms."""
    return -(-layer.width * layer.bpe // ATOM) * ATOM


def _rule(rule: str, values: dict[str, int | str]) -> ConfigError:
    return ConfigError(f"Rubik {rule}", values)


def check_layer(layer: RubikLayer) -> None:
    """Every rule of the module docstring (ConfigError naming the first one broken)."""
    if layer.mode not in MODES or layer.precision not in PRECISIONS:
        raise _rule("RB1: RUBIK_MODE is CONTRACT, SPLIT or MERGE; IN_PRECISION INT8, INT16 or FP16",
                    {"mode": layer.mode, "precision": layer.precision})
    sizes = {"width": layer.width, "height": layer.height, "channels": layer.channels}
    if any(not 1 <= v <= MAX_SIZE for v in sizes.values()):
        raise _rule("RB1: DATAIN_WIDTH/HEIGHT/CHANNEL are 13-bit fields: 1..8192", sizes)
    contract = layer.mode == "CONTRACT"
    strides_ok = all(1 <= v <= MAX_DECONV_STRIDE for v in (layer.x_stride, layer.y_stride))
    if contract and not strides_ok:
        raise _rule("RB1: DECONV_X/Y_STRIDE are 5-bit fields: strides 1..32",
                    {"x_stride": layer.x_stride, "y_stride": layer.y_stride})
    if contract and layer.x_stride * layer.width > MAX_CONTRACT_LINE_ATOMS:
        raise _rule("RB4: deconv_x_stride * datain_width should be <=8192",
                    {"x_stride": layer.x_stride, "width": layer.width})
    if contract and layer.channels % (layer.x_stride * layer.y_stride):
        raise _rule("RB5: DATAOUT_CHANNEL = (DATAIN_CHANNEL+1)/((DECONV_X_STRIDE+1)*(DECONV_Y_STRIDE+1))-1: "
                    "the input channels are x_stride*y_stride whole output channel sets",
                    {"channels": layer.channels, "x_stride": layer.x_stride, "y_stride": layer.y_stride})
    _check_alignment(layer)
    _check_strides(layer)
    _check_placement(layer)


def _check_alignment(layer: RubikLayer) -> None:
    s, d = layer.src, layer.dst
    feature = {"src.base": s.base, "src.line": s.line, "src.surf": s.surf, "dst.base": d.base,
               "dst.line": d.line, "dst.surf": d.surf}
    if layer.mode == "CONTRACT":
        cs0, cs1 = layer.strides()
        feature.update({"contract_stride0": cs0, "contract_stride1": cs1})
        rule = ("RB2: For contract mode, the address/line_stride for both input/output should be 32bytes "
                "aligned")
        bad = {k: v for k, v in feature.items() if v % ATOM or v < 0}
        if bad:
            raise _rule(rule, bad)
        return
    planar = s if layer.mode == "MERGE" else d
    side = "src" if layer.mode == "MERGE" else "dst"
    plane = {f"{side}.base": planar.base, f"{side}.line": planar.line, f"{side}.planar": planar.planar}
    bad = {k: v for k, v in plane.items() if v % PLANAR_ALIGN or v < 0}
    if bad:
        raise _rule("RB3: For split/merge mode, the address/line_stride should be 64bytes aligned for planar "
                    "data (output of split mode, input of merge mode)", bad)
    cube = {k: v for k, v in feature.items() if not k.startswith(side)}
    bad = {k: v for k, v in cube.items() if v % ATOM or v < 0}
    if bad:
        raise _rule("RB2: the feature cube's address and strides are 32-byte aligned (registers [31:5])", bad)


def _check_strides(layer: RubikLayer) -> None:
    s, d, h = layer.src, layer.dst, layer.height
    surfs = -(-layer.out_channels // layer.epa)
    need: list[tuple[str, int, int, bool]] = []   # (name, value, minimum, stepped over)
    if layer.mode == "MERGE":
        need += [("src.line", s.line, _plane_line(layer), h > 1),
                 ("src.planar", s.planar, h * s.line, layer.channels > 1),
                 ("dst.line", d.line, layer.width * ATOM, h > 1),
                 ("dst.surf", d.surf, h * d.line, surfs > 1)]
    elif layer.mode == "SPLIT":
        need += [("src.line", s.line, layer.width * ATOM, h > 1),
                 ("src.surf", s.surf, h * s.line, surfs > 1),
                 ("dst.line", d.line, _plane_line(layer), h > 1),
                 ("dst.planar", d.planar, h * d.line, layer.channels > 1)]
    else:
        cs0, cs1 = layer.strides()
        lines = h * layer.y_stride
        need += [("src.line", s.line, layer.width * ATOM, h > 1),
                 ("src.surf", s.surf, h * s.line, surfs > 1),
                 ("contract_stride0", cs0, surfs * s.surf if surfs > 1 else h * s.line,
                  layer.x_stride * layer.y_stride > 1),
                 ("dst.line", d.line, layer.width * layer.x_stride * ATOM, lines > 1),
                 ("dst.surf", d.surf, lines * d.line, surfs > 1)]
        if cs1 != layer.y_stride * d.line:
            raise _rule("RB5: CONTRACT_STRIDE_1 = (DECONV_Y_STRIDE+1) * DAOUT_LINE_STRIDE",
                        {"contract_stride1": cs1, "y_stride": layer.y_stride, "dst.line": d.line})
    for name, value, least, stepped in need:
        if stepped and value < least:
            raise _rule("RB7: a stride holds what it steps over (Limitation, Data Format: LINE_STRIDE at "
                        "least a line, a surface or planar stride at least its lines; CONTRACT_STRIDE_0 at "
                        "least an "
                        "output channel set's input surfaces)", {name: value, "minimum": least})


def _check_placement(layer: RubikLayer) -> None:
    (s_lo, s_hi), (d_lo, d_hi) = layer.src_span(), layer.dst_span()
    if s_hi > ADDRESS_SPACE or d_hi > ADDRESS_SPACE:
        raise _rule("RB7: the cubes lie inside this subsystem's 32-bit address space (ADDR_HIGH 0)",
                    {"src_end": s_hi, "dst_end": d_hi})
    if layer.src.ram_mc == layer.dst.ram_mc and s_lo < d_hi and d_lo < s_hi:
        raise _rule("RB7: the output must not overlap the input (the unit reads ahead of its writes)",
                    {"src": s_lo, "src_end": s_hi, "dst": d_lo, "dst_end": d_hi})


def layer_fields(layer: RubikLayer) -> dict[str, int]:
    """"REG.FIELD" -> value of the layer's RUBIK group."""
    s, d = layer.src, layer.dst
    cs0, cs1 = layer.strides()
    fields = {
        "D_MISC_CFG.RUBIK_MODE": MODES[layer.mode], "D_MISC_CFG.IN_PRECISION": PRECISIONS[layer.precision],
        "D_DAIN_RAM_TYPE.DATAIN_RAM_TYPE": int(s.ram_mc),
        "D_DATAIN_SIZE_0.DATAIN_WIDTH": layer.width - 1, "D_DATAIN_SIZE_0.DATAIN_HEIGHT": layer.height - 1,
        "D_DATAIN_SIZE_1.DATAIN_CHANNEL": layer.channels - 1,
        "D_DAIN_ADDR_HIGH.DAIN_ADDR_HIGH": s.base >> 32,
        "D_DAIN_ADDR_LOW.DAIN_ADDR_LOW": (s.base & 0xFFFFFFFF) >> 5,
        "D_DAIN_LINE_STRIDE.DAIN_LINE_STRIDE": s.line >> 5,
        "D_DAIN_SURF_STRIDE.DAIN_SURF_STRIDE": s.surf >> 5,
        "D_DAIN_PLANAR_STRIDE.DAIN_PLANAR_STRIDE": s.planar >> 5,
        "D_DAOUT_RAM_TYPE.DATAOUT_RAM_TYPE": int(d.ram_mc),
        "D_DATAOUT_SIZE_1.DATAOUT_CHANNEL": layer.out_channels - 1,
        "D_DAOUT_ADDR_HIGH.DAOUT_ADDR_HIGH": d.base >> 32,
        "D_DAOUT_ADDR_LOW.DAOUT_ADDR_LOW": (d.base & 0xFFFFFFFF) >> 5,
        "D_DAOUT_LINE_STRIDE.DAOUT_LINE_STRIDE": d.line >> 5,
        "D_CONTRACT_STRIDE_0.CONTRACT_STRIDE_0": cs0 >> 5, "D_CONTRACT_STRIDE_1.CONTRACT_STRIDE_1": cs1 >> 5,
        "D_DAOUT_SURF_STRIDE.DAOUT_SURF_STRIDE": d.surf >> 5,
        "D_DAOUT_PLANAR_STRIDE.DAOUT_PLANAR_STRIDE": d.planar >> 5,
        "D_DECONV_STRIDE.DECONV_X_STRIDE": layer.x_stride - 1,
        "D_DECONV_STRIDE.DECONV_Y_STRIDE": layer.y_stride - 1,
        "D_PERF_ENABLE.PERF_EN": int(layer.perf),
    }
    check_fits(UNIT, fields)
    return fields


def rubik_layer(layer: RubikLayer, group: int = 0) -> list[RegWrite]:
    """The register program of one layer for `group` (S_POINTER, the group's registers, D_OP_ENABLE)."""
    if group not in (0, 1):
        raise _rule("RB1: a register group is 0 or 1", {"group": group})
    check_layer(layer)
    regs = registers.encode_fields(UNIT, layer_fields(layer))
    return ([RegWrite(UNIT, "S_POINTER", group)]
            + [RegWrite(UNIT, name, regs[name]) for name in WRITE_ORDER]
            + [RegWrite(UNIT, "D_OP_ENABLE", 1)])


# ---- deconvolution: stride_x*stride_y convolution layers, then one contract (seed 001) ------------------

@dataclass(frozen=True)
class DeconvLayer:
    """An INT8 transposed convolution (deconvolution) of a feature cube as software describes it: input
    W x H x C at `src`, K kernels of kernel_h x kernel_w (R x S) at stride (sx, sy), no padding (out[k, y, x]
    sums in[c, iy, ix] * w[k, c, y - iy*sy, x - ix*sx] over every tap that lands there), CACC's CLIP_TRUNCATE
    `truncate`, SDP writing INT8 (saturating). The driver places the split kernels' weight images from
    `weight_base` on, the sx*sy convolution outputs (the stride cubes, Rubik's input) from `mid_base` on, and
    the contracted cube at `dst`; `contract` False stops after the convolution layers (a configuration
    without Rubik: the stride cubes are the result)."""

    width: int
    height: int
    channels: int
    kernels: int
    kernel_w: int
    kernel_h: int
    stride: tuple[int, int]
    src: Surface
    weight_base: int
    mid_base: int
    dst: Surface | None
    truncate: int = 0
    contract: bool = True

    @property
    def split_kernel(self) -> tuple[int, int]:
        """(S', R') = (ceil(S/stride_x), ceil(R/stride_y)): seed 001's split kernel."""
        return -(-self.kernel_w // self.stride[0]), -(-self.kernel_h // self.stride[1])

    @property
    def mid_size(self) -> tuple[int, int]:
        """(W', H') of each convolution layer's output: W + S' - 1, H + R' - 1."""
        sp, rp = self.split_kernel
        return self.width + sp - 1, self.height + rp - 1

    @property
    def out_size(self) -> tuple[int, int]:
        """(W'*sx, H'*sy): the contracted cube; the transposed convolution's (W-1)*sx + S by (H-1)*sy + R in
        its top-left corner, the rest what no tap reaches (0 before CACC's rounding and SDP)."""
        w, h = self.mid_size
        return w * self.stride[0], h * self.stride[1]


@dataclass(frozen=True)
class DeconvProgram:
    """A validated deconvolution: the convolution programs of the stride phases k = dy*sx + dx (their weight
    images at `weight_addrs[k]`, their outputs at `mid[k]`), then the contract (None without one)."""

    layer: DeconvLayer
    convs: tuple[ConvProgram, ...]
    weight_addrs: tuple[int, ...]
    mid: tuple[Surface, ...]
    contract: RubikLayer | None
    contract_writes: tuple[RegWrite, ...]

    def weight_images(self, weights: NDArray[np.integer]) -> list[NDArray[np.uint8]]:
        """Each phase's kernels [K, C, R', S'] (split_kernels) in NVIDIA's weight layout."""
        geo = configs.load().conv
        kernels = split_kernels(weights, self.layer.stride)
        return [pack_weights(k, geo.atomic_c, geo.atomic_k) for k in kernels]

    def steps(self, weights: NDArray[np.integer]) -> list[Step]:
        """Load the weight images, run every convolution hardware layer (waiting for its SDP done), then the
        contract (waiting for RUBIK's). The input cube is the caller's to load."""
        images = self.weight_images(weights)
        pairs = zip(self.weight_addrs, images, strict=True)
        out: list[Step] = [MemWrite(0, addr, image) for addr, image in pairs]
        for k, conv in enumerate(self.convs):
            for n, hw in enumerate(conv.layers):
                out += list(hw.writes)
                out.append(WaitInterrupt("SDP", hw.group, f"deconvolution phase {k} hardware layer {n}"))
        if self.contract is not None:
            out += list(self.contract_writes)
            out.append(WaitInterrupt(UNIT, 0, "deconvolution contract"))
        return out


def split_kernels(weights: NDArray[np.integer], stride: tuple[int, int]) -> list[NDArray[np.int64]]:
    """Seed 001's kernel split: phase k = dy*sx + dx takes taps (r'*sy + dy, s'*sx + dx) of the kernels
    [K, C, R, S] (0 past R, S), reversed in r' and s' so that a convolution padded by R'-1, S'-1 computes the
    transposed convolution's outputs (y*sy + dy, x*sx + dx)."""
    w = np.asarray(weights, dtype=np.int64)
    k, c, r, s = w.shape
    sx, sy = stride
    rp, sp = -(-r // sy), -(-s // sx)
    padded = np.zeros((k, c, rp * sy, sp * sx), dtype=np.int64)
    padded[:, :, :r, :s] = w
    return [np.ascontiguousarray(padded[:, :, dy::sy, dx::sx][:, :, ::-1, ::-1])
            for dy in range(sy) for dx in range(sx)]


def _deconv_rule(rule: str, values: dict[str, int | str]) -> ConfigError:
    return ConfigError(f"Deconvolution {rule}", values)


def deconv_layer(layer: DeconvLayer, *, group: int = 0) -> DeconvProgram:
    """Seed 001's deconvolution schedule (a): stride_x*stride_y convolution layers (models/conv/driver.py),
    each writing its stride cube, then one Rubik contract into the output cube. Refusals name the rule: DVn
    (docs/limitations.md, Deconvolution), the convolution layers' CVn, the contract's RBn."""
    config = configs.load()
    sx, sy = layer.stride
    if layer.contract and not config.rubik:
        raise _deconv_rule("DV1: the contract needs Rubik, which this configuration does not have "
                           "(configs/<name>.json \"rubik\")", {"config": config.name})
    if not (1 <= sx <= MAX_DECONV_STRIDE and 1 <= sy <= MAX_DECONV_STRIDE):
        raise _deconv_rule("DV2: deconvolution strides are 1..32 (Rubik's DECONV_X/Y_STRIDE are 5-bit "
                           "fields)", {"stride_x": sx, "stride_y": sy})
    if layer.contract and layer.dst is None:
        raise _deconv_rule("DV2: a contract needs its output cube (dst)", {"contract": 1})
    atom = config.atom_bytes
    sp, rp = layer.split_kernel
    wm, hm = layer.mid_size
    contract = None
    if layer.contract:
        assert layer.dst is not None
        mid_line = wm * atom
        contract = RubikLayer("CONTRACT", "INT8", wm, hm, layer.kernels * sx * sy,
                              Side(layer.mid_base, mid_line, mid_line * hm),
                              Side(layer.dst.base, layer.dst.line_stride, layer.dst.surface_stride,
                                   ram_mc=layer.dst.ram_mc), x_stride=sx, y_stride=sy,
                              contract_stride0=-(-layer.kernels // ATOM) * mid_line * hm)
        check_layer(contract)   # RB rules first: RB4 (deconv_x_stride * datain_width) before any layer
    mid_line, mid_surf = wm * atom, wm * atom * hm
    cube_step = -(-layer.kernels // atom) * mid_surf   # CONTRACT_STRIDE_0 (seed 001's formula)
    image = weight_image_bytes(layer.kernels, layer.channels, rp, sp)
    image = -(-image // WEIGHT_BYTES_ALIGN) * WEIGHT_BYTES_ALIGN   # each phase's image on a 128-byte boundary
    convs: list[ConvProgram] = []
    addrs, mids = [], []
    g = group
    for k in range(sx * sy):
        addrs.append(layer.weight_base + k * image)
        mids.append(Surface(layer.mid_base + k * cube_step, mid_line, mid_surf))
        conv = ConvLayer(layer.width, layer.height, layer.channels, layer.kernels, sp, rp, src=layer.src,
                         weight_base=addrs[-1], sdp=SdpStage(dst=mids[-1]),
                         pads=(sp - 1, sp - 1, rp - 1, rp - 1), pad_value=0, truncate=layer.truncate)
        prog = conv_layer(conv, group=g)
        g = (prog.layers[-1].group + 1) % 2
        convs.append(prog)
    _check_deconv_placement(layer, addrs[-1] + image, mids[-1], contract)
    writes = tuple(rubik_layer(contract)) if contract is not None else ()
    return DeconvProgram(layer, tuple(convs), tuple(addrs), tuple(mids), contract, writes)


def _check_deconv_placement(layer: DeconvLayer, weight_end: int, last_mid: Surface,
                            contract: RubikLayer | None) -> None:
    """DV3: the input, the weight images, the stride cubes and the output apart (in one memory) and inside
    the address space: a later layer reads what an earlier one must not have overwritten."""
    wm, hm = layer.mid_size
    src = layer.src.layout(layer.width, layer.height, layer.channels).extent()
    mid_end = last_mid.layout(wm, hm, layer.kernels).extent()[1]
    regions: dict[str, tuple[int, int, bool]] = {
        "src": (*src, layer.src.ram_mc), "weights": (layer.weight_base, weight_end, True),
        "stride cubes": (layer.mid_base, mid_end, True)}
    if contract is not None:
        regions["dst"] = (*contract.dst_span(), contract.dst.ram_mc)
    for name, (lo, hi, _mc) in regions.items():
        if hi > ADDRESS_SPACE:
            raise _deconv_rule("DV3: every region lies inside the 32-bit address space",
                               {name: lo, "end": hi})
    names = list(regions)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            (alo, ahi, amc), (blo, bhi, bmc) = regions[a], regions[b]
            if amc == bmc and alo < bhi and blo < ahi:
                raise _deconv_rule(f"DV3: the {a} and the {b} must not overlap (the layers run one after "
                                   "another on the same memory)", {a: alo, f"{a}_end": ahi, b: blo,
                                                                    f"{b}_end": bhi})
