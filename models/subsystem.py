"""The post-processing subsystem behind its register interface: the reference model a trace or a bench
drives like the hardware.

`ModelTarget` holds what the hardware holds: the register file of each unit (models/regfile.py: two register
groups, S_POINTER, D_OP_ENABLE, write protection, statistics, the LUT port), the GLB interrupt registers,
and the memories (0: the primary memory, MC; 1: the CV SRAM, used by every DMA client whose RAM_TYPE is CV
when the target has a second memory, else everything stays in memory 0). A unit runs when its own
D_OP_ENABLE and the D_OP_ENABLE of every partner it needs (its RDMA, the SDP feeding PDP on the fly, or the
convolution pipeline CDMA, CSC, CMAC_A, CMAC_B, CACC feeding SDP on the fly: models/conv/conv.py) are set for
the
groups their consumer pointers select, in whatever order the writes come.

With a configuration that has BDMA (nv_full) it also holds BDMA (models/bdma/model.py): its writes run the
launched groups at once and set their GLB BDMA_DONE bits, which the GLB then implements. With Rubik
(nv_full, models/rubik/model.py) a RUBIK layer runs when its D_OP_ENABLE is set and sets GLB RUBIK_DONE.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from models import configs, perf
from models import registers as regmap
from models.bdma.model import UNIT as BDMA_UNIT
from models.bdma.model import Bdma
from models.cdp.fp16 import LAST_COMMAND_BEATS, InputCounter
from models.common.cube import CubeLayout
from models.common.memory import Memory, memory_index
from models.configs import RUBIK, Configuration
from models.errors import ConfigError
from models.regfile import Glb, RegisterFile, intr_bit, intr_mask
from models.steps import StepError as TraceError

# a unit -> the RDMA whose OP_EN its layers reading memory need (the description's "rdma" key)
RDMA_OF = {u: d["rdma"] for u, d in regmap.UNITS.items() if "rdma" in d}
# the GLB done interrupts of a convolution layer -> the units whose D_OP_ENABLE reads 1 until the host has
# waited for it (NVIDIA: CDMA raises its data and weight dones, CACC its own)
CONV_DONES = {"CDMA_DAT": ("CDMA",), "CDMA_WT": ("CDMA",), "CACC": ("CACC", "CMAC_A", "CMAC_B", "CSC")}


@dataclass
class RunRecord:
    """One operation the model ran: its unit, group, output cube (None: not written to memory), statistics."""

    unit: str
    group: int
    layout: CubeLayout | None
    stats: dict[str, int]
    mem: int = 0   # the memory the output cube went to


class ModelTarget:
    """The reference model behind the register interface (the replay's Target)."""

    def __init__(self, config: Configuration | None = None) -> None:
        self.config = config or configs.load()
        self.atom_bytes = self.config.atom_bytes
        # the CV SRAM exists (the RTL top's SEC_MEM); without it every DMA uses the first memory
        self.second_memory = self.config.second_memory
        self.units = {name: RegisterFile(name) for name in regmap.UNITS if name not in ("GLB", BDMA_UNIT)}
        self.units["SDP"].lut_present = self.config.sdp.lut
        self.glb = Glb()
        self.memories = [Memory(), Memory()]
        self.runs: list[RunRecord] = []
        # Layers the model finished at once but whose interrupt the host has not waited for yet: on the
        # hardware they still run, so their D_OP_ENABLE reads 1 (a `.txn` trace reads it right after the
        # enable). (unit, group) -> the register files and groups that read as enabled until then.
        self._unseen: dict[tuple[str, int], list[tuple[str, int]]] = {}
        self.bdma = Bdma(self.memories) if self.config.bdma else None
        # CDP's NaN/infinity bookkeeping, which spans layers (models/cdp/fp16.py)
        self._cdp_inputs = {reg: InputCounter() for reg in ("D_NAN_INPUT_NUM", "D_INF_INPUT_NUM")}
        self._cdp_nan_output = 0
        # SDP_RDMA's NaN/infinity input counters: they only change while counting is enabled (FP16 input)
        self._sdp_rdma_status = {"D_STATUS_NAN_INPUT_NUM": 0, "D_STATUS_INF_INPUT_NUM": 0}
        self.perf = perf.PerfCounters()   # the statistics counters across layers (models/perf.py)
        if self.bdma is not None:
            self.glb.implemented |= intr_mask([BDMA_UNIT])
        if self.config.rubik:
            self.glb.implemented |= intr_mask([RUBIK])

    # --- memory -------------------------------------------------------------------------------------------
    def mem_fill(self, mem: int, addr: int, size: int, value: int = 0) -> None:
        self.memories[mem].fill(addr, size, value)

    def mem_write(self, mem: int, addr: int, data: NDArray[np.uint8]) -> None:
        self.memories[mem].write(addr, data)

    def mem_read(self, mem: int, addr: int, size: int) -> NDArray[np.uint8]:
        return self.memories[mem].read(addr, size)

    # --- registers ----------------------------------------------------------------------------------------
    def reg_write(self, unit: str, reg: str, value: int) -> None:
        if unit == BDMA_UNIT:
            for group in self._bdma(unit).write(reg, value):
                self.glb.unit_done(unit, group)
            return
        if unit == RUBIK and not self.config.rubik:
            raise TraceError(f"{unit}: configuration {self.config.name} has no Rubik")
        rf = self.glb if unit == "GLB" else self.units[unit]
        if rf.write(reg, value):
            self._launch_ready()

    def reg_read(self, unit: str, reg: str) -> int:
        if unit == BDMA_UNIT:
            return self._bdma(unit).read(reg)
        if unit == "GLB":
            return self.glb.read(reg)
        rf = self.units[unit]
        value = rf.read(reg)
        if reg == "D_OP_ENABLE" and any((unit, rf.producer) in seen for seen in self._unseen.values()):
            value |= 1
        return value

    def _bdma(self, unit: str) -> Bdma:
        if self.bdma is None:
            raise TraceError(f"{unit}: configuration {self.config.name} has no BDMA")
        return self.bdma

    # --- interrupts ---------------------------------------------------------------------------------------
    def wait_interrupt(self, unit: str, group: int) -> bool:
        bit = 1 << intr_bit(unit, group)
        if not self.glb.status_bits & bit:
            return False
        self.glb.write("S_INTR_STATUS", bit)  # the player clears what it waited for
        self._unseen.pop((unit, group), None)
        return True

    def describe_pending(self) -> str:
        parts = []
        for name, u in self.units.items():
            if any(u.op_en):
                parts.append(f"{name} op_en={[int(x) for x in u.op_en]} consumer={u.consumer}")
        if self.bdma is not None and (any(self.bdma.busy) or self.bdma.queue):
            parts.append(f"BDMA busy={[int(x) for x in self.bdma.busy]} queued={len(self.bdma.queue)}")
        return "; ".join(parts) or "no unit enabled"

    # --- running units ------------------------------------------------------------------------------------
    def _launch_ready(self) -> None:
        # Each launch completes a group and may free the next, so repeat until nothing more can start.
        progress = True
        while progress:
            progress = False
            for unit in ("SDP", "CDP", "PDP"):
                if self.units[unit].running and self._try_run(unit):
                    progress = True
            if self.config.rubik and self.units[RUBIK].running:
                self._run_rubik()
                progress = True

    def _fields(self, *units: str) -> dict[str, dict[str, int]]:
        return {n: self.units[n].fields(self.units[n].consumer) for n in units}

    @property
    def _sec_mem(self) -> Memory | None:
        return self.memories[1] if self.second_memory else None

    def _out_mem(self, ram_mc: bool) -> int:
        """Index of the memory a DMA with this RAM type writes."""
        return memory_index(ram_mc, self.second_memory)

    def _done(self, unit: str, stats: dict[str, int], layout: CubeLayout | None, mem: int = 0,
              rdma_stats: dict[str, int] | None = None) -> None:
        rf = self.units[unit]
        known = {reg: value for reg, value in stats.items() if reg in rf.stats}
        group = rf.done(known)
        self.runs.append(RunRecord(unit, group, layout, stats, mem))
        enabled = [(unit, group)]
        rdma = self.units[RDMA_OF[unit]]
        if rdma.running:  # the RDMA of an operation that read memory finishes with it
            enabled.append((RDMA_OF[unit], rdma.done(rdma_stats or {})))
        self._unseen[(unit, group)] = enabled
        self.glb.unit_done(unit, group)

    def _try_run(self, unit: str) -> bool:
        runner: Callable[[], bool] = {"SDP": self._run_sdp, "CDP": self._run_cdp, "PDP": self._run_pdp}[unit]
        return runner()

    def _lut_tables(self, unit: str) -> Any:
        rf = self.units[unit]
        return rf.lut.tables() if rf.lut_used else None

    def _run_cdp(self) -> bool:
        from models.cdp import model as cdp

        if not self.units["CDP_RDMA"].running:
            return False
        fields = self._fields("CDP", "CDP_RDMA")
        cfg = cdp.CdpConfig.from_fields(fields, atom_bytes=self.atom_bytes,
                                        tables=self.units["CDP"].lut.tables(),
                                        precisions=self.config.precisions,
                                        int8_lut=self.config.cdp_int8_lut)
        res = cdp.run_cdp(cfg, self.memories[0], sec_mem=self._sec_mem)
        stats = _cdp_stats(res)
        # every layer runs the bookkeeping (the counts are 0 but at FP16); the register takes the value the
        # done before left (NVIDIA's nv_full RTL: the counts and the register update on the same edge)
        for reg, count in (("D_NAN_INPUT_NUM", res.nan_input), ("D_INF_INPUT_NUM", res.inf_input)):
            stats[reg] = self._cdp_inputs[reg].layer(count, LAST_COMMAND_BEATS)
        stats["D_NAN_OUTPUT_NUM"], self._cdp_nan_output = self._cdp_nan_output, res.nan_output
        self._done("CDP", stats, cdp.cube_layouts(cfg)[1], self._out_mem(cfg.dst_ram_mc))
        return True

    def _run_pdp(self, flying_input: NDArray[np.integer] | None = None) -> bool:
        from models.pdp import model as pdp

        fields = self._fields("PDP", "PDP_RDMA")
        cfg = pdp.PdpConfig.from_fields(fields, atom_bytes=self.atom_bytes, precisions=self.config.precisions)
        if cfg.flying and flying_input is None:
            return False  # waits for the SDP that feeds it
        if not cfg.flying and not self.units["PDP_RDMA"].running:
            return False
        pdp.run_pdp(cfg, self.memories[0], flying_input=flying_input, sec_mem=self._sec_mem)
        self._done("PDP", {}, pdp.dst_layout(cfg), self._out_mem(cfg.dst_ram_mc))
        return True

    def _run_rubik(self) -> None:
        from models.rubik import model as rubik

        cfg = rubik.RubikConfig.from_fields(self.units[RUBIK].fields(self.units[RUBIK].consumer))
        rubik.run_rubik(cfg, self.memories[0], sec_mem=self._sec_mem)
        # the stall counters depend on the memory's timing (not modelled): their registers keep their value
        group = self.units[RUBIK].done({})
        self.runs.append(RunRecord(RUBIK, group, None, {}, self._out_mem(cfg.dst_ram_mc)))
        self._unseen[(RUBIK, group)] = [(RUBIK, group)]
        self.glb.unit_done(RUBIK, group)

    def _run_conv(self, cfg: Any) -> NDArray[np.int64]:
        """The convolution layer feeding SDP on the fly (CDMA..CACC armed): SDP's input cube, CACC's INT32
        outputs in its first K lanes (the lanes of the last atom past K: 0, the sum over zero weights); each
        unit finishes its group, GLB gets CDMA's data and weight dones and CACC's."""
        from models.conv import conv

        c = conv.ConvConfig.from_fields(self._fields(*configs.CONV_UNITS), self.config)
        if (cfg.width, cfg.height, cfg.channels) != (c.out_width, c.out_height, c.kernels):
            raise ConfigError("SDP's D_DATA_CUBE_* must be CACC's output cube when SDP takes it on the fly",
                              {"SDP": f"{cfg.width}x{cfg.height}x{cfg.channels}",
                               "CACC": f"{c.out_width}x{c.out_height}x{c.kernels}"})
        res = conv.run_conv(c, self.memories[0], self._sec_mem)
        cube = np.zeros((cfg.padded_channels, c.out_height, c.out_width), dtype=np.int64)
        cube[:c.kernels] = res.output
        stats = {"CACC": {"D_OUT_SATURATION": res.saturation_count}}
        for unit in configs.CONV_UNITS:
            group = self.units[unit].done(stats.get(unit, {}))
            self.runs.append(RunRecord(unit, group, None, stats.get(unit, {})))
        for source, units in CONV_DONES.items():
            self._unseen[(source, group)] = [(u, group) for u in units]
            self.glb.unit_done(source, group)
        return cube

    def _conv_armed(self) -> bool:
        return all(self.units[u].running for u in configs.CONV_UNITS)

    def _run_sdp(self) -> bool:
        from models.sdp import model as sdp

        fields = self._fields("SDP", "SDP_RDMA")
        cfg = sdp.SdpConfig.from_fields(fields, atom_bytes=self.atom_bytes, precisions=self.config.precisions,
                                        features=self.config.sdp)
        if _sdp_needs_rdma(fields["SDP_RDMA"], cfg.flying_in) and not self.units["SDP_RDMA"].running:
            return False
        if cfg.to_pdp and not self.units["PDP"].running:
            return False  # on the fly to PDP: both must be enabled, SDP stalls otherwise
        if cfg.flying_in and not self._conv_armed():
            return False  # on the fly from CACC: waits for the whole convolution pipeline
        flying = self._run_conv(cfg) if cfg.flying_in else None
        res = sdp.run_sdp(cfg, self.memories[0], flying_input=flying, sec_mem=self._sec_mem,
                          lut_tables=self._lut_tables("SDP"))
        layout = sdp.dst_layout(cfg) if res.written else None
        # the LUT and saturation counters as their D_PERF_ENABLE fields gate them (the stall counts depend
        # on the memory's timing: not modelled, their registers keep their value)
        counted = self.perf.layer(fields, perf.sdp_counts(res.lut_stats, res.saturation_count))
        stats = {"D_STATUS": int(res.status_unequal), **{reg: v for (_, reg), v in counted.items()}}
        # NVIDIA's nv_full counts NaN and infinite inputs in SDP_RDMA (MRDMA, with its PERF_NAN_INF_COUNT_EN)
        # and ties SDP's own two registers to 0
        status = dict(res.status)
        counts = {reg: status.pop(reg) for reg in self._sdp_rdma_status if reg in status}
        stats.update(status)
        stats.update({reg: 0 for reg in self._sdp_rdma_status})
        if counts and not cfg.flying_in and fields["SDP_RDMA"].get("D_PERF_ENABLE.PERF_NAN_INF_COUNT_EN"):
            self._sdp_rdma_status = counts
        self._done("SDP", stats, layout, self._out_mem(cfg.dst_ram_mc), dict(self._sdp_rdma_status))
        if cfg.to_pdp and not self._run_pdp(flying_input=res.flying_output):
            raise TraceError("SDP sends its output on the fly but PDP is not in on-the-fly mode")
        return True


def _sdp_needs_rdma(rdma: dict[str, int], flying_in: bool) -> bool:
    operands = any(rdma.get(f"D_{b}_CFG.{b}_DISABLE", 1) == 0 for b in ("BRDMA", "NRDMA", "ERDMA"))
    return operands or not flying_in


def _cdp_stats(res: Any) -> dict[str, int]:
    stats = {"D_OUT_SATURATION": int(getattr(res, "out_saturation", 0))}
    for name in ("le_hit", "lo_hit", "uflow", "oflow", "hybrid"):
        if hasattr(res, name):
            stats[f"D_PERF_LUT_{name.upper()}"] = int(getattr(res, name))
    return stats
