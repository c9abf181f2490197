import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import manifest from "../../seed/manifest.json";
import { app } from "../../src/app";
import { BASE, call, expectError, json, seedUserWithKey } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});

const get = (path: string) => call(`/api/v1/wilayah${path}`, { key });

describe("lists: happy path", () => {
  it("lists provinces with the contract's fields, envelope and paging meta", async () => {
    const res = await get("/provinsi");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-data-version")).toBe(manifest.dataVersion);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const body = await json(res);
    expect(body.meta).toEqual({ total: 38, page: 1, per_page: 20, total_pages: 2 });
    expect(body.data).toHaveLength(20);
    expect(body.data[0]).toEqual({
      id: "11",
      code: "11",
      name: "Aceh",
      alt_name: "Aceh",
      lat: 4.225729,
      lng: 96.911874,
      is_active: 1,
      population: { male: 2_815_060, female: 2_808_419, total: 5_623_479 },
      area_km2: 56_835.019,
      density_per_km2: 98.9,
    });
    const ids = body.data.map((r: { id: string }) => r.id);
    expect(ids).toEqual([...ids].sort());
  });

  it("every level's total matches the seed (which a node test checks against the package CSVs)", async () => {
    for (const level of ["provinsi", "kabupaten", "kecamatan", "kelurahan"] as const) {
      const body = await json(await get(`/${level}?per_page=1`));
      expect(body.meta.total, level).toBe(manifest.counts[level].active);
    }
    expect(manifest.counts).toMatchObject({ provinsi: { active: 38 }, kabupaten: { active: 514 }, kecamatan: { active: 7285 }, kelurahan: { active: 83762 } });
  });

  it("filters each level by its parent, dotted or undotted", async () => {
    const kab = await json(await get("/kabupaten?provinsi_id=32&per_page=100"));
    expect(kab.meta.total).toBe(27);
    expect(kab.data.every((r: { provinsi_id: string }) => r.provinsi_id === "32")).toBe(true);
    const bandung = kab.data.find((r: { id: string }) => r.id === "32.73");
    expect(bandung).toMatchObject({ name: "Kota Bandung", alt_name: "Bandung", type: "kota", code: "3273" });
    expect(kab.data.find((r: { id: string }) => r.id === "32.04")).toMatchObject({ type: "kabupaten", alt_name: "Bandung" });

    const kec = await json(await get("/kecamatan?kabupaten_id=3273"));
    expect(kec.meta.total).toBe(30);
    const kel = await json(await get("/kelurahan?kecamatan_id=32.73.09"));
    expect(kel.data.map((r: { name: string }) => r.name)).toContain("Cihapit");
    expect(kel.data[0]).toMatchObject({ kecamatan_id: "32.73.09" });
  });

  it("a filter that matches nothing is an empty list, not an error", async () => {
    for (const q of ["/kabupaten?provinsi_id=99", "/kecamatan?kabupaten_id=not-a-code", "/kelurahan?kecamatan_id=32.73.99"]) {
      const res = await get(q);
      expect(res.status, q).toBe(200);
      expect(await json(res)).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 20, total_pages: 0 } });
    }
  });
});

describe("paging edges", () => {
  it("page past the end returns no rows with correct meta", async () => {
    const body = await json(await get("/provinsi?page=3"));
    expect(body).toEqual({ data: [], meta: { total: 38, page: 3, per_page: 20, total_pages: 2 } });
  });

  it("per_page=100 is honoured and 101 is clamped to 100", async () => {
    const a = await json(await get("/kabupaten?per_page=100"));
    expect(a.data).toHaveLength(100);
    expect(a.meta).toEqual({ total: 514, page: 1, per_page: 100, total_pages: 6 });
    const b = await json(await get("/kabupaten?per_page=101&page=6"));
    expect(b.meta).toEqual({ total: 514, page: 6, per_page: 100, total_pages: 6 });
    expect(b.data).toHaveLength(14);
  });

  it.each(["per_page=0", "per_page=-1", "per_page=abc", "per_page=1.5", "page=0", "page=-1", "page=abc", "page=1.5", "page="])(
    "%s is 400 INVALID_QUERY with details",
    async (q) => {
      const err = await expectError(await get(`/provinsi?${q}`), 400, "INVALID_QUERY");
      expect(err.details?.[0].path).toBe(q.split("=")[0]);
    },
  );

  it("an unknown query parameter is refused rather than silently ignored", async () => {
    const err = await expectError(await get("/kabupaten?provinsi=32"), 400, "INVALID_QUERY");
    expect(err.message).toContain("provinsi");
  });
});

describe("by id", () => {
  it("accepts dotted and undotted codes at every level", async () => {
    for (const [level, dotted, undotted] of [
      ["provinsi", "32", "32"],
      ["kabupaten", "32.73", "3273"],
      ["kecamatan", "32.73.09", "327309"],
      ["kelurahan", "32.73.09.1001", "3273091001"],
    ]) {
      const a = await json(await get(`/${level}/${dotted}`));
      const b = await json(await get(`/${level}/${undotted}`));
      expect(a.data.id).toBe(dotted);
      expect(b).toEqual(a);
    }
    expect((await json(await get("/kelurahan/32.73.09.1001"))).data).toMatchObject({
      name: "Cihapit",
      kecamatan_id: "32.73.09",
      code: "3273091001",
      level: "kelurahan",
    });
  });

  it("any-level lookup tells the level from the code", async () => {
    expect((await json(await get("/3273"))).data).toMatchObject({ id: "32.73", level: "kabupaten" });
  });

  it("unknown, malformed or wrong-level ids are 404 NOT_FOUND", async () => {
    await expectError(await get("/provinsi/99"), 404, "NOT_FOUND");
    await expectError(await get("/kabupaten/32"), 404, "NOT_FOUND");
    await expectError(await get("/kelurahan/32.73.09.9999"), 404, "NOT_FOUND");
    await expectError(await get("/kecamatan/abc"), 404, "NOT_FOUND");
    await expectError(await get("/99.99.99.9999"), 404, "NOT_FOUND");
  });
});

describe("retired codes", () => {
  it("stay reachable by id with is_active 0, and are listed only with include_inactive", async () => {
    const retired = await env.DB.prepare("SELECT id, kecamatan_id FROM kelurahan WHERE is_active = 0 ORDER BY id LIMIT 1").first<{
      id: string;
      kecamatan_id: string;
    }>();
    expect(retired).toBeTruthy();
    expect(manifest.counts.kelurahan.inactive).toBeGreaterThan(0);
    expect((await json(await get(`/kelurahan/${retired!.id}`))).data.is_active).toBe(0);

    const active = await json(await get(`/kelurahan?kecamatan_id=${retired!.kecamatan_id}&per_page=100`));
    expect(active.data.some((r: { id: string }) => r.id === retired!.id)).toBe(false);
    const all = await json(await get(`/kelurahan?kecamatan_id=${retired!.kecamatan_id}&per_page=100&include_inactive=1`));
    expect(all.data.some((r: { id: string }) => r.id === retired!.id)).toBe(true);
    expect(all.meta.total).toBe(active.meta.total + 1 * all.data.filter((r: { is_active: number }) => r.is_active === 0).length);

    const everything = await json(await get("/kelurahan?per_page=1&include_inactive=true"));
    expect(everything.meta.total).toBe(manifest.counts.kelurahan.active + manifest.counts.kelurahan.inactive);
    await expectError(await get("/kelurahan?include_inactive=yes"), 400, "INVALID_QUERY");
  });
});

describe("search", () => {
  type Item = { id: string; name: string; alt_name: string; level: string; parent: string | null; is_active: number };
  const search = async (q: string, extra = "") => {
    const res = await get(`/search?q=${encodeURIComponent(q)}${extra}`);
    expect(res.status, `q=${q}`).toBe(200);
    return json<{ data: Item[]; meta: { total: number } }>(res);
  };

  it("bandung: exact names first, higher levels first, parents named", async () => {
    const { data, meta } = await search("bandung", "&per_page=100");
    expect(data.slice(0, 2).map((r) => r.id)).toEqual(["32.04", "32.73"]); // Kabupaten Bandung, Kota Bandung
    expect(data[0]).toMatchObject({ level: "kabupaten", parent: "Jawa Barat", alt_name: "Bandung" });
    const kec = data.filter((r) => r.level === "kecamatan" && r.name === "Bandung");
    expect(kec.map((r) => r.parent)).toEqual(["Kabupaten Tulungagung, Jawa Timur", "Kabupaten Serang, Banten"]);
    // exact matches (all levels) before the first prefix match (Kabupaten Bandung Barat)
    const firstPrefix = data.findIndex((r) => r.id === "32.17");
    const lastExact = data.map((r) => r.name === "Bandung" || r.alt_name === "Bandung").lastIndexOf(true);
    expect(firstPrefix).toBeGreaterThan(lastExact);
    expect(meta.total).toBeGreaterThan(100);
  });

  it("jakarta selatan finds the city by its name without prefix", async () => {
    const { data } = await search("jakarta selatan");
    expect(data[0]).toMatchObject({ id: "31.74", name: "Kota Administrasi Jakarta Selatan", level: "kabupaten" });
  });

  it("jogja finds the province and the city before villages named Jogja", async () => {
    const { data } = await search("jogja");
    expect(data.map((r) => r.id).slice(0, 2)).toEqual(["34", "34.71"]);
    expect(data.some((r) => r.level === "kelurahan" && r.name === "Jogja")).toBe(true);
  });

  it("a kelurahan name found in several provinces comes with parents that tell them apart", async () => {
    const { data, meta } = await search("sukamaju", "&level=kelurahan&per_page=100");
    const exact = data.filter((r) => r.name === "Sukamaju");
    expect(exact.length).toBe(65);
    expect(new Set(exact.map((r) => r.parent)).size).toBe(exact.length);
    expect(new Set(exact.map((r) => r.parent!.split(", ").at(-1))).size).toBe(14);
    expect(data.slice(0, 65).every((r) => r.name === "Sukamaju")).toBe(true);
    expect(meta.total).toBeGreaterThanOrEqual(65);
  });

  it("finds regions by their former spelling (idn-area-data 3.1.2)", async () => {
    expect((await search("Tanjung Balai")).data.map((r) => r.id)).toContain("12.74");
    expect((await search("DKI Jakarta")).data[0].id).toBe("31");
    expect((await search("Padang Sidempuan")).data[0].id).toBe("12.77");
  });

  it("is case- and accent-insensitive", async () => {
    const plain = await search("bandung");
    expect((await search("BANDUNG")).data).toEqual(plain.data);
    expect((await search("Bándüng")).data).toEqual(plain.data);
    expect((await search("du'en")).data.map((r) => r.name)).toContain("Udek Du’en");
  });

  it("a 2-character query matches the start of a word and ranks prefixes first", async () => {
    const { data, meta } = await search("an", "&per_page=100");
    expect(meta.total).toBeGreaterThan(500);
    const startsAWord = (r: Item) =>
      `${r.name} ${r.alt_name}`
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .some((w) => w.startsWith("an"));
    expect(data.every(startsAWord)).toBe(true);
    expect(data[0].name.toLowerCase().startsWith("an")).toBe(true);
    const tail = await search("an", `&per_page=100&page=${Math.ceil(meta.total / 100) + 1}`);
    expect(tail.data).toEqual([]);
    expect(tail.meta.total).toBe(meta.total);
  });

  /**
   * The suffix index against a brute-force reading of the same spellings: every region whose terms
   * contain q (at a word start for 2 letters), tiered exact term / term start / word start / inside
   * a word, ties by level, name, id. Pins totals and order on large and awkward result sets.
   */
  it.each([
    ["ang", ""], // worst 3-character query: 15,000+ matches, from the ranked short-query table
    ["ang", "&level=kecamatan&page=3&per_page=100"],
    ["ang", "&page=150&per_page=100"],
    ["a-b", "&include_inactive=1"],
    ["sari", "&per_page=100"], // 4+ characters: page from the word-start tiers of the suffix index
    ["sari", "&page=20&per_page=100"], // deep page: ranks the inside-a-word matches too
    ["ka", "&per_page=100&page=2"], // 2 letters: word starts only, from the ranked short-query table
    ["an", "&level=kelurahan&include_inactive=1&per_page=100&page=3"],
    ["a-", "&per_page=100"], // 2 characters with punctuation: a substring
    ["'a", "&include_inactive=1&per_page=100"],
    ["jakarta selatan", ""],
    ["sukamaju", "&include_inactive=1&per_page=100"],
    ["baru", "&level=kelurahan&page=7&per_page=100"],
  ])("q=%s%s: same total and order as a brute-force scan", async (q, extra) => {
    const res = await get(`/search?q=${encodeURIComponent(q)}${extra}`);
    expect(res.status).toBe(200);
    const { data, meta } = await json<{ data: Item[]; meta: { total: number; page: number; per_page: number } }>(res);
    const params = new URLSearchParams(extra);
    const level = ["provinsi", "kabupaten", "kecamatan", "kelurahan"].indexOf(params.get("level") ?? "") + 1;
    const { results } = await env.DB.prepare(
      `SELECT id, terms FROM wilayah_search WHERE instr(terms, ?1) > 0 AND (?2 = 0 OR level = ?2) AND (?3 = 1 OR is_active = 1) ORDER BY level, name, id`,
    )
      .bind(q, level, params.get("include_inactive") === "1" ? 1 : 0)
      .all<{ id: string; terms: string }>();
    const wordStart = new RegExp(`(^|[\\x00-\\x2f\\x3a-\\x60\\x7b-\\x7f])${q.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
    const tier = (t: string) => (t.includes(`\u001f${q}\u001f`) ? 0 : t.includes(`\u001f${q}`) ? 1 : wordStart.test(t) ? 2 : 3);
    const ranked = results
      .map((r) => ({ ...r, tier: tier(r.terms) }))
      .filter((r) => !/^[a-z0-9]{2}$/.test(q) || r.tier < 3)
      .sort((a, b) => a.tier - b.tier); // stable: ties keep level, name, id order
    const from = (meta.page - 1) * meta.per_page;
    if (q.includes(" ")) {
      // Several words are also read as a name plus its parents (context, test/wilayah/search.test.ts): those
      // matches are added; the literal ones keep the brute-force order, exact ones first.
      expect(meta.total).toBeGreaterThanOrEqual(ranked.length);
      const literal = data.filter((r) => (r as Item & { match: { context: string[] } }).match.context.length === 0);
      expect(literal.map((r) => r.id)).toEqual(ranked.slice(0, literal.length).map((r) => r.id));
      expect(data[0].id).toBe(ranked[0].id);
      return;
    }
    expect(meta.total).toBe(ranked.length);
    expect(data.map((r) => r.id)).toEqual(ranked.slice(from, from + meta.per_page).map((r) => r.id));
  });

  it("a page past the end of a search has correct meta", async () => {
    const { meta } = await search("bandung", "&page=50");
    expect(meta).toMatchObject({ page: 50, per_page: 20 });
    expect(meta.total).toBeGreaterThan(100);
  });

  it.each([
    "%",
    "_a",
    "ban%",
    "b_ndung",
    '"bandung"',
    'band"ung',
    "bandung*",
    "*",
    "bandung AND jakarta",
    "NEAR(bandung jakarta)",
    "bandung OR",
    "'; DROP TABLE provinsi; --",
    "\\",
  ])("takes %s literally: never syntax, never an error", async (q) => {
    const res = await get(`/search?q=${encodeURIComponent(q)}`);
    if (q.trim().length < 2) {
      await expectError(res, 400, "INVALID_QUERY");
      return;
    }
    expect(res.status).toBe(200);
    const { data } = await json<{ data: Item[] }>(res);
    const needle = q.toLowerCase();
    for (const r of data) expect(`${r.name}\n${r.alt_name}`.toLowerCase()).toContain(needle);
  });

  it("a name containing a quote is found by it", async () => {
    expect((await search('Soka"an')).data.map((r) => r.id)).toContain("35.13.15.2017");
  });

  it("level filter and retired codes", async () => {
    const { data } = await search("bandung", "&level=kecamatan");
    expect(data.every((r) => r.level === "kecamatan")).toBe(true);
    await expectError(await get("/search?q=bandung&level=desa"), 400, "INVALID_QUERY");
  });

  it("q shorter than 2 characters after trimming, or missing, is 400 INVALID_QUERY", async () => {
    for (const q of ["?q=a", "?q=%20a%20", "?q=", ""]) await expectError(await get(`/search${q}`), 400, "INVALID_QUERY");
  });
});

describe("response cache", () => {
  it("answers identical requests from the cache, whichever key asks", async () => {
    const other = (await seedUserWithKey()).secret;
    const first = await call("/api/v1/wilayah/kecamatan?kabupaten_id=32.04&per_page=7", { key });
    expect(first.headers.get("x-cache")).toBe("MISS");
    const firstBody = await first.text();
    const second = await call("/api/v1/wilayah/kecamatan?per_page=7&kabupaten_id=32.04", { key: other });
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(await second.text()).toBe(firstBody);
  });
});

describe("routing", () => {
  it("unknown paths are 404 NOT_FOUND JSON, anywhere", async () => {
    await expectError(await call("/api/v1/wilayah/provinsi/32/extra", { key }), 404, "NOT_FOUND");
    await expectError(await call("/nope"), 404, "NOT_FOUND");
  });

  it("a wrong method on a known path is 405 with Allow", async () => {
    const res = await call("/api/v1/wilayah/provinsi", { method: "POST", key });
    expect(res.headers.get("allow")).toBe("GET");
    await expectError(res, 405, "METHOD_NOT_ALLOWED");
  });

  it("CORS preflight allows x-api-key from any origin on the data API", async () => {
    const res = await call("/api/v1/wilayah/provinsi", {
      method: "OPTIONS",
      headers: { origin: "https://example.com", "access-control-request-method": "GET", "access-control-request-headers": "x-api-key" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toContain("x-api-key");
  });

  it("answers and errors of the data API and MCP carry CORS headers for any origin, with the request id", async () => {
    const origin = { origin: "https://example.com" };
    const answers = [
      await call("/api/v1/wilayah/provinsi", { key, headers: origin }),
      await call("/api/v1/wilayah/provinsi", { headers: origin }),
      await call("/api/v1/wilayah/nope", { key, headers: origin }),
      await call("/mcp", {
        method: "POST",
        key,
        headers: { ...origin, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: "{",
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 404, 403]); // MCP refuses browser origins it does not know (docs/api.md)
    for (const res of answers) {
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-expose-headers")).toBe(
        "x-request-id,x-data-version,x-cache,retry-after,mcp-session-id,content-disposition,etag,x-checksum-sha256,x-export-id,content-range,accept-ranges,link",
      );
      expect(res.headers.get("x-request-id"), `${res.status}`).toBeTruthy();
    }
  });
});

describe("strict inputs", () => {
  it("page and per_page take plain decimal digits only: 0x10, 1e3, +3, ' 2 ', 2.0, 0 are 400 INVALID_QUERY", async () => {
    for (const v of ["0x10", "1e3", "%2B3", "%202%20", "2.0", "0", "-1", "", "99999999999999999999"]) {
      for (const p of ["page", "per_page"]) {
        const e = await expectError(await get(`/provinsi?${p}=${v}`), 400, "INVALID_QUERY");
        expect(e.details?.[0]?.path, `${p}=${v}`).toBe(p);
      }
    }
    expect((await json(await get("/provinsi?page=2&per_page=010"))).meta).toMatchObject({ page: 2, per_page: 10 });
  });

  it("a query parameter given twice is 400 INVALID_QUERY naming it, on data and account routes alike", async () => {
    for (const path of ["/kabupaten?provinsi_id=32&provinsi_id=11", "/search?q=bandung&level=kota&level=kabupaten", "/provinsi?page=1&page=2"]) {
      const e = await expectError(await get(path), 400, "INVALID_QUERY");
      expect(e.message, path).toMatch(/given 2 times/);
    }
    const { verifiedDeveloper } = await import("../helpers");
    const dev = await verifiedDeveloper();
    await expectError(await call("/billing/credits?page=1&page=2", { token: dev.token }), 400, "INVALID_QUERY");
    await expectError(await call("/billing/credits?per_page=1e3", { token: dev.token }), 400, "INVALID_QUERY");
    await expectError(await call("/user/usage?month=2026-01&month=2026-02", { token: dev.token }), 400, "INVALID_QUERY");
  });

  it("an id longer than any code is no region: 404 NOT_FOUND on every by-id route", async () => {
    const long = "1".repeat(21);
    for (const level of ["provinsi", "kabupaten", "kecamatan", "kelurahan"]) await expectError(await get(`/${level}/${long}`), 404, "NOT_FOUND");
    await expectError(await get(`/${long}`), 404, "NOT_FOUND");
    await expectError(await get(`/${"9".repeat(500)}`), 404, "NOT_FOUND");
  });

  it("HEAD on a data endpoint is not served (405, Allow: GET) and not metered", async () => {
    const { verifiedDeveloper, createKey, setPlan, usageOf } = await import("../helpers");
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "internal");
    const k = await createKey(dev.token);
    const res = await call("/api/v1/wilayah/provinsi", { method: "HEAD", key: k.key });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect((await call("/api/v1/wilayah/provinsi", { key: k.key })).status).toBe(200);
    expect((await usageOf(dev.token)).total).toBe(1);
  });

  it("OPTIONS on an unknown path is 404 like every other method there", async () => {
    for (const path of ["/nope", "/api/v1/wilayah/nope/deeper", "/auth/nothing"]) {
      const res = await call(path, { method: "OPTIONS", headers: { origin: "https://example.com", "access-control-request-method": "GET" } });
      expect(res.status, path).toBe(404);
      expect((await json(res)).error.code).toBe("NOT_FOUND");
    }
    const mcp = await call("/mcp", { method: "OPTIONS", headers: { origin: "https://example.com", "access-control-request-method": "POST" } });
    expect(mcp.status).toBe(204);
  });
});

describe("read replication (D1_READ_REPLICATION, docs/deploy.md: Read replication)", () => {
  /** The app over an env whose DB records the sessions asked of it. */
  async function readWith(mode: string, path: string) {
    const sessions: unknown[][] = [];
    const DB = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "withSession")
          return (...args: Parameters<D1Database["withSession"]>) => {
            sessions.push(args);
            return target.withSession(...args);
          };
        const value = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const ctx = createExecutionContext();
    const req = new Request(`${BASE}/api/v1/wilayah${path}`, { headers: { "x-api-key": key, "cf-connecting-ip": "198.51.200.1" } });
    const res = await app.fetch(req, { ...env, DB, D1_READ_REPLICATION: mode, RESPONSE_CACHE: "off" }, ctx);
    await waitOnExecutionContext(ctx);
    return { status: res.status, sessions };
  }

  it("reads region data through a D1 session a replica may serve when it is auto", async () => {
    for (const path of ["/search?q=gambir%20jakarta", "/kelurahan/31.71.01.1001", "/reverse?lat=-6.90827&lng=107.626971"]) {
      expect(await readWith("auto", path), path).toEqual({ status: 200, sessions: [["first-unconstrained"]] });
    }
  });

  it("reads the primary (no session) otherwise, the default", async () => {
    expect(env.D1_READ_REPLICATION).toBe("disabled");
    for (const path of ["/search?q=gambir%20jakarta", "/kelurahan/31.71.01.1001", "/reverse?lat=-6.90827&lng=107.626971"]) {
      expect(await readWith("disabled", path), path).toEqual({ status: 200, sessions: [] });
    }
  });
});
