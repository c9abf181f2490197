/**
 * `npm run bench -- --limits`: what one call of each route costs against the platform's
 * per-invocation limits, and the isolate's heap after all of them (docs/performance.md,
 * "Production limits").
 */
import { ADDRESS_ROUTES, BMKG_ROUTES, MCP_SEARCH, pathsOf, ROUTES, routeWanted, SEARCH_MIXES, SPACE_ROUTES } from "./routes.ts";
import { INSPECTOR_PORT, startWorker, stopWorker, URL_BASE } from "./worker.ts";

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
export async function limits(key: string) {
  const child = await startWorker(["D1_STATS:on", "RESPONSE_CACHE:off"], undefined, ["--inspector-port", String(INSPECTOR_PORT)]);
  try {
    const routes = [...ROUTES, ...SPACE_ROUTES, ...ADDRESS_ROUTES, ...SEARCH_MIXES, MCP_SEARCH, ...BMKG_ROUTES].filter((r) => routeWanted(r.name));
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
    const heap = await heapBytes(INSPECTOR_PORT);
    console.log(`JavaScript heap after every route and a full GC: ${(heap.used / 2 ** 20).toFixed(1)} MiB used of ${(heap.total / 2 ** 20).toFixed(1)} MiB`);
  } finally {
    stopWorker(child);
  }
}
