"""Bus functional models on cocotbext-axi's pattern (queues, background coroutines, pause generators,
monitors):

- axi_ram.py: cocotbext-axi's own AxiRam (queue-based, one background coroutine per channel); the benches
  only give each channel a pause generator (`set_memory_pauses`).
- stream.py: valid/ready streams. `StreamBus` (a cocotb_bus `Bus`: `<prefix>_valid/_ready/_data` plus
  side-band signals) names the signals; `StreamSource` and `StreamSink` each own a queue served by a
  background coroutine started at construction, throttled by `set_pause_generator()` (iterators of bools:
  `never_pause`, `random_pause`, `bursty_pause`, `pick_pause`), with `send_nowait`/`send`/`wait`/`idle` and
  `accept`/`recv`. A sink raises ready only while the bench wants beats, so the DUT sees backpressure whenever
  the bench expects nothing, and `recv` fails after `idle_limit` cycles without a beat instead of hanging.
  `StreamMonitor` is passive: it records every handshake and fails the test on a valid/ready protocol
  violation (valid falling, or data changing, while ready is low); lut, sdp_core, cdp_core and sdp_rdma
  attach one to each DUT output stream for every test. The `bfm` bench (tb/tests/test_bfm.py, on the skid
  buffer) checks the BFMs themselves: zero-bubble throughput, order under random pauses, violations
  flagged, stalled sinks failing.
- csb.py: the CSB master: write()/read() queue an operation and await its event, one background coroutine
  serves them in call order, one transaction at a time. `CsbMonitor` records every request and checks
  the protocol (requests held until accepted, responses in order, none unasked); the regs benches use it.
- sim_memory.py: not on the bus: loads and reads tb/hdl/nvdla_sim_axi_mem.v through simulator handles.
Other passive monitors that tests need (AR handshakes per ID, burst checks) live with their environment or
test (tb/env/cdp.py `record_reads`), started with `cocotb.start_soon` and cancelled when done.
"""
