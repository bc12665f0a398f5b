"""NVIDIA's nv_full RTL as the golden reference: the project's random programs (traces/nv_full_ref, made by
scripts/gen_ref_programs.py and played on NVIDIA's RTL with ../shared/nvdla-ref) replay bit-exact on the
model, one test per program. A program listed in traces/nv_full_ref/known_differences.tsv (name, reason)
is expected to fail, strictly: once the model matches it, the list must lose it. Generated programs NVIDIA's
RTL never finished are listed, with the reason, in traces/nv_full_ref/not_stored.tsv."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.replay import replay_on_own_config

REF = Path(__file__).resolve().parents[2] / "traces" / "nv_full_ref"
GOLDEN = "output.dat"


def _listed(name: str) -> dict[str, str]:
    """program -> reason, from a two-column list beside the data."""
    path = REF / name
    if not path.is_file():
        return {}
    rows = [line.split("\t") for line in path.read_text().splitlines() if line and not line.startswith("#")]
    return {row[0]: row[1] for row in rows}


FOLDERS = sorted((p.parent for p in REF.rglob("input.txn")), key=lambda p: p.name)
DIFFER = _listed("known_differences.tsv")
NOT_STORED = _listed("not_stored.tsv")


def _param(folder: Path) -> object:
    reason = DIFFER.get(folder.name)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(folder, id=folder.name, marks=marks)


@pytest.mark.skipif(not FOLDERS, reason=f"no programs under {REF}")
@pytest.mark.parametrize("folder", [_param(f) for f in FOLDERS])
def test_program_matches_nvidia_rtl(folder: Path) -> None:
    res = replay_on_own_config(folder)
    if res.message.startswith("SKIP"):   # a unit the model does not have yet (the convolution programs)
        pytest.skip(res.message)
    assert res.passed, res.message


def test_every_program_has_nvidia_output_and_the_lists_name_programs() -> None:
    assert all((f / GOLDEN).is_file() for f in FOLDERS), "a program without NVIDIA's output.dat"
    names = {f.name for f in FOLDERS}
    assert set(DIFFER) <= names, f"known differences name no program: {sorted(set(DIFFER) - names)}"
    assert not set(NOT_STORED) & names, "a program both stored and listed as not stored"


def test_every_generated_program_is_stored_or_listed() -> None:
    """Programs are numbered from 0 per (unit, seed): none may go missing without a reason."""
    names = {f.name for f in FOLDERS} | set(NOT_STORED)
    series: dict[str, int] = {}
    for name in names:
        prefix, _, index = name.rpartition("_")
        series[prefix] = max(series.get(prefix, -1), int(index))
    expected = {f"{p}_{i:03d}" for p, top in series.items() for i in range(top + 1)}
    missing = sorted(expected - names)
    assert not missing, f"generated programs neither stored nor listed in not_stored.tsv: {missing}"


@pytest.mark.parametrize("unit, least", [("pdp", 50), ("sdp", 50), ("cdp", 40), ("sdplut", 30)])
def test_each_unit_has_its_int16_programs(unit: str, least: int) -> None:
    found = [f for f in FOLDERS if f.parent.name == "int16" and f.name.startswith(f"{unit}_")]
    assert len(found) >= least, f"{len(found)} INT16 {unit} programs under {REF}, expected >= {least}"


@pytest.mark.parametrize("folder, unit, least", [
    ("int8", "pdppad8", 80), ("int8", "cdprange8", 60),
    ("int16", "pdppad", 100), ("int16", "cdprange", 40), ("int16", "pdpsplit", 60),
])
def test_each_whole_range_family_has_its_programs(folder: str, unit: str, least: int) -> None:
    """Register values over their whole legal ranges (docs/pdp_arithmetic.md, docs/lut.md, P10)."""
    found = [f for f in FOLDERS if f.parent.name == folder and f.name.startswith(f"{unit}_s")]
    assert len(found) >= least, f"{len(found)} {unit} programs under {REF / folder}, expected >= {least}"


@pytest.mark.parametrize("folder", ["int8", "int16", "fp16"])
def test_width_programs_at_each_precision(folder: str) -> None:
    """PDP bands exactly as wide as NVIDIA's line buffer holds (docs/limitations.md P3): 36 a precision."""
    found = [f for f in FOLDERS if f.parent.name == folder and f.name.startswith("pdpwidth_s")]
    assert len(found) >= 36, f"{len(found)} pdpwidth programs under {REF / folder}, expected >= 36"


def _about(folder: Path) -> dict[str, str]:
    """The `# key = value` comments the generator wrote into a program's input.txn."""
    text = (folder / "input.txn").read_text()
    lines = [line[2:] for line in text.splitlines() if line.startswith("# ") and " = " in line]
    return dict(line.split(" = ", 1) for line in lines)


def test_width_programs_sit_exactly_at_the_maximum_flying_width() -> None:
    """Each pdpwidth program's widest band is the model's limit for its kernel height and vertical stride at
    nv_full (so a model allowing one column more, or one less, fails here as well as in the replay), and the
    series covers 1, 2, 3, 4, 5 and 8 output rows in flight."""
    from models import configs

    cfg = configs.load("nv_full")
    rows_seen = set()
    progs = [f for f in FOLDERS if f.name.startswith("pdpwidth_s")]
    assert progs, f"no pdpwidth programs under {REF}"
    for folder in progs:
        about = _about(folder)
        kh = int(about["kernel"].split("x")[1])
        sh = int(about["stride"].split("x")[1])
        widest = max(int(w) for w in about["band_out_widths"].split(","))
        assert widest == cfg.pdp_band_width(kh, sh) == int(about["max_band_width"]), (
            f"{folder.name}: widest band {widest}, model's limit {cfg.pdp_band_width(kh, sh)} for "
            f"kernel_h {kh} stride_y {sh}, recorded {about['max_band_width']}")
        rows_seen.add(int(about["rows_in_flight"]))
    assert {1, 2, 3, 4, 5, 8} <= rows_seen, f"rows in flight covered: {sorted(rows_seen)}"


def test_conv_programs() -> None:
    """INT8 direct convolution on NVIDIA's RTL with its convolution core (issue 27 deliverable 6): at least
    200, over every kind of scripts/ref_programs/conv.py (the kind is the program index modulo the kinds)."""
    from scripts.ref_programs.conv import KINDS

    found = [f for f in FOLDERS if f.parent.name == "conv" and f.name.startswith("conv_s")]
    if not (REF / "conv").is_dir():
        pytest.skip(f"{REF / 'conv'} not there yet: NVIDIA's outputs of the conv series are still to be run "
                    "(docs/conv_configs.md, 'Running the series')")
    assert len(found) >= 200, f"{len(found)} conv programs under {REF / 'conv'}, expected >= 200"
    kinds = {_about(f)["kind"] for f in found}
    assert kinds == set(KINDS), f"conv kinds stored: {sorted(kinds)}, generator's: {sorted(KINDS)}"


@pytest.mark.parametrize("unit, least", [("pdpfp16", 100), ("sdpfp16", 100), ("cdpfp16", 60),
                                           ("sdplutfp16", 40), ("sdpcvt", 40)])
def test_each_unit_has_its_fp16_programs(unit: str, least: int) -> None:
    found = [f for f in FOLDERS if f.parent.name == "fp16" and f.name.startswith(f"{unit}_")]
    assert len(found) >= least, f"{len(found)} FP16 {unit} programs under {REF}, expected >= {least}"


def test_generator_is_reproducible(tmp_path: Path) -> None:
    """Same seed, same programs (a subprocess: the generator sets $CONFIG=nv_full for its drivers)."""
    import subprocess
    import sys

    root = REF.parents[1]
    texts = []
    for run in ("a", "b"):
        out = tmp_path / run
        for unit in ("pdp", "sdp", "cdp"):
            subprocess.run([sys.executable, "-m", "scripts.gen_ref_programs", "generate", "--unit", unit,
                            "--count", "2", "--seed", "7", "--out", str(out)],
                           check=True, capture_output=True, cwd=root)
        texts.append({p.relative_to(out): p.read_text() for p in sorted(out.rglob("*")) if p.is_file()})
    assert texts[0] == texts[1] and len(texts[0]) >= 12
    assert all("# seed = 7" in t for p, t in texts[0].items() if p.name == "input.txn")


RUBIK_MODES = ("CONTRACT", "SPLIT", "MERGE")


def test_rubik_programs_cover_the_modes_precisions_and_strides() -> None:
    """traces/nv_full_ref/rubik (docs/rubik.md): >= 300 programs, every mode at every precision (>= 30 each),
    contract deconvolution strides 1..32 in x and in y."""
    progs = [_about(f) for f in FOLDERS if f.parent.name == "rubik"]
    assert len(progs) >= 300, f"{len(progs)} Rubik programs under {REF / 'rubik'}, expected >= 300"
    for mode in RUBIK_MODES:
        for precision in ("INT8", "INT16", "FP16"):
            n = sum(1 for a in progs if a["mode"] == mode and a["precision"] == precision)
            assert n >= 30, f"{n} Rubik {mode} {precision} programs, expected >= 30"
    strides = [tuple(int(v) for v in a["deconv_stride"].split("x")) for a in progs if a["mode"] == "CONTRACT"]
    assert {s[0] for s in strides} >= set(range(1, 33)) and {s[1] for s in strides} >= set(range(1, 33))
