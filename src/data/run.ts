/**
 * Runs a declared data endpoint for either surface (REST or MCP): validates the input, admits the
 * call (or the batch's calls), answers from cache when it can (keyed by endpoint, validated input
 * and data version; by caller too for `cacheScope: "account"`), otherwise calls the handler and stores its answer.
 *
 * Two cache layers: this isolate's memory (hot answers cost no subrequest at all), then the
 * location's Cache API (shared by the isolates of one Cloudflare location). Both expire after the
 * endpoint's `cacheSeconds`; a new data version is a new key, so neither serves an old dataset's answer.
 */
import { LRUCache } from "lru-cache";
import { sha256Hex } from "../lib/crypto";
import { ApiError, validationError } from "../lib/errors";
import type { DataContext } from "./context";
import type { DataEndpoint, FileAnswer, FileEndpoint, JsonEndpoint } from "./endpoint";

export type EndpointResult = { json: string; cache: "HIT" | "MISS" };

const CACHE_ORIGIN = "https://data-cache.wilayah.invalid";

/** Inputs longer than this (batches) are keyed by their digest, so a key stays a short URL. */
const KEY_TEXT_MAX = 1_000;

async function cacheKey(ep: JsonEndpoint, input: unknown, ctx: DataContext): Promise<string> {
  const canonical = JSON.stringify(input, Object.keys(input as object).sort());
  const text =
    ep.cacheScope === "account"
      ? `account:${await sha256Hex(`${ctx.principal.userId}\n${canonical}`)}`
      : canonical.length > KEY_TEXT_MAX
        ? `sha256:${await sha256Hex(canonical)}`
        : canonical;
  return `${CACHE_ORIGIN}/${encodeURIComponent(ep.version)}${ep.path}${ep.method === "POST" ? "@post" : ""}?${encodeURIComponent(text)}`;
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
const memory = new LRUCache<string, string>({ maxSize: MEMORY_BYTES, sizeCalculation: (json, key) => 2 * (json.length + key.length) });

async function runEndpoint(ep: JsonEndpoint, input: Record<string, unknown>, ctx: DataContext): Promise<EndpointResult> {
  // RESPONSE_CACHE=off (a var) turns the cache off: the benchmark measures the uncached path that way.
  if (ep.cacheSeconds <= 0 || ctx.env.RESPONSE_CACHE === "off") return { json: JSON.stringify(await ep.handler(input, ctx)), cache: "MISS" };

  const keyUrl = await cacheKey(ep, input, ctx);
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

/** Rate, quota and metering around one request of `calls` calls; `release` gives back calls that were not served. */
export type Admit = (ctx: DataContext, ep: DataEndpoint, calls: number) => Promise<{ release(): Promise<void> }>;

/** The plan every account starts on (migrations/0005_plans.sql): the one `plans: "paid"` endpoints refuse. */
const FREE_PLAN = "free";

/** Who may call: a `plans: "paid"` endpoint refuses the free plan (every other plan, and `internal`, may call). */
function checkPlan(ep: DataEndpoint, ctx: DataContext): void {
  if (ep.plans === "paid" && ctx.principal.plan === FREE_PLAN) {
    throw new ApiError(
      "PLAN_REQUIRED",
      `${ep.path} is for paid plans; your account is on the free plan. Subscribe to a plan (POST /billing/subscribe) to use it.`,
    );
  }
}

/** Admits a request, runs `serve`, and gives the calls back when it fails: only successes are metered. */
async function admitted<T>(ep: DataEndpoint, input: Record<string, unknown>, ctx: DataContext, admit: Admit, serve: () => Promise<T>): Promise<T> {
  const admission = await admit(ctx, ep, ep.calls ? ep.calls(input as never) : 1);
  try {
    return await serve();
  } catch (e) {
    await admission.release();
    throw e;
  }
}

/**
 * One data request, for either surface: its plan checked, its input validated (a bad one is never
 * metered), then admitted (a batch as its number of calls, whole or not at all), given back if it
 * fails, so only successes are metered.
 */
export async function serveDataCall(ep: JsonEndpoint, raw: unknown, ctx: DataContext, admit: Admit): Promise<EndpointResult> {
  checkPlan(ep, ctx);
  const input = parseInput(ep, raw);
  return admitted(ep, input, ctx, admit, () => runEndpoint(ep, input, ctx));
}

/**
 * A file request (REST only): checked and admitted like any data call, one call per download. The
 * stream is handed to the caller as it comes; a failure before it starts (no such file) gives the
 * call back.
 */
export async function serveFileCall(ep: FileEndpoint, raw: unknown, ctx: DataContext, admit: Admit): Promise<FileAnswer> {
  checkPlan(ep, ctx);
  const input = parseInput(ep, raw);
  return admitted(ep, input, ctx, admit, () => ep.handler(input, ctx));
}
