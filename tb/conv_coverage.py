"""Functional coverage of the random convolution layers run on the top (tb/tests/test_top_conv.py
random_layers):
shapes (C and K against the atoms, W and C up to 8192), kernel sizes, padding up to the fields' limits (31
left/top, 63 right/bottom), strides 1..8, dilation up to 32, CACC truncation 0..31, CDMA's input convertor,
CSC's skip-release bits, SDP's stage on the fly and CBUF's modes; `aim` is what tb/stimulus/conv_top.py
steers the layer generator at (a bin still missing). Every bin is reachable by the generator at every
configuration; tb/tests/test_top_conv.py requires them all (about 50 to 80 layers hit them)."""

from __future__ import annotations

from models import configs
from models.conv.driver import ConvLayer, ConvProgram
from tb.funcov import Covergroup

STRIDES = range(1, 9)
TRUNCATES = range(32)
# SDP's blocks on the fly, register operands (the EW bins where the configuration has EW)
SDP_GOALS = ("SDP bypassed", "BS ALU", "BS MUL", "BS ReLU", "BN ALU", "BN MUL", "BN PReLU", "output cvt")
EW_GOALS = ("EW ALU", "EW MUL")


def sdp_goals() -> tuple[str, ...]:
    return SDP_GOALS + (EW_GOALS if configs.load().sdp.ew else ())


def conv_coverage() -> Covergroup:
    def pad(side: str, limit: int) -> tuple[str, ...]:
        return (f"pad {side} 0", f"pad {side} 1-{limit - 1}", f"pad {side} {limit}")

    def dilation(axis: str) -> tuple[str, ...]:
        return (f"dilation {axis} 1", f"dilation {axis} 2-31", f"dilation {axis} 32")

    return Covergroup("top_conv", "CONV", {
        "channels": ("C < atomic C", "C not a multiple of atomic C", "C a multiple of atomic C", "C > 512",
                     "C 8192"),
        "kernels": ("K 1", "K not a multiple of atomic K", "K a multiple of atomic K", "K > 2 atomic K"),
        "width": ("W 1", "W > 1", "W >= 1024", "W 8192"),
        "height": ("H 1", "H > 1"),
        "kernel": ("kernel 1x1", "kernel R != S", "kernel side >= 8"),
        "pad left": pad("left", 31), "pad right": pad("right", 63),
        "pad top": pad("top", 31), "pad bottom": pad("bottom", 63),
        "stride x": tuple(f"stride x {s}" for s in STRIDES),
        "stride y": tuple(f"stride y {s}" for s in STRIDES),
        "dilation x": dilation("x"), "dilation y": dilation("y"),
        "truncate": tuple(f"truncate {t}" for t in TRUNCATES),
        "convertor": ("cvt off", "cvt on", "cvt negative scale", "cvt truncate >= 16", "cvt 16-bit offset"),
        "skip release": ("no skip release", "skip data release", "skip weight release"),
        "SDP": sdp_goals(),
        # a short last channel block packed several pixels a CBUF entry: where an entry holds several atoms
        "CBUF": ("full input and weights", "partial weights", "split H",
                 *(("short last block packed",) if packs() else ())),
    })


def packs() -> bool:
    config = configs.load()
    return config.conv.cbuf_entry_bytes > config.atom_bytes


def sample(cov: Covergroup, layer: ConvLayer, prog: ConvProgram) -> None:
    """One layer the RTL ran and the bench scored against the model."""
    config = configs.load()
    ac, ak, atom = config.conv.atomic_c, config.conv.atomic_k, config.atom_bytes
    c, k, w, h = layer.channels, layer.kernels, layer.width, layer.height
    pl, pr, pt, pb = layer.pads
    sdp = layer.sdp
    cvt = layer.cvt
    per_entry = config.conv.cbuf_entry_bytes // atom
    flags = {
        "C < atomic C": c < ac, "C not a multiple of atomic C": c % ac != 0, "C a multiple of atomic C":
        c % ac == 0, "C > 512": c > 512, "C 8192": c == 8192,
        "K 1": k == 1, "K not a multiple of atomic K": k % ak != 0, "K a multiple of atomic K": k % ak == 0,
        "K > 2 atomic K": k > 2 * ak,
        "W 1": w == 1, "W > 1": w > 1, "W >= 1024": w >= 1024, "W 8192": w == 8192,
        "H 1": h == 1, "H > 1": h > 1,
        "kernel 1x1": layer.kernel_w == layer.kernel_h == 1,
        "kernel R != S": layer.kernel_w != layer.kernel_h,
        "kernel side >= 8": max(layer.kernel_w, layer.kernel_h) >= 8,
        f"stride x {layer.stride[0]}": True, f"stride y {layer.stride[1]}": True,
        f"truncate {layer.truncate}": True,
        "cvt off": cvt is None, "cvt on": cvt is not None,
        "cvt negative scale": cvt is not None and cvt.scale < 0,
        "cvt truncate >= 16": cvt is not None and cvt.truncate >= 16,
        "cvt 16-bit offset": cvt is not None and not -128 <= cvt.offset <= 127,
        "no skip release": not any(layer.skip_release), "skip data release": layer.skip_release[0],
        "skip weight release": layer.skip_release[1],
        "SDP bypassed": sdp.bs.bypass and sdp.bn.bypass and sdp.ew.bypass,
        "BS ALU": sdp.bs.alu_active, "BS MUL": sdp.bs.mul_active,
        "BS ReLU": not sdp.bs.bypass and not sdp.bs.relu_bypass,
        "BN ALU": sdp.bn.alu_active, "BN MUL": sdp.bn.mul_active and not sdp.bn.mul_prelu,
        "BN PReLU": sdp.bn.mul_active and sdp.bn.mul_prelu,
        "EW ALU": sdp.ew.alu_active, "EW MUL": sdp.ew.mul_active,
        "output cvt": (sdp.cvt.offset, sdp.cvt.scale, sdp.cvt.shift) != (0, 1, 0),
        "full input and weights": prog.mode == "full", "partial weights": prog.mode == "partial weights",
        "split H": prog.mode == "split H",
        "short last block packed": per_entry > 1 and 0 < -(-c // atom) % per_entry < per_entry,
    }
    for side, value, limit in (("left", pl, 31), ("right", pr, 63), ("top", pt, 31), ("bottom", pb, 63)):
        flags[f"pad {side} 0"] = value == 0
        flags[f"pad {side} 1-{limit - 1}"] = 0 < value < limit
        flags[f"pad {side} {limit}"] = value == limit
    for axis, d in (("x", layer.dilation[0]), ("y", layer.dilation[1])):
        flags |= {f"dilation {axis} 1": d == 1, f"dilation {axis} 2-31": 1 < d < 32,
                  f"dilation {axis} 32": d == 32}
    cov.sample(flags)
