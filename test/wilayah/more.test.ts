/**
 * Coordinates, postal codes, islands, boundaries, reverse geocoding and NIK regions, through HTTP.
 * The test D1 holds the real seed and the real kelurahan/desa boundaries of Kota Bandung (32.73)
 * and Kabupaten Padang Pariaman (13.05) (test/setup/boundaries-subset.ts); the reverse-geocoding
 * quality test over all villages runs on the node side (test/node/reverse-quality.test.ts).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import manifest from "../../seed/manifest.json";
import { call, createKey, expectError, json, seedUserWithKey, setPlan, verifiedDeveloper } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});
afterEach(() => vi.restoreAllMocks());

const get = (path: string) => call(`/api/v1/wilayah${path}`, { key });

describe("coordinates and postal codes on records", () => {
  it("serves centroids where known and postal codes on every current village", async () => {
    const kab = await json(await get("/kabupaten/32.73"));
    expect(kab.data.lat).toBeCloseTo(-6.92, 1);
    expect(kab.data.lng).toBeCloseTo(107.63, 1);
    const kel = await json(await get("/kelurahan/32.73.09.1001"));
    expect(kel.data).toMatchObject({ id: "32.73.09.1001", name: "Cihapit", postal_code: "40114", lat: -6.90827, lng: 107.626971 });
    const list = await json(await get("/kelurahan?kecamatan_id=32.73.09"));
    expect(list.data.every((v: { postal_code: string }) => /^\d{5}$/.test(v.postal_code))).toBe(true);
    const detail = await json(await get("/3273091001"));
    expect(detail.data).toMatchObject({ level: "kelurahan", postal_code: "40114" });
    // A village without a boundary in the source has no centroid: null, never invented.
    const noCentroid = await json(await get("/kelurahan/11.16.06.2021"));
    expect(noCentroid.data).toMatchObject({ lat: null, lng: null });
    expect(noCentroid.data.postal_code).toMatch(/^\d{5}$/);
  });
});

describe("GET /wilayah/kodepos/:code", () => {
  it("lists the villages of a postal code with their parents' names", async () => {
    const res = await get("/kodepos/40114");
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.meta).toEqual({ total: 1, page: 1, per_page: 20, total_pages: 1 });
    expect(body.data[0]).toMatchObject({
      id: "32.73.09.1001",
      name: "Cihapit",
      postal_code: "40114",
      kecamatan_id: "32.73.09",
      kabupaten_id: "32.73",
      provinsi_id: "32",
      parent: "Bandung Wetan, Kota Bandung, Jawa Barat",
    });
  });

  it("pages a postal code shared by many villages", async () => {
    const a = await json(await get("/kodepos/99085?per_page=100"));
    expect(a.meta).toEqual({ total: 108, page: 1, per_page: 100, total_pages: 2 });
    const b = await json(await get("/kodepos/99085?per_page=100&page=2"));
    expect(b.data).toHaveLength(8);
    const ids = [...a.data, ...b.data].map((v: { id: string }) => v.id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(108);
  });

  it("400 for anything but 5 digits, 404 for an unknown code", async () => {
    for (const code of ["4011", "401140", "abcde", "4011x", "%2040114"]) await expectError(await get(`/kodepos/${code}`), 400, "INVALID_QUERY");
    await expectError(await get("/kodepos/00000"), 404, "NOT_FOUND");
  });
});

describe("islands (pulau)", () => {
  it("lists the 17,373 islands, paged, with decimal coordinates and both decrees in x-data-version", async () => {
    const res = await get("/pulau");
    expect(res.headers.get("x-data-version")).toBe(manifest.dataVersion);
    expect(res.headers.get("x-data-version")).toMatch(/2138\/2025.*2430\/2025/);
    const body = await json(res);
    expect(body.meta).toEqual({ total: 17_373, page: 1, per_page: 20, total_pages: 869 });
    expect(body.data[0]).toEqual({
      id: "11.01.40001",
      code: "110140001",
      name: "Pulau Batukapal",
      kabupaten_id: "11.01",
      provinsi_id: "11",
      lat: 3.317622,
      lng: 97.128258,
      is_populated: 0,
      is_outermost_small: 0,
      is_active: 1,
      replaced_by: null,
    });
  });

  it("converts degrees-minutes-seconds correctly (south and north, known islands)", async () => {
    // Pulau Bangka: 02°15'11.99" S 106°00'23.00" E
    const bangka = await json(await get("/pulau/19.00.40001"));
    expect(bangka.data).toMatchObject({ name: "Pulau Bangka", lat: -2.253331, lng: 106.006389, kabupaten_id: null, provinsi_id: "19", is_populated: 1 });
    // Pulau Nias: 01°04'04.55" N 097°36'03.35" E
    const nias = await json(await get("/pulau/120040004"));
    expect(nias.data).toMatchObject({ id: "12.00.40004", name: "Pulau Nias", lat: 1.067931, lng: 97.600931 });
  });

  it("the four islands moved by 2430/2025 are in Aceh Singkil; their old codes resolve as retired", async () => {
    const singkil = await json(await get("/pulau?kabupaten_id=11.10&per_page=100"));
    const moved = singkil.data.filter((p: { id: string }) => p.id >= "11.10.40081");
    expect(moved.map((p: { id: string; name: string }) => `${p.id} ${p.name}`)).toEqual([
      "11.10.40081 Pulau Lipan",
      "11.10.40082 Pulau Mangkir Gadang",
      "11.10.40083 Pulau Mangkir Ketek",
      "11.10.40084 Pulau Panjang",
    ]);
    const old = await json(await get("/pulau/12.01.40015"));
    expect(old.data).toMatchObject({ name: "Pulau Mangkir Gadang", kabupaten_id: "12.01", is_active: 0, replaced_by: "11.10.40082" });
    const tapteng = await json(await get("/pulau?kabupaten_id=1201&per_page=100"));
    expect(tapteng.data.some((p: { id: string }) => p.id === "12.01.40015")).toBe(false);
    const withRetired = await json(await get("/pulau?kabupaten_id=12.01&per_page=100&include_inactive=1"));
    expect(withRetired.meta.total).toBe(tapteng.meta.total + 4);
  });

  it("filters by province, flags and name", async () => {
    const outermost = await json(await get("/pulau?is_outermost_small=1&per_page=100"));
    expect(outermost.meta.total).toBeGreaterThan(0);
    expect(outermost.data.every((p: { is_outermost_small: number }) => p.is_outermost_small === 1)).toBe(true);
    const populated = await json(await get("/pulau?provinsi_id=19&is_populated=true&per_page=100"));
    expect(populated.data.every((p: { provinsi_id: string; is_populated: number }) => p.provinsi_id === "19" && p.is_populated === 1)).toBe(true);
    expect(populated.data.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["Pulau Bangka", "Pulau Belitung"]));
    const unpopulated = await json(await get("/pulau?provinsi_id=19&is_populated=0&per_page=1"));
    const all = await json(await get("/pulau?provinsi_id=19&per_page=1"));
    expect(unpopulated.meta.total + populated.meta.total).toBe(all.meta.total);
    const named = await json(await get("/pulau?q=MANGKIR"));
    expect(named.data.map((p: { id: string }) => p.id)).toEqual(["11.10.40082", "11.10.40083"]);
    expect((await json(await get("/pulau?kabupaten_id=nope"))).meta.total).toBe(0);
  });

  it("bad parameters are 400, unknown ids 404", async () => {
    await expectError(await get("/pulau?q=a"), 400, "INVALID_QUERY");
    await expectError(await get("/pulau?is_populated=yes"), 400, "INVALID_QUERY");
    await expectError(await get("/pulau?colour=blue"), 400, "INVALID_QUERY");
    await expectError(await get("/pulau/11.01.99999"), 404, "NOT_FOUND");
    await expectError(await get("/pulau/bogus"), 404, "NOT_FOUND");
  });
});

type Feature = {
  type: string;
  bbox: number[];
  properties: { id: string; name: string; level: string };
  geometry: { type: string; coordinates: number[][][][] };
};

/** Twice the signed area of a ring (positive: counter-clockwise). */
const area2 = (ring: number[][]) => ring.slice(0, -1).reduce((a, [x, y], i) => a + x * ring[i + 1][1] - ring[i + 1][0] * y, 0);
const points = (f: Feature) => f.geometry.coordinates.flat(2).length;

describe("GET /wilayah/:id/boundary", () => {
  it("a village's boundary as a GeoJSON Feature: MultiPolygon, closed rings, RFC 7946 winding", async () => {
    const res = await get("/32.73.09.1001/boundary");
    expect(res.status).toBe(200);
    const f: Feature = (await json(res)).data;
    expect(f.type).toBe("Feature");
    expect(f.properties).toEqual({ id: "32.73.09.1001", name: "Cihapit", level: "kelurahan" });
    expect(f.geometry.type).toBe("MultiPolygon");
    for (const polygon of f.geometry.coordinates) {
      polygon.forEach((ring, i) => {
        expect(ring.length).toBeGreaterThanOrEqual(4);
        expect(ring[0]).toEqual(ring.at(-1));
        expect(Math.sign(area2(ring))).toBe(i === 0 ? 1 : -1);
      });
    }
    const [w, s, e, n] = f.bbox;
    expect(w).toBeLessThan(107.627);
    expect(e).toBeGreaterThan(107.627);
    expect(s).toBeLessThan(-6.908);
    expect(n).toBeGreaterThan(-6.908);
  });

  it("every level: provinsi, kabupaten, kecamatan; undotted ids; simplify thins the shape", async () => {
    for (const [id, level] of [["32", "provinsi"], ["3273", "kabupaten"], ["32.73.09", "kecamatan"]]) {
      const f: Feature = (await json(await get(`/${id}/boundary`))).data;
      expect(f.properties.level, id).toBe(level);
    }
    const full: Feature = (await json(await get("/32/boundary"))).data;
    const light: Feature = (await json(await get("/32/boundary?simplify=0.01"))).data;
    expect(points(light)).toBeLessThan(points(full) * 0.6);
    expect(light.geometry.coordinates.length).toBeGreaterThan(0);
    // Holes survive in the full shape of a province that has them (islets inside a larger ring).
    expect(full.geometry.coordinates.some((p) => p.length > 1) || full.geometry.coordinates.length > 1).toBe(true);
  });

  it("404 where no boundary is known or the id is unknown; 400 for a bad simplify", async () => {
    await expectError(await get("/11.16.06.2021/boundary"), 404, "NOT_FOUND"); // no boundary in the source
    await expectError(await get("/99/boundary"), 404, "NOT_FOUND");
    await expectError(await get("/abc/boundary"), 404, "NOT_FOUND");
    await expectError(await get("/32/boundary?simplify=abc"), 400, "INVALID_QUERY");
    await expectError(await get("/32/boundary?simplify=-1"), 400, "INVALID_QUERY");
  });
});

describe("GET /wilayah/reverse", () => {
  it("a village's centroid answers the village, its parents and its postal code", async () => {
    const res = await get("/reverse?lat=-6.90827&lng=107.626971");
    expect(res.status).toBe(200);
    expect((await json(res)).data).toEqual({
      lat: -6.90827,
      lng: 107.626971,
      approximate: false,
      kelurahan: { id: "32.73.09.1001", name: "Cihapit", postal_code: "40114" },
      kecamatan: { id: "32.73.09", name: "Bandung Wetan" },
      kabupaten: { id: "32.73", name: "Kota Bandung" },
      provinsi: { id: "32", name: "Jawa Barat" },
    });
  });

  it("inside a kecamatan but in no village boundary: the kecamatan and up, the nearest village marked approximate", async () => {
    // A gap between the village boundaries of kecamatan 13.05.02 (no village boundary of the source holds this point).
    const body = await json(await get("/reverse?lat=-0.755&lng=100.2409"));
    expect(body.data).toMatchObject({ approximate: true, kecamatan: { id: "13.05.02" }, kabupaten: { id: "13.05" }, provinsi: { id: "13" } });
    expect(body.data.kelurahan.id).toMatch(/^13\.05\.02\.\d{4}$/);
  });

  it("just off a (simplified) coastline: the nearest kecamatan, approximate; farther out at sea: 404", async () => {
    // 260 m west of kecamatan Batang Anai's drawn coastline, and 10 km out.
    const shore = await json(await get("/reverse?lat=-0.8756&lng=100.0969"));
    expect(shore.data).toMatchObject({ approximate: true, kecamatan: { id: "13.05.02", name: "Batang Anai" } });
    expect(shore.data.kelurahan.id).toMatch(/^13\.05\.02\./);
    await expectError(await get("/reverse?lat=-0.8756&lng=100.0009"), 404, "NOT_FOUND");
  });

  it("at sea or outside Indonesia: 404 NOT_FOUND", async () => {
    await expectError(await get("/reverse?lat=-5&lng=100"), 404, "NOT_FOUND"); // Indian Ocean
    await expectError(await get("/reverse?lat=48.8566&lng=2.3522"), 404, "NOT_FOUND"); // Paris
  });

  it("a point on a border shared by two villages answers one of them, the same one every time", async () => {
    // A vertex of both Sukarasa (32.73.01.1001) and Gegerkalong (32.73.01.1002).
    const answers = new Set<string>();
    for (const q of ["lat=-6.86812&lng=107.58293", "lat=-6.868120&lng=107.582930", "lng=107.58293&lat=-6.86812"]) {
      const res = await get(`/reverse?${q}`);
      expect(res.status).toBe(200);
      const d = (await json(res)).data;
      expect(["32.73.01.1001", "32.73.01.1002"]).toContain(d.kelurahan.id);
      answers.add(d.kelurahan.id);
    }
    expect(answers.size).toBe(1);
  });

  it("out-of-range or malformed coordinates are 400 INVALID_QUERY", async () => {
    for (const q of ["lat=91&lng=100", "lat=-6.9&lng=181", "lat=abc&lng=107", "lat=1e1&lng=107", "lat=-6.9", "lng=107.6", "lat=&lng=", "lat=0x10&lng=107", "lat=-6.9&lng=107.6&x=1"]) {
      const err = await expectError(await get(`/reverse?${q}`), 400, "INVALID_QUERY");
      expect(err.details?.length, q).toBeGreaterThan(0);
    }
  });
});

describe("GET /wilayah/nik/:nik", () => {
  it("decodes region, date of birth and sex", async () => {
    const woman = await json(await get("/nik/3273094512900001"));
    expect(woman.data).toEqual({
      region_code: "32.73.09",
      provinsi: { id: "32", name: "Jawa Barat" },
      kabupaten: { id: "32.73", name: "Kota Bandung" },
      kecamatan: { id: "32.73.09", name: "Bandung Wetan" },
      birth_date: "1990-12-05",
      sex: "female",
    });
    const man = await json(await get("/nik/3273091205150002"));
    expect(man.data).toMatchObject({ birth_date: "2015-05-12", sex: "male" });
    // A kecamatan code that is not (or no longer) in the list: what is known is answered.
    const partial = await json(await get("/nik/3273991205850002"));
    expect(partial.data).toMatchObject({ region_code: "32.73.99", kabupaten: { id: "32.73" }, kecamatan: null });
  });

  it("invalid NIKs are 400, and the message never repeats the number", async () => {
    for (const nik of ["327309451290001", "32730945129000012", "3273094512900a01", "3273093212900001", "3273091213900001", "3273090002900001", "3273090229010001", "3273094512900000", "3273092902010001", "9973094512900001", "3200094512900001"]) {
      const err = await expectError(await get(`/nik/${nik}`), 400, "INVALID_QUERY");
      expect(JSON.stringify(err)).not.toContain(nik);
    }
  });

  it("is never cached, logged or stored: usage names the path template only", async () => {
    const nik = "3273094512900001";
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "internal");
    const k = await createKey(dev.token, "nik");
    const logs = [vi.spyOn(console, "log"), vi.spyOn(console, "error"), vi.spyOn(console, "warn"), vi.spyOn(console, "info")];
    for (let i = 0; i < 2; i++) {
      const res = await call(`/api/v1/wilayah/nik/${nik}`, { key: k.key });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-cache")).toBe("MISS");
    }
    await expectError(await call("/api/v1/wilayah/nik/3273091213900001", { key: k.key }), 400, "INVALID_QUERY");
    const usage = (await json(await call("/user/usage", { token: dev.token }))).data;
    expect(usage.by_endpoint).toEqual([{ endpoint: "/wilayah/nik/:nik", count: 2 }]);
    expect(JSON.stringify(usage)).not.toContain(nik);
    const printed = logs.flatMap((l) => l.mock.calls.flat().map(String)).join("\n");
    expect(printed).not.toContain(nik);
    expect(printed).not.toContain("3273091213900001");
  });
});
