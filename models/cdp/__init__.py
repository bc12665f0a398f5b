"""CDP (local response normalization): the model, its FP16 variant and the driver."""
