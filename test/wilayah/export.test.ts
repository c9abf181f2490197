/**
 * Bulk exports through HTTP: the files the seed side builds (test/setup/exports-subset.ts builds
 * provinsi and kabupaten/kota, every format, with the real code) put into the test R2, then
 * downloaded as a customer does. The round trip: the downloaded CSV and JSON of kabupaten/kota are
 * the list endpoint's answers, and the GeoJSON holds the same boundaries /wilayah/{id}/boundary answers.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { CURRENT_EXPORT } from "../../src/wilayah/export/service";
import { EXPORT_FILES, exportManifest as manifest, removeExport, uploadExportSubset } from "../export-subset";
import { call, createKey, expectError, json, parseCsv, seedUserWithKey, setPlan, usageOf, verifiedDeveloper, waitForTotal } from "../helpers";

let paid: string;
let internal: string;

beforeAll(async () => {
  paid = (await seedUserWithKey({ plan: "starter" })).secret;
  internal = (await seedUserWithKey()).secret;
});

const download = (query: string, key = paid) => call(`/api/v1/wilayah/export${query}`, { key });

async function sha256Hex(bytes: ArrayBuffer) {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Every record of a list endpoint, page by page, retired codes included (as the export has them). */
async function listAll(level: string) {
  const out: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const body = await json(await call(`/api/v1/wilayah/${level}?per_page=100&include_inactive=1&page=${page}`, { key: internal }));
    out.push(...body.data);
    if (page >= body.meta.total_pages) return out;
  }
}

describe("bulk exports before an upload", () => {
  beforeAll(removeExport);

  it("answer 404 NOT_FOUND saying the export of this data is not available yet", async () => {
    const err = await expectError(await download("?level=kabupaten&format=csv"), 404, "NOT_FOUND");
    expect(err.message).toContain(`export ${CURRENT_EXPORT}`);
    expect(err.message).toMatch(/not available on this deployment yet/);
    await expectError(await call("/api/v1/wilayah/export/manifest", { key: paid }), 404, "NOT_FOUND");
  });
});

describe("bulk exports", () => {
  beforeAll(uploadExportSubset);

  it("are for paid plans: the free plan gets 403 PLAN_REQUIRED, before its input is read and without being metered", async () => {
    const dev = await verifiedDeveloper();
    const { key } = await createKey(dev.token);
    const err = await expectError(await download("?level=kabupaten&format=csv", key), 403, "PLAN_REQUIRED");
    expect(err.message).toMatch(/paid plans/);
    await expectError(await download("?level=nowhere", key), 403, "PLAN_REQUIRED");
    await expectError(await call("/api/v1/wilayah/export/manifest", { key }), 403, "PLAN_REQUIRED");
    await expectError(await call("/api/v1/wilayah/export/license", { key }), 403, "PLAN_REQUIRED");
    expect((await usageOf(dev.token)).total).toBe(0);
  });

  it("each download is one call, metered like any data call", async () => {
    const dev = await verifiedDeveloper();
    const { key } = await createKey(dev.token);
    await setPlan(dev.data.id, "starter");
    for (const res of [
      await download("?level=provinsi&format=csv", key),
      await download("?level=provinsi&format=geojson", key),
      await call("/api/v1/wilayah/export/license", { key }),
    ]) {
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    await expectError(await download("?level=kelurahan&format=csv", key), 404, "NOT_FOUND"); // not in this test export: not metered
    const u = await waitForTotal(dev.token, 3);
    expect(u.total).toBe(3);
    expect(u.by_endpoint).toEqual(
      expect.arrayContaining([
        { endpoint: "/wilayah/export", count: 2 },
        { endpoint: "/wilayah/export/license", count: 1 },
      ]),
    );
  });

  it("the CSV of kabupaten/kota is the list endpoint's answers, row for row (the round trip), and bps_code", async () => {
    const bpsOf = new Map(
      (
        await env.DB.prepare("SELECT current_id, max(code) AS code FROM wilayah_bps WHERE level = 2 AND period = '2025_2' GROUP BY current_id").all<{
          current_id: string;
          code: string;
        }>()
      ).results.map((r) => [r.current_id, r.code]),
    );
    const res = await download("?level=kabupaten&format=csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="wilayah-kabupaten-${CURRENT_EXPORT}.csv"`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("x-request-id")).toMatch(/\S/);
    const bytes = await res.arrayBuffer();
    const entry = manifest.files.find((f: { name: string }) => f.name === "kabupaten.csv");
    expect(bytes.byteLength).toBe(entry.size);
    expect(Number(res.headers.get("content-length"))).toBe(entry.size);
    expect(await sha256Hex(bytes)).toBe(entry.sha256);
    expect(res.headers.get("x-checksum-sha256")).toBe(entry.sha256);
    expect(res.headers.get("etag")).toBe(`"${entry.sha256}"`);

    const listed = await listAll("kabupaten");
    expect(res.headers.get("x-data-version")).toBe((await call("/api/v1/wilayah/kabupaten", { key: internal })).headers.get("x-data-version"));
    const [header, ...rows] = parseCsv(new TextDecoder().decode(bytes));
    // CSV is flat: the API's `population` object is three columns.
    const flat = (r: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(r).flatMap(([k, v]) =>
          k === "population" ? ["male", "female", "total"].map((p) => [`population_${p}`, v === null ? null : (v as Record<string, number>)[p]]) : [[k, v]],
        ),
      );
    // then the files' own column: the newest BPS code leading to the region (Kota Bandung: 3273)
    const flatListed: Record<string, unknown>[] = listed.map((r) => ({ ...flat(r), bps_code: bpsOf.get(r.id as string) ?? null }));
    expect(header).toEqual(Object.keys(flatListed[0]));
    expect(rows).toHaveLength(514);
    expect(rows.find((r) => r[0] === "32.73")?.at(-1)).toBe("3273");
    expect(rows.find((r) => r[0] === "95.01")?.at(-1)).toBe("9702"); // Jayawijaya: the 2025_2 code, not the retired 9402
    // CSV has text only: the API's numbers as text, null as an empty field.
    expect(rows).toEqual(flatListed.map((r) => header.map((c) => (r[c] === null ? "" : String(r[c])))));
  });

  it("the JSON of kabupaten/kota is {meta, data}, data being the list endpoint's records", async () => {
    const res = await download("?level=kabupaten&format=json");
    expect(res.headers.get("content-type")).toBe("application/json");
    const body = await json(res);
    expect(body.meta).toMatchObject({ level: "kabupaten", total: 514, export_id: CURRENT_EXPORT, data_version: res.headers.get("x-data-version") });
    expect(body.meta.license).toMatch(/ODbL/);
    expect(body.data).toEqual((await listAll("kabupaten")).map((r) => ({ ...r, bps_code: r.is_active ? expect.any(String) : null })));
  });

  it("the GeoJSON of a level is an RFC 7946 FeatureCollection holding each region's boundary as /wilayah/{id}/boundary answers it", async () => {
    const res = await download("?level=provinsi&format=geojson");
    expect(res.headers.get("content-type")).toBe("application/geo+json");
    const fc = await json(res);
    expect(fc.type).toBe("FeatureCollection");
    expect(fc.data_version).toBe(res.headers.get("x-data-version"));
    expect(fc.features).toHaveLength(38);
    const listed = await listAll("provinsi");
    for (const [i, f] of fc.features.entries()) {
      expect(f.type).toBe("Feature");
      expect(f.id).toBe(listed[i].id);
      expect(f.properties).toEqual({ ...listed[i], level: "provinsi" });
      expect(f.geometry.type).toBe("MultiPolygon");
      for (const polygon of f.geometry.coordinates) for (const ring of polygon) expect(ring[0]).toEqual(ring.at(-1));
    }
    for (const id of ["32", "31", "94"]) {
      const boundary = (await json(await call(`/api/v1/wilayah/${id}/boundary`, { key: internal }))).data;
      const feature = fc.features.find((f: { id: string }) => f.id === id);
      expect(feature.geometry).toEqual(boundary.geometry);
      expect(feature.bbox).toEqual(boundary.bbox);
    }
  });

  it("the manifest lists every file with its size, checksum and download; the license names ODbL and the MIT sources", async () => {
    const m = (await json(await call("/api/v1/wilayah/export/manifest", { key: paid }))).data;
    expect(m.export_id).toBe(CURRENT_EXPORT);
    expect(m.files.map((f: { name: string }) => f.name).sort()).toEqual(Object.keys(EXPORT_FILES).sort());
    const csv = m.files.find((f: { name: string }) => f.name === "kabupaten.csv");
    expect(csv).toMatchObject({ level: "kabupaten", format: "csv", records: 514, download: "/api/v1/wilayah/export?level=kabupaten&format=csv" });
    const res = await call("/api/v1/wilayah/export/license", { key: paid });
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="wilayah-${CURRENT_EXPORT}-LICENSE.txt"`);
    const text = await res.text();
    expect(text).toContain("Open Database License (ODbL) v1.0");
    expect(text).toContain("idn-area-data");
    expect(text).toContain("MIT License");
    expect(text).toContain("Copyright (c) 2024-2025 cahya dsn");
  });

  it("refuses bad input with INVALID_QUERY, and a file the export lacks with 404", async () => {
    await expectError(await download("?level=desa&format=csv"), 400, "INVALID_QUERY");
    await expectError(await download("?level=kabupaten&format=xlsx"), 400, "INVALID_QUERY");
    await expectError(await download("?level=kabupaten"), 400, "INVALID_QUERY");
    await expectError(await download("?level=kabupaten&format=csv&extra=1"), 400, "INVALID_QUERY");
    const err = await expectError(await download("?level=kelurahan&format=geojson"), 404, "NOT_FOUND");
    expect(err.message).toContain("kelurahan.geojson");
  });

  it("is no MCP tool", async () => {
    const { dataEndpoints } = await import("../../src/catalogue");
    for (const ep of dataEndpoints.filter((e) => e.path.startsWith("/wilayah/export"))) expect(ep.tool).toBeNull();
  });
});
