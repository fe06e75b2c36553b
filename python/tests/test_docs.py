"""test_docs.py — the example script of docs/python.md (its first ```python
block) runs as written, with the build's `hoyle` program."""
import os
import re
import subprocess
import sys

from conftest import ROOT


def test_docs_example(cli, tmp_path):
    text = open(os.path.join(ROOT, "docs", "python.md")).read()
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)
    assert blocks, "docs/python.md has no ```python block"
    script = tmp_path / "example.py"
    script.write_text(blocks[0])
    env = dict(os.environ, HOYLE_CLI=cli, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "W/D/L" in r.stdout and "episode reward" in r.stdout and "over 4 games" in r.stdout
