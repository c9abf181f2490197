/**
 * NIK regions, through HTTP.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call, createKey, expectError, json, seedUserWithKey, setPlan, verifiedDeveloper } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});
afterEach(() => vi.restoreAllMocks());

const get = (path: string) => call(`/api/v1/wilayah${path}`, { key });

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
      recoded: false,
      as_issued: null,
    });
    const man = await json(await get("/nik/3273091205150002"));
    expect(man.data).toMatchObject({ birth_date: "2015-05-12", sex: "male" });
    // A kecamatan code that is not (or no longer) in the list: what is known is answered.
    const partial = await json(await get("/nik/3273991205850002"));
    expect(partial.data).toMatchObject({ region_code: "32.73.99", kabupaten: { id: "32.73" }, kecamatan: null, recoded: false, as_issued: null });
  });

  it("invalid NIKs are 400, and the message never repeats the number", async () => {
    for (const nik of [
      "327309451290001",
      "32730945129000012",
      "3273094512900a01",
      "3273093212900001",
      "3273091213900001",
      "3273090002900001",
      "3273090229010001",
      "3273094512900000",
      "3273092902010001",
      "9973094512900001",
      "3200094512900001",
    ]) {
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

describe("POST /wilayah/nik (the NIK in the body, not the URL)", () => {
  const post = (body: string, headers: Record<string, string> = { "content-type": "application/json" }, query = "") =>
    call(`/api/v1/wilayah/nik${query}`, { key, method: "POST", body, headers });

  it("answers exactly what the GET answers, never cached, counted under its own path", async () => {
    const viaGet = await json(await get("/nik/3273094512900001"));
    const res = await post(JSON.stringify({ nik: "3273094512900001" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-cache")).toBe("MISS");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await json(res)).toEqual(viaGet);
  });

  it("refuses what is no JSON object with a NIK: 415, 400 INVALID_JSON, 400 VALIDATION_ERROR, 400 INVALID_QUERY for a query string", async () => {
    await expectError(await post(JSON.stringify({ nik: "3273094512900001" }), { "content-type": "text/plain" }), 415, "UNSUPPORTED_MEDIA_TYPE");
    await expectError(await post("{nik: 3273094512900001"), 400, "INVALID_JSON");
    await expectError(await post(JSON.stringify(["3273094512900001"])), 400, "VALIDATION_ERROR");
    await expectError(await post(JSON.stringify({})), 400, "VALIDATION_ERROR");
    await expectError(await post(JSON.stringify({ nik: 3273094512900001 })), 400, "VALIDATION_ERROR");
    await expectError(await post(JSON.stringify({ nik: "3273094512900001", extra: 1 })), 400, "VALIDATION_ERROR");
    await expectError(await post(JSON.stringify({ nik: "3273094512900001" }), undefined, "?nik=3273094512900001"), 400, "INVALID_QUERY");
    const err = await expectError(await post(JSON.stringify({ nik: "3273091213900001" })), 400, "VALIDATION_ERROR");
    expect(JSON.stringify(err)).not.toContain("3273091213900001");
  });

  it("needs an API key like every data endpoint, and GET on the path is not it", async () => {
    await expectError(
      await call("/api/v1/wilayah/nik", { method: "POST", body: JSON.stringify({ nik: "3273094512900001" }), headers: { "content-type": "application/json" } }),
      401,
      "MISSING_API_KEY",
    );
    await expectError(await get("/nik"), 404, "NOT_FOUND");
  });
});
