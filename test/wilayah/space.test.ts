/**
 * Space and numbers (issue 25) through HTTP and MCP: population and area on provinsi and
 * kabupaten/kota records, `/nearby`, `/{id}/neighbors`, `/coverage` and `/coverage/missing`. The
 * test D1 holds the real seed (every provinsi, kabupaten/kota and kecamatan border; every centroid)
 * and the village boundaries of Kota Bandung and Kabupaten Padang Pariaman with the village borders
 * that touch them (test/setup/boundaries-subset.ts). The checks over every village run on the node
 * side (test/node/space-quality.test.ts).
 */
import { env, exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, call, expectError, json, seedUserWithKey } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});

const get = (path: string) => call(`/api/v1/wilayah${path}`, { key });
const data = async (path: string) => {
  const res = await get(path);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return json(res);
};

/** Great-circle km, written here apart from the API's SQL (haversine, mean Earth radius). */
function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

describe("population and area", () => {
  it("provinsi and kabupaten/kota records carry population, area and density, in lists, by id and in the detail", async () => {
    const jabar = (await data("/provinsi/32")).data;
    expect(jabar).toMatchObject({
      id: "32",
      population: { male: 25_997_794, female: 25_318_584, total: 51_316_378 },
      area_km2: 37_053.331,
      density_per_km2: 1384.9,
    });
    const bandung = { population: { male: 1_298_551, female: 1_293_212, total: 2_591_763 }, area_km2: 166.593, density_per_km2: 15_557.5 };
    expect((await data("/kabupaten/3273")).data).toMatchObject({ id: "32.73", ...bandung });
    expect((await data("/32.73")).data).toMatchObject({ id: "32.73", level: "kabupaten", ...bandung });
    const list = (await data("/kabupaten?provinsi_id=32&per_page=100")).data;
    expect(list.find((k: { id: string }) => k.id === "32.73")).toMatchObject(bandung);
    for (const k of list) expect(k.density_per_km2, k.id).toBeCloseTo(k.population.total / k.area_km2, 1);
    const provinces = (await data("/provinsi?per_page=100")).data;
    expect(provinces.every((p: { population: unknown; area_km2: unknown }) => p.population !== null && p.area_km2 !== null)).toBe(true);
    // The province's figures are the sums of its kabupaten/kota (the source is consistent).
    const sum = list.reduce((s: number, k: { population: { total: number } }) => s + k.population.total, 0);
    expect(sum).toBe(jabar.population.total);
  });

  it("kecamatan and kelurahan/desa records have no population fields", async () => {
    for (const path of ["/kecamatan/32.73.09", "/32.73.09.1001"]) {
      const r = (await data(path)).data;
      expect(r, path).not.toHaveProperty("population");
      expect(r, path).not.toHaveProperty("area_km2");
    }
  });
});

describe("GET /wilayah/:id/neighbors", () => {
  it("Kota Bandung: Kabupaten Bandung, Kabupaten Bandung Barat, Kota Cimahi, largest border first", async () => {
    const body = await data("/32.73/neighbors");
    expect(body.data.map((n: { id: string }) => n.id)).toEqual(["32.04", "32.17", "32.77"]);
    expect(body.data[0]).toMatchObject({ id: "32.04", name: "Kabupaten Bandung", level: "kabupaten" });
    expect(body.data[0].shared_border_km).toBeGreaterThan(body.data[1].shared_border_km);
    expect(body.meta).toEqual({ boundary: true, total: 3 });
    expect((await data("/3273/neighbors")).data).toEqual(body.data); // undotted id
  });

  it("DKI Jakarta: Jawa Barat and Banten", async () => {
    const body = await data("/31/neighbors");
    expect(body.data.map((n: { id: string; name: string }) => [n.id, n.name])).toEqual([
      ["32", "Jawa Barat"],
      ["36", "Banten"],
    ]);
  });

  it("every kabupaten/kota on Java has at least one neighbour; Kepulauan Seribu (islands) has a boundary and none", async () => {
    const java: string[] = [];
    for (const p of ["31", "32", "33", "34", "35", "36"]) {
      java.push(...(await data(`/kabupaten?provinsi_id=${p}&per_page=100`)).data.map((k: { id: string }) => k.id));
    }
    expect(java.length).toBe(119);
    const lonely: string[] = [];
    for (const id of java.filter((k) => k !== "31.01")) if ((await data(`/${id}/neighbors`)).data.length === 0) lonely.push(id);
    expect(lonely).toEqual([]);
    expect(await data("/31.01/neighbors")).toEqual({ data: [], meta: { boundary: true, total: 0 } });
  });

  it("is symmetric, with the same length both ways, over every level of the loaded data", async () => {
    for (const level of [1, 2, 3, 4]) {
      const { results } = await env.DB.prepare(
        `SELECT count(*) AS n, sum(NOT EXISTS (SELECT 1 FROM wilayah_neighbor m WHERE m.id = n.neighbor_id AND m.neighbor_id = n.id AND m.shared_border_km = n.shared_border_km)) AS lonely,
                sum(n.id = n.neighbor_id) AS self FROM wilayah_neighbor n WHERE n.level = ?`,
      )
        .bind(level)
        .all<{ n: number; lonely: number; self: number }>();
      expect(results[0].n, `level ${level}`).toBeGreaterThan(0);
      expect(results[0], `level ${level}`).toMatchObject({ lonely: 0, self: 0 });
    }
    // And through HTTP: each neighbour of a Bandung village lists it back, with the same length.
    const mine = (await data("/32.73.09.1001/neighbors")).data;
    expect(mine.length).toBeGreaterThan(2);
    for (const n of mine) {
      const back = (await data(`/${n.id}/neighbors`)).data.find((m: { id: string }) => m.id === "32.73.09.1001");
      expect(back?.shared_border_km, n.id).toBe(n.shared_border_km);
    }
  });

  it("a region without a boundary: unknown neighbours (boundary false), not none; unknown ids are NOT_FOUND", async () => {
    // Village boundaries of this D1 are those of two kabupaten/kota: this Aceh village has none loaded.
    expect(await data("/11.01.01.2001/neighbors")).toEqual({ data: [], meta: { boundary: false, total: 0 } });
    await expectError(await get("/99.99/neighbors"), 404, "NOT_FOUND");
    await expectError(await get("/not-a-code/neighbors"), 404, "NOT_FOUND");
  });
});

describe("GET /wilayah/nearby", () => {
  type Centroid = { id: string; lat: number; lng: number };
  const centroids: Record<string, Centroid[]> = {};
  beforeAll(async () => {
    for (const level of ["provinsi", "kabupaten", "kecamatan", "kelurahan"]) {
      centroids[level] = (await env.DB.prepare(`SELECT id, lat, lng FROM ${level} WHERE is_active = 1 AND lat IS NOT NULL`).all<Centroid>()).results;
    }
  });

  /** Brute force over every centroid of the level: the `limit` nearest (ties by id), within `radius`. */
  const bruteForce = (lat: number, lng: number, limit: number, radius = Infinity, level = "kelurahan") =>
    centroids[level]
      .map((v) => ({ id: v.id, km: haversineKm(lat, lng, v.lat, v.lng) }))
      .filter((v) => v.km <= radius)
      .sort((a, b) => a.km - b.km || (a.id < b.id ? -1 : 1))
      .slice(0, limit);

  it("the villages nearest a point in Bandung, nearest first, with distances and the one holding the point", async () => {
    const body = await data("/nearby?lat=-6.90827&lng=107.626971");
    expect(body.meta).toEqual({
      level: "kelurahan",
      total: 10,
      radius_km: null,
      containing: { id: "32.73.09.1001", name: "Cihapit" },
      without_coordinates: 360,
    });
    const items = body.data as { id: string; lat: number; lng: number; distance_km: number; inside: boolean; parent: string }[];
    expect(items.map((i) => i.id)).toEqual(bruteForce(-6.90827, 107.626971, 10).map((v) => v.id));
    for (const [i, item] of items.entries()) {
      expect(Math.abs(item.distance_km - haversineKm(-6.90827, 107.626971, item.lat, item.lng)), item.id).toBeLessThan(0.0006);
      if (i) expect(item.distance_km).toBeGreaterThanOrEqual(items[i - 1].distance_km);
    }
    expect(items.filter((i) => i.inside).map((i) => i.id)).toEqual(items.some((i) => i.id === "32.73.09.1001") ? ["32.73.09.1001"] : []);
    expect(items[0]).toMatchObject({ level: "kelurahan" });
    expect(items.find((i) => i.id === "32.73.09.1001")?.parent).toBe("Bandung Wetan, Kota Bandung, Jawa Barat");
  });

  it("every level; the point's own regions are marked inside; results equal a brute force with distances to the metre", async () => {
    const at = "lat=-6.90827&lng=107.626971";
    const kec = await data(`/nearby?${at}&level=kecamatan&limit=5`);
    expect(kec.meta.containing).toEqual({ id: "32.73.09", name: "Bandung Wetan" });
    expect(kec.data[0]).toMatchObject({ id: "32.73.09", inside: true, parent: "Kota Bandung, Jawa Barat" });
    expect(kec.data.map((k: { id: string }) => k.id)).toEqual(bruteForce(-6.90827, 107.626971, 5, Infinity, "kecamatan").map((k) => k.id));
    const kab = await data(`/nearby?${at}&level=kabupaten&limit=3`);
    expect(kab.data.map((k: { id: string }) => k.id)).toEqual(bruteForce(-6.90827, 107.626971, 3, Infinity, "kabupaten").map((k) => k.id));
    expect(kab.data[0]).toMatchObject({ id: "32.73", inside: true, parent: "Jawa Barat" });
    const prov = await data(`/nearby?${at}&level=provinsi&limit=50`);
    expect(prov.meta).toMatchObject({ total: 38, without_coordinates: 0, containing: { id: "32", name: "Jawa Barat" } });
    expect(prov.data.map((p: { id: string }) => p.id)).toEqual(bruteForce(-6.90827, 107.626971, 50, Infinity, "provinsi").map((p) => p.id));
    expect(prov.data.filter((p: { inside: boolean }) => p.inside).map((p: { id: string }) => p.id)).toEqual(["32"]);
    // Brute force on points across the country (seeded), villages, limit 20.
    let seed = 25;
    const random = () => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    for (let i = 0; i < 12; i++) {
      const lat = Math.round((-11 + random() * 17) * 1e5) / 1e5;
      const lng = Math.round((95 + random() * 46) * 1e5) / 1e5;
      const got = (await data(`/nearby?lat=${lat}&lng=${lng}&limit=20`)).data as { id: string; distance_km: number }[];
      const want = bruteForce(lat, lng, 20);
      expect(
        got.map((g) => g.id),
        `${lat},${lng}`,
      ).toEqual(want.map((w) => w.id));
      for (const [j, g] of got.entries()) expect(Math.abs(g.distance_km - want[j].km)).toBeLessThan(0.0006);
    }
  });

  it("Banjarmasin: the nearest provinsi is Kalimantan Selatan, which holds it (its point derived from its boundary)", async () => {
    const body = await data("/nearby?lat=-3.3194&lng=114.5908&level=provinsi&limit=2");
    expect(body.data.map((p: { id: string; inside: boolean }) => [p.id, p.inside])).toEqual([
      ["63", true],
      ["62", false],
    ]);
    expect(body.meta).toMatchObject({ containing: { id: "63", name: "Kalimantan Selatan" }, without_coordinates: 0 });
  });

  it("radius_km keeps only the regions within; at sea nothing holds the point", async () => {
    const near = await data("/nearby?lat=-6.90827&lng=107.626971&radius_km=1&limit=50");
    expect(near.data.length).toBe(bruteForce(-6.90827, 107.626971, 50, 1).length);
    expect(near.data.every((v: { distance_km: number }) => v.distance_km <= 1)).toBe(true);
    expect(near.meta.radius_km).toBe(1);
    const sea = await data("/nearby?lat=-5&lng=100&radius_km=10");
    expect(sea).toEqual({ data: [], meta: { level: "kelurahan", total: 0, radius_km: 10, containing: null, without_coordinates: 360 } });
    const far = await data("/nearby?lat=-5&lng=100&limit=3");
    expect(far.data.map((v: { id: string }) => v.id)).toEqual(bruteForce(-5, 100, 3).map((v) => v.id));
    expect(far.data.every((v: { inside: boolean }) => !v.inside)).toBe(true);
  });

  it("refuses bad input with INVALID_QUERY", async () => {
    for (const q of [
      "lat=-6.9",
      "lat=-6.9&lng=107.6&limit=0",
      "lat=-6.9&lng=107.6&limit=51",
      "lat=-6.9&lng=107.6&radius_km=101",
      "lat=-6.9&lng=107.6&radius_km=-1",
      "lat=-6.9&lng=107.6&level=desa",
      "lat=48.85&lng=2.35",
      "lat=1e1&lng=107.6",
      "lat=-6.9&lng=107.6&extra=1",
    ]) {
      await expectError(await get(`/nearby?${q}`), 400, "INVALID_QUERY");
    }
  });
});

describe("GET /wilayah/coverage and /coverage/missing", () => {
  it("counts, per level, the current regions with each field (null where it does not apply)", async () => {
    const body = await data("/coverage");
    const loadedVillageBoundaries = (await env.DB.prepare("SELECT count(*) AS n FROM wilayah_bbox WHERE level = 4").first<{ n: number }>())?.n;
    expect(body.data).toEqual([
      { level: "provinsi", regions: 38, coordinates: 38, boundary: 38, postal_code: null, population: 38, area: 38, bps_code: null },
      { level: "kabupaten", regions: 514, coordinates: 514, boundary: 514, postal_code: null, population: 514, area: 514, bps_code: 514 },
      { level: "kecamatan", regions: 7285, coordinates: 7285, boundary: 7285, postal_code: null, population: null, area: null, bps_code: 7_284 },
      {
        level: "kelurahan",
        regions: 83_762,
        coordinates: 83_402,
        boundary: loadedVillageBoundaries,
        postal_code: 83_762,
        population: null,
        area: null,
        bps_code: 82_934,
      },
    ]);
  });

  it("lists the regions that lack a field, paged, by level then id", async () => {
    expect(await data("/coverage/missing?field=coordinates&level=provinsi")).toEqual({
      data: [],
      meta: { total: 0, page: 1, per_page: 20, total_pages: 0, field: "coordinates", levels: ["provinsi"] },
    });
    const all = await data("/coverage/missing?field=coordinates&per_page=3");
    expect(all.meta).toMatchObject({ total: 360, levels: ["provinsi", "kabupaten", "kecamatan", "kelurahan"], total_pages: 120 });
    expect(all.data.map((r: { level: string }) => r.level)).toEqual(["kelurahan", "kelurahan", "kelurahan"]);
    const page2 = await data("/coverage/missing?field=coordinates&level=kelurahan&per_page=25&page=2");
    expect(page2.data.length).toBe(25);
    expect(page2.meta).toMatchObject({ total: 360, page: 2, total_pages: 15 });
    for (const r of page2.data) {
      const v = (await data(`/${r.id}`)).data;
      expect(v.lat, r.id).toBeNull();
      expect(v.name).toBe(r.name);
    }
    expect((await data("/coverage/missing?field=postal_code")).meta.total).toBe(0);
  });

  it("every region with a boundary has a coordinate, at every level (issue 41)", async () => {
    const missing = async (field: string, level: string) => {
      const ids = new Set<string>();
      for (let page = 1; ; page++) {
        const body = await data(`/coverage/missing?field=${field}&level=${level}&per_page=100&page=${page}`);
        for (const r of body.data) ids.add(r.id);
        if (page >= body.meta.total_pages) return ids;
      }
    };
    // every region lacking coordinates, at every level, must lack a boundary too (its /boundary is 404)
    for (const level of ["provinsi", "kabupaten", "kecamatan", "kelurahan"]) {
      const withBoundary: string[] = [];
      for (const id of await missing("coordinates", level)) if ((await get(`/${id}/boundary?simplify=0.1`)).status !== 404) withBoundary.push(id);
      expect(withBoundary, `${level}: a boundary and no coordinate`).toEqual([]);
    }
    // the two the issue named, with a point inside their own boundary (ray casting on the GeoJSON
    // /boundary serves; not /reverse: 72.06.20's islands overlap 72.06.07's outline in the source,
    // and /reverse names the lower id there)
    const inRing = (ring: number[][], x: number, y: number) => {
      let inside = false;
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
        if (ring[i][1] > y !== ring[j][1] > y && x < ring[i][0] + ((y - ring[i][1]) * (ring[j][0] - ring[i][0])) / (ring[j][1] - ring[i][1])) inside = !inside;
      return inside;
    };
    for (const id of ["63", "72.06.20"]) {
      const { lat, lng } = (await data(`/${id}`)).data;
      expect(lat, id).not.toBeNull();
      const shape = (await data(`/${id}/boundary`)).data;
      const polygons: number[][][][] = shape.geometry.coordinates;
      expect(
        polygons.some(([outer, ...holes]) => inRing(outer, lng, lat) && !holes.some((h) => inRing(h, lng, lat))),
        id,
      ).toBe(true);
    }
  });

  it("a field that does not apply to the level is INVALID_QUERY naming the valid ones", async () => {
    const e = await expectError(await get("/coverage/missing?field=population&level=kecamatan"), 400, "INVALID_QUERY");
    expect(e.message).toContain("Fields for kecamatan: coordinates, boundary");
    await expectError(await get("/coverage/missing?field=height"), 400, "INVALID_QUERY");
    await expectError(await get("/coverage/missing"), 400, "INVALID_QUERY");
  });
});

/** The MCP client, talking to the Worker in-process (as test/mcp/mcp.test.ts does). */
async function mcp() {
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    requestInit: { headers: { "x-api-key": key } },
    fetch: async (input, init) => {
      const { signal: _signal, ...rest } = init ?? {};
      const req = new Request(input, rest);
      req.headers.set("host", new URL(BASE).host);
      return exports.default.fetch(req);
    },
  });
  const client = new Client({ name: "space-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

describe("the MCP tools answer like REST", () => {
  it("wilayah_nearby, wilayah_neighbors, wilayah_coverage, wilayah_coverage_missing", async () => {
    const client = await mcp();
    type ToolResult = { isError?: boolean; structuredContent?: unknown; content: { text: string }[] };
    const same = async (name: string, args: Record<string, unknown>, path: string) => {
      const r = (await client.callTool({ name, arguments: args })) as ToolResult;
      expect(r.isError, name).toBeFalsy();
      expect(r.structuredContent, name).toEqual(await data(path));
    };
    await same(
      "wilayah_nearby",
      { lat: -6.90827, lng: 107.626971, level: "kecamatan", limit: 5 },
      "/nearby?lat=-6.90827&lng=107.626971&level=kecamatan&limit=5",
    );
    await same("wilayah_neighbors", { id: "32.73" }, "/32.73/neighbors");
    await same("wilayah_coverage", {}, "/coverage");
    await same("wilayah_coverage_missing", { field: "coordinates", level: "kecamatan" }, "/coverage/missing?field=coordinates&level=kecamatan");
    const bad = (await client.callTool({ name: "wilayah_coverage_missing", arguments: { field: "area", level: "kelurahan" } })) as ToolResult;
    expect(bad.isError).toBe(true);
    expect(JSON.parse(bad.content[0].text).error.code).toBe("INVALID_QUERY");
    await client.close();
  });
});
