"""A whole model with NVDLA in the loop: the same inputs through LiteRT alone and through LiteRT with the
NVDLA delegate, in a child process (LiteRT aborts the process on some models: that must be a clear error).

The CPU run keeps every tensor (experimental_preserve_all_tensors; resource handles are never read), so each
delegated operator's output can be compared with the CPU's tensor of the same invoke: the drift table. A
stream (an input file with one more leading axis than the model's input) is one invoke per entry, in order,
on one interpreter each, so stateful models carry their state as they do in use.
"""

from __future__ import annotations

import multiprocessing
import warnings
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from tflite_nvdla.delegate import Decision, LayerRun
from tflite_nvdla.hw_plan import run_plan
from tflite_nvdla.litert_run import KERNELS, handle_tensors, kept_tensors
from tflite_nvdla.mapping import as_tensor, map_operator, operator_inputs
from tflite_nvdla.reader import TfliteFileError, parse, subgraph_count

__all__ = ["KERNELS", "WholeRun", "load_inputs", "run_whole"]


@dataclass
class OutputInfo:
    index: int
    name: str
    scale: float
    zero_point: int


@dataclass
class WholeRun:
    decisions: list[Decision]
    layers: list[LayerRun]
    layout_checks: list[str]
    outputs: list[OutputInfo]
    cpu_outputs: list[list[NDArray[Any]]]        # per invoke, per graph output
    nvdla_outputs: list[list[NDArray[Any]]]
    cpu_tensors: list[dict[int, NDArray[Any]]]   # per invoke: the CPU's value of each delegated output
    errors: list[str] = field(default_factory=list)
    isolated: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Per layer run (index into layers): (exact elements, max LSB) of the operator's layers on the CPU run's
    own inputs: its own error, without what earlier delegated layers passed on."""


def load_inputs(path: Path | None, details: list[dict[str, Any]], seed: int) -> list[dict[int, NDArray[Any]]]:
    """Per invoke, per input tensor: the values. A .npy file feeds a one-input model, a .npz one array per
    input (named as the input tensor, or "0", "1", ... in input order); each array has the input's shape
    (one invoke) or one more leading axis (a stream of invokes); float values are quantized with the input's
    scale and zero point (numpy's rounding, as pymicro-wakeword does). Without a file: one invoke of seeded
    random values."""
    if path is None:
        rng = np.random.default_rng(seed)
        feed = {}
        for d in details:
            dtype = d["dtype"]
            if np.issubdtype(dtype, np.integer):
                info = np.iinfo(dtype)
                feed[d["index"]] = rng.integers(info.min, info.max + 1, d["shape"]).astype(dtype)
            else:
                feed[d["index"]] = rng.standard_normal(d["shape"]).astype(dtype)
        return [feed]
    try:
        loaded = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as err:
        raise TfliteFileError(f"cannot read {path} as a .npy / .npz array: {err}") from None
    if isinstance(loaded, np.ndarray):
        if len(details) != 1:
            raise TfliteFileError(f"{path}: one array (.npy) for a model of {len(details)} inputs (use .npz)")
        arrays = [loaded]
    else:
        arrays = []
        for k, d in enumerate(details):
            key = d["name"] if d["name"] in loaded.files else str(k)
            if key not in loaded.files:
                raise TfliteFileError(f"{path}: no array {d['name']!r} (or {k!r}); it has {loaded.files}")
            arrays.append(loaded[key])
    streams = [_stream(path, a, d) for a, d in zip(arrays, details, strict=True)]
    if len({len(s) for s in streams}) != 1:
        raise TfliteFileError(f"{path}: the inputs' streams differ in length ({[len(s) for s in streams]})")
    return [{d["index"]: s[n] for s, d in zip(streams, details, strict=True)} for n in range(len(streams[0]))]


def _stream(path: Path, data: NDArray[Any], d: dict[str, Any]) -> NDArray[Any]:
    shape = tuple(int(n) for n in d["shape"])
    if data.shape == shape:
        data = data[None]
    elif data.shape[1:] != shape:
        raise TfliteFileError(f"{path}: shape {data.shape}; the input {d['name']!r} is {shape} (or N x "
                              f"{shape})")
    dtype = np.dtype(d["dtype"])
    if np.issubdtype(data.dtype, np.floating) and np.issubdtype(dtype, np.integer):
        scale, zp = d["quantization"]
        info = np.iinfo(dtype)
        data = np.clip(np.round(data / scale + zp), info.min, info.max)
    return np.asarray(data).astype(dtype)


def run_whole(model: Path, input_file: Path | None, seed: int, kernels: str, keep_plans: bool) -> WholeRun:
    count = subgraph_count(_read_bytes(model))
    for s in range(max(count, 1)):   # the file read here first: a corrupt one is named by the reader
        parse(_read_bytes(model), s)
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        try:
            return pool.submit(_run, model, input_file, seed, kernels, keep_plans).result()
        except BrokenProcessPool:
            raise TfliteFileError("LiteRT aborted while loading or running the model (its own check failed; "
                                  "run the model with LiteRT alone to see which)") from None


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise TfliteFileError(f"cannot read {path}: {err.strerror}") from None


def _interpreter(model: Path, kernels: str, **kwargs: Any) -> Any:
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    resolver = (OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES if kernels == "builtin"
                else OpResolverType.BUILTIN_REF)
    try:
        interp = Interpreter(model_path=str(model), experimental_op_resolver_type=resolver, **kwargs)
        interp.allocate_tensors()
    except (ValueError, RuntimeError) as err:
        raise TfliteFileError(f"LiteRT refuses the model: {' '.join(str(err).split())}") from None
    return interp


def _run(model: Path, input_file: Path | None, seed: int, kernels: str, keep_plans: bool) -> WholeRun:
    from tflite_nvdla.delegate import NvdlaDelegate

    warnings.filterwarnings("ignore", message=".*experimental_preserve_all_tensors.*")
    cpu = _interpreter(model, kernels, experimental_preserve_all_tensors=True)
    feeds = load_inputs(input_file, cpu.get_input_details(), seed)
    delegate = NvdlaDelegate(model, keep_plans=keep_plans)
    try:
        nvdla = _interpreter(model, kernels, experimental_delegates=[delegate])
    except TfliteFileError as err:
        if delegate.errors:
            raise TfliteFileError(f"the NVDLA delegate failed: {delegate.errors[0]}") from None
        raise err
    outputs = [OutputInfo(d["index"], d["name"], *d["quantization"]) for d in cpu.get_output_details()]
    wanted = _delegated_tensors(delegate)
    skip = handle_tensors(model)
    run = WholeRun(delegate.decisions, [], delegate.layout_checks, outputs, [], [], [])
    for k, feed in enumerate(feeds):
        for interp in (cpu, nvdla):
            for index, value in feed.items():
                interp.set_tensor(index, value)
        cpu.invoke()
        delegate.invoke_index = k
        try:
            nvdla.invoke()
        except RuntimeError as err:
            raise TfliteFileError(f"invoke {k} with the NVDLA delegate failed: {' '.join(str(err).split())}"
                                  ) from None
        values = kept_tensors(cpu, skip | frozenset(i for i in range(len(cpu.get_tensor_details()))
                                                    if i not in wanted))
        run.cpu_tensors.append(values)
        for n in range(len(run.isolated), len(delegate.layers)):
            figures = _isolated(delegate, delegate.layers[n], values)
            if figures is not None:
                run.isolated[n] = figures
        run.cpu_outputs.append([np.array(cpu.get_tensor(o.index)) for o in outputs])
        run.nvdla_outputs.append([np.array(nvdla.get_tensor(o.index)) for o in outputs])
    run.layers = delegate.layers
    run.errors = delegate.errors
    return run


def _delegated_tensors(delegate: Any) -> set[int]:
    """The first subgraph's tensors a delegated operator reads or writes (the drift table's)."""
    model = delegate.models[0]
    out: set[int] = set()
    for d in delegate.delegated():
        if d.subgraph == 0:
            op = model.operators[d.node]
            out |= {op.outputs[0], *operator_inputs(model, op)}
    return out


def _isolated(delegate: Any, layer: LayerRun, values: dict[int, NDArray[Any]]) -> tuple[int, int] | None:
    """The operator's layers on the CPU run's inputs, against the CPU run's output."""
    if layer.subgraph != 0 or layer.output_tensor not in values:
        return None
    model = delegate.models[0]
    op = model.operators[layer.op_index]
    inputs = [values.get(i) for i in operator_inputs(model, op)]
    if any(v is None for v in inputs):
        return None
    mapped = map_operator(model, op, inputs)
    actual = as_tensor(run_plan(delegate.target(), mapped.plan), model.tensors[layer.output_tensor])
    expected = values[layer.output_tensor]
    diff = np.abs(actual.reshape(expected.shape).astype(np.int64) - expected.astype(np.int64))
    return int(np.count_nonzero(diff == 0)), int(diff.max(initial=0))
