"""The convolution driver (models/conv/driver.py) and model (models/conv/conv.py, models/conv/cdma.py):
random layers
through the driver's register program on the subsystem model, against a plain numpy reference convolution
written here independently (exact integers, the loops of the definition); the register program's order and
CBUF plan; the configuration's weight layout."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from models import configs
from models.common.cube import CubeLayout
from models.common.driver import Surface
from models.conv.cdma import pack_weights, unpack_weights, weight_offsets
from models.conv.driver import ConvLayer, ConvProgram, InputCvt, SdpStage, conv_layer, entry_per_slice
from models.errors import ConfigError
from models.sdp.driver import OutputCvt
from models.subsystem import ModelTarget

SEED = 20261128
CONFIGS = ("nv_small", "nv_small_256_full", "nv_medium_512", "nv_large", "nv_full")
SRC, WEIGHTS, DST = 0x10000, 0x400000, 0x800000


# ---- the reference: the definition, loop by loop --------------------------------------------------------

def _ref_convert(x: int, cvt: InputCvt | None) -> int:
    if cvt is None:
        return x
    if cvt.truncate >= 34:
        return 0
    v = (x - cvt.offset) * cvt.scale
    mag = (abs(v) + ((1 << cvt.truncate) >> 1)) >> cvt.truncate   # half away from zero
    return max(-128, min(127, mag if v >= 0 else -mag))


def _ref_cacc(v: int, t: int) -> tuple[int, bool]:
    """CACC's final stage as NV_NVDLA_CACC_CALC_int8.v states it: floor shift, +1 when the guide bit is set
    and the value is positive or one of the 15 bits below the guide is set; INT32 saturation."""
    if t:
        floor = v >> t
        guide = (v >> (t - 1)) & 1
        window = (v >> max(t - 16, 0)) & ((1 << min(t - 1, 15)) - 1)
        v = floor + (1 if guide and (v >= 0 or window) else 0)
    sat = not -(1 << 31) <= v < (1 << 31)
    return max(-(1 << 31), min((1 << 31) - 1, v)), sat


def reference(layer: ConvLayer, data: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, int]:
    """SDP's INT8 output (identity convertor: saturation) of CACC's outputs, and the saturated count."""
    pl, _pr, pt, _pb = layer.pads
    sx, sy = layer.stride
    dx, dy = layer.dilation
    c_in = np.vectorize(lambda x: _ref_convert(int(x), layer.cvt))(data.astype(np.int64))
    out = np.zeros((layer.kernels, layer.out_height, layer.out_width), dtype=np.int64)
    sats = 0
    for y in range(layer.out_height):
        for x in range(layer.out_width):
            pad = _ref_convert(layer.pad_value, layer.cvt)   # the pad value as the data: converted
            patch = np.full((layer.channels, layer.kernel_h, layer.kernel_w), pad, dtype=np.int64)
            for r in range(layer.kernel_h):
                for s in range(layer.kernel_w):
                    iy, ix = y * sy + r * dy - pt, x * sx + s * dx - pl
                    if 0 <= iy < layer.height and 0 <= ix < layer.width:
                        patch[:, r, s] = c_in[:, iy, ix]
            for k in range(layer.kernels):
                v, sat = _ref_cacc(int((patch * weights[k]).sum()), layer.truncate)
                out[k, y, x] = v
                sats += sat
    return np.clip(out, -128, 127), sats


def reference_weight_image(weights: np.ndarray, atomic_c: int, atomic_k: int) -> np.ndarray:
    """NVIDIA's weight image written out in its order: kernel groups of atomic K, channel blocks of atomic C,
    taps r*S+s, each kernel of the group with the block's channels."""
    k_all, c_all, kh, kw = weights.shape
    out: list[int] = []
    for g in range(0, k_all, atomic_k):
        for b in range(0, c_all, atomic_c):
            for r in range(kh):
                for s in range(kw):
                    for k in range(g, min(g + atomic_k, k_all)):
                        out += [int(v) & 0xFF for v in weights[k, b:b + atomic_c, r, s]]
    return np.array(out, dtype=np.uint8)


# ---- running a program on the model ---------------------------------------------------------------------

def run(prog: ConvProgram, data: np.ndarray, weights: np.ndarray, config: configs.Configuration
        ) -> tuple[np.ndarray, ModelTarget]:
    layer = prog.layer
    target = ModelTarget(config)
    src = CubeLayout(layer.src.base, layer.src.line_stride, layer.src.surface_stride, layer.width,
                     layer.height, layer.channels, config.atom_bytes)
    src.write(target.memories[0], data)
    target.mem_write(0, layer.weight_base,
                     reference_weight_image(weights, config.conv.atomic_c, config.conv.atomic_k))
    assert target.reg_read("CDMA", "S_CBUF_FLUSH_STATUS") == 1
    for hw in prog.layers:
        for unit, reg, value in hw.writes:
            target.reg_write(unit, reg, value)
        for unit in ("SDP", "CACC", "CDMA_DAT", "CDMA_WT"):
            assert target.wait_interrupt(unit, hw.group), f"{unit} done missing ({target.describe_pending()})"
    dst = layer.sdp.dst
    assert dst is not None
    out = CubeLayout(dst.base, dst.line_stride, dst.surface_stride, layer.out_width, layer.out_height,
                     layer.kernels, config.atom_bytes).read(target.memories[0])
    return out.astype(np.int64), target


def _packed(base: int, w: int, h: int, c: int, atom: int) -> Surface:
    line = w * atom
    return Surface(base, line, line * h)


def _pick(rng: np.random.Generator, lo: int, hi: int, small: int) -> int:
    """lo..hi inclusive: over the whole range half the time, else lo..small (the sizes that make layers)."""
    return int(rng.integers(lo, (hi if rng.random() < 0.5 else min(hi, small)) + 1))


def random_layer(rng: np.random.Generator, config: configs.Configuration, big: bool = False) -> ConvLayer:
    """A legal layer, its registers drawn over their ranges (strides 1..8, dilation 1..32, pads below the
    dilated kernel, pad value, CLIP_TRUNCATE 0..31, the convertor's offset, scale and truncate 0..63), its
    sizes small enough for the loop reference."""
    atom = config.atom_bytes
    while True:
        w, h = (int(v) for v in rng.integers(1, 20 if big else 10, 2))
        c = int(rng.integers(1, 3 * config.conv.atomic_c))
        k = int(rng.integers(1, 2 * config.conv.atomic_k + 3))
        kw, kh = (int(v) for v in rng.integers(1, 6, 2))
        sx, sy = _pick(rng, 1, 8, 3), _pick(rng, 1, 8, 3)
        dx, dy = (_pick(rng, 1, 32, 3), _pick(rng, 1, 32, 3)) if rng.random() < 0.4 else (1, 1)
        span_w, span_h = (kw - 1) * dx + 1, (kh - 1) * dy + 1
        pl, pt = int(rng.integers(0, min(span_w, 32))), int(rng.integers(0, min(span_h, 32)))
        # right/bottom padding that consumes the input exactly (rule CV2), if one below the span exists
        out_w, out_h = (pl + w - span_w) // sx + 1, (pt + h - span_h) // sy + 1
        pr, pb = (out_w - 1) * sx + span_w - pl - w, (out_h - 1) * sy + span_h - pt - h
        if min(out_w, out_h) < 1 or not (0 <= pr < min(span_w, 64) and 0 <= pb < min(span_h, 64)):
            continue
        src = _packed(SRC, w, h, c, atom) if (w, h) == (1, 1) or rng.random() < 0.5 else \
            Surface(SRC, w * atom + atom * int(rng.integers(0, 3)), (w * atom + 2 * atom) * h + atom * 4)
        dst = Surface(DST, out_w * atom, out_w * atom * out_h)
        cvt = None
        if rng.random() < 0.4:
            wide = rng.random() < 0.5   # the whole 16-bit range, else values that keep data in INT8
            cvt = InputCvt(int(rng.integers(-32768, 32768)) if wide else int(rng.integers(-40, 40)),
                           int(rng.integers(-32768, 32768)) if wide else int(rng.integers(-3, 4)),
                           _pick(rng, 0, 63, 2) if not wide else int(rng.integers(10, 40)))
        return ConvLayer(w, h, c, k, kw, kh, src=src, weight_base=WEIGHTS, sdp=SdpStage(dst=dst),
                         stride=(sx, sy), dilation=(dx, dy), pads=(pl, pr, pt, pb),
                         pad_value=int(rng.integers(-128, 128)), truncate=_pick(rng, 0, 31, 12), cvt=cvt)


@pytest.fixture(params=CONFIGS)
def config(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> configs.Configuration:
    monkeypatch.setenv("CONFIG", request.param)
    return configs.load()


def test_random_layers_match_the_reference(config: configs.Configuration) -> None:
    rng = np.random.default_rng([SEED, configs.names().index(config.name)])
    print(f"seed {SEED}, configuration {config.name}")
    for index in range(6):
        layer = random_layer(rng, config)
        prog = conv_layer(layer)
        data = rng.integers(-128, 128, (layer.channels, layer.height, layer.width))
        weights = rng.integers(-128, 128, (layer.kernels, layer.channels, layer.kernel_h, layer.kernel_w))
        got, target = run(prog, data, weights, config)
        want, sats = reference(layer, data, weights)
        bad = np.argwhere(got != want)
        assert bad.size == 0, (f"layer {index} {layer}: first mismatch (k, y, x) {tuple(bad[0])}: "
                               f"{got[tuple(bad[0])]} != {want[tuple(bad[0])]}")
        if len(prog.layers) == 1:
            assert target.units["CACC"].groups[prog.layers[0].group]["D_OUT_SATURATION"] == sats


def test_int32_saturation_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """8192 channels x 16 taps of -128 * -128 make 2^31, one past INT32: saturated and counted in CACC's
    D_OUT_SATURATION; the other kernel (-128 * 127) stays in range."""
    monkeypatch.setenv("CONFIG", "nv_large")
    config = configs.load()
    layer = ConvLayer(4, 4, 8192, 2, 4, 4, src=_packed(SRC, 4, 4, 8192, 32), weight_base=0x2000000,
                      sdp=SdpStage(dst=Surface(DST, 32, 32)))
    data = np.full((8192, 4, 4), -128)
    weights = np.full((2, 8192, 4, 4), -128)
    weights[1] = 127
    prog = conv_layer(layer)
    got, target = run(prog, data, weights, config)
    want, sats = reference(layer, data, weights)
    assert np.array_equal(got, want) and sats == 1
    assert target.units["CACC"].groups[0]["D_OUT_SATURATION"] == 1


def test_accumulator_saturates_at_34_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    """A register program no legal layer reaches (8192 channels x 81 taps: 1.09e10 > 2^33): CACC's partial
    sums saturate at 2^33 - 1 before the truncation (NV_NVDLA_CACC_CALC_int8.v), the exact sum would not."""
    from models.conv.conv import conv_compute

    monkeypatch.setenv("CONFIG", "nv_large")
    small = conv_layer(ConvLayer(9, 9, 32, 1, 9, 9, src=_packed(SRC, 9, 9, 32, 32), weight_base=WEIGHTS,
                                 sdp=SdpStage(dst=Surface(DST, 32, 32)), truncate=3))
    cfg = dataclasses.replace(small.layers[0].config, channels=8192)
    out = conv_compute(np.full((8192, 9, 9), -128), np.full((1, 8192, 9, 9), -128), cfg)
    assert int(out.output[0, 0, 0]) == _ref_cacc((1 << 33) - 1, 3)[0] != _ref_cacc(81 * 8192 * 16384, 3)[0]
    neg = conv_compute(np.full((8192, 9, 9), -128), np.full((1, 8192, 9, 9), 127), cfg)
    assert int(neg.output[0, 0, 0]) == _ref_cacc(-(1 << 33), 3)[0]


def test_split_h_when_the_input_does_not_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONFIG", "nv_small")
    config = configs.load()
    rng = np.random.default_rng(SEED)
    # 40 x 120 x 64: 320 entries a row, 120 rows: 75 banks of data, far more than 32
    layer = ConvLayer(40, 120, 64, 8, 3, 3, src=_packed(SRC, 40, 120, 64, 8), weight_base=0x800000,
                      sdp=SdpStage(dst=Surface(0x900000, 40 * 8, 40 * 8 * 120)), pads=(1, 1, 1, 1),
                      truncate=8, pad_value=-3)
    prog = conv_layer(layer)
    assert prog.mode == "split H" and len(prog.layers) > 1
    assert prog.data_banks + prog.weight_banks <= config.conv.cbuf_banks
    data = rng.integers(-128, 128, (64, 120, 40))
    weights = rng.integers(-128, 128, (8, 64, 3, 3))
    got, _ = run(prog, data, weights, config)
    want, _ = reference(layer, data, weights)
    assert np.array_equal(got, want)


def test_program_order_and_cbuf_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 001: op_enable from SDP back to CDMA; full input and weights when both fit."""
    monkeypatch.setenv("CONFIG", "nv_small")
    layer = ConvLayer(8, 8, 16, 8, 3, 3, src=_packed(SRC, 8, 8, 16, 8), weight_base=WEIGHTS,
                      sdp=SdpStage(dst=Surface(DST, 64, 512)), pads=(1, 1, 1, 1))
    prog = conv_layer(layer)
    enables = [w.unit for w in prog.writes if w.reg == "D_OP_ENABLE"]
    assert enables == ["SDP", "CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA"]
    assert prog.mode == "full" and prog.entry_per_slice == 16 and prog.data_banks == 1
    assert prog.writes.index(("SDP", "D_OP_ENABLE", 1)) > max(
        i for i, w in enumerate(prog.writes) if w.reg != "D_OP_ENABLE")
    csc = prog.layers[0].fields["CSC"]   # CV3: every slice released, never more than the input's
    assert csc["D_RELEASE.RLS_SLICES"] == csc["D_DATAIN_SIZE_EXT_0.DATAIN_HEIGHT_EXT"]


@pytest.mark.parametrize(("config", "width", "channels", "eps"), [
    ("nv_small", 6, 192, 144), ("nv_small", 13, 64, 104), ("nv_large", 8, 128, 16), ("nv_large", 8, 32, 4),
    ("nv_full", 5, 32, 2), ("nv_full", 5, 64, 3), ("nv_full", 5, 96, 5), ("nv_full", 5, 160, 7)])
def test_entry_per_slice(config: str, width: int, channels: int, eps: int) -> None:
    """NVIDIA's traces' values (nv_small, nv_large), NVIDIA's C-model rule at nv_full (4 atoms an entry)."""
    cfg = configs.load(config)
    assert entry_per_slice(width, channels, cfg.conv, cfg.atom_bytes) == eps


def test_weight_layout_roundtrip_and_order() -> None:
    rng = np.random.default_rng(SEED)
    w = rng.integers(-128, 128, (11, 21, 2, 3))
    image = pack_weights(w, 8, 4)
    assert np.array_equal(image, reference_weight_image(w, 8, 4))
    assert np.array_equal(unpack_weights(image, w.shape, 8, 4), w)
    off = weight_offsets(11, 21, 2, 3, 8, 4)
    assert sorted(off.ravel().tolist()) == list(range(w.size))
    # kernel group 0, channel block 0, tap (0, 0): kernel 0's 8 channels, then kernel 1's
    assert off[0, :8, 0, 0].tolist() == list(range(8)) and off[1, 0, 0, 0] == 8
    # kernel groups of 4 (11 = 4 + 4 + 3): kernel 8 opens the third group; its third channel block (channels
    # 16..20, 5 of them) follows two blocks of 8 channels x 6 taps x the group's 3 kernels
    group2 = 2 * 4 * 21 * 6
    assert off[8, 16, 0, 0] == group2 + 2 * 8 * 6 * 3 and off[9, 16, 0, 0] == off[8, 16, 0, 0] + 5
    assert off[8, 16, 0, 1] == off[8, 16, 0, 0] + 5 * 3   # the next tap after the group's 3 kernels


BASE = ConvLayer(8, 8, 16, 8, 3, 3, src=Surface(SRC, 64, 512), weight_base=WEIGHTS,
                 sdp=SdpStage(dst=Surface(DST, 64, 512)), pads=(1, 1, 1, 1))


@pytest.mark.parametrize(("change", "rule"), [
    ({"stride": (2, 2)}, "CV2"),   # 1 + 8 + 1 = 10 columns, (4 - 1) * 2 + 3 = 9 used
    ({"pads": (3, 3, 1, 1), "kernel_w": 3, "stride": (1, 1), "width": 8}, "CV13"),
    ({"width": 1, "height": 1, "pads": (0, 0, 0, 0), "kernel_w": 1, "kernel_h": 1,
      "src": Surface(SRC, 64, 512)}, "CV12"),
    ({"src": Surface(SRC + 4, 64, 512)}, "CV14"),
    ({"weight_base": WEIGHTS + 2}, "CV14"),
    ({"weight_base": DST - 64}, "CV20"),   # the weights run into the output cube
    ({"src": Surface(DST, 64, 512)}, "CV20"),
    ({"src": Surface(SRC, 32, 512)}, "CV14"),
    ({"truncate": 32}, "CV18"),
    ({"pad_value": 128}, "CV18"),
    ({"cvt": InputCvt(0, 1 << 15, 0)}, "CV18"),
    ({"kernels": 0}, "CV18"),
    ({"channels": 8192, "kernel_w": 32, "kernel_h": 32, "width": 32, "height": 32, "pads": (0, 0, 0, 0),
      "src": Surface(SRC, 256, 8192)}, "CV8"),
])
def test_invalid_layers_refused_naming_the_rule(monkeypatch: pytest.MonkeyPatch, change: dict[str, object],
                                                rule: str) -> None:
    monkeypatch.setenv("CONFIG", "nv_small")
    with pytest.raises(ConfigError, match=f"Convolution {rule}:"):
        conv_layer(dataclasses.replace(BASE, **change))


def test_sdp_stage_is_programmed_on_the_fly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONFIG", "nv_small")
    layer = dataclasses.replace(BASE, sdp=SdpStage(dst=Surface(DST, 64, 512), cvt=OutputCvt(offset=5, scale=3,
                                                                                           shift=2)))
    prog = conv_layer(layer)
    assert prog.layers[0].sdp.fields["SDP"]["D_FEATURE_MODE_CFG.FLYING_MODE"] == 1
    assert not any(w.unit == "SDP_RDMA" for w in prog.writes)


def test_cacc_rounding_follows_the_rtl() -> None:
    """CACC's truncation against the RTL's statement, over the whole 34-bit range and every CLIP_TRUNCATE,
    and the case where its 15 sticky bits differ from exact rounding: -4.4999990 rounds to -5 at 20 bits."""
    from models.conv.conv import cacc_output

    rng = np.random.default_rng(SEED)
    values = np.concatenate([rng.integers(-(1 << 33), 1 << 33, 4000), rng.integers(-5000, 5000, 1000)])
    for t in range(32):
        got, sat = cacc_output(values, t)
        want = [_ref_cacc(int(v), t) for v in values]
        assert got.tolist() == [w for w, _ in want] and sat.tolist() == [s for _, s in want], f"truncate {t}"
    v = (-5 << 20) + (1 << 19) + 1
    assert int(cacc_output(np.array([v]), 20)[0][0]) == -5 != round(v / 2**20)


def test_pdp_on_the_fly_after_sdp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Convolution -> SDP -> PDP (2x2 max, stride 2) on the fly: PDP's output against the reference pooled."""
    from models.conv.driver import PdpStage

    monkeypatch.setenv("CONFIG", "nv_small")
    config = configs.load()
    rng = np.random.default_rng(SEED + 1)
    pool_dst = Surface(0xA00000, 4 * 8, 4 * 8 * 4)
    layer = ConvLayer(8, 8, 12, 10, 3, 3, src=_packed(SRC, 8, 8, 12, 8), weight_base=WEIGHTS,
                      sdp=SdpStage(), pads=(1, 1, 1, 1), truncate=7, pad_value=5,
                      pdp=PdpStage(dst=pool_dst, method="max", kernel=(2, 2), stride=(2, 2)))
    prog = conv_layer(layer)
    enables = [w.unit for w in prog.writes if w.reg == "D_OP_ENABLE"]
    assert enables == ["PDP", "SDP", "CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA"]
    data = rng.integers(-128, 128, (12, 8, 8))
    weights = rng.integers(-128, 128, (10, 12, 3, 3))
    target = ModelTarget(config)
    CubeLayout(SRC, 64, 512, 8, 8, 12, 8).write(target.memories[0], data)
    target.mem_write(0, WEIGHTS, reference_weight_image(weights, 8, 8))
    for unit, reg, value in prog.writes:
        target.reg_write(unit, reg, value)
    assert target.wait_interrupt("PDP", 0) and target.wait_interrupt("SDP", 0)
    got = CubeLayout(pool_dst.base, 32, 128, 4, 4, 10, 8).read(target.memories[0]).astype(np.int64)
    conv, _ = reference(layer, data, weights)
    want = conv.reshape(10, 4, 2, 4, 2).max(axis=(2, 4))
    assert np.array_equal(got, want)


@pytest.mark.parametrize(("unit", "field", "value", "rule"), [
    ("CSC", "D_MISC_CFG.CONV_MODE", 1, "CONV_MODE Winograd is not modelled"),
    ("CDMA", "D_DATAIN_FORMAT.DATAIN_FORMAT", 1, "DATAIN_FORMAT pixel (image input) is not modelled"),
    ("CMAC_A", "D_MISC_CFG.PROC_PRECISION", 1, "PROC_PRECISION other than INT8 is not modelled"),
    ("CDMA", "D_WEIGHT_FORMAT.WEIGHT_FORMAT", 1, "compressed weights are not modelled"),
    ("CSC", "D_BATCH_NUMBER.BATCHES", 1, "multi-batch is not modelled"),
    ("CACC", "D_DATAOUT_SIZE_0.DATAOUT_WIDTH", 0, "CACC DATAOUT_WIDTH / CSC DATAOUT_WIDTH must be equal"),
])
def test_model_refuses_what_it_does_not_compute(monkeypatch: pytest.MonkeyPatch, unit: str, field: str,
                                                value: int, rule: str) -> None:
    """A register program outside direct INT8 convolution of a feature cube is refused naming the field (the
    driver never writes one; NVIDIA's traces that do, image input, are not replayable: their images are
    missing)."""
    from models import registers
    from models.conv.conv import ConvConfig

    monkeypatch.setenv("CONFIG", "nv_small")
    hw = conv_layer(BASE).layers[0]
    fields = {u: {**registers.decode_fields(u, registers.reset_values(u)), **f} for u, f in hw.fields.items()}
    fields[unit][field] = value
    with pytest.raises(ConfigError, match=rule.replace("(", r"\(").replace(")", r"\)")):
        ConvConfig.from_fields(fields, configs.load())


def test_cbuf_limits_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """CV16: one row of an 8192-wide, 64-channel input takes 65536 entries of nv_small's 16384; CV19: PDP on
    the fly with a split layer."""
    from models.conv.driver import PdpStage

    monkeypatch.setenv("CONFIG", "nv_small")
    wide = ConvLayer(8192, 3, 64, 8, 3, 3, src=_packed(SRC, 8192, 3, 64, 8), weight_base=0x4000000,
                     sdp=SdpStage(dst=Surface(0x6000000, 8190 * 8, 8190 * 8)))
    with pytest.raises(ConfigError, match="Convolution CV16:"):
        conv_layer(wide)
    tall = ConvLayer(40, 120, 64, 8, 3, 3, src=_packed(SRC, 40, 120, 64, 8), weight_base=0x800000,
                     sdp=SdpStage(), pads=(1, 1, 1, 1),
                     pdp=PdpStage(dst=Surface(0x900000, 20 * 8, 20 * 8 * 60), kernel=(2, 2), stride=(2, 2)))
    with pytest.raises(ConfigError, match="Convolution CV19:"):
        conv_layer(tall)


def test_every_convolution_rule_has_a_test() -> None:
    """docs/limitations.md's Convolution rows: each id once, each test it names defined here."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "limitations.md").read_text()
    rows = [line.split("|") for line in doc.splitlines() if re.match(r"\| CV\d+ \|", line)]
    ids = [row[1].strip() for row in rows]
    assert ids == [f"CV{i}" for i in range(1, len(ids) + 1)] and len(ids) >= 19
    for row in rows:
        for name in re.findall(r"`(test_[a-z0-9_]+)`", row[4]):
            assert callable(globals().get(name)), f"{row[1].strip()} names {name}, which does not exist"


def test_partial_weights_when_the_weights_do_not_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    """40 kernels of 512 x 3 x 3 (180 KiB) in nv_small's 128 KiB CBUF: two kernel groups at a time (seed 001
    "full input, partial weight"), one hardware layer, the same result."""
    monkeypatch.setenv("CONFIG", "nv_small")
    config = configs.load()
    rng = np.random.default_rng(SEED + 2)
    layer = ConvLayer(4, 4, 512, 40, 3, 3, src=_packed(SRC, 4, 4, 512, 8), weight_base=WEIGHTS,
                      sdp=SdpStage(dst=Surface(DST, 32, 128)), pads=(1, 1, 1, 1), truncate=10)
    prog = conv_layer(layer)
    assert (prog.mode, len(prog.layers), prog.weight_banks) == ("partial weights", 1, 19)
    data = rng.integers(-128, 128, (512, 4, 4))
    weights = rng.integers(-128, 128, (40, 512, 3, 3))
    got, _ = run(prog, data, weights, config)
    want, _ = reference(layer, data, weights)
    assert np.array_equal(got, want)


def test_partial_sums_add_up_to_the_accumulator(monkeypatch: pytest.MonkeyPatch) -> None:
    """CMAC's per-stripe outputs (conv.partial_sums, for the unit benches) in CSC's order sum to CACC's
    accumulator, and each fits CMAC's 22-bit output at nv_large's atomic C 64."""
    from models.conv.conv import accumulate, partial_sums

    monkeypatch.setenv("CONFIG", "nv_large")
    rng = np.random.default_rng(SEED + 3)
    layer = ConvLayer(5, 4, 150, 40, 3, 2, src=_packed(SRC, 5, 4, 150, 32), weight_base=WEIGHTS,
                      sdp=SdpStage(dst=Surface(DST, 160, 640)), pads=(1, 1, 1, 0), dilation=(2, 1))
    cfg = conv_layer(layer).layers[0].config
    data = rng.integers(-128, 128, (150, 4, 5))
    weights = rng.integers(-128, 128, (40, 150, 2, 3))
    parts = partial_sums(data, weights, cfg)
    assert parts.shape[:3] == (3, 2, 3) and np.abs(parts).max() < 1 << 21
    assert np.array_equal(parts.sum(axis=(0, 1, 2)), accumulate(data, weights, cfg))
