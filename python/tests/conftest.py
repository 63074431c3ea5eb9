"""Shared fixtures: the `hlolayout` CLI binary the answers are compared to."""

import json
import os
import subprocess

import pytest


def _runfile(path):
    root = os.environ.get("TEST_SRCDIR")
    if root:
        candidate = os.path.join(root, "hlolayout", path)
        if os.path.exists(candidate):
            return candidate
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "..", path)


class Cli:
    """Runs the real `hlolayout` binary."""

    def __init__(self, binary):
        self.binary = binary

    def run(self, *args, input=""):
        return subprocess.run([self.binary] + list(args), input=input,
                              capture_output=True, text=True)

    def json(self, *args, input=""):
        r = self.run(*args, input=input)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    def text(self, *args, input=""):
        r = self.run(*args, input=input)
        assert r.returncode == 0, r.stderr
        return r.stdout.rstrip("\n")


@pytest.fixture(scope="session")
def cli():
    binary = _runfile("cli/hlolayout")
    if not os.path.exists(binary):
        pytest.skip("cli/hlolayout not built")
    return Cli(binary)


@pytest.fixture(scope="session")
def example_dump():
    return _runfile("examples/module_0001.jit_train_step.after_optimizations.txt")
