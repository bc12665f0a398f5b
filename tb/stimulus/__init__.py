"""Random configuration builders (no simulator needed): per bench family, what one random legal case is.

lut.py: LUT shapes, tables and configurations; cdp_core.py / sdp_core.py: the datapath cores' raw register
fields, convertors and aimed LUTs; cdp_top.py / sdp_top.py: top-level layers through the driver layers.
"""
