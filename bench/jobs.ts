/**
 * `npm run bench:jobs`: bulk jobs end to end under `wrangler dev` (its own state, bench/worker.ts):
 * for each kind and size, the upload, then the time until the last row is done; the Worker's
 * memory while it runs, sampled every 200 ms: the isolate's JavaScript heap in use (V8's own
 * figure, read through wrangler's inspector: the Worker's memory, which Cloudflare limits to 128 MB)
 * and the workerd processes' resident memory (which also holds the local D1, R2 and queue
 * simulators); and the p99 of a plain data call measured idle and while each kind's largest job
 * of the run is processed.
 *
 *   npm run bench:jobs -- --sizes 10000,100000 --kinds convert,address
 *   npm run bench:jobs -- --worst --sizes 10000     # the worst chunk the input limits allow
 *
 * `--worst`: every row as large as a chunk's two limits allow together (src/jobs/input.ts: 1,000
 * rows and 2 MiB): a value of the 500 characters a row's value may have and a second column filling
 * the record to 2,090 bytes, so each chunk is 1,000 rows and 2 MiB at once: the most rows, the
 * longest values and the most bytes a consumer holds for one chunk. The inspector listens on the
 * port after the bench's (bench/worker.ts: `--port N` or BENCH_PORT and N + 1).
 *
 * Inputs: convert jobs cycle through real codes of every level and some unknown ones; address jobs
 * cycle through the real school addresses of test/fixtures/address-world.json (no response cache is
 * involved: a job calls the services directly, so repeats cost as much as the first time).
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { INSPECTOR_PORT, prepareState, startWorker, stopWorker, URL_BASE, workerdPids } from "./worker.ts";

const WORST = process.argv.includes("--worst");

const argAt = (name: string) => process.argv.indexOf(`--${name}`);
const listArg = (name: string, fallback: string) => (argAt(name) >= 0 ? process.argv[argAt(name) + 1] : fallback).split(",");
const SIZES = listArg("sizes", "10000,100000").map(Number);
const KINDS = listArg("kinds", "convert,address") as ("convert" | "address")[];
/**
 * `--live-heap`: each heap sample follows a forced garbage collection (HeapProfiler.collectGarbage),
 * so it is what the Worker holds, not what it has allocated since the last collection; the forced
 * collections pause the isolate, so no p99 is measured in this mode.
 */
const LIVE_HEAP = process.argv.includes("--live-heap");

/** How long the idle p99 is measured. */
const IDLE_SECONDS = 30;

const CODES = ["32.73", "11.01", "32.73.09", "3273091001", "94.01", "91.03", "99.99", "32.04.12.2001", "51.71", "63"];
const ADDRESSES = (JSON.parse(readFileSync(new URL("../test/fixtures/address-world.json", import.meta.url), "utf8")) as { text: string }[]).map((r) => r.text);

function csvOf(kind: "convert" | "address", rows: number): string {
  const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
  if (WORST) return worstCsvOf(kind, rows);
  const lines = [kind === "convert" ? "code" : "address"];
  for (let i = 0; i < rows; i++) lines.push(kind === "convert" ? CODES[i % CODES.length] : quote(ADDRESSES[i % ADDRESSES.length]));
  return `${lines.join("\n")}\n`;
}

/** `--worst`: rows of a 500-character value and a filler column, 2,090 bytes each (1,000 rows make 2 MiB: both chunk limits at once). */
function worstCsvOf(kind: "convert" | "address", rows: number): string {
  const lines = [kind === "convert" ? "code,note" : "address,note"];
  for (let i = 0; i < rows; i++) {
    const value =
      kind === "convert" ? `${CODES[i % CODES.length]} ${"9".repeat(500)}`.slice(0, 500) : `${ADDRESSES[i % ADDRESSES.length]}, `.repeat(20).slice(0, 500);
    const line = `"${value.replaceAll('"', "'")}",`;
    lines.push(line + "x".repeat(2_090 - line.length - 1));
  }
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

/**
 * The Worker isolate's heap in use (MB), over the Chrome DevTools protocol that wrangler dev's
 * inspector speaks (Runtime.getHeapUsage); null when the inspector cannot be reached.
 */
async function heapReader(): Promise<{ read(): Promise<number | null>; close(): void }> {
  const targets = (await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  // Node's WebSocket (undici) takes headers; wrangler's inspector proxy wants a local Origin.
  const ws = new WebSocket(targets[0].webSocketDebuggerUrl, { headers: { origin: "http://localhost" } } as unknown as string[]);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", reject);
  });
  let next = 0;
  const waiting = new Map<number, (v: { usedSize: number } | null) => void>();
  ws.addEventListener("message", (e) => {
    const m = JSON.parse(String(e.data)) as { id?: number; result?: { usedSize: number } };
    if (m.id !== undefined) waiting.get(m.id)?.(m.result ?? null);
    if (m.id !== undefined) waiting.delete(m.id);
  });
  return {
    read: () =>
      new Promise((resolve) => {
        const id = ++next;
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(null);
        }, 2_000);
        waiting.set(id, (r) => {
          clearTimeout(timer);
          resolve(r ? r.usedSize / 1024 / 1024 : null);
        });
        if (LIVE_HEAP) ws.send(JSON.stringify({ id: ++next, method: "HeapProfiler.collectGarbage" }));
        ws.send(JSON.stringify({ id, method: "Runtime.getHeapUsage" }));
      }),
    close: () => ws.close(),
  };
}

const PLAIN = (key: string) => ({ url: `${URL_BASE}/api/v1/wilayah/provinsi/32`, connections: 1, headers: { "x-api-key": key } });

async function p99(key: string, seconds: number): Promise<number> {
  return (await autocannon({ ...PLAIN(key), duration: seconds })).latency.p99;
}

/** Plain calls one after another until `stop` (while a job runs): their p99 and how many. */
function p99Until(key: string): { stop(): Promise<{ p99: number; n: number }> } {
  let finished: (r: autocannon.Result) => void = () => undefined;
  const result = new Promise<autocannon.Result>((resolve) => {
    finished = resolve;
  });
  const run = autocannon({ ...PLAIN(key), duration: 3_600 }, (_e, r) => finished(r));
  return {
    async stop() {
      run.stop();
      const r = await result;
      return { p99: r.latency.p99, n: r.requests.total };
    },
  };
}

type Heap = Awaited<ReturnType<typeof heapReader>>;

/**
 * Samples the processes' memory and the isolate's heap until stopped. The heap is read through the
 * inspector, which the isolate answers between its tasks: the idle p99 is measured under the same
 * sampling as the p99 during a job, so the two differ by the job alone.
 */
function sample(pids: number[], heap: Heap) {
  let peak = rssMb(pids);
  let heapPeak = 0;
  const timer = setInterval(
    () => {
      peak = Math.max(peak, rssMb(pids));
      void heap.read().then((mb) => {
        heapPeak = Math.max(heapPeak, mb ?? 0);
      });
    },
    LIVE_HEAP ? 1_000 : 200,
  );
  return {
    stop() {
      clearInterval(timer);
      return { peak, heapPeak };
    },
  };
}

async function runJob(key: string, kind: "convert" | "address", rows: number, pids: number[], heap: Heap, measureCalls: boolean) {
  const body = csvOf(kind, rows);
  const t0 = Date.now();
  const res = await fetch(`${URL_BASE}/api/v1/jobs?kind=${kind}`, { method: "POST", headers: { "x-api-key": key, "content-type": "text/csv" }, body });
  if (res.status !== 202) throw new Error(`${kind} ${rows}: ${res.status} ${await res.text()}`);
  const accepted = Date.now() - t0;
  const id = ((await res.json()) as { data: { id: string } }).data.id;
  const sampler = sample(pids, heap);
  const calls = measureCalls ? p99Until(key) : undefined;
  let state = "";
  for (;;) {
    const job = (
      (await (await fetch(`${URL_BASE}/api/v1/jobs/${id}`, { headers: { "x-api-key": key } })).json()) as { data: { state: string; rows: { done: number } } }
    ).data;
    state = job.state;
    if (["done", "failed", "cancelled"].includes(state)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const { peak, heapPeak } = sampler.stop();
  const total = Date.now() - t0;
  const busy = await calls?.stop();
  return { kind, rows, mb: body.length / 1024 / 1024, accepted, total, state, peak, heapPeak, busy };
}

async function main() {
  const key = prepareState();
  const child = await startWorker(["RESPONSE_CACHE:off"], undefined, ["--inspector-port", String(INSPECTOR_PORT)]);
  let heap: Heap | undefined;
  try {
    const pids = workerdPids(child);
    heap = await heapReader();
    // Warm the isolate, then the idle figures.
    await fetch(`${URL_BASE}/api/v1/wilayah/provinsi/32`, { headers: { "x-api-key": key } });
    const idleMb = rssMb(pids);
    const idleHeap = await heap.read();
    // Idle: the same calls for 30 s (a p99 of thousands of calls, as during a job), sampled alike.
    const idleSampler = sample(pids, heap);
    const idleP99 = await p99(key, IDLE_SECONDS);
    idleSampler.stop();
    console.log(
      `idle: Worker heap ${idleHeap?.toFixed(1)} MB, workerd RSS ${idleMb.toFixed(0)} MB; GET /wilayah/provinsi/32 p99 ${idleP99} ms (1 connection, ${IDLE_SECONDS} s, response cache off)`,
    );
    console.log(
      `${"kind".padEnd(8)}${"rows".padStart(10)}${"file MB".padStart(9)}${"accept s".padStart(10)}${"total s".padStart(9)}${"rows/s".padStart(9)}${"peak heap MB".padStart(14)}${"peak RSS MB".padStart(13)}  state`,
    );
    const largest = Math.max(...SIZES);
    for (const kind of KINDS) {
      for (const rows of SIZES) {
        const r = await runJob(key, kind, rows, pids, heap, rows === largest && !LIVE_HEAP);
        console.log(
          `${r.kind.padEnd(8)}${String(r.rows).padStart(10)}${r.mb.toFixed(1).padStart(9)}${(r.accepted / 1000).toFixed(1).padStart(10)}${(r.total / 1000).toFixed(1).padStart(9)}${Math.round(
            r.rows / (r.total / 1000),
          )
            .toString()
            .padStart(
              9,
            )}${r.heapPeak.toFixed(1).padStart(14)}${r.peak.toFixed(0).padStart(13)}  ${r.state}${r.busy ? `; p99 of GET /wilayah/provinsi/32 during it: ${r.busy.p99} ms over ${r.busy.n} calls (idle ${idleP99} ms)` : ""}`,
        );
      }
    }
    if (!LIVE_HEAP) {
      // The same idle measure after the jobs: the workerd processes have grown meanwhile (their
      // RSS above), and plain calls are slower after a job than before it; the goal's ratio is to
      // the idle p99 before, this says how far the machine moved.
      const afterSampler = sample(pids, heap);
      const afterP99 = await p99(key, IDLE_SECONDS);
      afterSampler.stop();
      console.log(`idle after the jobs: GET /wilayah/provinsi/32 p99 ${afterP99} ms (before: ${idleP99} ms)`);
    }
  } finally {
    heap?.close();
    stopWorker(child);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
