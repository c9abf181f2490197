"""mypy --strict over the package (its generated part included) and over every ```python block of
README.md, so the types users see are checked, and the examples use them as typed."""

from __future__ import annotations

import os
import re
from pathlib import Path

from mypy import api

PACKAGE = Path(__file__).parents[1]
README = (PACKAGE / "README.md").read_text()


def mypy(*targets: str) -> None:
    out, err, status = api.run(["--strict", "--python-version", "3.11", "--no-incremental", "--config-file", str(PACKAGE / "pyproject.toml"), *targets])
    assert status == 0, out + err


def test_the_package_type_checks_strictly() -> None:
    mypy(str(PACKAGE / "src" / "wilayah_api"))


def test_the_readme_examples_type_check(tmp_path: Path) -> None:
    blocks = [m.group(1) for m in re.finditer(r"^```python[^\n]*\n(.*?)^```$", README, re.M | re.S)]
    assert blocks
    files = []
    for i, code in enumerate(blocks, 1):
        f = tmp_path / f"readme_block_{i:02d}.py"
        f.write_text(code)
        files.append(str(f))
    os.environ["MYPYPATH"] = str(PACKAGE / "src")
    mypy(*files)
