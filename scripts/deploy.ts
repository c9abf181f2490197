/**
 * `npm run deploy`: the whole deployment in one command, safe to run again (docs/deploy.md). Each
 * step first asks the account what is there and acts only when something is missing or changed:
 *
 *  1. resources the steps before the Worker's upload need: the D1 database (migrations and the seed
 *     go into it before the Worker does), every R2 bucket (the exports and tiles go into EXPORTS),
 *     every queue (wrangler creates none); the KV namespace, declared without an id, is created by
 *     `wrangler deploy` itself (wrangler 4.45 and later provision bindings declared without ids);
 *  2. secrets: JWT_SECRET and WEBHOOK_SECRET_KEY generated when the Worker has none, uploaded with
 *     the deploy (`--secrets-file`), never printed; one already set is never replaced;
 *  3. the D1 migrations not yet applied;
 *  4. the seed, when the loaded data's checksums differ from seed/manifest.json: staged beside the
 *     loaded data and swapped in one transaction (scripts/seed/apply.ts: no gap);
 *  5. the bulk exports and 6. the vector tiles, when the bucket lacks the ones of this seed (their
 *     ids are made of the seed's checksums; each is uploaded with its marker last);
 *  7. `wrangler deploy`.
 *
 *   npm run deploy                              # everything missing or changed, then the Worker
 *   npm run deploy -- --plan                    # every step it would take against the account; changes nothing
 *   npm run deploy -- --dry-run --outdir DIR    # the bundle only, no account (wrangler deploy --dry-run; CI)
 *
 * Every wrangler call goes through the first `wrangler` on PATH (scripts/lib.ts): the test puts a
 * stand-in there that records what it is asked (scripts/deploy.test.ts).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportKey, MANIFEST_FILE } from "../src/wilayah/export/files.ts";
import { d1, isMain, root, SEED_DIR, wrangler, wranglerStatus } from "./lib.ts";
import { applySeed } from "./seed/apply.ts";
import { KELURAHAN_MARKER } from "./seed/boundaries.ts";
import { bucketName, currentExport, seedExportId, uploadRemote } from "./seed/exports.ts";
import { currentTiles, seedTilesId, tilesReportKey, uploadRemoteTiles } from "./seed/tiles.ts";

/** What the deployment declares (wrangler.toml), as the steps need it. */
export type Declared = { worker: string; database: string; buckets: string[]; queues: string[]; kv: string[] };

/** The secrets generated when absent: the sessions' key, and the key webhook signing secrets are encrypted under (docs/deploy.md). */
const GENERATED_SECRETS = ["JWT_SECRET", "WEBHOOK_SECRET_KEY"];

/** The builds behind the steps that take long (the test gives small ones). */
export type LocalWork = {
  applySeed(seedDir: string): Promise<void>;
  exports(seedDir: string): Promise<Parameters<typeof uploadRemote>>;
  tiles(seedDir: string): Parameters<typeof uploadRemoteTiles>;
};

const LOCAL_WORK: LocalWork = {
  async applySeed(seedDir) {
    await applySeed(seedDir, { remote: true });
  },
  async exports(seedDir) {
    const { dir, manifest } = await currentExport(seedDir);
    return [dir, manifest];
  },
  tiles(seedDir) {
    const { dir, report } = currentTiles(seedDir);
    return [dir, report];
  },
};

/** One step: what it is about, what it found, and the command it runs (null: nothing to do). */
export type Step = { what: string; found: string; run: string | null };

/** The part of wrangler's reading of wrangler.toml the steps use. */
type Config = {
  name?: string;
  d1_databases: { binding: string; database_name?: string }[];
  r2_buckets: { bucket_name?: string }[];
  queues: { producers?: { queue: string }[]; consumers?: { queue: string }[] };
  kv_namespaces: { binding: string; id?: string }[];
};

/** wrangler.toml's resources, read by wrangler itself. */
async function declared(): Promise<Declared> {
  const { unstable_readConfig } = await import("wrangler");
  const c = unstable_readConfig({ config: join(root, "wrangler.toml") }, { hideWarnings: true }) as unknown as Config;
  const database = c.d1_databases.find((d) => d.binding === "DB")?.database_name;
  if (!database) throw new Error("deploy: wrangler.toml declares no D1 database_name for the binding DB");
  return {
    worker: c.name ?? "wilayah-api",
    database,
    buckets: [...new Set(c.r2_buckets.map((b) => b.bucket_name).filter((b): b is string => typeof b === "string"))],
    queues: [...new Set([...(c.queues.producers ?? []).map((q) => q.queue), ...(c.queues.consumers ?? []).map((q) => q.queue)])],
    kv: c.kv_namespaces.filter((k) => !k.id).map((k) => k.binding),
  };
}

const json = <T>(text: string): T => JSON.parse(text.slice(text.search(/[[{]/))) as T;

/** The secrets the Worker has; an empty list when the Worker is not deployed yet. */
function secretNames(worker: string): string[] {
  const r = wranglerStatus(["secret", "list", "--format", "json"]);
  if (r.ok) return json<{ name: string }[]>(r.out).map((s) => s.name);
  if (/does not exist|10007|not found/i.test(r.out)) return [];
  throw new Error(`deploy: cannot list the secrets of ${worker}: ${r.out.slice(-400)}`);
}

/** The migrations not yet applied to the remote database (every file of migrations/ for a database not there yet). */
function pendingMigrations(databaseThere: boolean): string[] {
  if (!databaseThere) return readdirSync(join(root, "migrations")).filter((f) => f.endsWith(".sql"));
  const out = wrangler(["d1", "migrations", "list", "DB", "--remote"], { capture: true });
  return /No migrations to apply/i.test(out) ? [] : [...new Set(out.match(/\d{4}_[\w-]+\.sql/g) ?? [])];
}

/** The loaded data's checksums (the seed's, the village boundaries'); none when nothing is loaded. */
function loadedChecksums(databaseThere: boolean): Map<string, string> {
  if (!databaseThere) return new Map();
  try {
    const rows = d1(`SELECT id, checksum FROM dataset WHERE id IN ('wilayah', '${KELURAHAN_MARKER}')`, { remote: true });
    return new Map(rows.map((r) => [String(r.id), String(r.checksum)]));
  } catch {
    return new Map(); // no dataset table yet: the migrations come first
  }
}

const objectThere = (bucketThere: boolean, key: string) => bucketThere && wranglerStatus(["r2", "object", "get", key, "--remote", "--pipe"]).ok;

/**
 * Runs the deployment (or, with `plan`, only says what it would do) and returns its steps in order.
 * `say` prints a line; `work` the long builds.
 */
export async function deploy(opts: { plan: boolean; seedDir?: string }, work: LocalWork = LOCAL_WORK, say = console.log): Promise<Step[]> {
  const seedDir = opts.seedDir ?? SEED_DIR;
  const d = await declared();
  const steps: Step[] = [];
  const step = async (what: string, found: string, run: string | null, act?: () => unknown) => {
    steps.push({ what, found, run });
    say(`${opts.plan ? (run ? "would " : "skip  ") : run ? "run   " : "skip  "}${what}: ${found}${run ? ` -> ${run}` : ""}`);
    if (run && act && !opts.plan) await act();
  };

  const who = wranglerStatus(["whoami"]);
  if (!who.ok || /not authenticated/i.test(who.out)) throw new Error("deploy: wrangler is not logged in (npx wrangler login, or CLOUDFLARE_API_TOKEN)");
  say(`${opts.plan ? "Plan of the deployment of" : "Deploying"} ${d.worker} (each step: what it found, and what it runs):`);

  // 1. resources
  const databases = json<{ name: string }[]>(wrangler(["d1", "list", "--json"], { capture: true })).map((x) => x.name);
  const databaseThere = databases.includes(d.database);
  await step(`D1 database ${d.database}`, databaseThere ? "exists" : "absent", databaseThere ? null : `wrangler d1 create ${d.database}`, () =>
    wrangler(["d1", "create", d.database]),
  );
  const bucketsThere = new Set<string>();
  for (const bucket of d.buckets) {
    const there = wranglerStatus(["r2", "bucket", "info", bucket]).ok;
    if (there) bucketsThere.add(bucket);
    await step(`R2 bucket ${bucket}`, there ? "exists" : "absent", there ? null : `wrangler r2 bucket create ${bucket}`, () =>
      wrangler(["r2", "bucket", "create", bucket]),
    );
  }
  for (const queue of d.queues) {
    const there = wranglerStatus(["queues", "info", queue]).ok;
    await step(`queue ${queue}`, there ? "exists" : "absent", there ? null : `wrangler queues create ${queue}`, () => wrangler(["queues", "create", queue]));
  }

  // 2. secrets
  const secrets = secretNames(d.worker);
  const missing = GENERATED_SECRETS.filter((s) => !secrets.includes(s));
  await step(
    "secrets",
    missing.length ? `${missing.join(", ")} not set` : `${GENERATED_SECRETS.join(", ")} set`,
    missing.length ? `generate ${missing.join(", ")} (random, never shown) and upload them with the deploy` : null,
  );

  // 3. migrations
  const pending = pendingMigrations(databaseThere);
  await step(
    "D1 migrations",
    pending.length ? `${pending.length} not applied (${pending[0]}${pending.length > 1 ? ` .. ${pending.at(-1)}` : ""})` : "all applied",
    pending.length ? "wrangler d1 migrations apply DB --remote" : null,
    () => wrangler(["d1", "migrations", "apply", "DB", "--remote"]),
  );

  // 4. the seed
  const manifest = JSON.parse(readFileSync(join(seedDir, "manifest.json"), "utf8")) as {
    dataVersion: string;
    checksum: string;
    boundaries: { kelurahan: { checksum: string } };
  };
  const loaded = loadedChecksums(databaseThere);
  const seedCurrent = loaded.get("wilayah") === manifest.checksum && loaded.get(KELURAHAN_MARKER) === manifest.boundaries.kelurahan.checksum;
  await step(
    "the seed",
    seedCurrent ? `${manifest.checksum} loaded` : `loaded ${loaded.get("wilayah") ?? "nothing"}, built ${manifest.checksum} (${manifest.dataVersion})`,
    seedCurrent ? null : "npm run seed:apply -- --remote (staged beside the loaded data, swapped in one transaction)",
    () => work.applySeed(seedDir),
  );

  // 5. exports, 6. tiles: only when the bucket lacks this seed's
  const bucket = bucketName();
  const exportId = seedExportId(seedDir);
  const exportsThere = objectThere(bucketsThere.has(bucket), `${bucket}/${exportKey(exportId, MANIFEST_FILE)}`);
  await step(
    `bulk exports ${exportId}`,
    exportsThere ? "uploaded" : "not in the bucket",
    exportsThere ? null : "build (.wrangler/exports) and upload with wrangler r2 object put --remote, manifest last",
    async () => uploadRemote(...(await work.exports(seedDir))),
  );
  const tilesId = seedTilesId(seedDir);
  const tilesThere = objectThere(bucketsThere.has(bucket), `${bucket}/${tilesReportKey(tilesId)}`);
  await step(
    `vector tiles ${tilesId}`,
    tilesThere ? "uploaded" : "not in the bucket",
    tilesThere ? null : "build (.wrangler/tiles) and upload with wrangler r2 object put --remote, report last",
    () => uploadRemoteTiles(...work.tiles(seedDir)),
  );

  // 7. the Worker (creates the KV namespaces declared without an id)
  const kv = d.kv.length ? ` (creates the KV namespace of ${d.kv.join(", ")} when absent: declared without an id)` : "";
  await step("the Worker", `wrangler deploy${kv}`, "wrangler deploy", () => deployWorker(missing));
  return steps;
}

/** `wrangler deploy`, with the missing secrets generated into a file of our own that is deleted after. */
function deployWorker(missing: string[]): void {
  if (!missing.length) {
    wrangler(["deploy"]);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "wilayah-deploy-"));
  const file = join(dir, "secrets.json");
  try {
    writeFileSync(file, JSON.stringify(Object.fromEntries(missing.map((s) => [s, randomBytes(48).toString("base64")]))), { mode: 0o600 });
    wrangler(["deploy", "--secrets-file", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes("--dry-run")) {
    // The bundle only: no account is asked anything (CI's deploy-dry-run phase).
    wrangler(["deploy", ...args]);
    return;
  }
  const unknown = args.filter((a) => a !== "--plan");
  if (unknown.length) throw new Error(`deploy: unknown argument ${unknown[0]} (--plan, or --dry-run --outdir DIR)`);
  const steps = await deploy({ plan: args.includes("--plan") });
  const todo = steps.filter((s) => s.run).length;
  console.log(args.includes("--plan") ? `${todo} of ${steps.length} steps would run; nothing was changed.` : `Deployed: ${todo} of ${steps.length} steps ran.`);
}

if (isMain(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
