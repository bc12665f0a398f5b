"""The cocotb test modules: one a bench (tb/registry/ names them), run by tb/runner.py; never imported by
another module."""
