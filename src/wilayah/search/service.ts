/**
 * Search (docs/api.md, "Search"): reads the query (plan.ts) and its names as people write them
 * (src/wilayah/names: spacing, old spellings, short forms, historic names), corrects typos from the
 * isolate's vocabulary (vocabulary.ts), runs one statement (queries.ts) and says why each region
 * matched (protocol.ts). Knows nothing of HTTP.
 */
import type { RegionDb } from "../../db/client";
import { ApiError } from "../../lib/errors";
import { type Paging, pageWindow } from "../../lib/paging";
import { LEVELS, type Level } from "../codes";
import { maxEdits, type NearWord, nearContextName, nearWords } from "../edits";
import { type NameReading, nameReadings, type ReadingKind } from "../names/readings";
import { nameTable } from "../names/shipped";
import { normalizeSearchText } from "../normalize";
import { matchedFormer } from "./former";
import { planQuery, type QueryPlan, typoCandidates } from "./plan";
import {
  CORRECTED_VARIANTS,
  decodeRow,
  type MatchType,
  NAME_READINGS,
  plainMatchType,
  READING,
  readingId,
  type VariantSource,
  variantNumber,
} from "./protocol";
import { type AreaRegionRow, contextRegionsSql, type PlannedSource, type SearchRow, searchPlannedSql, searchRegionsSql, searchRows } from "./queries";
import { vocabulary } from "./vocabulary";

export const MIN_QUERY_LENGTH = 2;

type Correction = { typed: string; matched: string };
type Variant = { source: VariantSource; plan: QueryPlan; corrections: Correction[]; reading: NameReading | null };

export type SearchMatch = {
  type: MatchType;
  name: string | null;
  context: string[];
  fuzzy: boolean;
  corrections: Correction[];
  /** Matched by a name of an earlier edition only. */
  former: boolean;
  /** The name reading that found it (null: the query as typed, or its typo correction). */
  reading: { kind: ReadingKind; rewrites: { typed: string; read: string }[] } | null;
};

const levelNumber = (l?: Level) => (l ? LEVELS.indexOf(l) + 1 : undefined);

/** Every reading of every variant as a source of the planned statement, with its reading id. */
function sourcesOf(variants: Variant[]): PlannedSource[] {
  const out: PlannedSource[] = [];
  for (const { plan, source: v } of variants) {
    const typed = v.kind === "typed";
    const fuzzy = v.kind === "corrected";
    if (typed && plan.code) out.push({ kind: "code", id: plan.code, h: readingId(v, READING.CODE) });
    // A BPS code finds the region it lies in, ranked and reported as a code match.
    if (typed && plan.bps) out.push({ kind: "bps", bps: plan.bps, h: readingId(v, READING.CODE) });
    if (typed && plan.postal) out.push({ kind: "postal", postal: plan.postal, h: readingId(v, READING.POSTAL) });
    out.push({ kind: "literal", phrase: plan.literal.own, hint: levelNumber(plan.literal.hint), fuzzy, substrings: typed, h: readingId(v, READING.LITERAL) });
    if (plan.typed && !fuzzy) out.push({ kind: "literal", phrase: plan.typed.own, fuzzy, substrings: typed, h: readingId(v, READING.TYPED) });
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
  }
  return out;
}

const NO_READING = { fuzzy: false, corrections: [], reading: null };

function describe(row: SearchRow, variants: Variant[] | null, q: string): SearchMatch {
  if (!variants) {
    const type = plainMatchType(row.key);
    return { type, name: q, context: [], ...NO_READING, former: matchedFormer(row.terms, row.former, q, type) };
  }
  const m = decodeRow(row.key, row.h);
  if (m.type === "code" || m.type === "postal_code") return { type: m.type, name: null, context: [], ...NO_READING, former: false };
  const n = variantNumber(m.variant);
  const variant = variants.find((x) => variantNumber(x.source) === n);
  if (!variant) throw new Error(`search: row of an unknown variant (h ${row.h})`);
  const r =
    m.reading === "literal"
      ? variant.plan.literal
      : m.reading === "typed"
        ? (variant.plan.typed ?? variant.plan.literal)
        : variant.plan.contexts[m.reading.context];
  const reading = variant.reading && { kind: variant.reading.kind, rewrites: variant.reading.rewrites.map(({ typed, read }) => ({ typed, read })) };
  return {
    type: m.type,
    name: r.own,
    context: r.context.map((c) => c.text),
    fuzzy: m.fuzzy,
    corrections: m.fuzzy ? variant.corrections : [],
    former: matchedFormer(row.terms, row.former, r.own, m.type),
    reading,
  };
}

const CORRECTIONS_PER_WORD = 3;

/** Per typed word, its candidates within its edit budget, likeliest first (edits.ts `nearWords`). */
type Candidates = Map<string, NearWord[]>;

/** `word` as a whole word of a query, for replacing it. */
const wholeWord = (word: string) => new RegExp(`(?<![a-z0-9])${word}(?![a-z0-9])`, "g");

/** Corrected variants of a query from the typo candidates of its words (likeliest first). */
function corrected(q: string, candidates: Candidates): Variant[] {
  let combos: { q: string; d: number; corrections: Correction[] }[] = [{ q, d: 0, corrections: [] }];
  for (const [word, list] of candidates) {
    const best = list.slice(0, CORRECTIONS_PER_WORD);
    const re = wholeWord(word);
    combos = combos
      .flatMap((c) => best.map((b) => ({ q: c.q.replace(re, b.w), d: c.d + b.d, corrections: [...c.corrections, { typed: word, matched: b.w }] })))
      .sort((a, b) => a.d - b.d)
      .slice(0, CORRECTED_VARIANTS);
  }
  return combos
    .filter((c) => c.corrections.length > 0)
    .map((c, index) => ({ source: { kind: "corrected", index }, plan: planQuery(c.q), corrections: c.corrections, reading: null }));
}

/**
 * Variants correcting one word each (the others as typed), the words taking turns, rarest first:
 * each word's closest candidate first, then each word's second. For the second statement, where any word may be
 * the misspelt one and the others right.
 */
function correctedOne(q: string, candidates: Candidates): Variant[] {
  // The rarer a word as typed (the fewer names use it), the likelier it is the misspelt one: its turn comes first.
  const vocab = vocabulary();
  const lists = [...candidates].map(([word, list]) => ({ word, list })).sort((a, b) => vocab.uses(a.word) - vocab.uses(b.word));
  const out: Variant[] = [];
  for (let rank = 0; out.length < CORRECTED_VARIANTS && lists.some((l) => l.list.length > rank); rank++) {
    for (const { word, list } of lists) {
      const b = list[rank];
      if (!b || out.length >= CORRECTED_VARIANTS) continue;
      out.push({
        source: { kind: "corrected", index: out.length },
        plan: planQuery(q.replace(wholeWord(word), b.w)),
        corrections: [{ typed: word, matched: b.w }],
        reading: null,
      });
    }
  }
  return out;
}

/**
 * Typo candidates of the words of a plan that may be typos (letters only, 4+) and start no word of
 * the vocabulary (`knownToo`: also those that do): similar words within the word's edit distance. A word that a name reading read in
 * today's spelling or from the table is no typo (`timoer` is `timur`, not also `timor`); a word it
 * only split still may be (`sobanan` splits into `soba nan`, which finds nothing: it is `sobangan`).
 */
function typoFixes(q: string, plan: QueryPlan, readings: NameReading[], knownToo = false): Variant[] {
  const read = new Set(readings.flatMap((r) => r.rewrites.filter((w) => w.kind !== "spacing").flatMap((w) => w.typed.split(" "))));
  const words = typoCandidates(plan).filter((w) => !read.has(w));
  if (words.length === 0) return [];
  const vocab = vocabulary();
  const candidates: Candidates = new Map();
  for (const word of words) {
    if (!knownToo && vocab.startsAWord(word)) continue;
    const near = nearWords(word, vocab.similarWords(word, maxEdits(word.length)), maxEdits(word.length));
    if (near.length) candidates.set(word, near);
  }
  return knownToo ? correctedOne(q, candidates) : corrected(q, candidates);
}

/** Words of a context searched at the end of a query (`sumba barat daya`). */
const CONTEXT_WORDS = 3;
/** Regions a context fallback returns at most. */
const CONTEXT_RESULTS = 10;

/**
 * The last resort for a query of several words that found nothing, even with each word corrected:
 * its last 1 to CONTEXT_WORDS words read as the kabupaten/kota or provinsi they name exactly, the
 * words before them compared with the names of that region's kecamatan and villages (a provinsi's
 * kecamatan) as written, within one edit per eight letters (at least one): `kaur pamekasan` is
 * Kadur, Kabupaten Pamekasan, though `kaur` is a name elsewhere. Nearest first, kecamatan before
 * villages at the same distance. One statement (queries.ts `contextRegionsSql`).
 */
async function contextFallback(db: RegionDb, q: string, level?: Level) {
  const words = q.replace(/,/g, " ").split(" ").filter(Boolean);
  if (words.length < 2) return [];
  const splits = Array.from({ length: Math.min(CONTEXT_WORDS, words.length - 1) }, (_, i) => ({
    name: words.slice(0, words.length - 1 - i).join(" "),
    ctx: words.slice(words.length - 1 - i).join(" "),
  }));
  const rows = await db.all<AreaRegionRow>(contextRegionsSql(splits.map((s) => s.ctx)));
  const best = new Map<string, { row: AreaRegionRow; d: number; name: string; typed: string; ctx: string }>();
  for (const row of rows) {
    if (level && LEVELS[row.level - 1] !== level) continue;
    const split = splits.find((s) => s.ctx === row.ctx);
    if (!split || split.name.length < 4) continue;
    const near = nearContextName(split.name, [row.name, row.alt_name]);
    if (!near) continue;
    const cur = best.get(row.id);
    if (!cur || near.d < cur.d) best.set(row.id, { row, d: near.d, name: near.name, typed: split.name, ctx: split.ctx });
  }
  return [...best.values()]
    .sort((a, b) => a.d - b.d || a.row.level - b.row.level || (a.row.id < b.row.id ? -1 : 1))
    .slice(0, CONTEXT_RESULTS)
    .map(({ row, name, typed, ctx, d }) => ({
      id: row.id,
      name: row.name,
      alt_name: row.alt_name,
      level: LEVELS[row.level - 1],
      parent: row.parent,
      is_active: row.is_active,
      match: {
        type: "word" as MatchType,
        name,
        context: [ctx],
        fuzzy: true,
        corrections: d > 0 ? [{ typed, matched: name }] : [],
        former: false,
        reading: null,
      } satisfies SearchMatch,
    }));
}

/**
 * Search (docs/api.md, "Search"). One statement: the query as typed, its name readings (ranked like
 * it) and, when some word has no exact or prefix match but has words within its edit distance (found
 * in the isolate's vocabulary), the corrected readings after them.
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
  const readings = nameReadings(q, { lexicon: vocabulary(), table: nameTable() }, NAME_READINGS);
  const fixes = typoFixes(q, plan, readings);
  // A plain query (one word or phrase, no hint, code, context reading, name reading or typo) keeps the suffix-index statement.
  const simple =
    readings.length === 0 &&
    fixes.length === 0 &&
    !plan.code &&
    !plan.postal &&
    !plan.bps &&
    plan.contexts.length === 0 &&
    !plan.literal.hint &&
    plan.literal.own === q;
  let variants: Variant[] | null = simple
    ? null
    : [
        { source: { kind: "typed" }, plan, corrections: [], reading: null },
        ...readings.map((reading, index): Variant => ({ source: { kind: "reading", index }, plan: planQuery(reading.q), corrections: [], reading })),
        ...fixes,
      ];
  const statement = variants ? searchPlannedSql(sourcesOf(variants), filter) : searchRegionsSql({ q, ...filter });
  let found = searchRows(await db.all(statement));
  // Nothing at all for a query of several words: a word that is itself a name may be a misspelling
  // of the one the others' context needs (`kujang kediri` is Kunjang, Kabupaten Kediri; Kujang is
  // a name elsewhere). A second statement, only then, with those words corrected too.
  if (found.total === 0 && w.offset === 0 && q.includes(" ")) {
    const known = typoFixes(q, plan, readings, true);
    if (known.length) {
      variants = [
        ...(variants ?? [{ source: { kind: "typed" }, plan, corrections: [], reading: null }]).filter((v) => v.source.kind !== "corrected"),
        ...known,
      ];
      found = searchRows(await db.all(searchPlannedSql(sourcesOf(variants), filter)));
    }
    if (found.total === 0) {
      const near = await contextFallback(db, q, opts.level);
      if (near.length) return { data: near.slice(0, w.limit), meta: w.meta(near.length) };
    }
  }
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
