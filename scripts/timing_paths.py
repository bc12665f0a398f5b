"""Longest paths in simple gates, module by module (the analysis behind scripts/timing.py).

Each module arrives as a Yosys JSON netlist of simple gates ($_AND_, $_OR_, $_XOR_, $_MUX_, $_NOT_ after
`abc -g simple`) and flip-flops ($_DFF*, $_SDFF*, ...), its sub-modules as instances of black boxes. A gate
is one level ($_BUF_ none). The module's timing model, used by the modules that instantiate it, is:
  - out_arcs: for every output bit, the deepest path to it from each input port and from a register inside;
  - in_end: for every input port, the deepest path from it to a register inside;
  - worst: the deepest register-to-register path inside (its sub-modules' included).
A parent joins its own gates with its children's models, so a path through a sub-module's combinational
logic (a chain of float adders, a ready that crosses a skid buffer) is counted whole, as in a flat netlist.
Input ports are merged per port at a sub-module's boundary (one arrival per port, its bits' deepest), which
can only lengthen a path (never shorten it): a bound, equal to the flat figure when a port's bits arrive
together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

REG = "<reg>"   # the source of a path that starts at a register (or a sub-module's register)
_FF_PREFIXES = ("$_DFF", "$_SDFF", "$_DFFSR", "$_ALDFF", "$_DLATCH", "$_SR_", "$_FF_")
_FF_CLOCKS = ("C", "E_clk")
_ZERO_DELAY = ("$_BUF_",)

Path = tuple[int, str, str]                  # (gate levels, start point, end point)
Arrival = dict[str, tuple[int, str]]         # source (REG or an input port) -> (levels, start point)


@dataclass
class Model:
    out_arcs: dict[str, list[Arrival]] = field(default_factory=dict)
    in_end: dict[str, tuple[int, str]] = field(default_factory=dict)    # input port -> (levels, end point)
    worst: Path | None = None                                           # register to register


@dataclass
class Report:
    reg_to_reg: Path | None
    in_to_reg: Path | None
    reg_to_out: Path | None
    in_to_out: Path | None

    def deepest(self) -> tuple[int, str]:
        """(levels, kind) of the deepest path of any kind."""
        kinds = [(p[0], k) for k, p in (("reg-reg", self.reg_to_reg), ("in-reg", self.in_to_reg),
                                         ("reg-out", self.reg_to_out), ("in-out", self.in_to_out)) if p]
        return max(kinds) if kinds else (0, "none")


def _merge(into: Arrival, other: Arrival, extra: int) -> None:
    for src, (d, start) in other.items():
        d += extra
        if src not in into or into[src][0] < d:
            into[src] = (d, start)


def _better(a: Path | None, b: Path | None) -> Path | None:
    if a is None:
        return b
    if b is None:
        return a
    return b if b[0] > a[0] else a


def analyse(module: dict[str, Any], children: dict[str, tuple[str, Model]]) -> tuple[Model, Report]:
    """The model and report of one module. `children` maps a cell type to (instance label, its model)."""
    names: dict[int, str] = {}
    for net, body in sorted(module.get("netnames", {}).items(), key=lambda kv: kv[1].get("hide_name", 0)):
        for i, b in enumerate(body["bits"]):
            if isinstance(b, int) and b not in names:
                names[b] = net if len(body["bits"]) == 1 else f"{net}[{i}]"
    arrival: dict[int, Arrival] = {}
    drivers: dict[int, tuple[str, Any]] = {}
    ports = module.get("ports", {})
    for port, body in ports.items():
        if body["direction"] in ("input", "inout"):
            for b in body["bits"]:
                if isinstance(b, int):
                    arrival[b] = {port: (0, port)}
    endpoints: list[tuple[list[Any], int, str]] = []   # (bits, extra levels, end label)
    child_in: list[tuple[str, str, list[Any], Model]] = []
    worst: Path | None = None
    for cname, cell in module.get("cells", {}).items():
        ctype, conns = cell["type"], cell["connections"]
        dirs = cell.get("port_directions", {})
        if ctype.startswith(_FF_PREFIXES):
            for pin, bits in conns.items():
                if dirs.get(pin) == "output":
                    for b in bits:
                        if isinstance(b, int):
                            arrival[b] = {REG: (0, names.get(b, cname))}
                elif pin not in _FF_CLOCKS:
                    q = [b for p, bs in conns.items() if dirs.get(p) == "output" for b in bs]
                    end = names.get(q[0], cname) if q and isinstance(q[0], int) else cname
                    endpoints.append((bits, 0, end))
        elif ctype in children:
            label, model = children[ctype]
            inst = f"{cname.lstrip(chr(92))}"
            if model.worst:
                inner = (model.worst[0], f"{inst}/{model.worst[1]}", f"{inst}/{model.worst[2]}")
                worst = _better(worst, inner)
            for pin, bits in conns.items():
                if pin in model.out_arcs:
                    for i, b in enumerate(bits):
                        if isinstance(b, int):
                            drivers[b] = ("child", (inst, conns, model.out_arcs[pin][i]))
                elif pin in model.in_end:
                    child_in.append((inst, pin, bits, model))
        else:
            ins = [b for p, bs in conns.items() if dirs.get(p) == "input" for b in bs]
            for p, bs in conns.items():
                if dirs.get(p) == "output":
                    for b in bs:
                        if isinstance(b, int):
                            drivers[b] = ("gate", (0 if ctype in _ZERO_DELAY else 1, ins))

    def inputs_of(b: int) -> list[int]:
        kind, data = drivers[b]
        if kind == "gate":
            return [x for x in data[1] if isinstance(x, int)]
        _, conns, arcs = data
        return [x for src in arcs if src != REG for x in conns.get(src, []) if isinstance(x, int)]

    def value(b: int) -> Arrival:
        kind, data = drivers[b]
        out: Arrival = {}
        if kind == "gate":
            for x in data[1]:
                if isinstance(x, int):
                    _merge(out, arrival[x], data[0])
            return out
        inst, conns, arcs = data
        for src, (d, start) in arcs.items():
            if src == REG:
                _merge(out, {REG: (0, f"{inst}/{start}")}, d)
            else:
                for x in conns.get(src, []):
                    if isinstance(x, int):
                        _merge(out, arrival[x], d)
        return out

    def resolve(bit: int) -> Arrival:
        """`bit`'s arrival, its fan-in first (depth-first, iterative: chains are thousands of gates long).
        Every entry popped while (b, True) is still on the stack is one of b's fan-in: meeting b again
        unfinished there is a combinational loop."""
        stack: list[tuple[int, bool]] = [(bit, False)]
        open_: set[int] = set()
        while stack:
            b, expanded = stack.pop()
            if b in arrival:
                continue
            if expanded:
                arrival[b] = value(b)
                open_.discard(b)
                continue
            if b not in drivers:
                arrival[b] = {}
                continue
            if b in open_:
                raise ValueError(f"combinational loop through {names.get(b, b)}")
            open_.add(b)
            stack.append((b, True))
            stack.extend((x, False) for x in inputs_of(b) if x not in arrival)
        return arrival[bit]

    in_to_reg: Path | None = None
    in_end: dict[str, tuple[int, str]] = {}

    def endpoint(arr: Arrival, extra: int, end: str) -> None:
        nonlocal worst, in_to_reg
        for src, (d, start) in arr.items():
            if src == REG:
                worst = _better(worst, (d + extra, start, end))
            else:
                in_to_reg = _better(in_to_reg, (d + extra, start, end))
                if src not in in_end or in_end[src][0] < d + extra:
                    in_end[src] = (d + extra, end)

    for bits, extra, end in endpoints:
        for b in bits:
            if isinstance(b, int):
                endpoint(resolve(b), extra, end)
    for inst, pin, bits, model in child_in:
        d, end = model.in_end[pin]
        for b in bits:
            if isinstance(b, int):
                endpoint(resolve(b), d, f"{inst}/{end}")
    out_arcs: dict[str, list[Arrival]] = {}
    reg_to_out: Path | None = None
    in_to_out: Path | None = None
    for port, body in ports.items():
        if body["direction"] != "output":
            continue
        arcs = []
        for i, b in enumerate(body["bits"]):
            arr = resolve(b) if isinstance(b, int) else {}
            arcs.append(arr)
            end = port if len(body["bits"]) == 1 else f"{port}[{i}]"
            for src, (d, start) in arr.items():
                if src == REG:
                    reg_to_out = _better(reg_to_out, (d, start, end))
                elif d > 0 or src != port:
                    in_to_out = _better(in_to_out, (d, start, end))
        out_arcs[port] = arcs
    model = Model(out_arcs, in_end, worst)
    return model, Report(worst, in_to_reg, reg_to_out, in_to_out)
