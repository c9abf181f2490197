/**
 * `npm run dev`: one command from a fresh clone to a running API on http://localhost:8787.
 * Installs dependencies when missing, applies migrations to local D1, loads the wilayah seed and the
 * kelurahan boundaries (built from their compressed source, scripts/boundaries.ts) only when what is
 * loaded differs from seed/manifest.json, makes sure a development API key exists
 * (kept in .dev-key), prints it, then runs `wrangler dev`.
 *
 *   npm run dev -- --no-serve   # prepare only (used by the benchmark and CI smoke checks)
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { displayParts, generateKeySecret, hashKeySecret, newId } from "../src/keys/secret.ts";
import { KELURAHAN_MARKER, loadKelurahanBoundaries } from "./boundaries.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const wranglerBin = join(root, "node_modules", ".bin", "wrangler");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const persistArgs = process.env.WRANGLER_PERSIST_TO ? ["--persist-to", process.env.WRANGLER_PERSIST_TO] : [];

function run(cmd: string, args: string[], opts: { capture?: boolean } = {}): string {
  const r = spawnSync(cmd, args, { cwd: root, env, encoding: "utf8", stdio: opts.capture ? ["ignore", "pipe", "pipe"] : "inherit" });
  if (r.status !== 0) {
    if (opts.capture) process.stderr.write(`${r.stdout ?? ""}${r.stderr ?? ""}`);
    throw new Error(`${cmd} ${args.join(" ")} failed (exit ${r.status})`);
  }
  return r.stdout ?? "";
}

function d1(sqlCommand: string): Record<string, unknown>[] {
  const out = run(wranglerBin, ["d1", "execute", "DB", "--local", ...persistArgs, "--json", "--command", sqlCommand], { capture: true });
  const parsed = JSON.parse(out) as { results: Record<string, unknown>[] }[];
  return parsed[0]?.results ?? [];
}

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

async function ensureDevKey(): Promise<string> {
  const email = "dev@localhost";
  d1(`UPDATE users SET plan = 'internal' WHERE email = ${sqlString(email)} AND plan <> 'internal'`);
  const keyFile = join(root, ".dev-key");
  if (existsSync(keyFile)) {
    const secret = readFileSync(keyFile, "utf8").trim();
    const hash = await hashKeySecret(secret);
    if (d1(`SELECT id FROM api_keys WHERE key_hash = ${sqlString(hash)} AND revoked_at IS NULL`).length > 0) return secret;
  }
  let userId = d1(`SELECT id FROM users WHERE email = ${sqlString(email)}`)[0]?.id as string | undefined;
  if (!userId) {
    userId = newId("user");
    // "!" is no valid password hash: the development user cannot log in, it only owns the key. It is on
    // the `internal` plan (metered, not rate limited), so local tools and the benchmark are not throttled.
    d1(
      `INSERT INTO users (id, email, name, password_hash, email_verified, plan, created_at) VALUES (${sqlString(userId)}, ${sqlString(email)}, 'Local developer', '!', 1, 'internal', ${Date.now()})`,
    );
  }
  const secret = generateKeySecret();
  const { prefix, last4 } = displayParts(secret);
  d1(
    `INSERT INTO api_keys (id, user_id, name, prefix, last4, key_hash, created_at) VALUES (${sqlString(newId("key"))}, ${sqlString(userId)}, 'development', ${sqlString(prefix)}, ${sqlString(last4)}, ${sqlString(await hashKeySecret(secret))}, ${Date.now()})`,
  );
  writeFileSync(keyFile, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * wrangler.toml lists JWT_SECRET as the one required secret; with a [secrets] section, `wrangler dev`
 * loads only required secrets from .dev.vars. The optional ones (Tripay, Turnstile, Resend) found in
 * .dev.vars are passed on as local vars, so .dev.vars works for them too.
 */
function optionalSecretArgs(devVars: string): string[] {
  const optional = ["JWT_SECRET_PREVIOUS", "TURNSTILE_SECRET", "RESEND_API_KEY", "TRIPAY_API_KEY", "TRIPAY_PRIVATE_KEY", "TRIPAY_MERCHANT_CODE"];
  const args: string[] = [];
  for (const line of readFileSync(devVars, "utf8").split("\n")) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m && optional.includes(m[1]) && m[2] !== "") args.push("--var", `${m[1]}:${m[2]}`);
  }
  return args;
}

async function main() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 12)) throw new Error(`Node ${process.versions.node}: wrangler needs Node 22.12 or newer (README: "Set up").`);
  if (!existsSync(wranglerBin)) run("npm", ["install", "--no-audit", "--no-fund"]);

  const devVars = join(root, ".dev.vars");
  if (!existsSync(devVars)) {
    const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    writeFileSync(devVars, readFileSync(join(root, ".dev.vars.example"), "utf8").replace(/^JWT_SECRET=.*$/m, `JWT_SECRET=${secret}`), { mode: 0o600 });
    console.log("Created .dev.vars with a random JWT_SECRET.");
  }
  run(wranglerBin, ["d1", "migrations", "apply", "DB", "--local", ...persistArgs]);
  const manifest = JSON.parse(readFileSync(join(root, "seed", "manifest.json"), "utf8")) as {
    checksum: string;
    dataVersion: string;
    boundaries: { kelurahan: { checksum: string } };
  };
  const markers = new Map(d1(`SELECT id, checksum FROM dataset WHERE id IN ('wilayah', '${KELURAHAN_MARKER}')`).map((r) => [r.id, r.checksum]));
  const loaded = markers.get("wilayah");
  if (loaded === manifest.checksum) {
    console.log(`wilayah data already loaded (${manifest.dataVersion}).`);
  } else {
    console.log(`Loading wilayah seed (${manifest.dataVersion})...`);
    const t0 = Date.now();
    run(wranglerBin, ["d1", "execute", "DB", "--local", ...persistArgs, "--file", join("seed", "wilayah.sql")], { capture: true });
    console.log(`Seed loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
  }
  if (markers.get(KELURAHAN_MARKER) !== manifest.boundaries.kelurahan.checksum) {
    console.log("Loading kelurahan/desa boundaries (built from seed/sources/wilayah-boundaries-kelurahan.csv.gz)...");
    const t0 = Date.now();
    loadKelurahanBoundaries({ remote: false, persistArgs });
    console.log(`Boundaries loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
  }

  const key = await ensureDevKey();
  console.log(`\nDevelopment API key (also in .dev-key):\n\n  ${key}\n\nTry:\n  curl -H "x-api-key: ${key}" http://localhost:8787/api/v1/wilayah/search?q=bandung\n`);

  if (process.argv.includes("--no-serve")) return;
  const child = spawn(wranglerBin, ["dev", "--port", "8787", ...persistArgs, ...optionalSecretArgs(devVars), ...process.argv.slice(2)], { cwd: root, env, stdio: "inherit" });
  child.on("exit", (code) => process.exit(code ?? 0));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
