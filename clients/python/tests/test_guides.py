"""The guides' Python samples (docs/api.md fences ``python sdk``, taken from src/site/guides.json, which
scripts/guides.ts builds from it): each type-checks with mypy --strict and runs against the Worker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[3]
SRC = Path(__file__).parents[1] / "src"
SAMPLES = [s["code"] for s in json.loads((ROOT / "src" / "site" / "guides.json").read_text())["samples"] if s["lang"] == "python" and s["annotation"] == "sdk"]


def test_the_guides_have_python_samples_and_they_type_check(tmp_path: Path, mypy_strict: Callable[..., None]) -> None:
    assert SAMPLES
    files = []
    for i, code in enumerate(SAMPLES, 1):
        f = tmp_path / f"guide_sample_{i}.py"
        f.write_text(code)
        files.append(str(f))
    os.environ["MYPYPATH"] = str(SRC)
    mypy_strict(*files)


@pytest.mark.parametrize("number", range(1, len(SAMPLES) + 1))
def test_a_guide_sample_runs(number: int) -> None:
    if not os.environ.get("WILAYAH_BASE_URL") or not os.environ.get("WILAYAH_API_KEY"):
        raise RuntimeError("WILAYAH_BASE_URL / WILAYAH_API_KEY are not set: run clients/test.sh")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", SAMPLES[number - 1]], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
