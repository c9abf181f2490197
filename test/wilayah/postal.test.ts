/**
 * Villages of a postal code, through HTTP.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call, expectError, json, seedUserWithKey } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});
afterEach(() => vi.restoreAllMocks());

const get = (path: string) => call(`/api/v1/wilayah${path}`, { key });

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
