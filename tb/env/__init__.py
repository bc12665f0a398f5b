"""Top-level test environments, one module per unit: the DUT wrapper class (CSB master, memory, interrupt
waits, statistics the model predicts), start-up, and how a layer is prepared, run and scored.

pdp.py holds the base `Top` and the start-up that every top-level bench shares; cdp.py and sdp.py extend it.
The random layers they run come from tb/stimulus/.
"""
