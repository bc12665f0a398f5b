"""The convolution pipeline: CDMA, CSC/CMAC/CACC (conv) and the driver."""
