"""Every configuration other than the run's own (configs/*.json; the run's is $CONFIG, default nv_small)
that has NVIDIA traces in the repository (traces/<name>/, .cfg or .txn): built once on the top with the
simulation memory, its traces replayed there. The run's own configuration gets the full regression from the
other registry modules. (Random layers at other atoms need the benches' address generators to follow the
atom: not yet, so they are not registered here.)"""

from __future__ import annotations

from models import configs
from models.trace import REPO_TRACES, find_traces
from tb.benches import Bench
from tb.registry.top import TIMING_ARGS, TOP_MEM


def _benches() -> tuple[Bench, ...]:
    out: list[Bench] = []
    own = configs.load().name
    for name in configs.names():
        if name == own:
            continue
        if not (REPO_TRACES / name).is_dir() or not find_traces(REPO_TRACES / name):
            continue
        params = (configs.load(name).verilog_parameters(),)
        out.append(Bench(f"{name}_traces", TOP_MEM, "tb.test_trace_rtl", params, build_args=TIMING_ARGS,
                         config=name))
    return tuple(out)


BENCHES = _benches()
