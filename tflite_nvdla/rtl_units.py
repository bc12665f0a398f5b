"""Which plans the RTL top can run: a plan writing registers of a unit the configuration's top does not have
(models.configs Configuration.units: the convolution units CDMA..CACC are in the model, not yet in the RTL
top) is skipped on the RTL target with the reason, never replayed into a missing unit."""

from __future__ import annotations

from models import configs
from models.steps import RegWrite
from tflite_nvdla.hw_plan import HwPlan


def rtl_skip_reason(plan: HwPlan) -> str | None:
    """Why the RTL cannot run the plan (the units it programs that the top lacks), or None."""
    config = configs.load()
    missing = sorted({s.unit for s in plan.steps if isinstance(s, RegWrite)} - set(config.units) - {"GLB"})
    if not missing:
        return None
    return f"SKIP on the RTL: the {config.name} top has no {', '.join(missing)} (its unit list)"
