/**
 * Search (docs/api.md, "Search"): reads the query (plan.ts), corrects typos from the isolate's
 * vocabulary (vocabulary.ts), runs one statement (queries.ts) and says why each region matched
 * (protocol.ts). Knows nothing of HTTP.
 */
import type { RegionDb } from "../../db/client";
import { ApiError } from "../../lib/errors";
import { type Paging, pageWindow } from "../../lib/paging";
import { LEVELS, type Level } from "../codes";
import { normalizeSearchText } from "../normalize";
import { matchedFormer } from "./former";
import { editDistance, maxEdits, planQuery, type QueryPlan, typoCandidates } from "./plan";
import { decodeRow, type MatchType, plainMatchType, READING, readingId } from "./protocol";
import { type PlannedSource, type SearchRow, searchPlannedSql, searchRegionsSql, searchRows } from "./queries";
import { vocabulary } from "./vocabulary";

export const MIN_QUERY_LENGTH = 2;

type Variant = { plan: QueryPlan; corrections: { typed: string; matched: string }[] };

export type SearchMatch = {
  type: MatchType;
  name: string | null;
  context: string[];
  fuzzy: boolean;
  corrections: { typed: string; matched: string }[];
  /** Matched by a name of an earlier edition only. */
  former: boolean;
};

const levelNumber = (l?: Level) => (l ? LEVELS.indexOf(l) + 1 : undefined);

/** Every reading of every variant as a source of the planned statement, with its reading id. */
function sourcesOf(variants: Variant[]): PlannedSource[] {
  const out: PlannedSource[] = [];
  variants.forEach(({ plan }, v) => {
    const fuzzy = v > 0;
    if (!fuzzy && plan.code) out.push({ kind: "code", id: plan.code, h: readingId(v, READING.CODE) });
    if (!fuzzy && plan.postal) out.push({ kind: "postal", postal: plan.postal, h: readingId(v, READING.POSTAL) });
    out.push({ kind: "literal", phrase: plan.literal.own, hint: levelNumber(plan.literal.hint), fuzzy, h: readingId(v, READING.LITERAL) });
    if (plan.typed && !fuzzy) out.push({ kind: "literal", phrase: plan.typed.own, fuzzy, h: readingId(v, READING.TYPED) });
    for (const [i, c] of plan.contexts.entries()) {
      out.push({
        kind: "context",
        own: c.own,
        hint: levelNumber(c.hint),
        context: c.context.map((x) => ({ text: x.text, level: levelNumber(x.level) })),
        fuzzy,
        h: readingId(v, { context: i }),
      });
    }
  });
  return out;
}

function describe(row: SearchRow, variants: Variant[] | null, q: string): SearchMatch {
  if (!variants) {
    const type = plainMatchType(row.key);
    return { type, name: q, context: [], fuzzy: false, corrections: [], former: matchedFormer(row.terms, row.former, q, type) };
  }
  const m = decodeRow(row.key, row.h);
  if (m.type === "code" || m.type === "postal_code") return { type: m.type, name: null, context: [], fuzzy: false, corrections: [], former: false };
  const variant = variants[m.variant];
  const reading =
    m.reading === "literal"
      ? variant.plan.literal
      : m.reading === "typed"
        ? (variant.plan.typed ?? variant.plan.literal)
        : variant.plan.contexts[m.reading.context];
  return {
    type: m.type,
    name: reading.own,
    context: reading.context.map((c) => c.text),
    fuzzy: m.fuzzy,
    corrections: m.fuzzy ? variant.corrections : [],
    former: matchedFormer(row.terms, row.former, reading.own, m.type),
  };
}

/** At most this many typo-corrected readings per query. */
const MAX_CORRECTED = 3;
const CORRECTIONS_PER_WORD = 3;

/** Corrected variants of a query from the typo candidates of its words (closest, then most used, first). */
function corrected(q: string, candidates: { q: string; w: string; n: number }[]): Variant[] {
  const perWord = new Map<string, { w: string; d: number; n: number }[]>();
  for (const c of candidates) {
    const d = editDistance(c.q, c.w);
    if (d === 0 || d > maxEdits(c.q.length)) continue;
    const list = perWord.get(c.q);
    if (list) list.push({ w: c.w, d, n: c.n });
    else perWord.set(c.q, [{ w: c.w, d, n: c.n }]);
  }
  let combos: { q: string; d: number; corrections: Variant["corrections"] }[] = [{ q, d: 0, corrections: [] }];
  for (const [word, list] of perWord) {
    const best = list.sort((a, b) => a.d - b.d || b.n - a.n || (a.w < b.w ? -1 : 1)).slice(0, CORRECTIONS_PER_WORD);
    const re = new RegExp(`(?<![a-z0-9])${word}(?![a-z0-9])`, "g");
    combos = combos
      .flatMap((c) => best.map((b) => ({ q: c.q.replace(re, b.w), d: c.d + b.d, corrections: [...c.corrections, { typed: word, matched: b.w }] })))
      .sort((a, b) => a.d - b.d)
      .slice(0, MAX_CORRECTED);
  }
  return combos.filter((c) => c.corrections.length > 0).map((c) => ({ plan: planQuery(c.q), corrections: c.corrections }));
}

/**
 * Typo candidates of the words of a plan that may be typos (letters only, 4+) and start no word of
 * the vocabulary: similar words within the word's edit distance.
 */
function typoFixes(q: string, plan: QueryPlan): Variant[] {
  const words = typoCandidates(plan);
  if (words.length === 0) return [];
  const vocab = vocabulary();
  const candidates = words
    .filter((word) => !vocab.startsAWord(word))
    .flatMap((word) => vocab.similarWords(word, maxEdits(word.length)).map((c) => ({ q: word, w: c.w, n: c.n })));
  return corrected(q, candidates);
}

/**
 * Search (docs/api.md, "Search"). One statement: the query's own readings and, when some word has no
 * exact or prefix match but has words within its edit distance (found in the isolate's vocabulary),
 * the corrected readings too.
 */
export async function search(db: RegionDb, opts: Paging & { q: string; level?: Level; includeInactive: boolean }) {
  const q = normalizeSearchText(opts.q);
  if ([...q].length < MIN_QUERY_LENGTH) {
    throw new ApiError("INVALID_QUERY", `q must be at least ${MIN_QUERY_LENGTH} characters (after trimming).`, {
      details: [{ path: "q", message: `at least ${MIN_QUERY_LENGTH} characters` }],
    });
  }
  const w = pageWindow(opts);
  const plan = planQuery(q);
  const filter = { level: levelNumber(opts.level), includeInactive: opts.includeInactive, limit: w.limit, offset: w.offset };
  const fixes = typoFixes(q, plan);
  // A plain query (one word or phrase, no hint, code, context reading or typo) keeps the suffix-index statement.
  const simple = fixes.length === 0 && !plan.code && !plan.postal && plan.contexts.length === 0 && !plan.literal.hint && plan.literal.own === q;
  const variants: Variant[] | null = simple ? null : [{ plan, corrections: [] }, ...fixes];
  const statement = variants ? searchPlannedSql(sourcesOf(variants), filter) : searchRegionsSql({ q, ...filter });
  const found = searchRows(await db.all(statement));
  return {
    data: found.rows.map((r) => ({
      id: r.id,
      name: r.name,
      alt_name: r.alt_name,
      level: LEVELS[r.level - 1],
      parent: r.parent,
      is_active: r.is_active,
      match: describe(r, variants, q),
    })),
    meta: w.meta(found.total),
  };
}
