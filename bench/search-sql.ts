/**
 * `npm run bench:search-sql`: the SQL cost of search, without HTTP or the Worker. Builds a SQLite
 * copy of the database (node:sqlite; every migration, then seed/wilayah.sql) in .wrangler/search-sql.db
 * when missing or older than the seed, then runs the real search service (src/wilayah/search/service.ts,
 * bundled with esbuild, wrangler's own bundler) on a D1 shim over it and prints, per query group of
 * the quality set and for a few named queries, the SQL time of each statement (warm: each query runs
 * once before it is timed) and the p50/p99 per group.
 *
 *   npm run bench:search-sql
 *   npm run bench:search-sql -- --runs 5                           (each query's median of 5 timed runs: steadier on a busy machine)
 *   npm run bench:search-sql -- bandung "gambir jakarta" bandng   (only these queries, with their statements)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { importBundled } from "../scripts/bundle.ts";
import { root } from "../scripts/lib.ts";
import { searchSqlDb, sqliteDb } from "../scripts/sqlite-d1.ts";

const loadService = () => importBundled<typeof import("../src/wilayah/search/service.ts")>("src/wilayah/search/service.ts", "search-sql-service");

async function main() {
  const sqlite = new DatabaseSync(searchSqlDb(), { readOnly: true });
  const timings: number[] = [];
  const db = sqliteDb(sqlite, (run) => timings.push(run.ms));
  const { search } = await loadService();
  const args = process.argv.slice(2);
  const at = args.indexOf("--runs");
  const runs = at >= 0 ? Math.max(1, Number(args[at + 1])) : 1;
  if (at >= 0) args.splice(at, 2);
  /** Warm once, then time `runs` runs: each statement's time is its median over them. */
  const run = async (q: string) => {
    await search(db, { q, includeInactive: false, page: 1, per_page: 20 });
    const samples: number[][] = [];
    let r: Awaited<ReturnType<typeof search>> | undefined;
    for (let i = 0; i < runs; i++) {
      timings.length = 0;
      r = await search(db, { q, includeInactive: false, page: 1, per_page: 20 });
      samples.push([...timings]);
    }
    const statements = samples[0].map((_, k) => samples.map((s) => s[k]).sort((a, b) => a - b)[Math.floor(runs / 2)]);
    return { total: r?.meta.total ?? 0, first: r?.data[0]?.id, statements };
  };
  const named = args;
  if (named.length) {
    for (const q of named) {
      const r = await run(q);
      console.log(`${q.padEnd(28)} ${r.statements.map((ms) => ms.toFixed(2)).join(" + ")} ms  (total ${r.total}, first ${r.first ?? "-"})`);
    }
    return;
  }
  const set: { group: string; q: string }[] = JSON.parse(readFileSync(join(root, "test", "fixtures", "search-queries.json"), "utf8"));
  const groups = new Map<string, { sum: number[]; rounds: number }>();
  const each: { q: string; group: string; ms: number }[] = [];
  for (const t of set) {
    const r = await run(t.q);
    const g = groups.get(t.group) ?? { sum: [], rounds: 0 };
    const ms = r.statements.reduce((a, b) => a + b, 0);
    each.push({ q: t.q, group: t.group, ms });
    g.sum.push(ms);
    g.rounds = Math.max(g.rounds, r.statements.length);
    groups.set(t.group, g);
  }
  const pct = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor((p / 100) * list.length))];
  console.log(`SQL ms per query (all statements of one search${runs > 1 ? `, median of ${runs} runs` : ""}), quality set of ${set.length} queries:`);
  console.log(`${"group".padEnd(14)}${"n".padStart(5)}${"mean".padStart(8)}${"p50".padStart(8)}${"p99".padStart(8)}${"max".padStart(8)}`);
  const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
  for (const [name, g] of groups)
    console.log(
      `${name.padEnd(14)}${String(g.sum.length).padStart(5)}${mean(g.sum).toFixed(2).padStart(8)}${pct(g.sum, 50).toFixed(2).padStart(8)}${pct(g.sum, 99).toFixed(2).padStart(8)}${Math.max(
        ...g.sum,
      )
        .toFixed(2)
        .padStart(8)}`,
    );
  console.log(
    `${"all".padEnd(14)}${String(each.length).padStart(5)}${mean(each.map((e) => e.ms))
      .toFixed(2)
      .padStart(8)}`,
  );
  console.log("\nSlowest queries of the set (ms):");
  for (const e of [...each].sort((a, b) => b.ms - a.ms).slice(0, 12)) console.log(`  ${e.ms.toFixed(2).padStart(6)}  ${e.group.padEnd(13)} ${e.q}`);
  console.log("\nNamed queries (statement times, ms):");
  for (const q of [
    "bandung",
    "ang",
    "ka",
    "jakarta selatan",
    "gambir jakarta",
    "coblong, kota bandung",
    "kuta badung bali",
    "kab garut",
    "kec. coblong",
    "3204",
    "32.73.09.1001",
    "40135",
    "jaksel",
    "bandng",
    "cirebn",
    "yogyakrata",
    "pangkalna jambi",
    "pematang siantar",
    "padangpanjang",
    "tg pinang",
    "kab bdg",
    "soerabaja, djawa timoer",
    "buitenzorg",
  ]) {
    const r = await run(q);
    console.log(`  ${q.padEnd(26)} ${r.statements.map((ms) => ms.toFixed(2)).join(" + ")}  (total ${r.total})`);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
