/**
 * `npm run bench`: starts the Worker locally (`wrangler dev`, local D1 with the full seed), drives it
 * over loopback with autocannon and prints requests/s, p50 and p99 per route, each as a ratio to the
 * floor (a trivial route of the same Worker: no auth, no D1). Runs twice: with the response cache
 * (warm) and with it off (RESPONSE_CACHE=off), so both paths are measured.
 *
 *   npm run bench -- --duration 10 --connections 10
 *   npm run bench -- --only uncached --route search   (one path, routes whose name contains "search")
 *   npm run bench -- --port 8800                      (when another benchmark holds port 8799)
 *   npm run bench -- --set old-queries.json           (the search mixes over another quality set, e.g. an
 *                                                      earlier one, to compare code on the same queries)
 *
 * The run keeps its own local state (D1 with the seed, KV, Durable Objects) in .wrangler/bench, so
 * its fixtures never show up in the state `npm run dev` serves.
 */

import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { root, targetArgs, wrangler } from "../scripts/lib.ts";
import { readEditions } from "../scripts/seed/history-editions.ts";
import { cpuMs, PORT, prepareState, STATE, startWorker, stopWorker, URL_BASE, workerdPids } from "./worker.ts";

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
  {
    name: "history (mix of 4 codes)",
    path: "/api/v1/wilayah/91.01/history",
    paths: ["91.01", "92.71.05.1008", "32.73.09.1001", "93.01"].map((c) => `/api/v1/wilayah/${c}/history`),
  },
  {
    name: "changes (mix of 3 filters)",
    path: "/api/v1/wilayah/changes",
    paths: ["", "?from=2015&level=kelurahan&change=recoded&per_page=100&page=20", "?from=2022&to=2022b&level=kecamatan"].map(
      (q) => `/api/v1/wilayah/changes${q}`,
    ),
  },
  {
    name: "convert (1,000 codes)",
    path: "/api/v1/wilayah/convert",
    method: "POST",
    body: JSON.stringify({ codes: convertCodes() }),
    headers: { "content-type": "application/json" },
  },
];

/**
 * 1,000 codes to convert, as a database built in 2022 would hold them: every fifth village code of
 * Papua (91, recoded in 2022b and 2025) and villages, kecamatan and kabupaten from the rest of the
 * 2022 edition, evenly spaced.
 */
function convertCodes(): string[] {
  const codes = [...(readEditions().get("2022")?.keys() ?? [])].sort();
  const papua = codes
    .filter((c) => c.startsWith("91.") && c.length === 13)
    .filter((_, i) => i % 5 === 0)
    .slice(0, 500);
  const rest = codes.filter((c) => !c.startsWith("91."));
  const step = Math.floor(rest.length / (1000 - papua.length));
  return [...papua, ...rest.filter((_, i) => i % step === 0)].slice(0, 1000);
}

/**
 * Nearby (issue 25): each level at a point in Bandung; kelurahan also at sea with no radius (the walk
 * goes out to the nearest coast), with 50 results, and over a mix of points (half near villages,
 * half anywhere in Indonesia's box, mostly sea; seeded, so every run sends the same). Neighbours at
 * three levels. `--route nearby` / `--route neighb` run them alone.
 */
const AT = "lat=-6.90827&lng=107.626971";
const nearbyMix = (): string[] => {
  let seed = 20251125;
  const random = () => {
    seed = (seed * 16_807) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  // Near villages: around the centres of Java's, Sumatra's and Sulawesi's cities (moved up to about 11 km).
  const towns = [
    [-6.2, 106.82],
    [-6.91, 107.61],
    [-7.25, 112.75],
    [3.59, 98.67],
    [-0.95, 100.35],
    [-5.14, 119.42],
    [-8.65, 115.22],
    [-3.32, 114.59],
  ];
  return Array.from({ length: 40 }, (_, i) => {
    const [lat, lng] = i % 2 ? [-11 + random() * 17, 95 + random() * 46] : towns[(i / 2) % towns.length].map((x) => x + (random() - 0.5) * 0.2);
    return `/api/v1/wilayah/nearby?lat=${lat.toFixed(5)}&lng=${lng.toFixed(5)}`;
  });
};
const SPACE_ROUTES: Route[] = [
  { name: "nearby kelurahan (Bandung)", path: `/api/v1/wilayah/nearby?${AT}` },
  { name: "nearby kelurahan, limit 50", path: `/api/v1/wilayah/nearby?${AT}&limit=50` },
  { name: "nearby kelurahan (at sea)", path: "/api/v1/wilayah/nearby?lat=-9&lng=100" },
  { name: "nearby kelurahan (40 points)", path: nearbyMix()[0], paths: nearbyMix() },
  { name: "nearby kecamatan", path: `/api/v1/wilayah/nearby?${AT}&level=kecamatan` },
  { name: "nearby kabupaten", path: `/api/v1/wilayah/nearby?${AT}&level=kabupaten` },
  { name: "nearby provinsi", path: `/api/v1/wilayah/nearby?${AT}&level=provinsi` },
  { name: "neighbors (kelurahan)", path: "/api/v1/wilayah/32.73.09.1001/neighbors" },
  { name: "neighbors (kabupaten)", path: "/api/v1/wilayah/32.73/neighbors" },
  { name: "neighbors (provinsi)", path: "/api/v1/wilayah/32/neighbors" },
];

/**
 * Search over the quality set (test/fixtures/search-queries.json, generated from the seed; `--set`
 * another file): the whole mix, then its context queries (a name with its parents), its typo queries
 * (fuzzy) and its names as people write them (name readings: spacing, old spellings, short forms,
 * historic names) alone, so their p99 is seen apart.
 */
const QUALITY: { group: string; q: string }[] = JSON.parse(readFileSync(text("set") ?? join(root, "test", "fixtures", "search-queries.json"), "utf8"));
const searchMix = (name: string, groups: string[] | null): Route[] => {
  const paths = QUALITY.filter((t) => !groups || groups.includes(t.group)).map((t) => `/api/v1/wilayah/search?q=${encodeURIComponent(t.q)}`);
  return paths.length > 0 ? [{ name, path: paths[0], paths }] : [];
};
const SEARCH_MIXES: Route[] = [
  ...searchMix(`search mix (${QUALITY.length} queries)`, null),
  ...searchMix("search context (parent)", ["parent"]),
  ...searchMix("search fuzzy (typo)", ["typo"]),
  ...searchMix("search names (readings)", ["spacing", "spelling", "short-form", "historic"]),
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

/**
 * Addresses (issue 24): one address complete, one with a typo in the village name, one holding a
 * code of an earlier edition (read through the region history: one statement more), a mix of the
 * quality set's addresses one per request (every 8th of test/fixtures/address-set.json, every
 * style; until the former_code style was added, 195 of 13 styles), and a batch of 100 of them
 * (every 15th) in one POST. `--route address` runs them alone.
 */
const ADDRESS_SET: { text: string }[] = JSON.parse(readFileSync(join(root, "test", "fixtures", "address-set.json"), "utf8"));
const addressPath = (q: string) => `/api/v1/wilayah/address?q=${encodeURIComponent(q)}`;
const ADDRESS_ROUTES: Route[] = [
  { name: "address (complete)", path: addressPath("Jl. Asia Afrika No. 8, Braga, Sumur Bandung, Kota Bandung, Jawa Barat 40111") },
  { name: "address (typo)", path: addressPath("Jl. Sekolah No. 103, Sngai Tabuk Kota, Kec. Sungai Tabuk, Banjar, Kalimantan Selatan 70653") },
  { name: "address (code of 2022)", path: addressPath("Desa Yowied (9101152001), Kec. Tubang, Kab. Merauke") },
  {
    name: `address mix (${ADDRESS_SET.filter((_, i) => i % 8 === 0).length} of the set)`,
    path: addressPath(ADDRESS_SET[0].text),
    paths: ADDRESS_SET.filter((_, i) => i % 8 === 0).map((c) => addressPath(c.text)),
  },
  {
    name: "address batch of 100 (POST)",
    path: "/api/v1/wilayah/address",
    method: "POST",
    body: JSON.stringify({
      addresses: ADDRESS_SET.filter((_, i) => i % 15 === 0)
        .slice(0, 100)
        .map((c) => c.text),
    }),
    headers: { "content-type": "application/json" },
  },
];

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
  const slot = (h: number) => ({
    time: `2026-11-22T${String(h).padStart(2, "0")}:00:00+07:00`,
    time_utc: "",
    temperature_c: 27,
    humidity_pct: 80,
    cloud_cover_pct: 50,
    precipitation_mm: 0,
    weather_code: 3,
    weather: "Berawan",
    weather_en: "Mostly Cloudy",
    wind_speed_kmh: 8,
    wind_from: "SE",
    wind_to: "NW",
    wind_direction_deg: 134,
    visibility_m: 9000,
    visibility: "< 10 km",
    icon_url: null,
  });
  const entries = {
    "bmkg:cuaca:adm4:32.73.09.1001": [
      {
        adm4: "32.73.09.1001",
        desa: "Cihapit",
        kecamatan: "Bandung Wetan",
        lat: -6.9,
        lng: 107.62,
        timezone: "Asia/Jakarta",
        forecast: Array.from({ length: 24 }, (_, i) => slot(i % 24)),
      },
    ],
    "bmkg:gempa:terkini": {
      time: "2026-11-21T06:41:52.000Z",
      local_date: "21 Nov 2026",
      local_time: "13:41:52 WIB",
      lat: -6.89,
      lng: 109.67,
      magnitude: 5.1,
      depth_km: 10,
      region: "bench fixture",
      potential: null,
      felt: null,
      shakemap_url: null,
    },
  };
  for (const [key, payload] of Object.entries(entries)) {
    wrangler(["kv", "key", "put", "--binding", "KV", ...targetArgs({ persistTo: STATE }), key, JSON.stringify({ fetchedAt, payload })], { capture: true });
  }
}

type Figure = { rps: number; floorRps: number; p50: number; p99: number; errors: number; cpu: number; floorCpu: number };

const ROUNDS = 3;

/**
 * Throughput under load (CONNECTIONS), latency unloaded (one connection: queueing behind other
 * requests is not the route's latency). This machine's CPU is shared with other guests (vmstat shows
 * 10-60% steal), so throughput is measured in ROUNDS alternating slices of the floor and the route,
 * and the ratio is taken from the sums: a slow spell hits both sides alike.
 */
async function measure(url: string, route: Route, key: string, floor: Route, pids: number[]): Promise<Figure> {
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
  // Worker CPU per call: the workerd processes' CPU over each side's slices, over the requests answered in them.
  const cpu = { route: 0, routeCalls: 0, floor: 0, floorCalls: 0 };
  for (let i = 0; i < ROUNDS; i++) {
    let t = cpuMs(pids);
    const base = await autocannon({ ...opts(floor), connections: CONNECTIONS, duration: slice });
    cpu.floor += cpuMs(pids) - t;
    cpu.floorCalls += base.requests.total;
    floorRps += base.requests.average / ROUNDS;
    t = cpuMs(pids);
    const load = await autocannon({ ...opts(route), connections: CONNECTIONS, duration: slice });
    cpu.route += cpuMs(pids) - t;
    cpu.routeCalls += load.requests.total;
    rps += load.requests.average / ROUNDS;
    errors += load.non2xx + load.errors;
  }
  const single = await autocannon({ ...opts(route), connections: 1, duration: Math.max(2, DURATION / 2) });
  return {
    rps,
    floorRps,
    p50: single.latency.p50,
    p99: single.latency.p99,
    errors: errors + single.non2xx + single.errors,
    cpu: cpu.route / Math.max(1, cpu.routeCalls),
    floorCpu: cpu.floor / Math.max(1, cpu.floorCalls),
  };
}

const fmt = (n: number, d = 0) => n.toFixed(d).padStart(8);

/** The paths a route sends (a mix: each of its paths once). */
const pathsOf = (r: Route) => r.paths ?? [r.path];

/**
 * D1 rows read per call, per route: a Worker of its own with D1_STATS=on (src/http/d1-stats.ts: it
 * sums each statement's rows_read into x-d1-rows-read and runs reads twice to count them, so it
 * never serves the speed figures). Each route is warmed first, as in the speed run, so the cached
 * run shows what a cached call reads.
 */
async function rowsRead(vars: string[], routes: Route[], key: string): Promise<Map<string, number>> {
  const child = await startWorker([...vars, "D1_STATS:on"]);
  const out = new Map<string, number>();
  try {
    const send = (r: Route, path: string) => fetch(URL_BASE + path, { method: r.method, body: r.body, headers: { "x-api-key": key, ...r.headers } });
    for (const r of routes) for (const path of pathsOf(r)) await (await send(r, path)).arrayBuffer();
    for (const r of routes) {
      let sum = 0;
      for (const path of pathsOf(r)) {
        const res = await send(r, path);
        await res.arrayBuffer();
        sum += Number(res.headers.get("x-d1-rows-read") ?? Number.NaN);
      }
      out.set(r.name, sum / pathsOf(r).length);
    }
  } finally {
    stopWorker(child);
    await new Promise((r) => setTimeout(r, 1000));
  }
  return out;
}

async function run(label: string, vars: string[], allRoutes: Route[], key: string) {
  const routes = allRoutes.filter((r) => !ROUTE_FILTER || r.name.includes(ROUTE_FILTER));
  const rows = await rowsRead(vars, routes, key);
  const child: ChildProcess = await startWorker(vars);
  const pids = workerdPids(child);
  if (pids.length === 0) throw new Error("no workerd process found under wrangler dev: cannot measure CPU");
  const url = URL_BASE;
  try {
    // Warm: one request per route fills the cache (or the D1 page cache) before measuring.
    for (const r of routes) await fetch(url + r.path, { method: r.method, body: r.body, headers: { "x-api-key": key, ...r.headers } });
    const floor: Route = { name: "floor (/health)", path: "/health" };
    console.log(`\n${label}: req/s with ${CONNECTIONS} connections (${ROUNDS} slices alternating with the floor); p50/p99 with 1 connection;`);
    console.log("Worker CPU ms per call (workerd processes, over the route's slices; net = minus the floor's); D1 rows read per call (D1_STATS)");
    console.log(
      `${"route".padEnd(30)}${"req/s".padStart(8)}${"floor".padStart(8)}${"x floor".padStart(8)}${"p50 ms".padStart(8)}${"p99 ms".padStart(8)}${"cpu ms".padStart(8)}${"net ms".padStart(8)}${"rows".padStart(8)}${"non-2xx".padStart(8)}`,
    );
    const line = (name: string, f: Figure, rowsPerCall: number | undefined) =>
      console.log(
        `${name.padEnd(30)}${fmt(f.rps)}${fmt(f.floorRps)}${fmt(f.rps / f.floorRps, 2)}${fmt(f.p50)}${fmt(f.p99)}${fmt(f.cpu, 2)}${fmt(f.cpu - f.floorCpu, 2)}${rowsPerCall === undefined ? "       -" : fmt(rowsPerCall, rowsPerCall % 1 ? 1 : 0)}${fmt(f.errors)}`,
      );
    line(floor.name, await measure(url, floor, key, floor, pids), 0);
    const figures = new Map<string, Figure>();
    for (const r of routes) {
      const f = await measure(url, r, key, floor, pids);
      figures.set(r.name, f);
      line(r.name, f, rows.get(r.name));
      const same = r.sameAs ? figures.get(r.sameAs) : undefined;
      // Each side as its ratio to the floor slices it alternated with, so drift between them cancels out.
      if (same)
        console.log(
          `${"  = x the REST route".padEnd(30)}${fmt(f.rps / f.floorRps / (same.rps / same.floorRps), 2).padStart(24)}   (${r.name} / ${r.sameAs}; goal >= 0.8)`,
        );
      const heavy = rows.get(r.name);
      if (heavy !== undefined && heavy > 1000) console.log(`  ! ${r.name} reads ${heavy.toFixed(0)} D1 rows per call (over 1,000)`);
    }
  } finally {
    stopWorker(child);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** The development-only cost headers of one answer (src/http/d1-stats.ts). */
const COSTS = ["x-d1-queries", "x-d1-rows-read", "x-kv-ops", "x-do-requests", "x-subrequests"] as const;

type InspectorSocket = {
  onopen: (() => void) | null;
  onerror: ((e: unknown) => void) | null;
  send(text: string): void;
  close(): void;
  addEventListener(type: "message", listener: (e: { data: unknown }) => void): void;
  removeEventListener(type: "message", listener: (e: { data: unknown }) => void): void;
};

/** The isolate's JavaScript heap after a full garbage collection, over the Worker's inspector (Chrome DevTools Protocol). */
async function heapBytes(port: number): Promise<{ used: number; total: number }> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  // Node's WebSocket (undici), which takes headers: the inspector proxy wants an Origin it knows (localhost).
  const ws = new (globalThis as unknown as { WebSocket: new (url: string, init: { headers: Record<string, string> }) => InspectorSocket }).WebSocket(
    target.webSocketDebuggerUrl,
    { headers: { origin: "http://localhost" } },
  );
  await new Promise<void>((ok, fail) => {
    ws.onopen = ok;
    ws.onerror = fail;
  });
  let id = 0;
  const send = (method: string) =>
    new Promise<Record<string, number>>((ok) => {
      const mine = ++id;
      ws.addEventListener("message", function on(e: { data: unknown }) {
        const msg = JSON.parse(String(e.data));
        if (msg.id !== mine) return;
        ws.removeEventListener("message", on);
        ok(msg.result);
      });
      ws.send(JSON.stringify({ id: mine, method }));
    });
  await send("HeapProfiler.collectGarbage");
  const { usedSize, totalSize } = await send("Runtime.getHeapUsage");
  ws.close();
  return { used: usedSize, total: totalSize };
}

/**
 * `--limits`: what one call of each route costs against the platform's per-invocation limits, and
 * the isolate's heap after all of them (docs/performance.md, "Production limits"). Uncached, so
 * every call does its whole work; each path sent once; the largest figure of a route's paths.
 */
async function limits(key: string) {
  const inspector = PORT + 1000;
  const child = await startWorker(["D1_STATS:on", "RESPONSE_CACHE:off"], undefined, ["--inspector-port", String(inspector)]);
  try {
    const routes = [...ROUTES, ...SPACE_ROUTES, ...ADDRESS_ROUTES, ...SEARCH_MIXES, MCP_SEARCH, ...BMKG_ROUTES].filter(
      (r) => !ROUTE_FILTER || r.name.includes(ROUTE_FILTER),
    );
    console.log(`Largest per call: ${COSTS.join(", ")} (uncached; each path once)`);
    console.log(`${"route".padEnd(32)}${["queries", "rows", "KV", "DO", "fetch"].map((h) => h.padStart(9)).join("")}`);
    const worst = COSTS.map(() => 0);
    for (const r of routes) {
      const most = COSTS.map(() => 0);
      for (const path of pathsOf(r)) {
        const res = await fetch(URL_BASE + path, { method: r.method, body: r.body, headers: { "x-api-key": key, ...r.headers } });
        await res.arrayBuffer();
        if (!res.ok && res.status !== 404) throw new Error(`${r.name}: ${path} answered ${res.status}`);
        COSTS.forEach((h, i) => {
          most[i] = Math.max(most[i], Number(res.headers.get(h) ?? Number.NaN));
        });
      }
      most.forEach((n, i) => {
        worst[i] = Math.max(worst[i], n);
      });
      console.log(`${r.name.padEnd(32)}${most.map((n) => String(n).padStart(9)).join("")}`);
    }
    console.log(`${"largest".padEnd(32)}${worst.map((n) => String(n).padStart(9)).join("")}`);
    const heap = await heapBytes(inspector);
    console.log(`JavaScript heap after every route and a full GC: ${(heap.used / 2 ** 20).toFixed(1)} MiB used of ${(heap.total / 2 ** 20).toFixed(1)} MiB`);
  } finally {
    stopWorker(child);
  }
}

async function main() {
  const key = prepareState();
  warmBmkgCache();
  if (process.argv.includes("--limits")) return limits(key);
  if (ONLY !== "uncached") await run("Cached (warm response cache)", [], [...ROUTES, ...SPACE_ROUTES, ...ADDRESS_ROUTES, MCP_SEARCH, ...BMKG_ROUTES], key);
  if (ONLY !== "cached")
    await run(
      "Uncached (RESPONSE_CACHE=off: every call reads D1)",
      ["RESPONSE_CACHE:off"],
      [...ROUTES, ...SPACE_ROUTES, ...ADDRESS_ROUTES, ...SEARCH_MIXES, MCP_SEARCH],
      key,
    );
  console.log(
    "\nGoals: every data route >= 0.5 x floor req/s; search p99 < 25 ms; reverse (uncached) >= 0.4 x floor, p99 < 30 ms; one address p99 < 25 ms and a batch of 100 p99 < 400 ms (uncached).",
  );
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
