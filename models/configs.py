"""NVDLA configurations: one JSON file per configuration under configs/, the one place that sizes the
subsystem. The same object gives the RTL its parameters (`verilog_parameters`), the model its memory atom,
memories and units (models/subsystem.py), the replay its CSB address map, and the benchmarks their bus bound.

A configuration is checked when it is loaded: one that makes no sense (an atom the bus cannot carry, an EW
throughput above BS, a CSB map the register description lacks) raises ConfigurationError naming the
parameter, before anything is built from it.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from models import registers as regmap
from models.errors import ConfigError

CONFIG_DIR = Path(__file__).resolve().parent.parent / "configs"
DEFAULT = "nv_small"
ATOMS = (8, 16, 32)             # NVDLA's memory atoms (MEMORY_ATOMIC_SIZE)
PRECISIONS = ("INT8", "INT16", "FP16")
THROUGHPUTS = (1, 2, 4, 8, 16)  # elements per cycle NVIDIA's spec files use
CDP_INT8_LUT = ("narrow", "paired")
# NVIDIA's PDP line buffer (NV_NVDLA_PDP_CORE_cal2d): 8 banks of accumulators, 14 bits per INT8 element
# (BPE + 6; 28 bits per INT16/FP16 element, half as many an atom)
PDP_BANKS = 8
PDP_ACC_BITS = 14


def pdp_rows_in_flight(kernel_height: int, stride_height: int) -> int:
    """Output rows whose partial results PDP's line buffer holds at once (NVIDIA's buffer_lines_num)."""
    return 1 if stride_height >= kernel_height else -(-kernel_height // stride_height)


def pdp_row_groups(kernel_height: int, stride_height: int) -> int:
    """Bank groups the line buffer is cut into for those rows (NVIDIA's 8 / bank_merge_num): 1, 2, 4, 8."""
    rows = pdp_rows_in_flight(kernel_height, stride_height)
    return 1 if rows == 1 else 2 if rows == 2 else 4 if rows <= 4 else 8


# NVDLA's convolution core (spec/defs/<config>.spec): MAC_ATOMIC_C_SIZE_*, MAC_ATOMIC_K_SIZE_*, CBUF_BANK_*
ATOMIC_C = (8, 16, 32, 64)
ATOMIC_K = (8, 16, 32)
CBUF_BANKS = (16, 32)           # CDMA/CSC D_BANK counts banks in a 5-bit field (value = banks - 1)
CBUF_BANK_ENTRIES = (128, 256, 512)
CONV_UNITS = ("CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC")
RUBIK = "RUBIK"
# units the model has but the RTL top does not have yet (none today)
MODEL_ONLY_UNITS: tuple[str, ...] = ()


class ConfigurationError(ConfigError):
    """A configuration file that cannot describe a subsystem; the message names the parameter."""


@dataclass(frozen=True)
class SdpFeatures:
    bs_throughput: int
    bn_throughput: int
    ew_throughput: int   # 0: no EW
    lut: bool
    ew: bool


@dataclass(frozen=True)
class ConvGeometry:
    """The convolution core's sizes: CMAC's atomic C (input channels a MAC cell sums) and atomic K (kernels
    computed at once), and CBUF: banks of entries, an entry holding one atomic C of the widest precision."""

    atomic_c: int
    atomic_k: int
    cbuf_banks: int
    cbuf_bank_entries: int
    cbuf_entry_bytes: int

    @property
    def macs(self) -> int:
        return self.atomic_c * self.atomic_k

    @property
    def cbuf_bytes(self) -> int:
        return self.cbuf_banks * self.cbuf_bank_entries * self.cbuf_entry_bytes


@dataclass(frozen=True)
class Configuration:
    name: str
    desc: str
    source: str
    csb_map: str
    atom_bytes: int
    bus_bits: int
    second_memory_bits: int     # 0: no second memory (CV SRAM)
    bdma: bool
    # NVIDIA's Rubik (contract/split/merge data movement, nvdlav1 nv_full only): models/rubik/model.py
    rubik: bool
    precisions: tuple[str, ...]
    sdp: SdpFeatures
    cdp_throughput: int
    pdp_throughput: int
    pdp_line_buffer_bytes: int
    # how CDP's LUT control forms x - START at INT8 (models/lut/model.py, docs/lut.md "START width"): "narrow"
    # (START[21:0] on every channel: the master branch's RTL, nv_small) or "paired" (nvdlav1: two INT8
    # channels share an INT16 lane; the even one uses the whole START)
    cdp_int8_lut: str
    conv: ConvGeometry
    # true: every unit's element datapath a whole atom wide (speed over area, as before issue 29); false: the
    # datapath lanes come from the throughputs above, a gearbox between them and the atom-wide DMA side
    atom_wide_units: bool = False

    @property
    def second_memory(self) -> bool:
        return self.second_memory_bits > 0

    @property
    def bus_bytes(self) -> int:
        return self.bus_bits // 8

    @property
    def pdp_bank_columns(self) -> int:
        """Output columns one of the PDP line buffer's PDP_BANKS banks holds: NVIDIA's bank keeps one
        PDP_ACC_BITS accumulator per element of an atom per column (an INT16/FP16 atom: half the elements at
        twice the bits); 16 at every size NVIDIA builds (its cal2d: "16 elements in width in worst case")."""
        return self.pdp_line_buffer_bytes * 8 // (PDP_BANKS * self.atom_bytes * PDP_ACC_BITS)

    @property
    def pdp_max_width(self) -> int:
        """The widest PDP band: one output row in flight, every bank its own (128 at NVIDIA's sizes)."""
        return self.pdp_band_width(1, 1)

    def pdp_band_width(self, kernel_height: int, stride_height: int) -> int:
        """Output columns of one PDP band (a whole line without split) the line buffer holds for a kernel:
        NVIDIA's cal2d keeps the ceil(K/S) output rows in flight (1 when S >= K) and gives each a group of
        8, 4, 2 or 1 banks (1, 2, 3-4, 5-8 rows): 128, 64, 32 or 16 columns. A wider band hangs NVIDIA's
        RTL or writes wrong data (docs/limitations.md P11)."""
        return self.pdp_bank_columns * PDP_BANKS // pdp_row_groups(kernel_height, stride_height)

    @property
    def sdp_lanes(self) -> int:
        """Lanes of SDP's core: the BS/BN throughput, or the atom (atom-wide units, or INT16/FP16 in the
        precisions: their half-atom lanes are positional, rtl/sdp/nvdla_sdp_lanes.v)."""
        if self.atom_wide_units or set(self.precisions) & {"INT16", "FP16"}:
            return self.atom_bytes
        return min(self.sdp.bs_throughput, self.sdp.bn_throughput, self.atom_bytes)

    @property
    def sdp_lut_lanes(self) -> int:
        """Lanes of SDP's LUT: the EW throughput (the LUT sits in EW), or the core's lanes (atom-wide units,
        or no EW: the LUT is not built then)."""
        if self.atom_wide_units or not self.sdp.ew_throughput:
            return self.sdp_lanes
        return min(self.sdp.ew_throughput, self.sdp_lanes)

    @property
    def cdp_lut_lanes(self) -> int:
        """Lanes of CDP's LUT: the CDP throughput, at least 2 with nvdlav1's paired INT8 index (a lane keeps
        its channel's parity), or the atom (atom-wide units)."""
        if self.atom_wide_units:
            return self.atom_bytes
        return min(max(self.cdp_throughput, 2 if self.cdp_int8_lut == "paired" else 1), self.atom_bytes)

    def with_second_memory(self, present: bool) -> Configuration:
        """This configuration with or without the CV SRAM (a bench building the top at its own SEC_MEM)."""
        return dataclasses.replace(self, second_memory_bits=self.bus_bits if present else 0)

    @property
    def units(self) -> tuple[str, ...]:
        """The units of the register description this configuration's top has (BDMA and RUBIK only where
        declared; the convolution pipeline's CONV_UNITS in every configuration: the top builds them with
        CONV = 1)."""
        return tuple(u for u in regmap.UNITS if (u != "BDMA" or self.bdma) and (u != RUBIK or self.rubik)
                     and u not in MODEL_ONLY_UNITS)

    @property
    def csb_windows(self) -> dict[str, int]:
        """unit -> CSB byte base in this configuration's map."""
        return regmap.CSB_MAPS[self.csb_map]

    def csb_address(self, unit: str, reg: str) -> int:
        """Byte address of a register on this configuration's CSB."""
        return self.csb_windows[unit] + regmap.registers(unit)[reg]["offset"]

    def verilog_parameters(self) -> dict[str, int]:
        """The parameters of the top level (rtl/top/nvdla_pp_top.v) for this configuration."""
        return {"ATOM": self.atom_bytes, "CSB_MAP": list(regmap.CSB_MAPS).index(self.csb_map),
                "PDP_MAX_W": self.pdp_max_width, "SEC_MEM": int(self.second_memory), "BDMA": int(self.bdma),
                "RUBIK": int(self.rubik),
                "SDP_EW": int(self.sdp.ew), "SDP_LUT": int(self.sdp.lut),
                "INT16": int("INT16" in self.precisions),
                "CDP_LUT_PAIRED": int(self.cdp_int8_lut == "paired"),
                "FP16": int("FP16" in self.precisions),
                "CONV": 1, "ATOMIC_C": self.conv.atomic_c, "ATOMIC_K": self.conv.atomic_k,
                "CBUF_BANKS": self.conv.cbuf_banks, "CBUF_DEPTH": self.conv.cbuf_bank_entries,
                "CBUF_ENTRY": self.conv.cbuf_entry_bytes,
                "SDP_LANES": self.sdp_lanes, "SDP_LUT_LANES": self.sdp_lut_lanes,
                "CDP_LUT_LANES": self.cdp_lut_lanes}


def _fail(path: Path, param: str, why: str) -> ConfigurationError:
    return ConfigurationError(f"configuration {path.stem}: {param}: {why}", {"file": str(path)})


def _int(path: Path, raw: dict[str, Any], key: str, allowed: tuple[int, ...] | None = None,
         prefix: str = "") -> int:
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(path, prefix + key, f"an integer is required, not {value!r}")
    if allowed is not None and value not in allowed:
        raise _fail(path, prefix + key, f"{value} is not one of {allowed}")
    return value


def parse(path: Path) -> Configuration:
    """Read and check one configuration file."""
    try:
        raw = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise ConfigurationError(f"configuration {path.stem}: cannot read {path}: {err}", {}) from err
    if raw.get("name") != path.stem:
        raise _fail(path, "name", f"{raw.get('name')!r} differs from the file name")
    atom = _int(path, raw, "atom_bytes", ATOMS)
    bus = _int(path, raw, "bus_bits")
    if bus != atom * 8:
        # a narrower bus cannot carry an atom a beat; a wider one would need the DMA to pack atoms (not yet)
        raise _fail(path, "bus_bits", f"{bus} must be the atom's {atom * 8} bits (one atom a beat)")
    second = _int(path, raw, "second_memory_bits")
    if second not in (0, bus):
        raise _fail(path, "second_memory_bits", f"{second}: 0 (none) or the primary bus width {bus}")
    if raw.get("bdma") and not second:
        # NVDLA's BDMA is the bridge between the external memory and the CV SRAM (seed 001)
        raise _fail(path, "bdma", "true needs a second memory (second_memory_bits)")
    if not isinstance(raw.get("rubik", False), bool):
        raise _fail(path, "rubik", f"true or false, not {raw.get('rubik')!r}")
    if raw.get("csb_map") not in regmap.CSB_MAPS:
        raise _fail(path, "csb_map", f"{raw.get('csb_map')!r} is not one of {list(regmap.CSB_MAPS)}")
    precisions = tuple(raw.get("precisions", ()))
    if "INT8" not in precisions or any(p not in PRECISIONS for p in precisions):
        raise _fail(path, "precisions", f"{list(precisions)}: INT8 and any of {PRECISIONS[1:]}")
    sdp_raw = raw.get("sdp", {})
    sdp = SdpFeatures(_int(path, sdp_raw, "bs_throughput", THROUGHPUTS),
                      _int(path, sdp_raw, "bn_throughput", THROUGHPUTS),
                      _int(path, sdp_raw, "ew_throughput", (0, *THROUGHPUTS)),
                      bool(sdp_raw.get("lut")), bool(sdp_raw.get("ew")))
    if sdp.ew != (sdp.ew_throughput > 0):
        raise _fail(path, "sdp.ew_throughput", "non-zero exactly when sdp.ew is true")
    if sdp.ew_throughput > sdp.bs_throughput:
        raise _fail(path, "sdp.ew_throughput",
                    f"{sdp.ew_throughput} above sdp.bs_throughput {sdp.bs_throughput}")
    for key, value in (("sdp.bs_throughput", sdp.bs_throughput), ("sdp.bn_throughput", sdp.bn_throughput)):
        if value > atom:
            raise _fail(path, key, f"{value} elements a cycle exceed the {atom}-element atom")
    cdp = _int(path, raw, "cdp_throughput", THROUGHPUTS)
    pdp = _int(path, raw, "pdp_throughput", THROUGHPUTS)
    for key, value in (("cdp_throughput", cdp), ("pdp_throughput", pdp)):
        if value > atom:
            raise _fail(path, key, f"{value} elements a cycle exceed the {atom}-element atom")
    atom_wide = raw.get("atom_wide_units", False)
    if not isinstance(atom_wide, bool):
        raise _fail(path, "atom_wide_units", f"true or false, not {atom_wide!r}")
    lut_kind = raw.get("cdp_int8_lut")
    if lut_kind not in CDP_INT8_LUT:
        raise _fail(path, "cdp_int8_lut", f"{lut_kind!r} is not one of {CDP_INT8_LUT}")
    lbuf = _int(path, raw, "pdp_line_buffer_bytes")
    if lbuf * 8 < PDP_BANKS * atom * PDP_ACC_BITS:
        raise _fail(path, "pdp_line_buffer_bytes",
                    f"{lbuf} holds no column in each of {PDP_BANKS} banks of {PDP_ACC_BITS}-bit accumulators "
                    f"of a {atom}-byte atom")
    return Configuration(raw["name"], str(raw.get("desc", "")), str(raw.get("source", "")), raw["csb_map"],
                         atom, bus, second, bool(raw.get("bdma")), bool(raw.get("rubik")), precisions, sdp,
                         cdp, pdp, lbuf, lut_kind,
                         _conv(path, raw.get("conv", {}), atom, precisions), atom_wide)


def _conv(path: Path, raw: dict[str, Any], atom: int, precisions: tuple[str, ...]) -> ConvGeometry:
    """The convolution core's geometry, checked as NVIDIA's spec files combine it."""
    def get(key: str, allowed: tuple[int, ...] | None = None) -> int:
        return _int(path, raw, key, allowed, "conv.")

    geo = ConvGeometry(get("atomic_c", ATOMIC_C), get("atomic_k", ATOMIC_K), get("cbuf_banks", CBUF_BANKS),
                       get("cbuf_bank_entries", CBUF_BANK_ENTRIES), get("cbuf_entry_bytes"))
    if geo.atomic_k > geo.atomic_c:
        raise _fail(path, "conv.atomic_k", f"{geo.atomic_k} above atomic_c {geo.atomic_c} (no NVIDIA size)")
    entry = geo.atomic_c * (2 if set(precisions) & {"INT16", "FP16"} else 1)
    if geo.cbuf_entry_bytes != entry:
        # a CBUF entry is one atomic C of the widest precision (master: CBUF_BANK_WIDTH = MAC_ATOMIC_C_SIZE,
        # INT8 only; nvdlav1's nv_full: 128-byte entries, 64 INT16 channels)
        raise _fail(path, "conv.cbuf_entry_bytes",
                    f"{geo.cbuf_entry_bytes} must be one atomic C of the widest precision: {entry}")
    if geo.atomic_c < atom:
        # CDMA packs whole memory atoms into an entry
        raise _fail(path, "conv.atomic_c", f"{geo.atomic_c} below the {atom}-byte memory atom")
    return geo


def names() -> list[str]:
    return sorted(p.stem for p in CONFIG_DIR.glob("*.json"))


def load(name: str | None = None) -> Configuration:
    """A named configuration (default: $CONFIG, else nv_small). A name ending in .json is the path of a
    configuration file kept elsewhere (a size NVIDIA builds that configs/ does not ship, say)."""
    return _load(name or os.environ.get("CONFIG") or DEFAULT)


@cache
def _load(name: str) -> Configuration:
    path = Path(name) if name.endswith(".json") else CONFIG_DIR / f"{name}.json"
    if not path.exists():
        raise ConfigurationError(f"no configuration {name!r}; known: {', '.join(names())}", {})
    return parse(path)


def for_trace_folder(folder: Path, fallback: str = DEFAULT, env: bool = True) -> Configuration:
    """The configuration a trace runs on: $CONFIG when set (and `env`), else the nearest enclosing folder
    named after a configuration (traces/nv_large/... runs on nv_large), else `fallback` (the format's)."""
    if env and os.environ.get("CONFIG"):
        return load()
    known = set(names())
    for part in reversed(folder.resolve().parts):
        if part in known:
            return load(part)
    return load(fallback)
