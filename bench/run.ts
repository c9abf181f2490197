/**
 * `npm run bench`: starts the Worker locally (`wrangler dev`, local D1 with the full seed), drives it
 * over loopback with autocannon and prints requests/s, p50 and p99 per route, each as a ratio to the
 * floor (a trivial route of the same Worker: no auth, no D1). Runs twice: with the response cache
 * (warm) and with it off (RESPONSE_CACHE=off), so both paths are measured.
 *
 *   npm run bench -- --duration 10 --connections 10
 *   npm run bench -- --only uncached --route search   (one path, routes whose name contains "search"; "by-id|bps" takes either)
 *   npm run bench -- --port 8850                      (the Worker's port, its inspector's the next; else BENCH_PORT, else free ones)
 *   npm run bench -- --limits                          (per-call D1 queries, KV, Durable Object and
 *                                                      subrequest counts and the heap: bench/limits.ts)
 *   npm run bench -- --set old-queries.json           (the search mixes over another quality set, e.g. an
 *                                                      earlier one, to compare code on the same queries)
 *
 * The run keeps its own local state (D1 with the seed, KV, Durable Objects) in .wrangler/bench, so
 * its fixtures never show up in the state `npm run dev` serves.
 */

import type { ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import { limits } from "./limits.ts";
import {
  ADDRESS_ROUTES,
  arg,
  BMKG_ROUTES,
  MCP_SEARCH,
  pathsOf,
  preparePublishableKeys,
  ROUTES,
  type Route,
  routeWanted,
  SEARCH_MIXES,
  SPACE_ROUTES,
  TILE_ROUTES,
  text,
  warmBmkgCache,
} from "./routes.ts";
import { cpuMs, prepareState, startWorker, stopWorker, URL_BASE, workerdPids } from "./worker.ts";

const DURATION = arg("duration", 8);
const ONLY = text("only");
const CONNECTIONS = arg("connections", 10);

type Figure = { rps: number; floorRps: number; p50: number; p99: number; errors: number; cpu: number; floorCpu: number };

const ROUNDS = 3;
/** The fewest calls p50 and p99 are taken over. */
const SINGLE_MIN_CALLS = 300;

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
    headers: headersOf(r, key),
    ...(r.keys
      ? { requests: r.keys().map((_, i) => ({ method: "GET" as const, path: pathsOf(r)[i % pathsOf(r).length], headers: headersOf(r, key, i) })) }
      : r.paths
        ? { requests: r.paths.map((path) => ({ method: "GET" as const, path })) }
        : {}),
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
  // Latency on one connection, after the load's own background work has settled (a second's pause
  // and a one-second run that is thrown away), over enough calls that p99 is not simply the slowest
  // one: at least SINGLE_MIN_CALLS, or DURATION / 2 seconds when that holds more. A batch of 100
  // (about 75 ms) made about 50 calls in the old 4 s, so one stall of the machine was its p99.
  await new Promise((r) => setTimeout(r, 1_000));
  const settle = await autocannon({ ...opts(route), connections: 1, duration: 1 });
  const perSecond = settle.requests.total || 1;
  const single = await autocannon({ ...opts(route), connections: 1, amount: Math.max(SINGLE_MIN_CALLS, Math.round((perSecond * DURATION) / 2)) });
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

/**
 * D1 rows read per call, per route: a Worker of its own with D1_STATS=on (src/http/d1-stats.ts: it
 * sums each statement's rows_read into x-d1-rows-read and runs reads twice to count them, so it
 * never serves the speed figures). Each route is warmed first, as in the speed run, so the cached
 * run shows what a cached call reads.
 */
/** A route's request headers: the bench's key, or the `i`th of the route's own keys. */
const headersOf = (r: Route, key: string, i = 0): Record<string, string> => ({ "x-api-key": r.keys ? r.keys()[i % r.keys().length] : key, ...r.headers });

/** Each path once, and each of the route's own keys once (their lookups cached, as on a warm isolate). */
async function warm(r: Route, key: string) {
  const n = Math.max(pathsOf(r).length, r.keys?.().length ?? 0);
  for (let i = 0; i < n; i++) {
    const res = await fetch(URL_BASE + pathsOf(r)[i % pathsOf(r).length], { method: r.method, body: r.body, headers: headersOf(r, key, i) });
    await res.arrayBuffer();
  }
}

async function rowsRead(vars: string[], routes: Route[], key: string): Promise<Map<string, number>> {
  const child = await startWorker([...vars, "D1_STATS:on"]);
  const out = new Map<string, number>();
  try {
    const send = (r: Route, path: string, i = 0) => fetch(URL_BASE + path, { method: r.method, body: r.body, headers: headersOf(r, key, i) });
    for (const r of routes) await warm(r, key);
    for (const r of routes) {
      let sum = 0;
      for (const [i, path] of pathsOf(r).entries()) {
        const res = await send(r, path, i);
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
  const routes = allRoutes.filter((r) => routeWanted(r.name));
  const rows = await rowsRead(vars, routes, key);
  const child: ChildProcess = await startWorker(vars);
  const pids = workerdPids(child);
  if (pids.length === 0) throw new Error("no workerd process found under wrangler dev: cannot measure CPU");
  const url = URL_BASE;
  try {
    // Warm: one request per route fills the cache (or the D1 page cache) before measuring.
    for (const r of routes) await warm(r, key);
    const floor: Route = { name: "floor (/health)", path: "/health" };
    console.log(
      `\n${label}: req/s with ${CONNECTIONS} connections (${ROUNDS} slices alternating with the floor); p50/p99 with 1 connection over at least ${SINGLE_MIN_CALLS} calls;`,
    );
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

async function main() {
  const key = prepareState();
  warmBmkgCache();
  await preparePublishableKeys();
  if (process.argv.includes("--limits")) return limits(key);
  if (ONLY !== "uncached")
    await run("Cached (warm response cache)", [], [...ROUTES, ...SPACE_ROUTES, ...ADDRESS_ROUTES, MCP_SEARCH, ...BMKG_ROUTES, ...TILE_ROUTES], key);
  if (ONLY !== "cached")
    await run(
      "Uncached (RESPONSE_CACHE=off: every call reads D1)",
      ["RESPONSE_CACHE:off"],
      [...ROUTES, ...SPACE_ROUTES, ...ADDRESS_ROUTES, ...SEARCH_MIXES, MCP_SEARCH, ...TILE_ROUTES],
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
