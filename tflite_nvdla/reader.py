""".tflite reading: the flatbuffer (through the `tflite` package's schema readers) as plain dataclasses,
with every structural problem reported as a `TfliteFileError` naming what is wrong."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import tflite

INT8, FLOAT32 = tflite.TensorType.INT8, tflite.TensorType.FLOAT32
# Handles, not values: reading a resource tensor's "data" aborts LiteRT (stateful models' VAR_HANDLE)
HANDLE_TYPES = frozenset({tflite.TensorType.RESOURCE, tflite.TensorType.VARIANT})
_NUMPY = {tflite.TensorType.INT8: np.int8, tflite.TensorType.FLOAT32: np.float32,
          tflite.TensorType.INT32: np.int32, tflite.TensorType.UINT8: np.uint8,
          tflite.TensorType.INT16: np.int16, tflite.TensorType.INT64: np.int64}
OP_NAMES = {v: k for k, v in vars(tflite.BuiltinOperator).items() if not k.startswith("_")}
TYPE_NAMES = {v: k for k, v in vars(tflite.TensorType).items() if not k.startswith("_")}
PADDING_NAMES = {tflite.Padding.SAME: "SAME", tflite.Padding.VALID: "VALID"}
ACTIVATIONS = {v: k for k, v in vars(tflite.ActivationFunctionType).items() if not k.startswith("_")}


class TfliteFileError(ValueError):
    """The file is not a .tflite model this reader understands (the message says why)."""


@dataclass(frozen=True)
class TensorInfo:
    index: int
    name: str
    shape: tuple[int, ...]
    dtype: int
    scales: tuple[float, ...] = ()
    zero_points: tuple[int, ...] = ()
    quantized_dimension: int = 0
    data: np.ndarray | None = None

    @property
    def is_handle(self) -> bool:
        return self.dtype in HANDLE_TYPES

    @property
    def type_name(self) -> str:
        return TYPE_NAMES.get(self.dtype, str(self.dtype))

    @property
    def per_tensor(self) -> bool:
        return len(self.scales) == 1

    @property
    def scale(self) -> float:
        return self.scales[0]

    @property
    def zero_point(self) -> int:
        return self.zero_points[0] if self.zero_points else 0


@dataclass(frozen=True)
class OperatorInfo:
    index: int
    code: int
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return OP_NAMES.get(self.code, f"BUILTIN_{self.code}")


@dataclass(frozen=True)
class ModelInfo:
    tensors: tuple[TensorInfo, ...]
    operators: tuple[OperatorInfo, ...]
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]


def _options(op: Any, code: int) -> dict[str, Any]:
    """The builtin options the mapping needs, by operator."""
    table = op.BuiltinOptions()
    if table is None:
        return {}
    B = tflite.BuiltinOperator
    if code in (B.AVERAGE_POOL_2D, B.MAX_POOL_2D):
        o = tflite.Pool2DOptions()
        o.Init(table.Bytes, table.Pos)
        return {"padding": PADDING_NAMES.get(o.Padding(), str(o.Padding())),
                "stride": (o.StrideW(), o.StrideH()),
                "filter": (o.FilterWidth(), o.FilterHeight()), "activation": o.FusedActivationFunction()}
    if code in (B.ADD, B.MUL):
        o = tflite.AddOptions() if code == B.ADD else tflite.MulOptions()
        o.Init(table.Bytes, table.Pos)
        return {"activation": o.FusedActivationFunction()}
    if code == B.LEAKY_RELU:
        o = tflite.LeakyReluOptions()
        o.Init(table.Bytes, table.Pos)
        return {"alpha": o.Alpha()}
    if code in (B.CONV_2D, B.DEPTHWISE_CONV_2D):
        o = tflite.Conv2DOptions() if code == B.CONV_2D else tflite.DepthwiseConv2DOptions()
        o.Init(table.Bytes, table.Pos)
        extra = {"depth_multiplier": o.DepthMultiplier()} if code == B.DEPTHWISE_CONV_2D else {}
        return {"padding": PADDING_NAMES.get(o.Padding(), str(o.Padding())),
                "stride": (o.StrideW(), o.StrideH()),
                "dilation": (o.DilationWFactor(), o.DilationHFactor()),
                "activation": o.FusedActivationFunction(), **extra}
    if code == B.FULLY_CONNECTED:
        o = tflite.FullyConnectedOptions()
        o.Init(table.Bytes, table.Pos)
        return {"activation": o.FusedActivationFunction(), "keep_num_dims": bool(o.KeepNumDims()),
                "weights_format": o.WeightsFormat()}
    if code == B.LOCAL_RESPONSE_NORMALIZATION:
        o = tflite.LocalResponseNormalizationOptions()
        o.Init(table.Bytes, table.Pos)
        return {"radius": o.Radius(), "bias": o.Bias(), "alpha": o.Alpha(), "beta": o.Beta()}
    return {}


def _buffer_data(model: Any, file: bytes, buf_index: int, what: str) -> np.ndarray | None:
    """A buffer's bytes: inline in the flatbuffer, or (offset > 1) stored after it at [offset, offset + size)
    of the file, as ai-edge-quantizer and the converter write models over 2 GB."""
    buf = model.Buffers(buf_index)
    if buf is None:
        return None
    offset, size = int(buf.Offset()), int(buf.Size())
    if offset > 1:
        if offset + size > len(file):
            raise TfliteFileError(f"{what}: buffer {buf_index} at offset {offset}, {size} bytes, past the "
                                  f"end of the {len(file)}-byte file")
        return np.frombuffer(file, dtype=np.uint8, count=size, offset=offset)
    return buf.DataAsNumpy() if buf.DataLength() else None


def _tensor(model: Any, t: Any, index: int, file: bytes = b"") -> TensorInfo:
    q = t.Quantization()
    scales: tuple[float, ...] = ()
    zps: tuple[int, ...] = ()
    qdim = 0
    if q is not None and q.ScaleLength():
        scales = tuple(float(s) for s in q.ScaleAsNumpy())
        zps = tuple(int(z) for z in q.ZeroPointAsNumpy()) if q.ZeroPointLength() else (0,) * len(scales)
        qdim = q.QuantizedDimension()
    data = None
    buf_index = t.Buffer()
    if not 0 <= buf_index < model.BuffersLength():
        raise TfliteFileError(f"tensor {index} ({t.Name()!r}) names buffer {buf_index}, the model has "
                              f"{model.BuffersLength()}")
    name = (t.Name() or b"").decode("utf-8", "replace")
    raw = _buffer_data(model, file, buf_index, f"tensor {index} ({name!r})")
    if raw is not None and raw.size and t.Type() in _NUMPY:
        itemsize = np.dtype(_NUMPY[t.Type()]).itemsize
        if raw.size % itemsize:
            raise TfliteFileError(f"tensor {index} ({name!r}): buffer of {raw.size} bytes is not a whole "
                                  f"number of {TYPE_NAMES.get(t.Type())} elements")
        data = raw.view(_NUMPY[t.Type()]).copy()
    shape = tuple(int(s) for s in t.ShapeAsNumpy()) if t.ShapeLength() else ()
    return TensorInfo(index, name, shape, t.Type(), scales, zps, qdim, data)


def _operator(model: Any, sub: Any, index: int) -> OperatorInfo:
    op = sub.Operators(index)
    opcode_index = op.OpcodeIndex()
    if not 0 <= opcode_index < model.OperatorCodesLength():
        raise TfliteFileError(f"operator {index} names opcode {opcode_index}, the model has "
                              f"{model.OperatorCodesLength()}")
    oc = model.OperatorCodes(opcode_index)
    code = max(oc.BuiltinCode(), oc.DeprecatedBuiltinCode())
    ins = tuple(int(i) for i in op.InputsAsNumpy()) if op.InputsLength() else ()
    outs = tuple(int(i) for i in op.OutputsAsNumpy()) if op.OutputsLength() else ()
    for t in (*ins, *outs):
        if not -1 <= t < sub.TensorsLength():
            raise TfliteFileError(f"operator {index} ({OP_NAMES.get(code, code)}) names tensor {t}, the "
                                  f"subgraph has {sub.TensorsLength()}")
    return OperatorInfo(index, code, ins, outs, _options(op, code))


def subgraph_count(data: bytes) -> int:
    """How many subgraphs the model has (0 when the bytes are not a .tflite flatbuffer)."""
    if len(data) < 8 or data[4:8] != b"TFL3":
        return 0
    try:
        return int(tflite.Model.GetRootAsModel(data, 0).SubgraphsLength())
    except Exception:  # noqa: BLE001
        return 0


def parse(data: bytes, subgraph: int = 0) -> ModelInfo:
    """One subgraph of the model (the first by default); TfliteFileError when the bytes are not a readable
    .tflite model."""
    if len(data) < 8 or data[4:8] != b"TFL3":
        raise TfliteFileError("not a .tflite file (no TFL3 flatbuffer identifier at byte 4)")
    try:
        model = tflite.Model.GetRootAsModel(data, 0)
        if model.SubgraphsLength() <= subgraph:
            raise TfliteFileError(f"the model has {model.SubgraphsLength()} subgraphs, no subgraph "
                                  f"{subgraph}")
        sub = model.Subgraphs(subgraph)
        tensors = tuple(_tensor(model, sub.Tensors(i), i, data) for i in range(sub.TensorsLength()))
        ops = tuple(_operator(model, sub, i) for i in range(sub.OperatorsLength()))
        ins = tuple(int(i) for i in sub.InputsAsNumpy()) if sub.InputsLength() else ()
        outs = tuple(int(i) for i in sub.OutputsAsNumpy()) if sub.OutputsLength() else ()
    except TfliteFileError:
        raise
    except Exception as err:  # noqa: BLE001
        # A truncated or corrupt flatbuffer fails deep inside the generated readers (struct.error,
        # IndexError, ...): the user gets one sentence, not the reader's traceback.
        raise TfliteFileError(f"corrupt .tflite flatbuffer ({type(err).__name__}: {err})") from None
    return ModelInfo(tensors, ops, ins, outs)


def read(path: Path, subgraph: int = 0) -> ModelInfo:
    try:
        data = path.read_bytes()
    except OSError as err:
        raise TfliteFileError(f"cannot read {path}: {err.strerror}") from None
    return parse(data, subgraph)
