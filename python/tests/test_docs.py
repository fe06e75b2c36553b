"""test_docs.py — every ```python block of docs/python.md runs as written,
with the build's `hoyle` program: the notebook script (the first block)
and the reinforcement-learning snippets. A block whose first line is
"# needs: PKG ..." is skipped when one of those packages does not import
(PettingZoo and Gymnasium are not in Debian)."""
import importlib.util
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT


def blocks():
    text = open(os.path.join(ROOT, "docs", "python.md")).read()
    found = re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)
    assert len(found) >= 4, "docs/python.md has lost its ```python blocks"
    return found


def run_block(code, cli, tmp_path):
    script = tmp_path / "example.py"
    script.write_text(code)
    env = dict(os.environ, HOYLE_CLI=cli, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_docs_example(cli, tmp_path):
    out = run_block(blocks()[0], cli, tmp_path)
    assert "W/D/L" in out and "episode reward" in out and "over 4 games" in out


@pytest.mark.parametrize("index", range(1, 4))
def test_docs_rl_snippets(index, cli, tmp_path):
    code = blocks()[index]
    first = code.split("\n", 1)[0]
    if first.startswith("# needs:"):
        for pkg in first.split(":", 1)[1].split():
            if importlib.util.find_spec(pkg) is None:
                pytest.skip(f"{pkg} is not installed")
    out = run_block(code, cli, tmp_path)
    assert out.strip(), "the snippet printed nothing"


def test_docs_name_the_az_key():
    """The az agent's network parameter is `model` (train/agent_az.c): the
    docs and docstrings must not teach `az(net=...)`."""
    paths = [os.path.join(ROOT, "docs", "python.md"), os.path.join(ROOT, "README.md")]
    paths += [os.path.join(ROOT, "python", "hoyle", f) for f in os.listdir(os.path.join(ROOT, "python", "hoyle"))
              if f.endswith(".py")]
    for path in paths:
        assert "az(net=" not in open(path).read(), f"{path} names az(net=...): the key is model"
    src = open(os.path.join(ROOT, "train", "agent_az.c")).read()
    assert '.key = "model"' in src
