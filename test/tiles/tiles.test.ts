/**
 * Vector tiles through HTTP: the archive test/setup/tiles-subset.ts builds with the real code
 * (Jawa Barat and Sumatera Barat, Kota Bandung down to its villages) put into the test R2, then
 * asked for as a map asks: a tile of each level decoded, empty tiles, tiles outside the pyramid,
 * ETag and 304, CORS, metering at a tenth of a call, the site's own allowance, TileJSON and style.
 */

import { env } from "cloudflare:workers";
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { beforeAll, describe, expect, it } from "vitest";
import { tilesKey } from "../../src/tiles/files";
import { CURRENT_TILES, forgetArchive } from "../../src/tiles/service";
import { mapTile, mapTokenFor, spendQuota } from "../gate/helpers";
import { call, createKey, expectError, json, seedUserWithKey, setPlan, usageOf, verifiedDeveloper, waitForTotal } from "../helpers";
import { uploadTilesSubset } from "../tiles-subset";

/** Kota Bandung's centre, and the tile holding it at a zoom. */
const BANDUNG = { lat: -6.9175, lng: 107.6191 };
function tileAt(z: number, p = BANDUNG) {
  const n = 2 ** z;
  const x = Math.floor(((p.lng + 180) / 360) * n);
  const lat = (p.lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * n);
  return { z, x, y, path: `/tiles/${z}/${x}/${y}.mvt` };
}

/**
 * The tile's bytes. The Worker sends them gzipped (content-encoding: gzip, stored so); a fetch
 * through the Worker's binding, as a browser's, hands over the body already decoded.
 */
async function gunzip(res: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const stream = new Response(bytes).body?.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A tile's layers: each feature's properties. */
async function decode(res: Response): Promise<Record<string, Record<string, unknown>[]>> {
  const tile = new VectorTile(new PbfReader(await gunzip(res)));
  return Object.fromEntries(
    Object.entries(tile.layers).map(([name, layer]) => [name, Array.from({ length: layer.length }, (_, i) => layer.feature(i).properties)]),
  );
}

let key: string;

beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});

describe("tiles before the archive is uploaded", () => {
  it("answer 503 SERVICE_UNAVAILABLE naming the tiles of this data", async () => {
    await env.EXPORTS.delete(tilesKey(CURRENT_TILES));
    forgetArchive();
    const err = await expectError(await call(tileAt(4).path, { key }), 503, "SERVICE_UNAVAILABLE");
    expect(err.message).toContain(CURRENT_TILES);
  });
});

describe("vector tiles", () => {
  beforeAll(async () => {
    await uploadTilesSubset();
  });

  it("carry each level from its first zoom: code, name, level and parent codes, with label points", async () => {
    const z0 = await call(tileAt(0).path, { key });
    expect(z0.status).toBe(200);
    expect(z0.headers.get("content-type")).toBe("application/vnd.mapbox-vector-tile");
    expect(z0.headers.get("content-encoding")).toBe("gzip");
    const sent = Number(z0.headers.get("content-length"));
    const l0 = await decode(z0.clone());
    // Sent gzipped (the fetch here decodes it, as a browser does): fewer bytes than the tile.
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan((await gunzip(z0)).length);
    expect(Object.keys(l0).sort()).toEqual(["label", "provinsi"]);
    expect(l0.provinsi.map((f) => f.code).sort()).toEqual(["13", "32"]);
    expect(l0.provinsi.find((f) => f.code === "32")).toMatchObject({ name: "Jawa Barat", level: "provinsi" });
    expect(l0.label.every((f) => f.level === "provinsi")).toBe(true);

    const l3 = await decode(await call(tileAt(3).path, { key }));
    expect(l3.kabupaten).toBeUndefined();
    const l4 = await decode(await call(tileAt(4).path, { key }));
    expect(l4.kabupaten.find((f) => f.code === "32.73")).toMatchObject({ name: "Kota Bandung", level: "kabupaten", provinsi_id: "32", type: "kota" });
    expect(l4.kabupaten.find((f) => f.code === "32.73")?.density).toBeGreaterThan(10_000);
    expect(l4.kecamatan).toBeUndefined();

    const l7 = await decode(await call(tileAt(7).path, { key }));
    const kec = l7.kecamatan.find((f) => String(f.code).startsWith("32.73."));
    expect(kec).toMatchObject({ level: "kecamatan", provinsi_id: "32", kabupaten_id: "32.73" });
    expect(l7.kelurahan).toBeUndefined();

    const l10 = await decode(await call(tileAt(10).path, { key }));
    const desa = l10.kelurahan.find((f) => String(f.code).startsWith("32.73."));
    expect(desa).toMatchObject({ level: "kelurahan", provinsi_id: "32", kabupaten_id: "32.73" });
    expect(String(desa?.kecamatan_id)).toBe(String(desa?.code).slice(0, 8));
    expect(typeof desa?.name).toBe("string");
    expect(l10.label.some((f) => f.level === "kelurahan")).toBe(true);
    expect(Object.keys(l10).sort()).toEqual(["kabupaten", "kecamatan", "kelurahan", "label", "provinsi"]);
  });

  it("answer 204 for a tile with nothing in it, and 400 outside the pyramid or for a malformed address", async () => {
    const sea = await call("/tiles/3/0/0.mvt", { key });
    expect(sea.status).toBe(204);
    expect(await sea.text()).toBe("");
    let err = await expectError(await call("/tiles/13/6500/4200.mvt", { key }), 400, "INVALID_QUERY");
    expect(err.message).toMatch(/Zoom 13 is outside the tiles' pyramid \(zoom 0 to 12\)/);
    err = await expectError(await call("/tiles/2/4/0.mvt", { key }), 400, "INVALID_QUERY");
    expect(err.message).toMatch(/x and y go from 0 to 3/);
    await expectError(await call("/tiles/two/1/1.mvt", { key }), 400, "INVALID_QUERY");
    await expectError(await call(`${tileAt(5).path}?format=png`, { key }), 400, "INVALID_QUERY");
    // HEAD would meter a tile nobody receives: refused (a HEAD answer has no body; its status says it).
    const head = await call(tileAt(5).path, { key, method: "HEAD" });
    expect(head.status).toBe(405);
    expect(head.headers.get("allow")).toBe("GET");
    // Who is calling is decided first (the gate, src/gate): a wrong address without a key is 401.
    await expectError(await call("/tiles/20/0/0.mvt"), 401, "MISSING_API_KEY");
  });

  it("carry an ETag naming the data; If-None-Match answers 304; a versioned URL is kept for a year", async () => {
    const t = tileAt(9);
    const res = await call(`${t.path}?v=${CURRENT_TILES}`, { key });
    expect(res.status).toBe(200);
    const etag = res.headers.get("etag");
    expect(etag).toBe(`"${CURRENT_TILES}"`);
    expect(res.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(res.headers.get("x-data-version")).toBeTruthy();
    const again = await call(t.path, { key, headers: { "if-none-match": etag as string } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("private, max-age=3600");
    const fresh = await call(t.path, { key, headers: { "if-none-match": '"older"' } });
    expect(fresh.status).toBe(200);
    // Served again from this isolate's memory: the same bytes (a body never takes the kept tile's buffer).
    const bytes = await gunzip(fresh);
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes).toEqual(await gunzip(await call(t.path, { key })));
  });

  it("answer any origin (CORS), the key allowed in preflights", async () => {
    const res = await call(tileAt(6).path, { key, headers: { origin: "https://shop.example.com" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("etag");
    const pre = await call(tileAt(6).path, {
      method: "OPTIONS",
      headers: { origin: "https://shop.example.com", "access-control-request-method": "GET", "access-control-request-headers": "x-api-key" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-headers")).toContain("x-api-key");
  });

  it("take a publishable key (wk_pub_) from its own origins only, answered for that origin (issue 38, part 3)", async () => {
    const dev = await verifiedDeveloper();
    const made = await call("/user/keys", {
      method: "POST",
      token: dev.token,
      json: { name: "map page", kind: "publishable", allowed_origins: ["https://shop.example.com", "https://*.maps.example.org"] },
    });
    expect(made.status).toBe(201);
    const pub = (await json(made)).data.key as string;
    const ok = await call(tileAt(6).path, { key: pub, headers: { origin: "https://shop.example.com" } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
    const sub = await call(tileAt(6).path, { key: pub, headers: { referer: "https://a.maps.example.org/page" } });
    expect(sub.status).toBe(200);
    const elsewhere = await call(tileAt(6).path, { key: pub, headers: { origin: "https://evil.example.net" } });
    await expectError(elsewhere, 403, "ORIGIN_NOT_ALLOWED");
    expect(elsewhere.headers.get("access-control-allow-origin")).toBeNull();
    await expectError(await call(tileAt(6).path, { key: pub }), 403, "ORIGIN_NOT_ALLOWED");
  });

  it("need a key, or the site map's token (the header Sec-Fetch-Site, which any client can send, is no credential)", async () => {
    await expectError(await call(tileAt(5).path), 401, "MISSING_API_KEY");
    await expectError(await call(tileAt(5).path, { headers: { "sec-fetch-site": "same-origin" } }), 401, "MISSING_API_KEY");
    await expectError(await call(tileAt(5).path, { key: "wk_live_not-a-key" }), 401, "INVALID_API_KEY");
    const ip = "203.0.113.37";
    const own = await mapTile(tileAt(5).path, await mapTokenFor(ip), ip);
    expect(own.status).toBe(200);
  });

  it("from this site's own map are limited per client network: 600 a minute, then 429 with Retry-After", async () => {
    const ip = "203.0.113.38";
    const token = await mapTokenFor(ip);
    const answers = await Promise.all(Array.from({ length: 600 }, () => mapTile("/tiles/3/0/0.mvt", token, ip)));
    expect(answers.every((r) => r.status === 204)).toBe(true);
    const over = await mapTile("/tiles/3/0/0.mvt", token, ip);
    await expectError(over, 429, "RATE_LIMITED");
    expect(over.headers.get("retry-after")).toBe("60");
    // Another visitor, and a key, are not held back by it.
    const other = "203.0.113.39";
    expect((await mapTile("/tiles/3/0/0.mvt", await mapTokenFor(other), other)).status).toBe(204);
    expect((await call("/tiles/3/0/0.mvt", { ip, key })).status).toBe(204);
  });

  it("are metered at a tenth of a call: 25 tiles are 3 calls; empty tiles and 304 are free", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "starter");
    const { key: k } = await createKey(dev.token);
    const c = tileAt(12);
    let etag = "";
    for (let dx = -2; dx <= 2; dx++) {
      for (let dy = -2; dy <= 2; dy++) {
        const res = await call(`/tiles/12/${c.x + dx}/${c.y + dy}.mvt`, { key: k });
        expect(res.status, `12/${c.x + dx}/${c.y + dy}`).toBe(200);
        etag = res.headers.get("etag") ?? "";
      }
    }
    for (let i = 0; i < 5; i++) expect((await call("/tiles/4/0/0.mvt", { key: k })).status).toBe(204);
    for (let i = 0; i < 5; i++) expect((await call(c.path, { key: k, headers: { "if-none-match": etag } })).status).toBe(304);
    const u = await waitForTotal(dev.token, 3);
    expect(u.total).toBe(3);
    expect(u.by_endpoint).toEqual([{ endpoint: "/tiles/{z}/{x}/{y}.mvt", count: 3 }]);
    // Tiles from this site's own map are metered to nobody.
    await mapTile(tileAt(9).path, await mapTokenFor("203.0.113.40"), "203.0.113.40");
    expect((await usageOf(dev.token)).total).toBe(3);
  });

  it("asked for at once, as a map does, are metered the same: 20 tiles are 2 calls", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "starter");
    const { key: k } = await createKey(dev.token);
    const c = tileAt(12);
    const burst = Array.from({ length: 20 }, (_, i) => call(`/tiles/12/${c.x - 2 + (i % 5)}/${c.y - 2 + Math.floor(i / 5)}.mvt`, { key: k }));
    expect((await Promise.all(burst)).map((r) => r.status)).toEqual(Array(20).fill(200));
    const u = await waitForTotal(dev.token, 2);
    expect(u.total).toBe(2);
  });

  it("are refused (402) when the account can pay for no more calls, and nothing is served", async () => {
    const dev = await verifiedDeveloper();
    const { key: k } = await createKey(dev.token);
    // The free plan's quota used up, as its account object counts it.
    const quota = (await env.DB.prepare("SELECT monthly_quota AS q FROM plans WHERE id = 'free'").first<{ q: number }>())?.q ?? 0;
    expect(quota).toBeGreaterThan(0);
    await spendQuota(dev.data.id);
    await expectError(await call(tileAt(8).path, { key: k }), 402, "QUOTA_EXCEEDED");
    expect((await usageOf(dev.token)).total).toBe(quota);
  });
});

describe("TileJSON and style", () => {
  it("TileJSON names the versioned tile URL, zooms, bounds and the layers' fields; public", async () => {
    const res = await call("/tiles/tiles.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const tj = await json(res);
    expect(tj).toMatchObject({ tilejson: "3.0.0", minzoom: 0, maxzoom: 12, scheme: "xyz", tiles_id: CURRENT_TILES });
    expect(tj.tiles).toEqual([`https://api.wilayah.test/tiles/{z}/{x}/{y}.mvt?v=${CURRENT_TILES}`]);
    expect(tj.vector_layers.map((l: { id: string; minzoom: number }) => `${l.id}:${l.minzoom}`)).toEqual([
      "provinsi:0",
      "kabupaten:4",
      "kecamatan:7",
      "kelurahan:10",
      "label:0",
    ]);
    expect(tj.vector_layers[3].fields).toMatchObject({ code: "String", name: "String", kecamatan_id: "String" });
    expect(tj.bounds[0]).toBeGreaterThan(90);
    expect(tj.attribution).toMatch(/ODbL/);
  });

  it("the style draws our layers on a plain background, with nothing from a third party", async () => {
    const res = await call("/tiles/style.json");
    expect(res.status).toBe(200);
    const style = await json(res);
    expect(style.version).toBe(8);
    expect(style.glyphs).toBeUndefined();
    expect(style.sprite).toBeUndefined();
    expect(Object.keys(style.sources)).toEqual(["wilayah"]);
    expect(style.sources.wilayah.tiles).toEqual([`https://api.wilayah.test/tiles/{z}/{x}/{y}.mvt?v=${CURRENT_TILES}`]);
    expect(style.layers[0]).toMatchObject({ id: "background", type: "background" });
    const urls = JSON.stringify(style).match(/https?:\/\/[^"]+/g) ?? [];
    expect(urls.every((u) => u.startsWith("https://api.wilayah.test/"))).toBe(true);
    for (const level of ["provinsi", "kabupaten", "kecamatan", "kelurahan"]) {
      expect(style.layers.some((l: { "source-layer"?: string }) => l["source-layer"] === level)).toBe(true);
    }
    expect(style.layers.find((l: { id: string }) => l.id === "kabupaten-density").layout.visibility).toBe("none");
  });
});
