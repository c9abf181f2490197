/**
 * `npm run bench:jobs`: bulk jobs end to end under `wrangler dev` (its own state, bench/worker.ts):
 * for each kind and size, the upload, then the time until the last row is done; the workerd
 * processes' peak resident memory while it runs (sampled every 200 ms, against the idle figure);
 * and the p99 of a plain data call measured idle and while the largest job of the run is processed.
 *
 *   npm run bench:jobs -- --sizes 10000,100000 --kinds convert,address
 *
 * Inputs: convert jobs cycle through real codes of every level and some unknown ones; address jobs
 * cycle through the real school addresses of test/fixtures/address-world.json (no response cache is
 * involved: a job calls the services directly, so repeats cost as much as the first time).
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { prepareState, startWorker, stopWorker, URL_BASE, workerdPids } from "./worker.ts";

const argAt = (name: string) => process.argv.indexOf(`--${name}`);
const listArg = (name: string, fallback: string) => (argAt(name) >= 0 ? process.argv[argAt(name) + 1] : fallback).split(",");
const SIZES = listArg("sizes", "10000,100000").map(Number);
const KINDS = listArg("kinds", "convert,address") as ("convert" | "address")[];

const CODES = ["32.73", "11.01", "32.73.09", "3273091001", "94.01", "91.03", "99.99", "32.04.12.2001", "51.71", "63"];
const ADDRESSES = (JSON.parse(readFileSync(new URL("../test/fixtures/address-world.json", import.meta.url), "utf8")) as { text: string }[]).map((r) => r.text);

function csvOf(kind: "convert" | "address", rows: number): string {
  const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
  const lines = [kind === "convert" ? "code" : "address"];
  for (let i = 0; i < rows; i++) lines.push(kind === "convert" ? CODES[i % CODES.length] : quote(ADDRESSES[i % ADDRESSES.length]));
  return `${lines.join("\n")}\n`;
}

/** Resident memory (MB) of the processes, summed. */
function rssMb(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      const m = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/);
      if (m) kb += Number(m[1]);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

async function p99(key: string, seconds: number): Promise<number> {
  const r = await autocannon({ url: `${URL_BASE}/api/v1/wilayah/provinsi/32`, connections: 1, duration: seconds, headers: { "x-api-key": key } });
  return r.latency.p99;
}

async function runJob(key: string, kind: "convert" | "address", rows: number, pids: number[], during?: () => Promise<number>) {
  const body = csvOf(kind, rows);
  const t0 = Date.now();
  const res = await fetch(`${URL_BASE}/api/v1/jobs?kind=${kind}`, { method: "POST", headers: { "x-api-key": key, "content-type": "text/csv" }, body });
  if (res.status !== 202) throw new Error(`${kind} ${rows}: ${res.status} ${await res.text()}`);
  const accepted = Date.now() - t0;
  const id = ((await res.json()) as { data: { id: string } }).data.id;
  let peak = rssMb(pids);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pids));
  }, 200);
  const busyP99 = during ? during() : undefined;
  let state = "";
  for (;;) {
    const job = (
      (await (await fetch(`${URL_BASE}/api/v1/jobs/${id}`, { headers: { "x-api-key": key } })).json()) as { data: { state: string; rows: { done: number } } }
    ).data;
    state = job.state;
    if (["done", "failed", "cancelled"].includes(state)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  clearInterval(sampler);
  const total = Date.now() - t0;
  return { kind, rows, mb: body.length / 1024 / 1024, accepted, total, state, peak, busyP99: busyP99 ? await busyP99 : undefined };
}

async function main() {
  const key = prepareState();
  const child = await startWorker(["RESPONSE_CACHE:off"]);
  try {
    const pids = workerdPids(child);
    // Warm the isolate, then the idle figures.
    await fetch(`${URL_BASE}/api/v1/wilayah/provinsi/32`, { headers: { "x-api-key": key } });
    const idleMb = rssMb(pids);
    const idleP99 = await p99(key, 5);
    console.log(`idle: workerd RSS ${idleMb.toFixed(0)} MB; GET /wilayah/provinsi/32 p99 ${idleP99} ms (1 connection, 5 s, response cache off)`);
    console.log(
      `${"kind".padEnd(8)}${"rows".padStart(10)}${"file MB".padStart(9)}${"accept s".padStart(10)}${"total s".padStart(9)}${"rows/s".padStart(9)}${"peak RSS MB".padStart(13)}  state`,
    );
    const largest = Math.max(...SIZES);
    for (const kind of KINDS) {
      for (const rows of SIZES) {
        const during = rows === largest && kind === KINDS[KINDS.length - 1] ? () => p99(key, 10) : undefined;
        const r = await runJob(key, kind, rows, pids, during);
        console.log(
          `${r.kind.padEnd(8)}${String(r.rows).padStart(10)}${r.mb.toFixed(1).padStart(9)}${(r.accepted / 1000).toFixed(1).padStart(10)}${(r.total / 1000).toFixed(1).padStart(9)}${Math.round(
            r.rows / (r.total / 1000),
          )
            .toString()
            .padStart(
              9,
            )}${r.peak.toFixed(0).padStart(13)}  ${r.state}${r.busyP99 !== undefined ? `; p99 of GET /wilayah/provinsi/32 during it: ${r.busyP99} ms (idle ${idleP99} ms)` : ""}`,
        );
      }
    }
  } finally {
    stopWorker(child);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
