/**
 * Runs a declared data endpoint for either surface (REST or MCP): validates the input, answers from
 * the edge cache when it can (keyed by endpoint, validated input and data version, never by caller),
 * otherwise calls the handler and stores its answer.
 */
import type { DataContext, DataEndpoint } from "./data-endpoint";
import { validationError } from "./errors";

export type EndpointResult = { json: string; cache: "HIT" | "MISS" };

const CACHE_ORIGIN = "https://data-cache.wilayah.invalid";

function cacheKey(ep: DataEndpoint, input: unknown): string {
  const canonical = JSON.stringify(input, Object.keys(input as object).sort());
  return `${CACHE_ORIGIN}/${encodeURIComponent(ep.version)}${ep.path}?${encodeURIComponent(canonical)}`;
}

export function parseInput<E extends DataEndpoint>(ep: E, raw: unknown) {
  const parsed = ep.input.safeParse(raw);
  if (!parsed.success) throw validationError("INVALID_QUERY", "parameters", parsed.error.issues);
  return parsed.data;
}

export async function runEndpoint(ep: DataEndpoint, raw: unknown, ctx: DataContext): Promise<EndpointResult> {
  const input = parseInput(ep, raw);
  // RESPONSE_CACHE=off (a var) turns the cache off: the benchmark measures the uncached path that way.
  if (ep.cacheSeconds <= 0 || ctx.env.RESPONSE_CACHE === "off") return { json: JSON.stringify(await ep.handler(input, ctx)), cache: "MISS" };

  const cache = (caches as unknown as { default: Cache }).default;
  const key = new Request(cacheKey(ep, input));
  const hit = await cache.match(key);
  if (hit) return { json: await hit.text(), cache: "HIT" };

  const json = JSON.stringify(await ep.handler(input, ctx));
  ctx.waitUntil(
    cache.put(key, new Response(json, { headers: { "content-type": "application/json", "cache-control": `public, max-age=${ep.cacheSeconds}` } })),
  );
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
