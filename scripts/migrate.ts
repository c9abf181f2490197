/**
 * The local D1's migrations in one `wrangler d1 execute --file`: what `wrangler d1 migrations apply`
 * runs file by file (a file's SQL, then its name into wrangler's d1_migrations table), with one
 * local workerd started instead of one per file (24 files: 217 s against 33 s on a busy 2-core
 * machine). wrangler's own command sees them as applied. For scripts/dev.ts and the scripts' tests.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root, sqlString, type Target, targetArgs, wrangler } from "./lib.ts";

/** wrangler's own table of applied migrations (`wrangler d1 migrations apply` creates it the same way). */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "d1_migrations"(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`;

/** Applies the migrations the state has not had yet; returns how many. */
export function applyMigrations(target: Target): number {
  const out = wrangler(["d1", "execute", "DB", ...targetArgs(target), "--json", "--command", `${MIGRATIONS_TABLE}; SELECT name FROM d1_migrations`], {
    capture: true,
  });
  const applied = new Set(((JSON.parse(out) as { results: { name: string }[] }[]).at(-1)?.results ?? []).map((r) => r.name));
  const pending = readdirSync(join(root, "migrations"))
    .filter((f) => f.endsWith(".sql") && !applied.has(f))
    .sort();
  if (pending.length === 0) return 0;
  // A file of this run's own: another checkout's tool or a test may be migrating another state now.
  const dir = join(root, ".wrangler", "tmp");
  const file = join(dir, `migrations-${process.pid}-${Date.now()}.sql`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    file,
    pending.map((f) => `${readFileSync(join(root, "migrations", f), "utf8")}\nINSERT INTO d1_migrations (name) VALUES (${sqlString(f)});\n`).join("\n"),
  );
  try {
    wrangler(["d1", "execute", "DB", ...targetArgs(target), "--file", file], { capture: true });
  } finally {
    rmSync(file, { force: true });
  }
  return pending.length;
}
