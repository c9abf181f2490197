/**
 * Runs a declared data endpoint for either surface (REST or MCP): validates the input, admits the
 * call (or the batch's calls), answers from cache when it can (keyed by endpoint, validated input
 * and data version; by caller too for `cacheScope: "account"`), otherwise calls the handler and stores its answer.
 *
 * Two cache layers: this isolate's memory (hot answers cost no subrequest at all), then the
 * location's Cache API (shared by the isolates of one Cloudflare location). Both expire after the
 * endpoint's `cacheSeconds`; a new data version is a new key. Every answer names the version of the
 * data it was read from (x-data-version): a seed apply swaps the data in one transaction, and a
 * handler whose reads straddled a swap runs again (`consistent`).
 */
import { LRUCache } from "lru-cache";
import { withDataKey, withRegionSession } from "../db/client";
import { sha256Hex } from "../lib/crypto";
import { ApiError, validationError } from "../lib/errors";
import type { DataContext } from "./context";
import type { DataEndpoint, DataVersion, FileAnswer, FileEndpoint, JsonEndpoint } from "./endpoint";

export type EndpointResult = { json: string; cache: "HIT" | "MISS"; version: string };

const CACHE_ORIGIN = "https://data-cache.wilayah.invalid";

/** Inputs longer than this (batches) are keyed by their digest, so a key stays a short URL. */
const KEY_TEXT_MAX = 1_000;

/** The data an answer is read from: its version (the header) and checksum (in cache keys: a reloaded seed of the same version is new data). */
type Loaded = { version: string; checksum: string };

async function cacheKey(ep: JsonEndpoint, input: unknown, ctx: DataContext, loaded: Loaded): Promise<string> {
  const canonical = JSON.stringify(input, Object.keys(input as object).sort());
  const text =
    ep.cacheScope === "account"
      ? `account:${await sha256Hex(`${ctx.principal.userId}\n${canonical}`)}`
      : canonical.length > KEY_TEXT_MAX
        ? `sha256:${await sha256Hex(canonical)}`
        : canonical;
  return `${CACHE_ORIGIN}/${encodeURIComponent(`${loaded.version}@${loaded.checksum}`)}${ep.path}${ep.method === "POST" ? "@post" : ""}?${encodeURIComponent(text)}`;
}

/** How much longer a Cache API answer is good for: its max-age minus its age (the Cache API sets `age` on a hit). */
function remainingMs(hit: Response, cacheSeconds: number): number {
  const age = Number(hit.headers.get("age") ?? 0);
  return Math.max(1, (cacheSeconds - (Number.isFinite(age) ? age : 0)) * 1000);
}

/** The input as its schema reads it; a failure is INVALID_QUERY for query parameters, VALIDATION_ERROR for a JSON body. */
export function parseInput<E extends DataEndpoint>(ep: E, raw: unknown) {
  const parsed = ep.input.safeParse(raw);
  if (!parsed.success) {
    throw ep.method === "POST"
      ? validationError("VALIDATION_ERROR", "request body", parsed.error.issues)
      : validationError("INVALID_QUERY", "parameters", parsed.error.issues);
  }
  return parsed.data;
}

/** Answers kept in this isolate: bounded by size (Workers give an isolate 128 MB), least recently used go first. */
const MEMORY_BYTES = 16 * 1024 * 1024;
const memory = new LRUCache<string, { json: string; version: string }>({
  maxSize: MEMORY_BYTES,
  sizeCalculation: (v, key) => 2 * (v.json.length + v.version.length + key.length),
});

/**
 * The loaded version as this isolate last saw it, for cache keys: read again after LOADED_TTL_MS.
 * Until then a cached answer of the data before a swap may still be served, under its own version
 * (never a mixture); every answer computed reads the version itself.
 */
const LOADED_TTL_MS = 5_000;
const lastSeen = new WeakMap<object, { loaded: Loaded; at: number }>();

async function loadedFor(version: DataVersion, env: Env): Promise<Loaded> {
  if (typeof version === "string") return { version, checksum: "" };
  const seen = lastSeen.get(version);
  if (seen && Date.now() - seen.at < LOADED_TTL_MS) return seen.loaded;
  const loaded = await version.read(env);
  lastSeen.set(version, { loaded, at: Date.now() });
  return loaded;
}

/** Reads the version around the handler's reads: equal before and after, every read saw the same data (a swap is one transaction); otherwise read again. */
const CONSISTENT_TRIES = 3;

async function consistent<T>(version: DataVersion, env: Env, run: (env: Env) => Promise<T>): Promise<{ value: T; loaded: Loaded }> {
  if (typeof version === "string") return { value: await run(env), loaded: { version, checksum: "" } };
  for (let i = 0; i < CONSISTENT_TRIES; i++) {
    const before = await version.read(env);
    const value = await run(withDataKey(env, before.checksum));
    const after = await version.read(env);
    if (before.checksum === after.checksum) {
      lastSeen.set(version, { loaded: after, at: Date.now() });
      return { value, loaded: after };
    }
  }
  throw new ApiError("SERVICE_UNAVAILABLE", "The data was being replaced while this request read it; try again in a moment.", {
    headers: { "retry-after": "1" },
  });
}

async function runEndpoint(ep: JsonEndpoint, input: Record<string, unknown>, call: DataContext): Promise<EndpointResult> {
  // every region read of this answer, the data version's included, through one D1 session
  const ctx = { ...call, env: withRegionSession(call.env) };
  const compute = async () => {
    const { value, loaded } = await consistent(ep.version, ctx.env, (env) => ep.handler(input, { ...ctx, env }));
    return { json: JSON.stringify(value), loaded };
  };
  // RESPONSE_CACHE=off (a var) turns the cache off: the benchmark measures the uncached path that way.
  if (ep.cacheSeconds <= 0 || ctx.env.RESPONSE_CACHE === "off") {
    const { json, loaded } = await compute();
    return { json, cache: "MISS", version: loaded.version };
  }

  const seen = await loadedFor(ep.version, ctx.env);
  const keyUrl = await cacheKey(ep, input, ctx, seen);
  const inMemory = memory.get(keyUrl);
  if (inMemory !== undefined) return { ...inMemory, cache: "HIT" };

  const cache = (caches as unknown as { default: Cache }).default;
  const hit = await cache.match(new Request(keyUrl));
  if (hit) {
    const entry = { json: await hit.text(), version: hit.headers.get("x-data-version") ?? seen.version };
    memory.set(keyUrl, entry, { ttl: remainingMs(hit, ep.cacheSeconds) });
    return { ...entry, cache: "HIT" };
  }

  const { json, loaded } = await compute();
  // Stored under the version it was read from (a swap since `seen` makes it a key of the new data).
  const storeKey = loaded.checksum === seen.checksum && loaded.version === seen.version ? keyUrl : await cacheKey(ep, input, ctx, loaded);
  memory.set(storeKey, { json, version: loaded.version }, { ttl: ep.cacheSeconds * 1000 });
  ctx.waitUntil(
    cache.put(
      new Request(storeKey),
      new Response(json, {
        headers: { "content-type": "application/json", "cache-control": `public, max-age=${ep.cacheSeconds}`, "x-data-version": loaded.version },
      }),
    ),
  );
  return { json, cache: "MISS", version: loaded.version };
}

/**
 * The account's side of a data call, which the data plane only knows as this hook (wired in by
 * src/catalogue.ts from src/account/admission.ts).
 */
export type Admit = {
  /** Throws when the caller's plan may not call `ep`: asked before the input is read, so a caller who may not call learns that first. */
  mayCall(ctx: DataContext, ep: DataEndpoint): void;
  /** Rate, quota and metering of one request of `calls` calls; `giveBack` uncounts them when the request fails. */
  admit(ctx: DataContext, ep: DataEndpoint, calls: number): Promise<{ giveBack(): Promise<void> }>;
};

/** Admits a request, runs `serve`, and gives the calls back when it fails: only successes are metered. */
async function admitted<T>(ep: DataEndpoint, input: Record<string, unknown>, ctx: DataContext, admit: Admit, serve: () => Promise<T>): Promise<T> {
  const admission = await admit.admit(ctx, ep, ep.calls ? ep.calls(input as never) : 1);
  try {
    return await serve();
  } catch (e) {
    await admission.giveBack();
    throw e;
  }
}

/**
 * One data request, for either surface: whether the plan may call it, its input validated (a bad one is never
 * metered), then admitted (a batch as its number of calls, whole or not at all), given back if it
 * fails, so only successes are metered.
 */
export async function serveDataCall(ep: JsonEndpoint, raw: unknown, ctx: DataContext, admit: Admit): Promise<EndpointResult> {
  admit.mayCall(ctx, ep);
  const input = parseInput(ep, raw);
  return admitted(ep, input, ctx, admit, () => runEndpoint(ep, input, ctx));
}

/**
 * A file request (REST only): checked and admitted like any data call, one call per download. The
 * stream is handed to the caller as it comes; a failure before it starts (no such file) gives the
 * call back.
 */
export async function serveFileCall(ep: FileEndpoint, raw: unknown, ctx: DataContext, admit: Admit): Promise<FileAnswer> {
  admit.mayCall(ctx, ep);
  const input = parseInput(ep, raw);
  return admitted(ep, input, ctx, admit, () => ep.handler(input, ctx));
}
