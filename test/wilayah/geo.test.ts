/**
 * Boundaries and reverse geocoding, through HTTP. The test D1 holds the real seed and the real
 * kelurahan/desa boundaries of Kota Bandung (32.73) and Kabupaten Padang Pariaman (13.05)
 * (test/setup/boundaries-subset.ts); the reverse-geocoding quality test over all villages runs on
 * the node side (test/node/reverse-quality.test.ts).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call, expectError, json, seedUserWithKey } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});
afterEach(() => vi.restoreAllMocks());

const get = (path: string) => call(`/api/v1/wilayah${path}`, { key });

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
    for (const [id, level] of [
      ["32", "provinsi"],
      ["3273", "kabupaten"],
      ["32.73.09", "kecamatan"],
    ]) {
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
    for (const q of [
      "lat=91&lng=100",
      "lat=-6.9&lng=181",
      "lat=abc&lng=107",
      "lat=1e1&lng=107",
      "lat=-6.9",
      "lng=107.6",
      "lat=&lng=",
      "lat=0x10&lng=107",
      "lat=-6.9&lng=107.6&x=1",
    ]) {
      const err = await expectError(await get(`/reverse?${q}`), 400, "INVALID_QUERY");
      expect(err.details?.length, q).toBeGreaterThan(0);
    }
  });
});
