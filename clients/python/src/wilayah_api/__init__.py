"""Wilayah API for Python: Indonesia's administrative regions, search, reverse geocoding, postal
codes, islands, NIK decoding, BMKG weather, bulk exports and the account routes.

    from wilayah_api import Client

    with Client("https://api.example.com", api_key="wk_live_...") as client:
        found = client.search_regions(q="bandung", level="kabupaten")
        for region in found["data"]:
            print(region["id"], region["name"], region["parent"])

``Client`` and ``AsyncClient`` (``_client.py``) and the answer types (``models``) are generated from
the API document by clients/generate-python.ts; the rest (requests, retries, ApiError, paging) is
hand-written.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, TypeVar

from . import models
from ._base import Download
from ._client import AsyncClient, Client
from ._retry import RetryPolicy
from ._retry_after import parse_retry_after
from .errors import ApiError, ChecksumError
from .models import Page, PageMeta

__all__ = [
    "ApiError",
    "AsyncClient",
    "ChecksumError",
    "Client",
    "Download",
    "Page",
    "PageMeta",
    "RetryPolicy",
    "apaginate",
    "models",
    "paginate",
    "parse_retry_after",
]

T = TypeVar("T")


def paginate(fetch: Callable[..., Page[T]], /, **params: Any) -> Iterator[T]:
    """Every item of a paged list, page after page to the last (``meta.total_pages``).

        for kab in paginate(client.list_kabupaten, provinsi_id="32", per_page=100):
            print(kab["id"], kab["name"])
    """
    page: int = params.pop("page", 1)
    while True:
        answer = fetch(page=page, **params)
        yield from answer["data"]
        if answer["meta"]["page"] >= answer["meta"]["total_pages"] or not answer["data"]:
            return
        page = answer["meta"]["page"] + 1


async def apaginate(fetch: Callable[..., Awaitable[Page[T]]], /, **params: Any) -> AsyncIterator[T]:
    """``paginate`` for ``AsyncClient``: ``async for kab in apaginate(client.list_kabupaten, provinsi_id="32"): ...``"""
    page: int = params.pop("page", 1)
    while True:
        answer = await fetch(page=page, **params)
        for item in answer["data"]:
            yield item
        if answer["meta"]["page"] >= answer["meta"]["total_pages"] or not answer["data"]:
            return
        page = answer["meta"]["page"] + 1
