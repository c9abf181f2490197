"""The SDK against a real Worker (``wrangler dev``, started by clients/test.sh): search, by id, paging
to the end of a list, errors, a real 429 from the free plan's rate limiter waited out, a bulk export
downloaded and checked; sync and async.

WILAYAH_BASE_URL   the Worker, e.g. http://127.0.0.1:8821
WILAYAH_API_KEY    a key on an unthrottled plan (the dev key)
WILAYAH_FREE_KEY   a fresh free-plan key (30 calls a minute) that no other test uses
"""

from __future__ import annotations

import csv
import io
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from wilayah_api import ApiError, AsyncClient, Client, RetryPolicy, apaginate, paginate


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run clients/test.sh (it starts the Worker and makes the keys)")
    return value


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with Client(env("WILAYAH_BASE_URL"), api_key=env("WILAYAH_API_KEY")) as c:
        yield c


def test_search(client: Client) -> None:
    found = client.search_regions(q="bandung", level="kabupaten")
    names = [r["name"] for r in found["data"]]
    assert {"Kabupaten Bandung", "Kota Bandung"} <= set(names)
    assert found["meta"]["total"] >= 2
    assert all(r["level"] == "kabupaten" and r["parent"] for r in found["data"])


def test_by_id(client: Client) -> None:
    found = client.get_provinsi("32")
    assert (found["data"]["id"], found["data"]["name"], found["data"]["level"]) == ("32", "Jawa Barat", "provinsi")
    assert client.get_wilayah("3273091001")["data"]["name"] == "Cihapit"


def test_paging_to_the_end(client: Client) -> None:
    ids = [k["id"] for k in paginate(client.list_kabupaten, provinsi_id="32", per_page=5)]
    everything = client.list_kabupaten(provinsi_id="32", per_page=100)
    assert ids == [k["id"] for k in everything["data"]]
    assert len(ids) == everything["meta"]["total"] > 5
    assert len(set(ids)) == len(ids)


def test_unknown_id_is_api_error_not_found(client: Client) -> None:
    with pytest.raises(ApiError) as caught:
        client.get_provinsi("99")
    e = caught.value
    assert (e.status, e.code) == (404, "NOT_FOUND")
    assert e.request_id and e.message


def test_bad_key_and_bad_parameter(client: Client) -> None:
    with Client(env("WILAYAH_BASE_URL"), api_key="wk_live_" + "A" * 32) as stranger:
        with pytest.raises(ApiError) as caught:
            stranger.list_provinsi()
        assert (caught.value.status, caught.value.code) == (401, "INVALID_API_KEY")
    with pytest.raises(ApiError) as caught:
        client.list_provinsi(per_page=0)
    assert (caught.value.status, caught.value.code) == (400, "INVALID_QUERY")
    assert caught.value.details and caught.value.details[0]["path"] == "per_page"


def test_reverse_geocoding_and_nik(client: Client) -> None:
    here = client.reverse_geocode(lat=-6.90827, lng=107.626971)["data"]
    assert here["kelurahan"] and here["kelurahan"]["id"] == "32.73.09.1001"
    nik = client.decode_nik(nik="3273094512900001")["data"]
    assert (nik["kecamatan"] or {}).get("id") == "32.73.09" and nik["sex"] == "female"


def test_bulk_export_downloaded_and_checked(client: Client, tmp_path: Path) -> None:
    target = tmp_path / "kabupaten.csv"
    got = client.get_export(level="kabupaten", format="csv", to=target)
    assert got.filename and got.filename.startswith("wilayah-kabupaten-") and got.filename.endswith(".csv")
    assert got.size == target.stat().st_size and got.sha256 and got.data_version
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    listed = {k["id"]: k for k in paginate(client.list_kabupaten, per_page=100)}
    assert len(rows) == len(listed) == 514
    for row in rows[:20]:
        assert row["name"] == listed[row["id"]]["name"] and row["type"] == listed[row["id"]]["type"]
    manifest = client.get_export_manifest()["data"]
    assert any(f["name"] == "kabupaten.csv" and f["sha256"] == got.sha256 for f in manifest["files"])


def test_bulk_export_is_refused_to_the_free_plan() -> None:
    with Client(env("WILAYAH_BASE_URL"), api_key=env("WILAYAH_FREE_KEY"), retry=None) as free:
        with pytest.raises(ApiError) as caught:
            free.get_export(level="provinsi", format="json", to=io.BytesIO())
    assert (caught.value.status, caught.value.code) == (403, "PLAN_REQUIRED")


@pytest.mark.anyio
async def test_async_search_paging_download_and_error(tmp_path: Path) -> None:
    async with AsyncClient(env("WILAYAH_BASE_URL"), api_key=env("WILAYAH_API_KEY")) as c:
        found = await c.search_regions(q="jogja", level="kabupaten")
        assert found["data"] and found["data"][0]["id"].startswith("34")
        ids = [k["id"] async for k in apaginate(c.list_kabupaten, provinsi_id="34", per_page=2)]
        assert len(ids) == 5  # DI Yogyakarta: 4 kabupaten and 1 kota
        got = await c.get_export(level="provinsi", format="geojson", to=tmp_path / "provinsi.geojson")
        assert got.media_type == "application/geo+json" and got.size > 1_000_000
        with pytest.raises(ApiError) as caught:
            await c.get_provinsi("99")
        assert caught.value.code == "NOT_FOUND"


def test_free_plan_429_then_retry_waits_it_out() -> None:
    base, free_key = env("WILAYAH_BASE_URL"), env("WILAYAH_FREE_KEY")
    limited = None
    with Client(base, api_key=free_key, retry=None) as no_retry:
        # 30 calls a minute in windows aligned to the clock: within 70 calls one is refused.
        for _ in range(70):
            try:
                no_retry.get_provinsi("32")
            except ApiError as e:
                if e.status != 429:
                    raise
                limited = e
                break
    assert limited is not None
    assert (limited.status, limited.code) == (429, "RATE_LIMITED")
    assert limited.retry_after and limited.retry_after > 0
    assert limited.request_id

    # With retries the client waits what Retry-After says (up to a minute), then succeeds.
    with Client(base, api_key=free_key, retry=RetryPolicy(max_retries=1, max_retry_after=65)) as patient:
        t0 = time.monotonic()
        found = patient.get_provinsi("32")
        assert found["data"]["name"] == "Jawa Barat"
        assert time.monotonic() - t0 >= limited.retry_after - 1
