"""NVDLA as a LiteRT delegate (seed 004's delegation scheme), in Python through LiteRT's C delegate ABI.

    delegate = NvdlaDelegate(Path("model.tflite"))
    interp = Interpreter(model_path="model.tflite", experimental_delegates=[delegate])

LiteRT's Python interpreter takes any object whose `_get_native_delegate_pointer()` returns a TfLiteDelegate*
(ai_edge_litert/interpreter.py hands it to ModifyGraphWithDelegate). Ours is a ctypes TfLiteDelegate
(tflite_nvdla/litert_abi.py) whose callbacks are Python:

- Prepare (once per subgraph): the layout of LiteRT's structures is checked against the .tflite file
  (litert_abi.check_layout), then each node of the execution plan is decided: NVDLA takes it when
  tflite_nvdla.mapping maps it (the SDP/PDP fit is done here, once, on the operator's quantization and
  constants); a refused node keeps the reason. LiteRT then partitions the accepted nodes and calls
- init (once per partition): the partition's nodes, in execution order, with their own input tensors (an
  operator's inputs in the operator's order, not the partition's);
- invoke (every inference): each node's layers on the target (the subsystem model, or another Target), its
  inputs read from LiteRT's tensors or from the partition's earlier node, the partition's outputs written
  back into LiteRT's tensors. Every layer run is logged (value, plan) for the drift table and the RTL replay.

A Python exception inside a callback never crosses into C: it becomes LiteRT's error status with the message
(context->ReportError), and LiteRT's Python wrapper raises it.
"""

from __future__ import annotations

import contextlib
import ctypes
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from models.executor import Target
from models.subsystem import ModelTarget
from tflite_nvdla import litert_abi as abi
from tflite_nvdla.abi_check import check_layout, subgraph_of
from tflite_nvdla.hw_plan import HwPlan, run_plan
from tflite_nvdla.lrn_map import absorbed_operators
from tflite_nvdla.mapping import Unsupported, as_tensor, map_operator, operator_inputs
from tflite_nvdla.reader import INT8, ModelInfo, OperatorInfo, TfliteFileError, parse, subgraph_count


@dataclass(frozen=True)
class Decision:
    subgraph: int
    node: int
    op: str
    reason: str | None      # None: NVDLA takes it
    layout: str = ""

    @property
    def delegated(self) -> bool:
        return self.reason is None


@dataclass
class LayerRun:
    """One delegated operator run on the target during one interpreter invoke."""

    invoke: int
    subgraph: int
    op_index: int
    op: str
    output_tensor: int
    value: NDArray[Any]
    layout: str
    plan: HwPlan | None = None   # kept when the run is to be replayed on the RTL


@dataclass
class Partition:
    subgraph: int
    nodes: list[OperatorInfo]
    inputs: list[int]
    outputs: list[int]


def placeholder_inputs(model: ModelInfo, op: OperatorInfo) -> list[NDArray[Any]]:
    """Values to map an operator with before any inference: its constants, zeros for the rest (the layers'
    programs depend on quantization and constants only; the values go into memory at invoke)."""
    values = []
    for i in operator_inputs(model, op):
        t = model.tensors[i]
        if t.data is not None:
            values.append(t.data.reshape(t.shape))
        else:
            values.append(np.zeros(t.shape, dtype=np.int8))
    return values


def decide(model: ModelInfo, op: OperatorInfo) -> tuple[str | None, str]:
    """(None, layout) when NVDLA takes the operator, else (the reason it stays on the CPU, "")."""
    for i in (*op.inputs, *op.outputs):
        if i >= 0 and model.tensors[i].is_handle:
            return f"{op.name}: tensor {i} is a resource/variant handle (state stays with LiteRT)", ""
    try:
        mapped = map_operator(model, op, placeholder_inputs(model, op))
    except Unsupported as why:
        return str(why), ""
    if mapped.output_tensor is not None and op.outputs[0] in model.outputs:
        return f"{op.name}: its float output is a graph output (its CDP layer writes the QUANTIZE's)", ""
    return None, mapped.plan.layout


def decide_all(model: ModelInfo, nodes: list[int]) -> list[tuple[str | None, str]]:
    """decide() for each node; the DEQUANTIZE / QUANTIZE of an LRN pattern (DEQUANTIZE -> LRN -> QUANTIZE,
    one CDP layer) go with their LRN: taken when it is, with no layer of their own."""
    absorbed = absorbed_operators(model)
    out: dict[int, tuple[str | None, str]] = {}
    for node in nodes:
        if node not in absorbed:
            out[node] = decide(model, model.operators[node])
    for node in nodes:
        if node in absorbed:
            lrn = absorbed[node]
            taken = out.get(lrn, ("not in the execution plan", ""))[0] is None
            floats = [t for t in model.operators[node].outputs if model.tensors[t].dtype != INT8]
            if taken and not any(t in model.outputs for t in floats):
                out[node] = (None, f"part of LRN #{lrn}'s CDP layer")
            else:
                out[node] = (f"{model.operators[node].name}: part of LRN #{lrn}'s pattern, which stays on "
                             "the CPU (or its float output is a graph output)", "")
    return [out[n] for n in nodes]


class NvdlaDelegate:
    """A TfLiteDelegate whose kernels run NVDLA layers on a Target (default: the subsystem model)."""

    def __init__(self, model_path: Path, target: Callable[[], Target] = ModelTarget,
                 keep_plans: bool = False, name: str = "NvdlaDelegate") -> None:
        try:
            self._data = Path(model_path).read_bytes()
        except OSError as err:
            raise TfliteFileError(f"cannot read {model_path}: {err.strerror}") from None
        count = subgraph_count(self._data)
        self.models = [parse(self._data, s) for s in range(count)] if count else [parse(self._data)]
        self.target = target
        self.keep_plans = keep_plans
        self.decisions: list[Decision] = []
        self.layers: list[LayerRun] = []
        self.errors: list[str] = []
        self.layout_checks: list[str] = []
        self.invoke_index = 0           # set by the caller before each interpreter invoke (the log's tag)
        self._partitions: dict[int, Partition] = {}
        self._subgraph_of_context: dict[int, int] = {}
        self._name = name.encode()
        # the callbacks must outlive the interpreter: kept as attributes
        self._prepare_cb = abi.PREPARE(self._prepare)
        self._init_cb = abi.INIT(self._init)
        self._free_cb = abi.FREE(self._free)
        self._kernel_prepare_cb = abi.NODE_FN(self._kernel_prepare)
        self._invoke_cb = abi.NODE_FN(self._invoke)
        # zeroed room after the struct: a LiteRT that reads fields appended after opaque_delegate_builder
        # reads zeros (absent) rather than whatever follows in memory
        self._box = abi.DelegateBox()
        self._struct = self._box.delegate
        self._struct.Prepare = self._prepare_cb
        self._struct.flags = 0   # kTfLiteDelegateFlagsNone: no dynamic tensors, no buffer handles

    def _get_native_delegate_pointer(self) -> int:
        """What LiteRT's Interpreter(experimental_delegates=[...]) passes to ModifyGraphWithDelegate."""
        return ctypes.addressof(self._struct)

    # --- error boundary -----------------------------------------------------------------------------------
    def _fail(self, ctx: Any, where: str, err: BaseException) -> int:
        msg = f"{self._name.decode()} {where}: {type(err).__name__}: {err}"
        self.errors.append(msg)
        # the status says error even if reporting fails; the message is in self.errors too
        with contextlib.suppress(Exception):
            ctx.contents.ReportError(ctx, b"%s", (msg + "\n").encode("utf-8", "replace"))
        return abi.K_ERROR

    # --- delegate Prepare: decide, partition ----------------------------------------------------------------
    def _prepare(self, ctx: Any, delegate: Any) -> int:
        try:
            self._prepare_subgraph(ctx, delegate)
            return abi.K_OK
        except Exception as err:  # noqa: BLE001 - nothing may cross into C
            return self._fail(ctx, "Prepare", err)

    def _prepare_subgraph(self, ctx: Any, delegate: Any) -> None:
        sub = subgraph_of(ctx.contents, self.models)
        model = self.models[sub]
        self._subgraph_of_context[ctypes.addressof(ctx.contents)] = sub
        plan_nodes = check_layout(ctx, model)
        self.layout_checks.append(f"subgraph {sub}: {len(model.tensors)} tensors, {len(plan_nodes)} nodes "
                                  "read as the .tflite file says")
        accepted = []
        for node, (reason, layout) in zip(plan_nodes, decide_all(model, plan_nodes), strict=True):
            self.decisions.append(Decision(sub, node, model.operators[node].name, reason, layout))
            if reason is None:
                accepted.append(node)
        if not accepted:
            return
        nodes = (ctypes.c_int * (len(accepted) + 1))(len(accepted), *accepted)
        reg = abi.TfLiteRegistration()
        reg.init, reg.free = self._init_cb, self._free_cb
        reg.prepare, reg.invoke = self._kernel_prepare_cb, self._invoke_cb
        reg.builtin_code = abi.BUILTIN_DELEGATE
        reg.custom_name = self._name
        reg.version = 1
        status = ctx.contents.ReplaceNodeSubsetsWithDelegateKernels(
            ctx, reg, ctypes.cast(nodes, ctypes.POINTER(abi.TfLiteIntArray)), delegate)
        if status != abi.K_OK:
            raise RuntimeError(f"LiteRT refused to replace nodes {accepted} of subgraph {sub}")

    # --- kernel: one per partition --------------------------------------------------------------------------
    def _init(self, ctx: Any, buffer: int | None, length: int) -> int | None:
        try:
            params = ctypes.cast(buffer, ctypes.POINTER(abi.TfLiteDelegateParams)).contents
            sub = self._subgraph_of_context[ctypes.addressof(ctx.contents)]
            model = self.models[sub]
            nodes = [model.operators[n] for n in params.nodes_to_replace.contents.values()]
            handle = len(self._partitions) + 1
            self._partitions[handle] = Partition(sub, nodes, params.input_tensors.contents.values(),
                                                 params.output_tensors.contents.values())
            return handle
        except Exception as err:  # noqa: BLE001
            self._fail(ctx, "init", err)
            return None

    def _free(self, ctx: Any, buffer: int | None) -> None:
        if buffer:
            self._partitions.pop(buffer, None)

    def _partition(self, node: Any) -> Partition:
        handle = node.contents.user_data
        if not handle or handle not in self._partitions:
            raise RuntimeError("the partition was not initialised (see the init error before this one)")
        return self._partitions[handle]

    def _kernel_prepare(self, ctx: Any, node: Any) -> int:
        try:
            part = self._partition(node)
            for i in part.outputs:
                t = ctx.contents.tensors[i]
                if t.type not in abi.NUMPY_TYPES:
                    raise RuntimeError(f"partition output {i} ({t.name!r}) has TfLiteType {t.type}")
            return abi.K_OK
        except Exception as err:  # noqa: BLE001
            return self._fail(ctx, "prepare", err)

    def _invoke(self, ctx: Any, node: Any) -> int:
        try:
            self._run_partition(ctx, self._partition(node))
            return abi.K_OK
        except Exception as err:  # noqa: BLE001
            return self._fail(ctx, "invoke", err)

    def _run_partition(self, ctx: Any, part: Partition) -> None:
        model = self.models[part.subgraph]
        absorbed = absorbed_operators(model)
        local: dict[int, NDArray[Any]] = {}
        for op in part.nodes:
            if op.index in absorbed:
                continue   # its LRN's CDP layer takes its place
            values = []
            for i in operator_inputs(model, op):
                if i in local:
                    values.append(local[i])
                else:
                    values.append(abi.tensor_array(ctx.contents.tensors[i]).copy())
            mapped = map_operator(model, op, values)
            out = mapped.output_tensor if mapped.output_tensor is not None else op.outputs[0]
            result = as_tensor(run_plan(self.target(), mapped.plan), model.tensors[out])
            local[out] = result
            self.layers.append(LayerRun(self.invoke_index, part.subgraph, op.index, op.name, out, result,
                                        mapped.plan.layout, mapped.plan if self.keep_plans else None))
        for i in part.outputs:
            if i not in local:
                raise RuntimeError(f"partition output tensor {i} was produced by none of its nodes")
            dst = abi.tensor_array(ctx.contents.tensors[i])
            np.copyto(dst, local[i].reshape(dst.shape).astype(dst.dtype, copy=False))

    # --- summary --------------------------------------------------------------------------------------------
    def delegated(self) -> list[Decision]:
        return [d for d in self.decisions if d.delegated]

    def refused(self) -> list[Decision]:
        return [d for d in self.decisions if not d.delegated]

