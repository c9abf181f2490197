/**
 * The node-side checks' database: an in-memory SQLite (node:sqlite) with every migration applied and
 * the lines of the committed seed (seed/wilayah.sql) that `keep` takes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { root } from "../../scripts/lib.ts";

export function seededMemoryDb(keep: (line: string) => boolean): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  for (const f of readdirSync(join(root, "migrations"))
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    for (const statement of readFileSync(join(root, "migrations", f), "utf8").split("--> statement-breakpoint")) if (statement.trim()) db.exec(statement);
  }
  db.exec(
    readFileSync(join(root, "seed", "wilayah.sql"), "utf8")
      .split("\n")
      .filter(keep)
      .join("\n"),
  );
  return db;
}
