/**
 * Search quality without the Worker: the real search service (src/wilayah/search/service.ts,
 * bundled with esbuild as the Worker is) on a D1 shim over a node:sqlite copy of the data
 * (scripts/sqlite-d1.ts), over the committed quality set or fresh draws of it. The same rule as
 * test/wilayah/search-quality.test.ts (which runs the committed set through HTTP): the expected id in
 * the top 3 (a postal code: its villages all counted, the top 3 among them).
 *
 *   npm run search:quality                              every group of test/fixtures/search-queries.json
 *   npm run search:quality -- --seeds 1,2,3 [--group typo] [--misses]
 *       fresh draws (scripts/search-queries.ts buildQualitySet with these random seeds; the committed
 *       set is seed 15, drawn before issue 35's seed changes): per draw and group, then each group's mean
 *
 * A committed draw is one sample of the drawing rules: a fix tuned on it may not hold on the next
 * draw (issue 52: the typo group scored 42 of 48 on a new draw). The mean over several draws is the
 * figure docs/performance.md reports ("Search typos over fresh draws").
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { importBundled } from "./bundle.ts";
import { isMain, root, SEED_DIR } from "./lib.ts";
import { buildQualitySet } from "./search-queries.ts";
import type { QualityQuery } from "./search-queries-names.ts";
import { buildSeed } from "./seed/build.ts";
import { searchSqlDb, sqliteDb } from "./sqlite-d1.ts";

const TOP = 3;

type Service = typeof import("../src/wilayah/search/service.ts");
export type QualityGroup = { hits: number; total: number; misses: string[]; errors: number };

/** Each group's hits of `set` (the expected id in the top 3), by the search service given (the Worker's, bundled or imported). */
export async function rateSearch(
  search: Service["search"],
  db: Parameters<Service["search"]>[0],
  set: QualityQuery[],
  only?: string,
): Promise<Map<string, QualityGroup>> {
  const groups = new Map<string, QualityGroup>();
  for (const t of set) {
    if (only && t.group !== only) continue;
    const g = groups.get(t.group) ?? { hits: 0, total: 0, misses: [], errors: 0 };
    groups.set(t.group, g);
    g.total++;
    // node:sqlite's SQLite refuses a few of the longest statements (`VIEWs and/or subqueries nested
    // too deep`) that D1 runs: counted apart, never as a hit (the HTTP test runs them on D1).
    const r = await search(db, { q: t.q, includeInactive: false, page: 1, per_page: TOP }).catch((e: unknown) => {
      g.errors++;
      g.misses.push(`${t.q}: ERROR ${String((e as { cause?: unknown }).cause ?? e).slice(0, 80)}`);
      return null;
    });
    if (!r) continue;
    const top = r.data.map((x) => x.id);
    const hit = t.all ? r.meta.total === t.all.length && top.length > 0 && top.every((id) => t.all?.includes(id)) : top.includes(t.expected);
    if (hit) g.hits++;
    else g.misses.push(`${t.q} (want ${t.expected}${t.note ? `, ${t.note}` : ""}; got ${top.join(", ") || "nothing"})`);
  }
  return groups;
}

const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;

function report(title: string, groups: Map<string, QualityGroup>, misses: boolean): string {
  const lines = [title];
  for (const [name, g] of groups) {
    lines.push(
      `  ${name.padEnd(13)} ${String(g.hits).padStart(3)}/${String(g.total).padEnd(3)} ${pct(g.hits, g.total)}${g.errors ? `  (${g.errors} refused by node:sqlite)` : ""}`,
    );
    if (misses) for (const m of g.misses) lines.push(`      miss: ${m}`);
  }
  return lines.join("\n");
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const only = opt("--group");
  const misses = args.includes("--misses");
  const seeds = (opt("--seeds") ?? "").split(",").filter(Boolean).map(Number);
  const sqlite = new DatabaseSync(searchSqlDb(), { readOnly: true });
  const db = sqliteDb(sqlite);
  const { search } = await importBundled<Service>("src/wilayah/search/service.ts", "search-quality-service");
  if (!seeds.length) {
    const set = JSON.parse(readFileSync(join(root, "test", "fixtures", "search-queries.json"), "utf8")) as QualityQuery[];
    console.log(
      report(
        `committed set (${set.length} queries, test/fixtures/search-queries.json), expected id in the top ${TOP}:`,
        await rateSearch(search, db, set, only),
        misses,
      ),
    );
    return;
  }
  const built = await buildSeed(SEED_DIR);
  const sums = new Map<string, { hits: number; total: number; draws: number }>();
  for (const seed of seeds) {
    const groups = await rateSearch(search, db, await buildQualitySet(seed, built), only);
    console.log(report(`draw with random seed ${seed}:`, groups, misses));
    for (const [name, g] of groups) {
      const s = sums.get(name) ?? { hits: 0, total: 0, draws: 0 };
      sums.set(name, { hits: s.hits + g.hits, total: s.total + g.total, draws: s.draws + 1 });
    }
  }
  console.log(`over ${seeds.length} draws (seeds ${seeds.join(", ")}), each group's hits / queries:`);
  for (const [name, s] of sums) console.log(`  ${name.padEnd(13)} ${String(s.hits).padStart(4)}/${String(s.total).padEnd(4)} ${pct(s.hits, s.total)}`);
}

if (isMain(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
}
