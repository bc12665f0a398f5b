"""LiteRT's delegate ABI (tensorflow/lite/core/c/common.h) declared with ctypes, and a check of the
declared layout against the running LiteRT.

No package here ships LiteRT's C headers, so the structures are declared from the header's field order;
a LiteRT release that moves a field would make every read wrong without a word. `check_layout` therefore
compares what the declarations read with what the .tflite file says (tensor count, names, shapes, types,
byte sizes; operator codes and inputs per node) and measures the sizes of TfLiteNode and TfLiteRegistration
from the addresses LiteRT hands out (its nodes and registrations live in one array of pairs), before the
delegate touches anything else: a mismatch is an `AbiMismatch` naming the field, not a crash.

Measured on the pinned ai-edge-litert 2.3.0 (x86-64): sizeof(TfLiteTensor) 112 (the stride of
context->tensors), TfLiteNode 80, TfLiteRegistration 88 (nodes 168 bytes apart), as declared here.
"""

from __future__ import annotations

import ctypes
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_bool,
    c_char_p,
    c_float,
    c_int,
    c_int32,
    c_int64,
    c_size_t,
    c_uint64,
    c_void_p,
)
from typing import Any

import numpy as np
from numpy.typing import NDArray

K_OK, K_ERROR = 0, 1          # TfLiteStatus
K_AFFINE = 1                  # TfLiteQuantizationType kTfLiteAffineQuantization
K_MMAP_RO = 1                 # TfLiteAllocationType kTfLiteMmapRo (constant in the model file)
# TfLiteType -> numpy (the types a delegated operator's tensors can have here)
NUMPY_TYPES: dict[int, Any] = {1: np.float32, 2: np.int32, 3: np.uint8, 4: np.int64, 6: np.bool_,
                               7: np.int16, 9: np.int8, 11: np.float64, 13: np.uint64, 16: np.uint32,
                               17: np.uint16}
K_RESOURCE, K_VARIANT = 14, 15  # reading these tensors' "data" aborts LiteRT: never done here
BUILTIN_DELEGATE = 51           # kTfLiteBuiltinDelegate: the code of a node a delegate replaced


class AbiMismatch(RuntimeError):
    """The running LiteRT's structures do not have the layout declared here (the message says where)."""


class TfLiteIntArray(Structure):
    _fields_ = [("size", c_int)]   # followed by int data[size]

    def values(self) -> list[int]:
        arr = ctypes.cast(ctypes.byref(self, ctypes.sizeof(c_int)), POINTER(c_int * self.size)).contents
        return list(arr)


class TfLiteFloatArray(Structure):
    _fields_ = [("size", c_int)]   # followed by float data[size]

    def values(self) -> list[float]:
        arr = ctypes.cast(ctypes.byref(self, ctypes.sizeof(c_int)), POINTER(c_float * self.size)).contents
        return list(arr)


class TfLiteQuantizationParams(Structure):
    _fields_ = [("scale", c_float), ("zero_point", c_int32)]


class TfLiteQuantization(Structure):
    _fields_ = [("type", c_int), ("params", c_void_p)]


class TfLiteAffineQuantization(Structure):
    _fields_ = [("scale", POINTER(TfLiteFloatArray)), ("zero_point", POINTER(TfLiteIntArray)),
                ("quantized_dimension", c_int32)]


class TfLiteTensor(Structure):
    _fields_ = [("type", c_int), ("data", c_void_p), ("dims", POINTER(TfLiteIntArray)),
                ("params", TfLiteQuantizationParams), ("allocation_type", c_int), ("bytes", c_size_t),
                ("allocation", c_void_p), ("name", c_char_p), ("delegate", c_void_p),
                ("buffer_handle", c_int), ("data_is_stale", c_bool), ("is_variable", c_bool),
                ("quantization", TfLiteQuantization), ("sparsity", c_void_p),
                ("dims_signature", POINTER(TfLiteIntArray))]


class TfLiteNode(Structure):
    _fields_ = [("inputs", POINTER(TfLiteIntArray)), ("outputs", POINTER(TfLiteIntArray)),
                ("intermediates", POINTER(TfLiteIntArray)), ("temporaries", POINTER(TfLiteIntArray)),
                ("user_data", c_void_p), ("builtin_data", c_void_p), ("custom_initial_data", c_void_p),
                ("custom_initial_data_size", c_int), ("delegate", c_void_p),
                ("might_have_side_effect", c_bool)]


class TfLiteContext(Structure):
    pass


class TfLiteDelegate(Structure):
    pass


INIT = CFUNCTYPE(c_void_p, POINTER(TfLiteContext), c_void_p, c_size_t)
FREE = CFUNCTYPE(None, POINTER(TfLiteContext), c_void_p)
NODE_FN = CFUNCTYPE(c_int, POINTER(TfLiteContext), POINTER(TfLiteNode))


class TfLiteRegistration(Structure):
    _fields_ = [("init", INIT), ("free", FREE), ("prepare", NODE_FN), ("invoke", NODE_FN),
                ("profiling_string", c_void_p), ("builtin_code", c_int32), ("custom_name", c_char_p),
                ("version", c_int), ("registration_external", c_void_p), ("async_kernel", c_void_p),
                ("inplace_operator", c_uint64)]


GET_EXECUTION_PLAN = CFUNCTYPE(c_int, POINTER(TfLiteContext), POINTER(POINTER(TfLiteIntArray)))
GET_NODE_AND_REGISTRATION = CFUNCTYPE(c_int, POINTER(TfLiteContext), c_int, POINTER(POINTER(TfLiteNode)),
                                      POINTER(POINTER(TfLiteRegistration)))
REPLACE_NODE_SUBSETS = CFUNCTYPE(c_int, POINTER(TfLiteContext), TfLiteRegistration, POINTER(TfLiteIntArray),
                                 POINTER(TfLiteDelegate))
REPORT_ERROR = CFUNCTYPE(None, POINTER(TfLiteContext), c_char_p, c_char_p)   # (context, "%s", message)

TfLiteContext._fields_ = [
    ("tensors_size", c_size_t), ("GetExecutionPlan", GET_EXECUTION_PLAN),
    ("tensors", POINTER(TfLiteTensor)), ("impl_", c_void_p), ("ResizeTensor", c_void_p),
    ("ReportError", REPORT_ERROR), ("AddTensors", c_void_p),
    ("GetNodeAndRegistration", GET_NODE_AND_REGISTRATION),
    ("ReplaceNodeSubsetsWithDelegateKernels", REPLACE_NODE_SUBSETS)]

PREPARE = CFUNCTYPE(c_int, POINTER(TfLiteContext), POINTER(TfLiteDelegate))
TfLiteDelegate._fields_ = [("data_", c_void_p), ("Prepare", PREPARE), ("CopyFromBufferHandle", c_void_p),
                           ("CopyToBufferHandle", c_void_p), ("FreeBufferHandle", c_void_p),
                           ("flags", c_int64), ("opaque_delegate_builder", c_void_p)]


class DelegateBox(Structure):
    """Our TfLiteDelegate followed by zeroed bytes (see NvdlaDelegate)."""

    _fields_ = [("delegate", TfLiteDelegate), ("reserved", ctypes.c_char * 256)]


class TfLiteDelegateParams(Structure):
    """What a delegate kernel's init receives (as its buffer, length 0): one partition."""

    _fields_ = [("delegate", POINTER(TfLiteDelegate)), ("nodes_to_replace", POINTER(TfLiteIntArray)),
                ("input_tensors", POINTER(TfLiteIntArray)), ("output_tensors", POINTER(TfLiteIntArray))]


class _DlInfo(Structure):
    _fields_ = [("dli_fname", c_char_p), ("dli_fbase", c_void_p), ("dli_sname", c_char_p),
                ("dli_saddr", c_void_p)]


_libc = ctypes.CDLL(None)
_libc.dladdr.argtypes = [c_void_p, POINTER(_DlInfo)]


def in_loaded_library(address: int | None) -> bool:
    """Whether an address lies in a loaded shared object (a function pointer read at the wrong offset
    would not): checked before calling a pointer read from a LiteRT structure."""
    if not address:
        return False
    info = _DlInfo()
    return bool(_libc.dladdr(c_void_p(address), ctypes.byref(info)))


def function_address(fn: Any) -> int:
    return ctypes.cast(fn, c_void_p).value or 0


def tensor_shape(t: TfLiteTensor) -> tuple[int, ...]:
    return tuple(t.dims.contents.values()) if t.dims else ()


def tensor_quantization(t: TfLiteTensor) -> tuple[tuple[float, ...], tuple[int, ...], int]:
    """(scales, zero points, quantized dimension) of an affine-quantized tensor; empty otherwise."""
    if t.quantization.type != K_AFFINE or not t.quantization.params:
        return (), (), 0
    q = ctypes.cast(t.quantization.params, POINTER(TfLiteAffineQuantization)).contents
    scales = tuple(q.scale.contents.values()) if q.scale else ()
    zps = tuple(q.zero_point.contents.values()) if q.zero_point else ()
    return scales, zps, int(q.quantized_dimension)


def tensor_array(t: TfLiteTensor) -> NDArray[Any]:
    """A numpy view of a tensor's data (no copy); refuses resource / variant tensors and missing data."""
    if t.type in (K_RESOURCE, K_VARIANT):
        raise ValueError(f"tensor {t.name!r} is a resource/variant handle: its data is not a value")
    if t.type not in NUMPY_TYPES:
        raise ValueError(f"tensor {t.name!r} has TfLiteType {t.type}, not handled here")
    if not t.data:
        raise ValueError(f"tensor {t.name!r} has no data allocated")
    dtype = np.dtype(NUMPY_TYPES[t.type])
    shape = tensor_shape(t)
    count = int(np.prod(shape)) if shape else 1
    if count * dtype.itemsize != t.bytes:
        raise AbiMismatch(f"tensor {t.name!r}: {shape} x {dtype} is {count * dtype.itemsize} bytes, LiteRT "
                          f"says {t.bytes}")
    buf = (ctypes.c_char * t.bytes).from_address(t.data)
    return np.frombuffer(buf, dtype=dtype, count=count).reshape(shape)
