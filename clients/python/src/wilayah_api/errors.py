"""ApiError: what every failed call raises; ChecksumError: a download that does not match its checksum."""

from __future__ import annotations

import json
from typing import Any

import httpx

from ._retry_after import parse_retry_after


class ApiError(Exception):
    """The API's error answer: ``{"error": {"code", "message", "request_id", "details"?}}`` plus the HTTP status.

    Attributes:
        status: HTTP status (404, 429, ...).
        code: stable and machine-readable (``NOT_FOUND``, ``RATE_LIMITED``, ...): branch on this.
        message: for people.
        request_id: quote it to support; also the ``x-request-id`` header.
        details: validation failures (``[{"path", "message"}]``), when the API names them.
        retry_after: on 429, seconds the server asked to wait (when the client did not wait that long).
    """

    def __init__(
        self,
        *,
        status: int,
        code: str,
        message: str,
        request_id: str | None,
        details: list[dict[str, str]] | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.details = details
        self.retry_after = retry_after

    @classmethod
    def from_response(cls, response: httpx.Response) -> ApiError:
        """From an error answer whose body has been read: the contract's body when it is one."""
        body: Any = None
        try:
            body = json.loads(response.content)
        except ValueError:
            pass
        found = body.get("error") if isinstance(body, dict) else None
        error: dict[str, Any] = found if isinstance(found, dict) else {}
        wait = parse_retry_after(response.headers.get("retry-after"))
        text = response.content.decode(errors="replace")[:500]
        code, message, request_id, details = error.get("code"), error.get("message"), error.get("request_id"), error.get("details")
        return cls(
            status=response.status_code,
            code=code if isinstance(code, str) else f"HTTP_{response.status_code}",
            message=message if isinstance(message, str) else (text or f"HTTP {response.status_code}"),
            request_id=request_id if isinstance(request_id, str) else response.headers.get("x-request-id"),
            details=details if isinstance(details, list) else None,
            retry_after=None if wait is None else int(-(-wait // 1)),
        )


class ChecksumError(Exception):
    """A downloaded file whose SHA-256 is not the one the API sent with it (``x-checksum-sha256``)."""
