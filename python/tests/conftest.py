import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs torch and a CUDA GPU")
