"""conftest.py — shared fixtures of the Python suite: the registry's variants
(every registered game is covered the moment it registers), the `hoyle`
program for making files, and HOYLE_SLOW_TESTS scaling."""
import os
import shutil
import subprocess

import pytest

import hoyle

SLOW = os.environ.get("HOYLE_SLOW_TESTS", "1") != "0"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def variant_specs():
    """Every registered game's named variants (the game's own name when it lists none)."""
    specs = []
    for entry in hoyle.games():
        specs += entry["variants"] or [entry["name"]]
    return specs


def pytest_generate_tests(metafunc):
    if "spec" in metafunc.fixturenames:
        metafunc.parametrize("spec", variant_specs())


@pytest.fixture(scope="session")
def cli():
    """The `hoyle` program: $HOYLE_CLI, the build tree's, or PATH's."""
    for p in (os.environ.get("HOYLE_CLI"), os.path.join(ROOT, "build", "apps", "hoyle"), shutil.which("hoyle")):
        if p and os.access(p, os.X_OK):
            return os.path.abspath(p)
    pytest.skip("the hoyle program was not found (set HOYLE_CLI)")


def run(cli, *args, **kw):
    return subprocess.run([cli, *args], check=True, capture_output=True, text=True, **kw)
