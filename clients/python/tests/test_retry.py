"""The retry policy and ApiError against stand-in transports (httpx.MockTransport): which answers are
retried, how long the client waits, when it gives up, for the sync and the async client alike. The
numbers are the TypeScript SDK's (clients/typescript/src/retry.ts)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from wilayah_api import ApiError, AsyncClient, Client, RetryPolicy, parse_retry_after

PROVINSI = {"data": {"id": "32", "code": "32", "name": "Jawa Barat", "alt_name": "Jawa Barat", "lat": -6.9, "lng": 107.6, "is_active": 1, "level": "provinsi"}}
KEY = {"data": {"id": "key_1", "name": "x", "prefix": "wk_live_abcd", "last4": "wxyz", "created_at": "2026-01-01T00:00:00Z", "last_used_at": None, "revoked_at": None, "key": "wk_live_k"}}


def error(code: str, request_id: str = "req-x") -> dict[str, Any]:
    return {"error": {"code": code, "message": f"{code} happened", "request_id": request_id}}


class Script:
    """Answers in order (then 200 with ``then``); records what was sent and how long the client waited."""

    def __init__(self, *answers: tuple[int, dict[str, Any] | str, dict[str, str]], then: dict[str, Any] = PROVINSI):
        self.answers = list(answers)
        self.then = then
        self.seen: list[httpx.Request] = []
        self.waits: list[float] = []

    def handler(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.seen.append(request)
        status, body, headers = self.answers.pop(0) if self.answers else (200, self.then, {})
        content = body if isinstance(body, str) else json.dumps(body)
        return httpx.Response(status, content=content, headers={"content-type": "application/json", "x-request-id": f"req-{len(self.seen)}", **headers})

    def policy(self, **kw: Any) -> RetryPolicy:
        async def async_sleep(s: float) -> None:
            self.waits.append(s)

        return RetryPolicy(random=lambda: 1.0, sleep=self.waits.append, async_sleep=async_sleep, **kw)

    def client(self, **kw: Any) -> Client:
        return Client("http://api.test", api_key="wk_live_test", token="tok", retry=self.policy(**kw), transport=httpx.MockTransport(self.handler))

    def async_client(self, **kw: Any) -> AsyncClient:
        return AsyncClient("http://api.test", api_key="wk_live_test", retry=self.policy(**kw), transport=httpx.MockTransport(self.handler))


def test_waits_retry_after_on_429_then_succeeds() -> None:
    s = Script((429, error("RATE_LIMITED"), {"retry-after": "2"}))
    found = s.client().get_provinsi("32")
    assert found["data"]["name"] == "Jawa Barat"
    assert len(s.seen) == 2 and all(r.headers["x-api-key"] == "wk_live_test" for r in s.seen)
    assert [r.url.path for r in s.seen] == ["/api/v1/wilayah/provinsi/32"] * 2
    assert s.waits == [2.0]


def test_backs_off_on_5xx_for_get_bounded_by_max_retries() -> None:
    s = Script(*[(status, error("UPSTREAM_ERROR"), {}) for status in (500, 502, 503, 504)])
    with pytest.raises(ApiError) as caught:
        s.client(max_retries=3, base_delay=0.1).get_provinsi("32")
    assert caught.value.status == 504
    assert len(s.seen) == 4
    assert s.waits == pytest.approx([0.1, 0.2, 0.4])


def test_never_resends_a_post_after_5xx_but_does_after_429() -> None:
    s = Script((503, error("PAYMENT_NOT_CONFIGURED"), {}))
    with pytest.raises(ApiError) as caught:
        s.client().create_key(name="x")
    assert caught.value.code == "PAYMENT_NOT_CONFIGURED" and len(s.seen) == 1

    s = Script((429, error("RATE_LIMITED"), {"retry-after": "1"}), then=KEY)
    created = s.client().create_key(name="x")
    assert created["data"]["key"] == "wk_live_k"
    assert [json.loads(r.content) for r in s.seen] == [{"name": "x"}] * 2  # the body is sent again whole
    assert s.seen[0].headers["authorization"] == "Bearer tok"  # account routes take the session token


def test_gives_up_at_once_when_retry_after_is_too_long() -> None:
    s = Script((429, error("RATE_LIMITED", "req-rl"), {"retry-after": "60"}))
    with pytest.raises(ApiError) as caught:
        s.client(max_retry_after=5).get_provinsi("32")
    e = caught.value
    assert (e.status, e.code, e.request_id, e.retry_after) == (429, "RATE_LIMITED", "req-rl", 60)
    assert len(s.seen) == 1 and s.waits == []


def test_other_4xx_are_not_retried_and_carry_the_body() -> None:
    s = Script((404, error("NOT_FOUND", "req-404"), {}))
    with pytest.raises(ApiError) as caught:
        s.client().get_provinsi("99")
    e = caught.value
    assert (e.status, e.code, e.request_id, e.message) == (404, "NOT_FOUND", "req-404", "NOT_FOUND happened")
    assert len(s.seen) == 1


def test_a_body_that_is_not_the_contract_still_gives_an_api_error() -> None:
    s = Script((502, "bad gateway", {}))
    with pytest.raises(ApiError) as caught:
        s.client(max_retries=0).get_provinsi("32")
    assert (caught.value.status, caught.value.code, caught.value.request_id) == (502, "HTTP_502", "req-1")


def test_connection_failures_of_get_are_retried_then_raised() -> None:
    calls: list[httpx.Request] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        raise httpx.ConnectError("refused", request=request)

    client = Client("http://api.test", api_key="k", retry=RetryPolicy(max_retries=2, sleep=lambda s: None), transport=httpx.MockTransport(refuse))
    with pytest.raises(httpx.ConnectError):
        client.get_provinsi("32")
    assert len(calls) == 3


def test_parameters_as_the_api_reads_them() -> None:
    s = Script(then={"data": [], "meta": {"total": 0, "page": 1, "per_page": 20, "total_pages": 0}})
    s.client().list_kelurahan(kecamatan_id="32.73.09", include_inactive=True, per_page=5)
    s.client().reverse_geocode(lat=-6.90827, lng=107.626971)
    s.client().get_boundary("32.73", simplify=0.00001)
    assert [str(r.url) for r in s.seen] == [
        "http://api.test/api/v1/wilayah/kelurahan?per_page=5&include_inactive=true&kecamatan_id=32.73.09",
        "http://api.test/api/v1/wilayah/reverse?lat=-6.90827&lng=107.626971",
        "http://api.test/api/v1/wilayah/32.73/boundary?simplify=0.00001",
    ]


@pytest.mark.anyio
async def test_async_client_waits_retry_after_then_backs_off_then_succeeds() -> None:
    s = Script((429, error("RATE_LIMITED"), {"retry-after": "3"}), (503, error("UPSTREAM_ERROR"), {}))
    async with s.async_client(max_retries=2) as client:
        found = await client.get_provinsi("32")
    assert found["data"]["id"] == "32"
    assert s.waits == [3.0, 1.0]  # Retry-After, then the second back-off step (0.5 * 2)


@pytest.mark.anyio
async def test_async_client_raises_api_error() -> None:
    s = Script((404, error("NOT_FOUND", "req-a"), {}))
    with pytest.raises(ApiError) as caught:
        await s.async_client().get_provinsi("99")
    assert (caught.value.code, caught.value.request_id) == ("NOT_FOUND", "req-a")


def test_parse_retry_after() -> None:
    assert parse_retry_after("60") == 60.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0) == 10.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None
