"""One file per block family: each module here defines `BENCHES: tuple[Bench, ...]`.

tb/benches.py collects them, so adding a block's benches never edits a shared file.
"""
