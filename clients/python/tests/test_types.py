"""mypy --strict over the package (its generated part included) and over every ```python block of
README.md, so the types users see are checked, and the examples use them as typed."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

PACKAGE = Path(__file__).parents[1]
README = (PACKAGE / "README.md").read_text()


def test_the_package_type_checks_strictly(mypy_strict: Callable[..., None]) -> None:
    mypy_strict(str(PACKAGE / "src" / "wilayah_api"), config=PACKAGE / "pyproject.toml")


def test_the_readme_examples_type_check(tmp_path: Path, mypy_strict: Callable[..., None]) -> None:
    blocks = [m.group(1) for m in re.finditer(r"^```python[^\n]*\n(.*?)^```$", README, re.M | re.S)]
    assert blocks
    files = []
    for i, code in enumerate(blocks, 1):
        f = tmp_path / f"readme_block_{i:02d}.py"
        f.write_text(code)
        files.append(str(f))
    os.environ["MYPYPATH"] = str(PACKAGE / "src")
    mypy_strict(*files, config=PACKAGE / "pyproject.toml")
