"""The configuration files (configs/*.json, models/configs.py): every shipped one loads, a configuration that
makes no sense fails naming the parameter, a trace folder picks its configuration by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from models import configs
from models import registers as regmap
from models.replay import replay_on_model, replay_on_own_config
from models.trace import REPO_TRACES, default_trace_folders, kindred_configurations

SHIPPED = ("nv_small", "nv_small_256_full", "nv_medium_512", "nv_medium_1024_full", "nv_large", "nv_full")


def test_every_named_configuration_is_shipped_and_loads() -> None:
    assert set(SHIPPED) <= set(configs.names())
    for name in configs.names():
        cfg = configs.load(name)
        assert cfg.bus_bits == cfg.atom_bytes * 8
        params = cfg.verilog_parameters()
        assert params["ATOM"] == cfg.atom_bytes and params["PDP_MAX_W"] == cfg.pdp_band_width(1, 1)
        # NVIDIA's cal2d: 8 banks of 16 columns at every atom (its "16 elements in width in worst case")
        assert cfg.pdp_bank_columns == 16


def test_nv_small_matches_nvidia_nv_small() -> None:
    cfg = configs.load("nv_small")
    assert (cfg.atom_bytes, cfg.bus_bits, cfg.second_memory, cfg.bdma) == (8, 64, False, False)
    # NVIDIA's nv_small PDP line buffer: 8 banks of 128 x 14-bit entries (1792 bytes of accumulators)
    assert cfg.pdp_line_buffer_bytes == 1792 and cfg.pdp_max_width == 128


@pytest.mark.parametrize(("kernel_h", "stride_h", "rows", "width"), [
    (1, 1, 1, 128), (2, 2, 1, 128), (3, 8, 1, 128), (2, 1, 2, 64), (3, 2, 2, 64), (4, 2, 2, 64),
    (3, 1, 3, 32), (4, 1, 4, 32), (7, 2, 4, 32), (7, 3, 3, 32), (6, 3, 2, 64), (5, 4, 2, 64),
    (5, 1, 5, 16), (8, 1, 8, 16)])
def test_pdp_band_width_follows_the_rows_in_flight(kernel_h: int, stride_h: int, rows: int,
                                                   width: int) -> None:
    """NVIDIA's cal2d buffer_lines_num and bank_merge_num (checked on its nv_full RTL: one column more hangs
    the layer), the same at every atom."""
    assert configs.pdp_rows_in_flight(kernel_h, stride_h) == rows
    for name in configs.names():
        assert configs.load(name).pdp_band_width(kernel_h, stride_h) == width


@pytest.mark.parametrize(("name", "geometry"), [
    ("nv_small", (8, 8, 32, 512, 128)), ("nv_small_256_full", (32, 8, 32, 128, 128)),
    ("nv_medium_512", (32, 16, 32, 512, 512)), ("nv_medium_1024_full", (32, 32, 32, 512, 512)),
    ("nv_large", (64, 32, 16, 512, 512)), ("nv_full", (64, 32, 16, 256, 512))])
def test_convolution_geometry_is_nvidias(name: str, geometry: tuple[int, ...]) -> None:
    """MAC_ATOMIC_C/K and CBUF_BANK_* of NVIDIA's spec/defs/<name>.spec; nv_full: branch nvdlav1, whose CBUF
    is 256 entries of 128 bytes a bank (its cmod and RTL), not its spec file's 512 x 64."""
    conv = configs.load(name).conv
    assert (conv.atomic_c, conv.atomic_k, conv.cbuf_banks, conv.cbuf_bank_entries,
            conv.cbuf_bytes // 1024) == geometry


def test_nv_full_uses_nvidias_nvdlav1_csb_windows() -> None:
    windows = configs.load("nv_full").csb_windows
    got = (windows["GLB"], windows["SDP_RDMA"], windows["BDMA"], windows["CDP"])
    assert got == (0, 0xA000, 0x4000, 0xF000)
    conv = tuple(windows[u] for u in ("CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC"))
    assert conv == (0x5000, 0x6000, 0x7000, 0x8000, 0x9000)   # nvdlav1 cmod/include/arnvdla.h
    small = configs.load("nv_small").csb_windows
    assert tuple(small[u] for u in ("CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC")) == (
        0x3000, 0x4000, 0x5000, 0x6000, 0x7000)
    assert configs.load("nv_large").csb_windows["SDP_RDMA"] == regmap.UNITS["SDP_RDMA"]["base"] == 0x8000


def _write(tmp_path: Path, **changes: object) -> Path:
    raw = json.loads((configs.CONFIG_DIR / "nv_large.json").read_text())
    raw["name"] = "broken"
    for key, value in changes.items():
        if "__" in key:
            outer, inner = key.split("__")
            raw[outer][inner] = value
        else:
            raw[key] = value
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(raw))
    return path


@pytest.mark.parametrize(("changes", "param"), [
    ({"sdp__ew_throughput": 16, "sdp__bs_throughput": 8}, "sdp.ew_throughput"),
    ({"bus_bits": 128}, "bus_bits"),                 # a 32-byte atom on a 128-bit bus
    ({"atom_bytes": 12}, "atom_bytes"),
    ({"csb_map": "nv_tiny"}, "csb_map"),
    ({"second_memory_bits": 64}, "second_memory_bits"),
    ({"cdp_throughput": 3}, "cdp_throughput"),
    ({"precisions": ["FP16"]}, "precisions"),
    ({"pdp_line_buffer_bytes": 16}, "pdp_line_buffer_bytes"),
    ({"bdma": True, "second_memory_bits": 0}, "bdma"),
    ({"conv__atomic_c": 24}, "conv.atomic_c"),
    ({"conv__atomic_k": 64}, "conv.atomic_k"),
    ({"conv__cbuf_banks": 64}, "conv.cbuf_banks"),
    ({"conv__cbuf_bank_entries": 100}, "conv.cbuf_bank_entries"),
    ({"conv__cbuf_entry_bytes": 32}, "conv.cbuf_entry_bytes"),   # an entry is one atomic C (64 here)
    ({"conv__atomic_c": 16, "conv__atomic_k": 16, "conv__cbuf_entry_bytes": 16}, "conv.atomic_c"),  # < atom
])
def test_a_configuration_that_makes_no_sense_names_the_parameter(tmp_path: Path, changes: dict[str, object],
                                                                   param: str) -> None:
    with pytest.raises(configs.ConfigurationError, match=f"broken: {param}:"):
        configs.parse(_write(tmp_path, **changes))


def test_trace_folders_pick_their_configuration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CONFIG", raising=False)
    assert configs.for_trace_folder(tmp_path / "nv_large" / "pdp_x").name == "nv_large"
    assert configs.for_trace_folder(tmp_path / "elsewhere").name == "nv_small"
    assert configs.for_trace_folder(tmp_path / "elsewhere", "nv_full").name == "nv_full"
    monkeypatch.setenv("CONFIG", "nv_medium_512")
    assert configs.for_trace_folder(tmp_path / "nv_large" / "pdp_x").name == "nv_medium_512"


def test_an_unknown_configuration_lists_the_known_ones() -> None:
    with pytest.raises(configs.ConfigurationError, match="known: .*nv_large"):
        configs.load("nv_huge")


@pytest.mark.parametrize(("trace", "config", "lacks"), [
    ("nv_full/sanity1_cvsram", "nv_large", "BDMA"),                               # nv_large has no BDMA
    ("nv_small_256_full/sdp_13x4x29_ew_lut_int8", "nv_small", "a second memory"),  # nor nv_small a CV SRAM
])
def test_a_trace_needing_what_the_configuration_lacks_is_a_skip(trace: str, config: str, lacks: str) -> None:
    result = replay_on_model(REPO_TRACES / trace, configs.load(config))
    assert not result.passed and result.message.startswith(f"SKIP: needs {lacks}"), result.message
    assert config in result.message
    assert replay_on_own_config(REPO_TRACES / trace).passed  # on its own configuration it runs


def test_an_sdp_without_ew_or_lut_bypasses_them_and_the_driver_refuses_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """nv_medium_512 (NVIDIA's SDP_EW_DISABLE, SDP_LUT_DISABLE): registers that switch EW or the LUT on
    are ignored by the model as by the hardware; the driver names the missing block; the LUT port keeps no
    data."""
    import numpy as np

    from models.errors import ConfigError
    from models.lut.model import LutRam
    from models.sdp.driver import EwBlock, Surface, sdp_layer
    from models.sdp.model import SdpConfig, sdp_compute
    from tests.model.sdp_regs import sdp_fields

    small = configs.load("nv_medium_512")
    assert not small.sdp.ew and not small.sdp.lut and small.verilog_parameters()["SDP_EW"] == 0
    ew_on = sdp_fields(c=16, D_DP_EW_CFG__EW_BYPASS=0, D_DP_EW_CFG__EW_ALU_BYPASS=0,
                       D_DP_EW_CFG__EW_ALU_ALGO=2, D_DP_EW_ALU_SRC_VALUE__EW_ALU_OPERAND=5)
    x = np.arange(16).reshape(16, 1, 1)
    assert sdp_compute(x, SdpConfig.from_fields(ew_on, 16)).data.ravel()[0] == 5       # EW adds 5
    assert sdp_compute(x, SdpConfig.from_fields(ew_on, 16, features=small.sdp)).data.ravel()[0] == 0
    monkeypatch.setenv("CONFIG", "nv_medium_512")
    with pytest.raises(ConfigError, match="configuration nv_medium_512 has no EW"):
        sdp_layer(1, 1, 16, ew=EwBlock(bypass=False, alu_bypass=False, alu_operand=5),
                  src=Surface(0x1000, 0x100, 0x1000), dst=Surface(0x40000, 0x100, 0x1000))
    ram = LutRam(saturating=False, present=False)
    ram.write_cfg(1 << 17)          # write mode, LE table, address 0
    ram.write_data(0x1234)
    ram.write_cfg(0)
    assert ram.read_data() == 0 and ram.read_cfg() == 0


def test_kin_without_traces_of_its_own_replays_its_kins_traces(monkeypatch: pytest.MonkeyPatch) -> None:
    """nv_medium_1024_full has no NVDLA traces; nv_large's (same 32-byte atom and CSB map, other throughputs)
    run on it unchanged, and must pass (its RTL replays them in the bench nv_medium_1024_full_traces), but
    for the convolution traces: their weight images are laid out for nv_large's atomic C 64
    (nv_medium_1024_full has 32), a SKIP naming that."""
    kin = configs.load("nv_medium_1024_full")
    assert kindred_configurations(kin) == ["nv_large"]
    assert kindred_configurations(configs.load("nv_medium_512")) == []   # no other 16-byte atom
    monkeypatch.setenv("CONFIG", kin.name)
    folders = default_trace_folders()
    assert [f.parent.name for f in folders] == ["nv_large"] * 11
    for folder in folders:
        result = replay_on_model(folder)
        if folder.name.startswith("dc_"):
            assert result.message.startswith("SKIP") and "atomic C 64, K 32" in result.message, result.message
        else:
            assert result.passed, f"{folder.name} on {kin.name}: {result.message}"


def test_a_configuration_file_outside_configs_is_loaded_by_path(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """CONFIG=<file>.json: a size configs/ does not ship, here nv_large's atom with other throughputs and a
    smaller line buffer; everything follows its parameters, and it replays its kin's traces."""
    raw = json.loads((configs.CONFIG_DIR / "nv_large.json").read_text())
    raw.update(name="my_npu", cdp_throughput=2, pdp_throughput=4, pdp_line_buffer_bytes=3584)
    raw["sdp"].update(bs_throughput=4, bn_throughput=2, ew_throughput=1)
    path = tmp_path / "my_npu.json"
    path.write_text(json.dumps(raw))
    monkeypatch.setenv("CONFIG", str(path))
    cfg = configs.load()
    assert (cfg.name, cfg.atom_bytes, cfg.pdp_max_width) == ("my_npu", 32, 64)   # 8 columns a bank
    assert cfg.verilog_parameters()["PDP_MAX_W"] == 64
    assert kindred_configurations(cfg) == ["nv_large", "nv_medium_1024_full"]
    assert [f.parent.name for f in default_trace_folders()] == ["nv_large"] * 11
    with pytest.raises(configs.ConfigurationError, match="no configuration|cannot read"):
        configs.load(str(tmp_path / "absent.json"))
