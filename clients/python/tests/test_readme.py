"""Every ```python block of README.md runs against the Worker (each in a fresh interpreter, so a block
must stand on its own), unless its fence says ``no-run``; those are still compiled."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = (Path(__file__).parents[1] / "README.md").read_text()
BLOCKS = [(m.group(1), m.group(2)) for m in re.finditer(r"^```python([^\n]*)\n(.*?)^```$", README, re.M | re.S)]


def test_the_readme_has_examples_and_they_compile():
    assert len(BLOCKS) >= 5
    for i, (_, code) in enumerate(BLOCKS, 1):
        compile(code, f"README block {i}", "exec")


@pytest.mark.parametrize("number", [i for i, (info, _) in enumerate(BLOCKS, 1) if "no-run" not in info])
def test_readme_block_runs(number):
    for name in ("WILAYAH_BASE_URL", "WILAYAH_API_KEY"):
        if not os.environ.get(name):
            raise RuntimeError(f"{name} is not set: run clients/test.sh")
    src = str(Path(__file__).parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", BLOCKS[number - 1][1]], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"README block {number} failed:\n{done.stderr}"
    print(done.stdout)
