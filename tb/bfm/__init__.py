"""Bus functional models, measured against cocotbext-axi's pattern (queues, background coroutines, pause
generators, monitors):

- axi_ram.py: cocotbext-axi's own AxiRam (queue-based, one background coroutine per channel); the benches
  only give each channel a pause generator (`set_memory_pauses`).
- stream.py: valid/ready source and sink. Pause generators as in cocotbext-axi (iterators of bools:
  `never_pause`, `random_pause`, `bursty_pause`, `pick_pause`). `send(beats)` / `recv(count)` drive the
  handshake themselves, so a bench runs them in the background with `cocotb.start_soon`; they are not
  queue-based, on purpose: a sink raises ready only while a `recv` wants beats, so the DUT sees backpressure
  whenever the bench expects nothing, and `recv` fails after `idle_limit` cycles instead of hanging.
- csb.py: the CSB master, one transaction at a time; concurrent callers queue on its lock.
- sim_memory.py: not on the bus: loads and reads tb/hdl/nvdla_sim_axi_mem.v through simulator handles.
Passive monitors that tests need (AR handshakes per ID, burst checks) live with their environment or test
(tb/env/cdp.py `record_reads`), started with `cocotb.start_soon` and cancelled when done.
"""
