"""The landing page's Python example (src/site/examples.ts, for this deployment's origin; clients/test.sh
passes it as WILAYAH_LANDING_PYTHON): it type-checks with mypy --strict and runs against the Worker."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path


SRC = Path(__file__).parents[1] / "src"


def test_the_landing_page_example_type_checks_and_runs(tmp_path: Path, mypy_strict: Callable[..., None]) -> None:
    code = os.environ.get("WILAYAH_LANDING_PYTHON")
    if not code or not os.environ.get("WILAYAH_API_KEY"):
        raise RuntimeError("WILAYAH_LANDING_PYTHON / WILAYAH_API_KEY are not set: run clients/test.sh")
    example = tmp_path / "landing.py"
    example.write_text(code)
    os.environ["MYPYPATH"] = str(SRC)
    mypy_strict(str(example))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(example)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Gambir" in done.stdout
