/**
 * Islands (pulau), through HTTP.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import manifest from "../../seed/manifest.json";
import { call, expectError, json, seedUserWithKey } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});
afterEach(() => vi.restoreAllMocks());

const get = (path: string) => call(`/api/v1/wilayah${path}`, { key });

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
