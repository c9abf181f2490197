from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from mypy import api


@pytest.fixture
def anyio_backend():
    # The async tests run on asyncio (anyio's pytest plugin ships with httpx's dependency anyio).
    return "asyncio"


@pytest.fixture(scope="session")
def mypy_strict(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., None]:
    """mypy --strict for Python 3.11 over `targets`, failing the test with mypy's report. The runs of
    one session share a cache in a temporary folder (never the repository): the standard library,
    httpx and the package are analysed once, not in each of the four runs."""
    cache = tmp_path_factory.mktemp("mypy-cache")

    def run(*targets: str, config: Path | None = None) -> None:
        options = ["--strict", "--python-version", "3.11", "--cache-dir", str(cache)]
        if config is not None:
            options += ["--config-file", str(config)]
        out, err, status = api.run([*options, *targets])
        assert status == 0, out + err

    return run
