"""Random register programs for NVIDIA's nv_full RTL (nvdla-ref) and the model: gen_ref_programs.py."""
