/**
 * `npm run dev`: one command from a fresh clone to a running API on http://localhost:8787 (or the
 * port given). Applies migrations to local D1, loads the wilayah seed and the kelurahan boundaries
 * (built from their compressed source, scripts/seed/boundaries.ts) only when what is loaded differs
 * from seed/manifest.json, puts the bulk exports (scripts/seed/exports.ts) and the vector tiles
 * (scripts/seed/tiles.ts) into the local R2 when they are missing, makes sure a development API key exists (kept in .dev-key), runs `wrangler dev`
 * and, once it answers, prints the key last, on a line of its own.
 *
 *   npm run dev                      # port 8787
 *   npm run dev -- --port 8879       # another port (or PORT=8879 npm run dev)
 *   npm run dev -- --no-serve        # prepare only (CI smoke checks): prints the key and stops
 *   npm run dev -- --verbose         # wrangler's own output of the migrations (a table per file)
 *
 * Other arguments go to `wrangler dev`. WRANGLER_PERSIST_TO=DIR keeps all local state (D1, KV,
 * R2, Durable Objects) in DIR instead of .wrangler/state, and the key in DIR/dev-key: the benchmark
 * uses a state of its own that way.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { displayParts, generateKeySecret, hashKeySecret } from "../src/keys/secret.ts";
import { base64url, newId, randomBytes } from "../src/lib/crypto.ts";
import { devOptions, devSummary } from "./dev-options.ts";
import { d1, readDevVars, root, SEED_DIR, sqlString, type Target, targetArgs, toolEnv, wrangler, wranglerBin } from "./lib.ts";
import { KELURAHAN_MARKER, loadKelurahanBoundaries } from "./seed/boundaries.ts";
import { ensureLocalExports } from "./seed/exports.ts";
import { ensureLocalTiles } from "./seed/tiles.ts";

const persistTo = process.env.WRANGLER_PERSIST_TO;
const target: Target = { persistTo };
const keyFile = persistTo ? join(persistTo, "dev-key") : join(root, ".dev-key");

/**
 * The development user's `internal` plan, as an admin grants it: a subscription (here until 2100),
 * so the cron's billing run (which sets every plan from the running subscription) keeps it.
 */
function ensureInternalPlan(userId: string) {
  const until = Date.UTC(2100, 0, 1);
  d1(
    `INSERT OR IGNORE INTO subscriptions (id, user_id, plan_id, source, period_start, period_end, created_at) VALUES (${sqlString(`sub_dev_${userId}`)}, ${sqlString(userId)}, 'internal', ${sqlString(`admin:development-${userId}`)}, 0, ${until}, ${Date.now()})`,
    target,
  );
  d1(`UPDATE users SET plan = 'internal' WHERE id = ${sqlString(userId)} AND plan <> 'internal'`, target);
}

async function ensureDevKey(): Promise<string> {
  const email = "dev@localhost";
  const existing = d1(`SELECT id FROM users WHERE email = ${sqlString(email)}`, target)[0]?.id as string | undefined;
  if (existing) ensureInternalPlan(existing);
  if (existsSync(keyFile)) {
    const secret = readFileSync(keyFile, "utf8").trim();
    const hash = await hashKeySecret(secret);
    if (d1(`SELECT id FROM api_keys WHERE key_hash = ${sqlString(hash)} AND revoked_at IS NULL`, target).length > 0) return secret;
  }
  let userId = existing;
  if (!userId) {
    userId = newId("user");
    // "!" is no valid password hash: the development user cannot log in, it only owns the key. It is on
    // the `internal` plan (metered, not rate limited), so local tools and the benchmark are not throttled.
    d1(
      `INSERT INTO users (id, email, name, password_hash, email_verified, plan, created_at) VALUES (${sqlString(userId)}, ${sqlString(email)}, 'Local developer', '!', 1, 'internal', ${Date.now()})`,
      target,
    );
    ensureInternalPlan(userId);
  }
  const secret = generateKeySecret();
  const { prefix, last4 } = displayParts(secret);
  d1(
    `INSERT INTO api_keys (id, user_id, name, prefix, last4, key_hash, created_at) VALUES (${sqlString(newId("key"))}, ${sqlString(userId)}, 'development', ${sqlString(prefix)}, ${sqlString(last4)}, ${sqlString(await hashKeySecret(secret))}, ${Date.now()})`,
    target,
  );
  writeFileSync(keyFile, `${secret}\n`, { mode: 0o600 });
  return secret;
}

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

async function main() {
  const options = devOptions(process.argv.slice(2), process.env.PORT);
  const devVars = join(root, ".dev.vars");
  if (!existsSync(devVars)) {
    writeFileSync(devVars, readFileSync(join(root, ".dev.vars.example"), "utf8").replace(/^JWT_SECRET=.*$/m, `JWT_SECRET=${base64url(randomBytes(32))}`), {
      mode: 0o600,
    });
    console.log("Created .dev.vars with a random JWT_SECRET.");
  }
  // Quiet by default: wrangler prints a table per migration file (about 650 lines on a fresh state).
  const migrated = wrangler(["d1", "migrations", "apply", "DB", ...targetArgs(target)], { capture: !options.verbose });
  if (!options.verbose) console.log(/No migrations to apply/i.test(migrated) ? "Migrations: up to date." : "Migrations applied to the local D1.");
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
  // The bulk exports in the local R2 (built once per seed into .wrangler/exports/, uploaded to each state).
  await ensureLocalExports(SEED_DIR, persistTo);
  // The vector tiles (one PMTiles archive, built once per seed into .wrangler/tiles/, about 90 s).
  await ensureLocalTiles(SEED_DIR, persistTo);

  const key = await ensureDevKey();
  const summary = devSummary({ key, keyFile: keyFile.startsWith(root) ? keyFile.slice(root.length + 1) : keyFile, port: options.port, serving: options.serve });
  if (!options.serve) {
    console.log(summary);
    return;
  }
  const persist = persistTo ? ["--persist-to", persistTo] : [];
  // wrangler.toml says production (what every deploy must be); this local Worker is development: the console mailer prints links.
  // D1_GUARD: D1's production limits enforced locally (src/db/guard.ts).
  const development = ["--var", "ENVIRONMENT:development", "--var", "D1_GUARD:on"];
  // --test-scheduled: GET /__scheduled?cron=*+*+*+*+* runs the every-minute job (the webhook publisher)
  // at once, e.g. after loading a new edition locally; cron=*/5+*+*+*+* the five-minute jobs.
  const child = spawn(
    wranglerBin,
    ["dev", "--port", String(options.port), "--test-scheduled", ...persist, ...development, ...optionalSecretArgs(), ...options.wranglerArgs],
    // No Request.cf download (offline it fails with a stack trace, twice; the placeholder is used anyway).
    { cwd: root, env: { CLOUDFLARE_CF_FETCH_ENABLED: "false", ...toolEnv }, stdio: "inherit" },
  );
  child.on("exit", (code) => process.exit(code ?? 0));
  // The key last: after wrangler's start-up lines, once the Worker answers (else it scrolls away).
  for (let i = 0; i < 240 && child.exitCode === null; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const up = await fetch(`http://localhost:${options.port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
  }
  if (child.exitCode === null) console.log(summary);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
