/**
 * OGC API – Features (issue 53) through HTTP, as a GIS client uses it: the landing page, conformance
 * and API definition; the four collections with their provenance; items with property filters, a
 * bbox, paging by next links, the page byte budget; errors in the OGC exception format; the key in
 * the header or the api_key parameter (never in a link or a log line), publishable keys refused,
 * metering (one call per page). GDAL's own driver reads the same routes in test/gis/gdal.test.ts.
 * The test D1 holds every boundary of provinsi, kabupaten/kota and kecamatan, and the villages of
 * Kota Bandung (32.73) and Padang Pariaman (13.05).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_LIMIT, PAGE_BYTES } from "../../src/ogc/service";
import { EXPORT_FILES, uploadExportSubset } from "../export-subset";
import { call, createKey, json, seedUserWithKey, setPlan, verifiedDeveloper, waitForTotal } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});
afterEach(() => vi.restoreAllMocks());

/** An OGC exception: status, code and description, the request id in the body and the header. */
async function expectException(res: Response, status: number, code: string) {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(body).toMatchObject({ code, status });
  expect(body.description).toMatch(/\S/);
  expect(body.request_id).toBe(res.headers.get("x-request-id"));
  return body as { code: string; description: string };
}

/** Every feature of a query, following next links (their key added back by the client, as GDAL and QGIS do). */
async function allPages(path: string, k = key) {
  const pages: { numberMatched: number; numberReturned: number; features: { id: string; properties: Record<string, unknown> }[]; bytes: number }[] = [];
  let url: string | null = path;
  while (url) {
    const res = await call(url, { key: k });
    expect(res.status).toBe(200);
    const text = await res.text();
    const page = JSON.parse(text);
    pages.push({ ...page, bytes: text.length });
    const next = page.links.find((l: { rel: string }) => l.rel === "next")?.href as string | undefined;
    if (next) expect(next).not.toContain(k);
    url = next ? next.replace(/^https?:\/\/[^/]+/, "") : null;
    if (pages.length > 200) throw new Error("too many pages");
  }
  return pages;
}

describe("OGC API – Features: the documents", () => {
  it("serve the landing page, conformance and the API definition without a key", async () => {
    const landing = await json(await call("/ogc"));
    expect(landing.links.map((l: { rel: string }) => l.rel)).toEqual(expect.arrayContaining(["self", "service-desc", "conformance", "data"]));
    const conf = await json(await call("/ogc/conformance"));
    expect(conf.conformsTo).toContain("http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core");
    expect(conf.conformsTo).toContain("http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson");
    const res = await call("/ogc/api");
    expect(res.headers.get("content-type")).toBe("application/vnd.oai.openapi+json;version=3.0");
    const api = await json(res);
    expect(api.openapi).toBe("3.0.3");
    expect(api.servers[0].url).toBe("https://api.wilayah.test/ogc");
    // GDAL finds a collection's server-side filters among its items path's query parameters.
    const names = api.paths["/collections/kecamatan/items"].get.parameters.map((p: { name?: string }) => p.name).filter(Boolean);
    expect(names).toEqual(expect.arrayContaining(["provinsi_id", "kabupaten_id", "name"]));
  });

  it("list the four collections, each with its extent, CRS84, edition, licences and sources", async () => {
    const res = await call("/ogc/collections", { key });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.collections.map((c: { id: string }) => c.id)).toEqual(["provinsi", "kabupaten", "kecamatan", "kelurahan"]);
    const kec = body.collections[2];
    expect(kec.crs).toEqual(["http://www.opengis.net/def/crs/OGC/1.3/CRS84"]);
    const [w, s, e, n] = kec.extent.spatial.bbox[0];
    expect(w).toBeGreaterThan(94);
    expect(e).toBeLessThan(142);
    expect(s).toBeLessThan(-8);
    expect(n).toBeGreaterThan(5);
    expect(kec.edition.edition).toMatch(/\d{4}/);
    expect(kec.data_version).toBe(res.headers.get("x-data-version"));
    expect(kec.attribution).toContain("idn-area-data");
    expect(kec.sources.some((src: { licence: string | null }) => src.licence?.includes("ODbL"))).toBe(true);
    expect(kec.links.some((l: { rel: string }) => l.rel === "license")).toBe(true);
    expect(kec.links.find((l: { rel: string }) => l.rel === "enclosure").href).toBe("https://api.wilayah.test/api/v1/wilayah/export/kecamatan.fgb");
    const q = await json(await call("/ogc/collections/kelurahan/queryables", { key }));
    expect(Object.keys(q.properties)).toEqual(["provinsi_id", "kabupaten_id", "kecamatan_id", "name", "postal_code"]);
  });
});

describe("OGC API – Features: items", () => {
  it("filter Kota Bandung's 30 kecamatan by the parent code, with a bbox too, each with its properties and boundary", async () => {
    const [page] = await allPages("/ogc/collections/kecamatan/items?kabupaten_id=32.73");
    expect(page.numberMatched).toBe(30);
    expect(page.numberReturned).toBe(30);
    expect(page.features.every((f) => f.id.startsWith("32.73."))).toBe(true);
    const coblong = page.features.find((f) => f.id === "32.73.09") as unknown as {
      properties: Record<string, unknown>;
      geometry: { type: string };
      bbox: number[];
    };
    expect(coblong.properties).toMatchObject({ code: "327309", name: "Bandung Wetan", level: "kecamatan", provinsi_id: "32", kabupaten_id: "32.73" });
    expect(coblong.geometry.type).toBe("MultiPolygon");
    expect(coblong.bbox).toHaveLength(4);
    const bbox = "107.55,-6.98,107.75,-6.85";
    const both = await allPages(`/ogc/collections/kecamatan/items?kabupaten_id=3273&bbox=${bbox}`);
    expect(both[0].numberMatched).toBe(30);
    // The bbox alone also takes the neighbours' kecamatan whose boxes reach into it.
    const boxOnly = await allPages(`/ogc/collections/kecamatan/items?bbox=${bbox}`);
    expect(boxOnly[0].numberMatched).toBeGreaterThan(30);
    expect(boxOnly.flatMap((p) => p.features).filter((f) => f.id.startsWith("32.73.")).length).toBe(30);
  });

  it("page through every provinsi by next links: 38 features, none twice", async () => {
    const pages = await allPages("/ogc/collections/provinsi/items?limit=10");
    expect(pages.map((p) => p.numberReturned)).toEqual([10, 10, 10, 8]);
    expect(pages.every((p) => p.numberMatched === 38)).toBe(true);
    const ids = pages.flatMap((p) => p.features.map((f) => f.id));
    expect(new Set(ids).size).toBe(38);
    expect(pages[0].features[0].properties).toMatchObject({ name: "Aceh", level: "provinsi" });
    expect(typeof pages[0].features[0].properties.population_total).toBe("number");
  });

  it("keep a page of full-precision boundaries within the byte budget, the rest by next links", async () => {
    const pages = await allPages(`/ogc/collections/provinsi/items?simplify=0&limit=${MAX_LIMIT}`);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flatMap((p) => p.features).length).toBe(38);
    for (const p of pages) expect(p.bytes).toBeLessThan(PAGE_BYTES + 600_000);
    // Simplified by default: fewer bytes for the same features.
    const simplified = await allPages(`/ogc/collections/provinsi/items?limit=${MAX_LIMIT}`);
    expect(simplified.reduce((n, p) => n + p.bytes, 0)).toBeLessThan(pages.reduce((n, p) => n + p.bytes, 0) / 2);
  });

  it("filter villages by name (case-insensitive, * any characters) and by kecamatan", async () => {
    const [page] = await allPages("/ogc/collections/kelurahan/items?kabupaten_id=32.73&name=ciha*");
    expect(page.features.map((f) => f.properties.name)).toContain("Cihapit");
    const [kec] = await allPages("/ogc/collections/kelurahan/items?kecamatan_id=32.73.09");
    expect(kec.features.every((f) => f.properties.kecamatan_id === "32.73.09" && f.properties.postal_code)).toBe(true);
  });

  it("answer one item by its code; another level's code is 404", async () => {
    const res = await call("/ogc/collections/kecamatan/items/327309", { key });
    expect(res.headers.get("content-type")).toBe("application/geo+json");
    expect(await json(res)).toMatchObject({ type: "Feature", id: "32.73.09", properties: { name: "Bandung Wetan" } });
    await expectException(await call("/ogc/collections/kecamatan/items/32.73", { key }), 404, "NotFound");
  });

  it("answer HTML to a browser, with the features drawn", async () => {
    const res = await call("/ogc/collections/kecamatan/items?kabupaten_id=32.73&f=html", { key });
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("<svg");
    expect(html).toContain("Bandung Wetan");
    expect(html).not.toContain(key);
  });
});

describe("OGC API – Features: errors in the OGC exception format", () => {
  it("a bad bbox, an unknown collection, a limit over the maximum, an unknown parameter: 400, 404, 400, 400", async () => {
    for (const bbox of ["1,2,3", "107,-6,abc,-7", "107,-6,108,-7", "200,0,201,1"]) {
      const e = await expectException(await call(`/ogc/collections/kecamatan/items?bbox=${bbox}`, { key }), 400, "InvalidParameterValue");
      expect(e.description).toContain("bbox");
    }
    await expectException(await call("/ogc/collections/desa/items", { key }), 404, "NotFound");
    const over = await expectException(await call(`/ogc/collections/kecamatan/items?limit=${MAX_LIMIT + 1}`, { key }), 400, "InvalidParameterValue");
    expect(over.description).toContain(String(MAX_LIMIT));
    await expectException(await call("/ogc/collections/kecamatan/items?colour=red", { key }), 400, "InvalidParameterValue");
  });

  it("a missing key is 401, an unknown key 401, a publishable key 403", async () => {
    const missing = await expectException(await call("/ogc/collections/kecamatan/items"), 401, "MissingApiKey");
    expect(missing.description).toContain("api_key");
    await expectException(await call("/ogc/collections", { headers: { "x-api-key": "wk_live_notakey" } }), 401, "InvalidApiKey");
    const dev = await verifiedDeveloper();
    const made = await call("/user/keys", {
      method: "POST",
      token: dev.token,
      json: { name: "page", kind: "publishable", allowed_origins: ["https://shop.example.com"] },
    });
    const pub = (await json(made)).data.key as string;
    await expectException(await call("/ogc/collections", { key: pub, headers: { origin: "https://shop.example.com" } }), 403, "SecretKeyRequired");
  });
});

describe("OGC API – Features: keys in the query, metering", () => {
  it("take the key as api_key, never echo it in a link or a log line, and refuse two different keys", async () => {
    const lines: string[] = [];
    for (const m of ["log", "error", "warn", "info"] as const)
      vi.spyOn(console, m).mockImplementation((...a: unknown[]) => void lines.push(a.map(String).join(" ")));
    const res = await call(`/ogc/collections/kecamatan/items?kabupaten_id=32.73&limit=5&api_key=${key}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(key);
    expect(JSON.parse(text).links.find((l: { rel: string }) => l.rel === "next").href).toBe(
      "https://api.wilayah.test/ogc/collections/kecamatan/items?kabupaten_id=32.73&limit=5&after=32.73.05",
    );
    expect(res.headers.get("link")).not.toContain(key);
    await expectException(await call(`/ogc/collections/kecamatan/items?api_key=${key}&bbox=1,2`), 400, "InvalidParameterValue");
    await expectException(await call(`/ogc/collections?api_key=${key}`, { key: (await seedUserWithKey()).secret }), 400, "InvalidParameterValue");
    expect(lines.join("\n")).not.toContain(key);
  });

  it("meter one call per page of items (and per item); the collections' metadata costs no call", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "starter");
    const { key: k } = await createKey(dev.token);
    await call("/ogc/collections", { key: k });
    await call("/ogc/collections/provinsi/queryables", { key: k });
    const pages = await allPages("/ogc/collections/provinsi/items?limit=10", k);
    expect(pages).toHaveLength(4);
    await call("/ogc/collections/provinsi/items/32", { key: k });
    const u = await waitForTotal(dev.token, 5);
    expect(u.total).toBe(5);
    expect(u.by_endpoint).toEqual(
      expect.arrayContaining([
        { endpoint: "/ogc/collections/{collectionId}/items", count: 4 },
        { endpoint: "/ogc/collections/{collectionId}/items/{featureId}", count: 1 },
      ]),
    );
  });
});

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

describe("FlatGeobuf files by range requests (GET /api/v1/wilayah/export/{level}.fgb)", () => {
  const FGB = "/api/v1/wilayah/export/kabupaten.fgb";
  let file: Uint8Array;
  beforeAll(async () => {
    await uploadExportSubset();
    file = EXPORT_FILES["kabupaten.fgb"] as Uint8Array;
  });

  it("answer HEAD with the size, a GET with one range 206 and exactly those bytes, a GET without one the whole file", async () => {
    const head = await call(FGB, { method: "HEAD", key });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe(file.length);
    expect(head.headers.get("accept-ranges")).toBe("bytes");
    const part = await call(FGB, { key, headers: { range: "bytes=0-8191" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-8191/${file.length}`);
    expect(part.headers.get("content-type")).toBe("application/flatgeobuf");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(file.subarray(0, 8192));
    // FlatGeobuf's magic bytes: "fgb", version 3.
    expect([...file.subarray(0, 4)]).toEqual([0x66, 0x67, 0x62, 3]);
    const tail = await call(`${FGB}?api_key=${key}`, { headers: { range: "bytes=-100" } });
    expect(tail.status).toBe(206);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(file.subarray(file.length - 100));
    const whole = await call(FGB, { key });
    expect(whole.status).toBe(200);
    // Compared byte for byte in a loop: a deep equality of 3 MB arrays takes vitest longer than the test's time.
    expect(sameBytes(new Uint8Array(await whole.arrayBuffer()), file)).toBe(true);
    await expectException(await call(FGB, { key, headers: { range: `bytes=${file.length}-` } }), 416, "RangeNotSatisfiable");
  });

  it("are for paid plans, refuse a missing key and publishable keys, and meter ten small ranges as one call", async () => {
    const dev = await verifiedDeveloper();
    const { key: free } = await createKey(dev.token);
    await expectException(await call(FGB, { key: free, headers: { range: "bytes=0-99" } }), 403, "PlanRequired");
    await expectException(await call(FGB, { headers: { range: "bytes=0-99" } }), 401, "MissingApiKey");
    await setPlan(dev.data.id, "starter");
    for (let i = 0; i < 12; i++) expect((await call(FGB, { key: free, headers: { range: `bytes=${i * 100}-${i * 100 + 99}` } })).status).toBe(206);
    await call(FGB, { key: free }); // the whole file: one call
    const u = await waitForTotal(dev.token, 3);
    expect(u.total).toBe(3);
    expect(u.by_endpoint).toEqual([{ endpoint: "/wilayah/export/{level}.fgb", count: 3 }]);
  });
});
