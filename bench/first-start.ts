/**
 * `npm run bench:first-start`: what a newcomer waits for, measured the way the README promises it.
 * A clean clone of the committed HEAD in a temporary folder (no node_modules, no .wrangler), then
 * `npm run dev -- --port N` in it; every line it prints is timed from the start, and the first data
 * call (a search with the printed key) is tried every second until it answers 200. Then it waits
 * for the background work (the bulk exports and the vector tiles, scripts/dev-files.ts) and times
 * when GET /api/v1/wilayah/export/manifest and GET /tiles/tiles.json answer. The machine's load
 * (uptime's load averages) is printed at the start and the end: on a shared machine every figure moves with it.
 *
 *   npm run bench:first-start                      # port 8860, waits for the exports and tiles too
 *   npm run bench:first-start -- --port 8850 --no-files   # stops at the first answer
 *   npm run bench:first-start -- --keep            # leaves the clone (its path is printed)
 *
 * Uncommitted changes are not measured: commit first.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "../scripts/lib.ts";

const argAt = (name: string) => process.argv.indexOf(`--${name}`);
const PORT = Number(argAt("port") >= 0 ? process.argv[argAt("port") + 1] : (process.env.FIRST_START_PORT ?? 8860));
const WAIT_FILES = !process.argv.includes("--no-files");
const KEEP = process.argv.includes("--keep");
/** Give up after this long (a first start on a busy machine takes minutes; a hang should not run forever). */
const LIMIT_MS = 40 * 60_000;

/** The lines of `npm run dev` worth a time of their own, in the order they come. */
const MILESTONES: [RegExp, string][] = [
  [/^boot: ready/, "dependencies installed (npm ci)"],
  [/^Migrations/, "migrations applied"],
  [/^Seed loaded/, "seed loaded"],
  [/^Boundaries loaded/, "village boundaries loaded"],
  [/Ready on http/, "wrangler dev ready"],
  [/^Development API key/, "key printed (npm run dev's summary)"],
  [/ulk exports built/, "bulk exports built"],
  [/ulk exports uploaded/, "bulk exports uploaded"],
  [/ector tiles built/, "vector tiles built"],
  [/ector tiles uploaded/, "vector tiles uploaded"],
];

/** What `uptime` says of the load: the 1, 5 and 15 minute averages, and the cores they share. */
const load = () =>
  `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(", ")} on ${cpus().length} cores`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

async function status(url: string, key?: string): Promise<number> {
  try {
    const res = await fetch(url, { headers: key ? { "x-api-key": key } : {}, signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
    return res.status;
  } catch {
    return 0;
  }
}

async function main() {
  const sha = execFileSync("git", ["-C", root, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
  if (execFileSync("git", ["-C", root, "status", "--porcelain"], { encoding: "utf8" }).trim()) {
    console.log(`first-start: note: uncommitted changes are not measured, only HEAD ${sha.slice(0, 7)}`);
  }
  if ((await status(`http://127.0.0.1:${PORT}/health`)) !== 0) throw new Error(`port ${PORT} already answers: pass --port N`);
  const tmp = mkdtempSync(join(tmpdir(), "wilayah-first-start-"));
  const repo = join(tmp, "repo");
  execFileSync("git", ["clone", "-q", "--no-checkout", root, repo]);
  execFileSync("git", ["-C", repo, "-c", "advice.detachedHead=false", "checkout", "-q", sha]);
  const startLoad = load();
  console.log(`first-start: clean clone of ${sha.slice(0, 7)} in ${repo}; load at start: ${startLoad}`);

  const t0 = Date.now();
  const times: [string, number][] = [];
  const mark = (what: string) => {
    times.push([what, Date.now() - t0]);
    console.log(`first-start: ${seconds(Date.now() - t0).padStart(6)}  ${what}`);
  };
  // npm as the README runs it; the system's npm and node (boot.mjs brings Node 22 when needed).
  const dev: ChildProcess = spawn("npm", ["run", "dev", "--", "--port", String(PORT)], {
    cwd: repo,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const seen = new Set<string>();
  let output = "";
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    const lines = output.split("\n");
    output = lines.pop() ?? "";
    for (const line of lines) {
      for (const [re, what] of MILESTONES) {
        if (seen.has(what) || !re.test(line.trim())) continue;
        seen.add(what);
        mark(what);
      }
      if (/could not be prepared|failed/i.test(line)) console.log(`first-start: npm run dev said: ${line.trim()}`);
    }
  };
  dev.stdout?.on("data", onData);
  dev.stderr?.on("data", onData);
  const stop = () => {
    try {
      if (dev.pid) process.kill(-dev.pid, "SIGTERM");
    } catch {
      // gone already
    }
  };
  try {
    const origin = `http://127.0.0.1:${PORT}`;
    let answered = false;
    let exportsReady = false;
    let tilesReady = false;
    while (Date.now() - t0 < LIMIT_MS) {
      if (dev.exitCode !== null) throw new Error(`npm run dev exited (${dev.exitCode}) before the measure was done`);
      await new Promise((r) => setTimeout(r, 1000));
      const keyFile = join(repo, ".dev-key");
      const key = existsSync(keyFile) ? readFileSync(keyFile, "utf8").trim() : "";
      if (!answered && key && (await status(`${origin}/api/v1/wilayah/search?q=bandung`, key)) === 200) {
        answered = true;
        mark("FIRST ANSWER: GET /api/v1/wilayah/search?q=bandung 200");
        if (!WAIT_FILES) break;
      }
      if (answered && !exportsReady && (await status(`${origin}/api/v1/wilayah/export/manifest`, key)) === 200) {
        exportsReady = true;
        mark("bulk exports served (GET /api/v1/wilayah/export/manifest 200)");
      }
      if (answered && !tilesReady && (await status(`${origin}/tiles/tiles.json`)) === 200) {
        tilesReady = true;
        mark("tiles served (GET /tiles/tiles.json 200)");
      }
      if (answered && exportsReady && tilesReady) break;
    }
    const endLoad = load();
    console.log("");
    console.log(`first-start: ${sha.slice(0, 7)}, npm run dev -- --port ${PORT} on a clean clone (${new Date().toISOString().slice(0, 10)})`);
    console.log(`first-start: load at start: ${startLoad}`);
    console.log(`first-start: load at end:   ${endLoad}`);
    for (const [what, ms] of times) console.log(`first-start: ${seconds(ms).padStart(6)}  ${what}`);
    if (!answered) throw new Error(`no answer within ${seconds(LIMIT_MS)}`);
  } finally {
    stop();
    await new Promise((r) => setTimeout(r, 2000));
    if (KEEP) console.log(`first-start: the clone is kept in ${repo}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(`first-start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
