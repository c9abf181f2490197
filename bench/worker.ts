/**
 * The local Worker the benchmarks drive: `wrangler dev` on loopback with a state of its own in
 * .wrangler/bench (its own D1 with the seed, KV, Durable Objects, dev key), so benchmark fixtures
 * never show up in the state `npm run dev` serves.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { root, toolEnv, wranglerBin } from "../scripts/lib.ts";
import { suitePorts } from "../scripts/ports.ts";

export const STATE = join(root, ".wrangler", "bench");
/**
 * The Worker's port and its inspector's (bench:jobs and bench:limits read the isolate's heap there):
 * `--port N` or BENCH_PORT and the port after it, else two found free at the start, so another
 * checkout's benchmark on the same machine never shares them.
 */
const portArg = process.argv.indexOf("--port");
export const [PORT, INSPECTOR_PORT] =
  portArg >= 0 ? [Number(process.argv[portArg + 1]), Number(process.argv[portArg + 1]) + 1] : await suitePorts("BENCH_PORT", 2);
export const URL_BASE = `http://127.0.0.1:${PORT}`;

/** Migrations, seed (when changed) and the dev key in the benchmark's state; returns the key. */
export function prepareState(): string {
  const prep = spawnSync(process.execPath, [join(root, "scripts", "dev.ts"), "--no-serve"], {
    cwd: root,
    env: { ...toolEnv, WRANGLER_PERSIST_TO: STATE },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (prep.status !== 0) throw new Error("preparing the benchmark's local state failed (scripts/dev.ts --no-serve)");
  return readFileSync(join(STATE, "dev-key"), "utf8").trim();
}

/** Starts `wrangler dev` with extra `--var`s; `onOutput` sees its stdout (e.g. the console mailer's links). */
export async function startWorker(vars: string[], onOutput?: (text: string) => void, extraArgs: string[] = []): Promise<ChildProcess> {
  // The floor would be another Worker's if the port were taken: refuse rather than measure it.
  const taken = await fetch(`${URL_BASE}/health`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${PORT} is already in use: pass --port N`);
  // Development (wrangler.toml says production) and no breached-password lookups: the benchmark reaches no network.
  // D1_GUARD: D1's production limits (src/db/guard.ts), so a route the bench drives cannot pass here and fail there.
  // On in the Worker that counts rows (D1_STATS), which sends every path of every route; not in the
  // one measured for speed, since the guard's checks never run in production (about 5% of an uncached
  // by-id call's CPU: docs/performance.md, "BPS codes and the cost of a by-id call").
  const guard = vars.includes("D1_STATS:on") ? ["D1_GUARD:on"] : [];
  const all = ["ENVIRONMENT:development", "BREACHED_PASSWORDS_URL:", ...guard, ...vars];
  const child = spawn(
    wranglerBin,
    ["dev", "--port", String(PORT), "--ip", "127.0.0.1", "--persist-to", STATE, ...all.flatMap((v) => ["--var", v]), ...extraArgs],
    {
      cwd: root,
      // Wrangler's local trace store (on by default) writes every request and subrequest into a SQLite
      // file under .wrangler/: a cost of the dev tool that a deployed Worker does not pay. Off here.
      env: { ...toolEnv, X_LOCAL_OBSERVABILITY: "false", X_LOCAL_EXPLORER: "false" },
      stdio: ["ignore", onOutput ? "pipe" : "ignore", "inherit"],
      detached: true,
    },
  );
  if (onOutput) child.stdout?.on("data", (chunk: Buffer) => onOutput(chunk.toString()));
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 500));
    try {
      if ((await fetch(`${URL_BASE}/health`)).ok) return child;
    } catch {
      // not up yet
    }
  }
  stopWorker(child);
  throw new Error("wrangler dev did not come up within 60 s");
}

export function stopWorker(child: ChildProcess) {
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    // already gone
  }
}

/** The `workerd` processes under a started `wrangler dev` (its process group). */
export function workerdPids(child: ChildProcess): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Field 5 (after the parenthesised name) is the process group id.
      const [name, rest] = [stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), stat.slice(stat.lastIndexOf(")") + 2).split(" ")];
      if (name === "workerd" && Number(rest[2]) === child.pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU time (user + system, ms) the processes have used so far. Linux only (/proc); clock ticks of 10 ms. */
export function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10;
}
