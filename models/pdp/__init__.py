"""PDP (pooling): the model, its FP16 variant, the padding values and the driver."""
