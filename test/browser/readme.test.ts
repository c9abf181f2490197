/**
 * The README's commands as a reader runs them (issue 55), against a Worker started the way
 * `npm run dev` starts it (its preparation, `scripts/dev.ts --no-serve`, on the browser suite's
 * state; `ENVIRONMENT=development`, the payment simulator, no Tripay): every `sh` block of
 * README.md, then the walk-through of docs/development.md on a free local account, with the
 * variables they define. Each `curl` must answer 2xx (`--fail-with-body`), each command exit 0.
 * Only the address changes (`http://localhost:8787` is this suite's port, `.dev-key` its state's key)
 * and, in the walk-through, the sign-up's email (the state outlives a run) and the verification link
 * (the reader pastes it from the terminal: here it is read from the Worker's output). And `git
 * status` is the same before and after: no README command changes a file git tracks.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, toolEnv } from "../../scripts/lib.ts";
import { copyState, DEV_VARS, ORIGIN, prepareState, STATE, startWorker, stopWorkerAndWait, WORKER_PORT } from "./local.ts";

/** The `sh` blocks of a Markdown file (optionally only those of the `##` section titled `section`). */
function shBlocks(file: string, section?: string): string[] {
  let text = readFileSync(join(root, file), "utf8");
  if (section) {
    const at = text.indexOf(`\n## ${section}\n`);
    expect(at, `${file} has a section "${section}"`).toBeGreaterThan(0);
    text = text.slice(at, text.indexOf("\n## ", at + 1));
  }
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

const gitStatus = () => spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: root, encoding: "utf8" }).stdout;

// Under .wrangler/ (git-ignored); written until the suite ends (the Worker may print after its stop).
const work = join(root, ".wrangler", "readme-walk");
let ended = false;
const outputFile = join(work, "worker-output.txt");
let worker: ChildProcess | undefined;
let before = "";

/**
 * Runs lines as a reader's shell would, from the repository's root with the state's variable set
 * (the commands that read the local state, as the README says to); returns what they printed.
 */
async function run(lines: string): Promise<{ status: number | null; out: string }> {
  const script = [
    "set -euo pipefail",
    // Every answer must be 2xx: an error status fails the line (and prints the error's body).
    'curl() { command curl --silent --show-error --fail-with-body "$@"; echo; }',
    lines.replaceAll("http://localhost:8787", ORIGIN).replaceAll("$(cat .dev-key)", `$(cat '${join(STATE, "dev-key")}')`),
  ].join("\n");
  // Asynchronously: the Worker's output reaches its file (the walk-through's verification link) only
  // while this process's event loop runs, which a spawnSync would block for the whole walk.
  const child = spawn("bash", ["-c", script], {
    cwd: root,
    env: { ...toolEnv, WRANGLER_PERSIST_TO: STATE, WRANGLER_HIDE_BANNER: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGTERM"), 600_000);
  const status = await new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  clearTimeout(timer);
  return { status, out };
}

describe("the README's commands", () => {
  beforeAll(async () => {
    before = gitStatus();
    // npm run dev's preparation (`npm run dev` itself would also serve on 8787: the Worker below is
    // its serving, on this suite's port), on this file's copy of the suite's state: it finds it loaded.
    copyState();
    prepareState(STATE);
    const sink = { text: "" };
    worker = await startWorker(sink, {
      port: WORKER_PORT,
      state: STATE,
      vars: DEV_VARS,
    });
    // The Worker's output, kept in a file the walk-through reads its verification link from.
    // (both streams: wrangler writes some of the Worker's lines to stderr; the file exists from the start)
    const keep = () => {
      if (ended) return;
      mkdirSync(work, { recursive: true });
      writeFileSync(outputFile, sink.text);
    };
    keep();
    for (const stream of [worker.stdout, worker.stderr]) stream?.on("data", keep);
  }, 300_000); // npm run dev's preparation (a first run loads the seed: minutes) and the Worker

  afterAll(async () => {
    ended = true;
    await stopWorkerAndWait(worker);
    rmSync(work, { recursive: true, force: true });
    rmSync(STATE, { recursive: true, force: true });
  });

  it("README.md: every sh block runs, each curl answering 2xx", async () => {
    const blocks = shBlocks("README.md");
    // `npm run dev` and `npm test` are this suite's preparation and the run it is part of, not run again inside it.
    const lines = blocks.flatMap((b) => b.split("\n")).filter((l) => !/^npm (run dev|test)\b/.test(l.trim()));
    expect(lines.filter((l) => l.trim().startsWith("curl")).length).toBeGreaterThanOrEqual(6);
    const r = await run(lines.join("\n"));
    expect(r.out).not.toMatch(/curl: \(\d+\)/);
    expect(r.status, r.out.slice(-3000)).toBe(0);
    expect(r.out).toContain('"name":"Kota Bandung"');
  }, 300_000); // a dozen curls, each a process

  it("docs/development.md: the walk-through on a free local account runs, from sign-up to the admin's report queue", async () => {
    const [walk] = shBlocks("docs/development.md", "Try every feature on a free local account");
    const email = `ani-${Date.now().toString(36)}@example.com`;
    const lines = walk
      .replaceAll("ani@example.com", email)
      // The link the reader copies from npm run dev's terminal: here, from the Worker's output.
      .replace(
        /^# LINK=.*$/m,
        `LINK=$(for i in $(seq 150); do l=$(grep -o 'http://[^ ]*/auth/verify-email?token=[A-Za-z0-9._-]*' '${outputFile}' | tail -n 1); [ -n "$l" ] && echo "$l" && break; sleep 0.2; done)`,
      );
    const r = await run(lines);
    expect(r.status, r.out.slice(-3000)).toBe(0);
    // The report filed with the reader's own key is in the admin's queue, and the top-up was paid.
    expect(r.out).toMatch(/"field":"postal_code"/);
    expect(r.out).toMatch(/"balance":10000/);
    expect(r.out).toMatch(/accepted reports of the local database are not in seed\/corrections\.csv yet\. Nothing was written/);
  }, 600_000); // the walk-through runs npm commands (pay:simulate, admin:grant, corrections:pull), each starting Node and wrangler: seconds each quiet

  it("leave git status as it was (corrections:pull included)", () => {
    expect(gitStatus()).toBe(before);
  });
});
