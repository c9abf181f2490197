import pytest


@pytest.fixture
def anyio_backend():
    # The async tests run on asyncio (anyio's pytest plugin ships with httpx's dependency anyio).
    return "asyncio"
