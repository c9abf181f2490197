import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { forecastBody, quakeBody } from "../fixtures/bmkg";
import { call, expectError, json, seedUserWithKey } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});
afterEach(() => vi.restoreAllMocks());

/**
 * BMKG, intercepted. Answers are made inside the call (a Response body made in one request cannot
 * be read in another); each interception starts a fresh spy.
 */
function bmkg(answer: Error | ((url: string) => Response)) {
  vi.restoreAllMocks();
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    if (answer instanceof Error) throw answer;
    return answer(String(input instanceof Request ? input.url : input));
  });
}

describe("cuaca", () => {
  it("fetches the forecast for a kelurahan, normalised, resolved against our tables, credited", async () => {
    const spy = bmkg((url) => Response.json(forecastBody(new URL(url).searchParams.get("adm4")!)));
    // Regions no other test file asks the weather of: the files share one Worker, and its caches.
    const res = await call("/api/v1/cuaca?adm4=3578011001", { key });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(String(spy.mock.calls[0][0])).toBe("https://api.bmkg.go.id/publik/prakiraan-cuaca?adm4=35.78.01.1001");
    expect(data.region).toEqual({ id: "35.78.01.1001", name: "Karang Pilang", level: "kelurahan" });
    expect(data.source).toBe("BMKG (Badan Meteorologi, Klimatologi, dan Geofisika)");
    expect(data.stale).toBe(false);
    const first = data.locations[0].forecast[0];
    expect(first).toMatchObject({
      time: "2026-11-22T07:00:00+07:00",
      time_utc: "2026-11-22T00:00:00Z",
      temperature_c: 27,
      humidity_pct: 83,
      precipitation_mm: 0.4,
      weather: "Berawan",
      wind_direction_deg: 134,
    });
    expect(typeof first.humidity_pct).toBe("number");
  });

  it("serves the cached copy for an hour without calling BMKG again, whoever asks", async () => {
    bmkg((url) => Response.json(forecastBody(new URL(url).searchParams.get("adm4")!)));
    await call("/api/v1/cuaca?adm4=35.78.01.1002", { key });
    const spy = bmkg(new Error("should not be called"));
    const other = (await seedUserWithKey()).secret;
    const res = await call("/api/v1/cuaca?adm4=35.78.01.1002", { key: other });
    expect(res.status).toBe(200);
    expect((await json(res)).data.stale).toBe(false);
    expect(spy).not.toHaveBeenCalled();
  });

  it("by kabupaten uses BMKG's adm2 query", async () => {
    const spy = bmkg(() => Response.json(forecastBody("35.78.01.1001")));
    const res = await call("/api/v1/cuaca?kabupaten_id=35.78", { key });
    expect(res.status).toBe(200);
    expect(String(spy.mock.calls[0][0])).toBe("https://api.bmkg.go.id/publik/prakiraan-cuaca?adm2=35.78");
    expect((await json(res)).data.region).toMatchObject({ id: "35.78", level: "kabupaten" });
  });

  it("when BMKG fails after the copy went stale: the last good copy, marked stale", async () => {
    bmkg((url) => Response.json(forecastBody(new URL(url).searchParams.get("adm4")!)));
    await call("/api/v1/cuaca?adm4=35.78.01.1003", { key });
    // a copy fetched two hours ago, by another Worker instance (this one has never served the region)
    const cached = (await env.KV.get<{ fetchedAt: number; payload: unknown }>("bmkg:cuaca:adm4:35.78.01.1003", "json"))!;
    await env.KV.put("bmkg:cuaca:adm4:35.78.02.1001", JSON.stringify({ ...cached, fetchedAt: Date.now() - 2 * 3600_000 }));
    bmkg(() => new Response("Bad Gateway", { status: 502 }));
    const res = await call("/api/v1/cuaca?adm4=35.78.02.1001", { key });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data.stale).toBe(true);
    expect(data.locations[0].forecast).toHaveLength(2);
  });

  it("BMKG down and no copy: 502 UPSTREAM_ERROR; timeout: 504 UPSTREAM_TIMEOUT; malformed body: 502", async () => {
    bmkg(new TypeError("fetch failed"));
    await expectError(await call("/api/v1/cuaca?adm4=35.78.03.1001", { key }), 502, "UPSTREAM_ERROR");
    bmkg(new DOMException("timed out", "TimeoutError"));
    await expectError(await call("/api/v1/cuaca?adm4=35.78.03.1001", { key }), 504, "UPSTREAM_TIMEOUT");
    bmkg(() => new Response("<html>maintenance</html>", { status: 200 }));
    await expectError(await call("/api/v1/cuaca?adm4=35.78.03.1001", { key }), 502, "UPSTREAM_ERROR");
    bmkg(() => Response.json({ lokasi: {}, data: [{ cuaca: "nope" }] }));
    await expectError(await call("/api/v1/cuaca?adm4=35.78.03.1001", { key }), 502, "UPSTREAM_ERROR");
  });

  it("exactly one of adm4 or kabupaten_id (400); unknown region (404); key required", async () => {
    const spy = bmkg(new Error("not called"));
    await expectError(await call("/api/v1/cuaca", { key }), 400, "INVALID_QUERY");
    await expectError(await call("/api/v1/cuaca?adm4=32.73.09.1001&kabupaten_id=32.73", { key }), 400, "INVALID_QUERY");
    await expectError(await call("/api/v1/cuaca?adm4=32.73.09.9999", { key }), 404, "NOT_FOUND");
    await expectError(await call("/api/v1/cuaca?kabupaten_id=32", { key }), 404, "NOT_FOUND");
    await expectError(await call("/api/v1/cuaca?adm4=32.73.09.1001"), 401, "MISSING_API_KEY");
    expect(spy).not.toHaveBeenCalled();
  });
});

describe("gempa/terkini", () => {
  it("normalises the latest earthquake: numbers as numbers, ISO time, credit", async () => {
    await env.KV.delete("bmkg:gempa:terkini");
    const spy = bmkg(() => Response.json(quakeBody));
    const res = await call("/api/v1/gempa/terkini", { key });
    expect(res.status).toBe(200);
    expect(String(spy.mock.calls[0][0])).toBe("https://data.bmkg.go.id/DataMKG/TEWS/autogempa.json");
    expect((await json(res)).data).toMatchObject({
      time: "2026-11-21T06:41:52.000Z",
      lat: -6.89,
      lng: 109.67,
      magnitude: 5.1,
      depth_km: 10,
      region: "Pusat gempa berada di laut 30 km Utara Batang",
      potential: "Tidak berpotensi tsunami",
      shakemap_url: "https://data.bmkg.go.id/DataMKG/TEWS/20261121134152.mmi.jpg",
      stale: false,
      source: "BMKG (Badan Meteorologi, Klimatologi, dan Geofisika)",
    });
  });

  it("cached for a minute; stale copy when BMKG fails later; malformed body without a copy is 502", async () => {
    await env.KV.delete("bmkg:gempa:terkini");
    bmkg(() => Response.json(quakeBody));
    await call("/api/v1/gempa/terkini", { key });
    const quiet = bmkg(new Error("not called"));
    expect((await call("/api/v1/gempa/terkini", { key })).status).toBe(200);
    expect(quiet).not.toHaveBeenCalled();
    const cached = (await env.KV.get<{ fetchedAt: number }>("bmkg:gempa:terkini", "json"))!;
    await env.KV.put("bmkg:gempa:terkini", JSON.stringify({ ...cached, fetchedAt: Date.now() - 120_000 }));
    bmkg(() => Response.json({ Infogempa: { gempa: { Magnitude: "x" } } }));
    const stale = await json(await call("/api/v1/gempa/terkini", { key }));
    expect(stale.data).toMatchObject({ stale: true, magnitude: 5.1 });
    await env.KV.delete("bmkg:gempa:terkini");
    bmkg(() => Response.json({ Infogempa: { gempa: { Magnitude: "x" } } }));
    await expectError(await call("/api/v1/gempa/terkini", { key }), 502, "UPSTREAM_ERROR");
  });
});
