"""models/perf.py: the performance counters' enables and clears, layer after layer, against what NVIDIA's
nv_full RTL showed (docs/perf_counters.md "Checked on NVIDIA's RTL")."""

from __future__ import annotations

from models import registers as regmap
from models.perf import COUNTERS, MASK32, STALLS, PerfCounters, sdp_counts


def fields(unit: str, **values: int) -> dict[str, int]:
    """Every field of the unit at 0 except those given ("REG__FIELD" keyword -> "REG.FIELD")."""
    out = {f"{reg}.{name}": 0 for reg, r in regmap.registers(unit).items() for name in r["fields"]}
    for key, value in values.items():
        name = key.replace("__", ".")
        assert name in out, name
        out[name] = value
    return out


def run(counters: PerfCounters, unit: str, reg: str, enables: list[int], counts: list[int]) -> list[int]:
    """The register value after each layer of the unit's counter `reg`, its D_PERF_ENABLE.DMA_EN per layer."""
    return [counters.layer({unit: fields(unit, D_PERF_ENABLE__DMA_EN=en)}, {(unit, reg): n})[(unit, reg)]
            for en, n in zip(enables, counts, strict=True)]


def test_every_stall_register_has_a_counter() -> None:
    stall_regs = {(u, r) for u in ("PDP", "PDP_RDMA", "CDP", "CDP_RDMA", "SDP", "SDP_RDMA")
                  for r in regmap.registers(u) if r.startswith("D_PERF") and r.endswith("STALL")}
    assert set(STALLS) == stall_regs
    for c in COUNTERS:       # enables and disables name real fields
        assert c.enable in fields(c.unit) and (c.disable is None or c.disable in fields(c.unit))


def test_pdp_read_stalls_as_nv_full_counted_them() -> None:
    """nv_full, PDP_RDMA.D_PERF_READ_STALL after five layers (DMA_EN 1 1 0 1 1, memory withholding ready):
    0x2e16, 0x5c2e, 0x5c2e, 0x8a42, 0xb856: never cleared, a disabled layer counts nothing and its group
    takes the running value. With the per-layer counts those differences give, the model says the same."""
    counts = [0x2E16, 0x5C2E - 0x2E16, 123, 0x8A42 - 0x5C2E, 0xB856 - 0x8A42]
    got = run(PerfCounters(), "PDP_RDMA", "D_PERF_READ_STALL", [1, 1, 0, 1, 1], counts)
    assert got == [0x2E16, 0x5C2E, 0x5C2E, 0x8A42, 0xB856]


def test_cumulative_stall_counts_wrap_at_32_bits() -> None:
    counters = PerfCounters()
    got = run(counters, "CDP", "D_PERF_WRITE_STALL", [1, 1], [MASK32 - 5, 10])
    assert got == [MASK32 - 5, 4]


def test_sdp_rdma_as_nv_full_counted_them() -> None:
    """nv_full, five SDP layers with a BS operand from memory, SDP_RDMA PERF_DMA_EN 1 0 1 1 0: MRDMA read
    0xacc, 0, 0xace, 0xace, 0 (a disabled layer reads 0) and BRDMA 0x999, 0x999, 0x99b, 0x99b, 0x99b (a
    disabled layer keeps the last count)."""
    counters = PerfCounters()
    enables = [1, 0, 1, 1, 0]
    mrdma, brdma = ("SDP_RDMA", "D_PERF_MRDMA_READ_STALL"), ("SDP_RDMA", "D_PERF_BRDMA_READ_STALL")
    m_counts, b_counts = [0xACC, 7, 0xACE, 0xACE, 9], [0x999, 5, 0x99B, 0x99B, 3]
    out = [counters.layer({"SDP_RDMA": fields("SDP_RDMA", D_PERF_ENABLE__PERF_DMA_EN=en)},
                          {mrdma: m, brdma: b}) for en, m, b in zip(enables, m_counts, b_counts, strict=True)]
    assert [o[mrdma] for o in out] == [0xACC, 0, 0xACE, 0xACE, 0]
    assert [o[brdma] for o in out] == [0x999, 0x999, 0x99B, 0x99B, 0x99B]


def test_operand_rdma_counts_only_when_not_disabled() -> None:
    counters = PerfCounters()
    key = ("SDP_RDMA", "D_PERF_NRDMA_READ_STALL")
    first = counters.layer({"SDP_RDMA": fields("SDP_RDMA", D_PERF_ENABLE__PERF_DMA_EN=1)}, {key: 40})
    off = counters.layer({"SDP_RDMA": fields("SDP_RDMA", D_PERF_ENABLE__PERF_DMA_EN=1,
                                             D_NRDMA_CFG__NRDMA_DISABLE=1)}, {key: 70})
    assert (first[key], off[key]) == (40, 40)


def test_sdp_lut_and_saturation_enables() -> None:
    """PERF_LUT_EN gates the five LUT counters, PERF_SAT_EN the saturation counter, each on its own; a
    disabled one keeps the count of the last layer that had it enabled (nv_full showed this for saturation:
    0xfd12 again in a layer with PERF_SAT_EN 0)."""
    counters = PerfCounters()
    lut = {"le_hit": 5, "lo_hit": 6, "uflow": 7, "oflow": 8, "hybrid": 9}
    a = counters.layer({"SDP": fields("SDP", D_PERF_ENABLE__PERF_LUT_EN=1, D_PERF_ENABLE__PERF_SAT_EN=1)},
                       sdp_counts(lut, 0xFD12))
    b = counters.layer({"SDP": fields("SDP", D_PERF_ENABLE__PERF_LUT_EN=1)}, sdp_counts({}, 3))
    c = counters.layer({"SDP": fields("SDP", D_PERF_ENABLE__PERF_SAT_EN=1)}, sdp_counts(lut, 11))
    assert a["SDP", "D_PERF_LUT_UFLOW"] == 7 and a["SDP", "D_PERF_OUT_SATURATION"] == 0xFD12
    assert b["SDP", "D_PERF_LUT_UFLOW"] == 0 and b["SDP", "D_PERF_OUT_SATURATION"] == 0xFD12
    assert c["SDP", "D_PERF_LUT_UFLOW"] == 0 and c["SDP", "D_PERF_OUT_SATURATION"] == 11


def test_unknown_counts_are_left_alone() -> None:
    counters = PerfCounters()
    out = counters.layer({"SDP": fields("SDP", D_PERF_ENABLE__PERF_LUT_EN=1)}, sdp_counts({}, 0))
    assert ("SDP", "D_PERF_WDMA_WRITE_STALL") not in out
