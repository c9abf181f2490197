/**
 * The data plane's response cache: answers of endpoints with `cacheSeconds`, identical for every
 * caller (or per account, `cacheScope: "account"`). Two layers: this isolate's memory (hot answers
 * cost no subrequest at all), then the location's Cache API (shared by the isolates of one
 * Cloudflare location). Both expire after the endpoint's `cacheSeconds`.
 *
 * An answer's key names the data it was read from (version and checksum), the endpoint and its
 * validated input, written canonically: two inputs share a key only when they are the same value,
 * and a new data version or a reloaded seed is a new key, never an old answer.
 */
import { LRUCache } from "lru-cache";
import type { RegionDb } from "../db/client";
import { sha256Hex } from "../lib/crypto";
import type { DataVersion, JsonEndpoint } from "./endpoint";

/** The data an answer is read from: its version (the header) and checksum (in cache keys: a reloaded seed of the same version is new data). */
export type Loaded = { version: string; checksum: string };

/** An answer as kept: its JSON and the version of the data it was read from. */
type Kept = { json: string; version: string };

/** Where an answer is kept, and the data it is an answer of. */
export type AnswerKey = { url: string; loaded: Loaded };

/** RESPONSE_CACHE=off (a var) turns the cache off: the benchmark measures the uncached path that way. */
export const cacheOn = (ep: JsonEndpoint, env: Env): boolean => ep.cacheSeconds > 0 && env.RESPONSE_CACHE !== "off";

// ---------------------------------------------------------------- keys

const CACHE_ORIGIN = "https://data-cache.wilayah.invalid";

/** Inputs longer than this (batches) are keyed by their digest, so a key stays a short URL. */
const KEY_TEXT_MAX = 1_000;

/**
 * JSON with every object's keys in one order, at every depth, and arrays in theirs (an array's
 * order is part of its value): equal values give equal text whatever order their keys were written
 * in, and different values different text. Otherwise JSON.stringify's own rules (undefined
 * properties left out). (A replacer array of the top level's keys, as the key once was, drops every
 * nested key not among them: `{"pts":[{"lat":1}]}` and `{"pts":[{"lat":9}]}` were one key.)
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

/**
 * The key of an endpoint's answer to a validated input, read from `loaded` data. The input is
 * its canonical JSON, or its digest when long; for `cacheScope: "account"` always a digest with
 * the caller's account, so a key never holds the text (an address) and no account is answered
 * from another's. Each part is URL-encoded apart, so no two different (version, checksum) pairs
 * read as the same.
 */
export async function answerKey(ep: Pick<JsonEndpoint, "path" | "method" | "cacheScope">, input: unknown, loaded: Loaded, userId: string): Promise<AnswerKey> {
  const canonical = canonicalJson(input);
  const text =
    ep.cacheScope === "account"
      ? `account:${await sha256Hex(`${userId}\n${canonical}`)}`
      : canonical.length > KEY_TEXT_MAX
        ? `sha256:${await sha256Hex(canonical)}`
        : canonical;
  const data = `${encodeURIComponent(loaded.version)}@${encodeURIComponent(loaded.checksum)}`;
  return { url: `${CACHE_ORIGIN}/${data}${ep.path}${ep.method === "POST" ? "@post" : ""}?${encodeURIComponent(text)}`, loaded };
}

/** Whether two reads of the loaded data saw the same data (an answer computed from `b` may be kept under a key made for `a`). */
export const sameData = (a: Loaded, b: Loaded): boolean => a.version === b.version && a.checksum === b.checksum;

// ---------------------------------------------------------------- the loaded version, as this isolate last saw it

/**
 * The loaded version as this isolate last saw it, for cache keys: read again after LOADED_TTL_MS.
 * Until then a cached answer of the data before a swap may still be served, under its own version
 * (never a mixture); every answer computed reads the version itself (and tells `noteLoaded`).
 */
const LOADED_TTL_MS = 5_000;
const lastSeen = new WeakMap<object, { loaded: Loaded; at: number }>();

export async function loadedFor(version: DataVersion, db: RegionDb): Promise<Loaded> {
  if (typeof version === "string") return { version, checksum: "" };
  const seen = recentlyLoaded(version);
  if (seen) return seen;
  const loaded = await version.read(db);
  lastSeen.set(version, { loaded, at: Date.now() });
  return loaded;
}

/** The loaded version this isolate saw within LOADED_TTL_MS, if any (no read). */
export function recentlyLoaded(version: Exclude<DataVersion, string>): Loaded | undefined {
  const seen = lastSeen.get(version);
  return seen && Date.now() - seen.at < LOADED_TTL_MS ? seen.loaded : undefined;
}

/** The loaded data an answer was just read from: the next keys are made for it without reading it again. */
export function noteLoaded(version: DataVersion, loaded: Loaded): void {
  if (typeof version !== "string") lastSeen.set(version, { loaded, at: Date.now() });
}

// ---------------------------------------------------------------- the two layers

/** Answers kept in this isolate: bounded by size (Workers give an isolate 128 MB), least recently used go first. */
const MEMORY_BYTES = 16 * 1024 * 1024;
const memory = new LRUCache<string, Kept>({
  maxSize: MEMORY_BYTES,
  sizeCalculation: (v, key) => 2 * (v.json.length + v.version.length + key.length),
});

const locationCache = () => (caches as unknown as { default: Cache }).default;

/** How much longer a Cache API answer is good for: its max-age minus its age (the Cache API sets `age` on a hit). */
function remainingMs(hit: Response, cacheSeconds: number): number {
  const age = Number(hit.headers.get("age") ?? 0);
  return Math.max(1, (cacheSeconds - (Number.isFinite(age) ? age : 0)) * 1000);
}

/** The answer kept under `key`: from memory, else from the location's cache (then kept in memory for the rest of its life). */
export async function cachedAnswer(key: AnswerKey, cacheSeconds: number): Promise<Kept | undefined> {
  const inMemory = memory.get(key.url);
  if (inMemory !== undefined) return inMemory;
  const hit = await locationCache().match(new Request(key.url));
  if (!hit) return undefined;
  const kept = { json: await hit.text(), version: hit.headers.get("x-data-version") ?? key.loaded.version };
  memory.set(key.url, kept, { ttl: remainingMs(hit, cacheSeconds) });
  return kept;
}

/** Keeps an answer of `key`'s data in both layers (the location's cache written after the response, through `waitUntil`). */
export function keepAnswer(key: AnswerKey, json: string, cacheSeconds: number, waitUntil: (p: Promise<unknown>) => void): void {
  const version = key.loaded.version;
  memory.set(key.url, { json, version }, { ttl: cacheSeconds * 1000 });
  waitUntil(
    locationCache().put(
      new Request(key.url),
      new Response(json, { headers: { "content-type": "application/json", "cache-control": `public, max-age=${cacheSeconds}`, "x-data-version": version } }),
    ),
  );
}
