/**
 * `npm run dev`: one command from a fresh clone to a running API on http://localhost:8787 (or the
 * port given). Applies migrations to local D1, loads the wilayah seed and the kelurahan boundaries
 * (built from their compressed source, scripts/seed/boundaries.ts) only when what is loaded differs
 * from seed/manifest.json, makes sure a development API key exists (kept in .dev-key), runs
 * `wrangler dev` and, once it answers, prints the key last, on a line of its own. Then, in the
 * background (./dev-files.ts, at a lower priority), it puts the bulk exports
 * (scripts/seed/exports.ts) and the vector tiles (scripts/seed/tiles.ts) into the local R2 when they
 * are missing: minutes of work on a first start that no other call waits for.
 *
 *   npm run dev                      # port 8787
 *   npm run dev -- --port 8879       # another port (or PORT=8879 npm run dev)
 *   npm run dev -- --no-serve        # prepare the data and the key only (CI smoke checks, the suites): prints the key and stops
 *   npm run dev -- --no-serve --exports --tiles   # ... and the bulk exports and the vector tiles, in the foreground
 *   npm run dev -- --verbose         # wrangler's own output of the migrations (a table per file)
 *
 * Other arguments go to `wrangler dev`. WRANGLER_PERSIST_TO=DIR keeps all local state (D1, KV,
 * R2, Durable Objects) in DIR instead of .wrangler/state, and the key in DIR/dev-key: the benchmark
 * uses a state of its own that way.
 */
import { spawn } from "node:child_process";
import { lookup } from "node:dns/promises";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { setPriority } from "node:os";
import { join } from "node:path";
import { displayParts, generateKeySecret, hashKeySecret } from "../src/keys/secret.ts";
import { base64url, newId, randomBytes } from "../src/lib/crypto.ts";
import { devOptions, devSummary } from "./dev-options.ts";
import { d1, readDevVars, root, SEED_DIR, sqlString, type Target, targetArgs, toolEnv, wrangler, wranglerBin } from "./lib.ts";
import { applyMigrations } from "./migrate.ts";
import { KELURAHAN_MARKER, loadKelurahanBoundaries } from "./seed/boundaries.ts";

const persistTo = process.env.WRANGLER_PERSIST_TO;
const target: Target = { persistTo };
const keyFile = persistTo ? join(persistTo, "dev-key") : join(root, ".dev-key");

/**
 * The development user's `internal` plan, as an admin grants it: a subscription (here until 2100),
 * so the cron's billing run (which sets every plan from the running subscription) keeps it. SQL for
 * one `d1 execute` with the other statements (each wrangler call starts a local workerd: seconds).
 */
function internalPlanSql(userId: string): string {
  const until = Date.UTC(2100, 0, 1);
  return [
    `INSERT OR IGNORE INTO subscriptions (id, user_id, plan_id, source, period_start, period_end, created_at) VALUES (${sqlString(`sub_dev_${userId}`)}, ${sqlString(userId)}, 'internal', ${sqlString(`admin:development-${userId}`)}, 0, ${until}, ${Date.now()})`,
    `UPDATE users SET plan = 'internal' WHERE id = ${sqlString(userId)} AND plan <> 'internal'`,
  ].join("; ");
}

/** The development user and a key of theirs: one read, then (when something is missing) one write. */
async function ensureDevKey(): Promise<string> {
  const email = "dev@localhost";
  const held = existsSync(keyFile) ? readFileSync(keyFile, "utf8").trim() : "";
  const [row] = d1(
    `SELECT u.id AS user_id, u.plan = 'internal' AND EXISTS (SELECT 1 FROM subscriptions WHERE id = 'sub_dev_' || u.id) AS internal,
      (SELECT count(*) FROM api_keys WHERE key_hash = ${sqlString(held ? await hashKeySecret(held) : "")} AND revoked_at IS NULL) AS keys
     FROM (SELECT 1) LEFT JOIN users u ON u.email = ${sqlString(email)}`,
    target,
  );
  const existing = (row?.user_id as string | null) ?? undefined;
  if (existing && held && Number(row?.keys) > 0) {
    if (!row?.internal) d1(internalPlanSql(existing), target);
    return held;
  }
  const userId = existing ?? newId("user");
  const secret = generateKeySecret();
  const { prefix, last4 } = displayParts(secret);
  d1(
    [
      // "!" is no valid password hash: the development user cannot log in, it only owns the key. It is on
      // the `internal` plan (metered, not rate limited), so local tools and the benchmark are not throttled.
      ...(existing
        ? []
        : [
            `INSERT INTO users (id, email, name, password_hash, email_verified, plan, created_at) VALUES (${sqlString(userId)}, ${sqlString(email)}, 'Local developer', '!', 1, 'internal', ${Date.now()})`,
          ]),
      internalPlanSql(userId),
      `INSERT INTO api_keys (id, user_id, name, prefix, last4, key_hash, created_at) VALUES (${sqlString(newId("key"))}, ${sqlString(userId)}, 'development', ${sqlString(prefix)}, ${sqlString(last4)}, ${sqlString(await hashKeySecret(secret))}, ${Date.now()})`,
    ].join("; "),
    target,
  );
  writeFileSync(keyFile, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** A wrangler dev registry folder of this state's own (see the Worker's start below). */
const registry = (name: string) => join(persistTo ?? join(root, ".wrangler", "state"), "registry", name);

/**
 * wrangler.toml lists JWT_SECRET as the one required secret; with a [secrets] section, `wrangler dev`
 * loads only required secrets from .dev.vars. The optional ones (Tripay, Turnstile, Resend) found in
 * .dev.vars are passed on as local vars, so .dev.vars works for them too.
 */
function optionalSecretArgs(): string[] {
  const optional = [
    "JWT_SECRET_PREVIOUS",
    "TURNSTILE_SECRET",
    "RESEND_API_KEY",
    "TRIPAY_API_KEY",
    "TRIPAY_PRIVATE_KEY",
    "TRIPAY_MERCHANT_CODE",
    "GOOGLE_CLIENT_SECRET",
    "GITHUB_CLIENT_SECRET",
    "WEBHOOK_SECRET_KEY",
  ];
  return Object.entries(readDevVars())
    .filter(([k, v]) => optional.includes(k) && v !== "")
    .flatMap(([k, v]) => ["--var", `${k}:${v}`]);
}

/**
 * Offline, every sign-up would print the runtime's failed lookup of the breached-password list
 * (a framed error block, though the sign-up succeeds): when its host does not resolve, the check is
 * off for this run, said once here. wrangler.toml's BREACHED_PASSWORDS_URL names it.
 */
async function offlineVars(): Promise<string[]> {
  const url = /^BREACHED_PASSWORDS_URL\s*=\s*"([^"]*)"/m.exec(readFileSync(join(root, "wrangler.toml"), "utf8"))?.[1];
  if (!url) return [];
  const host = new URL(url).hostname;
  const resolves = await Promise.race([
    lookup(host).then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((r) => setTimeout(() => r(false), 3000)),
  ]);
  if (resolves) return [];
  console.log(`Offline: ${host} does not resolve, so new passwords are not checked against the breached-password list in this run.`);
  return ["--var", "BREACHED_PASSWORDS_URL:"];
}

async function main() {
  const options = devOptions(process.argv.slice(2), process.env.PORT);
  const devVars = join(root, ".dev.vars");
  if (!existsSync(devVars)) {
    writeFileSync(devVars, readFileSync(join(root, ".dev.vars.example"), "utf8").replace(/^JWT_SECRET=.*$/m, `JWT_SECRET=${base64url(randomBytes(32))}`), {
      mode: 0o600,
    });
    console.log("Created .dev.vars with a random JWT_SECRET.");
  }
  if (options.verbose) {
    // wrangler's own command and output (a table per migration file, about 650 lines on a fresh state)
    wrangler(["d1", "migrations", "apply", "DB", ...targetArgs(target)]);
  } else {
    const t0 = Date.now();
    const n = applyMigrations(target);
    console.log(n === 0 ? "Migrations: up to date." : `${n} migrations applied to the local D1 in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
  }
  const manifest = JSON.parse(readFileSync(join(root, "seed", "manifest.json"), "utf8")) as {
    checksum: string;
    dataVersion: string;
    boundaries: { kelurahan: { checksum: string } };
  };
  const markers = new Map(d1(`SELECT id, checksum FROM dataset WHERE id IN ('wilayah', '${KELURAHAN_MARKER}')`, target).map((r) => [r.id, r.checksum]));
  const loaded = markers.get("wilayah");
  if (loaded === manifest.checksum) {
    console.log(`wilayah data already loaded (${manifest.dataVersion}).`);
  } else {
    console.log(`Loading wilayah seed (${manifest.dataVersion})...`);
    const t0 = Date.now();
    wrangler(["d1", "execute", "DB", ...targetArgs(target), "--file", join("seed", "wilayah.sql")], { capture: true });
    console.log(`Seed loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
  }
  if (markers.get(KELURAHAN_MARKER) !== manifest.boundaries.kelurahan.checksum) {
    console.log("Loading kelurahan/desa boundaries (built from seed/sources/wilayah-boundaries-kelurahan.csv.gz)...");
    const t0 = Date.now();
    loadKelurahanBoundaries(SEED_DIR, target);
    console.log(`Boundaries loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
  }
  const key = await ensureDevKey();
  const summary = devSummary({ key, keyFile: keyFile.startsWith(root) ? keyFile.slice(root.length + 1) : keyFile, port: options.port, serving: options.serve });
  if (!options.serve) {
    // Asked for: the bulk exports (built once per seed into .wrangler/exports/, uploaded to each
    // state) and the vector tiles (one PMTiles archive, built once per seed into .wrangler/tiles/).
    // Imported only then: the tiles' build uses node:sqlite, whose import prints an experimental-feature warning.
    if (options.exports) await (await import("./seed/exports.ts")).ensureLocalExports(SEED_DIR, persistTo);
    if (options.tiles) await (await import("./seed/tiles.ts")).ensureLocalTiles(SEED_DIR, persistTo);
    console.log(summary);
    return;
  }
  const persist = persistTo ? ["--persist-to", persistTo] : [];
  // wrangler.toml says production (what every deploy must be); this local Worker is development: the console mailer prints links.
  // D1_GUARD: D1's production limits enforced locally (src/db/guard.ts). PAYMENT_SIMULATOR: without
  // Tripay's sandbox credentials in .dev.vars, invoices are paid from the portal (src/billing/simulator.ts).
  const development = ["--var", "ENVIRONMENT:development", "--var", "D1_GUARD:on", "--var", "PAYMENT_SIMULATOR:on"];
  // --test-scheduled: GET /__scheduled?cron=*+*+*+*+* runs the every-minute job (the webhook publisher)
  // at once, e.g. after loading a new edition locally; cron=*/5+*+*+*+* the five-minute jobs.
  const child = spawn(
    wranglerBin,
    [
      "dev",
      "--port",
      String(options.port),
      "--test-scheduled",
      ...persist,
      ...development,
      ...(await offlineVars()),
      ...optionalSecretArgs(),
      ...options.wranglerArgs,
    ],
    // No Request.cf download (offline it fails with a stack trace, twice; the placeholder is used anyway).
    // A dev registry of this state's own: wrangler's default is one per machine, and each Worker any
    // checkout starts or stops there reprints this one's bindings table ("Connection status updated").
    { cwd: root, env: { CLOUDFLARE_CF_FETCH_ENABLED: "false", ...toolEnv, WRANGLER_REGISTRY_PATH: registry("dev") }, stdio: "inherit" },
  );
  let files: ReturnType<typeof spawn> | undefined;
  child.on("exit", (code) => {
    files?.kill();
    process.exit(code ?? 0);
  });
  // The key last: after wrangler's start-up lines, once the Worker answers (else it scrolls away).
  for (let i = 0; i < 240 && child.exitCode === null; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const up = await fetch(`http://localhost:${options.port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
  }
  if (child.exitCode !== null) return;
  console.log(summary);
  // The bulk exports and the tiles, after the first answer and below the Worker's priority: a
  // newcomer's first calls need neither, and they cost minutes of CPU on a first start.
  files = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", join(root, "scripts", "dev-files.ts")], {
    cwd: root,
    env: { ...toolEnv, WRANGLER_REGISTRY_PATH: registry("files") },
    stdio: "inherit",
  });
  if (files.pid) setPriority(files.pid, 10);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
