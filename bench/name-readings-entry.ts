/**
 * Prototype wiring of name readings into search, for bench/name-readings.ts only (bundled by it with
 * esbuild, like bench/search-sql.ts bundles the service). It is the service's search (src/wilayah/
 * service.ts) with the query's name readings as more variants, ranked like the query as typed
 * (docs/name-readings.md, "Ranking"); the typo part is the service's, copied, because it is not
 * exported. Not used by the Worker: the lead wires readings into src/wilayah/search/.
 */
import seedNameTable from "../seed/name-table.json";
import seedVocabulary from "../seed/vocabulary.json";
import { replicaDb } from "../src/db/client";
import { WordList } from "../src/wilayah/names/lexicon";
import { type NameReading, nameReadings } from "../src/wilayah/names/readings";
import { NameTable, type NameTableJson } from "../src/wilayah/names/table";
import { normalizeSearchText } from "../src/wilayah/normalize";
import { type PlannedSource, searchPlannedSql, searchRows } from "../src/wilayah/queries";
import { editDistance, maxEdits, type QueryPlan, planQuery, typoCandidates } from "../src/wilayah/search-plan";
import { search } from "../src/wilayah/service";
import { vocabulary } from "../src/wilayah/vocabulary";

export { search };

const context = { lexicon: WordList.fromText(seedVocabulary.text), table: NameTable.fromJson(seedNameTable as NameTableJson) };

export function readingsOf(q: string): NameReading[] {
  return nameReadings(normalizeSearchText(q), context);
}

type Variant = { plan: QueryPlan; fuzzy: boolean };

function sourcesOf(variants: Variant[]): PlannedSource[] {
  const out: PlannedSource[] = [];
  variants.forEach(({ plan, fuzzy }, v) => {
    if (v === 0 && plan.code) out.push({ kind: "code", id: plan.code, h: 98 });
    if (v === 0 && plan.postal) out.push({ kind: "postal", postal: plan.postal, h: 99 });
    out.push({ kind: "literal", phrase: plan.literal.own, hint: lv(plan.literal.hint), fuzzy, h: v * 100 });
    if (plan.typed && !fuzzy) out.push({ kind: "literal", phrase: plan.typed.own, fuzzy, h: v === 0 ? 97 : v * 100 + 90 });
    plan.contexts.forEach((c, i) =>
      out.push({ kind: "context", own: c.own, hint: lv(c.hint), context: c.context.map((x) => ({ text: x.text, level: lv(x.level) })), fuzzy, h: v * 100 + i + 1 }),
    );
  });
  return out;
}
const LEVELS = ["provinsi", "kabupaten", "kecamatan", "kelurahan"];
const lv = (l?: string) => (l ? LEVELS.indexOf(l) + 1 : undefined);

// The service's typo variants (src/wilayah/service.ts corrected / typoFixes), copied.
function corrected(q: string, candidates: { q: string; w: string; n: number }[]): QueryPlan[] {
  const perWord = new Map<string, { w: string; d: number; n: number }[]>();
  for (const c of candidates) {
    const d = editDistance(c.q, c.w);
    if (d === 0 || d > maxEdits(c.q.length)) continue;
    const list = perWord.get(c.q);
    if (list) list.push({ w: c.w, d, n: c.n });
    else perWord.set(c.q, [{ w: c.w, d, n: c.n }]);
  }
  let combos: { q: string; d: number; k: number }[] = [{ q, d: 0, k: 0 }];
  for (const [word, list] of perWord) {
    const best = list.sort((a, b) => a.d - b.d || b.n - a.n || (a.w < b.w ? -1 : 1)).slice(0, 3);
    const re = new RegExp(`(?<![a-z0-9])${word}(?![a-z0-9])`, "g");
    combos = combos.flatMap((c) => best.map((b) => ({ q: c.q.replace(re, b.w), d: c.d + b.d, k: c.k + 1 }))).sort((a, b) => a.d - b.d).slice(0, 3);
  }
  return combos.filter((c) => c.k > 0).map((c) => planQuery(c.q));
}
/**
 * As the service's, but a word that a reading reads in today's spelling or from the table is no typo
 * (`timoer` is read `timur`, not also corrected to `timor`); a word split in two may still be one
 * (`sobanan` splits into `soba nan`, which finds nothing, and is the typo of `sobangan`).
 */
function typoFixes(q: string, plan: QueryPlan, read: Set<string>): QueryPlan[] {
  const words = typoCandidates(plan).filter((w) => !read.has(w));
  if (words.length === 0) return [];
  const vocab = vocabulary();
  const candidates = words.filter((w) => !vocab.startsAWord(w)).flatMap((w) => vocab.similarWords(w, maxEdits(w.length)).map((c) => ({ q: w, w: c.w, n: c.n })));
  return corrected(q, candidates);
}

/**
 * One planned statement: the query as typed, its readings (not fuzzy: ranked like the typed query),
 * and its typo corrections (fuzzy), or only the readings (`only: "readings"`). Rows carry `key` and
 * `h` (h / 100 = variant: 0 typed, 1.. readings, then typos).
 */
export async function searchWithReadings(env: Env, rawQ: string, opts: { limit: number; only?: "readings" }) {
  const q = normalizeSearchText(rawQ);
  const plan = planQuery(q);
  const readings = nameReadings(q, context);
  const variants: Variant[] = [];
  if (opts.only !== "readings") variants.push({ plan, fuzzy: false });
  for (const r of readings) variants.push({ plan: planQuery(r.q), fuzzy: false });
  const read = new Set(readings.flatMap((r) => r.rewrites.filter((w) => w.kind !== "spacing").flatMap((w) => w.typed.split(/[ .]+/))));
  if (opts.only !== "readings") for (const p of typoFixes(q, plan, read)) variants.push({ plan: p, fuzzy: true });
  if (variants.length === 0) return { readings, total: 0, rows: [] };
  const statement = searchPlannedSql(sourcesOf(variants), { includeInactive: false, limit: opts.limit, offset: 0 });
  const found = searchRows(await replicaDb(env).all(statement));
  return { readings, ...found };
}
