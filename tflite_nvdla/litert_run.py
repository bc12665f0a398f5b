"""The same model on LiteRT's interpreter, every tensor kept (experimental_preserve_all_tensors)."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from tflite_nvdla.reader import TfliteFileError

# builtin: LiteRT's default CPU kernels without the XNNPACK delegate (which would replace them);
# reference: TFLite's reference kernels
KERNELS = ("builtin", "reference")


def run_litert(path: Path, seed: int, kernels: str = "reference") -> dict[int, NDArray[np.generic]]:
    """Every tensor's value after one inference on random inputs (int8 uniform; float normal), computed in a
    child process: LiteRT aborts the whole process on some models (a failed TFLITE_CHECK), which must
    become a clear error, not a dead command."""
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        try:
            return pool.submit(_run, path, seed, kernels).result()
        except BrokenProcessPool:
            raise TfliteFileError("LiteRT aborted while loading or running the model (its own check "
                                  "failed; run the model with LiteRT alone to see which)") from None


def _run(path: Path, seed: int, kernels: str) -> dict[int, NDArray[np.generic]]:
    import warnings

    warnings.filterwarnings("ignore", message=".*experimental_preserve_all_tensors.*")
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    resolver = (OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES if kernels == "builtin"
                else OpResolverType.BUILTIN_REF)
    try:
        interp = Interpreter(model_path=str(path), experimental_preserve_all_tensors=True,
                             experimental_op_resolver_type=resolver)
        interp.allocate_tensors()
    except (ValueError, RuntimeError) as err:
        raise TfliteFileError(f"LiteRT cannot load the model: {' '.join(str(err).split())}") from None
    rng = np.random.default_rng(seed)
    for detail in interp.get_input_details():
        shape, dtype = detail["shape"], detail["dtype"]
        if np.issubdtype(dtype, np.integer):
            info = np.iinfo(dtype)
            value = rng.integers(info.min, info.max + 1, shape).astype(dtype)
        else:
            value = rng.standard_normal(shape).astype(dtype)
        interp.set_tensor(detail["index"], value)
    interp.invoke()
    return kept_tensors(interp, handle_tensors(path))


def handle_tensors(path: Path) -> frozenset[int]:
    """The first subgraph's resource / variant tensors: handles whose "value" LiteRT aborts on reading."""
    from tflite_nvdla.reader import read

    return frozenset(t.index for t in read(path).tensors if t.is_handle)


def kept_tensors(interp: Any, skip: frozenset[int]) -> dict[int, NDArray[np.generic]]:
    """Every readable tensor's value after an invoke (experimental_preserve_all_tensors), handles skipped."""
    values: dict[int, NDArray[np.generic]] = {}
    for detail in interp.get_tensor_details():
        if detail["index"] in skip:
            continue
        try:
            values[detail["index"]] = np.array(interp.get_tensor(detail["index"]))
        except ValueError:
            continue  # tensors without data (none in these models, but a delegate could leave some)
    return values
