"""Writes small .tflite files: a graph described as tensors and operators, serialized with the `tflite`
package's flatbuffer builders (the schema's own generated code, so the files are what TFLite reads)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import flatbuffers
import numpy as np
import tflite
from flatbuffers.builder import Builder

# tflite.TensorType values used here
INT8, FLOAT32, INT32 = 9, 0, 2
_NUMPY_TYPES = {INT8: np.int8, FLOAT32: np.float32, INT32: np.int32}
SCHEMA_VERSION = 3

OptionsWriter = Callable[[Builder], int]


@dataclass
class TensorSpec:
    name: str
    shape: tuple[int, ...]
    dtype: int = INT8
    scales: tuple[float, ...] = ()
    zero_points: tuple[int, ...] = ()
    quantized_dimension: int = 0
    data: np.ndarray | None = None
    """Constant contents (weights, PReLU alpha); None for activations."""


@dataclass
class OpSpec:
    code: int
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    options_type: int = 0
    options: OptionsWriter | None = None
    version: int = 2
    """The operator code's version: 2 (int8) for most; LiteRT's reference resolver registers some int8
    kernels (PRELU) at version 1 only."""


@dataclass
class Graph:
    """One subgraph: tensors by index, operators in execution order, graph inputs and outputs."""

    tensors: list[TensorSpec] = field(default_factory=list)
    ops: list[OpSpec] = field(default_factory=list)
    inputs: list[int] = field(default_factory=list)
    outputs: list[int] = field(default_factory=list)

    def tensor(self, spec: TensorSpec) -> int:
        self.tensors.append(spec)
        return len(self.tensors) - 1

    def op(self, spec: OpSpec) -> None:
        self.ops.append(spec)


def _vector(b: Builder, start: Callable[[Builder, int], None], values: Sequence[int | float],
            prepend: Callable[[int | float], None]) -> int:
    start(b, len(values))
    for v in reversed(values):
        prepend(v)
    return b.EndVector()


def _quantization(b: Builder, t: TensorSpec) -> int | None:
    if not t.scales:
        return None
    scale = _vector(b, tflite.QuantizationParametersStartScaleVector, t.scales, b.PrependFloat32)
    zps = _vector(b, tflite.QuantizationParametersStartZeroPointVector, t.zero_points, b.PrependInt64)
    tflite.QuantizationParametersStart(b)
    tflite.QuantizationParametersAddScale(b, scale)
    tflite.QuantizationParametersAddZeroPoint(b, zps)
    tflite.QuantizationParametersAddQuantizedDimension(b, t.quantized_dimension)
    return tflite.QuantizationParametersEnd(b)


def _buffer(b: Builder, data: np.ndarray | None, at: tuple[int, int] | None = None) -> int:
    """A buffer with its bytes inline, or (at = (offset, size)) naming bytes stored after the flatbuffer."""
    raw = None
    if data is not None and at is None:
        raw = b.CreateByteVector(np.ascontiguousarray(data).tobytes())
    tflite.BufferStart(b)
    if raw is not None:
        tflite.BufferAddData(b, raw)
    if at is not None:
        tflite.BufferAddOffset(b, at[0])
        tflite.BufferAddSize(b, at[1])
    return tflite.BufferEnd(b)


def _tensor(b: Builder, t: TensorSpec, buffer_index: int) -> int:
    name = b.CreateString(t.name)
    shape = _vector(b, tflite.TensorStartShapeVector, t.shape, b.PrependInt32)
    quant = _quantization(b, t)
    tflite.TensorStart(b)
    tflite.TensorAddShape(b, shape)
    tflite.TensorAddType(b, t.dtype)
    tflite.TensorAddBuffer(b, buffer_index)
    tflite.TensorAddName(b, name)
    if quant is not None:
        tflite.TensorAddQuantization(b, quant)
    return tflite.TensorEnd(b)


def _operator(b: Builder, op: OpSpec, opcode_index: int) -> int:
    ins = _vector(b, tflite.OperatorStartInputsVector, op.inputs, b.PrependInt32)
    outs = _vector(b, tflite.OperatorStartOutputsVector, op.outputs, b.PrependInt32)
    options = op.options(b) if op.options is not None else None
    tflite.OperatorStart(b)
    tflite.OperatorAddOpcodeIndex(b, opcode_index)
    tflite.OperatorAddInputs(b, ins)
    tflite.OperatorAddOutputs(b, outs)
    if options is not None:
        tflite.OperatorAddBuiltinOptionsType(b, op.options_type)
        tflite.OperatorAddBuiltinOptions(b, options)
    return tflite.OperatorEnd(b)


def _opcode(b: Builder, code: int, version: int) -> int:
    tflite.OperatorCodeStart(b)
    # builtin codes below 127 also go into the deprecated int8 field, which older readers use
    tflite.OperatorCodeAddDeprecatedBuiltinCode(b, min(code, 127))
    tflite.OperatorCodeAddBuiltinCode(b, code)
    tflite.OperatorCodeAddVersion(b, version)
    return tflite.OperatorCodeEnd(b)


OFFSET_ALIGN = 16


def serialize(graph: Graph, description: str = "tflite_nvdla test model",
              offset_buffers: bool = False) -> bytes:
    """The graph as a .tflite flatbuffer (buffer 0 is the empty sentinel TFLite expects). With
    offset_buffers the constants are stored after the flatbuffer, each buffer naming its offset in the file
    and size (as ai-edge-quantizer and the converter write large models)."""
    if not offset_buffers:
        return _serialize(graph, description, None)
    consts = [np.ascontiguousarray(np.asarray(t.data, dtype=_NUMPY_TYPES[t.dtype])).tobytes()
              for t in graph.tensors if t.data is not None]
    # the flatbuffer's size does not depend on the offsets' values (fixed-size fields): measure, then place
    head = len(_serialize(graph, description, [(1 << 40, len(c)) for c in consts]))
    places, offset = [], -(-head // OFFSET_ALIGN) * OFFSET_ALIGN
    for c in consts:
        places.append((offset, len(c)))
        offset = -(-(offset + len(c)) // OFFSET_ALIGN) * OFFSET_ALIGN
    out = bytearray(_serialize(graph, description, places))
    assert len(out) == head, "the flatbuffer changed size with its offsets"
    for (at, _), c in zip(places, consts, strict=True):
        out.extend(b"\0" * (at - len(out)))
        out.extend(c)
    return bytes(out)


def _serialize(graph: Graph, description: str, places: list[tuple[int, int]] | None) -> bytes:
    b = flatbuffers.Builder(4096)
    codes = sorted({op.code for op in graph.ops})
    buffers = [_buffer(b, None)]
    tensor_offsets = []
    for t in graph.tensors:
        index = 0
        if t.data is not None:
            at = places[len(buffers) - 1] if places is not None else None
            buffers.append(_buffer(b, np.asarray(t.data, dtype=_NUMPY_TYPES[t.dtype]), at))
            index = len(buffers) - 1
        tensor_offsets.append(_tensor(b, t, index))
    op_offsets = [_operator(b, op, codes.index(op.code)) for op in graph.ops]
    code_offsets = [_opcode(b, c, max(op.version for op in graph.ops if op.code == c)) for c in codes]

    def offsets(start: Callable[[Builder, int], None], items: list[int]) -> int:
        start(b, len(items))
        for item in reversed(items):
            b.PrependUOffsetTRelative(item)
        return b.EndVector()

    tensors = offsets(tflite.SubGraphStartTensorsVector, tensor_offsets)
    ops = offsets(tflite.SubGraphStartOperatorsVector, op_offsets)
    ins = _vector(b, tflite.SubGraphStartInputsVector, graph.inputs, b.PrependInt32)
    outs = _vector(b, tflite.SubGraphStartOutputsVector, graph.outputs, b.PrependInt32)
    name = b.CreateString("main")
    tflite.SubGraphStart(b)
    tflite.SubGraphAddTensors(b, tensors)
    tflite.SubGraphAddInputs(b, ins)
    tflite.SubGraphAddOutputs(b, outs)
    tflite.SubGraphAddOperators(b, ops)
    tflite.SubGraphAddName(b, name)
    subgraph = tflite.SubGraphEnd(b)
    subgraphs = offsets(tflite.ModelStartSubgraphsVector, [subgraph])
    opcodes = offsets(tflite.ModelStartOperatorCodesVector, code_offsets)
    buffer_vec = offsets(tflite.ModelStartBuffersVector, buffers)
    desc = b.CreateString(description)
    tflite.ModelStart(b)
    tflite.ModelAddVersion(b, SCHEMA_VERSION)
    tflite.ModelAddOperatorCodes(b, opcodes)
    tflite.ModelAddSubgraphs(b, subgraphs)
    tflite.ModelAddDescription(b, desc)
    tflite.ModelAddBuffers(b, buffer_vec)
    b.Finish(tflite.ModelEnd(b), file_identifier=b"TFL3")
    return bytes(b.Output())
