"""LUT precision report: sigmoid and tanh (SDP, 16-bit output) and LRN (CDP) programmed by
models/lut/program.py, hybrid configurations against one 257-entry linear table over the same range; and
sigmoid, tanh and LRN at FP16 (models/lut/fp16_program.py: FP16 data in, the unit's FP16 output) next to them.

Prints the maximum and mean error in output LSBs of 2^-15 (inside the range, and the maximum beyond it) and
writes reports/lut_<fn>.png (integer LUTs): the function and LUT outputs, which table covers which input, and
the error.

    python -m scripts.lut_report [--out DIR] [--no-png]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from models.lut import fp16_program as fp
from models.lut import program as lp
from models.lut.fp16 import fp32_value
from models.lut.model import HIT, OFLOW, TABLE_LO, UFLOW, lut_lookup

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Case:
    """One function and the configurations compared for it: (builder, is the ready-made default)."""

    name: str
    fn: lp.Fn
    configs: tuple[tuple[Callable[[], lp.LutProgram], bool], ...]
    log_x: bool = False
    fp16: tuple[tuple[Callable[[], lp.LutProgram], bool], ...] = ()
    """The same function programmed at FP16 (models/lut/fp16_program.py)."""


def cases() -> list[Case]:
    return [
        Case("sigmoid", lp.sigmoid_fn, ((lambda: lp.sigmoid(layout="lo_only"), False),
                                        (lambda: lp.sigmoid(), True),
                                        (lambda: lp.sigmoid(layout="le_density"), False)),
             fp16=((lambda: fp.sigmoid_fp16(layout="lo_only"), False), (lambda: fp.sigmoid_fp16(), True))),
        Case("tanh", lp.tanh_fn, ((lambda: lp.tanh(layout="lo_only"), False),
                                  (lambda: lp.tanh(), True),
                                  (lambda: lp.tanh(layout="le_density"), False)),
             fp16=((lambda: fp.tanh_fp16(layout="lo_only"), False), (lambda: fp.tanh_fp16(), True))),
        # the exponential LE row is the seeds' LRN layout; the default is the best the helper finds
        Case("lrn", lp.lrn_fn(), ((lambda: lp.lrn(layout="lo_only"), False),
                                  (lambda: lp.lrn(), True),
                                  (lambda: lp.lrn(le_mode="exponent"), False),
                                  (lambda: lp.lrn(layout="le_density"), False)), log_x=True,
             fp16=((lambda: fp.lrn_fp16(layout="lo_only"), False), (lambda: fp.lrn_fp16(), True))),
    ]


def label(prog: lp.LutProgram, default: bool) -> str:
    """What the configuration is, from the program itself."""
    exp = prog.fields()["S_LUT_CFG.LUT_LE_FUNCTION"] == 0
    text = {"lo_only": "single LO 257 linear",
            "le_density": "hybrid: LO raw + LE density",
            "lo_density": f"hybrid: LE {'exp' if exp else 'lin'} raw + LO density"}[prog.layout]
    return text + (" (default)" if default else "")


def _fmt(v: float) -> str:
    return f"{v:.6g}"


def describe(prog: lp.LutProgram) -> tuple[str, str]:
    """(LE, LO) coverage in input units, e.g. "lin [-16, 16] step 0.5" or "exp from 0 (2^0 +)"."""
    cfg = prog.lut_config()
    if prog.precision == "FP16":   # START/END are FP32 values of the input itself
        def span(start: int, end: int, select: int) -> str:
            return f"lin [{_fmt(fp32_value(start))}, {_fmt(fp32_value(end))}] step {_fmt(2.0 ** select)}"
        lo = span(cfg.lo_start, cfg.lo_end, cfg.lo_index_select)
        le = span(cfg.le_start, cfg.le_end, cfg.le_index_select)
        return ("(never taken)" if prog.layout == "lo_only" else le), lo
    s = prog.in_scale
    lo = f"lin [{_fmt(cfg.lo_start / s)}, {_fmt(cfg.lo_end / s)}] step {_fmt(2.0 ** cfg.lo_index_select / s)}"
    if prog.layout == "lo_only":
        return "(never taken)", lo
    if cfg.le_function == 0:
        le = f"exp from {_fmt((cfg.le_start + 2 ** cfg.le_index_offset) / s)}, octaves"
    else:
        le = (f"lin [{_fmt(cfg.le_start / s)}, {_fmt(cfg.le_end / s)}] "
              f"step {_fmt(2.0 ** cfg.le_index_select / s)}")
    return le, lo


def _table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    fmt = "| " + " | ".join(f"{{:{w}}}" for w in widths) + " |"
    out = [line, fmt.format(*header), line.replace("-", "=")]
    out += [fmt.format(*r) for r in rows]
    out.append(line)
    return "\n".join(out)


def _plot_inputs(prog: lp.LutProgram, log_x: bool, n: int = 40000) -> np.ndarray:
    """Integer LUT inputs for the plots: the error report's span, evenly or log-spaced."""
    full = lp.default_samples(prog)
    a, b = int(full[0]), int(full[-1])
    if log_x:
        pts = np.concatenate([[a], a + np.geomspace(1, max(b - a, 1), n)])
    else:
        pts = np.linspace(a, b, n)
    return np.unique(lp.round_to_int(pts))


def _envelope(x: np.ndarray, err: np.ndarray, bins: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """(bin centre, max error) over `bins` consecutive groups of samples."""
    groups = np.array_split(np.arange(x.size), min(bins, x.size))
    centre = np.array([x[g].mean() for g in groups])
    return centre, np.array([err[g].max() for g in groups])


def _plot(case: Case, progs: list[tuple[str, lp.LutProgram]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    base = progs[0][1]
    x = _plot_inputs(base, case.log_x)
    xr = x / base.in_scale
    fig, axes = plt.subplots(3, 1, figsize=(10, 10), sharex=True,
                             gridspec_kw={"height_ratios": [3, 1.4, 2]})
    ax_f, ax_c, ax_e = axes
    ref = np.asarray(case.fn(xr), dtype=np.float64)
    ax_f.plot(xr, ref, "k-", lw=2.5, alpha=0.35, label="float")
    top = 1.0
    for text, prog in progs:
        out, _, err = lp.lut_error(prog, case.fn, x)
        ax_f.plot(xr, out / prog.out_scale, lw=1, label=text)
        # The error oscillates entry by entry: its envelope (max per bin) is what reads.
        centre, peak = _envelope(xr, err)
        top = max(top, float(np.max(peak)))
        ax_e.plot(centre, peak, lw=1, drawstyle="steps-mid", label=text)
    ax_f.set_ylabel("f(x)")
    ax_f.legend(loc="best", fontsize=8)
    ax_f.set_title(f"{case.name}: LUT ({base.unit}) against float")
    # Coverage: one strip per configuration, coloured by the table and state the lookup took.
    colours = {"LE hit": "tab:blue", "LO hit": "tab:orange", "underflow": "tab:gray", "overflow": "tab:red"}
    for row, (_label, prog) in enumerate(progs):
        res = lut_lookup(x, prog.lut_config())
        state = np.where(res.uflow, UFLOW, np.where(res.oflow, OFLOW, HIT))
        hit = np.where(res.table == TABLE_LO, "LO hit", "LE hit")
        kinds = np.where(state == UFLOW, "underflow", np.where(state == OFLOW, "overflow", hit))
        for kind, colour in colours.items():
            sel = kinds == kind
            ax_c.scatter(xr[sel], np.full(int(sel.sum()), row), s=4, c=colour, marker="|",
                         label=kind if row == 0 else None)
    ax_c.set_yticks(range(len(progs)), [lbl for lbl, _ in progs], fontsize=7)
    ax_c.set_ylim(-0.6, len(progs) - 0.4)
    ax_c.legend(loc="upper right", fontsize=7, ncol=4, markerscale=3)
    ax_c.set_title("table taken per input", fontsize=9)
    ax_e.set_ylabel("|error| (output LSB)")
    ax_e.set_yscale("symlog", linthresh=1.0)
    ax_e.set_ylim(0, top * 2)   # errors are magnitudes: no negative half of the symlog axis
    ax_e.axvspan(base.x_min, base.x_max, color="green", alpha=0.05, label="range")
    ax_e.legend(loc="best", fontsize=8)
    ax_e.set_xlabel("x (LUT input / in_scale)")
    if case.log_x:
        ax_e.set_xscale("symlog", linthresh=max(1.0 / base.in_scale, 1e-9))
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run(out_dir: Path | None) -> tuple[str, list[Path]]:
    """The report table and the PNGs written (none when out_dir is None)."""
    header = ["function", "unit", "data", "configuration", "LE", "LO", "max err LSB", "mean err LSB",
              "max beyond LSB"]
    rows: list[list[str]] = []
    written: list[Path] = []
    for case in cases():
        progs = [(label(p, default), p) for p, default in ((build(), d) for build, d in case.configs)]
        base = progs[0][1]
        samples = lp.default_samples(base)
        for text, prog in progs:
            rep = lp.error_report(prog, case.fn, samples)
            le, lo = describe(prog)
            rows.append([case.name, prog.unit, "INT16", text, le, lo, f"{rep.max_lsb:.2f}",
                         f"{rep.mean_lsb:.3f}", f"{rep.beyond_max_lsb:.2f}"])
        for build, default in case.fp16:
            prog = build()
            rep = fp.error_report(prog, case.fn)
            le, lo = describe(prog)
            rows.append([case.name, prog.unit, "FP16", label(prog, default), le, lo, f"{rep.max_lsb:.2f}",
                         f"{rep.mean_lsb:.3f}", f"{rep.beyond_max_lsb:.2f}"])
        if out_dir is not None:
            path = out_dir / f"lut_{case.name}.png"
            _plot(case, progs, path)
            written.append(path)
    text = _table(rows, header)
    notes = ("errors: |LUT output - f(x) * out_scale| over integer LUT inputs; range = the programmed "
             "[x_min, x_max], beyond = 25% of its width past either end (inside the function's domain); "
             "out_scale 2^15 (16-bit entries).\n"
             "FP16 rows: the same spans, every FP16 input (SDP) or 2^18 FP32 square sums (CDP), the unit's "
             "FP16 output (LUT in FP17; SDP widens it to FP32 first) against f(x), in the same units of "
             "2^-15: an FP16 ulp near 1 is 16 of them, and the LUT's FP17 arithmetic keeps 11 significant "
             "bits.")
    return text + "\n" + notes, written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "reports", help="directory for the PNGs")
    ap.add_argument("--no-png", action="store_true", help="print the table only")
    args = ap.parse_args(argv)
    text, written = run(None if args.no_png else args.out)
    print(text)
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
