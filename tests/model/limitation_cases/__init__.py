"""Seed 001's Limitation-rule cases per unit, as data for tests/model/test_limitations.py."""
