/**
 * Readings of a query's names as people write them (docs/name-readings.md): the query rewritten
 * with compound words joined or split (`spacing`), old spellings in today's (`spelling`), short
 * forms (`abbreviation`) and colonial names (`historic`) from the curated table. The one
 * implementation, shared by search (src/wilayah/search/service.ts) and address parsing; pure: the
 * vocabulary and the table are handed in (the Worker's: search/vocabulary.ts `vocabulary()` and
 * names/shipped.ts `nameTable()`).
 *
 * A reading is a whole query string, planned like the query itself (src/wilayah/search/plan.ts
 * planQuery), so admin words, commas and context readings work on it unchanged: `kab bdg` reads
 * `kab bandung`, which the planner reads as Kabupaten Bandung.
 *
 * Which words are rewritten. A word is *dead* when it can match no name word as typed: it is no
 * vocabulary word (nor, for the query's last word, the start of one).
 * - Two adjacent words whose concatenation is a vocabulary word (`bukit tinggi`): always joined as a
 *   reading; the phrase as typed cannot find the compound.
 * - A dead word: split into two vocabulary words, or read in today's spelling.
 * - A run of up to NameTable.maxWords words holding a dead word (`sby`, `fort de kock`): read from
 *   the table; and a word of a `variant` entry (`sungai` for an official `Sei`), dead or not. A live word is a name as typed: reading `soe` (Kota Soe) as `su` would rank every
 *   Su... beside it, and `kp`, a word of four official names (Kp. Tempel), is not read as Kampung.
 * Level words the planner reads (`kab`, `kec.`...) are left to it, except that one joins with
 * the next word into a vocabulary word (`kota baru` -> Kabupaten Kotabaru, `kota waringin`).
 * `tg.pinang`, `kab.bandung`: a level word or table entry glued to the next word by its dot is cut
 * there first (a spacing rewrite).
 *
 * Which readings: each word is kept or rewritten; a kept dead word costs DEAD, a rewrite 1 (+ a
 * little by kind and by candidate rank). Of the combinations (other than the query itself) those
 * keeping the fewest dead words are the readings, cheapest first, at most MAX_READINGS:
 * `soerabaja djawa timoer` reads `surabaya jawa timur` only, not also with `djawa` left as typed; an
 * optional rewrite of known words (`bukit tinggi` -> `bukittinggi`) is offered, alone or with the others.
 *
 * Cost: at most MAX_TOKENS words (longer text has no readings: address parsing reads it part by
 * part); per word at most 2^6 spelling candidates and one split per letter, each one or two binary
 * searches of the vocabulary; a beam of BEAM partial readings. No I/O.
 */
import { knownWord, type Lexicon } from "./lexicon.ts";
import { joinWords, splitWord } from "./spacing.ts";
import { modernSpellings } from "./spelling.ts";
import { ADMIN_FORMS, LEVEL_WORDS, type NameEntry, type NameTable, STREET_WORDS } from "./table.ts";

export type ReadingKind = "spacing" | "spelling" | "abbreviation" | "historic";
export type Rewrite = { typed: string; read: string; kind: ReadingKind };
export type NameReading = {
  /** The query as read, normalised (commas kept), to plan like the query. */
  q: string;
  /** The reading's kind: the first of historic, abbreviation, spacing, spelling among its rewrites. */
  kind: ReadingKind;
  /** Each rewrite, in query order. */
  rewrites: Rewrite[];
};

export const MAX_READINGS = 4;
export const MAX_TOKENS = 8;
const BEAM = 16;
/** Keeping a word the vocabulary does not know: it can match nothing as a name word. */
const DEAD = 2;
const KIND_ORDER: readonly ReadingKind[] = ["historic", "abbreviation", "spacing", "spelling"];
/**
 * Curated entries first, then spacing, then spelling (the most guessed), except that a word with an
 * unambiguous old group (oe, dj, tj: never written today) is read in today's spelling before it is
 * split (`timoer` is `timur`, not `tim oer`).
 */
const KIND_COST: Record<ReadingKind, number> = { historic: 0, abbreviation: 0, spacing: 0.05, spelling: 0.1 };
/** A variant spelling of a known word (`bukit` as `bukik`): after the other readings, which a word as typed rarely needs less. */
const VARIANT_COST = 0.2;
const SURELY_OLD = /oe|dj|tj/;
const SURELY_OLD_COST = 0.03;
/** As the planner strips them (search/plan.ts EDGE_PUNCTUATION). */
const EDGE_PUNCTUATION = /^[.,;:()"'!?]+|[.,;:()"'!?]+$/g;
const GLUED = /^([a-z]+)\.([a-z0-9].*)$/;

type Token = {
  /** As it goes into a reading when kept (its punctuation too: `kab.` stays the planner's). */
  raw: string;
  /** Without surrounding punctuation. */
  core: string;
  part: number;
  /** A level word for the planner: never rewritten. */
  fixed: boolean;
  /** Not only letters and digits (`bau-bau`, `o'ok`): kept as typed. */
  opaque: boolean;
};

/** `dead`: words kept that the vocabulary does not know. */
type State = { cost: number; dead: number; words: { part: number; text: string }[]; rewrites: Rewrite[] };

export type NameContext = { lexicon: Lexicon; table: NameTable };

function tokenize(q: string, table: NameTable): { tokens: Token[]; glued: Rewrite[] } {
  const tokens: Token[] = [];
  const glued: Rewrite[] = [];
  const push = (raw: string, core: string, part: number) => tokens.push({ raw, core, part, fixed: ADMIN_FORMS.has(core), opaque: !/^[a-z0-9]+$/.test(core) });
  q.split(",").forEach((text, part) => {
    for (const raw of text.split(" ")) {
      let core = raw.replace(EDGE_PUNCTUATION, "");
      if (!core) continue;
      const from = core;
      const first = tokens.length;
      let m = GLUED.exec(core);
      let cut = false;
      while (m && (ADMIN_FORMS.has(m[1]) || table.get(m[1]))) {
        push(`${m[1]}.`, m[1], part);
        core = m[2];
        cut = true;
        m = GLUED.exec(core);
      }
      push(cut ? core : raw, core, part);
      if (cut)
        glued.push({
          typed: from,
          read: tokens
            .slice(first)
            .map((t) => t.core)
            .join(" "),
          kind: "spacing",
        });
    }
  });
  return { tokens, glued };
}

/** A table entry search can use: not a planner's level word nor a street's, and reading as known words. */
function usable(e: NameEntry, lexicon: Lexicon): boolean {
  return !ADMIN_FORMS.has(e.typed) && e.reads.split(" ").every((w) => !STREET_WORDS.has(w) && (LEVEL_WORDS.has(w) || lexicon.has(w)));
}

/** The extra readings of a normalised query, cheapest first, at most `max`. */
export function nameReadings(q: string, { lexicon, table }: NameContext, max = MAX_READINGS): NameReading[] {
  const { tokens, glued } = tokenize(q, table);
  const n = tokens.length;
  if (n === 0 || n > MAX_TOKENS) return [];
  const last = n - 1;
  // Dead: a word that can match no name word as typed. Level words, digits and words with inner
  // punctuation (`bau-bau`) are the planner's and the index's: never dead, never rewritten.
  const plain = tokens.map((t) => t.fixed || t.opaque || /^\d+$/.test(t.core));
  const dead = tokens.map((t, i) => !plain[i] && !knownWord(lexicon, t.core, i === last));
  // Each word joined with the next into one vocabulary word, if they join (a level word only into a
  // whole word: `kota baru` -> Kotabaru, `kota waringin`).
  const joins = tokens.map((t, i) => {
    const next = tokens[i + 1];
    if (!next || next.part !== t.part || t.opaque || next.opaque) return null;
    return joinWords(t.core, next.core, lexicon, { last: !(t.fixed || next.fixed) && i + 1 === last });
  });
  // A word with a variant spelling (`sungai` and `sei`): read the other way too, dead or not.
  const variants = tokens.map((t, i) => {
    const e = plain[i] ? undefined : table.get(t.core);
    return e?.kind === "variant" ? e : undefined;
  });
  // Most queries: every word known, none joins, no cut, no variant. Nothing to read.
  if (glued.length === 0 && !dead.includes(true) && joins.every((j) => j === null) && variants.every((v) => !v)) return [];
  const beams: State[][] = Array.from({ length: n + 1 }, () => []);
  beams[0].push({ cost: 0, dead: 0, words: [], rewrites: [] });
  const step = (from: State, to: number, cost: number, part: number, text: string, rewrite?: Rewrite) =>
    beams[to].push({
      cost: from.cost + cost,
      dead: from.dead + (cost === DEAD ? 1 : 0),
      words: [...from.words, { part, text }],
      rewrites: rewrite ? [...from.rewrites, rewrite] : from.rewrites,
    });

  for (let i = 0; i < n; i++) {
    const t = tokens[i];
    const states = beams[i].sort((a, b) => a.cost - b.cost).slice(0, BEAM);
    const isLast = i === last;
    // Options from this word: [words consumed, cost, text, rewrite]
    const options: [number, number, string, Rewrite?][] = [[1, dead[i] ? DEAD : 0, t.raw]];
    const joined = joins[i];
    if (joined) options.push([2, 1 + KIND_COST.spacing, joined, { typed: `${t.core} ${tokens[i + 1].core}`, read: joined, kind: "spacing" }]);
    const variant = variants[i];
    if (variant) options.push([1, 1 + VARIANT_COST, variant.reads, { typed: variant.typed, read: variant.reads, kind: "abbreviation" }]);
    if (!plain[i]) {
      // Table entries of 1..maxWords words starting here, inside this comma part, holding a dead word.
      const span: string[] = [];
      let spanDead = false;
      for (let k = i; k < n && k - i < table.maxWords; k++) {
        const u = tokens[k];
        if (u.part !== t.part || plain[k]) break;
        span.push(u.core);
        spanDead ||= dead[k];
        const e = spanDead ? table.get(span.join(" ")) : undefined;
        if (e && usable(e, lexicon)) {
          const kind: ReadingKind = e.kind === "historic" ? "historic" : "abbreviation";
          options.push([span.length, 1 + KIND_COST[kind], e.reads, { typed: e.typed, read: e.reads, kind }]);
        }
      }
      if (dead[i]) {
        for (const [k, [a, b]] of splitWord(t.core, lexicon, { last: isLast }).entries()) {
          options.push([1, 1 + KIND_COST.spacing + 0.01 * k, `${a} ${b}`, { typed: t.core, read: `${a} ${b}`, kind: "spacing" }]);
        }
        const spelling = SURELY_OLD.test(t.core) ? SURELY_OLD_COST : KIND_COST.spelling;
        for (const [k, w] of modernSpellings(t.core, lexicon, { last: isLast }).entries()) {
          options.push([1, 1 + spelling + 0.01 * k, w, { typed: t.core, read: w, kind: "spelling" }]);
        }
      }
    }
    for (const s of states) for (const [used, cost, text, rewrite] of options) step(s, i + used, cost, t.part, text, rewrite);
  }

  const out: NameReading[] = [];
  const seen = new Set<string>();
  // A reading that keeps a word the vocabulary does not know, where another reading reads it, is dropped.
  const ends = beams[n].filter((s) => glued.length > 0 || s.rewrites.length > 0);
  const fewestDead = Math.min(...ends.map((s) => s.dead));
  for (const s of ends.filter((e) => e.dead === fewestDead).sort((a, b) => a.cost - b.cost)) {
    const rewrites = [...glued, ...s.rewrites];
    if (rewrites.length === 0) continue;
    const parts = new Map<number, string[]>();
    for (const w of s.words) parts.set(w.part, [...(parts.get(w.part) ?? []), w.text]);
    const text = [...parts.values()].map((p) => p.join(" ")).join(", ");
    if (seen.has(text) || text === q) continue;
    seen.add(text);
    out.push({ q: text, kind: KIND_ORDER.find((k) => rewrites.some((r) => r.kind === k)) ?? rewrites[0].kind, rewrites });
    if (out.length >= max) break;
  }
  return out;
}
