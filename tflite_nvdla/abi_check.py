"""The start-up check of tflite_nvdla.litert_abi's declarations against the running LiteRT.

Everything the delegate reads through a declared field is first compared with what the .tflite file says
(tensor count, each tensor's name, type, shape, byte size and quantization; per node its operator code, inputs
and outputs), and the sizes of TfLiteNode and TfLiteRegistration (which LiteRT copies by value) are measured
from the addresses LiteRT hands out: its nodes and registrations live in one array of (node, registration)
pairs. Function pointers are called only once they point into a loaded library. A LiteRT upgrade that moves
a field fails here with the field's name.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any

import numpy as np

from tflite_nvdla import litert_abi as abi
from tflite_nvdla.reader import ModelInfo

# schema TensorType -> TfLiteType (the two enums differ: FLOAT32 is 0 in the file, 1 in the runtime)
TFLITE_TYPE = {0: 1, 1: 10, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 11, 11: 12, 12: 13, 13: 14,
               14: 15, 15: 16, 16: 17, 17: 18}


def _fail(what: str) -> abi.AbiMismatch:
    return abi.AbiMismatch(f"LiteRT's delegate ABI differs from tflite_nvdla/litert_abi.py ({what}); the "
                           "declarations need updating for this LiteRT")


def subgraph_of(ctx: abi.TfLiteContext, models: Sequence[ModelInfo]) -> int:
    """Which of the file's subgraphs a context is (LiteRT prepares the delegate once per subgraph). Kernels
    may have added tensors of their own (temporaries) after the file's: those are not compared."""
    if not ctx.tensors:
        raise _fail("TfLiteContext.tensors is null")
    count = ctx.tensors_size
    for index, model in enumerate(models):
        if len(model.tensors) > count:
            continue
        if all((ctx.tensors[i].name or b"").decode("utf-8", "replace") == t.name
               for i, t in enumerate(model.tensors)):
            return index
    sizes = [len(m.tensors) for m in models]
    raise _fail(f"the context has {count} tensors whose names match no subgraph of the model "
                f"(subgraphs have {sizes} tensors)")


def _check_tensors(ctx: abi.TfLiteContext, model: ModelInfo) -> None:
    for t in model.tensors:
        lt = ctx.tensors[t.index]
        expected_type = TFLITE_TYPE.get(t.dtype)
        if expected_type is not None and lt.type != expected_type:
            raise _fail(f"tensor {t.index} {t.name!r}: TfLiteTensor.type reads {lt.type}, the file says "
                        f"{t.type_name} ({expected_type})")
        shape = abi.tensor_shape(lt)
        if shape != tuple(t.shape):
            raise _fail(f"tensor {t.index} {t.name!r}: TfLiteTensor.dims reads {shape}, the file says "
                        f"{t.shape}")
        if lt.type in abi.NUMPY_TYPES:
            size = int(np.dtype(abi.NUMPY_TYPES[lt.type]).itemsize * np.prod(shape, dtype=np.int64))
            if lt.bytes != size:
                raise _fail(f"tensor {t.index} {t.name!r}: TfLiteTensor.bytes reads {lt.bytes}, {shape} "
                            f"elements make {size}")
        if t.scales:
            scales, zps, _ = abi.tensor_quantization(lt)
            if len(scales) != len(t.scales) or not np.allclose(scales, t.scales, rtol=1e-6, atol=0):
                raise _fail(f"tensor {t.index} {t.name!r}: TfLiteTensor.quantization reads scales "
                            f"{scales[:4]}, the file says {t.scales[:4]}")
            if list(zps) != list(t.zero_points):
                raise _fail(f"tensor {t.index} {t.name!r}: zero points read {zps[:4]}, the file says "
                            f"{t.zero_points[:4]}")


def check_layout(ctx_ptr: Any, model: ModelInfo) -> list[int]:
    """Check the declared layout on this context; returns the execution plan's nodes that are the file's
    operators (indices into model.operators)."""
    ctx = ctx_ptr.contents
    if ctx.tensors_size < len(model.tensors):
        raise _fail(f"TfLiteContext.tensors_size reads {ctx.tensors_size}, the subgraph has "
                    f"{len(model.tensors)} tensors")
    _check_tensors(ctx, model)
    for name in ("GetExecutionPlan", "GetNodeAndRegistration", "ReplaceNodeSubsetsWithDelegateKernels",
                 "ReportError"):
        if not abi.in_loaded_library(abi.function_address(getattr(ctx, name))):
            raise _fail(f"TfLiteContext.{name} does not point into a loaded library")
    plan_ptr = ctypes.POINTER(abi.TfLiteIntArray)()
    if ctx.GetExecutionPlan(ctx_ptr, ctypes.byref(plan_ptr)) != abi.K_OK or not plan_ptr:
        raise _fail("GetExecutionPlan failed")
    plan = plan_ptr.contents.values()
    nodes: list[int] = []
    addresses: list[tuple[int, int]] = []
    for index in plan:
        node_ptr = ctypes.POINTER(abi.TfLiteNode)()
        reg_ptr = ctypes.POINTER(abi.TfLiteRegistration)()
        status = ctx.GetNodeAndRegistration(ctx_ptr, index, ctypes.byref(node_ptr), ctypes.byref(reg_ptr))
        if status != abi.K_OK:
            raise _fail(f"GetNodeAndRegistration({index}) failed")
        addresses.append((index, ctypes.addressof(node_ptr.contents), ctypes.addressof(reg_ptr.contents)))
        if index >= len(model.operators):
            continue   # a node an earlier delegate created: not one of the file's operators
        op, node, reg = model.operators[index], node_ptr.contents, reg_ptr.contents
        if reg.builtin_code != op.code:
            raise _fail(f"node {index}: TfLiteRegistration.builtin_code reads {reg.builtin_code}, the file "
                        f"says {op.code} ({op.name})")
        ins = node.inputs.contents.values() if node.inputs else []
        outs = node.outputs.contents.values() if node.outputs else []
        if list(ins) != list(op.inputs) or list(outs) != list(op.outputs):
            raise _fail(f"node {index} ({op.name}): TfLiteNode reads inputs {ins} outputs {outs}, the file "
                        f"says {list(op.inputs)} {list(op.outputs)}")
        nodes.append(index)
    node_size, reg_size = ctypes.sizeof(abi.TfLiteNode), ctypes.sizeof(abi.TfLiteRegistration)
    for _, node_addr, reg_addr in addresses:
        if reg_addr - node_addr != node_size:
            raise _fail(f"the registration follows its node at {reg_addr - node_addr} bytes: "
                        f"sizeof(TfLiteNode) is declared {node_size}")
    for (i, a, _), (j, b, _) in zip(addresses, addresses[1:], strict=False):
        if b - a != (j - i) * (node_size + reg_size):
            raise _fail(f"nodes {i} and {j} lie {b - a} bytes apart: sizeof(TfLiteRegistration) is declared "
                        f"{reg_size}")
    return nodes
