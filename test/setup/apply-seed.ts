/**
 * Runs before each test file inside workerd: applies the migrations to the test D1 and loads the
 * real wilayah seed, then the kelurahan/desa boundaries of a few areas
 * (test/setup/boundaries-subset.ts writes them). The files share one workerd (vitest.config.ts,
 * isolate: false), so only the first file of a run loads anything: the others find it loaded.
 */
import { applyD1Migrations, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";
import manifest from "../../seed/manifest.json";
import boundariesSql from "../.generated/kelurahan-boundaries.sql?raw";

// Provided by vitest.config.ts (readD1Migrations, seed/wilayah.sql); not bindings of the deployed Worker.
const { TEST_MIGRATIONS, TEST_SEED_SQL: seedSql } = env as unknown as { TEST_MIGRATIONS: D1Migration[]; TEST_SEED_SQL: string };
await applyD1Migrations(env.DB, TEST_MIGRATIONS);
const loaded = await env.DB.prepare("SELECT checksum FROM dataset WHERE id = 'wilayah'").first<{ checksum: string }>();
async function run(sql: string) {
  const statements = sql.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("--"));
  for (let i = 0; i < statements.length; i += 50) {
    await env.DB.batch(statements.slice(i, i + 50).map((s) => env.DB.prepare(s)));
  }
}
if (loaded?.checksum !== manifest.checksum) await run(seedSql);
const boundaries = await env.DB.prepare("SELECT checksum FROM dataset WHERE id = 'boundaries-kelurahan'").first<{ checksum: string }>();
if (!boundaries) await run(boundariesSql);
