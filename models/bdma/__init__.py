"""BDMA (bridge DMA): the model and the driver."""
