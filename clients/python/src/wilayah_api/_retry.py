"""Bounded retries as an httpx transport, for ``httpx.Client`` and ``httpx.AsyncClient`` alike.

- 429 (rate limited), any method: the API refused the call before doing anything, so sending it
  again is safe. Waits what ``Retry-After`` says (seconds or an HTTP date); when the server asks for
  longer than ``max_retry_after``, gives up at once (the ApiError carries ``retry_after``) rather
  than stall the caller.
- 500, 502, 503, 504 and connection failures, idempotent methods only (GET, HEAD, OPTIONS, PUT,
  DELETE): exponential back-off with full jitter. A POST (a top-up, a key) is never sent twice.
- With ``raise_errors``, the final answer, when 4xx/5xx, is raised as ``ApiError``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import anyio
import httpx

from ._retry_after import parse_retry_after
from .errors import ApiError

IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
RETRIED_5XX = frozenset({500, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    """How many times and how long to retry. ``RetryPolicy(max_retries=0)`` sends each call once."""

    max_retries: int = 2
    """Retries after the first attempt (so at most max_retries + 1 requests)."""
    base_delay: float = 0.5
    """First back-off step (seconds) for 5xx and connection failures."""
    max_delay: float = 8.0
    """Ceiling of one back-off wait (seconds)."""
    max_retry_after: float = 60.0
    """Longest Retry-After (seconds) the client will wait for; longer ones are raised at once."""
    random: Callable[[], float] = field(default=random.random, repr=False)
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    async_sleep: Callable[[float], Awaitable[None]] = field(default=anyio.sleep, repr=False)

    def backoff(self, retry: int) -> float:
        return float(self.random() * min(self.max_delay, self.base_delay * 2**retry))

    def wait_for(self, request: httpx.Request, response: httpx.Response, retry: int) -> float | None:
        """Seconds to wait before retrying this answer, or None to keep it."""
        if retry >= self.max_retries:
            return None
        if response.status_code == 429:
            asked = parse_retry_after(response.headers.get("retry-after"))
            if asked is not None and asked > self.max_retry_after:
                return None
            return self.backoff(retry) if asked is None else asked
        if response.status_code in RETRIED_5XX and request.method in IDEMPOTENT:
            return self.backoff(retry)
        return None

    def retries_failure(self, request: httpx.Request, retry: int) -> bool:
        return retry < self.max_retries and request.method in IDEMPOTENT


class WilayahTransport(httpx.BaseTransport, httpx.AsyncBaseTransport):
    """Retries (``policy``) and ApiError (``raise_errors``) around httpx's own transports."""

    def __init__(
        self,
        policy: RetryPolicy | None = None,
        *,
        raise_errors: bool = True,
        transport: httpx.BaseTransport | None = None,
        async_transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.policy = policy or RetryPolicy(max_retries=0)
        self.raise_errors = raise_errors
        self._transport = transport
        self._async_transport = async_transport

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self._transport is None:
            self._transport = httpx.HTTPTransport()
        retry = 0
        while True:
            try:
                response = self._transport.handle_request(request)
            except (httpx.ConnectError, httpx.ReadError, httpx.RemoteProtocolError):
                if not self.policy.retries_failure(request, retry):
                    raise
                self.policy.sleep(self.policy.backoff(retry))
                retry += 1
                continue
            wait = self.policy.wait_for(request, response, retry)
            if wait is None:
                if self.raise_errors and response.status_code >= 400:
                    response.read()
                    raise _api_error(response)
                return response
            response.close()
            self.policy.sleep(wait)
            retry += 1

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self._async_transport is None:
            self._async_transport = httpx.AsyncHTTPTransport()
        retry = 0
        while True:
            try:
                response = await self._async_transport.handle_async_request(request)
            except (httpx.ConnectError, httpx.ReadError, httpx.RemoteProtocolError):
                if not self.policy.retries_failure(request, retry):
                    raise
                await self.policy.async_sleep(self.policy.backoff(retry))
                retry += 1
                continue
            wait = self.policy.wait_for(request, response, retry)
            if wait is None:
                if self.raise_errors and response.status_code >= 400:
                    await response.aread()
                    raise _api_error(response)
                return response
            await response.aclose()
            await self.policy.async_sleep(wait)
            retry += 1

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()

    async def aclose(self) -> None:
        if self._async_transport is not None:
            await self._async_transport.aclose()


def _api_error(response: httpx.Response) -> Exception:
    return ApiError.from_response(response)
