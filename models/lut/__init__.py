"""The hybrid LUT CDP and SDP share: the model, its FP16 variant, the register fields and the table
programs."""
