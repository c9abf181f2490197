/**
 * Runs before each test file inside workerd: applies the migrations to the test D1 and loads the
 * real wilayah seed (skipped when this storage already holds it), then the kelurahan/desa
 * boundaries of a few areas (test/setup/boundaries-subset.ts writes them).
 */
import { applyD1Migrations, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";
import manifest from "../../seed/manifest.json";
import seedSql from "../../seed/wilayah.sql?raw";
import boundariesSql from "../.generated/kelurahan-boundaries.sql?raw";

// Provided by vitest.config.ts (readD1Migrations); not a binding of the deployed Worker.
const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: D1Migration[] };
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
