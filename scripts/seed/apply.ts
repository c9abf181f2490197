/**
 * `npm run seed:apply -- --local | --remote`: puts the built seed (seed/wilayah.sql, and the
 * kelurahan boundaries when their marker differs) into D1 with no gap. Requests keep being answered
 * from the loaded data while the new data is loaded beside it; then one transaction swaps the two,
 * so every request reads the old edition or the new one, never a mixture, never a table half full.
 *
 *  1. stage: for every table the seed writes, `<table>__next` is created like it; tables the seed
 *     only partly rewrites (boundaries of the three upper levels beside the villages' own) are
 *     copied first, in slices; then the seed's statements run against the `__next` tables. Every
 *     statement stays within D1's limits (each under 100 KB, each slice a bounded copy).
 *  2. swap: one `d1 execute --command` (one D1 request, one transaction): each table is renamed to
 *     `<table>__old` and its `__next` takes its name, the indexes get their names back, and the
 *     `dataset` row (the data version every answer reports) changes with them.
 *  3. the `__old` tables stay until the next apply: `npm run seed:apply -- --local --rollback`
 *     swaps them back the same way (docs/api.md, "A new decree is out"; D1 Time Travel restores
 *     any earlier minute too).
 *
 *   npm run seed:apply -- --local [--persist-to DIR] [--force] [--rollback] [--notify URL] [--seed DIR]
 *   npm run seed:apply -- --remote [--force] [--rollback]
 *
 * `--seed DIR`: the built seed in DIR (a copy) instead of seed/.
 *
 * `--notify URL`: after the swap, GET URL (a local `wrangler dev --test-scheduled`'s
 * `/__scheduled?cron=...`) so the webhook publisher runs now instead of at its next minute.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { d1, d1Execute, isMain, root, seedDirArg, sqlString, type Target } from "../lib.ts";
import { KELURAHAN_MARKER, kelurahanBoundarySql } from "./boundaries.ts";

const NEXT = "__next";
const OLD = "__old";
/** Rows per copy statement of a partly rewritten table (village outlines are the largest rows: a few KB each). */
const COPY_SLICE = 2_000;

const WRITE = /^(?:DELETE FROM|INSERT INTO|INSERT OR REPLACE INTO)\s+`?(\w+)`?/;

/** The tables a seed SQL writes (`dataset` aside), and those it empties first (the others it rewrites in part). */
export function seedTables(sql: string): { tables: string[]; emptied: Set<string> } {
  const tables = new Set<string>();
  const emptied = new Set<string>();
  for (const line of sql.split("\n")) {
    const m = WRITE.exec(line);
    if (!m || m[1] === "dataset") continue;
    tables.add(m[1]);
    if (new RegExp(`^DELETE FROM\\s+\`?${m[1]}\`?;\\s*$`).test(line)) emptied.add(m[1]);
  }
  return { tables: [...tables].sort(), emptied };
}

/** Keywords a table name follows (a column named like a table, `wilayah_edition.provinsi`, follows none of them). */
const BEFORE_TABLE = new Set(["FROM", "INTO", "JOIN", "UPDATE", "TABLE", "EXISTS", "ON"]);

/**
 * `sql` with every table name of `names` given `suffix`, outside string literals only (names of
 * places are data: a village called "Pulau" stays one): a name right after FROM, INTO, JOIN,
 * UPDATE, TABLE, EXISTS or ON (CREATE INDEX ... ON t), or qualifying a column (`kelurahan.id`);
 * bare, in backticks or in double quotes. `indexName`: also this index name (DDL).
 */
export function renameTables(sql: string, names: Set<string>, suffix: string, indexName?: string): string {
  let out = "";
  let i = 0;
  let previous = "";
  const rename = (name: string, after: number) => {
    const qualifies = sql[after] === ".";
    return (names.has(name) && (BEFORE_TABLE.has(previous.toUpperCase()) || qualifies)) || name === indexName ? name + suffix : name;
  };
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'") {
      let j = i + 1;
      for (;;) {
        const q = sql.indexOf("'", j);
        if (q < 0) throw new Error("unterminated string literal in the seed SQL");
        if (sql[q + 1] === "'") j = q + 2;
        else {
          j = q + 1;
          break;
        }
      }
      out += sql.slice(i, j);
      i = j;
      previous = "'";
    } else if (c === "`" || c === '"') {
      const q = sql.indexOf(c, i + 1);
      const name = sql.slice(i + 1, q);
      out += `${c}${rename(name, q + 1)}${c}`;
      i = q + 1;
      previous = name;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i, i + 128)) as RegExpExecArray;
      out += rename(m[0], i + m[0].length);
      i += m[0].length;
      previous = m[0];
    } else {
      out += c;
      if (!/\s/.test(c)) previous = c;
      i++;
    }
  }
  return out;
}

/** Statements of a SQL text (one per line, as the seed scripts write them), without the `dataset` markers. */
const withoutMarkers = (sql: string) =>
  sql
    .split("\n")
    .filter((l) => !/^INSERT OR REPLACE INTO dataset\b/.test(l))
    .join("\n");
const markersOf = (sql: string) => sql.split("\n").filter((l) => /^INSERT OR REPLACE INTO dataset\b/.test(l));

type SchemaRow = { type: "table" | "index"; name: string; tbl_name: string; sql: string };

function schemaOf(tables: string[], t: Target): SchemaRow[] {
  const list = tables.map(sqlString).join(", ");
  return d1(`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE tbl_name IN (${list}) AND sql IS NOT NULL ORDER BY type DESC, name`, t) as SchemaRow[];
}

/** `CREATE [VIRTUAL] TABLE x` / `CREATE [UNIQUE] INDEX i ON x` with x (and i) suffixed. */
function renamedDdl(row: SchemaRow, suffix: string): string {
  return renameTables(row.sql, new Set([row.tbl_name]), suffix, row.type === "index" ? row.name : undefined);
}

export function stagingSql(opts: {
  seed: string;
  extra: string[];
  schema: SchemaRow[];
  emptied: Set<string>;
  tables: string[];
  maxRowids: Map<string, number>;
}): string {
  const names = new Set(opts.tables);
  const out: string[] = ["-- seed:apply staging (scripts/seed/apply.ts): the new data beside the loaded one."];
  // leftovers of an apply that stopped half-way, and the tables the apply before the last kept for rollback
  for (const t of opts.tables) out.push(`DROP TABLE IF EXISTS ${t}${NEXT};`, `DROP TABLE IF EXISTS ${t}${OLD};`);
  for (const row of opts.schema.filter((r) => r.type === "table")) out.push(`${renamedDdl(row, NEXT)};`);
  for (const t of opts.tables) {
    if (opts.emptied.has(t)) continue;
    const max = opts.maxRowids.get(t);
    if (max === undefined) {
      // WITHOUT ROWID (neighbours, gaps, coverage: small rows): one copy per level
      for (const level of [1, 2, 3, 4]) out.push(`INSERT INTO ${t}${NEXT} SELECT * FROM ${t} WHERE level = ${level};`);
    } else {
      for (let a = 0; a < max; a += COPY_SLICE) out.push(`INSERT INTO ${t}${NEXT} SELECT * FROM ${t} WHERE rowid > ${a} AND rowid <= ${a + COPY_SLICE};`);
    }
  }
  for (const row of opts.schema.filter((r) => r.type === "index")) out.push(`${renamedDdl(row, NEXT)};`);
  for (const sql of [opts.seed, ...opts.extra]) out.push(renameTables(withoutMarkers(sql), names, NEXT));
  return `${out.join("\n")}\n`;
}

/** The one transaction: `from` tables become `to`, the live ones `parked`; indexes keep their names; the markers change with them. */
export function swapSql(tables: string[], indexes: SchemaRow[], markers: string[], from = NEXT, parked = OLD): string {
  const out: string[] = [];
  for (const t of tables) out.push(`ALTER TABLE ${t} RENAME TO ${t}${parked};`, `ALTER TABLE ${t}${from} RENAME TO ${t};`);
  // The parked tables keep no index (a rollback builds them again); the live ones get their names back.
  for (const ix of indexes) out.push(`DROP INDEX IF EXISTS ${ix.name};`, `DROP INDEX IF EXISTS ${ix.name}${from};`, `${ix.sql};`);
  out.push(...markers);
  return out.join("\n");
}

/** A command of the apply on `t` (lib.ts d1Execute runs it again while the local database is locked; the staging starts by dropping what an earlier try left). */
function execute(t: Target, args: string[]): void {
  d1Execute(t, [...args, ...(t.remote ? ["--yes"] : [])]);
}

function loadedChecksums(t: Target): Map<string, string> {
  return new Map(d1(`SELECT id, checksum FROM dataset WHERE id IN ('wilayah', '${KELURAHAN_MARKER}')`, t).map((r) => [r.id as string, r.checksum as string]));
}

export type ApplyResult = { applied: boolean; seconds: { stage: number; swap: number }; statements: number };

/** Puts the seed built in `seedDir` into the D1 of `t`, with no gap (see above); nothing when it is loaded already. */
export async function applySeed(seedDir: string, t: Target, opts: { force?: boolean; notify?: string } = {}): Promise<ApplyResult> {
  const manifest = JSON.parse(readFileSync(join(seedDir, "manifest.json"), "utf8")) as {
    checksum: string;
    dataVersion: string;
    boundaries: { kelurahan: { checksum: string } };
  };
  const loaded = loadedChecksums(t);
  const villagesDiffer = loaded.get(KELURAHAN_MARKER) !== manifest.boundaries.kelurahan.checksum;
  if (!opts.force && loaded.get("wilayah") === manifest.checksum && !villagesDiffer) {
    console.log(`seed:apply: ${manifest.dataVersion} is already loaded (checksum ${manifest.checksum}).`);
    return { applied: false, seconds: { stage: 0, swap: 0 }, statements: 0 };
  }
  const seed = readFileSync(join(seedDir, "wilayah.sql"), "utf8");
  const extra = villagesDiffer ? [kelurahanBoundarySql(seedDir)] : [];
  const { tables, emptied } = seedTables([seed, ...extra].join("\n"));
  const schema = schemaOf(tables, t);
  const missing = tables.filter((x) => !schema.some((r) => r.type === "table" && r.name === x));
  if (missing.length)
    throw new Error(`seed:apply: the database has no table ${missing.join(", ")}: apply the migrations first (wrangler d1 migrations apply DB)`);
  const partial = tables.filter((x) => !emptied.has(x));
  const withRowid = partial.filter((x) => !/WITHOUT ROWID/i.test(schema.find((r) => r.type === "table" && r.name === x)?.sql ?? ""));
  const maxRowids = new Map(withRowid.map((x) => [x, Number(d1(`SELECT coalesce(max(rowid), 0) AS m FROM ${x}`, t)[0]?.m ?? 0)]));

  const dir = join(root, ".wrangler", "tmp");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "seed-apply-staging.sql");
  const staging = stagingSql({ seed, extra, schema, emptied, tables, maxRowids });
  writeFileSync(file, staging);
  const statements = staging.split("\n").filter((l) => l.trim() && !l.startsWith("--")).length;
  console.log(`seed:apply: staging ${manifest.dataVersion} beside the loaded data (${tables.length} tables, ${statements} statements)...`);
  const t0 = Date.now();
  execute(t, ["--file", file]);
  const t1 = Date.now();
  const previous = d1("SELECT version, checksum FROM dataset WHERE id = 'wilayah'", t)[0] as { version: string; checksum: string } | undefined;
  const markers = [
    ...markersOf(seed),
    ...extra.flatMap(markersOf),
    ...(previous
      ? [`INSERT OR REPLACE INTO dataset (id, version, checksum) VALUES ('wilayah-previous', ${sqlString(previous.version)}, ${sqlString(previous.checksum)});`]
      : []),
  ];
  const swap = swapSql(
    tables,
    schema.filter((r) => r.type === "index"),
    markers,
  );
  execute(t, ["--command", swap]);
  const t2 = Date.now();
  console.log(`seed:apply: ${manifest.dataVersion} is live (staged in ${((t1 - t0) / 1000).toFixed(1)} s, swapped in ${((t2 - t1) / 1000).toFixed(1)} s).`);
  if (opts.notify) await notify(opts.notify);
  return { applied: true, seconds: { stage: (t1 - t0) / 1000, swap: (t2 - t1) / 1000 }, statements };
}

/** Swaps the `__old` tables (the data before the last apply) back in, with their data version (the tables are those the seed in `seedDir` writes). */
export function rollbackSeed(seedDir: string, t: Target): void {
  const previous = d1("SELECT version, checksum FROM dataset WHERE id = 'wilayah-previous'", t)[0] as { version: string; checksum: string } | undefined;
  const seed = readFileSync(join(seedDir, "wilayah.sql"), "utf8");
  const { tables } = seedTables(seed);
  const parked = d1(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${tables.map((x) => sqlString(x + OLD)).join(", ")})`, t);
  if (!previous || parked.length !== tables.length) throw new Error("seed:apply --rollback: there is no earlier data to go back to (no apply kept one)");
  const current = d1("SELECT version, checksum FROM dataset WHERE id = 'wilayah'", t)[0] as { version: string; checksum: string };
  const indexes = schemaOf(tables, t).filter((r) => r.type === "index");
  const markers = [
    `INSERT OR REPLACE INTO dataset (id, version, checksum) VALUES ('wilayah', ${sqlString(previous.version)}, ${sqlString(previous.checksum)});`,
    `INSERT OR REPLACE INTO dataset (id, version, checksum) VALUES ('wilayah-previous', ${sqlString(current.version)}, ${sqlString(current.checksum)});`,
  ];
  // One transaction again: the live tables go to __swap, the __old ones go live, __swap becomes __old (a second rollback goes forward).
  const swap = swapSql(tables, indexes, [...tables.map((x) => `ALTER TABLE ${x}__swap RENAME TO ${x}${OLD};`), ...markers], OLD, "__swap");
  execute(t, ["--command", swap]);
  console.log(`seed:apply --rollback: ${previous.version} is live again.`);
}

async function notify(url: string): Promise<void> {
  try {
    const r = await fetch(url);
    console.log(`seed:apply: notified ${url} (${r.status}).`);
  } catch (e) {
    console.log(`seed:apply: could not notify ${url} (${e instanceof Error ? e.message : e}); the cron runs the publisher within a minute.`);
  }
}

async function main() {
  const args = process.argv.slice(2);
  const value = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  if (args.includes("--remote") === args.includes("--local")) throw new Error("seed:apply: say --local or --remote");
  const t: Target = { remote: args.includes("--remote"), persistTo: value("--persist-to") };
  const seedDir = seedDirArg(args);
  if (args.includes("--rollback")) rollbackSeed(seedDir, t);
  else await applySeed(seedDir, t, { force: args.includes("--force"), notify: value("--notify") });
}

if (isMain(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
