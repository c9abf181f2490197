/**
 * Coordinates and postal codes on region records, through HTTP.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call, json, seedUserWithKey } from "../helpers";

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
