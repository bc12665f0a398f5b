"""Deconvolution (seed 001's schedule: stride_x*stride_y convolution layers, then one Rubik contract;
models/rubik/driver.py deconv_layer) on the subsystem model, against a transposed convolution written here
from its definition (each input pixel's products added into the output at iy*sy + r, ix*sx + s), then CACC's
rounding and SDP's INT8 saturation. At nv_full (the one configuration with Rubik) the contracted cube is
checked whole; at the others the convolution layers' stride cubes are (cube dy*sx + dx is the reference's
rows dy::sy, columns dx::sx), the contract being Rubik's."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from models import configs
from models.common.cube import CubeLayout
from models.common.driver import Surface
from models.errors import ConfigError
from models.executor import run
from models.rubik.driver import DeconvLayer, deconv_layer
from models.subsystem import ModelTarget

SEED = 31_2026
SRC, WEIGHTS, MID, DST = 0x10000, 0x400000, 0x1000000, 0x4000000


def _cacc(v: int, t: int) -> int:
    """CACC's output stage as NV_NVDLA_CACC_CALC_int8.v states it: floor shift, +1 when the guide bit is set
    and the value is positive or one of the 15 bits below the guide is set; INT32 saturation."""
    if t:
        guide = (v >> (t - 1)) & 1
        window = (v >> max(t - 16, 0)) & ((1 << min(t - 1, 15)) - 1)
        v = (v >> t) + (1 if guide and (v >= 0 or window) else 0)
    return max(-(1 << 31), min((1 << 31) - 1, v))


def transposed_conv(data: np.ndarray, weights: np.ndarray, stride: tuple[int, int], truncate: int,
                    out_hw: tuple[int, int]) -> np.ndarray:
    """[K, out_h, out_w]: out[k, iy*sy + r, ix*sx + s] += sum_c data[c, iy, ix] * weights[k, c, r, s], every
    output the taps do not reach 0; then CACC's rounding and SDP's INT8 saturation."""
    sx, sy = stride
    k_all, _c, kh, kw = weights.shape
    _, h, w = data.shape
    acc = [[[0] * out_hw[1] for _ in range(out_hw[0])] for _ in range(k_all)]
    for iy in range(h):
        for ix in range(w):
            for r in range(kh):
                for s in range(kw):
                    for k in range(k_all):
                        acc[k][iy * sy + r][ix * sx + s] += int(np.dot(data[:, iy, ix], weights[k, :, r, s]))
    out = np.array([[[_cacc(v, truncate) for v in row] for row in plane] for plane in acc], dtype=np.int64)
    return np.clip(out, -128, 127)


def random_deconv(rng: np.random.Generator, config: configs.Configuration) -> DeconvLayer:
    """Strides 1..4 each way, odd sizes, channels and kernels across the atoms, CACC truncate 0..10."""
    atom = config.atom_bytes
    w, h = (int(v) for v in rng.integers(1, 8, 2))
    c = int(rng.integers(1, 2 * config.conv.atomic_c + 3))
    k = int(rng.integers(1, config.conv.atomic_k + 6))
    kw, kh = (int(v) for v in rng.integers(1, 7, 2))
    sx, sy = (int(v) for v in rng.integers(1, 5, 2))
    line = (w + int(rng.integers(0, 2))) * atom
    src = Surface(SRC, line, line * h + atom * int(rng.integers(0, 3)))
    if (w, h) == (1, 1):
        src = Surface(SRC, atom, atom)
    rubik = config.rubik
    out_w = (w + -(-kw // sx) - 1) * sx
    out_h = (h + -(-kh // sy) - 1) * sy
    dline = (out_w + int(rng.integers(0, 2))) * atom
    dst = Surface(DST, dline, dline * out_h + atom * int(rng.integers(0, 3))) if rubik else None
    return DeconvLayer(w, h, c, k, kw, kh, (sx, sy), src=src, weight_base=WEIGHTS, mid_base=MID, dst=dst,
                       truncate=int(rng.integers(0, 11)), contract=rubik)


def run_deconv(layer: DeconvLayer, data: np.ndarray, weights: np.ndarray, config: configs.Configuration
               ) -> tuple[np.ndarray | None, list[np.ndarray]]:
    """The driver's program on the model: (the contracted cube or None, the stride cubes)."""
    prog = deconv_layer(layer)
    target = ModelTarget(config)
    atom = config.atom_bytes
    CubeLayout(layer.src.base, layer.src.line_stride, layer.src.surface_stride, layer.width, layer.height,
               layer.channels, atom).write(target.memories[0], data)
    outcome = run(prog.steps(weights), target)
    assert outcome.passed, outcome.message
    wm, hm = layer.mid_size
    mids = [CubeLayout(m.base, m.line_stride, m.surface_stride, wm, hm, layer.kernels, atom)
            .read(target.memories[0]).astype(np.int64) for m in prog.mid]
    if layer.dst is None:
        return None, mids
    ow, oh = layer.out_size
    d = layer.dst
    out = CubeLayout(d.base, d.line_stride, d.surface_stride, ow, oh, layer.kernels, atom)
    return out.read(target.memories[0]).astype(np.int64), mids


def _first_mismatch(got: np.ndarray, want: np.ndarray) -> str:
    bad = np.argwhere(got != want)
    if not bad.size:
        return ""
    at = tuple(int(v) for v in bad[0])
    return (f"{bad.shape[0]} elements differ, first (k, y, x) {at}: model {got[at]}, "
            f"transposed convolution {want[at]}")


@pytest.mark.parametrize("name", configs.names())
def test_random_deconvolutions_match_a_transposed_convolution(name: str, monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    monkeypatch.setenv("CONFIG", name)
    config = configs.load()
    rng = np.random.default_rng([SEED, configs.names().index(name)])
    print(f"seed {SEED}, configuration {name}")
    for index in range(4 if config.rubik else 3):
        layer = random_deconv(rng, config)
        data = rng.integers(-128, 128, (layer.channels, layer.height, layer.width))
        weights = rng.integers(-128, 128, (layer.kernels, layer.channels, layer.kernel_h, layer.kernel_w))
        want = transposed_conv(data, weights, layer.stride, layer.truncate, layer.out_size[::-1])
        got, mids = run_deconv(layer, data, weights, config)
        sx, sy = layer.stride
        where = f"{name} deconvolution {index} {layer}"
        if got is not None:
            assert not (msg := _first_mismatch(got, want)), f"{where}: contracted cube: {msg}"
        for k, mid in enumerate(mids):
            dy, dx = divmod(k, sx)
            msg = _first_mismatch(mid, want[:, dy::sy, dx::sx])
            assert not msg, f"{where}: stride cube {k} (dx {dx}, dy {dy}): {msg}"


def test_large_strides_and_the_exact_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """nv_full: strides up to Rubik's 32 (a kernel narrower than its stride: phases of zero kernels), and the
    part of the cube outside the transposed convolution's (W-1)*sx + S by (H-1)*sy + R is what no tap
    reaches."""
    monkeypatch.setenv("CONFIG", "nv_full")
    config = configs.load()
    rng = np.random.default_rng([SEED, 99])
    print(f"seed {SEED}")
    for (w, h, c, k, kw, kh, sx, sy) in ((3, 2, 5, 3, 7, 2, 32, 1), (2, 3, 70, 33, 3, 5, 3, 7),
                                         (1, 1, 1, 1, 1, 1, 5, 3)):
        out_w, out_h = (w + -(-kw // sx) - 1) * sx, (h + -(-kh // sy) - 1) * sy
        dst = Surface(DST, out_w * 32, out_w * 32 * out_h)
        layer = DeconvLayer(w, h, c, k, kw, kh, (sx, sy), src=Surface(SRC, w * 32, w * 32 * h),
                            weight_base=WEIGHTS, mid_base=MID, dst=dst, truncate=3)
        data = rng.integers(-128, 128, (c, h, w))
        weights = rng.integers(-128, 128, (k, c, kh, kw))
        got, _ = run_deconv(layer, data, weights, config)
        assert got is not None
        want = transposed_conv(data, weights, (sx, sy), 3, (out_h, out_w))
        assert not (msg := _first_mismatch(got, want)), msg
        assert not got[:, (h - 1) * sy + kh:, :].any() and not got[:, :, (w - 1) * sx + kw:].any()


BASE = DeconvLayer(5, 3, 40, 7, 3, 3, (2, 2), src=Surface(SRC, 160, 480), weight_base=WEIGHTS, mid_base=MID,
                   dst=Surface(DST, 12 * 32, 12 * 32 * 8))


CASES = [
    pytest.param("nv_small", {}, "Deconvolution DV1:", id="DV1"),                 # no Rubik at nv_small
    pytest.param("nv_full", {"stride": (33, 1)}, "Deconvolution DV2:", id="DV2"),
    pytest.param("nv_full", {"stride": (0, 2)}, "Deconvolution DV2:", id="DV2-zero"),
    pytest.param("nv_full", {"dst": None}, "Deconvolution DV2:", id="DV2-no-output"),
    # the first stride cube over the last phase's weights (each convolution layer alone is legal)
    pytest.param("nv_full", {"mid_base": WEIGHTS + 3 * 1152}, "Deconvolution DV3:", id="DV3"),
    pytest.param("nv_full", {"dst": Surface(SRC, 12 * 32, 12 * 32 * 8)}, "Deconvolution DV3:", id="DV3-dst"),
    pytest.param("nv_full", {"width": 300, "stride": (32, 1), "src": Surface(SRC, 9600, 9600 * 3)},
                 "Rubik RB4:", id="RB4"),
    # a line shorter than W'*sx atoms
    pytest.param("nv_full", {"dst": Surface(DST, 11 * 32, 12 * 32 * 8)}, "Rubik RB7:", id="RB7"),
    pytest.param("nv_full", {"src": Surface(SRC + 4, 160, 480)}, "Convolution CV14:", id="CV14"),
    pytest.param("nv_full", {"truncate": 32}, "Convolution CV18:", id="CV18"),
]


@pytest.mark.parametrize(("config", "change", "rule"), CASES)
def test_illegal_deconvolutions_are_refused_naming_the_rule(config: str, change: dict[str, object], rule: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONFIG", config)
    with pytest.raises(ConfigError, match=rule):
        deconv_layer(dataclasses.replace(BASE, **change))


def test_program_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    """sx*sy convolution layers of the split kernel (S' = ceil(S/sx), R' = ceil(R/sy)) padded by S'-1, R'-1,
    then one contract of W' x H' x K*sx*sy with seed 001's CONTRACT_STRIDE_0/1; without a contract, the
    convolution layers alone."""
    monkeypatch.setenv("CONFIG", "nv_full")
    prog = deconv_layer(BASE)
    assert len(prog.convs) == 4 and prog.contract is not None
    conv = prog.convs[0].layers[0].fields["CSC"]
    size = conv["D_WEIGHT_SIZE_EXT_0.WEIGHT_WIDTH_EXT"], conv["D_WEIGHT_SIZE_EXT_0.WEIGHT_HEIGHT_EXT"]
    assert size == (1, 1)
    assert (conv["D_DATAOUT_SIZE_0.DATAOUT_WIDTH"], conv["D_DATAOUT_SIZE_0.DATAOUT_HEIGHT"]) == (5, 3)
    c = prog.contract
    assert (c.width, c.height, c.channels, c.out_channels) == (6, 4, 28, 7)
    assert c.strides() == (6 * 32 * 4, 2 * 12 * 32)
    assert [w.unit for w in prog.contract_writes][-1] == "RUBIK"
    monkeypatch.setenv("CONFIG", "nv_small")
    alone = deconv_layer(dataclasses.replace(BASE, contract=False, dst=None, src=Surface(SRC, 40, 120)))
    assert alone.contract is None and not alone.contract_writes and len(alone.convs) == 4


def test_every_deconvolution_rule_has_a_test() -> None:
    """docs/limitations.md's Deconvolution rows: DV1.. in order, each with a refusal case here."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "limitations.md").read_text()
    ids = [m.group(1) for m in re.finditer(r"^\| (DV\d+) \|", doc, re.M)]
    assert ids == [f"DV{i}" for i in range(1, len(ids) + 1)] and len(ids) >= 3
    cases = {p.id.split("-")[0] for p in CASES}
    assert set(ids) <= cases, f"rules without a case: {set(ids) - cases}"
