"""Rubik (data reshape): the model and the driver."""
