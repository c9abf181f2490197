/**
 * The local Worker the benchmarks drive: `wrangler dev` on loopback with a state of its own in
 * .wrangler/bench (its own D1 with the seed, KV, Durable Objects, dev key), so benchmark fixtures
 * never show up in the state `npm run dev` serves.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, toolEnv, wranglerBin } from "../scripts/lib.ts";

export const STATE = join(root, ".wrangler", "bench");
/** BENCH_PORT when set (another worktree may bench on 8799 at the same time). */
export const PORT = Number(process.env.BENCH_PORT ?? 8799);
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
export async function startWorker(vars: string[], onOutput?: (text: string) => void): Promise<ChildProcess> {
  const child = spawn(wranglerBin, ["dev", "--port", String(PORT), "--ip", "127.0.0.1", "--persist-to", STATE, ...vars.flatMap((v) => ["--var", v])], {
    cwd: root,
    // Wrangler's local trace store (on by default) writes every request and subrequest into a SQLite
    // file under .wrangler/: a cost of the dev tool that a deployed Worker does not pay. Off here.
    env: { ...toolEnv, X_LOCAL_OBSERVABILITY: "false", X_LOCAL_EXPLORER: "false" },
    stdio: ["ignore", onOutput ? "pipe" : "ignore", "inherit"],
    detached: true,
  });
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
