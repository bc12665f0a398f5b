"""Pieces the unit models and drivers share: cubes, memory, FP16 arithmetic, precision converters, driver
helpers."""
