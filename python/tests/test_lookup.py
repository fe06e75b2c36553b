"""test_lookup.py — where the package finds libhoyle.so (hoyle/_lib.py):
$HOYLE_LIB first and alone, then a copy next to the package."""
import os
import shutil
import subprocess
import sys

import hoyle
from conftest import ROOT


def run_python(code, env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


def test_hoyle_lib_alone_and_missing(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), HOYLE_LIB=str(tmp_path / "nope.so"))
    r = run_python("import hoyle", env)
    assert r.returncode != 0 and "nope.so" in r.stderr and "HOYLE_LIB" in r.stderr


def test_library_next_to_the_package(tmp_path):
    pkg = tmp_path / "site"
    shutil.copytree(os.path.join(ROOT, "python", "hoyle"), pkg / "hoyle",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(hoyle.library_path, pkg / "hoyle" / "libhoyle.so")
    env = {k: v for k, v in os.environ.items() if k != "HOYLE_LIB"}
    env["PYTHONPATH"] = str(pkg)
    r = run_python("import hoyle; print(hoyle.library_path); print(hoyle.Game('checkers').spec)", env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [str(pkg / "hoyle" / "libhoyle.so"), "checkers(variant=english)"]
