"""Every configuration other than the run's own (configs/*.json; the run's is $CONFIG, default nv_small),
built once each on the top with the simulation memory: random layers of SDP, PDP and CDP programmed by the
drivers at that configuration's atom and CSB map and scored by the model, and the NVIDIA traces of that
configuration's folder (traces/<name>/) when there is one. The run's own configuration gets the full
regression from the other registry modules."""

from __future__ import annotations

from models import configs
from tb.benches import Bench
from tb.registry.top import TIMING_ARGS, TOP_MEM


def _benches() -> tuple[Bench, ...]:
    out: list[Bench] = []
    own = configs.load().name
    for name in configs.names():
        if name == own:
            continue
        params = (configs.load(name).verilog_parameters(),)
        group = f"top_mem_{name}"
        out += [Bench(f"{name}_{unit}", TOP_MEM, f"tb.test_top_{unit}", params, build_args=TIMING_ARGS,
                      tests=("random_layers",), config=name, build_group=group)
                for unit in ("sdp", "pdp", "cdp")]
        out.append(Bench(f"{name}_traces", TOP_MEM, "tb.test_trace_rtl", params, build_args=TIMING_ARGS,
                         config=name, build_group=group))
    return tuple(out)


BENCHES = _benches()
