"""What the generated clients (``_client.py``) stand on: building requests, authentication, retries
(``_retry.py``), ``ApiError`` for every error answer, JSON answers and file downloads. Hand-written.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import TracebackType
from typing import IO, Any, Literal, Self, Union
from urllib.parse import quote

import httpx

from ._retry import RetryPolicy, WilayahTransport
from .errors import ApiError, ChecksumError

Auth = Literal["apiKey", "bearer", "none"]
"""How an operation is authenticated: the API key (data), the session token (account routes), or not at all."""

Destination = Union[IO[bytes], str, os.PathLike[str]]
"""Where a download goes: a binary file object, or a path (the file is created or replaced)."""

_CHUNK = 1 << 16


@dataclass(frozen=True)
class Download:
    """A finished download: what the answer's headers said about the file written."""

    filename: str | None
    """The name the API suggests (``content-disposition``): it names the level and the export."""
    media_type: str
    size: int
    """Bytes written."""
    sha256: str | None
    """The checksum the API sent (``x-checksum-sha256``), checked against the bytes written."""
    data_version: str | None
    """The data version (``x-data-version``)."""


def _text(value: object) -> str:
    """A query or path value as the API reads it: booleans as true/false, decimals without exponent."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        text = f"{value:.12f}".rstrip("0").rstrip(".")
        return "0" if text in ("", "-0") else text
    return str(value)


@contextmanager
def _opened(to: Destination) -> Iterator[IO[bytes]]:
    """A path is opened (created or replaced) and closed; a file object is written to as it is."""
    if isinstance(to, (str, os.PathLike)):
        with open(to, "wb") as out:
            yield out
    else:
        yield to


def _filename(disposition: str | None) -> str | None:
    if not disposition or "filename=" not in disposition:
        return None
    return disposition.split("filename=", 1)[1].strip().strip('"') or None


class _Base:
    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        token: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.token = token
        self._extra_headers = dict(headers or {})

    def _headers(self, auth: Auth, headers: Mapping[str, str | None] | None) -> dict[str, str]:
        out = {**self._extra_headers, **{k: v for k, v in (headers or {}).items() if v is not None}}
        if auth == "apiKey" and self.api_key is not None:
            out["x-api-key"] = self.api_key
        if auth == "bearer" and self.token is not None:
            out["authorization"] = f"Bearer {self.token}"
        return out

    @staticmethod
    def _url(path: str, path_params: Mapping[str, object] | None) -> str:
        for name, value in (path_params or {}).items():
            path = path.replace("{" + name + "}", quote(_text(value), safe=""))
        return path

    @staticmethod
    def _query(query: Mapping[str, object] | None) -> dict[str, str]:
        return {k: _text(v) for k, v in (query or {}).items() if v is not None}

    @staticmethod
    def _json_body(body: Mapping[str, object] | None) -> dict[str, object] | None:
        return None if body is None else {k: v for k, v in body.items() if v is not None}

    @staticmethod
    def _json(response: httpx.Response) -> Any:
        return response.json() if response.content else None

    @staticmethod
    def _finish(response: httpx.Response, size: int, digest: str) -> Download:
        sent = response.headers.get("x-checksum-sha256")
        if sent is not None and sent != digest:
            raise ChecksumError(f"the download's SHA-256 is {digest}, the API sent {sent}: the file is damaged; download it again")
        return Download(
            filename=_filename(response.headers.get("content-disposition")),
            media_type=response.headers.get("content-type", ""),
            size=size,
            sha256=sent,
            data_version=response.headers.get("x-data-version"),
        )


class BaseClient(_Base):
    """The synchronous client (httpx.Client underneath). Use it as a context manager, or call ``close()``."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        token: str | None = None,
        retry: RetryPolicy | None = RetryPolicy(),
        timeout: float = 30.0,
        headers: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        """
        Args:
            base_url: where the API is, e.g. ``https://api.example.com`` or ``http://localhost:8787``.
            api_key: for the data endpoints (``/api/v1/...``): a ``wk_live_...`` key, sent as ``x-api-key``.
            token: for the account routes (``/user/...``, ``/billing/...``): the session token from ``login``.
            retry: the retry policy (429 after Retry-After, 5xx with back-off); ``None`` sends each call once.
            timeout: seconds for connecting and for each read.
            headers: sent with every request.
            transport: httpx's transport underneath (tests use ``httpx.MockTransport``).
        """
        super().__init__(base_url, api_key=api_key, token=token, headers=headers)
        self._http = httpx.Client(
            base_url=self.base_url,
            timeout=timeout,
            transport=WilayahTransport(retry, transport=transport),
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()

    def _send(
        self,
        method: str,
        path: str,
        *,
        auth: Auth,
        path_params: Mapping[str, object] | None = None,
        query: Mapping[str, object] | None = None,
        headers: Mapping[str, str | None] | None = None,
        body: Mapping[str, object] | None = None,
    ) -> httpx.Response:
        """One request; its answer (a redirect too). An error answer raises ApiError."""
        return self._http.request(
            method,
            self._url(path, path_params),
            params=self._query(query),
            headers=self._headers(auth, headers),
            json=self._json_body(body),
        )

    def _call(self, method: str, path: str, **request: Any) -> Any:
        """One request; its JSON answer (None when it has no body)."""
        return self._json(self._send(method, path, **request))

    def _download(self, path: str, *, auth: Auth, query: Mapping[str, object] | None, to: Destination) -> Download:
        """A file answer streamed into ``to``, its checksum checked."""
        with self._http.stream("GET", path, params=self._query(query), headers=self._headers(auth, None)) as response:
            digest = hashlib.sha256()
            size = 0
            with _opened(to) as out:
                for chunk in response.iter_bytes(_CHUNK):
                    out.write(chunk)
                    digest.update(chunk)
                    size += len(chunk)
            return self._finish(response, size, digest.hexdigest())


class BaseAsyncClient(_Base):
    """The asynchronous client (httpx.AsyncClient underneath): ``async with`` it, or ``await aclose()``."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        token: str | None = None,
        retry: RetryPolicy | None = RetryPolicy(),
        timeout: float = 30.0,
        headers: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        """The same arguments as ``Client``; ``transport`` is an async one."""
        super().__init__(base_url, api_key=api_key, token=token, headers=headers)
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            timeout=timeout,
            transport=WilayahTransport(retry, async_transport=transport),
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        await self.aclose()

    async def _send(
        self,
        method: str,
        path: str,
        *,
        auth: Auth,
        path_params: Mapping[str, object] | None = None,
        query: Mapping[str, object] | None = None,
        headers: Mapping[str, str | None] | None = None,
        body: Mapping[str, object] | None = None,
    ) -> httpx.Response:
        return await self._http.request(
            method,
            self._url(path, path_params),
            params=self._query(query),
            headers=self._headers(auth, headers),
            json=self._json_body(body),
        )

    async def _call(self, method: str, path: str, **request: Any) -> Any:
        return self._json(await self._send(method, path, **request))

    async def _download(self, path: str, *, auth: Auth, query: Mapping[str, object] | None, to: Destination) -> Download:
        async with self._http.stream("GET", path, params=self._query(query), headers=self._headers(auth, None)) as response:
            digest = hashlib.sha256()
            size = 0
            with _opened(to) as out:
                async for chunk in response.aiter_bytes(_CHUNK):
                    out.write(chunk)
                    digest.update(chunk)
                    size += len(chunk)
            return self._finish(response, size, digest.hexdigest())


__all__ = ["ApiError", "Auth", "BaseAsyncClient", "BaseClient", "Destination", "Download"]
