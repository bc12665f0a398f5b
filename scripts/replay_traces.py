"""Replay NVDLA trace tests: `make traces [TARGET=model|rtl] [TRACES=<dir>]`.

Finds every trace folder under the given directories (recursively; default: the in-repo nv_small family,
traces/nv_small*, or $NVDLA_TRACES): `.cfg` traces and NVIDIA's older `.txn` traceplayer ones (an
`input.txn`, models/txn.py). Replays each, prints one line per trace (name,
PASS/FAIL/SKIP, and on failure where it failed, on SKIP why) and a closing `N passed, M failed` line; exits 1
on any failure (or when no trace was found).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from models.replay import TraceResult, replay_on_model
from models.trace import default_trace_folders, find_traces, trace_roots

ROOT = Path(__file__).resolve().parent.parent


def _rtl_runner() -> Callable[[list[Path]], list[TraceResult]]:
    try:
        from tb.trace_rtl import replay_on_rtl
    except ImportError as err:
        raise SystemExit(f"the RTL trace replay is not available: {err}") from None
    return replay_on_rtl


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", type=Path, help="trace folders or trees (default: traces/nv_small*)")
    ap.add_argument("--target", choices=("model", "rtl"), default="model")
    ap.add_argument("-k", dest="keyword", default="", help="only traces whose name contains this")
    args = ap.parse_args(argv)
    roots = args.paths or trace_roots()
    if args.paths:
        folders = sorted({f for root in roots for f in find_traces(root)}, key=lambda p: p.name)
    else:
        folders = default_trace_folders()
    folders = [f for f in folders if args.keyword in f.name]
    if not folders:
        print(f"no trace folder found under {', '.join(map(str, roots))}")
        return 1
    start = time.monotonic()
    if args.target == "model":
        results = []
        for folder in folders:
            t0 = time.monotonic()
            res = replay_on_model(folder)
            _print(res, time.monotonic() - t0)
            results.append(res)
    else:
        results = _rtl_runner()(folders)
        for res in results:
            _print(res, None)
    skipped = sum(_skipped(r) for r in results)
    failed = sum(not r.passed and not _skipped(r) for r in results)
    took = time.monotonic() - start
    extra = f", {skipped} skipped" if skipped else ""
    print(f"{len(results) - failed - skipped} passed, {failed} failed{extra} ({args.target}, {took:.1f} s)")
    return 1 if failed else 0


def _skipped(res: TraceResult) -> bool:
    return not res.passed and res.message.startswith("SKIP")


def _print(res: TraceResult, seconds: float | None) -> None:
    status = "PASS" if res.passed else ("SKIP" if _skipped(res) else "FAIL")
    took = f" {seconds:6.2f}s" if seconds is not None else ""
    message = res.message.removeprefix("SKIP: ") if _skipped(res) else res.message  # the status says SKIP
    tail = f"  {message}" if message else f"  ({res.checks} checks)"
    print(f"{res.name:<44} {status}{took}{tail}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
