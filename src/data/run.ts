/**
 * Runs a declared data endpoint for either surface (REST or MCP): validates the input, answers from
 * cache when it can (keyed by endpoint, validated input and data version, never by caller),
 * otherwise calls the handler and stores its answer.
 *
 * Two cache layers: this isolate's memory (hot answers cost no subrequest at all), then the
 * location's Cache API (shared by the isolates of one Cloudflare location). Both expire after the
 * endpoint's `cacheSeconds`; a new data version is a new key, so neither serves an old dataset's answer.
 */
import { LRUCache } from "lru-cache";
import { validationError } from "../lib/errors";
import type { DataContext } from "./context";
import type { DataEndpoint } from "./endpoint";

export type EndpointResult = { json: string; cache: "HIT" | "MISS" };

const CACHE_ORIGIN = "https://data-cache.wilayah.invalid";

function cacheKey(ep: DataEndpoint, input: unknown): string {
  const canonical = JSON.stringify(input, Object.keys(input as object).sort());
  return `${CACHE_ORIGIN}/${encodeURIComponent(ep.version)}${ep.path}?${encodeURIComponent(canonical)}`;
}

/** How much longer a Cache API answer is good for: its max-age minus its age (the Cache API sets `age` on a hit). */
function remainingMs(hit: Response, cacheSeconds: number): number {
  const age = Number(hit.headers.get("age") ?? 0);
  return Math.max(1, (cacheSeconds - (Number.isFinite(age) ? age : 0)) * 1000);
}

export function parseInput<E extends DataEndpoint>(ep: E, raw: unknown) {
  const parsed = ep.input.safeParse(raw);
  if (!parsed.success) throw validationError("INVALID_QUERY", "parameters", parsed.error.issues);
  return parsed.data;
}

/** Answers kept in this isolate: bounded by size (Workers give an isolate 128 MB), least recently used go first. */
const MEMORY_BYTES = 16 * 1024 * 1024;
const memory = new LRUCache<string, string>({ maxSize: MEMORY_BYTES, sizeCalculation: (json, key) => 2 * (json.length + key.length) });

export async function runEndpoint(ep: DataEndpoint, raw: unknown, ctx: DataContext): Promise<EndpointResult> {
  const input = parseInput(ep, raw);
  // RESPONSE_CACHE=off (a var) turns the cache off: the benchmark measures the uncached path that way.
  if (ep.cacheSeconds <= 0 || ctx.env.RESPONSE_CACHE === "off") return { json: JSON.stringify(await ep.handler(input, ctx)), cache: "MISS" };

  const keyUrl = cacheKey(ep, input);
  const inMemory = memory.get(keyUrl);
  if (inMemory !== undefined) return { json: inMemory, cache: "HIT" };

  const cache = (caches as unknown as { default: Cache }).default;
  const key = new Request(keyUrl);
  const hit = await cache.match(key);
  if (hit) {
    const json = await hit.text();
    memory.set(keyUrl, json, { ttl: remainingMs(hit, ep.cacheSeconds) });
    return { json, cache: "HIT" };
  }

  const json = JSON.stringify(await ep.handler(input, ctx));
  memory.set(keyUrl, json, { ttl: ep.cacheSeconds * 1000 });
  ctx.waitUntil(cache.put(key, new Response(json, { headers: { "content-type": "application/json", "cache-control": `public, max-age=${ep.cacheSeconds}` } })));
  return { json, cache: "MISS" };
}

/** Rate, quota and metering around one call; `release` gives back a call that was not served. */
export type Admit = (ctx: DataContext, ep: DataEndpoint) => Promise<{ release(): Promise<void> }>;

/** One data call, for either surface: admitted first, given back if it fails, so only successes are metered. */
export async function serveDataCall(ep: DataEndpoint, raw: unknown, ctx: DataContext, admit: Admit): Promise<EndpointResult> {
  const admitted = await admit(ctx, ep);
  try {
    return await runEndpoint(ep, raw, ctx);
  } catch (e) {
    await admitted.release();
    throw e;
  }
}
