"""Top-level test environments: top.py the common one (`Top`: CSB master, memories, their model mirror,
interrupt waits; `StatsTop`: plus the statistics the model predicts; the start-up every top-level bench
shares), and one module a unit (pdp.py, cdp.py, sdp.py), siblings on it: how the unit's layer is prepared,
run and scored. The random layers they run come from tb/stimulus/.
"""
