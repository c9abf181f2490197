/**
 * `npm run bench`: starts the Worker locally (`wrangler dev`, local D1 with the full seed), drives it
 * over loopback with autocannon and prints requests/s, p50 and p99 per route, each as a ratio to the
 * floor (a trivial route of the same Worker: no auth, no D1). Runs twice: with the response cache
 * (warm) and with it off (RESPONSE_CACHE=off), so both paths are measured.
 *
 *   npm run bench -- --duration 10 --connections 10
 *   npm run bench -- --only uncached --route search   (one path, routes whose name contains "search")
 *   npm run bench -- --port 8800                      (when another benchmark holds port 8799)
 *
 * The run keeps its own local state (D1 with the seed, KV, Durable Objects) in .wrangler/bench, so
 * its fixtures never show up in the state `npm run dev` serves.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { root, targetArgs, wrangler } from "../scripts/lib.ts";
import { prepareState, STATE, startWorker, stopWorker, URL_BASE } from "./worker.ts";
const text = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const arg = (name: string, fallback: number) => {
  const value = text(name);
  return value === undefined ? fallback : Number(value);
};
const DURATION = arg("duration", 8);
const ONLY = text("only");
const ROUTE_FILTER = text("route");
const CONNECTIONS = arg("connections", 10);

/**
 * `sameAs`: the REST route this one answers the same question as (MCP): its ratio to that route is printed too.
 * `paths`: a mix, each connection cycling through them (`path` is the first, used to warm).
 */
type Route = { name: string; path: string; paths?: string[]; method?: string; body?: string; headers?: Record<string, string>; sameAs?: string };

const ROUTES: Route[] = [
  { name: "provinsi", path: "/api/v1/wilayah/provinsi" },
  { name: "kelurahan?kecamatan_id", path: "/api/v1/wilayah/kelurahan?kecamatan_id=32.73.09" },
  { name: "by-id (kelurahan)", path: "/api/v1/wilayah/kelurahan/32.73.09.1001" },
  { name: "search?q=bandung", path: "/api/v1/wilayah/search?q=bandung" },
  { name: "search?q=an (worst)", path: "/api/v1/wilayah/search?q=an" },
  { name: "reverse (Bandung village)", path: "/api/v1/wilayah/reverse?lat=-6.90827&lng=107.626971" },
  { name: "reverse (Jakarta, dense)", path: "/api/v1/wilayah/reverse?lat=-6.2&lng=106.8167" },
  { name: "reverse (approximate)", path: "/api/v1/wilayah/reverse?lat=-0.755&lng=100.2409" },
  { name: "reverse (at sea, 404)", path: "/api/v1/wilayah/reverse?lat=-5&lng=100" },
  { name: "boundary (kelurahan)", path: "/api/v1/wilayah/32.73.09.1001/boundary" },
  { name: "boundary (provinsi 32)", path: "/api/v1/wilayah/32/boundary" },
  { name: "kodepos", path: "/api/v1/wilayah/kodepos/40114" },
  { name: "pulau?q=", path: "/api/v1/wilayah/pulau?q=panjang" },
  { name: "nik (never cached)", path: "/api/v1/wilayah/nik/3273094512900001" },
];

/**
 * Search over the quality set (test/fixtures/search-queries.json, generated from the seed): the
 * whole mix, then its context queries (a name with its parents) and its typo queries (fuzzy) alone,
 * so their p99 is seen apart.
 */
const QUALITY: { group: string; q: string }[] = JSON.parse(readFileSync(join(root, "test", "fixtures", "search-queries.json"), "utf8"));
const searchMix = (name: string, groups: string[] | null): Route => {
  const paths = QUALITY.filter((t) => !groups || groups.includes(t.group)).map((t) => `/api/v1/wilayah/search?q=${encodeURIComponent(t.q)}`);
  return { name, path: paths[0], paths };
};
const SEARCH_MIXES: Route[] = [
  searchMix(`search mix (${QUALITY.length} queries)`, null),
  searchMix("search context (parent)", ["parent"]),
  searchMix("search fuzzy (typo)", ["typo"]),
];

/** Stateless MCP: one JSON-RPC tools/call per HTTP request, as an agent client sends it. */
const MCP_SEARCH: Route = {
  name: "MCP tools/call wilayah_search",
  sameAs: "search?q=bandung",
  path: "/mcp",
  method: "POST",
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wilayah_search", arguments: { q: "bandung" } } }),
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
};

/** BMKG cannot be reached from here: these run on a cache warmed with a fixture (warmBmkgCache). */
const BMKG_ROUTES: Route[] = [
  { name: "cuaca?adm4 (warm cache)", path: "/api/v1/cuaca?adm4=32.73.09.1001" },
  { name: "gempa/terkini (warm cache)", path: "/api/v1/gempa/terkini" },
];

/**
 * Puts BMKG-shaped payloads into the local KV under the keys the Worker reads, stamped fresh for
 * the length of the run. A benchmark fixture only: it measures our path, not BMKG.
 */
function warmBmkgCache() {
  const fetchedAt = Date.now() + 3_600_000;
  const slot = (h: number) => ({ time: `2026-11-22T${String(h).padStart(2, "0")}:00:00+07:00`, time_utc: "", temperature_c: 27, humidity_pct: 80, cloud_cover_pct: 50, precipitation_mm: 0, weather_code: 3, weather: "Berawan", weather_en: "Mostly Cloudy", wind_speed_kmh: 8, wind_from: "SE", wind_to: "NW", wind_direction_deg: 134, visibility_m: 9000, visibility: "< 10 km", icon_url: null });
  const entries = {
    "bmkg:cuaca:adm4:32.73.09.1001": [{ adm4: "32.73.09.1001", desa: "Cihapit", kecamatan: "Bandung Wetan", lat: -6.9, lng: 107.62, timezone: "Asia/Jakarta", forecast: Array.from({ length: 24 }, (_, i) => slot(i % 24)) }],
    "bmkg:gempa:terkini": { time: "2026-11-21T06:41:52.000Z", local_date: "21 Nov 2026", local_time: "13:41:52 WIB", lat: -6.89, lng: 109.67, magnitude: 5.1, depth_km: 10, region: "bench fixture", potential: null, felt: null, shakemap_url: null },
  };
  for (const [key, payload] of Object.entries(entries)) {
    wrangler(["kv", "key", "put", "--binding", "KV", ...targetArgs({ persistTo: STATE }), key, JSON.stringify({ fetchedAt, payload })], { capture: true });
  }
}

type Figure = { rps: number; floorRps: number; p50: number; p99: number; errors: number };

const ROUNDS = 3;

/**
 * Throughput under load (CONNECTIONS), latency unloaded (one connection: queueing behind other
 * requests is not the route's latency). This machine's CPU is shared with other guests (vmstat shows
 * 10-60% steal), so throughput is measured in ROUNDS alternating slices of the floor and the route,
 * and the ratio is taken from the sums: a slow spell hits both sides alike.
 */
async function measure(url: string, route: Route, key: string, floor: Route): Promise<Figure> {
  const opts = (r: Route) => ({
    url: url + r.path,
    method: (r.method ?? "GET") as "GET",
    body: r.body,
    headers: { "x-api-key": key, ...r.headers },
    ...(r.paths ? { requests: r.paths.map((path) => ({ method: "GET" as const, path })) } : {}),
  });
  const slice = Math.max(2, Math.round(DURATION / ROUNDS));
  let rps = 0;
  let floorRps = 0;
  let errors = 0;
  for (let i = 0; i < ROUNDS; i++) {
    floorRps += (await autocannon({ ...opts(floor), connections: CONNECTIONS, duration: slice })).requests.average / ROUNDS;
    const load = await autocannon({ ...opts(route), connections: CONNECTIONS, duration: slice });
    rps += load.requests.average / ROUNDS;
    errors += load.non2xx + load.errors;
  }
  const single = await autocannon({ ...opts(route), connections: 1, duration: Math.max(2, DURATION / 2) });
  return { rps, floorRps, p50: single.latency.p50, p99: single.latency.p99, errors: errors + single.non2xx + single.errors };
}

const fmt = (n: number, d = 0) => n.toFixed(d).padStart(8);

async function run(label: string, vars: string[], allRoutes: Route[], key: string) {
  const routes = allRoutes.filter((r) => !ROUTE_FILTER || r.name.includes(ROUTE_FILTER));
  const child = await startWorker(vars);
  const url = URL_BASE;
  try {
    // Warm: one request per route fills the cache (or the D1 page cache) before measuring.
    for (const r of routes) await fetch(url + r.path, { method: r.method, body: r.body, headers: { "x-api-key": key, ...r.headers } });
    const floor: Route = { name: "floor (/health)", path: "/health" };
    console.log(`\n${label}: req/s with ${CONNECTIONS} connections (${ROUNDS} slices alternating with the floor); p50/p99 with 1 connection`);
    console.log(`${"route".padEnd(30)}${"req/s".padStart(8)}${"floor".padStart(8)}${"x floor".padStart(8)}${"p50 ms".padStart(8)}${"p99 ms".padStart(8)}${"non-2xx".padStart(8)}`);
    const line = (name: string, f: Figure) =>
      console.log(`${name.padEnd(30)}${fmt(f.rps)}${fmt(f.floorRps)}${fmt(f.rps / f.floorRps, 2)}${fmt(f.p50)}${fmt(f.p99)}${fmt(f.errors)}`);
    line(floor.name, await measure(url, floor, key, floor));
    const figures = new Map<string, Figure>();
    for (const r of routes) {
      const f = await measure(url, r, key, floor);
      figures.set(r.name, f);
      line(r.name, f);
      const same = r.sameAs ? figures.get(r.sameAs) : undefined;
      // Each side as its ratio to the floor slices it alternated with, so drift between them cancels out.
      if (same) console.log(`${"  = x the REST route".padEnd(30)}${fmt(f.rps / f.floorRps / (same.rps / same.floorRps), 2).padStart(24)}   (${r.name} / ${r.sameAs}; goal >= 0.8)`);
    }
  } finally {
    stopWorker(child);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function main() {
  const key = prepareState();
  warmBmkgCache();
  if (ONLY !== "uncached") await run("Cached (warm response cache)", [], [...ROUTES, MCP_SEARCH, ...BMKG_ROUTES], key);
  if (ONLY !== "cached") await run("Uncached (RESPONSE_CACHE=off: every call reads D1)", ["RESPONSE_CACHE:off"], [...ROUTES, ...SEARCH_MIXES, MCP_SEARCH], key);
  console.log("\nGoals: every data route >= 0.5 x floor req/s; search p99 < 25 ms; reverse (uncached) >= 0.4 x floor, p99 < 30 ms.");
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
