"""SDP (single-point data processor): the model, its datapath, its FP16 variant and the driver."""
