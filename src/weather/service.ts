/**
 * Weather and earthquakes from BMKG. One cached copy in KV serves every caller (BMKG allows about
 * 60 requests a minute per IP): forecasts are fresh for an hour, the latest earthquake for a minute.
 * When BMKG fails, the last good copy is served marked `stale: true`; without one, the upstream error.
 * Fresh forecasts are also kept in the isolate's memory until they stop being fresh, so a hot region
 * costs no KV read (and its region lookup no D1 query).
 */
import { LRUCache } from "lru-cache";
import { regionReads } from "../db/reads";
import { ApiError } from "../lib/errors";
import { errorText, log } from "../lib/log";
import { iso } from "../lib/time";
import { getRegion } from "../wilayah/regions/service";
import { BMKG_SOURCE, fetchForecast, fetchLatestQuake } from "./bmkg";

const FORECAST_FRESH_MS = 60 * 60 * 1000;
const QUAKE_FRESH_MS = 60 * 1000;
/** How long a last good copy is kept for the stale fallback. */
const KEEP_SECONDS = 7 * 24 * 3600;

type Cached<T> = { fetchedAt: number; payload: T };

const fresh = new LRUCache<string, Cached<unknown>>({ max: 2_000 });
const regions = new LRUCache<string, Awaited<ReturnType<typeof getRegion>>>({ max: 10_000, ttl: 60 * 60 * 1000 });

/** `inMemory`: also keep fresh copies in this isolate (per-region forecasts; the one earthquake key is left to KV's own edge cache). */
async function upstreamCached<T>(env: Env, key: string, freshMs: number, load: () => Promise<T>, inMemory = false) {
  const now = Date.now();
  const held = inMemory ? (fresh.get(key) as Cached<T> | undefined) : undefined;
  if (held && now - held.fetchedAt < freshMs) return { ...held, stale: false };
  // KV is only a cache here: when it fails, BMKG is asked (and its answer served unkept), so a KV
  // outage costs BMKG requests, never an answer (docs/api.md, "When a dependency fails").
  const hit = await env.KV.get<Cached<T>>(key, "json").catch((e: unknown) => {
    log.warn("kv_read_failed", { what: "bmkg cache", error: errorText(e) });
    return null;
  });
  const keep = (c: Cached<T>) => inMemory && fresh.set(key, c, { ttl: Math.max(1, c.fetchedAt + freshMs - now) });
  if (hit && now - hit.fetchedAt < freshMs) {
    keep(hit);
    return { ...hit, stale: false };
  }
  let payload: T;
  try {
    payload = await load();
  } catch (e) {
    if (hit && e instanceof ApiError) return { ...hit, stale: true };
    throw e;
  }
  await env.KV.put(key, JSON.stringify({ fetchedAt: now, payload } satisfies Cached<T>), { expirationTtl: KEEP_SECONDS }).catch((e: unknown) =>
    log.warn("kv_write_failed", { what: "bmkg cache", error: errorText(e) }),
  );
  keep({ fetchedAt: now, payload });
  return { fetchedAt: now, payload, stale: false };
}

export async function forecast(env: Env, q: { adm4?: string; kabupaten_id?: string }) {
  if ((q.adm4 === undefined) === (q.kabupaten_id === undefined)) {
    throw new ApiError("INVALID_QUERY", "Give exactly one of adm4 (a kelurahan/desa id) or kabupaten_id.", {
      details: [{ path: q.adm4 === undefined ? "adm4" : "kabupaten_id", message: "exactly one of adm4 or kabupaten_id" }],
    });
  }
  const [id, level] = q.adm4 !== undefined ? [q.adm4, "kelurahan" as const] : [q.kabupaten_id ?? "", "kabupaten" as const];
  let found = regions.get(`${level}:${id}`);
  if (!found) {
    found = await getRegion(regionReads(env), id, level);
    regions.set(`${level}:${id}`, found);
  }
  const region = found.data;
  const param = region.level === "kelurahan" ? "adm4" : "adm2";
  const result = await upstreamCached(
    env,
    `bmkg:cuaca:${param}:${region.id}`,
    FORECAST_FRESH_MS,
    () => fetchForecast(env.BMKG_FORECAST_URL, param, region.id),
    true,
  );
  return {
    region: { id: region.id, name: region.name, level: region.level },
    locations: result.payload,
    fetched_at: iso(result.fetchedAt),
    stale: result.stale,
    source: BMKG_SOURCE,
  };
}

export async function latestQuake(env: Env) {
  const result = await upstreamCached(env, "bmkg:gempa:terkini", QUAKE_FRESH_MS, () => fetchLatestQuake(env.BMKG_QUAKE_URL));
  return { ...result.payload, fetched_at: iso(result.fetchedAt), stale: result.stale, source: BMKG_SOURCE };
}
