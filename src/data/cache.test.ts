import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RegionDb } from "../db/client";
import { answerKey, cachedAnswer, canonicalJson, keepAnswer, type Loaded, loadedFor, noteLoaded, sameData } from "./cache";
import type { DataVersion } from "./endpoint";

const ep = { path: "/wilayah/example", method: "GET" as const, cacheScope: undefined };
const post = { ...ep, method: "POST" as const };
const loaded: Loaded = { version: "2025", checksum: "5d321a8947239202" };
const key = async (input: unknown, data: Loaded = loaded, endpoint: Parameters<typeof answerKey>[0] = ep, user = "user_a") =>
  (await answerKey(endpoint, input, data, user)).url;

describe("data/cache keys", () => {
  it("tells nested inputs apart (a replacer array of the top level's keys dropped every nested key)", async () => {
    expect(await key({ pts: [{ lat: 1 }] })).not.toBe(await key({ pts: [{ lat: 9 }] }));
    expect(await key({ pts: [{ lat: 1, lng: 2 }] })).not.toBe(await key({ pts: [{ lat: 1, lng: 3 }] }));
    expect(await key({ a: { b: { c: 1 } } })).not.toBe(await key({ a: { b: { c: 2 } } }));
    expect(canonicalJson({ pts: [{ lat: 1 }] })).toBe('{"pts":[{"lat":1}]}');
  });

  it("gives the same key whatever order the keys come in, at every depth, and keeps the order of arrays", async () => {
    expect(await key({ b: 2, a: { y: [1, { q: 1, p: 2 }], x: null } })).toBe(await key({ a: { x: null, y: [1, { p: 2, q: 1 }] }, b: 2 }));
    expect(canonicalJson({ b: 2, a: { y: 1, x: 0 } })).toBe('{"a":{"x":0,"y":1},"b":2}');
    expect(await key({ codes: ["32", "33"] })).not.toBe(await key({ codes: ["33", "32"] }));
  });

  it("writes undefined properties as JSON does (left out), so an absent optional and an undefined one are one key", async () => {
    expect(await key({ q: "bandung", page: undefined })).toBe(await key({ q: "bandung" }));
    expect(await key({ q: "bandung" })).not.toBe(await key({ q: "bandung", page: null }));
  });

  it("keys a long input by its digest: a short URL, different for different inputs", async () => {
    const codes = Array.from({ length: 300 }, (_, i) => `32.73.09.${1001 + i}`);
    const long = await key({ codes });
    expect(long.length).toBeLessThan(300);
    expect(long).toContain(encodeURIComponent("sha256:"));
    expect(decodeURIComponent(long)).not.toContain("32.73.09");
    expect(await key({ codes: [...codes.slice(0, -1), "32.73.09.9999"] })).not.toBe(long);
    // under the limit, the input itself
    expect(await key({ codes: ["32.73"] })).toContain(encodeURIComponent('{"codes":["32.73"]}'));
  });

  it("never gives a new data version or checksum the old key", async () => {
    const input = { q: "bandung" };
    const keys = new Set([
      await key(input, loaded),
      await key(input, { ...loaded, checksum: "0000000000000000" }),
      await key(input, { ...loaded, version: "2026" }),
      // the parts are encoded apart: no version and checksum run together into another pair
      await key(input, { version: "a@b", checksum: "c" }),
      await key(input, { version: "a", checksum: "b@c" }),
    ]);
    expect(keys.size).toBe(5);
    expect(sameData(loaded, { ...loaded })).toBe(true);
    expect(sameData(loaded, { ...loaded, checksum: "x" })).toBe(false);
  });

  it("keys a GET and a POST of one path apart, and account-scoped answers per account, by a digest that holds no input", async () => {
    const input = { address: "Jl. Asia Afrika No. 8, Bandung" };
    expect(await key(input, loaded, post)).not.toBe(await key(input, loaded, ep));
    const scoped = { ...post, cacheScope: "account" as const };
    const a = await key(input, loaded, scoped, "user_a");
    expect(a).not.toBe(await key(input, loaded, scoped, "user_b"));
    expect(a).toBe(await key({ ...input }, loaded, scoped, "user_a"));
    expect(decodeURIComponent(a)).not.toContain("Asia");
    expect(decodeURIComponent(a)).toContain("account:");
  });
});

describe("data/cache loaded version", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("reads a data version once per few seconds, and takes the version an answer was just read from", async () => {
    let reads = 0;
    let current: Loaded = loaded;
    const version: DataVersion = {
      fallback: "2025",
      read: async () => {
        reads++;
        return current;
      },
    };
    const db = {} as RegionDb;
    expect(await loadedFor(version, db)).toEqual(loaded);
    current = { ...loaded, checksum: "new" };
    expect(await loadedFor(version, db)).toEqual(loaded);
    expect(reads).toBe(1);
    vi.advanceTimersByTime(5_001);
    expect(await loadedFor(version, db)).toEqual(current);
    expect(reads).toBe(2);
    noteLoaded(version, { version: "2026", checksum: "after" });
    expect(await loadedFor(version, db)).toEqual({ version: "2026", checksum: "after" });
    expect(reads).toBe(2);
    // a fixed version is never read
    expect(await loadedFor("bmkg", db)).toEqual({ version: "bmkg", checksum: "" });
  });
});

describe("data/cache layers", () => {
  const stored = new Map<string, Response>();
  let matches = 0;
  beforeEach(() => {
    stored.clear();
    matches = 0;
    vi.stubGlobal("caches", {
      default: {
        match: async (r: Request) => {
          matches++;
          return stored.get(r.url)?.clone();
        },
        put: async (r: Request, res: Response) => void stored.set(r.url, res),
      },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("keeps an answer in memory and in the location's cache, under its data's version", async () => {
    const k = await answerKey(ep, { q: "keep" }, loaded, "user_a");
    const later: Promise<unknown>[] = [];
    keepAnswer(k, '{"data":[]}', 60, (p) => later.push(p));
    await Promise.all(later);
    expect(stored.get(k.url)?.headers.get("x-data-version")).toBe("2025");
    expect(stored.get(k.url)?.headers.get("cache-control")).toBe("public, max-age=60");
    expect(await cachedAnswer(k, 60)).toEqual({ json: '{"data":[]}', version: "2025" });
    expect(matches).toBe(0);
  });

  it("answers from the location's cache what this isolate does not hold, then from memory", async () => {
    const k = await answerKey(ep, { q: "elsewhere" }, loaded, "user_a");
    expect(await cachedAnswer(k, 60)).toBeUndefined();
    stored.set(k.url, new Response('{"data":1}', { headers: { "x-data-version": "2024", age: "10" } }));
    expect(await cachedAnswer(k, 60)).toEqual({ json: '{"data":1}', version: "2024" });
    expect(await cachedAnswer(k, 60)).toEqual({ json: '{"data":1}', version: "2024" });
    expect(matches).toBe(2);
  });
});
