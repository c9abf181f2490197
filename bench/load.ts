/**
 * `npm run bench:load`: a bounded mixed load, then an exactness check. Drives the local Worker
 * (bench/worker.ts, its own state) with a mix of data reads, searches, MCP tool calls and account
 * reads, at 50 and then 100 connections, a fixed number of requests each; prints the status counts;
 * then checks that a fresh key's `/user/usage` equals the data calls it made that succeeded,
 * exactly, in total and per endpoint. Exits 1 on any 5xx or any mismatch.
 *
 *   npm run bench:load -- --requests 3000
 */
import autocannon from "autocannon";
import { d1, sqlString } from "../scripts/lib.ts";
import { prepareState, STATE, startWorker, stopWorker, URL_BASE } from "./worker.ts";

const at = process.argv.indexOf("--requests");
const REQUESTS = at >= 0 ? Number(process.argv[at + 1]) : 2_000;

type Kind = "data" | "search" | "mcp" | "account";
const METERED: Record<Kind, boolean> = { data: true, search: true, mcp: true, account: false };

async function freshDeveloper(output: () => string) {
  const email = `load-${Date.now()}@example.test`;
  const reg = await fetch(`${URL_BASE}/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "correct horse battery", name: "Load test" }),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const { token, data } = (await reg.json()) as { token: string; data: { id: string } };
  // The console mailer prints the verification link to wrangler's output: open it like a person would.
  let link: string | undefined;
  for (let i = 0; i < 50 && !link; i++) {
    link = output().match(/https?:\/\/\S+\/auth\/verify-email\?token=\S+/)?.[0];
    if (!link) await new Promise((r) => setTimeout(r, 200));
  }
  if (!link) throw new Error("no verification link was printed");
  const verified = await fetch(new URL(new URL(link).pathname + new URL(link).search, URL_BASE), { redirect: "manual" });
  if (!verified.headers.get("location")?.endsWith("verified=1")) throw new Error(`verification failed: ${verified.status}`);
  // The unthrottled internal plan, so the limits do not decide the outcome (what is measured is exactness).
  d1(`UPDATE users SET plan = 'internal' WHERE id = ${sqlString(data.id)}`, { persistTo: STATE });
  const created = await fetch(`${URL_BASE}/user/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "load" }),
  });
  if (created.status !== 201) throw new Error(`create key: ${created.status} ${await created.text()}`);
  return { token, key: ((await created.json()) as { data: { key: string } }).data.key };
}

function mix(key: string, token: string, counts: Record<Kind, number>) {
  const on = (kind: Kind) => (status: number, body: string) => {
    const ok = status >= 200 && status < 300 && !(kind === "mcp" && body.includes('"isError":true'));
    if (ok) counts[kind]++;
  };
  const get = (path: string, kind: Kind, auth: Record<string, string>) => ({ method: "GET" as const, path, headers: auth, onResponse: on(kind) });
  const k = { "x-api-key": key };
  const t = { authorization: `Bearer ${token}` };
  const queries = ["bandung", "jakarta", "sukamaju", "an", "kota", "surabaya", "jogja"];
  let n = 0;
  return [
    get("/api/v1/wilayah/provinsi", "data", k),
    get("/api/v1/wilayah/kelurahan?kecamatan_id=32.73.09", "data", k),
    get("/api/v1/wilayah/32.73.09.1001", "data", k),
    {
      ...get("/api/v1/wilayah/search?q=bandung", "search", k),
      setupRequest: (r: { path: string }) => ({ ...r, path: `/api/v1/wilayah/search?q=${queries[n++ % queries.length]}` }),
    },
    {
      method: "POST" as const,
      path: "/mcp",
      headers: { ...k, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wilayah_search", arguments: { q: "bandung" } } }),
      onResponse: on("mcp"),
    },
    get("/user/keys", "account", t),
    get("/auth/me", "account", t),
  ];
}

async function main() {
  prepareState();
  let output = "";
  const child = await startWorker([], (text) => (output += text));
  let failed = false;
  try {
    const dev = await freshDeveloper(() => output);
    const counts: Record<Kind, number> = { data: 0, search: 0, mcp: 0, account: 0 };
    console.log(`Mixed load: data reads, searches, MCP tools/call, account reads; ${REQUESTS} requests per run.`);
    console.log(`${"connections".padEnd(12)}${"req/s".padStart(8)}${"p50 ms".padStart(8)}${"p99 ms".padStart(8)}  status counts`);
    for (const connections of [50, 100]) {
      const r = await autocannon({ url: URL_BASE, connections, amount: REQUESTS, requests: mix(dev.key, dev.token, counts) as never });
      const stats: Record<string, { count?: number }> = r.statusCodeStats ?? {};
      const statuses = Object.entries(stats)
        .map(([s, v]) => `${s}: ${v.count ?? 0}`)
        .join(", ");
      console.log(
        `${String(connections).padEnd(12)}${r.requests.average.toFixed(0).padStart(8)}${String(r.latency.p50).padStart(8)}${String(r.latency.p99).padStart(8)}  ${statuses}${r.errors ? `, socket errors: ${r.errors}` : ""}`,
      );
      if (Object.keys(stats).some((s) => s.startsWith("5")) || r.errors > 0) failed = true;
    }
    const expected = (Object.keys(counts) as Kind[]).filter((k) => METERED[k]).reduce((s, k) => s + counts[k], 0);
    const usage = (await (await fetch(`${URL_BASE}/user/usage`, { headers: { authorization: `Bearer ${dev.token}` } })).json()) as {
      data: { total: number; by_endpoint: { endpoint: string; count: number }[] };
    };
    const byEndpoint = Object.fromEntries(usage.data.by_endpoint.map((e) => [e.endpoint, e.count]));
    const searchCalls = (byEndpoint["/wilayah/search"] ?? 0) - counts.mcp; // MCP wilayah_search is metered as /wilayah/search
    console.log(
      `\nSuccessful data calls made: ${expected} (REST data ${counts.data}, REST search ${counts.search}, MCP ${counts.mcp}); account reads ${counts.account} (not metered).`,
    );
    console.log(`/user/usage says: total ${usage.data.total}; ${JSON.stringify(byEndpoint)}`);
    const exact = usage.data.total === expected && searchCalls === counts.search;
    console.log(exact ? "Usage is exact." : "USAGE MISMATCH.");
    if (!exact) failed = true;
  } finally {
    stopWorker(child);
  }
  if (failed) process.exit(1);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
