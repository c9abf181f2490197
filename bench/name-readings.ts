/**
 * Name readings (issue 28), measured before they are wired in: the top-3 rate of the name groups
 * (scripts/search-queries-names.ts) and of the existing quality set, under three rankings of a
 * reading's matches, and the SQL cost, on the SQLite copy of the database bench/search-sql.ts builds
 * (.wrangler/search-sql.db; run `npm run bench:search-sql` once first, or this builds it).
 *
 *   node scripts/boot.mjs node bench/name-readings.ts            (all groups)
 *   node scripts/boot.mjs node bench/name-readings.ts "bukit tinggi" sby   (these queries, top 5 each)
 *
 * Rankings of a region matched by a reading (its best reading match against its best typed match):
 * - same:  the reading's match ranks as if typed (exact with exact, ties by level, name, id);
 * - tier:  right after the typed matches of the same tier (exact, prefix, word);
 * - after: after every typed exact, prefix and word match, before typo corrections.
 * `same` is one statement with the readings as more non-fuzzy variants (bench/name-readings-entry.ts;
 * a word a reading rewrote is not also corrected as a typo), the others are merged here from the
 * typed search and a readings-only statement. SQL times: median of 5 warm runs, a page of 20.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { root } from "../scripts/lib.ts";
import { buildQualitySet } from "../scripts/search-queries.ts";
import { buildNameGroups } from "../scripts/search-queries-names.ts";

const DB_FILE = join(root, ".wrangler", "search-sql.db");
const SEED = join(root, "seed", "wilayah.sql");

function prepareDb() {
  if (existsSync(DB_FILE) && statSync(DB_FILE).mtimeMs > statSync(SEED).mtimeMs) return;
  mkdirSync(join(root, ".wrangler"), { recursive: true });
  rmSync(DB_FILE, { force: true });
  const db = new DatabaseSync(DB_FILE);
  for (const f of readdirSync(join(root, "migrations")).filter((f) => f.endsWith(".sql")).sort()) db.exec(readFileSync(join(root, "migrations", f), "utf8"));
  for (const statement of readFileSync(SEED, "utf8").split("\n")) if (statement.trim() && !statement.startsWith("--")) db.exec(statement);
  db.close();
}

type Row = { id: string; name: string; level: number; key: number; h: number };
const LEVELS = ["provinsi", "kabupaten", "kecamatan", "kelurahan"];
const binary = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function main() {
  prepareDb();
  const out = join(root, ".wrangler", "name-readings-entry.mjs");
  await build({ entryPoints: [join(root, "bench", "name-readings-entry.ts")], bundle: true, platform: "node", format: "esm", outfile: out, logLevel: "warning" });
  const m = (await import(pathToFileURL(out).href)) as typeof import("./name-readings-entry.ts");
  const sqlite = new DatabaseSync(DB_FILE, { readOnly: true });
  const timings: number[] = [];
  const stmt = (sql: string, params: unknown[] = []) => ({
    bind: (...p: unknown[]) => stmt(sql, p),
    all: async () => {
      const t = performance.now();
      const results = sqlite.prepare(sql).all(...(params as never[]));
      timings.push(performance.now() - t);
      return { results, success: true, meta: {} };
    },
  });
  const d1 = { prepare: (sql: string) => stmt(sql), batch: (list: ReturnType<typeof stmt>[]) => Promise.all(list.map((s) => s.all())), withSession: () => d1 };
  const env = { DB: d1 } as unknown as Env;
  /** Warm, then the median SQL time of RUNS runs (the machine is shared: one run is noise). */
  const RUNS = 5;
  const timed = async <T>(f: () => Promise<T>) => {
    let r = await f();
    const each: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      timings.length = 0;
      r = await f();
      each.push(timings.reduce((a, b) => a + b, 0));
    }
    return { r, ms: each.sort((a, b) => a - b)[RUNS >> 1] };
  };

  /** The typed search today (the service), as (id -> [base, miss]) in its order. */
  const typed = async (q: string) => {
    const ms = (await timed(() => m.search(env, { q, includeInactive: false, page: 1, per_page: 20 }))).ms;
    const res = await m.search(env, { q, includeInactive: false, page: 1, per_page: 50 });
    return { ms, rows: res.data, total: res.meta.total };
  };
  const ord = (a: { level: string | number; name: string; id: string }, b: typeof a) =>
    (typeof a.level === "number" ? a.level : LEVELS.indexOf(a.level) + 1) - (typeof b.level === "number" ? b.level : LEVELS.indexOf(b.level) + 1) || binary(a.name, b.name) || binary(a.id, b.id);

  async function run(q: string) {
    const today = await typed(q);
    const readings = m.readingsOf(q);
    if (readings.length === 0) return { readings, today: today.ms, same: today.ms, top: { same: today.rows.slice(0, 3).map((r) => r.id), tier: today.rows.slice(0, 3).map((r) => r.id), after: today.rows.slice(0, 3).map((r) => r.id) }, rows: today.rows };
    // Timed with a page of 20, as bench/search-sql.ts; ranked from a page of 50 (the merges below need more rows).
    const sameMs = (await timed(() => m.searchWithReadings(env, q, { limit: 20 }))).ms;
    const same = { r: await m.searchWithReadings(env, q, { limit: 50 }), ms: sameMs };
    const only = await m.searchWithReadings(env, q, { limit: 50, only: "readings" });
    // Typed rows: base rank from match type (the service's describe): exact 0, prefix 2, word 4, +6 fuzzy, substring 12.
    const baseOf = (t: string, fuzzy: boolean, context: boolean) => (t === "substring" ? 12 : (t === "exact" ? 0 : t === "prefix" ? 2 : t === "word" ? 4 : -4) + (context ? 1 : 0) + (fuzzy ? 6 : 0));
    const regions = new Map<string, { id: string; name: string; level: number; typed?: number; reading?: number }>();
    for (const r of today.rows) {
      const base = r.match.type === "code" ? -4 : r.match.type === "postal_code" ? -2 : baseOf(r.match.type, r.match.fuzzy, r.match.context.length > 0);
      regions.set(r.id, { id: r.id, name: r.name, level: LEVELS.indexOf(r.level) + 1, typed: base });
    }
    for (const r of only.rows as Row[]) {
      const cur = regions.get(r.id) ?? { id: r.id, name: r.name, level: r.level };
      const base = Math.floor(r.key / 2);
      cur.reading = Math.min(cur.reading ?? 99, base);
      regions.set(r.id, cur);
    }
    const rank = (mode: "tier" | "after") => (x: { typed?: number; reading?: number }) => {
      const t = x.typed === undefined ? 999 : mode === "after" && x.typed >= 6 ? x.typed + 6 : x.typed * 2;
      const r = x.reading === undefined ? 999 : mode === "after" ? x.reading + 6 : x.reading * 2 + 1;
      return Math.min(mode === "after" && x.typed !== undefined && x.typed < 6 ? x.typed : t, r);
    };
    const top = (mode: "tier" | "after") => [...regions.values()].sort((a, b) => rank(mode)(a) - rank(mode)(b) || ord(a, b)).slice(0, 3).map((r) => r.id);
    return { readings, today: today.ms, same: same.ms, top: { same: (same.r.rows as Row[]).slice(0, 3).map((r) => r.id), tier: top("tier"), after: top("after") }, rows: same.r.rows as Row[] };
  }

  const named = process.argv.slice(2);
  if (named.length) {
    for (const q of named) {
      const r = await run(q);
      console.log(`${q}: readings ${JSON.stringify(r.readings.map((x) => `${x.q} [${x.kind}]`))}; SQL ${r.today.toFixed(2)} -> ${r.same.toFixed(2)} ms`);
      for (const row of (r.rows as { id: string; name: string }[]).slice(0, 5)) console.log(`   ${row.id.padEnd(14)} ${row.name}`);
    }
    return;
  }
  const set = [...(await buildQualitySet()), ...(await buildNameGroups())];
  const groups = new Map<string, { n: number; hit: Record<string, number>; withReadings: number; today: number[]; same: number[]; misses: string[] }>();
  const slowest: { q: string; group: string; today: number; same: number; readings: string }[] = [];
  for (const t of set) {
    const r = await run(t.q);
    const g = groups.get(t.group) ?? { n: 0, hit: { same: 0, tier: 0, after: 0 }, withReadings: 0, today: [], same: [], misses: [] };
    g.n++;
    if (r.readings.length) g.withReadings++;
    for (const mode of ["same", "tier", "after"] as const) {
      const ok = t.all ? r.top[mode].length > 0 && r.top[mode].every((id) => t.all!.includes(id)) : r.top[mode].includes(t.expected);
      if (ok) g.hit[mode]++;
      else if (mode === "same") g.misses.push(`${t.q} (want ${t.expected}; read ${r.readings.map((x) => x.q).join(" | ") || "-"}; got ${r.top.same.join(", ")})`);
    }
    if (r.readings.length) slowest.push({ q: t.q, group: t.group, today: r.today, same: r.same, readings: r.readings.map((x) => x.q).join(" | ") });
    g.today.push(r.today);
    g.same.push(r.same);
    groups.set(t.group, g);
  }
  const pct = (x: number, n: number) => `${((100 * x) / n).toFixed(1)}%`.padStart(7);
  const mean = (l: number[]) => l.reduce((a, b) => a + b, 0) / l.length;
  const p = (l: number[], q: number) => [...l].sort((a, b) => a - b)[Math.min(l.length - 1, Math.floor(q * l.length))];
  console.log(`top-3 rate per ranking, and SQL ms (mean, p50, p99) today -> with readings (same), ${set.length} queries`);
  console.log(`${"group".padEnd(12)}${"n".padStart(5)}${"read".padStart(6)}${"same".padStart(8)}${"tier".padStart(8)}${"after".padStart(8)}   SQL mean/p50/p99 today -> with readings`);
  for (const [name, g] of groups) {
    console.log(
      `${name.padEnd(12)}${String(g.n).padStart(5)}${String(g.withReadings).padStart(6)}${pct(g.hit.same, g.n)}${pct(g.hit.tier, g.n)}${pct(g.hit.after, g.n)}   ${mean(g.today).toFixed(2)}/${p(g.today, 0.5).toFixed(2)}/${p(g.today, 0.99).toFixed(2)} -> ${mean(g.same).toFixed(2)}/${p(g.same, 0.5).toFixed(2)}/${p(g.same, 0.99).toFixed(2)}`,
    );
  }
  console.log("\nslowest queries with readings (SQL ms today -> with readings):");
  for (const x of slowest.sort((a, b) => b.same - a.same).slice(0, 12)) console.log(`  ${x.today.toFixed(2).padStart(6)} -> ${x.same.toFixed(2).padStart(6)}  ${x.group.padEnd(11)} ${x.q}  (${x.readings})`);
  console.log("\nmisses (same ranking):");
  for (const [name, g] of groups) for (const miss of g.misses) console.log(`  ${name.padEnd(11)} ${miss}`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
