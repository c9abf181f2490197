/**
 * Kelurahan/desa boundaries: built from seed/sources/wilayah-boundaries-kelurahan.csv.gz when they
 * are loaded (83,402 villages, about 35 MB of SQL; never committed). The other levels' boundaries
 * are part of seed/wilayah.sql.
 *
 *   npm run seed:boundaries                   # local D1 (npm run dev does this when needed)
 *   npm run seed:boundaries -- --remote       # the deployed D1 (README: "Deploy")
 *   npm run seed:boundaries -- --out FILE.sql # only write the SQL
 *
 * Loading twice leaves the same state (the level is emptied first). The last statement writes the
 * load marker `dataset` row `boundaries-kelurahan`, whose checksum seed/manifest.json names, so a
 * load cut short is redone by the next `npm run dev`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { boundarySql, kelurahanBoundariesChecksum, readBoundaries } from "./boundary-sql.ts";

export const KELURAHAN_MARKER = "boundaries-kelurahan";

/** The whole SQL for the kelurahan boundaries, marker last. `filter` keeps only some villages (tests). */
export function kelurahanBoundarySql(filter?: (id: string) => boolean): string {
  const all = readBoundaries("kelurahan");
  const list = filter ? all.filter((b) => filter(b.id)) : all;
  return `${boundarySql("kelurahan", list)}INSERT OR REPLACE INTO dataset (id, version, checksum) VALUES ('${KELURAHAN_MARKER}', 'wilayah_boundaries kelurahan', '${filter ? "partial" : kelurahanBoundariesChecksum()}');\n`;
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Writes the SQL to a file under .wrangler/ and runs it with `wrangler d1 execute`. */
export function loadKelurahanBoundaries(opts: { remote: boolean; persistArgs?: string[] }): void {
  const file = join(root, ".wrangler", "tmp", "boundaries-kelurahan.sql");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, kelurahanBoundarySql());
  const wrangler = join(root, "node_modules", ".bin", "wrangler");
  const args = ["d1", "execute", "DB", opts.remote ? "--remote" : "--local", ...(opts.persistArgs ?? []), "--file", file, ...(opts.remote ? ["--yes"] : [])];
  const r = spawnSync(wrangler, args, { cwd: root, env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout ?? ""}${r.stderr ?? ""}`);
    throw new Error(`wrangler ${args.join(" ")} failed (exit ${r.status})`);
  }
}

function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf("--out");
  if (at >= 0) {
    if (!args[at + 1]) throw new Error("--out needs a file path");
    writeFileSync(args[at + 1], kelurahanBoundarySql());
    return;
  }
  const t0 = Date.now();
  const persistArgs = process.env.WRANGLER_PERSIST_TO ? ["--persist-to", process.env.WRANGLER_PERSIST_TO] : [];
  loadKelurahanBoundaries({ remote: args.includes("--remote"), persistArgs });
  console.log(`Kelurahan boundaries loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main();
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
