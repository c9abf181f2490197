/**
 * Both SDKs against a real Worker: prepares a local state of its own (migrations, seed, bulk exports,
 * dev key: scripts/dev.ts --no-serve), starts `wrangler dev` on loopback, signs up two fresh
 * free-plan accounts over HTTP (one key each, so the TypeScript and Python rate-limit tests do not
 * share a limiter), then runs side by side: the TypeScript suite (vitest), the Python suite (pytest,
 * with mypy --strict over the package and its README's examples) and the generated-code check (clients/generate.ts --check against this Worker's /openapi.json); stops the
 * Worker and prints one closing line, `clients: N passed, N failed`. Called by clients/test.sh,
 * which first installs each SDK's test tools.
 *
 *   CLIENTS_PORT (default: a port found free at the start)   CLIENTS_STATE (default .wrangler/clients)
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, toolEnv, wranglerBin } from "../scripts/lib.ts";
import { freePorts, suitePorts } from "../scripts/ports.ts";
import { examples } from "../src/site/examples.ts";

const [PORT] = await suitePorts("CLIENTS_PORT", 1);
const STATE = join(root, process.env.CLIENTS_STATE ?? join(".wrangler", "clients"));
const BASE = `http://127.0.0.1:${PORT}`;
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const say = (msg: string) => console.log(`clients: ${msg} (${elapsed()})`);

function prepareState(): string {
  // The SDKs' tests download bulk exports: prepared here, in the foreground.
  const prep = spawnSync(process.execPath, [join(root, "scripts", "dev.ts"), "--no-serve", "--exports"], {
    cwd: root,
    env: { ...toolEnv, WRANGLER_PERSIST_TO: STATE },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (prep.status !== 0) throw new Error("preparing the local state failed (scripts/dev.ts --no-serve)");
  return readFileSync(join(STATE, "dev-key"), "utf8").trim();
}

const up = () =>
  fetch(`${BASE}/health`).then(
    (r) => r.ok,
    () => false,
  );

/** The Worker's output: the console mailer prints verification links there; kept for the report on failure. */
let output = "";

async function startWorker(): Promise<ChildProcess> {
  if (await up()) throw new Error(`port ${PORT} is already in use: set CLIENTS_PORT`);
  // Development (the console mailer prints the verification links), and no breached-password lookup: tests reach no network.
  const vars = ["--var", "ENVIRONMENT:development", "--var", "BREACHED_PASSWORDS_URL:"];
  // An inspector port of its own: CI runs this beside the test suites, whose Workers start at any time.
  const [inspector] = await freePorts(1);
  const args = ["dev", "--port", String(PORT), "--inspector-port", String(inspector), "--ip", "127.0.0.1", "--persist-to", STATE, ...vars];
  const child = spawn(wranglerBin, args, {
    cwd: root,
    env: { ...toolEnv, X_LOCAL_OBSERVABILITY: "false", X_LOCAL_EXPLORER: "false" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 500));
    if (child.exitCode !== null) break;
    if (await up()) return child;
  }
  stopWorker(child);
  throw new Error(`wrangler dev did not come up within 60 s:\n${output.slice(-3000)}`);
}

/** Stops the Worker's process group (wrangler and its workerd), which this script started. */
function stopWorker(child: ChildProcess) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

async function json(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** A new account (free plan) through the public flow: register, open the emailed link, create a key. */
async function freeKey(label: string): Promise<string> {
  const email = `sdk-${label}-${Date.now()}@example.com`;
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${BASE}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const reg = await json(await post("/auth/register", { email, password: "sdk test password", name: `SDK ${label}` }));
  let link: string | undefined;
  for (let i = 0; i < 50 && !link; i++) {
    const at = output.indexOf(email);
    link = at >= 0 ? /https?:\/\/\S+\/auth\/verify-email\?token=[^\s"]+/.exec(output.slice(at))?.[0] : undefined;
    if (!link) await new Promise((r) => setTimeout(r, 100));
  }
  if (!link) throw new Error(`no verification link for ${email} in the Worker's output`);
  const verified = await fetch(link, { redirect: "manual" });
  if (verified.status >= 400) throw new Error(`verification failed: ${verified.status}`);
  const key = await json(await post("/user/keys", { name: `sdk tests (${label})` }, String(reg.token)));
  return String((key.data as { key: string }).key);
}

type Suite = { name: string; command: string; args: string[]; env: Record<string, string> };
type Result = { name: string; code: number; log: string; seconds: number };

function run(suite: Suite): Promise<Result> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(suite.command, suite.args, { cwd: root, env: { ...process.env, ...suite.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    child.stdout.on("data", (c: Buffer) => {
      log += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      log += c.toString();
    });
    child.on("close", (code) => resolve({ name: suite.name, code: code ?? 1, log, seconds: (Date.now() - started) / 1000 }));
  });
}

/** Passed and failed tests of one suite, from its runner's summary (vitest `Tests  N passed`, pytest `N passed`); a check counts as one test. */
function counts(r: Result): { passed: number; failed: number } {
  const number = (re: RegExp) => Number(re.exec(r.log)?.[1] ?? 0);
  if (r.name === "typescript") return { passed: number(/Tests\s+(?:\d+ failed \| )?(\d+) passed/), failed: number(/Tests\s+(\d+) failed/) };
  if (r.name === "python") return { passed: number(/(\d+) passed/), failed: number(/(\d+) failed/) };
  return r.code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
}

async function main() {
  say(`preparing local state in ${STATE}`);
  const devKey = prepareState();
  say("state ready; starting wrangler dev");
  const worker = await startWorker();
  let failed = true;
  try {
    say(`Worker up on ${BASE}; signing up two free-plan accounts`);
    const [tsFree, pyFree] = [await freeKey("ts"), await freeKey("py")];
    // The landing page's SDK examples for this Worker's origin: each SDK's suite runs its own.
    const landing = examples(BASE);
    const common = { WILAYAH_BASE_URL: BASE, WILAYAH_API_KEY: devKey, WILAYAH_LANDING_JS: landing.js, WILAYAH_LANDING_PYTHON: landing.python };
    const python = process.env.CLIENTS_PYTHON ?? join(root, "clients", "python", ".venv", "bin", "python");
    const suites: Suite[] = [
      {
        name: "typescript",
        command: join(root, "node_modules", ".bin", "vitest"),
        args: ["run", "--config", join(root, "clients", "typescript", "vitest.config.ts")],
        env: { ...common, WILAYAH_FREE_KEY: tsFree },
      },
      {
        name: "python",
        command: python,
        args: ["-m", "pytest", "-q", "-p", "no:cacheprovider", join(root, "clients", "python", "tests")],
        env: { ...common, WILAYAH_FREE_KEY: pyFree },
      },
      {
        name: "generated code matches the document",
        command: process.execPath,
        args: [join(root, "clients", "generate.ts"), "--check", "--from", `${BASE}/openapi.json`],
        env: {},
      },
    ];
    say("running the suites and the checks");
    const results = await Promise.all(suites.map(run));
    for (const r of results) console.log(`\n===== ${r.name} (${r.seconds.toFixed(1)} s, exit ${r.code}) =====\n${r.log.trimEnd()}`);
    failed = results.some((r) => r.code !== 0);
    say(failed ? "FAILED" : "all passed");
    const total = results.map(counts).reduce((a, c) => ({ passed: a.passed + c.passed, failed: a.failed + c.failed }), { passed: 0, failed: 0 });
    // A suite that failed without a failed test (it did not start, a syntax error) still counts as one failure.
    const broken = results.filter((r) => r.code !== 0 && counts(r).failed === 0).length;
    console.log(`clients: ${total.passed} passed, ${total.failed + broken} failed`);
  } finally {
    stopWorker(worker);
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
