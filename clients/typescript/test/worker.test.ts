/**
 * The SDK against a real Worker (`wrangler dev`, started by ../test.sh): search, by id, paging to
 * the end of a list, errors, a bulk export (and the free plan's refusal), and a real 429 from the
 * free plan's rate limiter, waited out.
 *
 * WILAYAH_BASE_URL   the Worker, e.g. http://127.0.0.1:8821
 * WILAYAH_API_KEY    a key on an unthrottled plan (the dev key)
 * WILAYAH_FREE_KEY   a fresh free-plan key (30 calls a minute) that no other test uses
 */
import { describe, expect, it } from "vitest";
import {
  ApiError,
  createWilayahClient,
  getExport,
  getExportManifest,
  getProvinsi,
  listKabupaten,
  listProvinsi,
  paginate,
  searchRegions,
} from "../src/index.js";

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run clients/test.sh (it starts the Worker and makes the keys)`);
  return value;
}
const baseUrl = env("WILAYAH_BASE_URL");
const client = createWilayahClient({ baseUrl, apiKey: env("WILAYAH_API_KEY") });

describe("Wilayah API through the TypeScript SDK", () => {
  it("searches", async () => {
    const { data, response } = await searchRegions({ client, query: { q: "bandung", level: "kabupaten" } });
    expect(data.data.map((r) => r.name)).toEqual(expect.arrayContaining(["Kabupaten Bandung", "Kota Bandung"]));
    expect(data.meta.total).toBeGreaterThanOrEqual(2);
    expect(response.headers.get("x-data-version")).toBeTruthy();
  });

  it("reads one region by id", async () => {
    const { data } = await getProvinsi({ client, path: { id: "32" } });
    expect(data.data).toMatchObject({ id: "32", name: "Jawa Barat" });
  });

  it("pages to the end of a list", async () => {
    const ids: string[] = [];
    for await (const kab of paginate(listKabupaten, { client, query: { provinsi_id: "32", per_page: 5 } })) ids.push(kab.id);
    const { data: all } = await listKabupaten({ client, query: { provinsi_id: "32", per_page: 100 } });
    expect(ids).toEqual(all.data.map((k) => k.id));
    expect(ids).toHaveLength(all.meta.total);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(5); // more than one page
  });

  it("turns an unknown id into ApiError NOT_FOUND with the request id", async () => {
    const err = (await getProvinsi({ client, path: { id: "99" } }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([err.status, err.code]).toEqual([404, "NOT_FOUND"]);
    expect(err.requestId).toMatch(/\S/);
    expect(err.message).toMatch(/\S/);
  });

  it("turns a bad key into ApiError INVALID_API_KEY and a bad parameter into INVALID_QUERY with details", async () => {
    const stranger = createWilayahClient({ baseUrl, apiKey: "wk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" });
    await expect(listProvinsi({ client: stranger })).rejects.toMatchObject({ status: 401, code: "INVALID_API_KEY" });
    // per_page is typed as a number; a caller bypassing the types still gets the API's answer.
    const err = (await listProvinsi({ client, query: { per_page: "many" as unknown as number } }).catch((e: unknown) => e)) as ApiError;
    expect([err.status, err.code]).toEqual([400, "INVALID_QUERY"]);
    expect(err.details?.[0]?.path).toBe("per_page");
  });

  it("downloads a bulk export (text, or a stream for the large ones) whose checksum and rows are the API's", async () => {
    const { data: csv, response } = await getExport({ client, query: { level: "kabupaten", format: "csv" }, parseAs: "text" });
    expect(typeof csv).toBe("string");
    const text = String(csv); // typed by the document's JSON answer; with parseAs "text" it is the file's text
    const digest = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).toString("hex");
    expect(response.headers.get("x-checksum-sha256")).toBe(digest);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="wilayah-kabupaten-\w+\.csv"$/);
    const rows = text.trimEnd().split("\r\n");
    expect(rows[0]).toBe(
      "id,code,name,alt_name,lat,lng,is_active,provinsi_id,type,area_km2,population_male,population_female,population_total,density_per_km2,bps_code",
    );
    const { data: page } = await listKabupaten({ client, query: { per_page: 3 } });
    expect(rows.slice(1, 4).map((r) => r.split(",")[0])).toEqual(page.data.map((k) => k.id));
    expect(rows).toHaveLength(page.meta.total + 1);

    const { data: stream } = await getExport({ client, query: { level: "provinsi", format: "geojson" }, parseAs: "stream" });
    let bytes = 0;
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    const { data: manifest } = await getExportManifest({ client });
    expect(manifest.data.files.find((f) => f.name === "provinsi.geojson")?.size).toBe(bytes);

    const free = createWilayahClient({ baseUrl, apiKey: env("WILAYAH_FREE_KEY"), retry: false });
    await expect(getExport({ client: free, query: { level: "provinsi", format: "csv" } })).rejects.toMatchObject({ status: 403, code: "PLAN_REQUIRED" });
  });

  it("meets the free plan's rate limit (429 RATE_LIMITED, Retry-After) and waits it out", async () => {
    const freeKey = env("WILAYAH_FREE_KEY");
    const noRetry = createWilayahClient({ baseUrl, apiKey: freeKey, retry: false });
    let limited: ApiError | undefined;
    // 30 calls a minute in windows aligned to the clock: within 70 calls one is refused.
    for (let i = 0; i < 70 && !limited; i++) {
      await getProvinsi({ client: noRetry, path: { id: "32" } }).catch((e: unknown) => {
        if (!(e instanceof ApiError) || e.status !== 429) throw e;
        limited = e;
      });
    }
    expect(limited).toBeInstanceOf(ApiError);
    expect(limited).toMatchObject({ status: 429, code: "RATE_LIMITED" });
    expect(limited!.retryAfter).toBeGreaterThan(0);
    expect(limited!.requestId).toMatch(/\S/);

    // The same call with retries: the client waits what Retry-After says (up to a minute), then succeeds.
    const patient = createWilayahClient({ baseUrl, apiKey: freeKey, retry: { maxRetries: 1, maxRetryAfterMs: 65_000 } });
    const t0 = Date.now();
    const { data } = await getProvinsi({ client: patient, path: { id: "32" } });
    expect(data.data.name).toBe("Jawa Barat");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(limited!.retryAfter! * 1000 - 1000);
  });
});
